"""The social tables, the rows one visit produces, and what changed since the previous visit.

Tables (created at crawl start through ``CrawlDatabase.ensure_table``):

* ``people``: one row per canonical person id (every URL form of a person lands here), with the
  revisit figures: ``last_visit`` (site time), ``items``, ``first_item``/``last_item``, ``rate_per_day``.
* ``relations``: ``(kind, from_id, to_id)`` with ``first_seen``/``last_seen``/``removed_at``. Kinds
  are normalised: a *followed_by* entry C on A's page is stored as ``follows C -> A``; *friends*
  are stored once with ``from_id < to_id``.
* ``items``: ``(person_id, item_id)`` with time, text and extra fields; duplicates are ignored.
* ``visits``: one row per visit (crawl or recrawl) with the predicted P(change) and what changed.
* ``changes``: one row per thing a revisit found changed, per person and page: ``new_item``,
  ``new_edge``, ``removed_edge``, ``changed_field`` (``label: old -> new``) and ``text_diff`` (a
  unified diff of the page's text, changed lines only, at most ``TEXT_DIFF_CHARS``).
* ``person_texts``: the text of each person's page at the last visit (what the next diff compares with).

What a revisit finds feeds the update rate: besides the timed items, every revisit that found
new or removed edges or changed fields counts as one change event (the text diff does not: it
repeats the others and also moves with relative dates like "3 hours ago").

Site times are stored twice: ISO text for people and epoch seconds (``*_ts``) for arithmetic.
"""

from __future__ import annotations

import difflib
import json
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from browsercrawl.config.social import RelationKind, SocialConfig
from browsercrawl.social.extract import PersonSnapshot
from browsercrawl.social.rate import estimate_rate
from browsercrawl.storage.base import Store

Edge = tuple[str, str, str]  # (kind, from_id, to_id)

TABLES: dict[str, tuple[dict[str, Any], str | tuple[str, ...], list[tuple[str, ...]]]] = {
    "people": (
        {"id": str, "url": str, "fields": str, "depth": int, "first_seen": str, "first_seen_ts": float,
         "last_visit": str, "last_visit_ts": float, "visits": int, "items": int, "first_item": str,
         "last_item": str, "rate_per_day": float, "follows": int, "followed_by": int, "friends": int},
        "id", [("rate_per_day",)],
    ),
    "relations": (
        {"kind": str, "from_id": str, "to_id": str, "first_seen": str, "last_seen": str,
         "removed_at": str},
        ("kind", "from_id", "to_id"), [("from_id",), ("to_id",)],
    ),
    "items": (
        {"person_id": str, "item_id": str, "time": str, "time_ts": float, "text": str, "data": str,
         "first_seen": str},
        ("person_id", "item_id"), [("person_id", "time_ts")],
    ),
    "visits": (
        {"id": int, "person_id": str, "at": str, "at_ts": float, "strategy": str, "p_change": float,
         "new_items": int, "new_edges": int, "removed_edges": int, "changed_fields": int,
         "text_changed": int, "changed": int},
        "id", [("person_id",), ("strategy",)],
    ),
    "changes": (
        {"id": int, "person_id": str, "url": str, "at": str, "strategy": str, "change": str, "detail": str},
        "id", [("person_id",), ("change",)],
    ),
    "person_texts": (
        {"person_id": str, "url": str, "text": str, "at": str},
        "person_id", [],
    ),
}
TEXT_DIFF_CHARS = 4000


def create_tables(db: Store) -> None:
    for name, (columns, pk, indexes) in TABLES.items():
        db.ensure_table(name, columns, pk=pk, indexes=indexes)


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def edges_of(snap: PersonSnapshot) -> dict[RelationKind, set[Edge]]:
    """The page's relation lists as normalised edges, per list kind."""
    out: dict[RelationKind, set[Edge]] = {}
    for kind, rel in snap.relations.items():
        edges: set[Edge] = set()
        for other in rel.targets:
            if other == snap.id:
                continue
            if kind == "follows":
                edges.add(("follows", snap.id, other))
            elif kind == "followed_by":
                edges.add(("follows", other, snap.id))
            else:
                a, b = sorted((snap.id, other))
                edges.add(("friends", a, b))
        out[kind] = edges
    return out


