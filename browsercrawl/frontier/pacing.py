"""The per-host delay, kept where the requests leave, not where they are scheduled.

The scheduler hands out a host's requests at least ``delay`` apart, but a request starts later
than it is handed out (robots.txt, a free tab, the event loop's other work), and by a different
amount each time: under load two requests scheduled 0.5 s apart reached the server 0.37 s apart.
So the fetchers also pass through the host's :class:`HostPacer` right before sending:

* a request may be sent only ``delay`` after the previous one of its host *reached the server*;
* the client knows a request reached the server when the response's first bytes arrive (or the
  request ended without one), so that moment is what the pacer measures from.

Then, whatever the load on either side, the gap between two request starts at the server is at
least ``delay``: the earlier one arrived before its response began, the later one is sent
``delay`` after that. The price is the time to the first byte of each response, not the render.

The worker handling a request names its host's pacer in :data:`current_pacer` (a context
variable, so tasks a fetch spawns inherit it); a fetch outside a crawl has none and is not paced.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager


class Turn:
    """One request's turn at its host; :meth:`reached` when its response starts arriving."""

    def __init__(self, pacer: HostPacer | None) -> None:
        self._pacer = pacer

    @property
    def paced(self) -> bool:
        """False when nothing waits for :meth:`reached` (no delay): the fetcher need not watch."""
        return self._pacer is not None

    def reached(self) -> None:
        """The request is known to be at the server: the next one may be sent ``delay`` from now."""
        pacer, self._pacer = self._pacer, None
        if pacer is not None:
            pacer._reached_at = time.monotonic()
            pacer._lock.release()


class HostPacer:
    """Keeps one host's request starts at least ``delay`` seconds apart at the server."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self._lock = asyncio.Lock()
        self._reached_at = -float("inf")

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[Turn]:
        """Wait until this host may receive a request, then hold it until :meth:`Turn.reached`
        (called by the fetcher, or on leaving the block if the request never got an answer)."""
        if self.delay <= 0:
            yield Turn(None)
            return
        await self._lock.acquire()
        try:
            # A timer may fire a hair early (the loop's clock resolution): wait until it is time.
            while (wait := self._reached_at + self.delay - time.monotonic()) > 0:
                await asyncio.sleep(wait)
        except BaseException:
            self._lock.release()
            raise
        turn = Turn(self)
        try:
            yield turn
        finally:
            turn.reached()


current_pacer: contextvars.ContextVar[HostPacer | None] = contextvars.ContextVar(
    "current_pacer", default=None)


class _NoWait:
    """The turn of a request nothing paces: a plain object, as every request of a crawl without a
    delay passes through it (two generator-based context managers were 3% of an HTTP page's CPU)."""

    _turn = Turn(None)

    async def __aenter__(self) -> Turn:
        return self._turn

    async def __aexit__(self, *exc: object) -> None:
        return None


_NO_WAIT = _NoWait()


def paced() -> AbstractAsyncContextManager[Turn]:
    """The current request's turn at its host (no waiting outside a crawl or without a delay)."""
    pacer = current_pacer.get()
    if pacer is None or pacer.delay <= 0:
        return _NO_WAIT
    return pacer.turn()
