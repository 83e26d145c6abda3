"""Crawler traps: URL spaces that keep producing new members, bounded before they enter the frontier.

A calendar links to the next month forever, a list to an ever larger offset, a relative link
to ``dir/dir/dir/...``, a site puts a fresh session id in every link. None of them needs a depth
or page limit from the user to stop; three rules apply to every discovered link:

* **Session ids** (``;jsessionid=``, ``PHPSESSID=``, ``sid=<token>``...) are removed from the URL,
  so the same page under a new id is the same frontier key (w3lib does the removal).
* **Repeated path segments**: a path repeating a segment or a run of segments three times in a
  row (``/a/b/a/b/a/b``) is cut.
* **Chains of one shape**: a URL's *shape* is its host, path and query with digits and token-like
  values abstracted (``/calendar?month=2024-05`` -> ``/calendar?month=#-#``). A link with the same
  shape as the page it was found on continues that page's *chain*; the chain's length is the
  number of consecutive same-shaped ancestors. Links beyond ``max_chain`` are cut. A calendar
  entered once yields at most ``2 * max_chain - 1`` pages (both directions); pages of other
  shapes around it (the real ones) start chains of their own and are never counted. Measuring the
  chain, not a count per shape, is what spares a graph of related pages (people, threads): their
  chains are as long as the graph is wide, not as long as it is large.

Chain lengths above one are rows of ``trap_chains`` committed with the page that found them, and
every cut URL is a row of ``trap_cuts`` (with the rule and the parent), so a resumed crawl
continues the same chains and ``browsercrawl stats`` counts what was cut. A cut URL is not marked
seen: reached later from a page of another shape, it is crawled.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from collections import Counter
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from w3lib.url import url_query_cleaner

from browsercrawl.config.traps import TrapsConfig
from browsercrawl.storage.base import Store

log = logging.getLogger(__name__)

CHAIN_TABLE = "trap_chains"
CUT_TABLE = "trap_cuts"

# Parameter names that only ever carry a session id, and names that do when the value is a token.
_SESSION_NAMES = frozenset({"jsessionid", "phpsessid", "sessionid", "session_id", "aspsessionid",
                            "cfid", "cftoken", "oscsid", "zenid", "sess_id"})
_SESSION_IF_TOKEN = frozenset({"sid", "sess", "session", "sessid", "s_id"})
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,}")
_PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sid|sessionid)=[^/?#]*", re.IGNORECASE)
_REPEATED_RUN = re.compile(r"((?:/[^/]+)+?)\1\1(?=/|$)")
_DIGITS = re.compile(r"\d+")


def _value_shape(value: str) -> str:
    """A value with what varies between members of one family abstracted away."""
    if _TOKEN.fullmatch(value) and any(c.isdigit() for c in value):
        return "*"
    return _DIGITS.sub("#", value)


@functools.lru_cache(maxsize=4096)  # a page's URL is the parent of all its links
def url_shape(url: str) -> str:
    """The family a URL belongs to: ``host/calendar?month=#-#`` for every month of a calendar."""
    parts = urlsplit(url)
    path = "/".join(_value_shape(seg) for seg in parts.path.split("/"))
    query = "&".join(f"{k}={_value_shape(v)}"
                     for k, v in sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return f"{parts.netloc}{path}?{query}" if query else f"{parts.netloc}{path}"


@functools.lru_cache(maxsize=8192)  # every link of every page passes here; most repeat
def strip_session_ids(url: str) -> str:
    """The URL without session-id path parameters and query parameters (see module docstring)."""
    if ";" not in url and "?" not in url:  # neither a path parameter nor a query: most links
        return url
    cleaned = _PATH_SESSION.sub("", url)
    query = urlsplit(cleaned).query
    if not query:
        return cleaned
    drop = [k for k, v in parse_qsl(query, keep_blank_values=True)
            if k.lower() in _SESSION_NAMES or k.lower().startswith("aspsessionid")
            or (k.lower() in _SESSION_IF_TOKEN and _TOKEN.fullmatch(v))]
    if not drop:
        return cleaned
    return url_query_cleaner(cleaned, drop, remove=True, unique=False)


def repeats_segments(url: str) -> bool:
    """True when the path repeats a segment or a run of segments three times in a row."""
    return bool(_REPEATED_RUN.search(urlsplit(url).path))


@dataclass(slots=True)
class Verdict:
    """What the policy says about one new link: its chain length, or the rule that cut it."""

    chain: int
    rule: str | None = None


class TrapGuard:
    """The trap rules of one crawl (thread-safe: outcomes are built in worker threads)."""

    def __init__(self, config: TrapsConfig) -> None:
        self.config = config
        self._chains: dict[str, int] = {}  # URL -> chain length, for lengths above one
        self._cut: set[str] = set()
        self._logged: set[tuple[str, str]] = set()
        self.cut_by_rule: Counter[str] = Counter()
        self.session_ids_removed = 0
        self._lock = threading.Lock()

    # -- persistence ---------------------------------------------------------------------------
    @staticmethod
    def create_tables(db: Store) -> None:
        db.ensure_table(CHAIN_TABLE, {"url": str, "chain": int}, pk="url")
        db.ensure_table(CUT_TABLE, {"url": str, "parent": str, "rule": str, "shape": str}, pk="url")

    def load(self, db: Store) -> None:
        """Continue the chains (and know the cuts) of an earlier run of this crawl."""
        self._chains.update(db.read(f"SELECT url, chain FROM {CHAIN_TABLE}"))
        self._cut.update(u for (u,) in db.read(f"SELECT url FROM {CUT_TABLE}"))

    # -- the rules -----------------------------------------------------------------------------
    def clean(self, url: str) -> str:
        """``url`` without session ids (when the job strips them)."""
        if not self.config.strip_session_ids:
            return url
        cleaned = strip_session_ids(url)
        if cleaned != url:
            with self._lock:
                self.session_ids_removed += 1
        return cleaned

    def judge(self, parent: str, url: str) -> Verdict:
        """May ``url``, newly found on ``parent``, enter the frontier? Records it either way."""
        if self.config.cut_repeated_segments and repeats_segments(url):
            return self._cut_one(parent, url, "repeated-segments", url_shape(url))
        shape = url_shape(url)
        with self._lock:
            chain = self._chains.get(parent, 1) + 1 if shape == url_shape(parent) else 1
        limit = self.config.max_chain
        if limit and chain > limit:
            return self._cut_one(parent, url, "chain", shape)
        if chain > 1:
            with self._lock:
                self._chains[url] = chain
        return Verdict(chain)

    def _cut_one(self, parent: str, url: str, rule: str, shape: str) -> Verdict:
        with self._lock:
            first = url not in self._cut
            self._cut.add(url)
            if first:
                self.cut_by_rule[rule] += 1
            tell = (rule, shape) not in self._logged
            self._logged.add((rule, shape))
        if tell:
            why = (f"a chain of {self.config.max_chain} pages shaped {shape}" if rule == "chain"
                   else "its path repeats itself")
            log.warning("trap: not following %s (found on %s): %s; further cuts of this shape are "
                        "counted in the summary and in `stats` (traps)", url, parent, why)
        return Verdict(0, rule)

    @staticmethod
    def chain_row(url: str, chain: int) -> dict[str, object]:
        return {"url": url, "chain": chain, "__upsert__": True}

    @staticmethod
    def cut_row(parent: str, url: str, rule: str) -> dict[str, object]:
        return {"url": url, "parent": parent, "rule": rule, "shape": url_shape(url)}

    def summary(self) -> dict[str, object]:
        return {"cut": sum(self.cut_by_rule.values()), "cut_by_rule": dict(self.cut_by_rule),
                "session_ids_removed": self.session_ids_removed}
