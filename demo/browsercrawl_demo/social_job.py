"""The social job for the bundled demo site, a test-oracle login for it, and found-vs-expected figures.

The demo's profile pages mix all three list sources on purpose, and the job below uses each: the
first five *following* come embedded as JSON (``script#initial-following``) and all of them from
the paged endpoint ``/api/user/<name>/following``; *followers* are read from the DOM behind the
Followers tab and its "More" button; status posts come from ``/api/user/<name>/posts``. The demo's
clock only moves when advanced, so the job uses ``clock = "site"`` with the feed as the probe.

:func:`demo_login_cookies` logs in with a real browser and reads the CAPTCHA answer from the
in-process site's test oracle - fine for the demo, tests and the benchmark; real sites log in
through ``browsercrawl/session``.
"""

from __future__ import annotations

import json
import sqlite3
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browsercrawl.engine.hooks import PageHook
from browsercrawl.errors import LoginError

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

    from browsercrawl_demo.app import DemoSite


def demo_social_section(clock: str = "site") -> dict[str, Any]:
    """The ``[social]`` section for the demo site (see ``docs/social.md`` for each key)."""
    member_link = {"url": "@href"}
    return {
        "person_url": r"/u/([^/?#]+)/?$",
        "person_template": "/u/{id}",
        "fields": {"display_name": "h1.display-name", "member_id": "section.profile@data-member-id",
                   "joined": "time.joined@datetime", "location": "dd.location", "bio": "p.bio"},
        "relations": [
            {"kind": "follows", "source": "embedded_json", "script": "script#initial-following",
             "fields": {"url": "url"}},
            {"kind": "follows", "source": "json_api", "url": "/api/user/{id}/following?page={page}",
             "list_path": "items", "next_path": "next_page", "fields": {"url": "url"}},
            {"kind": "followed_by", "source": "dom", "tab": "#tab-followers",
             "more": "#panel-followers button.more", "entries": "#panel-followers a.member-link",
             "done": "#panel-followers[data-complete]", "fields": member_link},
        ],
        "items": [
            {"source": "json_api", "url": "/api/user/{id}/posts?page={page}", "list_path": "items",
             "next_path": "next_page", "fields": {"id": "id", "time": "time", "text": "text"}},
        ],
        "clock": clock,
        "clock_probe": [
            {"source": "json_api", "page": "/feed", "url": "/api/feed", "list_path": "items",
             "max_pages": 1, "fields": {"time": "time"}},
        ],
    }


def demo_job(site_url: str, database: str | Path, seeds: list[str], **social: Any) -> dict[str, Any]:
    """A whole job document (as parsed TOML) crawling the demo's members from ``seeds`` (paths)."""
    return {
        "name": "demo-social",
        "seeds": [site_url + s for s in seeds],
        "politeness": {"concurrency": 4, "per_host_concurrency": 4, "max_retries": 2},
        "rendering": {"wait_until": "load", "block": ["image", "font", "media"]},
        "output": {"database": str(database), "store_html": False},
        "social": {**demo_social_section(), **social},
    }


async def demo_login_cookies(browser: Browser, site: DemoSite, user: str) -> list[dict[str, Any]]:
    """Log in to the demo like a person (form, CAPTCHA via the test oracle); the session cookies."""
    from browsercrawl_demo.auth import password_for

    context = await browser.new_context()
    try:
        page: Page = await context.new_page()
        await page.goto(f"{site.url}/login?next=/feed")
        token = await page.get_attribute("input[name=csrf_token]", "value") or ""
        await page.fill("#username", user)
        await page.fill("#password", password_for(user, site.config.seed))
        if await page.query_selector("#captcha"):
            await page.fill("#captcha", site.state.captcha_answer_for(token) or "")
        await page.click("#login-submit")
        await page.wait_for_load_state("load")
        if "/login" in page.url:
            raise LoginError(f"{site.url}/login: demo login as {user!r} failed")
        return await context.cookies()
    finally:
        await context.close()


class CookieHook(PageHook):
    """Puts a logged-in session's cookies into every context the crawl opens (demo and tests)."""

    def __init__(self, cookies: list[dict[str, Any]]) -> None:
        self.cookies = cookies

    async def on_page_created(self, page: Page) -> None:
        await page.context.add_cookies(self.cookies)  # type: ignore[arg-type]


def expected_graph(truth: dict[str, Any], seeds: list[str]) -> tuple[set[str], set[tuple[str, str]]]:
    """Members reachable from ``seeds`` (names) over following and followers lists, and all their
    follow edges - what a complete traversal must find."""
    follows = truth["follows.json"]
    neighbours: dict[str, set[str]] = {}
    for a, b in follows:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    seen = set(seeds)
    queue = deque(seeds)
    while queue:
        for other in neighbours.get(queue.popleft(), ()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    edges = {(a, b) for a, b in follows if a in seen or b in seen}
    return seen, edges


def found_vs_expected(database: str | Path, truth: dict[str, Any], seeds: list[str]) -> dict[str, Any]:
    """People and edges found by a crawl against the truth dump: counts, recall, precision."""
    people, edges = expected_graph(truth, seeds)
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        found_people = {r[0] for r in conn.execute("SELECT id FROM people")}
        found_edges = {(a, b) for a, b in conn.execute(
            "SELECT from_id, to_id FROM relations WHERE kind='follows' AND removed_at IS NULL")}
    finally:
        conn.close()
    hit = len(found_edges & edges)
    return {
        "people_found": len(found_people), "people_expected": len(people),
        "people_missing": sorted(people - found_people)[:10],
        "people_extra": sorted(found_people - people)[:10],
        "edges_found": len(found_edges), "edges_expected": len(edges),
        "edge_recall": round(hit / len(edges), 4) if edges else 1.0,
        "edge_precision": round(hit / len(found_edges), 4) if found_edges else 1.0,
    }


def print_figures(figures: dict[str, Any]) -> None:
    print(json.dumps(figures, indent=2))
