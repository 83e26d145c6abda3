"""The full-text index of a PostgreSQL crawl database, and searching it.

The same promise as the SQLite index (``search_index.py``): the index is part of each row, so it
commits with the page. ``pages.search_tsv`` is a *generated* column (title and URL weighted A,
text B) with a GIN index; ``records``, ``people`` and ``items`` get a ``search_tsv`` column that a
``BEFORE INSERT OR UPDATE`` trigger fills from every text field of the row (a records table's
fields are named by the site profile, so no fixed expression could list them).

Words are PostgreSQL's ``simple`` configuration (no stemming, any language). Unspaced text
(Chinese, Japanese) has no words to split on, so a plain query's CJK words are matched as
substrings instead, through a ``pg_trgm`` GIN index on title and text when the server has the
extension (else by scanning).
"""

from __future__ import annotations

import time
from typing import Any

from browsercrawl.errors import UserError, error_line

TSV = "search_tsv"
_PAGES_TSV = ("setweight(to_tsvector('simple', coalesce(title, '') || ' ' || coalesce(url, '')), 'A') || "
              "setweight(to_tsvector('simple', coalesce(text, '')), 'B')")
_PAGES_TRGM = "(coalesce(title, '') || ' ' || coalesce(text, ''))"
_ROW_FUNCTION = """
CREATE OR REPLACE FUNCTION browsercrawl_search_tsv() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_tsv := to_tsvector('simple', coalesce((
      SELECT string_agg(value, ' ') FROM jsonb_each_text(to_jsonb(NEW) - 'search_tsv')), ''));
  RETURN NEW;
END $$"""
ROW_TABLES = ("records", "people", "items")


def _has_table(conn: Any, name: str) -> bool:
    return conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()[0]


