"""Searching a crawl's full-text index: BM25 ranking, a keyword boost, snippets, filters.

The index itself is built and kept in step by ``search_index.py`` (SQLite) and
``pg_search.py`` (PostgreSQL); this module turns a query into hits on either backend.

A query is either FTS5 syntax (quotes, ``AND``/``OR``/``NOT``, ``NEAR``, ``*``, column filters),
passed to the word index as it is, or plain words: their runs of CJK characters (``中文``) go to
the CJK bigram index, the rest to the word index, and a hit must have them all.

The boost (``--boost WORD``): a hit whose title or URL carries a boosted word has its BM25 score
multiplied by 1 + the number of boosted words it carries. The best hits are taken by BM25 once
without the boost and once among the hits carrying each boosted word, then merged: the exact top
hits for one boosted word, without scoring every match in Python.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

from browsercrawl.errors import UserError
from browsercrawl.storage.reader import Reader
from browsercrawl.storage.search_index import CJK_RUN, IndexSpec, specs_for

TABLES = ("pages", "records", "people", "items")
MARK_START, MARK_END = "<mark>", "</mark>"

_SYNTAX = re.compile(r'["()*:^+]|\b(AND|OR|NOT|NEAR)\b')


@dataclass
class SearchQuery:
    """What ``browsercrawl search`` was asked."""

    text: str
    table: str = "pages"
    boost: tuple[str, ...] = ()
    limit: int = 20
    host: str | None = None
    url_regex: str | None = None
    since: str | None = None
    until: str | None = None
    # A query matching more rows ranks only the newest this many (0: rank them all); see _sqlite_search.
    rank_window: int = 20_000


@dataclass
class Hit:
    """One row found: its key in its table, what to show, and its score (higher ranks first)."""

    table: str
    rowid: int
    title: str | None
    url: str | None
    snippet: str
    score: float
    time: str | None = None
    boosted: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class PlainTerms:
    """A plain query split by the index that serves each part."""

    words: list[str]  # for the word index
    cjk: list[str]  # runs of CJK characters, for the bigram index

    @classmethod
    def parse(cls, text: str) -> PlainTerms:
        words = [w for w in CJK_RUN.sub(" ", text).split() if re.search(r"\w", w)]
        return cls(words=words, cjk=CJK_RUN.findall(text))


def is_fts_syntax(text: str) -> bool:
    return bool(_SYNTAX.search(text))


def _phrase(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def _cjk_match(runs: list[str]) -> str:
    """The bigram index's query: a run is the phrase of its bigrams; one character, a prefix."""

    def one(run: str) -> str:
        if len(run) == 1:
            return _phrase(run) + "*"
        return _phrase(" ".join(run[i:i + 2] for i in range(len(run) - 1)))

    return " ".join(one(r) for r in runs)


def check_query(q: SearchQuery) -> None:
    """Refuse, in one line, what no backend can run."""
    if not q.text.strip():
        raise UserError("search: the query is empty")
    if q.table not in TABLES:
        raise UserError(f"search: --in {q.table}: not one of {', '.join(TABLES)}")
    if q.limit < 1:
        raise UserError(f"search: --limit {q.limit}: must be at least 1")
    if q.rank_window < 0:
        raise UserError(f"search: --rank-window {q.rank_window}: must be 0 (all) or more")
    if q.url_regex is not None:
        try:
            re.compile(q.url_regex)
        except re.error as exc:
            raise UserError(f"search: --url-regex {q.url_regex!r}: {exc}") from None


def search(reader: Reader, q: SearchQuery) -> list[Hit]:
    """The hits of ``q`` in ``reader``'s crawl, best first."""
    check_query(q)
    if reader.kind == "postgresql":
        from browsercrawl.storage.pg_search import pg_search

        return pg_search(reader, q)
    return _sqlite_search(reader.db.conn, q, reader.location)


# -- SQLite ----------------------------------------------------------------------------------------

def _host(url: str | None) -> str | None:
    return urlsplit(url).netloc.lower() if url else None


def _regexp(pattern: str, value: str | None) -> int:
    return int(value is not None and re.search(pattern, value) is not None)


def _spec(conn: sqlite3.Connection, q: SearchQuery, location: str) -> IndexSpec:
    spec = next((s for s in specs_for(conn) if s.table == q.table), None)
    if spec is None:
        raise UserError(f"{location}: no {q.table} table to search (its part did not run)")
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name=?", (spec.fts,)).fetchone():
        raise UserError(f"{location}: no search index of {q.table}; build it with "
                        "`browsercrawl search DATABASE --reindex`")
    if (q.host or q.url_regex) and spec.url == "NULL":
        raise UserError(f"search: --host and --url-regex do not apply to {q.table} (they have no URL)")
    return spec


def _filters(spec: IndexSpec, q: SearchQuery) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    params: list[Any] = []
    url, when = spec.url.format(r="s"), spec.time.format(r="s")
    if q.host:
        where.append(f"browsercrawl_host({url}) = ?")
        params.append(q.host.lower())
    if q.url_regex:
        where.append(f"browsercrawl_regexp(?, {url})")
        params.append(q.url_regex)
    if q.since:
        where.append(f"{when} >= ?")
        params.append(q.since)
    if q.until:
        where.append(f"substr({when}, 1, length(?)) <= ?")
        params += [q.until, q.until]
    return where, params


