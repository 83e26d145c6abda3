"""Every trace browsercrawl writes (a failed login, a failed page of a crawl) holds no password, no
cookie value, no storage value and no Authorization header, and is written mode 600."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import quote_plus

import pytest
from aiohttp import web

from tests.apps.server import serve_in_thread
from tests.conftest import free_port

BC = [sys.executable, "-m", "browsercrawl"]
PASSWORD = "s3cret pa$$word&=x"  # spaces and symbols: the form post URL-encodes it
VISIT, SID, TOKEN, BEARER = "visit-7d1f0c9a2b", "sid-52e8aa01cc9", "token-0b77f3e1d4", "bearer-9c4e11a7f2"
SHORT = "q1"  # a cookie value too short to replace everywhere: its header and pair still are

PAGE = """<html><head><title>{title}</title><script>
localStorage.setItem('token', '{token}');
const x = new XMLHttpRequest(); x.open('GET', '/api/me', false);
x.setRequestHeader('Authorization', 'Bearer {bearer}'); x.send();
</script></head><body>{body}
<form method="post" action="/login"><input name="username"><input name="password" type="password">
<button type="submit">Log in</button></form></body></html>"""


def leaky_site() -> web.Application:
    """A login that always fails, and a page that fails with 500, both full of secrets."""

    def page(title: str, body: str, status: int = 200) -> web.Response:
        resp = web.Response(text=PAGE.format(title=title, body=body, token=TOKEN, bearer=BEARER),
                            content_type="text/html", status=status)
        resp.set_cookie("visit", VISIT)
        resp.set_cookie("short", SHORT)
        return resp

    async def login_form(request: web.Request) -> web.Response:
        return page("Log in", "<p>Please log in</p>")

    async def login_post(request: web.Request) -> web.Response:
        resp = page("Log in", "<p class=error>Wrong username or password</p>")
        resp.set_cookie("sid", SID)
        return resp

    async def api(request: web.Request) -> web.Response:
        return web.json_response({"me": "nobody"})

    async def broken(request: web.Request) -> web.Response:
        return page("broken", "<p>server error</p>", status=500)

    app = web.Application()
    app.add_routes([web.get("/login", login_form), web.post("/login", login_post), web.get("/api/me", api),
                    web.get("/broken", broken)])
    return app


def assert_scrubbed(trace: Path, *, typed_password: bool) -> None:
    assert stat.S_IMODE(trace.stat().st_mode) == 0o600
    with zipfile.ZipFile(trace) as z:
        entries = {name: z.read(name) for name in z.namelist()}
    everything = b"\n".join(entries.values())
    for secret in (PASSWORD, quote_plus(PASSWORD), json.dumps(PASSWORD)[1:-1], VISIT, SID, TOKEN, BEARER):
        assert secret.encode() not in everything, f"{secret!r} is in the trace"
    network = entries["trace.network"].decode()
    headers = [h for line in network.splitlines() for h in _headers(json.loads(line))]
    secret_headers = [h for h in headers if h["name"].lower() in ("cookie", "set-cookie", "authorization")]
    assert secret_headers, "the trace should have recorded the secret headers (scrubbed)"
    assert all(h["value"] == "***" for h in secret_headers), secret_headers
    if typed_password:
        assert b"__playwright_value_" in entries["trace.trace"]  # the snapshots had the typed fields


def _headers(event: object) -> list[dict]:
    """Every {"name", "value"} header object of a trace.network event."""
    found: list[dict] = []
    if isinstance(event, dict):
        for key, value in event.items():
            if key == "headers" and isinstance(value, list):
                found += [h for h in value if isinstance(h, dict) and "name" in h]
            else:
                found += _headers(value)
    elif isinstance(event, list):
        for item in event:
            found += _headers(item)
    return found


@pytest.mark.browser
def test_a_failed_login_trace_holds_no_secret(tmp_path):
    with serve_in_thread(leaky_site(), free_port()) as base:
        args = ["login", "form", f"{base}/login", "--username", "ann", "--password-env", "LEAKY_PW",
                "--trace", str(tmp_path / "traces")]
        res = subprocess.run([*BC, *args], capture_output=True, text=True, timeout=300,
                             env={**os.environ, "LEAKY_PW": PASSWORD})
    assert res.returncode == 3, res.stderr
    traces = list((tmp_path / "traces").glob("login-failed-*.zip"))
    assert len(traces) == 1, res.stderr
    assert_scrubbed(traces[0], typed_password=True)


@pytest.mark.browser
def test_a_crawl_trace_of_a_failed_page_holds_no_secret(tmp_path):
    with serve_in_thread(leaky_site(), free_port()) as base:
        job = tmp_path / "job.toml"
        job.write_text(f'seeds = ["{base}/broken"]\n[politeness]\nmax_retries = 0\nobey_robots = false\n'
                       '[output]\ndatabase = "crawl.db"\n')
        res = subprocess.run([*BC, "crawl", "-q", str(job), "--trace", str(tmp_path / "traces")],
                             capture_output=True, text=True, timeout=300)
    assert res.returncode == 1, res.stderr
    traces = list((tmp_path / "traces").glob("*.zip"))
    assert len(traces) == 1, res.stderr
    assert_scrubbed(traces[0], typed_password=False)


def test_the_scrubber_masks_headers_password_fields_and_cookie_pairs(tmp_path):
    from browsercrawl.engine.traces import scrub_trace

    raw = tmp_path / "raw.zip"
    with zipfile.ZipFile(raw, "w") as z:
        z.writestr("trace.network", json.dumps({"request": {"headers": [
            {"name": "Authorization", "value": "Basic YWxhZGRpbjpvcGVu"},
            {"name": "Accept", "value": "*/*"}]}}))
        z.writestr("trace.trace", json.dumps(["INPUT", {"type": "password", "__playwright_value_": "typed"}])
                   + json.dumps({"cookies": [{"name": "short", "value": SHORT}]}))
        z.writestr("resources/post.dat", f"user=ann&password={quote_plus(PASSWORD)}")
    out = tmp_path / "clean.zip"
    scrub_trace(raw, out, {PASSWORD}, {"short"})
    with zipfile.ZipFile(out) as z:
        text = "".join(z.read(n).decode() for n in z.namelist())
    assert "YWxhZGRpbjpvcGVu" not in text and '"value": "*/*"' in text
    assert "typed" not in text and f'"value": "{SHORT}"' not in text
    assert quote_plus(PASSWORD) not in text and "user=ann&password=***" in text
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
