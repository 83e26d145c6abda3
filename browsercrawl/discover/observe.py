"""Watching one page the way its own code shows it: JSON it fetches, JSON it embeds, its tabs and lists.

The page is opened in a (logged-in) context, then the ajax part's ``expand.js`` opens its tabs
and presses its "show more" controls with the crawl's deny list and mutation guard, so nothing
that follows, likes or posts is clicked, and no non-GET request leaves the page while it runs.
Every XHR/fetch JSON answer is kept with its URL. The page's HTML before expansion is kept too:
that is what a person page looks like to the wrapper learner, without other people's names from
the opened lists.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from browsercrawl.ajax.hooks import expand_page
from browsercrawl.config.ajax import AjaxConfig, AjaxRule, ExploreConfig

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Response

log = logging.getLogger(__name__)

_MAX_BODY = 5_000_000

# JSON in the page's own scripts: <script type="application/json"> and the like, with a selector
# that finds that script again on another person's page.
_SCRIPTS_JS = """() => {
  const out = [];
  const all = [...document.querySelectorAll('script')];
  all.forEach((s, i) => {
    const type = (s.getAttribute('type') || '').toLowerCase();
    if (!type.includes('json')) return;
    let sel = s.id ? 'script#' + CSS.escape(s.id) : null;
    if (!sel) {
      const same = all.filter(o => (o.getAttribute('type') || '') === (s.getAttribute('type') || ''));
      sel = same.length === 1 ? 'script[type="' + s.getAttribute('type') + '"]' : null;
    }
    if (sel) out.push({selector: sel, text: s.textContent.slice(0, 5000000)});
  });
  const link = document.querySelector('link[rel="canonical"]');
  const login = [...document.querySelectorAll('input[type=password]')].some(e => e.getClientRects().length);
  return {scripts: out, canonical: link ? link.href : null, login};
}"""

_LINKS_JS = """() => [...new Set([...document.querySelectorAll('a[href]')].map(a => a.href)
  .filter(h => h.startsWith('http')))]"""


@dataclass
class JsonSeen:
    """One JSON document the page fetched (``selector`` None) or embedded (``selector`` its script)."""

    url: str
    data: Any
    selector: str | None = None


@dataclass
class Observation:
    """What opening one page showed."""

    url: str  # after redirects
    canonical: str | None
    html: str  # as loaded, before any tab or "more" was clicked
    status: int
    responses: list[JsonSeen] = field(default_factory=list)
    scripts: list[JsonSeen] = field(default_factory=list)
    clicks: int = 0  # tabs and "more" controls pressed
    blocked: list[str] = field(default_factory=list)  # non-GET requests the guard refused
    links: list[str] = field(default_factory=list)  # every link once the tabs and lists were open
    login_form: bool = False  # the page shows a password field: a login page, not the person


def discovery_rule(budget_s: float) -> AjaxRule:
    """Open every tab and press "more" a few times: enough to see how each list pages."""
    return AjaxRule(match=".", wait="dom-stable", stable_ms=400, load_more="auto", max_load_more=4,
                    idle_ms=1200, budget_seconds=budget_s,
                    explore=ExploreConfig(max_clicks=15, max_states=15, settle_ms=400, store_html=False))


async def observe(context: BrowserContext, url: str, ajax: AjaxConfig | None = None,
                  budget_s: float = 60.0) -> Observation:
    """Open ``url`` in a new tab of ``context``, expand it safely, and return what was seen."""
    cfg = ajax or AjaxConfig()
    page = await context.new_page()
    tasks: list[asyncio.Task[JsonSeen | None]] = []

    async def read(response: Response) -> JsonSeen | None:
        try:
            raw = await response.body()
        except Exception:  # the page moved on; the body is gone
            return None
        if len(raw) > _MAX_BODY:
            return None
        try:
            return JsonSeen(response.url, json.loads(raw.decode("utf-8")))
        except (UnicodeDecodeError, ValueError):
            return None

    def on_response(response: Response) -> None:
        request = response.request
        if request.resource_type in ("xhr", "fetch") and request.method == "GET" and response.ok:
            tasks.append(asyncio.ensure_future(read(response)))

    page.on("response", on_response)
    try:
        response = await page.goto(url, wait_until="load")
        status = response.status if response is not None else 0
        with contextlib.suppress(Exception):
            await page.wait_for_load_state("networkidle", timeout=5000)
        html = await page.content()
        info = await page.evaluate(_SCRIPTS_JS)
        report = await expand_page(page, cfg, discovery_rule(budget_s), budget_s)
        with contextlib.suppress(Exception):
            await page.wait_for_load_state("networkidle", timeout=5000)
        clicks = int(report.get("explore_clicks", 0)) + int(report.get("load_more_clicks", 0))
        seen = Observation(page.url, info["canonical"], html, status, clicks=clicks,
                           blocked=list(report.get("blocked") or []), login_form=bool(info["login"]))
        seen.links = await page.evaluate(_LINKS_JS)
        for s in info["scripts"]:
            with contextlib.suppress(ValueError):
                seen.scripts.append(JsonSeen(page.url, json.loads(s["text"]), s["selector"]))
        if tasks:
            done, pending = await asyncio.wait(tasks, timeout=15)
            for t in pending:
                t.cancel()
            for t in tasks:
                if t in done and t.exception() is None and (got := t.result()) is not None:
                    seen.responses.append(got)
        return seen
    finally:
        page.remove_listener("response", on_response)
        await page.close()
