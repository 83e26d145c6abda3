"""Keep numpy's BLAS to one thread inside CAPTCHA work.

The matrices here are small (a few hundred rows); on a shared 2-core machine a multi-threaded BLAS
spends its time spin-waiting for busy cores. Measured while other jobs ran: an MLP fit went from
160 s to a few seconds and CTC inference from ~400 ms to a few ms per image with one thread.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from functools import lru_cache


@lru_cache(maxsize=1)
def _controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def single_threaded() -> AbstractContextManager:
    """A context manager limiting BLAS/OpenMP pools to one thread (about 10 us to enter)."""
    return _controller().limit(limits=1)
