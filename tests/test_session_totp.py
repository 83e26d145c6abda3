"""Two-factor logins on the demo site: a member with TOTP on logs in by form, by a recorded flow and
in a crawl; the seed comes from an environment variable and appears in no output, state or DB."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pyotp
import pytest
from browsercrawl_demo.app import demo_site_in_thread
from browsercrawl_demo.auth import password_for, totp_secret_for
from browsercrawl_demo.config import DemoConfig

from browsercrawl.session.flow import Flow
from browsercrawl.session.totp import code_from_seed

BIN = str(Path(sys.executable).with_name("browsercrawl"))
pytestmark = pytest.mark.browser


def run(*args: str, env: dict | None = None, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def two_factor_site():
    """A small demo site without CAPTCHA (this is about the second factor) where member 1 has 2FA on."""
    config = DemoConfig(port=0, members=10, require_captcha=False)
    with demo_site_in_thread(config) as probe:
        name = probe.state.content.members[1].name
    config = DemoConfig(port=0, members=10, require_captcha=False, two_factor=(name,))
    return demo_site_in_thread(config), name


def test_demo_site_asks_two_factor_members_for_a_code() -> None:
    site_cm, name = two_factor_site()
    with site_cm as site:
        auth = site.state.auth
        s = auth.new_session()
        first = auth.attempt(s, s.csrf, name, password_for(name, 0), "")
        assert not first.ok and first.needs_code
        assert not auth.attempt_code(s, s.csrf, "000000").ok or pyotp.TOTP(
            totp_secret_for(name, 0)).now() == "000000"
        done = auth.attempt_code(s, s.csrf, pyotp.TOTP(totp_secret_for(name, 0)).now())
        assert done.ok and done.session is not None and done.session.user == name
        other = site.state.content.members[2].name
        s2 = auth.new_session()
        assert auth.attempt(s2, s2.csrf, other, password_for(other, 0), "").ok  # 2FA is per member


def test_form_login_types_the_current_code_and_keeps_the_seed_secret(tmp_path: Path) -> None:
    site_cm, name = two_factor_site()
    with site_cm as site:
        seed = totp_secret_for(name, 0)
        env = {"BC_PW": password_for(name, 0), "BC_TOTP": seed}
        state = tmp_path / "state.json"
        r = run("login", "form", f"{site.url}/login", "--username", name, "--password-env", "BC_PW",
                "--totp-env", "BC_TOTP", "--state-out", str(state), "-v", env=env)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        assert out["logged_in"] and out["url"].endswith("/feed")
        assert seed not in r.stdout + r.stderr and seed not in state.read_text()

        r = run("login", "form", f"{site.url}/login", "--username", name, "--password-env", "BC_PW",
                env=env)
        assert r.returncode != 0 and "Traceback" not in r.stderr
        assert "asks for a one-time code" in r.stderr.strip().splitlines()[-1]
        assert "totp_env" in r.stderr

        r = run("login", "form", f"{site.url}/login", "--username", name, "--password-env", "BC_PW",
                "--totp-env", "BC_TOTP", env={**env, "BC_TOTP": "not base32 !"})
        assert r.returncode != 0 and "Traceback" not in r.stderr
        assert "not valid base32" in r.stderr and "not base32 !" not in r.stderr


def test_recorded_flow_with_a_totp_step_replays(tmp_path: Path) -> None:
    site_cm, name = two_factor_site()
    with site_cm as site:
        flow = {
            "version": 1, "start_url": f"{site.url}/login",
            "steps": [
                {"action": "goto", "url": f"{site.url}/login"},
                {"action": "fill", "target": {"id": "username"}, "value": name, "field": "username"},
                {"action": "fill", "target": {"id": "password"}, "value": "${env:BC_PW}",
                 "field": "password"},
                {"action": "click", "target": {"id": "login-submit"}, "navigates": True},
                {"action": "totp", "target": {"label": "Authentication code"}, "value": "${env:BC_SEED}"},
            ],
            "logged_in": {"selector": "#logout"},
        }
        Flow.model_validate(flow)
        path = tmp_path / "flow.json"
        path.write_text(json.dumps(flow))
        env = {"BC_PW": password_for(name, 0), "BC_SEED": totp_secret_for(name, 0)}
        r = run("login", "replay", str(path), env=env)
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["logged_in"]


def test_a_totp_step_never_holds_the_seed() -> None:
    step = {"action": "totp", "target": {"id": "otp"}, "value": "JBSWY3DPEHPK3PXP"}
    with pytest.raises(ValueError, match="never the seed"):
        Flow.model_validate({"start_url": "http://127.0.0.1/", "steps": [
            {"action": "goto", "url": "http://127.0.0.1/"}, step]})
    seed = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    assert code_from_seed("jbsw y3dp ehpk 3pxp jbsw y3dp ehpk 3pxp", "x") == pyotp.TOTP(seed).now()


def test_crawl_logs_in_with_the_account_totp_seed(tmp_path: Path) -> None:
    site_cm, name = two_factor_site()
    with site_cm as site:
        seed = totp_secret_for(name, 0)
        job = tmp_path / "job.toml"
        job.write_text(f"""
