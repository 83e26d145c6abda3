"""``browsercrawl demo``'s API-shortcut crawl: board cards built from their JSON, scored against the site.

One job in ``auto`` mode, written to the output folder as ``cards.toml``: it starts at
``/boards/cards`` (server-rendered, linked from no other page) and crawls every ``/board/<id>/card``,
a shell that the site's script fills from ``/api/board/<id>``. The engine renders the first cards,
learns how each one's JSON URL follows from the page URL, and builds the rest from the JSON over
HTTP (``via = 'api'``), rendering some again to check. The score is every card's stored text and
links against what the site holds: a card built from its JSON must read exactly like a rendered one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from browsercrawl.frontier.urls import canonical_url
from browsercrawl_demo.api import LATEST_ON_CARD
from browsercrawl_demo.content import Content
from browsercrawl_demo.jobs import crawl_fresh


def expected_cards(content: Content) -> dict[str, dict[str, Any]]:
    """Per card URL path: the texts it must show and the links it must hold."""
    out = {}
    for board in content.boards:
        threads = content.board_threads[board.id]
        out[f"{board.path}/card"] = {
            "texts": [board.name, board.description, f"{len(threads)} threads",
                      *(t.title for t in threads[:LATEST_ON_CARD])],
            "links": [board.path, *(t.path for t in threads[:LATEST_ON_CARD])],
        }
    return out


def score(db: Path, site_url: str, expected: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Cards stored, built from JSON, and right (every text shown and every link kept)."""
    with sqlite3.connect(db) as conn:
        pages = {u: (pid, via, text or "") for pid, u, via, text in
                 conn.execute("SELECT id, url, via, text FROM pages WHERE status = 200")}
        stored = right = built = built_right = 0
        for path, want in expected.items():
            row = pages.get(canonical_url(site_url + path))
            if row is None:
                continue
            stored += 1
            pid, via, text = row
            links = {u for (u,) in conn.execute("SELECT url FROM links WHERE page_id = ?", (pid,))}
            ok = all(t in text for t in want["texts"]) and all(
                canonical_url(site_url + link) in links for link in want["links"])
            right += ok
            built += via == "api"
            built_right += ok and via == "api"
    return {"cards": len(expected), "cards_stored": stored, "cards_right": right,
            "cards_built": built, "cards_built_right": built_right}


def run_api_shortcut(out: Path, site_url: str, content: Content, session: dict[str, Any],
                     echo) -> dict[str, Any]:
    """Write ``cards.toml``, crawl into ``cards.db`` in auto mode, and score the cards."""
    job: dict[str, Any] = {
        "name": "demo-board-cards",
        "seeds": [f"{site_url}/boards/cards"],
        "scope": {"allow": [r"/boards/cards$", r"/board/\d+/card$"],
                  "deny": ["/logout", "/login", "/account/"]},
        "politeness": {"concurrency": 4, "per_host_concurrency": 4},
        # No wait named: the default wait learns the cards' (their header's quick-search box is
        # drawn with a quick card's content, and must not stand for it).
        "rendering": {"mode": "auto"},
        "output": {"database": "cards.db", "store_html": False},
        "session": session,
    }
    echo("demo: board cards in auto mode (the API shortcut builds pages from their JSON)")
    summary, seconds = crawl_fresh(out, "cards", job)
    return {"pages": summary.pages_total, "seconds": seconds,
            "failed": summary.failed, "api_shortcut": summary.api_shortcut,
            **score(out / "cards.db", site_url, expected_cards(content))}


def report_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Rows of ``browsercrawl demo``'s table for the board-card crawl."""
    s = report.get("api_shortcut")
    if not s:
        return []
    shapes = (s.get("api_shortcut") or {}).get("shapes") or {}
    used = sum(v.startswith("shortcut") for v in shapes.values())
    return [
        ("board cards (auto mode): built from their JSON / rendered",
         f"{s.get('cards_built')} / {s.get('cards_stored', 0) - s.get('cards_built', 0)} "
         f"({used} of {len(shapes)} rendered URL shapes)"),
        ("board cards right (text and links), of them built from JSON",
         f"{s.get('cards_right')} / {s.get('cards')} "
         f"({s.get('cards_built_right')} / {s.get('cards_built')})"),
    ]
