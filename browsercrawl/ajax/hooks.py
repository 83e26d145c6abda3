"""The page hook that applies ``[ajax]`` rules to every page the engine fetches.

Per page: remember when navigation started (the rule's hard budget counts from there); after load,
apply the rule's load-state wait, then ONE ``evaluate`` of ``expand.js`` that waits in-page,
scrolls, clicks load-more and explores states; after the snapshot, turn its report and the
captured JSON into rows (``expansions``, ``states``, ``responses``), add the states' links to the
page's links, and the JSON's URLs to the frontier. On the plain-HTTP path (adaptive mode) a page
whose rule expands but whose HTML shows a load-more control is sent back to the browser.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

import lxml.html
from lxml.cssselect import CSSSelector
from lxml.etree import ParserError
from playwright.async_api import Error as PlaywrightError

from browsercrawl.ajax.capture import ResponseCapture
from browsercrawl.ajax.tables import EXPANSIONS, LIST_ENTRIES, RESPONSES, STATES, state_row
from browsercrawl.ajax.waits import in_page_wait, wait_load_state
from browsercrawl.config.ajax import AjaxConfig, AjaxRule
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.parts import CrawlHandle, StandaloneHandle
from browsercrawl.engine.recycled import collect_recycled
from browsercrawl.frontier.urls import canonical_url

if TYPE_CHECKING:
    from playwright.async_api import Page

log = logging.getLogger(__name__)

EXPAND_JS = resources.files("browsercrawl.ajax").joinpath("expand.js").read_text("utf-8")
QUIET_MS = 200  # DOM quiet time that ends one expansion step


@dataclass
class _PageNote:
    """What the ajax hook keeps during one page's fetch."""

    t0: float | None = None  # when navigation started: the rule's budget counts from here
    report: dict[str, Any] | None = None  # what expand.js did
    recycled: dict[str, Any] | None = None  # a recycled list's collected rows


_MORE_TEXT = re.compile(r"\b(load|show|view|see)\s+more\b|^\s*more\s*$", re.I)


async def _where_it_went(page: Page, url: str, exc: PlaywrightError) -> str | None:
    """Where ``page`` went when ``exc`` came from it leaving ``url`` (its document replaced by a
    navigation), else None (a crash, a closed tab). The new URL is known once it commits."""
    if "context was destroyed" not in str(exc) and "navigat" not in str(exc).lower():
        return None
    def same(u: str) -> bool:
        return u.split("#", 1)[0] == url.split("#", 1)[0]

    with contextlib.suppress(PlaywrightError):
        await page.wait_for_url(lambda u: not same(u), wait_until="commit", timeout=2000)
    return "a new document at the same URL" if same(page.url) else page.url


