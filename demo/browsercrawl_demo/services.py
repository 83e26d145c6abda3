"""Throwaway Redis and PostgreSQL servers on loopback, for tests, benchmarks and local multi-worker crawls.

Real servers from Debian (``redis-server``, PostgreSQL's ``initdb``/``postgres``), each in a
temporary folder, listening on 127.0.0.1 only, stopped and removed at the end. PostgreSQL refuses
to run as root, so as root it runs as the ``postgres`` system user (``runuser``); its folder is
made outside pytest's private temporary tree so that user can reach it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(check, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception as exc:
            last = exc
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not start within {timeout:.0f}s ({last})")


class RedisServer:
    """``redis-server`` on 127.0.0.1, no persistence."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = Path(tempfile.mkdtemp(prefix="browsercrawl-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisServer:
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server is not installed; scripts/setup.sh installs it")
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir), "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def _ping() -> bool:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")

        _wait(_ping, "redis-server")
        return self

    def info_memory(self) -> int:
        """used_memory of the server, in bytes."""
        import redis

        client = redis.Redis.from_url(self.url)
        try:
            return int(client.info("memory")["used_memory"])
        finally:
            client.close()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not candidates:
        raise RuntimeError("PostgreSQL is not installed; scripts/setup.sh installs it")
    return candidates[-1]


class PostgresServer:
    """A PostgreSQL cluster of its own on 127.0.0.1 (trust authentication: loopback, tests only)."""

    def __init__(self, port: int | None = None, *, durable: bool = False) -> None:
        self.port = port or free_port()
        self.durable = durable  # False: fsync off, as a test needs no crash safety of the server
        self.dir = Path(tempfile.mkdtemp(prefix="browsercrawl-pg-"))
        self.data = self.dir / "data"
        self.user = "postgres"
        self.proc: subprocess.Popen[bytes] | None = None
        self._as: list[str] = []
        if os.geteuid() == 0:
            runas = "postgres" if _user_exists("postgres") else "nobody"
            self._as = ["runuser", "-u", runas, "--"]
            pw = pwd.getpwnam(runas)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        os.chmod(self.dir, 0o700)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def start(self) -> PostgresServer:
        subprocess.run(
            [*self._as, _pg_bin("initdb"), "-D", str(self.data), "-U", self.user, "--auth=trust",
             "--encoding=UTF8", "--locale=C.UTF-8", "--no-instructions"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        opts = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
                "-c", "max_connections=200", "-c", "shared_buffers=128MB"]
        if not self.durable:
            opts += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
        self.proc = subprocess.Popen(
            [*self._as, _pg_bin("postgres"), "-D", str(self.data), "-p", str(self.port), *opts],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

        def _ready() -> bool:
            import psycopg

            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"postgres exited with {self.proc.returncode}")
            with psycopg.connect(self.url(), connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return True

        _wait(_ready, "postgres")
        return self

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def database_size(self, name: str) -> int:
        import psycopg

        with psycopg.connect(self.url(name)) as conn:
            return int(conn.execute("SELECT pg_database_size(current_database())").fetchone()[0])

    def stop(self) -> None:
        if self.proc is not None:
            # SIGINT: "fast" shutdown (the server ends its sessions and stops at once).
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
            self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@contextlib.contextmanager
def local_services(*, durable: bool = False) -> Iterator[tuple[RedisServer, PostgresServer]]:
    """A Redis and a PostgreSQL server for the duration of the block."""
    redis_server = RedisServer().start()
    try:
        pg = PostgresServer(durable=durable).start()
        try:
            yield redis_server, pg
        finally:
            pg.stop()
    finally:
        redis_server.stop()
