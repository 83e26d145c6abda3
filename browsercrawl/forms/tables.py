"""Tables of the search-forms part.

* ``forms`` - every form (and form-less box) seen, once: its purpose as classified, why, its
  structural features, and for search forms what it takes to query it again (``spec``).
* ``form_pages`` - pages holding a search form (up to ``max_form_depth``), with the weighted terms
  of the page and of the form that the clustering reads.
* ``queries`` - every query: form, term, round (0 = the probe), cluster, its first page's URL,
  status (queued, done, lost), result pages, results (records listed), new (records no earlier query
  of the site listed), valid (its first page was no error and listed at least one record).
* ``query_pages`` - each result page and the query that reached it (page number, records, next).
* ``query_records`` - each record a search listed, with the first query and round that listed it.
"""

from __future__ import annotations

from browsercrawl.storage.db import CrawlDatabase

FORMS = "forms"
FORM_PAGES = "form_pages"
QUERIES = "queries"
QUERY_PAGES = "query_pages"
QUERY_RECORDS = "query_records"


def create_tables(db: CrawlDatabase) -> None:
    db.ensure_table(
        FORMS,
        {"id": str, "host": str, "page_url": str, "action": str, "method": str, "kind": str,
         "score": float, "reasons": str, "features": str, "query_field": str, "spec": str,
         "usable": int, "note": str},
        pk="id",
        indexes=[("kind",)],
    )
    db.ensure_table(FORM_PAGES, {"url": str, "form": str, "depth": int, "page_terms": str,
                                 "form_terms": str}, pk=("url", "form"))
    db.ensure_table(
        QUERIES,
        {"id": int, "form": str, "term": str, "round": int, "cluster": int, "url": str, "method": str,
         "status": str, "result_pages": int, "results": int, "new": int, "valid": int},
        pk="id",
        indexes=[("form", "round")],
    )
    db.ensure_table(QUERY_PAGES, {"url": str, "query": int, "page": int, "status": int, "records": int,
                                  "new": int, "valid": int, "next_url": str, "terms": str}, pk="url",
                    indexes=[("query",)])
    db.ensure_table(QUERY_RECORDS, {"url": str, "query": int, "round": int, "form": str}, pk="url",
                    indexes=[("query",)])