def _python_snippet(texts: list[str | None], words: list[str], width: int = 40) -> str:
    """A window around the first word found, the words marked (for hits the bigram index found)."""
    for text in texts:
        if not text:
            continue
        low = text.lower()
        at = min((i for i in (low.find(w.lower()) for w in words) if i >= 0), default=-1)
        if at < 0:
            continue
        start, end = max(0, at - width), min(len(text), at + width)
        piece = text[start:end]
        for w in sorted(set(words), key=len, reverse=True):
            piece = re.sub(re.escape(w), lambda m: f"{MARK_START}{m.group(0)}{MARK_END}", piece,
                           flags=re.IGNORECASE)
        return ("…" if start else "") + piece.replace("\n", " ") + ("…" if end < len(text) else "")
    return ""


def _query_words(text: str) -> list[str]:
    """The words of a query, without FTS5's operators and quotes (for marking snippets)."""
    words = re.sub(r'["()*^+]|\b(AND|OR|NOT|NEAR)\b|\w+:', " ", text).split()
    return [w for w in words if w]


def _top(conn: sqlite3.Connection, q: SearchQuery, base: str, driver: str, table: str, match: str,
         conds: list[str], args: list[Any]) -> list[tuple[Any, ...]]:
    """The ``q.limit`` best rows of ``base`` under ``conds`` by the index's BM25 rank."""
    if q.rank_window:
        # Ranking is what costs (BM25 of every match), while FTS5 walks a term's rows newest
        # first almost for free. A query matching more rows than the window ranks the newest
        # ``rank_window`` of them: the rowid of the window's last row bounds the ranking.
        source = f"[{driver}] JOIN [{table}] s ON s.rowid = [{driver}].rowid" if conds else f"[{driver}]"
        nth = conn.execute(" AND ".join([f"SELECT [{driver}].rowid FROM {source} WHERE [{driver}] MATCH ?",
                                         *conds]) + f" ORDER BY [{driver}].rowid DESC LIMIT 1 OFFSET ?",
                           [match, *args, q.rank_window - 1]).fetchone()
        if nth is not None:
            conds = [*conds, f"[{driver}].rowid >= ?"]
            args = [*args, nth[0]]
    sql = " AND ".join([base, *conds]) + f" ORDER BY [{driver}].rank LIMIT ?"
    return conn.execute(sql, [match, *args, q.limit]).fetchall()


def _sqlite_search(conn: sqlite3.Connection, q: SearchQuery, location: str) -> list[Hit]:
    prepare_read(conn)
    spec = _spec(conn, q, location)
    fts, cjk, t = spec.fts, spec.cjk, spec.table
    syntax = is_fts_syntax(q.text)
    terms = None if syntax else PlainTerms.parse(q.text)
    where, params = _filters(spec, q)
    match_words = q.text if syntax else " ".join(_phrase(w) for w in terms.words)
    match_cjk = _cjk_match(terms.cjk) if terms and terms.cjk else None
    if match_words:
        driver, match = fts, match_words
        if q.host and "url" in spec.column_names:
            # The host's words narrow the rows inside the index; the exact host test follows.
            match = f"({match}) AND {{url}} : {_phrase(q.host)}"
        if match_cjk:
            where.insert(0, f"s.rowid IN (SELECT rowid FROM [{cjk}] WHERE [{cjk}] MATCH ?)")
            params.insert(0, match_cjk)
        snippet = f"snippet([{fts}], -1, '{MARK_START}', '{MARK_END}', '…', 24)"
    elif match_cjk:
        driver, match, snippet = cjk, match_cjk, "NULL"
    else:
        raise UserError(f"search: nothing to search for in {q.text!r}")
    shown = ", ".join([spec.title.format(r="s"), spec.url.format(r="s"), spec.time.format(r="s")])
    base = (f"SELECT s.rowid, {shown}, {snippet}, [{driver}].rank, {', '.join(spec.exprs('s'))} "
            f"FROM [{driver}] JOIN [{t}] s ON s.rowid = [{driver}].rowid WHERE [{driver}] MATCH ?")

    def top(extra_match: str | None) -> list[tuple[Any, ...]]:
        conds, args, full = list(where), list(params), match
        if extra_match and driver == fts:
            full = f"({match}) AND {extra_match}"
        elif extra_match:
            conds.append(f"s.rowid IN (SELECT rowid FROM [{fts}] WHERE [{fts}] MATCH ?)")
            args.append(extra_match)
        try:
            return _top(conn, q, base, driver, t, full, conds, args)
        except sqlite3.OperationalError as exc:
            raise UserError(f"search: malformed query {q.text!r}: {exc}") from None

    rows = {r[0]: r for r in top(None)}
    carried: dict[int, set[str]] = {}
    cols = " ".join(spec.boost_columns)
    for word in q.boost if cols else ():
        for r in top(f"{{{cols}}} : {_phrase(word)}"):
            rows.setdefault(r[0], r)
            carried.setdefault(r[0], set()).add(word)
    hits = []
    for rowid, title, url, when, snip, rank, *texts in rows.values():
        shown_text = f"{title or ''} {url or ''}".lower()
        boosted = [w for w in q.boost if w in carried.get(rowid, ()) or w.lower() in shown_text]
        if not snip or MARK_START not in snip:
            # The bigram index has no snippet function, and a phrase longer than the snippet's
            # window comes back unmarked: mark the query's words around their first occurrence.
            snip = _python_snippet(list(reversed(texts)), _query_words(q.text)) or snip
        hits.append(Hit(table=t, rowid=rowid, title=title, url=url, snippet=snip or "",
                        score=-rank * (1 + len(boosted)), time=when, boosted=boosted))
    hits.sort(key=lambda h: -h.score)
    return hits[:q.limit]


def prepare_read(conn: sqlite3.Connection) -> None:
    """Functions the search SQL calls (host of a URL, regex match)."""
    conn.create_function("browsercrawl_host", 1, _host, deterministic=True)
    conn.create_function("browsercrawl_regexp", 2, _regexp, deterministic=True)

