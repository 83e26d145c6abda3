"""What changed since the last visit: per person and page, new/removed relations, new items, changed
fields and a diff of the page's text go to ``changes``; edge and field changes feed the update rate;
``stats`` summarises them. On a real SQLite crawl database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from browsercrawl.config.social import DAY, parse_social
from browsercrawl.social.extract import PersonSnapshot, RelationList
from browsercrawl.social.graph import graph_stats
from browsercrawl.social.rate import estimate_rate
from browsercrawl.social.store import apply_revisit, create_tables, text_diff
from browsercrawl.storage.db import CrawlDatabase

CFG = parse_social({"person_url": r"/u/([^/]+)$", "person_template": "/u/{id}",
                    "relations": [{"kind": "follows", "source": "json_api", "url": "/api/{id}/f",
                                   "fields": {"url": "url"}}]}, "job.toml")
T0 = 1_800_000_000.0


def snap(name: str, follows: list[str]) -> PersonSnapshot:
    targets = {p: f"http://h/u/{p}" for p in follows}
    return PersonSnapshot("ann", "http://h/u/ann", {"display_name": name},
                          {"follows": RelationList(targets=targets, complete=True)}, {}, items_complete=True)


async def test_a_revisit_records_what_changed_and_the_rate_counts_it(tmp_path: Path) -> None:
    path = tmp_path / "crawl.db"
    store = await CrawlDatabase(path).open()
    create_tables(store)
    await store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    page = "Ann\nJoined 2020\nFollowing: bob, cy\n"
    first = apply_revisit(conn, snap("Ann", ["bob", "cy"]), CFG, now=T0, strategy="crawl", p_change=0.0,
                          text=page)
    assert first["changed"] == 1  # everything is new on a first visit...
    rate_first = conn.execute("SELECT rate_per_day FROM people").fetchone()[0]
    assert rate_first == estimate_rate(0, None, T0, T0) * DAY  # ...but it is no change event

    later = T0 + DAY
    figures = apply_revisit(conn, snap("Ann B.", ["bob", "dee"]), CFG, now=later, strategy="policy",
                            p_change=0.5, text="Ann B.\nJoined 2020\nFollowing: bob, dee\n")
    assert figures == {"new_items": 0, "new_edges": 1, "removed_edges": 1, "changed_fields": 1,
                       "text_changed": 1, "changed": 1}
    rows = conn.execute(
        "SELECT change, url, detail FROM changes WHERE strategy='policy' ORDER BY id").fetchall()
    assert [(c, d) for c, _, d in rows] == [
        ("new_edge", "follows ann dee"), ("removed_edge", "follows ann cy"),
        ("changed_field", 'display_name: "Ann" -> "Ann B."'),
        ("text_diff", "-Ann\n+Ann B.\n-Following: bob, cy\n+Following: bob, dee")]
    assert {u for _, u, _ in rows} == {"http://h/u/ann"}
    rate = conn.execute("SELECT rate_per_day FROM people").fetchone()[0]
    assert rate == estimate_rate(1, None, T0, later) * DAY  # the change event counts like an item
    assert rate > estimate_rate(0, None, T0, later) * DAY

    same = apply_revisit(conn, snap("Ann B.", ["bob", "dee"]), CFG, now=later + DAY, strategy="policy",
                         p_change=0.1, text="Ann B.\nJoined 2020\nFollowing: bob, dee\n")
    assert same["changed"] == 0
    assert conn.execute("SELECT COUNT(*) FROM changes WHERE strategy='policy'").fetchone()[0] == 4
    visits = conn.execute("SELECT changed_fields, text_changed, changed FROM visits ORDER BY id").fetchall()
    assert visits[1:] == [(1, 1, 1), (0, 0, 0)]

    summary = graph_stats(conn)["changes"]
    assert summary["by_kind"]["changed_field"] == 1 and summary["by_kind"]["text_diff"] == 1
    assert summary["people_changed"] == 1 and summary["most_changed"][0].startswith("ann (")
    conn.close()


def test_text_diff_keeps_changed_lines_only_and_is_bounded() -> None:
    before = "\n".join(f"line {i}" for i in range(100))
    now = before.replace("line 50", "line fifty")
    assert text_diff(before, now) == "-line 50\n+line fifty"
    huge = text_diff("", "x" * 10_000)
    assert len(huge) <= 4004 and huge.endswith("...")
