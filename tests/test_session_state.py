"""Browser state in and out: each format round trips, files are mode 600, bad files are one-line errors."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from browsercrawl.errors import UserError
from browsercrawl.session.state import SessionState, load_state, restore_session_storage, save_state

BIN = str(Path(sys.executable).with_name("browsercrawl"))

COOKIES = [
    {"name": "sid", "value": "abc123", "domain": "127.0.0.1", "path": "/", "expires": -1,
     "httpOnly": True, "secure": False, "sameSite": "Lax"},
    {"name": "pref", "value": "dark", "domain": ".example.org", "path": "/app", "expires": 2000000000.0,
     "httpOnly": False, "secure": True, "sameSite": "Strict"},
]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def _key(c: dict) -> tuple:
    return (c["name"], c["value"], c["domain"], c["path"], c["expires"], c["httpOnly"], c["secure"])


@pytest.mark.parametrize("fmt", ["playwright", "netscape", "extension"])
def test_round_trip_each_format(tmp_path, fmt):
    state = SessionState(cookies=COOKIES, origins=[{"origin": "http://127.0.0.1:1", "localStorage": [
        {"name": "k", "value": "v"}]}], session_storage={"http://127.0.0.1:1": {"token": "t"}})
    path = tmp_path / f"state.{fmt}"
    path.write_text("old content, readable by all")
    path.chmod(0o644)
    save_state(state, path, fmt)
    assert _mode(path) == 0o600  # also when the file existed with wider permissions
    back = load_state(path)  # format detected from the content
    assert sorted(map(_key, back.cookies)) == sorted(map(_key, COOKIES))
    if fmt == "playwright":
        assert back.origins == state.origins and back.session_storage == state.session_storage
    else:
        assert fmt == "netscape" or back.cookies[0]["sameSite"] in ("Lax", "Strict")


def test_netscape_file_from_curl_style_export(tmp_path):
    p = tmp_path / "cookies.txt"
    p.write_text("# Netscape HTTP Cookie File\n"
                 "#HttpOnly_.example.com\tTRUE\t/\tFALSE\t0\tsess\tS1\n"
                 "example.com\tFALSE\t/x\tTRUE\t1999999999\tid\t42\n")
    cookies = {c["name"]: c for c in load_state(p).cookies}
    assert cookies["sess"]["httpOnly"] and cookies["sess"]["expires"] == -1
    assert cookies["sess"]["domain"] == ".example.com"
    assert cookies["id"]["secure"] and cookies["id"]["expires"] == 1999999999
    assert cookies["id"]["path"] == "/x"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("sid\tvalue\n", "not a Netscape cookies.txt"),
        ("# Netscape HTTP Cookie File\nonly\tthree\tfields\n", "bad cookies.txt line"),
        ("[{\"name\": \"a\"}]", "[0].value: missing or not a string"),
        ("{\"cookies\": 3}", "not a Playwright storage state"),
        ("{\"cookies\": [", "not valid JSON"),
    ],
)
def test_bad_state_files_are_one_line_errors(tmp_path, content, message):
    p = tmp_path / "in.txt"
    p.write_text(content)
    with pytest.raises(UserError, match=re.escape(message)):
        load_state(p)


def test_cli_import_export_round_trip_and_bad_file(tmp_path):
    ext = tmp_path / "export.json"
    ext.write_text(json.dumps([
        {"domain": "127.0.0.1", "hostOnly": True, "httpOnly": True, "name": "sid", "path": "/",
         "sameSite": "lax", "secure": False, "session": True, "storeId": "0", "value": "v1"},
        {"domain": ".example.org", "expirationDate": 1999999999.5, "hostOnly": False, "httpOnly": False,
         "name": "p", "path": "/", "sameSite": "no_restriction", "secure": True, "session": False,
         "value": "v2"},
    ]))
    r = run("login", "state", "import", str(ext), "--out", str(tmp_path / "s.json"))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["cookies"] == 2 and _mode(tmp_path / "s.json") == 0o600
    r = run("login", "state", "export", str(tmp_path / "s.json"), "--format", "netscape",
            "--out", str(tmp_path / "c.txt"))
    assert r.returncode == 0, r.stderr
    assert _mode(tmp_path / "c.txt") == 0o600
    r = run("login", "state", "export", str(tmp_path / "c.txt"), "--format", "extension",
            "--out", str(tmp_path / "e2.json"))
    assert r.returncode == 0, r.stderr
    again = {c["name"]: c for c in json.loads((tmp_path / "e2.json").read_text())}
    assert again["sid"]["value"] == "v1" and again["sid"]["hostOnly"] and again["sid"]["session"]
    assert again["p"]["expirationDate"] == 1999999999 and again["p"]["secure"]

    bad = tmp_path / "bad.txt"
    bad.write_text("# Netscape HTTP Cookie File\nnot a cookie line\n")
    r = run("login", "state", "import", str(bad), "--out", str(tmp_path / "x.json"))
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and f"{bad}: line 2: bad cookies.txt line" in r.stderr
    assert not (tmp_path / "x.json").exists()


@pytest.mark.browser
async def test_session_storage_survives_a_new_context(browser, port, tmp_path):
    """storage_state alone loses sessionStorage (SPA logins break); ours restores it."""
    from aiohttp import web

    from browsercrawl.session.state import capture_state
    from tests.apps.server import serve_in_thread

    app = web.Application()

    async def spa(request: web.Request) -> web.Response:
        return web.Response(content_type="text/html", text=(
            "<script>if (location.search === '?login') sessionStorage.setItem('token', 'T-42');</script>"
            "<p id=t></p><script>document.getElementById('t').textContent ="
            " sessionStorage.getItem('token') || 'logged out';</script>"))

    app.router.add_get("/", spa)
    with serve_in_thread(app, port) as base:
        ctx = await browser.new_context()
        page = await ctx.new_page()
        await page.goto(base + "/?login")
        state = await capture_state(ctx)
        await ctx.close()
        path = tmp_path / "state.json"
        save_state(state, path)

        plain = await browser.new_context(storage_state=str(path))  # Playwright ignores our extra key
        p1 = await plain.new_page()
        await p1.goto(base + "/")
        assert await p1.text_content("#t") == "logged out"
        await plain.close()

        restored_state = load_state(path)
        ctx2 = await browser.new_context(storage_state=restored_state.storage_state())
        await restore_session_storage(ctx2, restored_state)
        p2 = await ctx2.new_page()
        await p2.goto(base + "/")
        assert await p2.text_content("#t") == "T-42"
        await ctx2.close()
