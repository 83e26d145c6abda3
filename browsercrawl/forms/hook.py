"""The search-forms page hook: read each page's forms, query the search ones, read their results.

On every stored page with a form or an input: classify each form (:mod:`browsercrawl.forms.classify`),
remember the search ones as interfaces and the page as a form page (for the clustering). On a
result page (a URL the planner queued): read its records and next page. What the planner emits
becomes frontier URLs (``result.extra_urls``: queries go through the scheduler like any page, so
per-host politeness applies to them) and rows committed with the page.

Only a form classified as search ever becomes an :class:`~browsercrawl.forms.plan.Interface`, and
only interfaces are queried: no other form is submitted, typed into, or clicked.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from browsercrawl.config.search_forms import SearchFormsConfig
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.parts import CrawlHandle, StandaloneHandle
from browsercrawl.forms import tables
from browsercrawl.forms.browser import PostRoute, probe_box
from browsercrawl.forms.classify import Classification, classify, features, query_field
from browsercrawl.forms.cluster import FormPage, kmeans, top_terms
from browsercrawl.forms.extract import FormInfo, PageScan, scan_page
from browsercrawl.forms.lexicon import Lexicon
from browsercrawl.forms.plan import PROBE_ROUND, Emit, Interface, Planner, interface_id, probe_term
from browsercrawl.forms.results import html_result, json_result
from browsercrawl.forms.store import load_state, write_rows

if TYPE_CHECKING:
    from browsercrawl.storage.db import CrawlDatabase

log = logging.getLogger(__name__)

REPEATS_KEPT = 512  # recent pages whose rows are re-attached if the same request is seen again
FRESH_TIMEOUT_MS = 10_000


@dataclass
class _Note:
    route: PostRoute | None = None


def _has_controls(html: str) -> bool:
    low = html.lower()
    return "<form" in low or "<input" in low


def _looks_json(text: str | None) -> bool:
    t = (text or "").lstrip()
    return t.startswith(("{", "["))


def cluster_pages(
    pages: list[FormPage], k: int | None, per_cluster: int
) -> tuple[list[int], dict[int, list[str]]]:
    """K-means over the form pages and each cluster's top terms (CPU work: run in a thread)."""
    assign = kmeans(pages, k)
    return assign, top_terms(pages, assign, per_cluster)