seeds = ["{site.url}/boards"]
[scope]
max_depth = 0
[output]
database = "crawl.db"
[session]
method = "form"
login_url = "{site.url}/login"
state = "state-{{username}}.json"
[session.logged_in]
selector = "#logout"
[[session.accounts]]
username = "{name}"
password_env = "BC_PW"
totp_env = "BC_TOTP"
""")
        r = subprocess.run([BIN, "crawl", str(job), "--quiet", "--verbose"], capture_output=True,
                           text=True, timeout=300,
                           env={**os.environ, "BC_PW": password_for(name, 0), "BC_TOTP": seed})
        assert r.returncode == 0, r.stderr
        with sqlite3.connect(tmp_path / "crawl.db") as c:
            rows = c.execute("SELECT url, status FROM pages").fetchall()
        assert [(u.rsplit("/", 1)[-1], s) for u, s in rows] == [("boards", 200)]
        blobs = b"".join(p.read_bytes() for p in tmp_path.glob("crawl.db*"))
        state_text = "".join(p.read_text() for p in tmp_path.glob("state-*.json"))
        assert seed.encode() not in blobs and seed not in r.stderr + r.stdout + state_text


def test_a_form_that_asks_for_the_code_with_the_password(tmp_path: Path, port: int) -> None:
    """One-step two-factor forms: the code is typed before the form is submitted."""
    from aiohttp import web

    from tests.apps.server import serve_in_thread

    seed = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    form = ('<form method="post" action="/login"><input name="user"><input type="password" name="pw">'
            '<label for="c">Verification code</label><input id="c" name="code" inputmode="numeric">'
            '<button type="submit">Sign in</button></form>')

    async def login_get(request: web.Request) -> web.Response:
        return web.Response(text=f"<html><body>{form}</body></html>", content_type="text/html")

    async def login_post(request: web.Request) -> web.Response:
        data = await request.post()
        ok = data.get("user") == "ann" and data.get("pw") == "pw1" and pyotp.TOTP(seed).verify(
            str(data.get("code", "")), valid_window=1)
        if not ok:
            return web.Response(text=f"<p class='error'>wrong username or password</p>{form}",
                                content_type="text/html")
        raise web.HTTPFound("/home")

    async def home(request: web.Request) -> web.Response:
        return web.Response(text='<a id="logout" href="/logout">Log out</a>', content_type="text/html")

    app = web.Application()
    app.router.add_get("/login", login_get)
    app.router.add_post("/login", login_post)
    app.router.add_get("/home", home)
    with serve_in_thread(app, port) as url:
        r = run("login", "form", f"{url}/login", "--username", "ann", "--password-env", "BC_PW",
                "--totp-env", "BC_TOTP", "--logged-in-selector", "#logout",
                env={"BC_PW": "pw1", "BC_TOTP": seed})
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["logged_in"] and seed not in r.stdout + r.stderr


def test_a_recorded_code_field_becomes_a_totp_step_without_the_code() -> None:
    from browsercrawl.session.recorder import _build_steps

    events = [{"action": "fill", "target": {"id": "username"}, "value": "ann", "field": "username"},
              {"action": "totp", "target": {"id": "otp", "label": "Authentication code"}, "secret": True},
              {"action": "totp", "target": {"id": "otp", "label": "Authentication code"}, "secret": True}]
    steps, _ = _build_steps(events, "${env:BC_PASSWORD}")
    assert [(s.action, s.value) for s in steps] == [("fill", "ann"), ("totp", "${totp}")]
