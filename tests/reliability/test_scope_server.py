"""The scope holds against a site that tries to leave it: a 302, a script's ``location`` change and
a meta refresh to another server are stopped before that server sees a request, never stored, and
the frontier row says where the page tried to go; another port is another host; ``ip_ranges`` and
``languages`` limit the crawl like the restricted crawler they come from."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from contextlib import closing
from pathlib import Path

import pytest
from aiohttp import web

from browsercrawl.config import ScopeConfig
from browsercrawl.frontier.scope import Scope
from browsercrawl.frontier.urls import canonical_url, host_key
from tests.apps.server import serve_in_thread
from tests.conftest import free_port
from tests.reliability.test_crawl_guards import BC, pages  # noqa: F401 - shared helpers

HTTP = '[rendering]\nmode = "http"\n'
GERMAN = ("Der schnelle braune Fuchs springt über den faulen Hund, und die Katze schläft "
          "den ganzen Tag auf dem warmen Sofa im Wohnzimmer.")
ENGLISH = ("The quick brown fox jumps over the lazy dog, and the cat sleeps all day long on the "
           "warm sofa in the living room.")


class OtherServer:
    """The server the site tries to send the crawler to; it counts every request it gets."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()

    def app(self) -> web.Application:
        async def any_page(request: web.Request) -> web.Response:
            self.hits[request.path] += 1
            return web.Response(text="<html><title>elsewhere</title><body>other site</body></html>",
                                content_type="text/html")

        app = web.Application()
        app.add_routes([web.get("/{tail:.*}", any_page)])
        return app


def scope_site(other: str) -> web.Application:
    """Home links to pages that leave for ``other`` in three ways, plus plain pages."""

    def html(body: str, head: str = "", lang: str = "") -> web.Response:
        attr = f' lang="{lang}"' if lang else ""
        return web.Response(text=f"<html{attr}><head>{head}<title>t</title></head><body>{body}</body></html>",
                            content_type="text/html")

    async def home(request: web.Request) -> web.Response:
        links = ["/redirect-out", "/script-out", "/refresh-out", "/ok", "/en", "/de", "/declared-fr",
                 f"{other}/linked"]
        return html("".join(f'<a href="{u}">{u}</a> ' for u in links) + f"<p>{ENGLISH}</p>")

    async def redirect_out(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"{other}/from-302")

    async def script_out(request: web.Request) -> web.Response:
        return html("<p>moving</p>", f"<script>location.href = '{other}/from-script';</script>")

    async def refresh_out(request: web.Request) -> web.Response:
        return html("<p>moving</p>", f'<meta http-equiv="refresh" content="0; url={other}/from-refresh">')

    async def ok(request: web.Request) -> web.Response:
        return html(f"<p>{ENGLISH}</p>")

    async def de(request: web.Request) -> web.Response:
        return html(f'<p>{GERMAN}</p><a href="/only-from-de">weiter</a>')

    async def declared_fr(request: web.Request) -> web.Response:
        return html(f"<p>{ENGLISH}</p>", lang="fr-FR")

    async def robots(request: web.Request) -> web.Response:
        return web.Response(text="User-agent: *\nAllow: /\n")

    app = web.Application()
    app.add_routes([web.get("/", home), web.get("/redirect-out", redirect_out),
                    web.get("/script-out", script_out), web.get("/refresh-out", refresh_out),
                    web.get("/ok", ok), web.get("/en", ok),
                    web.get("/de", de), web.get("/only-from-de", ok), web.get("/declared-fr", declared_fr),
                    web.get("/robots.txt", robots)])
    return app


def crawl(folder: Path, seed: str, body: str) -> tuple[int, str]:
    import subprocess

    job = folder / "job.toml"
    job.write_text(f'seeds = ["{seed}"]\n{body}\n[output]\ndatabase = "crawl.db"\n')
    res = subprocess.run([*BC, "crawl", "-q", str(job)], capture_output=True, text=True, timeout=600)
    return res.returncode, res.stderr


def frontier(folder: Path) -> dict[str, tuple[str, str | None]]:
    with closing(sqlite3.connect(folder / "crawl.db")) as conn:
        return {u: (s, e) for u, s, e in conn.execute("SELECT url, state, error FROM frontier")}


