"""The ajax part on small fixture pages: wait strategies, the hard per-page budget, URL-less states
with their click paths, the deny list and the mutation guard, and one-line errors for bad [ajax]."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from browsercrawl.assemble import build_crawler
from browsercrawl.config import parse_job
from browsercrawl.config.ajax import parse_ajax
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.errors import UserError
from tests.apps.server import serve_in_thread


def _page(body: str, script: str = "") -> web.Response:
    html = f"<!doctype html><html><body>{body}<script>{script}</script></body></html>"
    return web.Response(text=html, content_type="text/html")


LATE = "setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; " \
       "p.textContent = 'arrived late'; document.body.append(p); }, 900);"
FOREVER = """
let n = 0;
setInterval(() => { const li = document.createElement('li'); li.textContent = 'tick ' + (n++);
  document.getElementById('l').append(li); }, 40);
window.addEventListener('scroll', () => { const d = document.createElement('div');
  d.style.height = '900px'; d.textContent = 'more'; document.body.append(d); });
"""
# Tabs and toggles without URLs; every dangerous control, and an innocent-looking button whose
# handler POSTs (only the mutation guard can stop that one).
STATES_BODY = """
<div role=tablist><button role=tab id=t1 type=button>Alpha</button>
<button role=tab id=t2 type=button>Beta</button><a href="#" id=t3>Gamma</a></div>
<div id=panel>start</div>
<button type=button id=open>Open panel</button>
<button type=button class=delete-btn>Delete</button><button type=button>Log out</button>
<button type=button>Follow</button><button type=button>Like</button><button type=button>Upvote</button>
<button type=button class=danger>Go</button><button type=button data-confirm="sure?">OK</button>
<form method=post action=/mutate/form><button>Continue</button></form>
<a href="/mutate/link" id=away>Elsewhere</a>
"""
STATES_JS = """
const hit = (what) => fetch('/mutate/' + what, {method: 'POST'});
const panel = document.getElementById('panel');
const show = (text, extra) => { panel.innerHTML = '<p class=content>' + text + '</p>' + (extra || ''); };
document.getElementById('t1').onclick = () => show('alpha content');
document.getElementById('t2').onclick = () => show('beta content',
  '<button type=button id=deeper>Details</button>');
document.getElementById('t3').onclick = (e) => { e.preventDefault(); show('gamma content'); };
document.addEventListener('click', (e) => {
  if (e.target.id === 'deeper') panel.insertAdjacentHTML('beforeend', '<p class=content>delta content</p>');
});
document.getElementById('open').onclick = () => { hit('open'); show('open content'); };
for (const b of document.querySelectorAll('button:not([role]):not(#open)'))
  b.addEventListener('click', () => hit(b.textContent));
