"""Relation lists that exist only in the DOM: behind a tab, paged by "more", or virtual-scrolled.

For each control whose words name a relation kind ("Followers (12)", "Following"), the person's
page is loaded afresh and the ajax part's expansion clicks just that control and presses "more"
(deny list and mutation guard in force). The person links that appeared are the list: their
nearest common container and shared class give ``entries``; a "more"-like control near them
(visible or not: a short list hides it) gives ``more``; a scrolling ancestor (``overflow-y: auto``
or ``scroll``) means the rows are recycled while scrolling and gives ``scroll``.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

from browsercrawl.ajax.hooks import expand_page
from browsercrawl.config.ajax import AjaxConfig, AjaxRule, ExploreConfig
from browsercrawl.discover.lists import FoundList, kind_of
from browsercrawl.discover.people import PersonShape

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

log = logging.getLogger(__name__)

# Shared by both scripts below: a CSS selector for an element that also finds its counterpart on
# another person's page (ids, classes and telling attributes; positions only as a last resort).
_SELECTOR_HELPERS = r"""
  const okName = (s) => /^[A-Za-z][\w-]*$/.test(s) && !/\d{3,}/.test(s);
  const own = (el) => {
    if (el.id && okName(el.id)) return '#' + CSS.escape(el.id);
    let s = el.localName;
    const cls = [...el.classList].filter(okName).slice(0, 2);
    if (cls.length) s += '.' + cls.map((c) => CSS.escape(c)).join('.');
    const telling = ['data-pane', 'data-tab', 'data-target', 'aria-controls', 'data-kind', 'name',
      ...[...el.attributes].map((a) => a.name).filter((n) => n.startsWith('data-'))];
    for (const a of telling) {
      const v = el.getAttribute(a);
      if (v && v.length < 40 && !/\d{3,}/.test(v)) { s += '[' + a + '="' + CSS.escape(v) + '"]'; break; }
    }
    return s;
  };
  const unique = (el) => {
    const s = own(el);
    if (s.startsWith('#') || document.querySelectorAll(s).length === 1) return s;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (a.id && okName(a.id)) {
        const t = '#' + CSS.escape(a.id) + ' ' + s;
        if (document.querySelectorAll(t).length === 1) return t;
      }
    }
    const parts = [];
    for (let n = el; n && n !== document.body; n = n.parentElement) {
      const same = n.parentElement
        ? [...n.parentElement.children].filter((c) => c.localName === n.localName) : [];
      parts.unshift(n.localName + (same.length > 1 ? ':nth-of-type(' + (same.indexOf(n) + 1) + ')' : ''));
    }
    return 'body > ' + parts.join(' > ');
  };
