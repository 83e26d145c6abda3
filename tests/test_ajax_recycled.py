"""The ajax part's ``recycled`` rule: a member directory that is a virtual-scrolled list (a dozen rows
in the DOM at a time) is read whole while scrolling, stored in ``list_entries``, and its links are
followed."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from browsercrawl.config.ajax import parse_ajax
from browsercrawl.errors import UserError
from tests.apps.circle import make_app, make_circle
from tests.apps.server import serve_in_thread

BIN = str(Path(sys.executable).with_name("browsercrawl"))


@pytest.mark.browser
def test_a_recycled_directory_is_collected_and_followed(tmp_path: Path, port: int) -> None:
    circle = make_circle(45)
    with serve_in_thread(make_app(circle), port) as url:
        job = tmp_path / "job.toml"
        job.write_text(f"""seeds = ["{url}/people"]
[scope]
max_depth = 1
allow = ['/people']
[output]
database = "crawl.db"
[ajax]
[[ajax.rules]]
match = '/people$'
[ajax.rules.recycled]
container = "div.vlist"
entries = "div.vinner a.vrow"
fields = {{url = "@href", text = ""}}
""")
        r = subprocess.run([BIN, "crawl", str(job), "--quiet"], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        with sqlite3.connect(tmp_path / "crawl.db") as c:
            rows = c.execute("SELECT entry_key, data, complete FROM list_entries ORDER BY seq").fetchall()
            pages = {u for (u,) in c.execute("SELECT url FROM pages")}
        expected = {f"/people/view?uid={uid}" for uid in circle.people}
        assert [k for k, _, _ in rows] == sorted(expected, key=lambda u: int(u.rsplit("=", 1)[1]))
        assert all(done == 1 for _, _, done in rows)
        assert json.loads(rows[0][1])["text"] == circle.people[1][0]
        assert {u.replace(url, "") for u in pages} >= expected  # the rows' links were followed
        assert circle.log == []


def test_recycled_key_must_be_a_field() -> None:
    with pytest.raises(UserError, match="key 'id' is not one of the fields"):
        parse_ajax({"rules": [{"match": ".", "recycled": {"entries": "li", "key": "id"}}]}, "job.toml")


@pytest.mark.browser
def test_the_demo_member_directory_is_read_whole(tmp_path: Path) -> None:
    """The demo site's /members page recycles about a dozen rows; the crawl stores every member."""
    from browsercrawl_demo.app import demo_site_in_thread
    from browsercrawl_demo.auth import password_for
    from browsercrawl_demo.config import DemoConfig

    with demo_site_in_thread(DemoConfig(port=0, members=60, require_captcha=False)) as site:
        me = site.state.content.members[0].name
        job = tmp_path / "job.toml"
        job.write_text(f"""seeds = ["{site.url}/members"]
[scope]
max_depth = 0
[output]
database = "crawl.db"
[session]
method = "form"
login_url = "{site.url}/login"
[session.logged_in]
selector = "#logout"
[[session.accounts]]
username = "{me}"
password_env = "BC_PW"
[ajax]
[[ajax.rules]]
match = '/members$'
[ajax.rules.recycled]
container = "#member-scroller"
entries = "a.member-row"
""")
        r = subprocess.run([BIN, "crawl", str(job), "--quiet"], capture_output=True, text=True, timeout=600,
                           env={**__import__("os").environ, "BC_PW": password_for(me, 0)})
        assert r.returncode == 0, r.stderr
        with sqlite3.connect(tmp_path / "crawl.db") as c:
            keys = [k for (k,) in c.execute("SELECT entry_key FROM list_entries ORDER BY seq")]
            links = {u for (u,) in c.execute("SELECT url FROM links")}
        expected = [f"/u/{m.name}" for m in site.state.content.members]
        assert keys == expected
        assert {f"{site.url}{u}" for u in expected} <= links
        assert site.state.mutations == []


def test_recycled_selectors_are_checked_when_the_job_loads() -> None:
    with pytest.raises(UserError, match="not valid CSS"):
        parse_ajax({"rules": [{"match": ".", "recycled": {"entries": "a[href", "container": "div"}}]},
                   "job.toml")
    ok = parse_ajax({"rules": [{"match": ".", "recycled": {"entries": "a.row"}}]}, "job.toml")
    assert ok.rules[0].recycled is not None and ok.rules[0].recycled.container == "window"
