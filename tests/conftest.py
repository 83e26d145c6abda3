"""Fixtures shared by the suite: free loopback ports, a launched Chromium, Xvfb for headed tests."""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from browsercrawl.engine.browser import open_browser

# Tests import torch themselves (pytest.importorskip) before the product's import_torch can tell
# OpenMP's idle workers to sleep; spinning ones starve the parallel suite on a loaded machine.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def port() -> int:
    return free_port()


@pytest_asyncio.fixture
async def browser() -> AsyncIterator:
    """A real headless Chromium, one per test (tests must not share cookies or pages)."""
    async with open_browser() as b:
        yield b


@pytest.fixture(scope="session")
def xvfb_display() -> Iterator[str]:
    """Start Xvfb on a free display for headed-browser tests and point DISPLAY at it."""
    if not shutil.which("Xvfb"):
        pytest.fail("Xvfb is not installed; scripts/setup.sh installs it")
    display = None
    proc = None
    for n in range(90, 140):
        if os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        proc = subprocess.Popen(
            ["Xvfb", f":{n}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(50):
            if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                display = f":{n}"
                break
            time.sleep(0.1)
        if display:
            break
        proc.kill()
    if not display:
        pytest.fail("could not start Xvfb")
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    yield display
    if old is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = old
    proc.terminate()
    proc.wait(5)


# -- storage backends: the same tests on SQLite and on PostgreSQL ---------------------------------
# Tests that take the ``crawl_db`` fixture run once per backend named by --backends (or the
# BROWSERCRAWL_TEST_BACKENDS variable): "sqlite" by default, "sqlite,postgresql" in the CI job
# that checks both (scripts/test.sh). PostgreSQL and Redis are real servers started here.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backends",
        default=os.environ.get("BROWSERCRAWL_TEST_BACKENDS", "sqlite"),
        help="comma-separated storage backends for tests using crawl_db: sqlite, postgresql",
    )


# The files that take longest, longest first (summed test durations, measured with --durations on
# a loaded machine). Workers take whole files in collection order (--dist loadfile with
# --no-loadscope-reorder: xdist's own order, by number of tests, put the one-test demo run last,
# where it ran alone for five minutes while the other workers sat idle); started first, the short
# files fill in around them. A stale list costs only time, never a result.
SLOW_FILES = (
    "test_captcha_cli.py", "test_captcha_views.py", "test_demo_run.py", "test_session_crawl.py",
    "test_session_detection.py", "test_discover.py", "test_engine_crawl.py", "test_engine_settle.py",
    "test_api_shortcut.py", "reliability/test_crawl_guards.py", "reliability/test_kill.py",
    "test_distributed.py", "test_captcha_self_train.py", "test_session_login.py",
    "reliability/test_bad_input.py", "test_search.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow files first (see ``SLOW_FILES``); the order within a file and among the rest is kept."""
    rank = {name: i for i, name in enumerate(SLOW_FILES)}

    def key(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0].removeprefix("tests/")
        return rank.get(path, len(SLOW_FILES))

    items.sort(key=key)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "crawl_db" in metafunc.fixturenames:
        backends = [b.strip() for b in metafunc.config.getoption("backends").split(",") if b.strip()]
        for b in backends:
            if b not in ("sqlite", "postgresql"):
                raise pytest.UsageError(f"--backends: unknown backend {b!r}")
        metafunc.parametrize("crawl_db", backends, indirect=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator:
    from browsercrawl_demo.services import PostgresServer

    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator:
    from browsercrawl_demo.services import RedisServer

    server = RedisServer().start()
    yield server
    server.stop()


_db_counter = itertools.count()


@pytest.fixture
def pg_database(request: pytest.FixtureRequest) -> str:
    """The URL of a new, empty PostgreSQL database on the session's server."""
    server = request.getfixturevalue("pg_server")
    return server.create_database(f"t{os.getpid()}_{next(_db_counter)}")


class CrawlDb:
    """A crawl database for a test: what to write in ``output.database`` and how to query it."""

    def __init__(self, backend: str, database: str) -> None:
        self.backend = backend
        self.database = database

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of a SQLite-style query (translated for PostgreSQL)."""
        from browsercrawl.storage.reader import open_reader

        reader = open_reader(self.database)
        try:
            return [tuple(r) for r in reader.execute(sql, params).fetchall()]
        finally:
            reader.close()

    def __str__(self) -> str:
        return self.database


@pytest.fixture
def crawl_db(request: pytest.FixtureRequest, tmp_path) -> CrawlDb:
    if request.param == "postgresql":
        return CrawlDb("postgresql", request.getfixturevalue("pg_database"))
    return CrawlDb("sqlite", str(tmp_path / "crawl.db"))
