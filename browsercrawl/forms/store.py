"""Writing the part's rows outside a page, and taking back an interrupted crawl's query state.

Rows normally commit with the page that produced them (``result.extra_rows``); the rounds started
when the crawl ran dry have no page, so they are written here. On a restart, the interfaces,
queries, result pages, records and form pages are read back, and each campaign resumes in the
round it was in: the pages it still expects are in the frontier (a resumed crawl re-queues pages
that were in flight), and a campaign whose round was complete starts its next one.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from typing import TYPE_CHECKING, Any

from browsercrawl.forms import tables
from browsercrawl.forms.cluster import FormPage
from browsercrawl.forms.plan import PROBE_ROUND, Campaign, Emit, Interface, Query

if TYPE_CHECKING:
    from browsercrawl.forms.hook import SearchFormsHook
    from browsercrawl.storage.db import CrawlDatabase


def write_rows(conn: sqlite3.Connection, rows: dict[str, list[dict[str, Any]]]) -> None:
    """Insert rows (``__upsert__`` replaces the row with the same key), in the caller's transaction."""
    for table, batch in rows.items():
        for row in batch:
            upsert = row.pop("__upsert__", False)
            cols = list(row)
            verb = "INSERT OR REPLACE" if upsert else "INSERT OR IGNORE"
            conn.execute(f"{verb} INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) "
                         f"VALUES ({', '.join('?' for _ in cols)})", [row[c] for c in cols])


def _read(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
    conn.row_factory = sqlite3.Row
    try:
        return {t: [dict(r) for r in conn.execute(f"SELECT * FROM [{t}]")]
                for t in (tables.FORMS, tables.FORM_PAGES, tables.QUERIES, tables.QUERY_PAGES,
                          tables.QUERY_RECORDS)}
    finally:
        conn.row_factory = None


async def load_state(db: CrawlDatabase, hook: SearchFormsHook, emit: Emit) -> None:
    """Rebuild the planner from the tables (nothing to do on a fresh crawl)."""
    data = await db.run(_read)
    if not data[tables.FORMS]:
        return
    planner = hook.planner
    for row in data[tables.FORMS]:
        hook.known_forms.add(row["id"])
        hook.kinds[row["kind"]] += 1
        if row["kind"] != "search" or not row["spec"]:
            continue
        spec = json.loads(row["spec"])
        iface = Interface(
            id=row["id"], host=row["host"], method=spec["method"], action=spec["action"],
            query_field=spec["query_field"], fields=[tuple(f) for f in spec["fields"]],
            form_page=spec["form_page"], depth=spec["depth"], template=spec.get("template"),
            template_links=set(spec.get("template_links") or ()), usable=bool(row["usable"]),
            note=row["note"] or "",
        )
        planner.interfaces[iface.id] = iface
        planner.queried.setdefault(iface.id, set())
        hook.form_rows[iface.id] = {k: v for k, v in row.items()}
    for row in data[tables.FORM_PAGES]:
        planner.form_pages[(row["url"], row["form"])] = FormPage(
            row["url"], row["form"], Counter(json.loads(row["page_terms"])),
            Counter(json.loads(row["form_terms"])))
    for row in data[tables.QUERIES]:
        iface = planner.interfaces.get(row["form"])
        if iface is None:
            continue
        q = Query(row["id"], row["form"], row["term"], row["round"], row["cluster"], row["url"],
                  pages=row["result_pages"] or 0, results=row["results"] or 0, new=row["new"] or 0,
                  valid=None if row["valid"] is None else bool(row["valid"]), status=row["status"])
        if row["method"] == "post":
            q.body = iface.request(q.term)[1]
        planner.queries[q.id] = q
        planner.queried[q.iface].add(q.term)
        planner.used[iface.host] += 1
        planner.next_id = max(planner.next_id, q.id + 1)
        if q.status != "done" or q.round != PROBE_ROUND or iface.method != "script":
            planner.pages.setdefault(q.url, (q.id, 1))
        if q.round == PROBE_ROUND and q.status == "done":
            iface.ready = True
        if q.round > PROBE_ROUND:
            iface.seeded = True
    terms: dict[str, Counter[str]] = {}
    for row in data[tables.QUERY_PAGES]:
        planner.pages[row["url"]] = (row["query"], row["page"])
        planner.arrived.add(row["url"])
        terms[row["url"]] = Counter(json.loads(row["terms"] or "{}"))
        nxt = row["next_url"]
        if nxt and row["records"] and row["page"] < planner.cfg.max_result_pages:
            planner.pages.setdefault(nxt, (row["query"], row["page"] + 1))
    for row in data[tables.QUERY_RECORDS]:
        iface = planner.interfaces.get(row["form"])
        if iface is not None:
            planner.records.setdefault(iface.host, set()).add(row["url"])
    # Campaigns: each (form, cluster) is in the round of its latest queries.
    latest: dict[tuple[str, int], int] = {}
    for q in planner.queries.values():
        if q.round > PROBE_ROUND:
            key = (q.iface, q.cluster)
            latest[key] = max(latest.get(key, 0), q.round)
    for (iid, cluster), round_no in latest.items():
        campaign = Campaign(iid, cluster, round_no)
        planner.campaigns[(iid, cluster)] = campaign
        ids = {q.id for q in planner.queries.values() if q.iface == iid and q.cluster == cluster
               and q.round == round_no}
        for url, (qid, _) in planner.pages.items():
            if qid not in ids:
                continue
            if url in planner.arrived:
                campaign.docs.append(terms.get(url, Counter()))
            else:
                campaign.outstanding.add(url)
    for campaign in planner.campaigns.values():
        if not campaign.outstanding:
            planner.advance(campaign, emit)
