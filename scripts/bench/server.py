"""Serve the benchmark site from a separate process on 127.0.0.1, and read its access log.

nginx (from Debian) is what the issue's reference numbers used: it costs the crawlers almost
nothing and logs every request with a millisecond timestamp. That log is how each crawl's window
is measured the same way for every crawler: first request to last request, excluding each
crawler's own start-up and shutdown. If nginx cannot be installed, a small aiohttp static server
writes the same log format.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

NGINX_CONF = """
worker_processes 1;
user root;
daemon off;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type text/html;
    log_format bench '$msec $status $request_uri';
    access_log {work}/access.log bench;
    sendfile on;
    tcp_nodelay on;
    keepalive_requests 100000;
    keepalive_timeout 120s;
    client_body_temp_path {work}/tmp_body;
    proxy_temp_path {work}/tmp_proxy;
    fastcgi_temp_path {work}/tmp_fastcgi;
    uwsgi_temp_path {work}/tmp_uwsgi;
    scgi_temp_path {work}/tmp_scgi;
    server {{
        listen 127.0.0.1:{port};
        root {root};
        location /static/ {{ expires 1h; }}
        location / {{ try_files $uri =404; }}
    }}
}}
"""

AIOHTTP_SERVER = r"""
import sys, time
from pathlib import Path
from aiohttp import web

root, port, log_path = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
log = open(log_path, "a", buffering=1)

@web.middleware
async def access(request, handler):
    status = 500
    try:
        resp = await handler(request)
        status = resp.status
        if request.path.startswith("/static/"):
            resp.headers["Cache-Control"] = "max-age=3600"
        return resp
    except web.HTTPException as exc:
        status = exc.status
        raise
    finally:
        log.write(f"{time.time():.3f} {status} {request.path_qs}\n")

async def page(request):
    p = (root / request.match_info["tail"]).resolve()
    if root not in p.parents or not p.is_file():
        raise web.HTTPNotFound()
    ctype = "application/json" if p.suffix == ".json" else "text/css" if p.suffix == ".css" else (
        "application/javascript" if p.suffix == ".js" else "image/png" if p.suffix == ".png" else "text/html")
    return web.Response(body=p.read_bytes(), content_type=ctype)

app = web.Application(middlewares=[access])
app.router.add_get("/{tail:.*}", page)
web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_nginx() -> str | None:
    """Path of nginx, installing it with apt-get on first use; None if that is impossible."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return None
    print("bench: installing nginx (apt-get install -y nginx) ...", file=sys.stderr)
    r = subprocess.run(["apt-get", "install", "-y", "nginx"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"bench: nginx install failed: {r.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return shutil.which("nginx") or "/usr/sbin/nginx"


@dataclass
class Window:
    """What the server saw between two log offsets."""

    first: float
    last: float
    requests: int
    pages: set[str]  # distinct item page paths answered 200

    @property
    def seconds(self) -> float:
        return max(self.last - self.first, 1e-6)


class SiteServer:
    """nginx (or the aiohttp fallback) serving ``root`` on a free 127.0.0.1 port."""

    def __init__(self, root: Path, work: Path, force_aiohttp: bool = False) -> None:
        self.root = root
        self.work = work
        self.port = free_port()
        self.log = work / "access.log"
        self.kind = "aiohttp"
        self._proc: subprocess.Popen | None = None
        self._nginx = None if force_aiohttp else ensure_nginx()

    def start(self) -> SiteServer:
        self.work.mkdir(parents=True, exist_ok=True)
        self.log.write_text("")
        if self._nginx:
            conf = self.work / "nginx.conf"
            conf.write_text(NGINX_CONF.format(work=self.work, port=self.port, root=self.root))
            self._proc = subprocess.Popen(
                [self._nginx, "-c", str(conf), "-p", str(self.work)],
                stdout=subprocess.DEVNULL,
                stderr=open(self.work / "nginx.stderr", "w"),  # noqa: SIM115 - lives as long as nginx
            )
            self.kind = "nginx"
        else:
            script = self.work / "aiohttp_server.py"
            script.write_text(AIOHTTP_SERVER)
            self._proc = subprocess.Popen(
                [sys.executable, str(script), str(self.root), str(self.port), str(self.log)],
                stdout=subprocess.DEVNULL,
            )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"{self.kind} exited at start; see {self.work}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            time.sleep(0.05)
        raise RuntimeError(f"{self.kind} did not start listening on {self.port}")

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()

    def offset(self) -> int:
        return self.log.stat().st_size

    def window(self, start: int, item_prefix: str) -> Window | None:
        """Requests logged after byte ``start``; pages are 200s under ``item_prefix``."""
        time.sleep(0.2)  # let the server flush its last lines
        with open(self.log, "rb") as f:
            f.seek(start)
            lines = f.read().decode("utf-8", "replace").splitlines()
        stamps: list[float] = []
        pages: set[str] = set()
        for line in lines:
            parts = line.split(" ", 2)
            if len(parts) != 3:
                continue
            stamps.append(float(parts[0]))
            if parts[1] == "200" and parts[2].startswith(item_prefix):
                pages.add(parts[2])
        if not stamps:
            return None
        return Window(min(stamps), max(stamps), len(stamps), pages)