def item_rows(snap: PersonSnapshot, now: float) -> list[dict[str, Any]]:
    return [
        {"person_id": snap.id, "item_id": key, "time": iso(item["time"]), "time_ts": item["time"],
         "text": item["text"], "data": json.dumps(item["data"], ensure_ascii=False) if item["data"] else None,
         "first_seen": iso(now)}
        for key, item in snap.items.items()
    ]


def person_row(
    snap: PersonSnapshot,
    cfg: SocialConfig,
    *,
    now: float,
    depth: int,
    first_seen: float,
    visits: int,
    item_times: Iterable[float],
    extra_fields: dict[str, Any] | None = None,
    other_changes: int = 0,
) -> dict[str, Any]:
    """The ``people`` row after a visit; the rate counts every timed item known for the person
    plus ``other_changes`` (revisits that found changed edges or fields)."""
    times = sorted(item_times)
    rate = estimate_rate(len(times) + other_changes, times[0] if times else None, first_seen, now,
                         cfg.prior_items, cfg.prior_days)
    fields = {**snap.fields, **(extra_fields or {})}
    counts = {k: len(snap.relations[k].targets) if k in snap.relations else None
              for k in ("follows", "followed_by", "friends")}
    return {
        "id": snap.id, "url": snap.url, "fields": json.dumps(fields, ensure_ascii=False, default=str),
        "depth": depth, "first_seen": iso(first_seen), "first_seen_ts": first_seen,
        "last_visit": iso(now), "last_visit_ts": now, "visits": visits, "items": len(times),
        "first_item": iso(times[0]) if times else None, "last_item": iso(times[-1]) if times else None,
        "rate_per_day": rate * 86400, **counts,
    }


# ---------------------------------------------------------------------------- revisits


