"""A lost session is noticed with nothing configured beyond the login: a 403, a guest page with a
sign-in link, or a page that lacks the logged-in signal learned at login time. Such pages are
fetched again after a re-login, never stored; relation lists refused during the loss are read
again after it, and a list that keeps failing fails its page instead of storing an empty list."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from aiohttp import web

from browsercrawl.config.job import load_job
from browsercrawl.session.detect import Learned
from browsercrawl.session.manager import SessionManager
from tests.apps.forum import PASSWORD, PEOPLE, THREADS, Forum, follows_of
from tests.apps.server import serve_in_thread

pytestmark = pytest.mark.browser
BC = [sys.executable, "-m", "browsercrawl"]

SOCIAL = """
[social]
person_url = '/u/(\\d+)$'
follow_links = "all"
[[social.relations]]
kind = "follows"
source = "json_api"
url = "/api/u/{id}/follows?page={page}"
list_path = "items"
next_path = "next"
fields = {url = "url"}
"""


def write_job(tmp_path: Path, base: str, social: bool = False) -> Path:
    job = tmp_path / "job.toml"
    job.write_text(f"""
seeds = ["{base}/home"]
[scope]
deny = ["/logout"]
[politeness]
concurrency = 2
per_host_concurrency = 2
retry_backoff_seconds = 0.1
[rendering]
wait_until = "domcontentloaded"
[output]
database = "crawl.db"
[session]
method = "form"
login_url = "{base}/login"
[[session.accounts]]
username = "ann"
password_env = "BC_FORUM_PW"
{SOCIAL if social else ""}""")
    return job


async def logged_in_manager(tmp_path: Path, base: str, browser) -> tuple[SessionManager, object]:
    """The session part of the forum's job, and a browser context it has logged in."""
    job = load_job(write_job(tmp_path, base))
    manager = SessionManager(job.session, job, job_path=job.source_path)
    return manager, await manager.new_context(browser, None)


def run(job: Path) -> tuple[subprocess.CompletedProcess, dict]:
    r = subprocess.run([*BC, "crawl", str(job), "--quiet"], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "BC_FORUM_PW": PASSWORD})
    return r, (json.loads(r.stdout) if r.stdout.strip() else {})


def pages(db: Path) -> dict[str, tuple[int, str, str]]:
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT url, status, title, text FROM pages")
        return {u.split("/", 3)[3]: (s, t, x) for u, s, t, x in rows}


@pytest.mark.parametrize("gone", ["403", "signin", "plain"])
def test_a_quietly_lost_session_is_noticed_without_configuration(tmp_path, port, gone):
    forum = Forum(gone=gone, max_requests=7)
    with serve_in_thread(forum.app(), port) as base:
        r, summary = run(write_job(tmp_path, base, social=True))
    assert r.returncode == 0, r.stderr[-3000:]
    got = pages(tmp_path / "crawl.db")
    threads = range(1, THREADS + 1)
    want = {"home"} | {f"t/{i}" for i in threads} | {f"print/{i}" for i in threads if i != 13} \
        | {f"u/{i}" for i in range(PEOPLE)}
    assert set(got) == want, set(got) ^ want
    # Nothing stored as the logged-out page; the page forbidden to everyone is kept as it is.
    for path, (status, title, text) in got.items():
        if path == "t/13":
            assert status == 403 and "moderators" in text
            continue
        if gone == "plain" and path.startswith("print/"):
            # A shape that never shows the signal cannot be judged by its absence (documented):
            # a logged-out print page that looks like a logged-in one may be stored.
            continue
        assert status == 200 and "guest" not in text and "not available" not in text, (path, title)
    s = summary["session"]
    assert summary["failed"] == 0 and s["relogins"] >= 3, s
    assert s["signal"] == "#logout"  # learned at the first login
    assert any("print" in shape for shape in s["unsigned_shapes"]), s  # pages without a header
    with sqlite3.connect(tmp_path / "crawl.db") as c:
        edges = set(c.execute("SELECT from_id, to_id FROM relations"))
    assert edges == {(str(i), str(j)) for i in range(PEOPLE) for j in follows_of(i)}


