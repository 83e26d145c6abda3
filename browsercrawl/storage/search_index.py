"""The full-text index of a SQLite crawl database, kept by triggers in the page's own transaction.

Why triggers: the writer commits a page, its links and the parts' rows (records, people, items) in
one transaction; a trigger on each of those tables writes the index rows inside that same
transaction, so a crawl killed at any instant leaves the index exactly in step with the tables,
whichever part wrote the row and however (insert, upsert, update).

Two FTS5 tables per indexed table:

* ``<table>_fts``: words (``porter unicode61``: any alphabet, accents folded, English endings
  stemmed so ``threads`` finds ``thread``), ranked by BM25 with per-column weights (title and URL
  above text). For ``pages`` it is an *external content* table over ``pages`` itself: the text is
  not stored twice, snippets read it from ``pages``. The other tables' index holds its own copy of
  their few fields.
* ``<table>_fts_cjk``: the CJK bigrams of the same text (``学习 习中 中文`` for ``学习中文``),
  contentless. Chinese and Japanese are written without spaces, so a word tokenizer sees a whole
  clause as one token; every two-character window is what a query's words are matched against
  (a two-character word is one bigram, a longer one a phrase of bigrams).

Why not FTS5's ``trigram`` tokenizer, which also finds unspaced words: measured on 10,000
generated pages (scripts/bench_search.py), its index was 5x larger than this word index and a
common word's query 10x slower, and it cannot match the commonest Chinese words, which have two
characters.

Upserts (``INSERT OR REPLACE``) delete the old row before inserting the new one; the delete
trigger fires only with ``PRAGMA recursive_triggers=ON``, which :func:`prepare_connection` sets
on the writer's connection. Connections that write to an indexed table need
:func:`prepare_connection` too (the triggers call ``browsercrawl_cjk``).
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass

CJK_FUNCTION = "browsercrawl_cjk"
# A GLOB pattern matching a text with a character outside ASCII (SQLite compares code points).
_NOT_ASCII = "'*[^' || char(1) || '-' || char(127) || ']*'"

# Han, kana, Hangul and their compatibility/extension blocks: scripts written without spaces.
CJK_RUN = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002ffff]+"
)
CJK_CHAR = re.compile(CJK_RUN.pattern[:-1])  # one CJK character


def cjk_bigrams(text: str | None) -> str:
    """Every two-character window of every CJK run, plus each run's last character, space separated.

    The last character makes a one-character query (a prefix query ``中*``) find a character that
    ends a run; a run of one character is that character alone.
    """
    if not text or text.isascii():  # most pages: no scan of the text at all (called per row stored)
        return ""
    out: list[str] = []
    for run in CJK_RUN.findall(text):
        out.extend(run[i:i + 2] for i in range(len(run) - 1))
        out.append(run[-1])
    return " ".join(out)


def prepare_connection(conn: sqlite3.Connection) -> None:
    """What a connection writing to an indexed table needs: the bigram function, upserts' deletes."""
    conn.create_function(CJK_FUNCTION, 1, cjk_bigrams, deterministic=True)
    conn.execute("PRAGMA recursive_triggers=ON")


@dataclass(frozen=True)
class IndexSpec:
    """How one table is indexed.

    ``columns`` are the FTS columns and the SQL expression each takes from a row (``{r}`` stands
    for ``new``/``old`` in triggers, for the table in a rebuild). ``external`` indexes ``pages``
    without copying it: its FTS columns are the table's own columns.
    """

    table: str
    columns: tuple[tuple[str, str], ...]
    external: bool = False
    title: str = "NULL"  # expression shown as the hit's title
    url: str = "NULL"  # expression shown as the hit's URL (and filtered by --host/--url-regex)
    time: str = "NULL"  # expression compared with --since/--until (ISO text)
    weights: tuple[float, ...] = ()  # bm25 weight per FTS column
    boost_columns: tuple[str, ...] = ()  # FTS columns a --boost word is looked for in

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.columns)

    @property
    def fts(self) -> str:
        return f"{self.table}_fts"

    @property
    def cjk(self) -> str:
        return f"{self.table}_fts_cjk"

    def exprs(self, r: str) -> list[str]:
        return [expr.format(r=r) for _, expr in self.columns]

    def cjk_expr(self, r: str) -> str:
        """The bigrams of all indexed columns of row ``r`` (one call of the registered function).

        Not called for a row whose text is all ASCII (most pages), which has none: a call of a
        Python function takes the GIL from inside the writing thread's statement, and must wait
        for the busy event loop to hand it over. SQLite's GLOB answers in C instead.
        """
        joined = " || char(10) || ".join(f"coalesce({e}, '')" for e in self.exprs(r))
        return f"CASE WHEN ({joined}) GLOB {_NOT_ASCII} THEN {CJK_FUNCTION}({joined}) ELSE '' END"


def _text_of_all(columns: list[str], r: str) -> str:
    """Every column of a row as one text (for tables whose fields are named by a site profile)."""
    parts = [f"coalesce(CAST({r}.[{c}] AS TEXT), '')" for c in columns]
    return " || ' ' || ".join(parts) if parts else "''"