"""

TABS_JS = """(o) => {""" + _SELECTOR_HELPERS + r"""
  const deny = o.denyTexts.map((w) => new RegExp('(^|[^a-z0-9])' +
      w.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s*') + '($|[^a-z0-9])'));
  const out = [];
  const cands = document.querySelectorAll("[role=tab], a[href='#'], a[href^='#'], [data-tab], [data-pane], " +
      "[aria-controls], button, [role=button], a[href^='javascript:']");
  for (const el of cands) {
    const text = (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
    if (!text || text.length > 60 || !el.getClientRects().length) continue;
    if (deny.some((rx) => rx.test(text.toLowerCase()))) continue;
    out.push({selector: unique(el), text});
  }
  return out;
}"""

LINKS_JS = r"""(rx) => {
  const re = new RegExp(rx);
  return [...document.querySelectorAll('a[href]')].filter((a) => re.test(a.href)).map((a) => a.href);
}"""

ANALYSE_JS = """(o) => {""" + _SELECTOR_HELPERS + r"""
  const re = new RegExp(o.personRegex);
  const before = new Set(o.before);
  const links = [...document.querySelectorAll('a[href]')].filter((a) =>
      re.test(a.href) && a.getClientRects().length && !before.has(a.href) && a.href !== o.self);
  if (!links.length) return null;
  let lca = links[0].parentElement;
  while (lca && !links.every((a) => lca.contains(a))) lca = lca.parentElement;
  if (!lca) return null;
  const common = [...links[0].classList]
    .filter((c) => okName(c) && links.every((a) => a.classList.contains(c)));
  const entry = 'a' + (common.length ? '.' + common.map((c) => CSS.escape(c)).join('.') : '[href]');
  let scroll = null;
  for (let n = links[0].parentElement; n && n !== document.body; n = n.parentElement) {
    const oy = getComputedStyle(n).overflowY;
    if (oy === 'auto' || oy === 'scroll') { scroll = unique(n); break; }
  }
  const container = unique(lca);
  const moreRx = new RegExp('^\\s*((load|show|view|see|read|display)\\s+(\\d+\\s+)?' +
                            '(more|older|all|next)\\b.*|more(\\s+\\w+){0,2}|next)\\s*$', 'i');
  let more = null;
  for (let n = lca, up = 0; n && up < 3 && !more; n = n.parentElement, up++) {
    for (const b of n.querySelectorAll('button, [role=button], a[href="#"], a:not([href])')) {
      if (moreRx.test((b.textContent || '').trim())) { more = unique(b); break; }
    }
  }
  return {entries: container + ' ' + entry, scroll, more,
          people: links.map((a) => [a.href, (a.textContent || '').replace(/\s+/g, ' ').trim()])};
}"""


def _tab_rule(tab: str, budget_s: float) -> AjaxRule:
    """Click the one control ``tab``, then press "more" twice: enough to see the list's shape."""
    return AjaxRule(match=".", wait="dom-stable", stable_ms=300, load_more="auto", max_load_more=2,
                    idle_ms=1000, budget_seconds=budget_s,
                    explore=ExploreConfig(max_clicks=1, max_states=1, candidates=tab, settle_ms=500,
                                          store_html=False))


async def _fresh(context: BrowserContext, url: str) -> Page:
    page = await context.new_page()
    await page.goto(url, wait_until="load")
    with contextlib.suppress(Exception):
        await page.wait_for_load_state("networkidle", timeout=5000)
    return page


async def dom_lists(context: BrowserContext, url: str, shape: PersonShape, person_url: str,
                    ajax: AjaxConfig | None, skip_kinds: set[str]) -> tuple[list[FoundList], list[str]]:
    """The DOM relation lists of the person page at ``url`` (kinds in ``skip_kinds`` are known)."""
    cfg = ajax or AjaxConfig()
    found: list[FoundList] = []
    notes: list[str] = []
    page = await _fresh(context, url)
    try:
        tabs: list[dict[str, Any]] = await page.evaluate(TABS_JS, {"denyTexts": cfg.all_deny_texts})
    finally:
        await page.close()
    done: set[str] = set(skip_kinds)
    for tab in tabs:
        kind = kind_of(tab["text"])
        if kind is None or kind in done:
            continue
        page = await _fresh(context, url)
        try:
            before = await page.evaluate(LINKS_JS, shape.regex())
            report = await expand_page(page, cfg, _tab_rule(tab["selector"], 30.0), 30.0)
            if report.get("explore_clicks", 0) < 1:
                notes.append(f"tab {tab['text']!r} ({tab['selector']}): refused by the deny list; left out")
                continue
            got = await page.evaluate(ANALYSE_JS, {"personRegex": shape.regex(), "before": before,
                                                   "self": person_url})
        finally:
            await page.close()
        if got is None:
            notes.append(f"tab {tab['text']!r}: opening it showed no person links (empty list?)")
            continue
        lst = FoundList("relation", "dom", "", {"url": "@href"}, kind=kind)
        lst.tab, lst.entries_css = tab["selector"], got["entries"]
        lst.more, lst.scroll = got["more"], got["scroll"]
        lst.words = tab["text"]
        lst.requests = [url]
        lst.entries = len(got["people"])
        lst.example = got["people"][0][0]
        for href, text in got["people"]:
            pid = shape.id_of(href)
            if pid:
                lst.people.setdefault(pid, {"name": text} if text else {})
        if lst.scroll:
            lst.notes.append("the rows are recycled while the list scrolls: read by scrolling and merging")
        found.append(lst)
        done.add(kind)
    return found, notes