def stored(folder: Path) -> set[str]:
    with closing(sqlite3.connect(folder / "crawl.db")) as conn:
        return {r[0] for r in conn.execute("SELECT url FROM pages")}


@pytest.mark.parametrize("mode", ["browser", "http"])
def test_redirects_and_navigations_out_of_scope_are_stopped_before_the_other_server(tmp_path, mode):
    other = OtherServer()
    with serve_in_thread(other.app(), free_port()) as other_base, \
            serve_in_thread(scope_site(other_base), free_port()) as base:
        code, err = crawl(tmp_path, f"{base}/", f'[rendering]\nmode = "{mode}"\ntimeout_seconds = 60\n')
    assert code == 0, err
    assert other.hits == Counter()  # not one request reached the other server
    rows = frontier(tmp_path)
    leaving = ["redirect-out"] + (["script-out", "refresh-out"] if mode == "browser" else [])
    for path in leaving:
        state, error = rows[f"{base}/{path}"]
        assert state == "skipped", (path, state, error)
        assert error.startswith(f"left the scope: tried to go to {other_base}/from-"), error
    assert all(not u.startswith(other_base) for u in stored(tmp_path))
    assert {f"{base}/", f"{base}/ok"} <= stored(tmp_path)
    assert f"{other_base}/linked" not in rows  # another port is another host under same-host


def test_without_the_stop_a_page_that_landed_outside_is_refused(tmp_path):
    """``stop_navigations = false``: nothing is intercepted, so the other server sees the requests,
    but a page that landed there is refused like one stopped on its way, and never stored."""
    other = OtherServer()
    with serve_in_thread(other.app(), free_port()) as other_base, \
            serve_in_thread(scope_site(other_base), free_port()) as base:
        code, err = crawl(tmp_path, f"{base}/", '[scope]\nstop_navigations = false\n'
                          '[rendering]\nmode = "browser"\ntimeout_seconds = 60\n')
    assert code == 0, err
    assert other.hits["/from-302"] >= 1 and other.hits["/from-script"] >= 1  # not stopped: reached
    rows = frontier(tmp_path)
    for path in ("redirect-out", "script-out"):
        state, error = rows[f"{base}/{path}"]
        assert state == "skipped", (path, state, error)
        assert error.startswith(f"left the scope: landed on {other_base}/from-"), error
    # A meta refresh may come after the snapshot: the page is then stored as what it was.
    state, error = rows[f"{base}/refresh-out"]
    assert state == "done" or error.startswith(f"left the scope: landed on {other_base}/from-refresh")
    assert all(not u.startswith(other_base) for u in stored(tmp_path))
    assert {f"{base}/", f"{base}/ok"} <= stored(tmp_path)
    with closing(sqlite3.connect(tmp_path / "crawl.db")) as conn:
        assert not conn.execute("SELECT 1 FROM pages WHERE text LIKE '%other site%'").fetchall()


def test_a_seed_that_redirects_out_of_scope_is_one_line(tmp_path):
    """An http seed the server sends elsewhere (often to https) is not silently an empty crawl."""
    other = OtherServer()
    with serve_in_thread(other.app(), free_port()) as other_base, \
            serve_in_thread(scope_site(other_base), free_port()) as base:
        code, err = crawl(tmp_path, f"{base}/redirect-out", HTTP)
    assert code == 2 and err.count("\n") == 1, err
    assert f"{base}/redirect-out left the scope: tried to go to {other_base}/from-302" in err
    assert other.hits == Counter()


def test_same_hostname_mode_follows_another_port(tmp_path):
    other = OtherServer()
    with serve_in_thread(other.app(), free_port()) as other_base, \
            serve_in_thread(scope_site(other_base), free_port()) as base:
        code, err = crawl(tmp_path, f"{base}/", HTTP + '[scope]\nmode = "same-hostname"\n')
    assert code == 0, err
    assert f"{other_base}/linked" in stored(tmp_path) and other.hits["/linked"] == 1
    assert other.hits["/from-302"] == 1  # the redirect stays inside the scope now
    assert frontier(tmp_path)[f"{base}/redirect-out"][0] == "done"


