"""Logging in to the demo site: form login with the real CAPTCHA solver, a recorded flow (recorded
headed under Xvfb while a scripted person types, replayed headless), clear failures, no secrets."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from browsercrawl_demo.app import demo_site_in_thread
from browsercrawl_demo.auth import password_for
from browsercrawl_demo.config import DemoConfig

BIN = str(Path(sys.executable).with_name("browsercrawl"))
pytestmark = pytest.mark.browser


def run(*args: str, env: dict | None = None, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def one_line_error(r: subprocess.CompletedProcess, code: int, text: str) -> None:
    assert r.returncode == code, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    err = r.stderr.strip().splitlines()[-1]  # a warning (e.g. where the trace went) may come first
    assert err.startswith("browsercrawl: error:"), r.stderr
    assert text in err, err


def test_form_login_solves_captcha_saves_private_state_and_check_agrees(tmp_path):
    # difficulty 1: the default Tesseract profile reads about 80% of these (0% at difficulty 2)
    with demo_site_in_thread(DemoConfig(port=0, members=10, captcha_difficulty=1)) as site:
        name = site.state.content.members[0].name
        secret = password_for(name, 0)
        state = tmp_path / "s.json"
        r = run("login", "form", f"{site.url}/login", "--username", name, "--password-env", "BC_PW",
                "--state-out", str(state), "--samples", str(tmp_path / "samples"), "-v",
                env={"BC_PW": secret})
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        assert out["logged_in"] and out["url"].endswith("/feed") and out["captchas_solved"] >= 1
        assert stat.S_IMODE(state.stat().st_mode) == 0o600
        assert secret not in r.stdout + r.stderr and secret not in state.read_text()
        assert len(list((tmp_path / "samples").glob("*.png"))) == 1  # the accepted CAPTCHA, for training

        r = run("login", "check", f"{site.url}/boards", "--state", str(state),
                "--login-url", f"{site.url}/login", "--logged-in-selector", "#logout")
        assert r.returncode == 0 and json.loads(r.stdout)["logged_in"], r.stderr
        site.state.auth.advance(4000)  # past the one-hour session TTL
        r = run("login", "check", f"{site.url}/boards", "--state", str(state),
                "--login-url", f"{site.url}/login")
        one_line_error(r, 3, "not logged in at")


def test_wrong_password_then_locked_account_are_clear_errors(tmp_path):
    cfg = DemoConfig(port=0, members=10, require_captcha=False, lock_after_failures=2)
    with demo_site_in_thread(cfg) as site:
        name = site.state.content.members[1].name
        args = ("login", "form", f"{site.url}/login", "--username", name, "--password-env", "BC_PW")
        r = run(*args, env={"BC_PW": "not-the-password"})
        one_line_error(r, 3, f"login as {name} at {site.url}/login failed: wrong username or password")
        r = run(*args, env={"BC_PW": "still-wrong"})
        one_line_error(r, 3, "account locked")
        r = run(*args, env={"BC_PW": password_for(name, 0)})  # right password, but the lock holds
        one_line_error(r, 3, "account locked or banned (the site says: account locked)")
        assert password_for(name, 0) not in r.stderr

        r = run(*args, env={"BC_PW": ""})
        one_line_error(r, 2, "--password-env: environment variable BC_PW is not set")


async def test_record_headed_with_a_scripted_person_then_replay_headless(tmp_path, xvfb_display):
    from browsercrawl.captcha.samples import record_verified_sample
    from browsercrawl.session.flow import save_flow
    from browsercrawl.session.recorder import record_flow

    with demo_site_in_thread(DemoConfig(port=0, members=10, captcha_difficulty=1)) as site:
        name = site.state.content.members[2].name
        secret = password_for(name, 0)

        async def person(page) -> None:
            """Plays a human who can read the CAPTCHA (the demo's oracle) and types at human speed."""
            await page.locator("#username").click()
            await page.keyboard.type(name, delay=15)
            await page.locator("#password").click()
            await page.keyboard.type(secret, delay=15)
            csrf = await page.locator("input[name=csrf_token]").get_attribute("value")
            await page.locator("#captcha").click()
            await page.keyboard.type(site.state.captcha_answer_for(csrf), delay=15)
            await page.get_by_role("button", name="Log in").click()

        rec = await record_flow(f"{site.url}/login", person=person, timeout_seconds=60)
        flow_path = tmp_path / "site.flow.json"
        save_flow(rec.flow, flow_path)
        text = flow_path.read_text()
        assert secret not in text and "${env:BC_PASSWORD}" in text
        steps = rec.flow.steps
        assert [s.action for s in steps] == ["goto", "fill", "fill", "captcha", "click"]
        assert steps[1].field == "username" and steps[1].value == name and steps[1].target.label == "Username"
        assert steps[2].field == "password" and steps[3].image.id == "captcha-img" and steps[4].navigates
        assert rec.flow.logged_in.selector == "#logout"  # learned: present after, absent before
        assert len(rec.captchas) == 1 and rec.captchas[0][0].startswith(b"\x89PNG")
        record_verified_sample(tmp_path / "samples", *rec.captchas[0])

        state = tmp_path / "state.json"
        r = run("login", "replay", str(flow_path), "--state-out", str(state), "--trace",
                str(tmp_path / "traces"), env={"BC_PASSWORD": secret})
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["url"].endswith("/feed")
        assert stat.S_IMODE(state.stat().st_mode) == 0o600
        assert not (tmp_path / "traces").exists()  # traces only for failed logins

        # the same flow for another account of a pool; a wrong password leaves a trace
        other = site.state.content.members[3].name
        r = run("login", "replay", str(flow_path), "--username", other, "--password-env", "OTHER_PW",
                "--trace", str(tmp_path / "traces"), env={"OTHER_PW": "wrong"})
        one_line_error(r, 3, f"login as {other} at {flow_path} failed: wrong username or password")
        assert len(list((tmp_path / "traces").glob("login-failed-*.zip"))) == 1

        r = run("login", "replay", str(flow_path), env={"BC_PASSWORD": ""})
        one_line_error(r, 2, f"{flow_path}: steps.2.value: environment variable BC_PASSWORD is not set")

        data = json.loads(text)
        data["steps"][2]["value"] = secret  # a hand-edited flow holding a password is refused
        flow_path.write_text(json.dumps(data))
        r = run("login", "replay", str(flow_path))
        one_line_error(r, 2, f"{flow_path}: steps.2: a password must be a placeholder")
        assert secret not in r.stderr


@pytest.mark.browser
async def test_relogin_goto_survives_the_page_leaving_for_the_login_page_itself(browser, port):
    """A re-login runs in the crawl's tab; when the page's own script leaves for /login?next=...
    while the login's goto is on its way, that goto is interrupted. It must land on the login
    page anyway (a crawl's re-login failed with exit 3 on this race, in
    test_session_ending_while_load_more_runs_never_stores_the_login_page)."""
    import asyncio

    from aiohttp import web

    from browsercrawl.session.login import goto_settled
    from tests.apps.server import serve_in_thread

    async def leaving(_request: web.Request) -> web.Response:
        # "load more" whose fetch found the session gone: the script leaves for the login page a
        # moment after the crawler starts its goto. The click gives the page user activation, and
        # only then may its navigation cancel the crawler's pending one.
        html = ("<button onclick=\"setTimeout(() => { location.href = '/login?next=/t/1' }, 150)\">"
                "more</button>")
        return web.Response(text=html, content_type="text/html")

    async def login(request: web.Request) -> web.Response:
        if "next" not in request.query:
            await asyncio.sleep(0.6)  # the crawler's own request is slow to answer
        return web.Response(text=f"<form><input type=password></form>{request.path_qs}",
                            content_type="text/html")

    app = web.Application()
    app.router.add_get("/t/1", leaving)
    app.router.add_get("/login", login)
    with serve_in_thread(app, port) as base:
        page = await browser.new_page()
        await page.goto(base + "/t/1")
        await page.click("button")
        await goto_settled(page, base + "/login", 10_000)
        assert page.url == base + "/login"
        assert await page.locator("input[type=password]").count() == 1