def specs_for(conn: sqlite3.Connection) -> list[IndexSpec]:
    """The index of each indexed table this database has (parts create theirs only when on)."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def columns(table: str) -> list[str]:
        return [r[1] for r in conn.execute(f"PRAGMA table_info([{table}])")]

    def col(table: str, name: str) -> str:
        return f"{{r}}.[{name}]" if name in columns(table) else "NULL"

    specs = [IndexSpec(
        "pages", (("title", "{r}.title"), ("text", "{r}.text"), ("url", "{r}.url")), external=True,
        title="{r}.title", url="{r}.url", time="{r}.fetched_at", weights=(10.0, 1.0, 5.0),
        boost_columns=("title", "url"))]
    if "records" in have:
        labels = [c for c in columns("records") if c not in ("url", "extracted_at")]
        specs.append(IndexSpec(
            "records", (("url", "{r}.url"), ("body", _text_of_all(labels, "{r}"))),
            url="{r}.url", title="{r}.url", time=col("records", "extracted_at"), weights=(5.0, 1.0),
            boost_columns=("url",)))
    if "people" in have:
        specs.append(IndexSpec(
            "people", (("name", "{r}.id"), ("url", col("people", "url")), ("body", col("people", "fields"))),
            title="{r}.id", url=col("people", "url"), time=col("people", "last_visit"),
            weights=(10.0, 5.0, 1.0), boost_columns=("name", "url")))
    if "items" in have:
        body = f"coalesce({col('items', 'text')}, '') || ' ' || coalesce({col('items', 'data')}, '')"
        specs.append(IndexSpec(
            "items", (("person", "{r}.person_id"), ("body", body)),
            title="{r}.person_id || '/' || {r}.item_id", time=col("items", "time"), weights=(5.0, 1.0),
            boost_columns=("person",)))
    return specs


WORD_TOKENIZER = "porter unicode61 remove_diacritics 2"


def _create_fts(conn: sqlite3.Connection, spec: IndexSpec) -> None:
    cols = ", ".join(name for name, _ in spec.columns)
    content = f", content='{spec.table}', content_rowid='id'" if spec.external else ""
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS [{spec.fts}] USING fts5({cols}, "
                 f"tokenize='{WORD_TOKENIZER}'{content})")
    # The weights live in the index: ``ORDER BY rank`` then ranks inside FTS5, without SQL calls.
    weights = ", ".join(str(w) for w in spec.weights)
    conn.execute(f"INSERT INTO [{spec.fts}]([{spec.fts}], rank) VALUES ('rank', 'bm25({weights})')")
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS [{spec.cjk}] USING fts5(bigrams, "
                 f"tokenize='unicode61', content='')")


def _triggers(spec: IndexSpec) -> list[str]:
    """INSERT/DELETE/UPDATE triggers keeping both FTS tables in step with ``spec.table``."""
    t, fts, cjk = spec.table, spec.fts, spec.cjk
    names = ", ".join(name for name, _ in spec.columns)
    new, old = ", ".join(spec.exprs("new")), ", ".join(spec.exprs("old"))
    if spec.external:
        delete_fts = (f"INSERT INTO [{fts}]([{fts}], rowid, {names}) VALUES ('delete', old.rowid, {old});")
    else:
        delete_fts = f"DELETE FROM [{fts}] WHERE rowid = old.rowid;"
    # ``LIMIT 1`` (and ``LIMIT -1`` in _fill) keeps SQLite from flattening the subquery, which
    # would call the bigram function twice per row (once for WHERE, once for the value).
    insert = (f"INSERT INTO [{fts}](rowid, {names}) VALUES (new.rowid, {new}); "
              f"INSERT INTO [{cjk}](rowid, bigrams) SELECT new.rowid, b FROM "
              f"(SELECT {spec.cjk_expr('new')} AS b LIMIT 1) WHERE b != '';")
    delete = (f"{delete_fts} INSERT INTO [{cjk}]([{cjk}], rowid, bigrams) SELECT 'delete', old.rowid, b "
              f"FROM (SELECT {spec.cjk_expr('old')} AS b LIMIT 1) WHERE b != '';")
    return [
        f"CREATE TRIGGER [{t}_fts_ai] AFTER INSERT ON [{t}] BEGIN {insert} END",
        f"CREATE TRIGGER [{t}_fts_ad] AFTER DELETE ON [{t}] BEGIN {delete} END",
        f"CREATE TRIGGER [{t}_fts_au] AFTER UPDATE ON [{t}] BEGIN {delete} {insert} END",
    ]


def _drop_triggers(conn: sqlite3.Connection, table: str) -> None:
    for suffix in ("ai", "ad", "au"):
        conn.execute(f"DROP TRIGGER IF EXISTS [{table}_fts_{suffix}]")


def _fill(conn: sqlite3.Connection, spec: IndexSpec) -> None:
    """Index every row already in the table (a new index, or a rebuild)."""
    names = ", ".join(name for name, _ in spec.columns)
    t = spec.table
    if spec.external:
        conn.execute(f"INSERT INTO [{spec.fts}]([{spec.fts}]) VALUES ('rebuild')")
    else:
        conn.execute(f"INSERT INTO [{spec.fts}](rowid, {names}) "
                     f"SELECT rowid, {', '.join(spec.exprs(t))} FROM [{t}]")
    conn.execute(f"INSERT INTO [{spec.cjk}](rowid, bigrams) SELECT rid, b FROM "
                 f"(SELECT rowid AS rid, {spec.cjk_expr(t)} AS b FROM [{t}] LIMIT -1) WHERE b != ''")


def _drop_index(conn: sqlite3.Connection, spec: IndexSpec) -> None:
    _drop_triggers(conn, spec.table)
    conn.execute(f"DROP TABLE IF EXISTS [{spec.fts}]")
    conn.execute(f"DROP TABLE IF EXISTS [{spec.cjk}]")


def _has(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name=?", (name,)).fetchone() is not None


# Pages as a person browses them (``browsercrawl browse``): the host as a column to facet on, the
# minute of the fetch to count by. A view, so it costs nothing and is never out of date.
_URL_REST = "substr(url, instr(url, '://') + 3)"
BROWSE_VIEW = "pages_browse"
BROWSE_VIEW_SQL = (
    f"CREATE VIEW IF NOT EXISTS {BROWSE_VIEW} AS SELECT id, url, "
    f"lower(substr({_URL_REST}, 1, instr({_URL_REST} || '/', '/') - 1)) AS host, status, kind, via, "
    "title, fetched_at, substr(fetched_at, 1, 16) AS minute, depth, fetch_ms, render_ms, html_bytes, "
    "links_count, referrer, requested_url, content_type, html FROM pages"
)


def record_built(conn: sqlite3.Connection, built: dict[str, float]) -> None:
    """When and in how long each index was built, in ``meta`` (``stats`` reports them)."""
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    conn.executemany(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        [(f"search_built_seconds:{t}", str(s)) for t, s in built.items()]
        + [(f"search_built_at:{t}", at) for t in built],
    )


def ensure_index(conn: sqlite3.Connection, rebuild: bool = False) -> dict[str, float]:
    """Create (or, with ``rebuild``, drop and recreate) the index of every indexed table and its
    triggers, in one transaction. A table indexed for the first time is filled from its rows.

    The triggers are recreated every time: a table whose columns changed (a site profile naming
    new record fields) is indexed by its current columns from then on. Returns the seconds spent
    filling each newly built index (recorded in ``meta`` for ``stats``).
    """
    prepare_connection(conn)
    built: dict[str, float] = {}
    conn.execute("BEGIN IMMEDIATE")
    try:
        for spec in specs_for(conn):
            if rebuild:
                _drop_index(conn, spec)
            new = not _has(conn, spec.fts)
            _create_fts(conn, spec)
            _drop_triggers(conn, spec.table)
            for stmt in _triggers(spec):
                conn.execute(stmt)
            if new:
                t0 = time.perf_counter()
                _fill(conn, spec)
                built[spec.table] = round(time.perf_counter() - t0, 3)
        conn.execute(BROWSE_VIEW_SQL)
        record_built(conn, built)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return built


def drop_index(conn: sqlite3.Connection) -> None:
    """Remove the index and its triggers (a crawl with ``output.search_index = false``)."""
    conn.execute("BEGIN IMMEDIATE")
    for spec in specs_for(conn):
        _drop_index(conn, spec)
    conn.execute(BROWSE_VIEW_SQL)
    conn.execute("COMMIT")


def index_figures(conn: sqlite3.Connection) -> dict[str, object]:
    """What ``stats`` shows of the index: bytes per table, and when and how fast it was built."""
    sizes = index_sizes(conn)
    if not sizes:
        return {"indexed": False}
    meta = dict(conn.execute("SELECT key, value FROM meta WHERE key LIKE 'search_built_%'"))
    return {"indexed": True, "index_bytes": sum(sizes.values()), "index_bytes_by_table": sizes,
            "built_seconds": {t: float(meta[f"search_built_seconds:{t}"]) for t in sizes
                              if f"search_built_seconds:{t}" in meta},
            "built_at": {t: meta[f"search_built_at:{t}"] for t in sizes if f"search_built_at:{t}" in meta}}


def index_sizes(conn: sqlite3.Connection) -> dict[str, int]:
    """Bytes of each table's index: the database pages of its FTS5 shadow tables (``dbstat``)."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    sizes: dict[str, int] = {}
    for spec in specs_for(conn):
        if spec.fts not in have:
            continue
        total = 0
        for shadow in (f"{spec.fts}_data", f"{spec.fts}_idx", f"{spec.fts}_docsize", f"{spec.fts}_content",
                       f"{spec.cjk}_data", f"{spec.cjk}_idx", f"{spec.cjk}_docsize", f"{spec.cjk}_config",
                       f"{spec.fts}_config"):
            if shadow in have:
                row = conn.execute("SELECT pgsize FROM dbstat WHERE name=? AND aggregate=TRUE",
                                   (shadow,)).fetchone()
                total += row[0] if row and row[0] else 0
        sizes[spec.table] = int(total)
    return sizes