def test_languages_skip_pages_in_other_languages_and_their_links(tmp_path):
    with serve_in_thread(scope_site("http://127.0.0.1:1"), free_port()) as base:
        code, err = crawl(tmp_path, f"{base}/", HTTP + '[scope]\nlanguages = ["en"]\n')
    assert code == 0, err
    rows = frontier(tmp_path)
    assert rows[f"{base}/de"] == ("skipped", "language 'de' is not in scope.languages")
    assert rows[f"{base}/declared-fr"] == ("skipped", "language 'fr' is not in scope.languages")
    assert f"{base}/only-from-de" not in rows  # a skipped page's links are not followed
    assert {f"{base}/", f"{base}/en", f"{base}/ok"} <= stored(tmp_path)
    assert f"{base}/de" not in stored(tmp_path)


def test_ip_ranges_refuse_a_host_whose_address_is_outside(tmp_path):
    with serve_in_thread(scope_site("http://127.0.0.1:1"), free_port()) as base:
        code, err = crawl(tmp_path, f"{base}/", HTTP + '[scope]\nip_ranges = ["10.0.0.0/8"]\n')
        why = "127.0.0.1 resolves to 127.0.0.1, outside scope.ip_ranges"
        assert code == 2 and err.count("\n") == 1, err  # nothing could be crawled: one line
        assert f"nothing could be crawled: every seed was refused ({base}/ {why})" in err
        assert frontier(tmp_path)[f"{base}/"] == ("skipped", why)
        assert stored(tmp_path) == set()
        (tmp_path / "crawl.db").unlink()
        code, err = crawl(tmp_path, f"{base}/", HTTP + '[scope]\nip_ranges = ["127.0.0.0/8"]\n')
        assert code == 0, err
        assert f"{base}/ok" in stored(tmp_path)


def test_ip_ranges_are_checked_on_the_resolved_address_of_a_name():
    scope = Scope(ScopeConfig(mode="any", ip_ranges=["10.0.0.0/8"]), ["http://127.0.0.1/"])
    why = asyncio.run(scope.address_refusal("http://localhost:8080/"))
    assert why is not None and why.startswith("localhost resolves to ") and "outside scope.ip_ranges" in why
    inside = Scope(ScopeConfig(mode="any", ip_ranges=["127.0.0.0/8", "::1/128"]), ["http://127.0.0.1/"])
    assert asyncio.run(inside.address_refusal("http://localhost:8080/")) is None


def test_same_host_means_scheme_host_and_port():
    scope = Scope(ScopeConfig(), ["http://127.0.0.1:8080/"])
    assert scope.allows("http://127.0.0.1:8080/a", 1)
    assert not scope.allows("http://127.0.0.1:8081/a", 1)
    assert not scope.allows("https://127.0.0.1:8080/a", 1)
    hostname = Scope(ScopeConfig(mode="same-hostname"), ["http://127.0.0.1:8080/"])
    assert hostname.allows("http://127.0.0.1:8081/a", 1) and hostname.allows("https://127.0.0.1/a", 1)
    assert not hostname.allows("http://localhost:8080/a", 1)
    default_port = Scope(ScopeConfig(), ["http://example.org/"])
    assert default_port.allows("http://example.org:80/x", 1)


def test_an_ipv6_mapped_link_keeps_its_brackets():
    url = canonical_url("http://[::ffff:7f00:2]:18106/a?b=2&a=1")
    assert url == "http://[::ffff:7f00:2]:18106/a?a=1&b=2"
    assert host_key(url) == "[::ffff:7f00:2]:18106"
    assert canonical_url(url) == url


def test_a_redirect_to_the_login_server_is_left_to_the_session_part():
    from browsercrawl.config import parse_job
    from browsercrawl.engine.runtime import scope_check

    job = parse_job({"seeds": ["http://127.0.0.1:8080/"], "session": {
        "login_url": "http://127.0.0.1:9090/login", "accounts": [{"username": "u", "password_env": "P"}],
        "logged_out": {"url_regex": "/signin"}}}, Path("job.toml"))
    check = scope_check(job)
    assert asyncio.run(check("http://127.0.0.1:9090/login?next=/")) is None
    assert asyncio.run(check("http://sso.example/signin")) is None
    assert asyncio.run(check("http://127.0.0.1:8080/any")) is None
    assert "outside scope" in asyncio.run(check("http://127.0.0.1:9091/elsewhere"))