class SearchFormsHook(PageHook):
    """See the module docstring."""

    def __init__(self, cfg: SearchFormsConfig, planner: Planner, lex: Lexicon, can_render: bool) -> None:
        self.cfg = cfg
        self.planner = planner
        self.lex = lex
        self.can_render = can_render
        self.handle: CrawlHandle = StandaloneHandle()
        self.db: CrawlDatabase | None = None
        self.known_forms: set[str] = set()
        self.kinds: Counter[str] = Counter()
        self.sent_back: set[str] = set()
        self._done: OrderedDict[str, Emit] = OrderedDict()
        self._probing: set[str] = set()
        self.form_rows: dict[str, dict[str, Any]] = {}  # search forms' rows, updated after a probe
        self._loaded = False
        self._load_lock = asyncio.Lock()

    # -- restart ---------------------------------------------------------------------------
    async def load(self, emit: Emit) -> None:
        """Once per run: take back what an interrupted run of this crawl knew."""
        if self._loaded or self.db is None:
            self._loaded = True
            return
        async with self._load_lock:
            if self._loaded:
                return
            await load_state(self.db, self, emit)
            self._loaded = True

    # -- POST queries (browser path) ---------------------------------------------------------
    async def before_navigation(self, ctx: PageContext) -> None:
        if ctx.page is None:
            return
        got = self.planner.post_body(ctx.request.url)
        if got is None:
            return
        iface, q = got
        page = ctx.page

        async def fresh() -> dict[str, str] | None:
            return await self._fresh_hidden(page, iface)

        route = PostRoute(q.url, iface.action, q.body or "", fresh)
        await route.install(page)
        ctx.note(_Note).route = route

    async def after_navigation(self, ctx: PageContext) -> None:
        if ctx.page is not None and ctx.has_note(_Note):
            note = ctx.note(_Note)
            if note.route is not None:
                await note.route.remove(ctx.page)
                note.route = None

    async def _fresh_hidden(self, page: Any, iface: Interface) -> dict[str, str] | None:
        """The hidden fields' current values (tokens change), read from the form's page."""
        if not any(not vis for _, _, vis in iface.fields):
            return None
        resp = await page.request.get(iface.form_page, timeout=FRESH_TIMEOUT_MS)
        html = await resp.text()
        scan = await asyncio.to_thread(scan_page, html, iface.form_page, self.lex, terms=False)
        for form in scan.forms:
            qf = query_field(form, self.lex)
            if self._form_id(iface.host, form, Classification("search"), qf) == iface.id:
                return {c.name: c.value for c in form.controls if c.kind == "hidden" and c.name}
        return None

    # -- every page ------------------------------------------------------------------------
    async def after_snapshot(self, ctx: PageContext) -> None:
        result = ctx.result
        if result is None or not result.store:
            return
        url = ctx.request.url
        # Auto mode fetches a request twice to compare (HTTP, then rendered) and keeps one result:
        # the second gets the first one's rows too, and is read again (the rendered page can hold
        # a box the served one lacked); counting a result page twice is prevented by the planner.
        earlier = self._done.get(url)
        emit = Emit()
        await self.load(emit)
        planner = self.planner
        at = planner.pages.get(url)
        if at is not None:
            q = planner.queries[at[0]]
            # A POST query fetched over HTTP was sent as a GET: have the browser send it.
            if q.body is not None and at[1] == 1 and ctx.page is None and self.handle.render_shape(url):
                result.store = False
                return
        is_json = at is not None and ("json" in result.content_type.lower() or
                                      (result.html is None and _looks_json(result.text)))
        scan: PageScan | None = None
        if result.html and not is_json and (at is not None or _has_controls(result.html)):
            scan = await asyncio.to_thread(scan_page, result.html, result.final_url, self.lex,
                                           self.cfg.min_term_length)
        if scan is not None and scan.forms:
            judged = [(f, classify(f, self.lex)) for f in scan.forms]
            if self._send_back(ctx, judged):
                return
            await self._forms(ctx, scan, judged, emit, is_result=at is not None)
        if at is not None:
            self._result(ctx, scan, is_json, emit)
        await self.maybe_seed(emit, idle=False)
        if earlier is not None:
            earlier.extend(emit)
            emit = earlier
        self._finish(ctx, emit)

    def _form_id(self, host: str, form: FormInfo, cls: Classification, qf: Any) -> str:
        if form.formless:
            return interface_id(host, "script", form.selectors[0] if form.selectors else form.ident, "", [])
        names = [c.name for c in form.controls if c.name and c.kind != "hidden"]
        return interface_id(host, form.method, form.action, qf.name if qf else cls.kind, names)

    def _send_back(self, ctx: PageContext, judged: list[tuple[FormInfo, Classification]]) -> bool:
        """A search box to learn on a page served over HTTP: have the browser fetch it (once)."""
        if ctx.page is not None or not self.can_render or not self.cfg.probe_script_boxes:
            return False
        for form, cls in judged:
            if not (form.formless and cls.is_search):
                continue
            fid = self._form_id(ctx.request.host, form, cls, None)
            iface = self.planner.interfaces.get(fid)
            unknown = iface is None or (not iface.ready and iface.usable)
            if unknown and fid not in self.sent_back and self.handle.render_shape(ctx.request.url):
                self.sent_back.add(fid)
                assert ctx.result is not None
                ctx.result.store = False
                return True
        return False

    async def _forms(self, ctx: PageContext, scan: PageScan, judged: list[tuple[FormInfo, Classification]],
                     emit: Emit, *, is_result: bool) -> None:
        host = ctx.request.host
        url = ctx.request.url
        for i, (form, cls) in enumerate(judged):
            qf = query_field(form, self.lex) if cls.is_search else None
            fid = self._form_id(host, form, cls, qf)
            if fid not in self.known_forms:
                self.known_forms.add(fid)
                self.kinds[cls.kind] += 1
                iface = self._interface(ctx, scan, form, fid, qf) if cls.is_search else None
                row = {
                    "id": fid, "host": host, "page_url": url, "action": form.action, "method": form.method,
                    "kind": cls.kind, "score": cls.score, "reasons": json.dumps(list(cls.reasons)),
                    "features": json.dumps(features(form)), "query_field": qf.name if qf else None,
                    "spec": json.dumps(iface.spec()) if iface else None,
                    "usable": int(iface.usable) if iface else 0, "note": iface.note if iface else "",
                }
                emit.row(tables.FORMS, row)
                if iface is not None:
                    self.form_rows[fid] = row
                    self.planner.add_interface(iface, emit)
            if not cls.is_search:
                continue
            iface = self.planner.interfaces.get(fid)
            if iface is None or not iface.usable:
                continue
            if form.formless and not iface.ready:
                await self._probe(ctx, iface, form, emit)
            if not is_result and ctx.request.depth <= self.cfg.max_form_depth:
                page = FormPage(url, fid, scan.terms, scan.form_terms.get(i, Counter()))
                if self.planner.add_form_page(page):
                    emit.row(tables.FORM_PAGES, {
                        "url": url, "form": fid, "depth": ctx.request.depth,
                        "page_terms": json.dumps(dict(page.pc.most_common(300))),
                        "form_terms": json.dumps(dict(page.fc.most_common(100)))})

    def _interface(self, ctx: PageContext, scan: PageScan, form: FormInfo, fid: str, qf: Any) -> Interface:
        """A search form as something the planner can query (never called for another kind)."""
        fields: list[tuple[str, str, bool]] = []
        submitter = False
        for c in form.controls:
            if not c.name or c.kind in ("button", "reset", "file", "other"):
                continue
            if c.kind == "submit":
                if not submitter:  # pressing Enter submits with the first submit button
                    submitter = True
                    fields.append((c.name, c.value, True))
                continue
            if c.kind in ("checkbox", "radio"):
                if c.checked:
                    fields.append((c.name, c.value or "on", True))
                continue
            if c.kind == "select":
                fields.append((c.name, c.selected or "", True))
                continue
            fields.append((c.name, c.value, c.kind != "hidden"))
        usable, note = True, ""
        if form.formless:
            if not self.cfg.probe_script_boxes:
                usable, note = False, "search boxes without a form are off (probe_script_boxes = false)"
            elif not self.can_render:
                usable, note = False, "a search box without a form needs the browser"
        elif qf is None or not qf.name:
            usable, note = False, "its search field has no name"
        elif form.method == "post" and not self.cfg.submit_post:
            usable, note = False, "POST forms are off (submit_post = false)"
        elif form.method == "post" and not self.can_render:
            usable, note = False, "a POST form is sent by the browser; rendering.mode is http"
        return Interface(
            id=fid, host=ctx.request.host, method=form.method, action=form.action,
            query_field=qf.name if qf else "", fields=fields, form_page=ctx.request.url,
            depth=ctx.request.depth, template_links={u for u, _, _ in scan.links}, usable=usable,
            note=note,
        )

    async def _probe(self, ctx: PageContext, iface: Interface, form: FormInfo, emit: Emit) -> None:
        """Learn what a search box without a form requests (browser path, once per box)."""
        if ctx.page is None or iface.id in self._probing:
            return
        if self.planner.used[iface.host] >= self.cfg.max_queries_per_site:
            return
        self._probing.add(iface.id)
        term = probe_term(iface.id)
        buttons = tuple(
            sel for c in form.controls if c.kind in ("submit", "button") and self._search_button(c.hints)
            for sel in c.selectors[:1]
        )
        try:
            probe = await probe_box(ctx.page, form.selectors, term, buttons)
        finally:
            self._probing.discard(iface.id)
        if iface.ready:
            return
        if probe is None or probe.method != "GET":
            iface.usable = False
            iface.note = ("typing in it sent no request" if probe is None
                          else f"its script sends {probe.method}, not GET")
            iface.ready = True
            self.update_form_row(iface, emit)
            return
        iface.template = probe.request_url.replace(term, "{q}")
        iface.action = iface.template.split("?")[0]
        links: set[str] = set()
        if probe.body and "json" in probe.content_type:
            links = set(json_result(probe.body, 200, probe.request_url, set(), self.lex).records)
        elif probe.body:
            empty = await asyncio.to_thread(scan_page, probe.body, probe.request_url, self.lex, terms=False)
            links = {u for u, _, _ in empty.links}
        if not self.planner.allows(iface.request("x")[0], iface.depth + 1):
            iface.usable, iface.note = False, f"its query URLs are out of the job's scope ({iface.template})"
        self.planner.script_probed(iface, probe.request_url, links, emit)
        self.update_form_row(iface, emit)

    def update_form_row(self, iface: Interface, emit: Emit) -> None:
        """The interface learned something (a script box's template, why it cannot be queried)."""
        row = self.form_rows.get(iface.id)
        if row is not None:
            row.update(action=iface.action, spec=json.dumps(iface.spec()), usable=int(iface.usable),
                       note=iface.note)
            emit.row(tables.FORMS, {**row, "__upsert__": True})

    def _search_button(self, hints: str) -> bool:
        """A button the probe may click: it says search (or "go"), and nothing of another purpose."""
        if not self.lex.words("search", hints):
            return False
        return not any(self.lex.words(p, hints) for p in
                       ("login", "register", "subscribe", "comment", "contact", "upload", "delete"))

    def _result(self, ctx: PageContext, scan: PageScan | None, is_json: bool, emit: Emit) -> None:
        result = ctx.result
        assert result is not None
        url = ctx.request.url
        qid, _ = self.planner.pages[url]
        q = self.planner.queries[qid]
        iface = self.planner.interfaces[q.iface]
        if is_json:
            page = json_result(result.text or "", result.status, result.final_url, iface.template_links,
                               self.lex, self.cfg.min_term_length)
            links = set(page.records)
        else:
            links_full = scan.links if scan is not None else []
            terms = scan.terms if scan is not None else Counter()
            search_at = iface.template or iface.action
            page = html_result(links_full, result.status, result.final_url, search_at, iface.template_links,
                               terms, self.lex, self.cfg.min_term_length)
            links = {u for u, _, _ in links_full}
        if q.round == PROBE_ROUND:
            page.records = []
        self.planner.on_result(url, page, links, result.status, emit)

    async def maybe_seed(self, emit: Emit, *, idle: bool) -> None:
        """Start the first round of interfaces ready for it (clustering runs in a thread)."""
        ids = self.planner.want_seeding(idle)
        if not ids:
            return
        self.planner.seeding = True
        pages = list(self.planner.form_pages.values())
        try:
            assign, tops = await asyncio.to_thread(cluster_pages, pages, self.cfg.clusters,
                                                   self.cfg.seed_terms_per_cluster)
        finally:
            self.planner.seeding = False
        self.planner.seed(ids, pages, assign, tops, emit)

    # -- handing over ----------------------------------------------------------------------
    def settle(self, emit: Emit) -> None:
        """Before handing ``emit`` over: refresh the rows of interfaces that changed."""
        for iid in sorted(emit.changed):
            iface = self.planner.interfaces.get(iid)
            if iface is not None:
                self.update_form_row(iface, emit)
        emit.changed.clear()

    def _finish(self, ctx: PageContext, emit: Emit) -> None:
        self.settle(emit)
        self._done[ctx.request.url] = emit
        while len(self._done) > REPEATS_KEPT:
            self._done.popitem(last=False)
        for url in emit.post_urls:
            self.handle.render_shape(url)
        self._attach(ctx, emit)

    @staticmethod
    def _attach(ctx: PageContext, emit: Emit) -> None:
        result = ctx.result
        assert result is not None
        result.extra_urls.extend(emit.urls)
        for table, rows in emit.rows.items():
            result.extra_rows.setdefault(table, []).extend(dict(r) for r in rows)

    async def write(self, emit: Emit) -> None:
        """Store rows emitted outside a page (when the crawl ran dry)."""
        if self.db is not None and emit.rows:
            rows = {t: [dict(r) for r in rs] for t, rs in emit.rows.items()}
            await self.db.transaction(lambda conn: write_rows(conn, rows))
