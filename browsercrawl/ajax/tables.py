"""Tables of the ajax part: captured JSON, URL-less states, and per-page expansion records.

* ``responses`` - one row per captured XHR/fetch JSON answer (first capture wins).
* ``states`` - each distinct DOM state reached by clicking on a page, with the click path that
  reached it (JSON list of ``{selector, text}``, in the order clicked since the page loaded), its
  visible text and its HTML (zlib, like ``pages.html``).
* ``expansions`` - one row per page (replaced on re-fetch): how long the wait took, how many
  scroll rounds, load-more clicks and exploration clicks the page needed, states found,
  element/item counts before and after, refused state-changing requests, and whether the
  page's time budget ran out.
* ``list_entries`` - the rows of lists that recycle their DOM (``recycled`` rules), collected while
  scrolling: page, position, the row's key and its fields (JSON).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from browsercrawl.storage.base import Store

RESPONSES = "responses"
STATES = "states"
EXPANSIONS = "expansions"
LIST_ENTRIES = "list_entries"


def create_ajax_tables(db: Store) -> None:
    db.ensure_table(
        RESPONSES,
        {"url": str, "method": str, "status": int, "content_type": str, "page_url": str,
         "body": str, "bytes": int, "fetched_at": str},
        pk=("url", "method"),
        indexes=[("page_url",)],
    )
    db.ensure_table(
        STATES,
        {"page_url": str, "state_hash": str, "seq": int, "click_path": str, "text": str,
         "html": bytes, "links_count": int, "created_at": str},
        pk=("page_url", "state_hash"),
    )
    db.ensure_table(
        EXPANSIONS,
        {"page_url": str, "rule": str, "wait": str, "wait_ok": int, "waited_ms": int,
         "scroll_rounds": int, "load_more_clicks": int, "explore_clicks": int, "states": int,
         "nodes_before": int, "nodes_after": int, "items_before": int, "items_after": int,
         "blocked_requests": str, "budget_hit": int, "total_ms": int, "responses": int},
        pk="page_url",
    )
    db.ensure_table(
        LIST_ENTRIES,
        {"page_url": str, "seq": int, "entry_key": str, "data": str, "complete": int},
        pk=("page_url", "seq"),
    )


def state_row(page_url: str, seq: int, state: dict[str, Any], created_at: str) -> dict[str, Any]:
    html = state.get("html")
    return {
        "page_url": page_url,
        "state_hash": state["hash"],
        "seq": seq,
        "click_path": json.dumps(state["path"], ensure_ascii=False),
        "text": state["text"],
        "html": zlib.compress(html.encode("utf-8", errors="replace"), 3) if html else None,
        "links_count": len(state["links"]),
        "created_at": created_at,
    }