def _has_column(conn: Any, table: str, column: str) -> bool:
    return conn.execute("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                        "AND table_name = %s AND column_name = %s", (table, column)).fetchone() is not None


def _has_row_function(conn: Any) -> bool:
    """The trigger function exists with this version's body."""
    body = _ROW_FUNCTION.split("$$")[1]
    return conn.execute("SELECT 1 FROM pg_proc WHERE proname = 'browsercrawl_search_tsv' AND prosrc = %s",
                        (body,)).fetchone() is not None


def has_trgm(conn: Any) -> bool:
    return conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'").fetchone() is not None


def ensure_index(conn: Any, enabled: bool = True, rebuild: bool = False) -> dict[str, float]:
    """Create (or drop, or rebuild) the index of every indexed table; seconds per table built.

    Runs inside the caller's transaction, which holds the schema lock.
    """
    built: dict[str, float] = {}
    tables = ["pages"] + [t for t in ROW_TABLES if _has_table(conn, t)]
    for table in tables:
        if not enabled or rebuild:
            conn.execute(f'DROP TRIGGER IF EXISTS browsercrawl_search ON "{table}"')
            conn.execute(f'ALTER TABLE "{table}" DROP COLUMN IF EXISTS {TSV}')
    if not enabled:
        conn.execute("DROP INDEX IF EXISTS pages_search_trgm")
        return built
    # Nothing is replaced that is there already: a worker joining a running crawl must not touch
    # what the others' writes use (see ``postgres.pending_schema``).
    if not has_trgm(conn):
        try:
            with conn.transaction():  # a savepoint: no extension rights is no trigram index, not an error
                conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        except Exception:  # psycopg's error classes; the index works without it
            pass
    if not _has_row_function(conn):
        conn.execute(_ROW_FUNCTION)
    for table in tables:
        if _has_column(conn, table, TSV):
            continue
        t0 = time.perf_counter()
        if table == "pages":
            conn.execute(f"ALTER TABLE pages ADD COLUMN {TSV} tsvector "
                         f"GENERATED ALWAYS AS ({_PAGES_TSV}) STORED")
        else:
            conn.execute(f'ALTER TABLE "{table}" ADD COLUMN {TSV} tsvector')
            conn.execute(f'CREATE TRIGGER browsercrawl_search BEFORE INSERT OR UPDATE ON "{table}" '
                         "FOR EACH ROW EXECUTE FUNCTION browsercrawl_search_tsv()")
            conn.execute(f'UPDATE "{table}" SET {TSV} = NULL')  # the trigger fills it
        conn.execute(f'CREATE INDEX IF NOT EXISTS "{table}_search" ON "{table}" USING GIN ({TSV})')
        if table == "pages" and has_trgm(conn):
            conn.execute("DROP INDEX IF EXISTS pages_search_trgm")
            conn.execute(f"CREATE INDEX pages_search_trgm ON pages USING GIN ({_PAGES_TRGM} gin_trgm_ops)")
        built[table] = round(time.perf_counter() - t0, 3)
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for table, seconds in built.items():
        for key, value in ((f"search_built_seconds:{table}", str(seconds)), (f"search_built_at:{table}", at)):
            conn.execute("INSERT INTO meta (key, value) VALUES (%s, %s) "
                         "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", (key, value))
    return built


def index_figures(conn: Any) -> dict[str, object]:
    """What ``stats`` shows of the index (as ``search_index.index_figures``)."""
    sizes = index_sizes(conn)
    if not sizes:
        return {"indexed": False}
    meta = dict(conn.execute("SELECT key, value FROM meta WHERE key LIKE 'search_built_%%'").fetchall())
    return {"indexed": True, "index_bytes": sum(sizes.values()), "index_bytes_by_table": sizes,
            "built_seconds": {t: float(meta[f"search_built_seconds:{t}"]) for t in sizes
                              if f"search_built_seconds:{t}" in meta},
            "built_at": {t: meta[f"search_built_at:{t}"] for t in sizes if f"search_built_at:{t}" in meta}}


def index_sizes(conn: Any) -> dict[str, int]:
    """Bytes of each table's index: its GIN indexes plus the stored tsvectors."""
    sizes: dict[str, int] = {}
    for table in ("pages", *ROW_TABLES):
        if not _has_table(conn, table) or not _has_column(conn, table, TSV):
            continue
        row = conn.execute(f'SELECT coalesce(SUM(pg_column_size({TSV})), 0) FROM "{table}"').fetchone()
        total = int(row[0])
        for idx in (f"{table}_search", "pages_search_trgm" if table == "pages" else None):
            if idx and conn.execute("SELECT to_regclass(%s) IS NOT NULL", (idx,)).fetchone()[0]:
                total += conn.execute("SELECT pg_relation_size(%s::regclass)", (idx,)).fetchone()[0]
        sizes[table] = total
    return sizes


# -- searching -----------------------------------------------------------------------------------

_SPECS: dict[str, dict[str, str]] = {
    "pages": {"title": "s.title", "url": "s.url", "time": "s.fetched_at", "text": "s.text", "key": "s.id"},
    "records": {"title": "s.url", "url": "s.url", "time": "s.extracted_at", "text": "NULL", "key": "0"},
    "people": {"title": "s.id", "url": "s.url", "time": "s.last_visit", "text": "s.fields", "key": "0"},
    "items": {"title": "s.person_id || '/' || s.item_id", "url": "NULL", "time": "s.time", "text": "s.text",
              "key": "0"},
}


def pg_search(reader: Any, q: Any) -> list[Any]:
    """``search`` on PostgreSQL: ``websearch_to_tsquery`` (quotes, ``or``, ``-word``), ``ts_rank_cd``
    with title/URL weighted, ``ts_headline`` snippets; CJK words as trigram-indexed substrings."""
    from browsercrawl.storage.search import MARK_END, MARK_START, Hit, _python_snippet
    from browsercrawl.storage.search_index import CJK_CHAR

    conn = reader.conn
    if not _has_table(conn, q.table):
        raise UserError(f"{reader.location}: no {q.table} table to search (its part did not run)")
    if not _has_column(conn, q.table, TSV):
        raise UserError(f"{reader.location}: no search index of {q.table}; build it with "
                        "`browsercrawl search DATABASE --reindex`")
    spec = _SPECS[q.table]
    if (q.host or q.url_regex) and spec["url"] == "NULL":
        raise UserError(f"search: --host and --url-regex do not apply to {q.table} (they have no URL)")
    words = q.text.split()
    cjk = [w.strip('"') for w in words if CJK_CHAR.search(w)]
    rest = " ".join(w for w in words if not CJK_CHAR.search(w))
    where, params = [], []
    rank = "1.0"
    if rest.strip():
        where.append(f"s.{TSV} @@ websearch_to_tsquery('simple', %s)")
        params.append(rest)
        rank = f"ts_rank_cd(s.{TSV}, websearch_to_tsquery('simple', %s))"
    # The pages expression is the trigram index's own, so the index serves it.
    haystack = _PAGES_TRGM if q.table == "pages" else "to_jsonb(s)::text"
    for w in cjk:
        where.append(f"{haystack} ILIKE %s")
        params.append("%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    url = spec["url"]
    if q.host:
        where.append(f"lower(split_part(split_part({url}, '://', 2), '/', 1)) = %s")
        params.append(q.host.lower())
    if q.url_regex:
        where.append(f"{url} ~ %s")
        params.append(q.url_regex)
    if q.since:
        where.append(f"{spec['time']} >= %s")
        params.append(q.since)
    if q.until:
        where.append(f"substr({spec['time']}, 1, length(%s)) <= %s")
        params += [q.until, q.until]
    shown = f"lower(coalesce({spec['title']}, '') || ' ' || coalesce({url}, ''))"
    boost = "(1" + "".join(f" + (strpos({shown}, %s) > 0)::int" for _ in q.boost) + ")"
    rank_params = ([rest] if rest.strip() else []) + [w.lower() for w in q.boost]
    head = "NULL"
    head_params: list[Any] = []
    if rest.strip() and spec["text"] != "NULL":
        opts = f"StartSel={MARK_START}, StopSel={MARK_END}, MaxWords=24, MinWords=10, MaxFragments=1"
        head = f"ts_headline('simple', coalesce({spec['text']}, ''), websearch_to_tsquery('simple', %s), %s)"
        head_params = [rest, opts]
    sql = (f"SELECT {spec['key']}, {spec['title']}, {url}, {spec['time']}, {head}, "
           f"{rank} * {boost} AS score, {spec['text']} FROM \"{q.table}\" s "
           f"WHERE {' AND '.join(where) or 'TRUE'} "
           "ORDER BY score DESC LIMIT %s")
    try:
        rows = conn.execute(sql, [*head_params, *rank_params, *params, q.limit]).fetchall()
    except Exception as exc:  # psycopg's errors: a bad regex, a bad date
        conn.rollback()
        first = error_line(exc)
        raise UserError(f"search: cannot run {q.text!r}: {first}") from None
    hits = []
    for key, title, hit_url, when, snip, score, text in rows:
        if not snip:
            snip = _python_snippet([text, title], cjk + rest.split())
        shown_text = f"{title or ''} {hit_url or ''}".lower()
        hits.append(Hit(table=q.table, rowid=int(key), title=title, url=hit_url, snippet=snip or "",
                        score=float(score), time=str(when) if when is not None else None,
                        boosted=[w for w in q.boost if w.lower() in shown_text]))
    return hits