"""


def fixture_app(mutations: list[str]) -> web.Application:
    app = web.Application()

    async def late(_r: web.Request) -> web.Response:
        return _page("<h1>late</h1>", LATE)

    async def forever(_r: web.Request) -> web.Response:
        return _page("<ul id=l></ul>", FOREVER)

    async def states(_r: web.Request) -> web.Response:
        return _page(STATES_BODY, STATES_JS)

    async def mutate(request: web.Request) -> web.Response:
        mutations.append(f"{request.method} {request.path}")
        return web.json_response({"ok": True})

    app.add_routes([web.get("/late", late), web.get("/forever", forever), web.get("/states", states),
                    web.route("*", "/mutate/{what:.*}", mutate)])
    return app


def crawl(tmp_path: Path, seeds: list[str], ajax: dict[str, Any], **rendering: Any) -> Path:
    db = tmp_path / "crawl.db"
    job = parse_job({"seeds": seeds, "scope": {"max_depth": 0}, "politeness": {"obey_robots": False},
                     "rendering": rendering, "output": {"database": str(db)}, "ajax": ajax},
                    tmp_path / "job.toml")
    summary = asyncio.run(build_crawler(job, CrawlOptions(quiet=True, fresh=True)).run())
    assert summary.failed == 0
    return db


def q(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


@pytest.mark.browser
def test_wait_strategies(tmp_path, port):
    with serve_in_thread(fixture_app([]), port) as base:
        rules = [{"match": "a=load", "wait": "load"},
                 {"match": "a=stable", "wait": "dom-stable", "stable_ms": 1200},
                 {"match": "a=selector", "wait": "selector", "selector": "#late"},
                 {"match": "a=idle", "wait": "networkidle"}]
        seeds = [f"{base}/late?a={k}" for k in ("load", "stable", "selector", "idle")]
        db = crawl(tmp_path, seeds, {"rules": rules}, wait_until="domcontentloaded")
    text = {u.split("=")[-1]: t for u, t in q(db, "SELECT url, text FROM pages")}
    assert "arrived late" not in text["load"]  # the page was snapshotted as soon as it loaded
    assert "arrived late" in text["stable"] and "arrived late" in text["selector"]
    # The late node proves each wait outlasted the insertion; how long after the goto returned that
    # insertion came depends on machine load, so only the quiet window itself is a floor.
    waits = dict(q(db, "SELECT rule, waited_ms FROM expansions"))
    assert waits["a=stable"] >= 1200 and waits["a=selector"] >= 0


@pytest.mark.browser
def test_hard_budget_ends_endless_pages(tmp_path, port):
    with serve_in_thread(fixture_app([]), port) as base:
        rule = {"match": "/forever", "wait": "dom-stable", "stable_ms": 200, "wait_cap_seconds": 1,
                "scroll": 10_000, "idle_ms": 300, "budget_seconds": 3}
        db = crawl(tmp_path, [f"{base}/forever"], {"rules": [rule]})
    (hit, ok, rounds, total) = q(db, "SELECT budget_hit, wait_ok, scroll_rounds, total_ms FROM expansions")[0]
    # The DOM never settles and scrolling never runs dry, so only the budget ends the page. How many
    # rounds fit in it depends on machine load; more than one shows a round did not end it.
    assert hit == 1 and ok == 0 and rounds >= 2
    assert total < 3500


@pytest.mark.browser
def test_states_are_explored_and_nothing_destructive_is_clicked(tmp_path, port):
    mutations: list[str] = []
    with serve_in_thread(fixture_app(mutations), port) as base:
        ajax = {"rules": [{"match": "/states", "explore": {"max_clicks": 30, "max_states": 30,
                                                          "settle_ms": 150}}]}
        db = crawl(tmp_path, [f"{base}/states"], ajax)
    assert mutations == []  # not even the innocent-looking "Open panel" got its POST out
    rows = q(db, "SELECT click_path, text FROM states ORDER BY seq")
    found = {}
    for path, text in rows:
        for word in ("alpha", "beta", "gamma", "delta", "open"):
            if f"{word} content" in text:
                found.setdefault(word, [c["text"] for c in json.loads(path)])
    assert set(found) == {"alpha", "beta", "gamma", "delta", "open"}
    assert found["delta"][-1] == "Details" and "Beta" in found["delta"]  # nested: Beta, then Details
    assert len({h for (h,) in q(db, "SELECT state_hash FROM states")}) == len(rows)
    clicked = {c["text"] for path, _ in rows for c in json.loads(path)}
    assert clicked <= {"Alpha", "Beta", "Gamma", "Details", "Open panel"}
    (blocked,) = q(db, "SELECT blocked_requests FROM expansions")[0]
    assert json.loads(blocked) == ["POST /mutate/open"]


@pytest.mark.parametrize(
    ("ajax", "message"),
    [
        ({"rules": [{"match": "x", "scroll": -1}]},
         "job.toml: ajax.rules.0.scroll: Input should be greater than or equal to 0"),
        ({"rules": [{"match": "(", "scroll": 3}]}, "job.toml: ajax.rules.0.match: bad regex '('"),
        ({"rules": [{"match": "x", "wait": "selector"}]}, "job.toml: ajax.rules.0: wait = 'selector' needs"),
        ({"rules": [{"match": "x", "wait": "soon"}]}, "job.toml: ajax.rules.0.wait: Input should be"),
        ({"rules": [{"match": "x", "explore": {"max_clicks": 0}}]},
         "job.toml: ajax.rules.0.explore.max_clicks: Input should be greater than or equal to 1"),
        ({"capture": [{"match": "/api/", "id_url": "/t/"}]}, "job.toml: ajax.capture.0.id_url: id_url '/t/'"),
        ({"scrol": 3}, "job.toml: ajax.scrol: unknown key"),
    ],
)
def test_bad_ajax_config_is_one_line(ajax, message):
    with pytest.raises(UserError) as err:
        parse_ajax(ajax, "job.toml")
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_bad_ajax_section_fails_when_the_job_is_loaded(tmp_path):
    with pytest.raises(UserError, match=r"job\.toml: ajax\.rules\.0\.idle_ms: Input should be greater"):
        parse_job({"seeds": ["http://127.0.0.1:9/"], "ajax": {"rules": [{"match": "x", "idle_ms": 0}]}},
                  tmp_path / "job.toml")


LEAVES_BODY = "<ul id=l><li>one</li></ul><button type=button id=more>Load more</button>"
# The second click's answer says the session is gone, and the page's script leaves for the login
# page while the expansion waits for new items.
LEAVES_JS = """
let clicks = 0;
document.getElementById('more').onclick = () => {
  clicks += 1;
  if (clicks === 1) { document.getElementById('l').insertAdjacentHTML('beforeend', '<li>two</li>'); }
  else { setTimeout(() => { location.href = '/login'; }, 150); }
};
"""


@pytest.mark.browser
def test_a_page_that_leaves_during_expansion_is_loaded_again_with_a_note_not_a_warning(
        tmp_path, port, caplog):
    """A load-more whose page goes elsewhere mid-expansion (a lost session's redirect) is loaded
    again and stored; the log says where it went, at info, instead of Playwright's 'Execution
    context was destroyed' as a warning."""
    import logging

    app = web.Application()

    async def leaves(_r: web.Request) -> web.Response:
        return _page(LEAVES_BODY, LEAVES_JS)

    async def login(_r: web.Request) -> web.Response:
        return _page("<form><input name=user></form>")

    app.add_routes([web.get("/leaves", leaves), web.get("/login", login)])
    caplog.set_level(logging.INFO, logger="browsercrawl.ajax.hooks")
    with serve_in_thread(app, port) as base:
        rule = {"match": "/leaves", "load_more": "#more", "idle_ms": 1500, "budget_seconds": 20}
        db = crawl(tmp_path, [f"{base}/leaves"], {"rules": [rule]})
    assert q(db, "SELECT url FROM pages") == [(f"{base}/leaves",)]
    notes = [r for r in caplog.records if r.name == "browsercrawl.ajax.hooks"]
    assert [r.levelno for r in notes] == [logging.INFO], [r.getMessage() for r in notes]
    assert f"the page went to {base}/login" in notes[0].getMessage()