class AjaxHook(PageHook):
    """Waits, expands, explores and captures according to an :class:`AjaxConfig`."""

    def __init__(self, cfg: AjaxConfig) -> None:
        self.cfg = cfg
        self.handle: CrawlHandle = StandaloneHandle()  # the crawl's, once bound
        self.capture = ResponseCapture(cfg) if cfg.capture else None
        self.sent_back = 0  # HTTP pages sent back to the browser
        self._sent_back: set[str] = set()

    # -- browser path ------------------------------------------------------------------------
    async def on_page_created(self, page: Page) -> None:
        if self.capture is not None:
            self.capture.attach(page)

    async def before_navigation(self, ctx: PageContext) -> None:
        ctx.note(_PageNote).t0 = time.monotonic()
        rule = self.cfg.rule_for(ctx.request.url)
        if rule is not None and rule.wait != "load":
            ctx.settle = False  # the rule names its own wait; the default one would only add to it
        if self.capture is not None and ctx.page is not None:
            self.capture.begin(ctx.page)

    async def before_snapshot(self, ctx: PageContext) -> None:
        page = ctx.page
        rule = self.cfg.rule_for(ctx.request.url)
        if page is None or rule is None:
            return
        note = ctx.note(_PageNote)
        deadline = (note.t0 or time.monotonic()) + rule.budget_seconds
        wait_ok = await wait_load_state(page, rule, deadline - time.monotonic())
        if not (rule.expands or rule.wait in ("selector", "dom-stable")):
            note.report = {"wait_ok": wait_ok, "rule": rule.match}
            return
        try:
            report = await expand_page(page, self.cfg, rule, max(0.0, deadline - time.monotonic()))
        except PlaywrightError as exc:
            # A click navigated after all, the page's own script left it (a lost session sends
            # the demo's load-more to the login page), or the page crashed: reload so the
            # snapshot is right. Leaving is the page's doing and worth a note; a crash, a warning.
            away = await _where_it_went(page, ctx.request.url, exc)
            if away:
                log.info("expansion of %s stopped: the page went to %s; loading it again",
                         ctx.request.url, away)
            else:
                log.warning("expansion of %s stopped: %s", ctx.request.url, str(exc).split("\n")[0])
            report = {"navigated": True, "states": []}
            ctx.response = await page.goto(ctx.request.url, wait_until="load") or ctx.response
        if rule.recycled is not None:
            note.recycled = await self._collect(page, rule, deadline)
        report["wait_ok"] = bool(report.get("wait_ok", True) and wait_ok)
        report["rule"] = rule.match
        report["wait"] = rule.wait
        note.report = report

    async def _collect(self, page: Page, rule: AjaxRule, deadline: float) -> dict[str, Any] | None:
        cfg = rule.recycled
        assert cfg is not None
        try:
            return await collect_recycled(
                page, cfg.entries, cfg.fields, container=None if cfg.container == "window" else cfg.container,
                key=cfg.key, cap=cfg.max_entries, settle_ms=cfg.settle_ms,
                timeout_ms=max(1000, int((deadline - time.monotonic()) * 1000)))
        except PlaywrightError as exc:
            log.warning("recycled list of %s not read: %s", page.url, str(exc).split("\n")[0])
            return None

    # -- both paths --------------------------------------------------------------------------
    async def after_snapshot(self, ctx: PageContext) -> None:
        result = ctx.result
        if result is None:
            return
        if ctx.page is None:
            self._check_static(ctx)
            return
        page_url = canonical_url(result.final_url) if result.final_url.startswith("http") else ctx.request.url
        now = datetime.now(UTC).isoformat(timespec="seconds")
        captured = await self.capture.collect(ctx.page) if self.capture is not None else []
        if captured:
            result.extra_rows.setdefault(RESPONSES, []).extend(c.row(page_url) for c in captured)
            for c in captured:
                if c.rule.follow_urls or c.rule.id_url:
                    result.extra_urls.extend((u, "ajax") for u in c.urls())
        report = ctx.note(_PageNote).report
        if report is None:
            return
        self._recycled_rows(ctx, page_url)
        states = report.get("states") or []
        if states:
            result.extra_rows.setdefault(STATES, []).extend(
                state_row(page_url, i, s, now) for i, s in enumerate(states, 1)
            )
            known = {u for u, _ in result.links}
            for s in states:
                for href, text in s["links"]:
                    if href not in known:
                        known.add(href)
                        result.links.append((href, text))
        result.extra_rows.setdefault(EXPANSIONS, []).append(
            {
                "__upsert__": True,
                "page_url": page_url,
                "rule": report.get("rule"),
                "wait": report.get("wait"),
                "wait_ok": int(bool(report.get("wait_ok", True))),
                "waited_ms": report.get("waited_ms"),
                "scroll_rounds": report.get("scroll_rounds", 0),
                "load_more_clicks": report.get("load_more_clicks", 0),
                "explore_clicks": report.get("explore_clicks", 0),
                "states": len(states),
                "nodes_before": report.get("nodes_before"),
                "nodes_after": report.get("nodes_after"),
                "items_before": report.get("items_before"),
                "items_after": report.get("items_after"),
                "blocked_requests": json.dumps(report.get("blocked") or []),
                "budget_hit": int(bool(report.get("budget_hit"))),
                "total_ms": report.get("total_ms"),
                "responses": len(captured),
            }
        )

    def _recycled_rows(self, ctx: PageContext, page_url: str) -> None:
        """A recycled list's rows become ``list_entries`` rows; their ``url`` fields become links."""
        got = ctx.note(_PageNote).recycled
        assert ctx.result is not None
        if not got:
            return
        rule = self.cfg.rule_for(ctx.request.url)
        key = rule.recycled.key if rule is not None and rule.recycled is not None else None
        complete = int(bool(got["complete"]))
        rows = ctx.result.extra_rows.setdefault(LIST_ENTRIES, [])
        known = {u for u, _ in ctx.result.links}
        for seq, entry in enumerate(got["entries"]):
            rows.append({"__upsert__": True, "page_url": page_url, "seq": seq,
                         "entry_key": str(entry.get(key)) if key else json.dumps(entry, sort_keys=True),
                         "data": json.dumps(entry, ensure_ascii=False), "complete": complete})
            href = entry.get("url")
            if href:
                absolute = urljoin(ctx.result.final_url or ctx.request.url, href)
                if absolute not in known:
                    known.add(absolute)
                    ctx.result.links.append((absolute, str(entry.get("text") or "")[:200]))

    def _check_static(self, ctx: PageContext) -> None:
        """HTTP page in adaptive mode: if its rule would expand something, render it instead."""
        assert ctx.result is not None
        rule = self.cfg.rule_for(ctx.request.url)
        if rule is None or not rule.load_more or not ctx.result.html:
            return
        if ctx.request.url in self._sent_back:
            return  # sent back once already and still served over HTTP: keep what we have
        if has_load_more(ctx.result.html, rule.load_more) and self.handle.render_shape(ctx.request.url):
            self._sent_back.add(ctx.request.url)
            ctx.result.store = False
            self.sent_back += 1


