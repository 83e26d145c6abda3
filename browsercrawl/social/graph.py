"""The people graph out of a crawl database: edge CSV, GraphML, and figures for ``stats``.

Nodes are the stored people plus every person named in a relation list but not (yet) visited
(``visited = false``); edges are the relations not marked removed. GraphML is written by hand
(a dozen lines of XML) so no graph library is needed; it opens in Gephi, yEd, networkx and igraph.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from browsercrawl.errors import UserError

EDGE_COLUMNS = ("kind", "from_id", "to_id", "first_seen", "last_seen")


def _tables(conn: Any) -> set[str]:
    """Table names of a storage Reader (either backend) or of a sqlite3 connection."""
    if hasattr(conn, "tables"):
        return set(conn.tables())
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def edges(conn: Any) -> list[tuple[Any, ...]]:
    return conn.execute(
        f"SELECT {', '.join(EDGE_COLUMNS)} FROM relations WHERE removed_at IS NULL "
        "ORDER BY kind, from_id, to_id").fetchall()


def nodes(conn: Any) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for pid, url, fields, items, rate in conn.execute(
            "SELECT id, url, fields, items, rate_per_day FROM people ORDER BY id"):
        name = (json.loads(fields or "{}") or {}).get("display_name")
        out[pid] = {"url": url, "label": name or pid, "visited": True, "items": items or 0,
                    "rate_per_day": rate or 0.0}
    for _, a, b, *_ in edges(conn):
        for pid in (a, b):
            out.setdefault(pid, {"url": "", "label": pid, "visited": False, "items": 0, "rate_per_day": 0.0})
    return out


def write_graph(conn: Any, out: str | Path, source: str = "database") -> int:
    """Write ``out`` (``.csv`` edge list or ``.graphml``); returns the number of edges written."""
    if "relations" not in _tables(conn):
        raise UserError(f"{source}: no relations table (not a social crawl)")
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".graphml"):
        raise UserError(f"--graph {out}: name it .csv (edge list) or .graphml")
    rows = edges(conn)
    try:
        if suffix == ".csv":
            with out.open("w", encoding="utf-8", newline="") as fh:
                w = csv.writer(fh)
                w.writerow(EDGE_COLUMNS)
                w.writerows(rows)
        else:
            out.write_text(_graphml(nodes(conn), rows), encoding="utf-8")
    except OSError as exc:
        raise UserError(f"--graph {out}: cannot write ({exc.strerror})") from None
    return len(rows)


def _graphml(node_data: dict[str, dict[str, Any]], rows: list[tuple[Any, ...]]) -> str:
    keys = [("label", "node", "string"), ("url", "node", "string"), ("visited", "node", "boolean"),
            ("items", "node", "int"), ("rate_per_day", "node", "double"), ("kind", "edge", "string"),
            ("first_seen", "edge", "string"), ("last_seen", "edge", "string")]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">']
    lines += [f'  <key id="{k}" for="{f}" attr.name="{k}" attr.type="{t}"/>' for k, f, t in keys]
    lines.append('  <graph id="people" edgedefault="directed">')
    for pid, d in node_data.items():
        data = "".join(
            f"<data key={quoteattr(k)}>{_text(d[k])}</data>" for k in ("label", "url", "visited", "items",
                                                                        "rate_per_day"))
        lines.append(f"    <node id={quoteattr(pid)}>{data}</node>")
    for i, (kind, a, b, first, last) in enumerate(rows):
        data = (f"<data key=\"kind\">{_text(kind)}</data><data key=\"first_seen\">{_text(first)}</data>"
                f"<data key=\"last_seen\">{_text(last)}</data>")
        lines.append(f'    <edge id="e{i}" source={quoteattr(a)} target={quoteattr(b)}>{data}</edge>')
    lines += ["  </graph>", "</graphml>", ""]
    return "\n".join(lines)


def _top(degrees: Counter[str]) -> str:
    if not degrees:
        return "-"
    who, n = degrees.most_common(1)[0]
    return f"{who} ({n})"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        value = "true" if value else "false"
    return quoteattr("" if value is None else str(value))[1:-1]


def graph_stats(conn: Any) -> dict[str, Any] | None:
    """Figures for ``browsercrawl stats``: size, degrees, reciprocity, components, revisits."""
    tables = _tables(conn)
    if "relations" not in tables or "people" not in tables:
        return None
    rows = edges(conn)
    node_data = nodes(conn)
    follows = {(a, b) for k, a, b, *_ in rows if k == "follows"}
    out_deg = Counter(a for a, _ in follows)
    in_deg = Counter(b for _, b in follows)
    parent = {n: n for n in node_data}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for _, a, b, *_ in rows:
        parent[find(a)] = find(b)
    sizes = Counter(find(n) for n in node_data)
    visited = sum(1 for d in node_data.values() if d["visited"])
    stats: dict[str, Any] = {
        "people_visited": visited,
        "people_named_not_visited": len(node_data) - visited,
        "edges": len(rows),
        "edges_by_kind": dict(Counter(k for k, *_ in rows)),
        "mean_out_degree": round(len(follows) / visited, 2) if visited else 0.0,
        "max_in_degree": _top(in_deg),
        "max_out_degree": _top(out_deg),
        "reciprocity": round(sum(1 for a, b in follows if (b, a) in follows) / len(follows), 3)
        if follows else 0.0,
        "components": len(sizes),
        "largest_component": max(sizes.values()) if sizes else 0,
    }
    if "items" in tables:
        stats["items"] = conn.execute("SELECT COUNT(*) FROM items").fetchone()[0]
    if "visits" in tables:
        for strategy, n, changed in conn.execute(
                "SELECT strategy, COUNT(*), SUM(changed) FROM visits WHERE strategy != 'crawl' GROUP BY 1"):
            stats[f"revisits_{strategy}"] = f"{changed or 0}/{n} changed"
    if "changes" in tables:
        stats["changes"] = changes_summary(conn)
    return stats


def changes_summary(conn: Any) -> dict[str, Any]:
    """What revisits found: changes by kind, people who changed, and the busiest of them."""
    by_kind = dict(conn.execute(
        "SELECT change, COUNT(*) FROM changes GROUP BY change ORDER BY change").fetchall())
    people = conn.execute("SELECT COUNT(DISTINCT person_id) FROM changes").fetchone()[0]
    busiest = conn.execute("SELECT person_id, COUNT(*) FROM changes GROUP BY person_id "
                           "ORDER BY COUNT(*) DESC, person_id LIMIT 3").fetchall()
    return {"by_kind": by_kind, "people_changed": people,
            "most_changed": [f"{pid} ({n})" for pid, n in busiest]}
