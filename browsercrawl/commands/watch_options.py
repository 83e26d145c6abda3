"""The options every command that drives the crawl's browser takes for watching it run."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

F = TypeVar("F", bound=Callable)


def watch_options(command: F) -> F:
    """Add ``--headed`` and ``--slow-mo MS`` (passed as ``headed`` and ``slow_mo``).

    One definition, so ``crawl`` and ``induce`` cannot drift apart in spelling, range or help.
    """
    command = click.option(
        "--slow-mo",
        "slow_mo",
        type=click.FloatRange(min=0),
        default=None,
        metavar="MS",
        help="Slow every browser operation by MS milliseconds, for watching it.",
    )(command)
    return click.option("--headed", is_flag=True, help="Show the browser window (needs a display).")(command)