def test_a_list_that_keeps_failing_fails_its_page_and_the_next_run_retries_it(tmp_path, port):
    forum = Forum(gone="403", max_requests=1000, always_refuse={3})
    with serve_in_thread(forum.app(), port) as base:
        job = write_job(tmp_path, base, social=True)
        r, summary = run(job)
        assert r.returncode == 1, r.stderr[-3000:]  # 1: some pages failed
        assert summary["failed"] == 1
        with sqlite3.connect(tmp_path / "crawl.db") as c:
            assert c.execute("SELECT state FROM frontier WHERE url LIKE '%/u/3'").fetchone()[0] == "failed"
            assert c.execute("SELECT COUNT(*) FROM people WHERE id='3'").fetchone()[0] == 0
            assert c.execute("SELECT COUNT(*) FROM pages WHERE url LIKE '%/u/3'").fetchone()[0] == 0
        forum.always_refuse.clear()
        r, summary = run(job)
    assert r.returncode == 0, r.stderr[-3000:]
    assert summary["failed"] == 0 and summary["pages_stored"] == 1
    with sqlite3.connect(tmp_path / "crawl.db") as c:
        edges = set(c.execute("SELECT to_id FROM relations WHERE from_id='3'"))
    assert edges == {(str(j),) for j in follows_of(3)}


class HeldLanding(Forum):
    """The forum, able to hold a login after its new cookie is set: the page the login lands on
    loads an image the test holds back, so the login is not over while the cookie already works."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.holding = False
        self.held = threading.Event()
        self.release = threading.Event()

    async def home(self, request: web.Request) -> web.Response:
        page = await super().home(request)
        if self.holding and "/login" in request.headers.get("Referer", ""):
            page.text = page.text.replace("</body>", '<img src="/held.png"></body>')
        return page

    async def held_image(self, request: web.Request) -> web.Response:
        self.held.set()
        while not self.release.is_set():
            await asyncio.sleep(0.05)
        return web.Response(body=b"", content_type="image/png")

    def app(self) -> web.Application:
        app = super().app()
        app.router.add_get("/held.png", self.held_image)
        return app


async def test_a_probe_during_a_login_does_not_vouch_for_a_page_the_old_login_was_refused(
        tmp_path, port, browser, monkeypatch):
    monkeypatch.setenv("BC_FORUM_PW", PASSWORD)
    forum = HeldLanding(gone="plain", max_requests=1000)
    with serve_in_thread(forum.app(), port) as base:
        manager, context = await logged_in_manager(tmp_path, base, browser)
        info = manager.contexts[context]
        old = info.generation
        for sid in forum.sessions:  # the session dies quietly
            forum.sessions[sid] = forum.max_requests
        page = await context.new_page()
        response = await page.goto(f"{base}/u/3")
        assert "not available" in await page.content()

        async def relogin() -> None:  # another tab noticed the loss first
            async with info.lock:
                await manager._login_with_fallback(context, info)

        forum.holding = True
        login = asyncio.create_task(relogin())
        while not forum.held.is_set():
            await asyncio.sleep(0.05)
        judged = asyncio.create_task(manager._judge(page, response, old))
        # A probe that does not wait for the login ends meanwhile, vouching with the new cookie.
        await asyncio.wait({judged}, timeout=5)
        forum.release.set()
        reason = await judged
        await login
    assert info.generation == old + 1
    assert reason is not None  # the page is fetched again, not stored
    assert not manager.detector.unsigned_shapes  # person pages still must show the signal


class ScriptedLanding(Forum):
    """The forum with a landing page built by script: its header (and the logout control in it)
    arrives from a JSON answer the page asks for after a timer, well after the load event."""

    async def home(self, request: web.Request) -> web.Response:
        shell = ("<header id='h'></header><script>setTimeout(() => fetch('/api/me').then((r) => r.json())"
                 ".then((me) => { if (me.live) document.getElementById('h').innerHTML ="
                 " '<a id=\"logout\" href=\"/logout\">Log out</a>'; }), 200);</script>")
        return self._page("home", shell, signed=False)

    async def me(self, request: web.Request) -> web.Response:
        live = self._live(request)
        await asyncio.sleep(0.8)
        return web.json_response({"live": live})

    def app(self) -> web.Application:
        app = super().app()
        app.router.add_get("/api/me", self.me)
        return app


async def test_the_probe_waits_for_a_scripted_landing_page_to_be_done_and_no_longer(
        tmp_path, port, browser, monkeypatch):
    """The probe ends when the landing page is done (not after a fixed wait, which every lost
    session used to pay): a logout control drawn from a late JSON answer still counts."""
    monkeypatch.setenv("BC_FORUM_PW", PASSWORD)
    forum = ScriptedLanding(gone="plain", max_requests=1000)
    with serve_in_thread(forum.app(), port) as base:
        manager, context = await logged_in_manager(tmp_path, base, browser)
        # What a login learns when its landing page's control is already drawn.
        manager.detector.learned = Learned("#logout", False, f"{base}/home")
        assert await manager._session_alive(context) is True
        for sid in forum.sessions:  # the session dies quietly
            forum.sessions[sid] = forum.max_requests
        assert await manager._session_alive(context) is False
