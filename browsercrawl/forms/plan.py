"""The query rounds: which terms each search form gets, when, and when it stops.

Pure state, no I/O: the hook (:mod:`browsercrawl.forms.hook`) feeds it pages and turns what it
emits into frontier URLs and rows. A search form found on a site becomes an :class:`Interface`.
Each interface is first *probed* with a term no page holds, so its empty result page (the site's
template with no results) is known before real results are read. Once probed, and once enough
form pages are known (or the crawl runs dry), the form pages are clustered and each cluster starts
a :class:`Campaign` on each interface found in it: round 1 queries the cluster's top terms (and the
job's seed terms), each later round the top terms of the previous round's result pages, filtered
(template: on more than ``template_share`` of the round's result pages; noise: on fewer than
``noise_share``), never a term twice on one form. A campaign stops after ``max_rounds`` rounds,
when fewer than ``min_candidates`` terms are left, or when the site's query budget is spent.

A round ends when every result page it expects (first pages and the next pages they link to) has
arrived. A page that never arrives (it failed, or the fetch that queued it was thrown away) is
queued once more when the crawl runs dry, and the round ends without it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import string
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from browsercrawl.config.search_forms import SearchFormsConfig
from browsercrawl.forms.cluster import FormPage
from browsercrawl.forms.results import ResultPage
from browsercrawl.frontier.urls import canonical_url

PROBE_ROUND = 0
KIND_QUERY = "search-query"
KIND_POST = "search-post"
KIND_PAGE = "search-page"
KIND_PROBE = "search-probe"


@dataclass
class Interface:
    """A search form (or a form-less search box) the crawl may query."""

    id: str
    host: str
    method: str  # get | post | script
    action: str
    query_field: str
    fields: list[tuple[str, str, bool]]  # (name, value, visible) in document order
    form_page: str
    depth: int
    template_links: set[str] = field(default_factory=set)
    template: str | None = None  # script boxes: the request their script sends, "{q}" for the term
    ready: bool = False  # its empty result page is known (or given up on)
    seeded: bool = False
    usable: bool = True
    note: str = ""

    def request(self, term: str) -> tuple[str, str | None]:
        """(the frontier URL of a query for ``term``, the POST body or None)."""
        if self.template is not None:
            return canonical_url(self.template.replace("{q}", _quote(term))), None
        parts = urlsplit(self.action)
        pairs = [(n, term if n == self.query_field else v) for n, v, _ in self.fields]
        if self.method == "post":
            shown = [(n, v) for (n, v), (_, _, vis) in zip(pairs, self.fields, strict=True) if vis]
            visible = urlencode(shown)
            query = "&".join(x for x in (parts.query, visible) if x)
            url = urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))
            return canonical_url(url), urlencode(pairs)
        url = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(pairs), ""))
        return canonical_url(url), None

    def spec(self) -> dict[str, Any]:
        """What the ``forms`` table keeps to query this interface again after a restart."""
        return {"method": self.method, "action": self.action, "query_field": self.query_field,
                "fields": self.fields, "form_page": self.form_page, "depth": self.depth,
                "template": self.template, "template_links": sorted(self.template_links)}


def _quote(term: str) -> str:
    from urllib.parse import quote_plus

    return quote_plus(term)


def interface_id(host: str, method: str, action: str, query_field: str, names: Iterable[str]) -> str:
    key = "|".join([host, method, action, query_field, *sorted(set(names))])
    return hashlib.sha1(key.encode()).hexdigest()[:12]


def probe_term(iface_id: str) -> str:
    """A word no page holds, the same for an interface on every run."""
    rng = random.Random(iface_id)
    consonants = "".join(c for c in string.ascii_lowercase if c not in "aeiouy")
    return "zq" + "".join(rng.choice(consonants) for _ in range(8))


@dataclass
class Query:
    id: int
    iface: str
    term: str
    round: int
    cluster: int
    url: str
    body: str | None = None
    pages: int = 0
    results: int = 0
    new: int = 0
    valid: bool | None = None
    status: str = "queued"  # queued | done | lost

    def row(self) -> dict[str, Any]:
        return {"id": self.id, "form": self.iface, "term": self.term, "round": self.round,
                "cluster": self.cluster, "url": self.url, "method": "post" if self.body else "get",
                "status": self.status, "result_pages": self.pages, "results": self.results,
                "new": self.new, "valid": None if self.valid is None else int(self.valid),
                "__upsert__": True}


@dataclass
class Campaign:
    iface: str
    cluster: int
    round: int = 0
    outstanding: set[str] = field(default_factory=set)
    docs: list[Counter[str]] = field(default_factory=list)
    finished: str = ""  # why it stopped; "" while it runs


@dataclass
class Emit:
    """What one step of the planner asks for: URLs to queue (url, kind) and rows to store."""

    urls: list[tuple[str, str]] = field(default_factory=list)
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    post_urls: list[str] = field(default_factory=list)
    changed: set[str] = field(default_factory=set)  # interfaces whose stored spec is out of date

    def row(self, table: str, row: dict[str, Any]) -> None:
        self.rows.setdefault(table, []).append(row)

    def extend(self, other: Emit) -> None:
        self.urls.extend(other.urls)
        self.post_urls.extend(other.post_urls)
        self.changed |= other.changed
        for t, rows in other.rows.items():
            self.rows.setdefault(t, []).extend(rows)


def candidate_terms(docs: list[Counter[str]], queried: set[str], cfg: SearchFormsConfig) -> list[str]:
    """The next round's terms, best first: formula (1) over a round's result pages, filtered.

    With one result page there is no share to speak of (every term is on 100% of one page), so the
    template/noise filter applies from two pages on.
    """
    n = len(docs)
    if n == 0:
        return []
    df: Counter[str] = Counter()
    for d in docs:
        df.update(d.keys())
    weight: Counter[str] = Counter()
    for d in docs:
        for t, w in d.items():
            weight[t] += w * (math.log(n / df[t]) if n > 1 else 1.0)
    out = []
    for t, w in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0])):
        if t in queried:
            continue
        if cfg.term_filter and n > 1:
            share = df[t] / n
            if share > cfg.template_share or share < cfg.noise_share:
                continue
        if w <= 0 and cfg.term_filter:
            continue
        out.append(t)
    return out


class Planner:
    """All interfaces, queries and campaigns of a crawl (see the module docstring)."""

    def __init__(self, cfg: SearchFormsConfig, allows: Callable[[str, int], bool] | None = None) -> None:
        self.cfg = cfg
        self.allows = allows or (lambda url, depth: True)
        self.interfaces: dict[str, Interface] = {}
        self.queries: dict[int, Query] = {}
        self.pages: dict[str, tuple[int, int]] = {}  # result page URL -> (query id, page number)
        self.campaigns: dict[tuple[str, int], Campaign] = {}
        self.queried: dict[str, set[str]] = {}
        self.records: dict[str, set[str]] = {}  # host -> record URLs seen in results
        self.used: Counter[str] = Counter()  # host -> queries planned (probes included)
        self.form_pages: dict[tuple[str, str], FormPage] = {}  # (page URL, form id) -> its terms
        self.arrived: set[str] = set()
        self.reissued: set[str] = set()
        self.next_id = 1
        self.seeding = False

    # -- interfaces ------------------------------------------------------------------------
    def add_interface(self, iface: Interface, emit: Emit) -> None:
        """A newly found search form: remember it and probe it (script boxes are probed in the browser)."""
        if iface.id in self.interfaces:
            return
        self.interfaces[iface.id] = iface
        self.queried.setdefault(iface.id, set())
        probe = iface.usable and iface.method != "script" and not iface.ready
        if probe and self.plan(iface, probe_term(iface.id), PROBE_ROUND, -1, emit) is None:
            iface.ready = True  # no budget or out of scope: read results without the probe's help

    def add_form_page(self, page: FormPage) -> bool:
        """A page holding a search form (a page with two search forms counts once for each)."""
        key = (page.url, page.form)
        if key in self.form_pages or page.url in self.pages:
            return False
        self.form_pages[key] = page
        return True

    # -- queries ---------------------------------------------------------------------------
    def plan(self, iface: Interface, term: str, round_no: int, cluster: int, emit: Emit) -> Query | None:
        """Queue a query for ``term`` on ``iface`` unless the budget, scope or an earlier query forbid it."""
        term = " ".join(term.lower().split())
        if not term or not iface.usable:
            return None
        if self.used[iface.host] >= self.cfg.max_queries_per_site:
            return None
        if term in self.queried[iface.id]:
            return None
        url, body = iface.request(term)
        if url in self.pages:
            return None
        if not self.allows(url, iface.depth + 1):
            iface.usable = False
            iface.note = f"its query URLs are out of the job's scope ({url})"
            emit.changed.add(iface.id)
            return None
        q = Query(self.next_id, iface.id, term, round_no, cluster, url, body)
        self.next_id += 1
        self.queries[q.id] = q
        self.queried[iface.id].add(term)
        self.used[iface.host] += 1
        self.pages[url] = (q.id, 1)
        kind = KIND_PROBE if round_no == PROBE_ROUND else (KIND_POST if body else KIND_QUERY)
        emit.urls.append((url, kind))
        if body:
            emit.post_urls.append(url)
        emit.row("queries", q.row())
        return q

    def post_body(self, url: str) -> tuple[Interface, Query] | None:
        """The POST query whose frontier URL is ``url`` (sent as a POST by the browser path)."""
        got = self.pages.get(url)
        if got is None:
            return None
        q = self.queries[got[0]]
        if q.body is None or got[1] != 1:
            return None
        return self.interfaces[q.iface], q

    def script_probed(self, iface: Interface, request_url: str, links: set[str], emit: Emit) -> None:
        """A search box's probe saw its script request ``request_url`` for the probe term."""
        term = probe_term(iface.id)
        q = Query(self.next_id, iface.id, term, PROBE_ROUND, -1, canonical_url(request_url),
                  status="done", pages=1, valid=False)
        self.next_id += 1
        self.queries[q.id] = q
        self.queried[iface.id].add(term)
        self.used[iface.host] += 1
        iface.template_links |= links
        iface.ready = True
        emit.row("queries", q.row())

    # -- result pages ------------------------------------------------------------------------
    def on_result(self, url: str, page: ResultPage, links: set[str], status: int, emit: Emit) -> None:
        """A result page arrived: count its records, follow its next page, maybe end the round."""
        qid, page_no = self.pages[url]
        q = self.queries[qid]
        iface = self.interfaces[q.iface]
        first = url not in self.arrived
        self.arrived.add(url)
        if not first:
            return
        q.pages += 1
        q.status = "done"
        if q.round == PROBE_ROUND:
            iface.template_links |= links
            iface.ready = True
            emit.changed.add(iface.id)
            q.valid = page.valid
            emit.row("queries", q.row())
            emit.row("query_pages", _page_row(url, q, page_no, status, page, 0))
            return
        seen = self.records.setdefault(iface.host, set())
        new = [r for r in page.records if r not in seen]
        seen.update(new)
        q.results += len(page.records)
        q.new += len(new)
        if page_no == 1:
            q.valid = page.valid
        campaign = self.campaigns.get((iface.id, q.cluster))
        nxt = page.next_url
        if nxt and page.records and page_no < self.cfg.max_result_pages:
            nxt = canonical_url(nxt)
            if nxt not in self.pages:
                self.pages[nxt] = (qid, page_no + 1)
                emit.urls.append((nxt, KIND_PAGE))
                if campaign is not None and url in campaign.outstanding:
                    campaign.outstanding.add(nxt)
        emit.row("queries", q.row())
        emit.row("query_pages", _page_row(url, q, page_no, status, page, len(new)))
        for r in new:
            emit.row("query_records", {"url": r, "query": q.id, "round": q.round, "form": iface.id})
        if campaign is not None and url in campaign.outstanding:
            campaign.outstanding.discard(url)
            campaign.docs.append(page.terms)
            if not campaign.outstanding:
                self.advance(campaign, emit)

    # -- rounds ----------------------------------------------------------------------------
    def want_seeding(self, crawl_idle: bool) -> list[str]:
        """Interfaces ready for their first round (now, or because the crawl ran dry)."""
        if self.seeding:
            return []
        ready = [i.id for i in self.interfaces.values() if i.ready and not i.seeded and i.usable]
        if not ready:
            return []
        if not crawl_idle and len(self.form_pages) < self.cfg.form_pages_before_queries:
            return []
        return ready

    def seed(self, ids: list[str], pages: list[FormPage], assign: list[int], tops: dict[int, list[str]],
             emit: Emit) -> None:
        """Start round 1 of each cluster's campaign on each of ``ids`` (clusters from K-means)."""
        for iid in ids:
            iface = self.interfaces[iid]
            if iface.seeded:
                continue
            iface.seeded = True
            clusters = sorted({assign[i] for i, p in enumerate(pages) if p.form == iid})
            if not clusters:  # its form pages were deeper than max_form_depth: seed terms only
                clusters = [-1]
            for c in clusters:
                campaign = self.campaigns.setdefault((iid, c), Campaign(iid, c))
                terms = [*self.cfg.seed_terms, *tops.get(c, [])]
                self._start(campaign, 1, terms, emit)

    def _start(self, campaign: Campaign, round_no: int, terms: list[str], emit: Emit) -> None:
        iface = self.interfaces[campaign.iface]
        campaign.round = round_no
        campaign.docs = []
        for t in terms:
            q = self.plan(iface, t, round_no, campaign.cluster, emit)
            if q is not None:
                campaign.outstanding.add(q.url)
        if not campaign.outstanding:
            campaign.finished = (
                "query budget spent" if self.used[iface.host] >= self.cfg.max_queries_per_site
                else (iface.note or "no new terms")
            )

    def advance(self, campaign: Campaign, emit: Emit) -> None:
        if campaign.finished:
            return
        if campaign.round >= self.cfg.max_rounds:
            campaign.finished = f"{campaign.round} rounds"
            return
        cands = candidate_terms(campaign.docs, self.queried[campaign.iface], self.cfg)
        if len(cands) < self.cfg.min_candidates:
            campaign.finished = f"{len(cands)} candidate terms left after round {campaign.round}"
            return
        self._start(campaign, campaign.round + 1, cands[: self.cfg.terms_per_round], emit)

    def idle(self, emit: Emit) -> None:
        """The crawl ran dry: queue pages that never arrived once more and end their rounds."""
        for url, (qid, _) in self.pages.items():
            if url in self.arrived or url in self.reissued:
                continue
            self.reissued.add(url)
            q = self.queries[qid]
            kind = KIND_PROBE if q.round == PROBE_ROUND else KIND_PAGE
            emit.urls.append((url, kind))
            if q.body is not None:
                emit.post_urls.append(url)
            if q.status == "queued" and q.pages == 0:
                q.status = "lost"
                emit.row("queries", q.row())
        for iface in self.interfaces.values():
            if not iface.ready and iface.method != "script":
                iface.ready = True  # its probe never came back: go on with the form page as template
        for campaign in self.campaigns.values():
            if campaign.outstanding and not campaign.finished:
                campaign.outstanding.clear()
                self.advance(campaign, emit)

    # -- figures ---------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        real = [q for q in self.queries.values() if q.round != PROBE_ROUND and q.pages]
        by_round: dict[int, list[Query]] = {}
        for q in real:
            by_round.setdefault(q.round, []).append(q)
        out: dict[str, Any] = {
            "interfaces": sum(1 for i in self.interfaces.values() if i.usable),
            "queries": len(real),
            "probes": sum(1 for q in self.queries.values() if q.round == PROBE_ROUND),
            "valid": sum(1 for q in real if q.valid),
            "result_pages": sum(q.pages for q in real),
            "records": sum(len(r) for r in self.records.values()),
            "new_per_query_by_round": {
                r: round(sum(q.new for q in qs) / len(qs), 2) for r, qs in sorted(by_round.items())
            },
        }
        stopped = Counter(c.finished.split(" after")[0] for c in self.campaigns.values() if c.finished)
        if stopped:
            out["campaigns_stopped"] = dict(stopped)
        unusable = {i.id: i.note for i in self.interfaces.values() if not i.usable}
        if unusable:
            out["not_queried"] = unusable
        return out


def _page_row(url: str, q: Query, page_no: int, status: int, page: ResultPage, new: int) -> dict[str, Any]:
    return {"url": url, "query": q.id, "page": page_no, "status": status, "records": len(page.records),
            "new": new, "valid": int(page.valid), "next_url": page.next_url,
            "terms": json.dumps(dict(page.terms.most_common(200))), "__upsert__": True}