def apply_revisit(
    conn: sqlite3.Connection,
    snap: PersonSnapshot,
    cfg: SocialConfig,
    *,
    now: float,
    strategy: str,
    p_change: float,
    extra_fields: dict[str, Any] | None = None,
    text: str | None = None,
) -> dict[str, int]:
    """Compare a revisit with what the database knows, record the changes, update the rows.

    Runs inside the caller's transaction. A stored edge counts as removed only when a source of
    that list read it to the end (an embedded first-five list proves nothing about the rest).
    ``text`` is the page's text now (None: not compared).
    """
    at = iso(now)
    old = conn.execute("SELECT first_seen_ts, visits, depth, fields FROM people WHERE id=?",
                       (snap.id,)).fetchone()
    first_seen, visits, depth, old_fields = old if old else (now, 0, 0, None)
    known_items = {r[0] for r in conn.execute("SELECT item_id FROM items WHERE person_id=?", (snap.id,))}
    new_items = [r for r in item_rows(snap, now) if r["item_id"] not in known_items]
    _insert(conn, "items", new_items, replace=False)
    changes = [(snap.id, snap.url, at, strategy, "new_item", f"{r['item_id']} {r['time'] or ''}".strip())
               for r in new_items]

    new_edges = removed = 0
    for kind, edges in edges_of(snap).items():
        where, args = _list_scope(kind, snap.id)
        stored = {(k, f, t) for k, f, t in conn.execute(
            f"SELECT kind, from_id, to_id FROM relations WHERE removed_at IS NULL AND {where}", args)}
        for edge in sorted(edges - stored):
            new_edges += 1
            changes.append((snap.id, snap.url, at, strategy, "new_edge", " ".join(edge)))
        conn.executemany(
            "INSERT INTO relations (kind, from_id, to_id, first_seen, last_seen, removed_at) "
            "VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (kind, from_id, to_id) "
            "DO UPDATE SET last_seen=excluded.last_seen, removed_at=NULL",
            [(*e, at, at) for e in edges],
        )
        if snap.relations[kind].complete:
            for edge in sorted(stored - edges):
                removed += 1
                changes.append((snap.id, snap.url, at, strategy, "removed_edge", " ".join(edge)))
                conn.execute("UPDATE relations SET removed_at=? WHERE kind=? AND from_id=? AND to_id=?",
                             (at, *edge))
    fields_now = {**snap.fields, **(extra_fields or {})}
    field_changes = changed_fields(json.loads(old_fields) if old_fields else {}, fields_now)
    changes += [(snap.id, snap.url, at, strategy, "changed_field", d) for d in field_changes]
    text_changed = 0
    if text is not None:
        before = conn.execute("SELECT text FROM person_texts WHERE person_id=?", (snap.id,)).fetchone()
        if before is not None and before[0] != text:
            text_changed = 1
            changes.append((snap.id, snap.url, at, strategy, "text_diff", text_diff(before[0] or "", text)))
        _insert(conn, "person_texts", [{"person_id": snap.id, "url": snap.url, "text": text, "at": at}],
                replace=True)
    conn.executemany(
        "INSERT INTO changes (person_id, url, at, strategy, change, detail) VALUES (?, ?, ?, ?, ?, ?)",
        changes)
    times = [r[0] for r in conn.execute(
        "SELECT time_ts FROM items WHERE person_id=? AND time_ts IS NOT NULL", (snap.id,))]
    # a change event for the rate; a first visit (everything new) changes nothing
    other_now = int(bool(new_edges or removed or field_changes)) if old else 0
    other_before = conn.execute(
        "SELECT COUNT(*) FROM visits WHERE person_id=? AND strategy != 'crawl' AND "
        "(new_edges > 0 OR removed_edges > 0 OR changed_fields > 0)", (snap.id,)).fetchone()[0]
    row = person_row(snap, cfg, now=now, depth=depth, first_seen=first_seen, visits=visits + 1,
                     item_times=times, extra_fields=extra_fields, other_changes=other_before + other_now)
    _insert(conn, "people", [row], replace=True)
    figures = {"new_items": len(new_items), "new_edges": new_edges, "removed_edges": removed,
               "changed_fields": len(field_changes), "text_changed": text_changed}
    changed = int(any(figures.values()))
    conn.execute(
        "INSERT INTO visits (person_id, at, at_ts, strategy, p_change, new_items, new_edges, "
        "removed_edges, changed_fields, text_changed, changed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (snap.id, at, now, strategy, p_change, *figures.values(), changed),
    )
    return {**figures, "changed": changed}


def changed_fields(before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """``label: old -> new`` for each field whose value differs (a field read as nothing both
    times, or newly read where it was never read, is no change)."""
    out = []
    for label in sorted(set(before) | set(now)):
        old, new = before.get(label), now.get(label)
        if old == new or (old is None and label not in before):
            continue
        out.append(f"{label}: {json.dumps(old, ensure_ascii=False, default=str)[:300]} -> "
                   f"{json.dumps(new, ensure_ascii=False, default=str)[:300]}")
    return out


def text_diff(before: str, now: str) -> str:
    """The changed lines of a page's text (unified diff without context), cut to ``TEXT_DIFF_CHARS``."""
    lines = [line for line in difflib.unified_diff(before.splitlines(), now.splitlines(), lineterm="", n=0)
             if not line.startswith(("---", "+++", "@@"))]
    out = "\n".join(lines)
    return out if len(out) <= TEXT_DIFF_CHARS else out[:TEXT_DIFF_CHARS] + "\n..."


def _list_scope(kind: RelationKind, person: str) -> tuple[str, tuple[str, ...]]:
    if kind == "follows":
        return "kind='follows' AND from_id=?", (person,)
    if kind == "followed_by":
        return "kind='follows' AND to_id=?", (person,)
    return "kind='friends' AND (from_id=? OR to_id=?)", (person, person)


def _insert(conn: sqlite3.Connection, table: str, rows: list[dict[str, Any]], replace: bool) -> None:
    verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
    for row in rows:
        cols = list(row)
        conn.execute(f"{verb} INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) "
                     f"VALUES ({', '.join('?' for _ in cols)})", [row[c] for c in cols])