async def expand_page(page: Page, cfg: AjaxConfig, rule: AjaxRule, budget_s: float) -> dict[str, Any]:
    """Run ``expand.js`` once in ``page``: the rule's in-page wait, scrolling, load-more clicks and
    exploration, with ``cfg``'s deny list and mutation guard. Its report (see ``expand.js``).

    Also used outside a crawl (``discover`` opens a person's tabs and lists with it), so nothing
    the crawl refuses to click is clicked there either.
    """
    return await page.evaluate(EXPAND_JS, expand_options(cfg, rule, budget_s))


def expand_options(cfg: AjaxConfig, rule: AjaxRule, remaining_s: float) -> dict[str, Any]:
    """The options object ``expand.js`` takes for ``rule`` under ``cfg``."""
    ex = rule.explore
    return {
        **in_page_wait(rule),
        "budgetMs": remaining_s * 1000,
        "scroll": rule.scroll,
        "loadMore": rule.load_more,
        "maxLoadMore": rule.max_load_more,
        "idleMs": rule.idle_ms,
        "quietMs": QUIET_MS,
        "doneSelector": rule.done_selector,
        "itemSelector": rule.item_selector,
        "denyTexts": cfg.all_deny_texts,
        "denySelectors": cfg.all_deny_selectors,
        "blockMutations": cfg.block_mutations,
        "explore": None
        if ex is None
        else {
            "maxClicks": ex.max_clicks,
            "maxStates": ex.max_states,
            "candidates": ex.candidates,
            "settleMs": ex.settle_ms,
            "storeHtml": ex.store_html,
        },
    }


def has_load_more(html: str, load_more: str) -> bool:
    """Does server-rendered HTML carry a load-more control (so rendering would find more)?"""
    try:
        doc = lxml.html.fromstring(html)
    except (ParserError, ValueError):
        return False
    if load_more != "auto":
        try:
            return bool(CSSSelector(load_more)(doc))
        except Exception:  # a selector lxml cannot translate (e.g. :visible): be safe, render
            return True
    for el in doc.iter("button", "a"):
        if _MORE_TEXT.search(el.text_content() or "") and len(el.text_content()) < 40:
            return True
    return False
