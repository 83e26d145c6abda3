"""``browsercrawl discover``: from one person's page on the demo site to a job whose crawl finds
every member and edge of the truth, without hand edits and without pressing anything that changes
the site; and the inference steps on their own."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from browsercrawl_demo.app import demo_site_in_thread
from browsercrawl_demo.auth import password_for
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.social_job import found_vs_expected
from browsercrawl_demo.truth import build_truth

from browsercrawl.discover.lists import endpoint_template, find_lists, kind_of, person_values
from browsercrawl.discover.observe import JsonSeen
from browsercrawl.discover.people import infer_shape, shapes_between
from tests.apps.server import serve_in_thread

BIN = str(Path(sys.executable).with_name("browsercrawl"))


def run(*args: str, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def session_job(path: Path, site_url: str, user: str) -> Path:
    path.write_text(f"""seeds = ["{site_url}/feed"]
[rendering]
block = ["image", "font", "media"]
[session]
method = "form"
login_url = "{site_url}/login"
[session.logged_in]
selector = "#logout"
[[session.accounts]]
username = "{user}"
password_env = "BC_PW"
""")
    return path


@pytest.mark.browser
def test_discover_writes_a_job_whose_crawl_finds_the_whole_demo_community(tmp_path: Path) -> None:
    with demo_site_in_thread(DemoConfig(port=0, members=40, require_captcha=False)) as site:
        members = site.state.content.members
        me, seed = members[0].name, members[3].name
        job = session_job(tmp_path / "job.toml", site.url, me)
        env = {"BC_PW": password_for(me, 0)}
        out = tmp_path / "social.toml"
        r = run("discover", f"{site.url}/u/{seed}", "--job", str(job), "--out", str(out), env=env)
        assert r.returncode == 0, r.stderr
        undecided = r.stdout.split("could not decide", 1)[1]
        assert all(line.strip().startswith("- field ") for line in undecided.splitlines()[1:]
                   if line.strip().startswith("- ")), r.stdout  # only fields may be left undecided
        written = tomllib.loads(out.read_text())
        social = written["social"]
        assert social["person_template"] == "/u/{id}"
        assert {(rel["kind"], rel["source"]) for rel in social["relations"]} == {
            ("follows", "json_api"), ("followed_by", "json_api")}
        assert written["seeds"] == [f"{site.url}/u/{seed}"]
        assert written["session"]["accounts"][0]["password_env"] == "BC_PW"
        assert env["BC_PW"] not in out.read_text() + r.stdout + r.stderr
        assert social["fields"]["display_name"] and social["items"][0]["fields"]["time"] == "time"
        assert "# seen: " in out.read_text()  # commented with what it saw

        r = run("crawl", str(out), "--quiet", env=env)
        assert r.returncode == 0, r.stderr
        truth = build_truth(site.state.content, site.clock.now())
        figures = found_vs_expected(tmp_path / "social.db", truth, [seed])
        assert figures["people_found"] == figures["people_expected"] == 40
        assert figures["edge_recall"] == 1.0 and figures["edge_precision"] == 1.0, figures
        assert site.state.mutations == []  # nothing followed, liked, deleted or logged out
        by_name = {m.name: m for m in members}
        import json as _json
        import sqlite3
        with sqlite3.connect(tmp_path / "social.db") as c:
            fields = {pid: _json.loads(f) for pid, f in c.execute("SELECT id, fields FROM people")}
        assert all(fields[n]["display_name"] == by_name[n].display_name for n in fields)


@pytest.mark.browser
def test_discover_from_a_feed_finds_a_person_through_the_author_links(tmp_path: Path) -> None:
    with demo_site_in_thread(DemoConfig(port=0, members=20, require_captcha=False)) as site:
        me = site.state.content.members[0].name
        job = session_job(tmp_path / "job.toml", site.url, me)
        out = tmp_path / "social.toml"
        r = run("discover", f"{site.url}/feed", "--job", str(job), "--out", str(out),
                env={"BC_PW": password_for(me, 0)})
        assert r.returncode == 0, r.stderr
        written = tomllib.loads(out.read_text())
        assert written["social"]["person_template"] == "/u/{id}"
        assert written["seeds"][0].startswith(f"{site.url}/u/")
        assert f"{site.url}/feed is not a person's page" in r.stdout
        assert {rel["kind"] for rel in written["social"]["relations"]} == {"follows", "followed_by"}
        assert site.state.mutations == []


@pytest.mark.browser
def test_discover_refuses_a_page_that_names_no_people(tmp_path: Path) -> None:
    with demo_site_in_thread(DemoConfig(port=0, members=10, require_captcha=False)) as site:
        r = run("discover", f"{site.url}/about", "--out", str(tmp_path / "x.toml"))
        assert r.returncode == 2 and "Traceback" not in r.stderr
        last = r.stderr.strip().splitlines()[-1]
        assert "cannot tell which URLs are people" in last or "no list of people found" in last, last
        assert not (tmp_path / "x.toml").exists()
        r = run("discover", f"{site.url}/u/{site.state.content.members[1].name}", "--out",
                str(tmp_path / "x.toml"))  # logged out: the site shows its login form
        assert r.returncode == 2 and "answered a login page" in r.stderr and "--job" in r.stderr
    r = run("discover", "ftp://x", "--out", str(tmp_path / "x.toml"))
    assert r.returncode == 2 and "not an http(s) URL" in r.stderr


def test_person_shapes_from_paths_and_query_strings() -> None:
    shape = infer_shape("http://h/u/ann", ["http://h/u/bob", "http://h/u/cy/", "http://h/t/1-x",
                                           "http://h/board/2"])
    assert shape is not None and shape.template() == "/u/{id}"
    assert shape.id_of("http://h/u/dee/") == "dee" and shape.id_of("http://h/u/dee/posts") is None
    q = infer_shape("http://h/people/view?tab=about&uid=7",
                    ["http://h/people/view?tab=about&uid=8", "http://h/people/view?tab=about&uid=19"])
    assert q is not None and q.template() == "/people/view?tab=about&uid={id}"
    assert q.id_of("http://h/people/view?tab=about&uid=42") == "42"
    assert shapes_between("http://h/u/ann", "http://other/u/bob") == []
    assert infer_shape("http://h/u/ann", ["http://h/u/bob"]) is None  # one URL proves nothing


def test_endpoints_kinds_and_lists() -> None:
    assert endpoint_template("http://h/api/users/ann/follows/?page=2", "ann") == (
        "/api/users/{id}/follows/?page={page}", "page", 2, {})
    assert endpoint_template("http://h/api/feed?cursor=abc", "ann") == (None, None, None, {})
    values = person_values([JsonSeen("http://h/u/ann", {"user": {"pk": 17, "name": "ann"}}, "script#data")],
                           '<section data-member-id="17b"><p data-x="n/a">x</p></section>')
    assert values == {"17": ("user_pk", "script#data@json:user.pk"),
                      "17b": ("member_id", "section[data-member-id]@data-member-id")}
    assert endpoint_template("http://h/api/users/17/follows?page=1", "ann", values) == (
        "/api/users/{user_pk}/follows?page={page}", "page", 1, {"user_pk": "script#data@json:user.pk"})
    assert kind_of("/api/u/{id}/followers") == "followed_by"
    assert kind_of("script#initial-following") == "follows"
    assert kind_of("/api/u/{id}/friends") == "friends"
    assert kind_of("/api/u/{id}/badges") is None
    shape = infer_shape("http://h/u/ann", ["http://h/u/bob", "http://h/u/cy"])
    assert shape is not None
    follows = JsonSeen("http://h/api/users/ann/follows/?page=1", {
        "results": [{"user": {"url": "/u/bob", "name": "Bob"}}, {"user": {"url": "/u/cy", "name": "Cy"}}],
        "next": "http://h/api/users/ann/follows/?page=2"})
    posts = JsonSeen("http://h/api/users/ann/posts?page=1", {
        "items": [{"id": 1, "time": "2026-01-01T10:00:00Z", "body": "hello", "author_url": "/u/ann"}]})
    feed = JsonSeen("http://h/api/feed", {"items": [{"author_url": "/u/bob"}, {"author_url": "/u/cy"}]})
    found, notes = find_lists([follows, posts, feed], [], "ann", shape, {"bob", "cy"})
    rel = next(f for f in found if f.role == "relation")
    assert (rel.url, rel.list_path, rel.fields, rel.next_path, rel.kind) == (
        "/api/users/{id}/follows/?page={page}", "results", {"url": "user.url"}, "next", "follows")
    assert set(rel.people) == {"bob", "cy"} and rel.people["bob"]["user.name"] == "Bob"
    items = next(f for f in found if f.role == "items")
    assert items.fields == {"time": "time", "id": "id", "text": "body"}
    assert any("/api/feed" in n and "does not name the person" in n for n in notes)


@pytest.mark.browser
def test_discover_on_a_community_whose_relations_live_only_in_the_dom(tmp_path: Path, port: int) -> None:
    """Ids in the query string, tabs, "Show more" fragments and a virtual-scrolled followers list."""
    from tests.apps.circle import make_app, make_circle

    circle = make_circle(30)
    with serve_in_thread(make_app(circle), port) as url:
        out = tmp_path / "circle.toml"
        r = run("discover", f"{url}/people/view?uid=5&tab=about", "--out", str(out))
        assert r.returncode == 0, r.stderr
        social = tomllib.loads(out.read_text())["social"]
        assert social["person_template"] == "/people/view?uid={id}"
        rels = {rel["kind"]: rel for rel in social["relations"]}
        assert set(rels) == {"follows", "followed_by"}
        assert all(rel["source"] == "dom" for rel in rels.values())
        assert rels["followed_by"].get("scroll") and rels["follows"].get("more")
        assert "display_name" in social["fields"] or "name" in social["fields"]

        r = run("crawl", str(out), "--quiet")
        assert r.returncode == 0, r.stderr
        with sqlite3.connect(tmp_path / "circle.db") as c:
            people = {row[0] for row in c.execute("SELECT id FROM people")}
            edges = set(c.execute("SELECT from_id, to_id FROM relations WHERE kind='follows'"))
        truth = {(str(a), str(b)) for a, b in circle.follows}
        assert people == {str(u) for u in circle.people}
        assert edges == truth  # recall and precision 1.0
        assert circle.log == []  # the Follow button was never pressed


@pytest.mark.browser
def test_discover_on_a_held_out_rest_forum_keyed_by_primary_keys(tmp_path: Path, port: int) -> None:
    """Built after discover was tuned and run once as found: React pages rendered from embedded JSON,
    a REST API keyed by the numeric primary key (``{"results", "next": URL}``), usernames in URLs."""
    from tests.apps.restforum import make_app, make_forum

    forum = make_forum(35)
    with serve_in_thread(make_app(forum), port) as url:
        start = forum.users[sorted(forum.users)[4]]["username"]
        out = tmp_path / "forum.toml"
        r = run("discover", f"{url}/members/{start}/", "--out", str(out))
        assert r.returncode == 0, r.stderr
        social = tomllib.loads(out.read_text())["social"]
        assert social["person_template"] == "/members/{id}/"
        assert social["fields"]["profile_pk"] == "script#__DATA__@json:profile.pk"
        assert {(rel["kind"], rel["url"]) for rel in social["relations"]} == {
            ("follows", "/api/users/{profile_pk}/follows/?page={page}"),
            ("followed_by", "/api/users/{profile_pk}/followers/?page={page}")}
        assert social["items"][0]["fields"]["time"] == "created"

        r = run("crawl", str(out), "--quiet")
        assert r.returncode == 0, r.stderr
        with sqlite3.connect(tmp_path / "forum.db") as c:
            people = {row[0] for row in c.execute("SELECT id FROM people")}
            edges = set(c.execute("SELECT from_id, to_id FROM relations WHERE kind='follows'"))
            items = c.execute("SELECT COUNT(*) FROM items").fetchone()[0]
        name = {pk: u["username"] for pk, u in forum.users.items()}
        assert people == set(name.values())
        assert edges == {(name[a], name[b]) for a, b in forum.follows}
        assert items == sum(pk % 5 for pk in forum.users)
        assert forum.log == []


def test_an_embedded_list_is_used_only_when_no_endpoint_gives_its_kind() -> None:
    from browsercrawl.discover.run import choose_lists

    shape = infer_shape("http://h/u/ann", ["http://h/u/bob", "http://h/u/cy"])
    assert shape is not None
    embedded = JsonSeen("http://h/u/ann", {"friends": [{"profile": {"href": "/u/bob"}},
                                                       {"profile": {"href": "/u/cy"}}]},
                        "script#initial-state")
    api = JsonSeen("http://h/api/ann/followers?p=1", [{"url": "/u/bob"}, {"url": "/u/cy"}])
    found, _ = find_lists([api], [embedded], "ann", shape, {"bob", "cy"})
    by_source = {f.source: f for f in found}
    assert (by_source["embedded_json"].script, by_source["embedded_json"].list_path,
            by_source["embedded_json"].fields, by_source["embedded_json"].kind) == (
        "script#initial-state", "friends", {"url": "profile.href"}, "friends")
    assert (by_source["json_api"].url, by_source["json_api"].kind) == ("/api/{id}/followers?p={page}",
                                                                      "followed_by")
    undecided: list[str] = []
    chosen, _ = choose_lists(found, undecided)
    assert {(f.kind, f.source) for f in chosen} == {("friends", "embedded_json"), ("followed_by", "json_api")}
    assert undecided == []
