"""One writer per crawl database: an OS lock on a file beside it, held for the whole crawl.

Two crawls of one job at once would interleave their frontiers in one file. The second one
refuses in one line instead. The lock is ``flock`` on ``<database>.lock``: the kernel releases it
when the process ends in any way (kill -9 included), so a crashed crawl never leaves a stale lock;
the file itself stays (deleting it would let a third process lock a different inode).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from browsercrawl.errors import UserError


class DatabaseLock:
    """An exclusive, non-blocking lock on ``<database>.lock``; ``release`` or process exit frees it."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = Path(f"{database}.lock")
        self._fd: int | None = None

    def acquire(self) -> DatabaseLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise UserError(f"{self.path}: cannot create the crawl's lock file: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise UserError(f"{self.database}: another crawl (pid {holder}) is writing to this database; "
                            "wait for it to end or stop it first") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
