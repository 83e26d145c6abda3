"""The API shortcut: in ``auto`` mode, build a JavaScript page from its JSON over HTTP, not in the browser.

Most JavaScript pages are a shell filled from a JSON endpoint whose URL follows from the page's
URL (``/t/123`` -> ``/api/threads/123``). For a URL shape (``router.url_shape``) that the router
sends to the browser, the first ``api_shortcut_samples`` renders are also fetched as plain HTML
(the shell) while the tab's fetch/XHR JSON answers are read. From those samples it learns
(:mod:`browsercrawl.engine.api_template`):

* which JSON answers the page's text, links and title come from, and how each one's URL is
  written from the page URL's path segments and query values (or, failing that, from values in
  the HTML shell, e.g. ``data-id``);
* templates that write the rendered title, text, links and (when it can be written exactly) HTML
  from those JSON answers, the URL and the shell.

A shape is only taken over when the templates write every sample exactly. From then on its pages
are built from the shell and the JSON fetched over HTTP with the browser's cookies (``via =
'api'``); the HTTP path's hooks run on the result like on any HTTP page. The 5th, 10th, 20th,
40th... page of the shape is rendered as well and compared; a mismatch sends the shape back to
the browser for the rest of the crawl, and its pages built so far are queued again, rendered, and
replace what was stored (``writer.requeue_built``, ``PageTx.replace_built_page``). A shape whose
content comes from JSON whose URL does not follow from the page (a token, a hash computed in
the script) stays rendered, and so does one whose parts store rows while the HTML cannot be
written exactly (the parts would read another page). What was learned is kept in
``api_shortcuts`` (either store) and read back on resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from browsercrawl.engine import api_template as tpl
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.http_fetcher import COOKIE_SYNC_SECONDS, HttpClient, HttpFetcher
from browsercrawl.engine.result import FetchError, FetchResult
from browsercrawl.engine.router import url_shape
from browsercrawl.engine.settle import SHAPE_WAITS
from browsercrawl.frontier.base import Request

if TYPE_CHECKING:
    from playwright.async_api import Page, Response

    from browsercrawl.config import RenderingConfig
    from browsercrawl.engine.dispatch import Fetcher
    from browsercrawl.storage.base import Store

log = logging.getLogger(__name__)

TABLE = "api_shortcuts"
FIRST_CHECK = 5  # the shape's 5th page built from JSON is rendered too, then the 10th, 20th...
# Fewest samples: a recipe learned from the first MIN_SAMPLES - 1 that writes the next one exactly
# (a page it has not seen) is taken without waiting for ``api_shortcut_samples`` of them.
MIN_SAMPLES = 3
MAX_JSON_BYTES = 5_000_000
UNDERIVED_JSON = "the page's content comes from JSON whose URL does not follow from the page URL"
MAX_HTML_LEARNED = 300_000  # characters of rendered HTML a template is learned for
_CAPTURE_SECONDS = 5.0  # reading the captured JSON bodies after the snapshot


# -- capture on the browser path ------------------------------------------------------------------
@dataclass
class _CaptureNote:
    listener: Callable[[Response], None] | None = None
    tasks: list[asyncio.Task[tuple[str, Any] | None]] = field(default_factory=list)


class CaptureHook(PageHook):
    """Reads the fetch/XHR JSON answers of the pages the shortcut samples or checks (no others)."""

    def __init__(self, wanted: Callable[[str], bool]) -> None:
        self._wanted = wanted
        self.captured: dict[str, list[tuple[str, Any]]] = {}

    async def before_navigation(self, ctx: PageContext) -> None:
        page = ctx.page
        if page is None or not self._wanted(ctx.request.url):
            return
        note = ctx.note(_CaptureNote)

        def _on_response(response: Response) -> None:
            if response.request.resource_type in ("xhr", "fetch") and response.request.method == "GET":
                note.tasks.append(asyncio.ensure_future(_read_json(response)))

        note.listener = _on_response
        page.on("response", _on_response)

    async def after_snapshot(self, ctx: PageContext) -> None:
        if ctx.page is None or not ctx.has_note(_CaptureNote):
            return
        note = ctx.note(_CaptureNote)
        page: Page = ctx.page
        if note.listener is not None:
            page.remove_listener("response", note.listener)
        got: list[tuple[str, Any]] = []
        if note.tasks:
            done, pending = await asyncio.wait(note.tasks, timeout=_CAPTURE_SECONDS)
            for t in pending:
                t.cancel()
            for t in done:
                with contextlib.suppress(asyncio.CancelledError):
                    if t.exception() is None and (r := t.result()) is not None:
                        got.append(r)
        self.captured[ctx.request.url] = got


async def _read_json(response: Response) -> tuple[str, Any] | None:
    if "json" not in response.headers.get("content-type", "") or response.status != 200:
        return None
    try:
        raw = await response.body()
        if len(raw) > MAX_JSON_BYTES:
            return None
        return response.url, json.loads(raw.decode("utf-8"))
    except Exception:  # navigated on, body evicted, not JSON after all
        return None


# -- what a shape learned ----------------------------------------------------------------------
@dataclass
class Recipe:
    """How one shape's pages are built without the browser."""

    endpoints: dict[str, tpl.Template]  # JSON key -> its URL's template (over URL and shell values)
    title: tpl.Template
    text: tpl.Template
    links: tpl.Template
    html: tpl.Template | None  # None: the stored HTML is the shell (it cannot be written exactly)

    def needs_shell_first(self) -> bool:
        return any(p[0] == "shell" for t in self.endpoints.values() for p in tpl.uses(t))

    def dump(self) -> str:
        return json.dumps({
            "endpoints": {k: tpl.dump(v) for k, v in self.endpoints.items()},
            "title": tpl.dump(self.title), "text": tpl.dump(self.text), "links": tpl.dump(self.links),
            "html": None if self.html is None else tpl.dump(self.html),
        }, ensure_ascii=False)

    @staticmethod
    def load(raw: str) -> Recipe:
        d = json.loads(raw)
        return Recipe({k: tpl.load(v) for k, v in d["endpoints"].items()}, tpl.load(d["title"]),
                      tpl.load(d["text"]), tpl.load(d["links"]),
                      None if d.get("html") is None else tpl.load(d["html"]))

    def describe(self) -> str:
        urls = ", ".join(tpl.describe(t) for t in self.endpoints.values())
        return f"JSON {urls}; HTML {'written' if self.html is not None else 'shell'}"


@dataclass
class _Sample:
    url: str
    shell: FetchResult
    rendered: FetchResult
    captured: list[tuple[str, Any]]
    part_tables: frozenset[str]  # tables the hooks filled on the rendered page (engine's rows aside)


@dataclass
class ShapeShortcut:
    """One URL shape's state: learning, using the shortcut, or rendering (with why)."""

    shape: str
    state: str = "learning"  # learning | shortcut | rendering
    reason: str = ""
    recipe: Recipe | None = None
    samples: list[_Sample] = field(default_factory=list)
    pages: int = 0  # pages built by the shortcut (renders avoided)
    checks: int = 0
    next_check: int = FIRST_CHECK
    checking: bool = False
    deciding: bool = False  # the recipe is being learned from the samples
    render_ms: float = 0.0  # summed render time of this shape's rendered pages
    rendered: int = 0
    changed: asyncio.Event | None = None

    def notify(self) -> None:
        if self.changed is not None:
            self.changed.set()
            self.changed = None

    def row(self) -> dict[str, Any]:
        return {
            "__upsert__": True, "shape": self.shape, "state": self.state, "reason": self.reason,
            "recipe": self.recipe.dump() if self.recipe is not None else None,
            "pages": self.pages, "checks": self.checks,
            "render_ms_avoided": round(self.avoided() * self.mean_render_ms(), 1),
            "updated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }

    def avoided(self) -> int:
        """Renders the shortcut saved: none once the shape went back to the browser (its built
        pages are rendered again, see ``writer.requeue_built``)."""
        return self.pages if self.state == "shortcut" else 0

    def mean_render_ms(self) -> float:
        return self.render_ms / self.rendered if self.rendered else 0.0

    def describe(self) -> str:
        if self.state == "shortcut" and self.recipe is not None:
            return (f"shortcut: {self.pages} pages built from JSON ({self.recipe.describe()}), "
                    f"{self.checks} checks passed")
        if self.state == "rendering":
            before = (f" ({self.pages} pages built from JSON before were queued to be rendered again)"
                      if self.pages else "")
            return f"rendering: {self.reason}{before}"
        return f"learning ({len(self.samples)} samples)"


# -- learning ----------------------------------------------------------------------------------
def _base(url: str, shell_html: str | None, with_shell: bool) -> tpl.Sources:
    src = tpl.url_sources(url)
    return src.merged(tpl.shell_sources(shell_html)) if with_shell else src


def learn(samples: list[_Sample]) -> tuple[Recipe | None, str]:
    """A recipe that writes every sample, or None and why not (see the module docstring)."""
    first = samples[0]
    # Endpoints: each JSON answer of the first sample whose URL is written the same way in all.
    endpoints: dict[str, tpl.Template] = {}
    keyed: list[dict[str, Any]] = [{} for _ in samples]
    origins = sorted({_origin(s.url) for s in samples} | {_origin(s.rendered.final_url) for s in samples},
                     key=len, reverse=True)
    for n, (json_url, _) in enumerate(first.captured):
        found = _endpoint(json_url, samples, origins)
        if found is not None:
            key = f"e{n}"
            endpoints[key], answers = found
            for k, d in zip(keyed, answers, strict=True):
                k[key] = d
    # Every JSON answer, the ones whose URL is not derived too: if the page's content comes from
    # one of those, the shape cannot take the shortcut (and says so).
    for k, s in zip(keyed, samples, strict=True):
        for n, (_, d) in enumerate(s.captured):
            if not any(d is v for v in k.values()):
                k[f"x:{n}"] = d  # by its place among the page's answers (its URL tells nothing)
    json_src = []
    for k in keyed:
        src = tpl.Sources({}, {})
        for key, d in k.items():
            src = src.merged(tpl.json_sources(key, d))
        json_src.append(src)

    def template(field_of: Callable[[FetchResult], str], with_shell: bool) -> tpl.Template | None:
        pairs = [(field_of(s.rendered), _base(s.url, s.shell.html, with_shell).merged(j))
                 for s, j in zip(samples, json_src, strict=True)]
        return tpl.learn_from(pairs, protect=origins)

    # The HTML is written only when the parts read it (they stored rows from the rendered pages):
    # a value the samples share by chance (an image named by ``id % 20`` on items 0-2) would make
    # a wrong HTML template that only a later check catches. Otherwise the shell's HTML is stored.
    part_rows = any(s.part_tables for s in samples)
    made: dict[str, tpl.Template | None] = {"html": None}
    fields: list[tuple[str, Callable[[FetchResult], str]]] = [
        ("title", lambda r: r.title or ""), ("text", lambda r: r.text or ""),
        ("links", lambda r: tpl.links_text(r.links))]
    if part_rows and all(len(s.rendered.html or "") <= MAX_HTML_LEARNED for s in samples):
        fields.append(("html", lambda r: r.html or ""))
    for name, field_of in fields:
        made[name] = template(field_of, False) or template(field_of, True)
        if made[name] is None and name != "html":
            return None, f"the rendered {name} does not follow from the JSON, the URL and the shell"
    used = set().union(*(tpl.uses(t) for t in made.values() if t is not None))
    keys = {p[1] for p in used if p[0] == "json"}
    if any(k.startswith("x:") for k in keys):
        return None, UNDERIVED_JSON
    if not keys:
        return None, "the rendered content does not come from JSON answers"
    html = made["html"]
    if html is None and part_rows:
        return None, "the parts store rows from the rendered HTML, which cannot be written from the JSON"
    assert made["title"] is not None and made["text"] is not None and made["links"] is not None
    return Recipe({k: endpoints[k] for k in sorted(keys)}, made["title"], made["text"], made["links"],
                  html), ""


def learn_early(samples: list[_Sample]) -> tuple[Recipe | None, str]:
    """A verdict before ``api_shortcut_samples`` renders, or (None, "") to keep sampling.

    A recipe only when the one learned from all but the last sample writes the last one exactly
    (it predicted a page it had not seen). No recipe, at once, when the content comes from a JSON
    answer whose URL no sample's URL or shell writes: each further sample is one more URL the
    template must write, so more renders cannot make it derivable, and on a site like that every
    sampled page is a full settle wait, a JSON read and a shell fetch the crawl does not need."""
    recipe, why = learn(samples)
    if recipe is None:
        return None, why if why == UNDERIVED_JSON else ""
    earlier, _ = learn(samples[:-1])
    if earlier is None or predict(earlier, samples[-1]) is not None:
        return None, ""
    return recipe, ""


def predict(recipe: Recipe, sample: _Sample) -> str | None:
    """What the recipe would build differently from this rendered sample, or None (it fits)."""
    base = _base(sample.url, sample.shell.html, recipe.needs_shell_first())
    answers = dict(sample.captured)
    data: dict[str, Any] = {}
    for key, template in recipe.endpoints.items():
        try:
            url = tpl.render(template, base)
        except tpl.Missing:
            return f"the URL of {key} cannot be written"
        if url not in answers:
            return f"the page did not fetch {url}"
        data[key] = answers[url]
    try:
        built = _write(recipe, sample.url, sample.shell, data)
    except (tpl.Missing, ValueError) as exc:
        return f"not built: {exc}"
    return difference(built, sample.rendered, recipe.html is not None)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _endpoint(json_url: str, samples: list[_Sample], origins: list[str]
              ) -> tuple[tpl.Template, list[Any]] | None:
    """How one JSON answer's URL is written from each sample's URL (or, failing that, its shell),
    and that answer in every sample; None when no way fits them all."""
    for with_shell in (False, True):
        bases = [_base(s.url, s.shell.html, with_shell) for s in samples]
        tried = []
        for s, b in zip(samples, bases, strict=True):
            # The same answer in this sample: the one with the same path shape.
            other = next((u for u, _ in s.captured if url_shape(u) == url_shape(json_url)), None)
            if other is None:
                continue
            t = tpl.learn(other, b, min_len=1, protect=origins)
            if t in tried:
                continue
            tried.append(t)
            answers = []
            for s2, b2 in zip(samples, bases, strict=True):
                try:
                    want = tpl.render(t, b2)
                except tpl.Missing:
                    break
                hit = next((d for u, d in s2.captured if u == want), None)
                if hit is None:
                    break
                answers.append(hit)
            else:
                return t, answers
    return None


def difference(built: FetchResult, rendered: FetchResult, compare_html: bool) -> str | None:
    """What would be stored differently (title, text, links, HTML when it is written), or None."""
    fields = [("title", built.title or "", rendered.title or ""),
              ("text", built.text or "", rendered.text or ""),
              ("links", tpl.links_text(built.links), tpl.links_text(rendered.links))]
    if compare_html:
        fields.append(("html", built.html or "", rendered.html or ""))
    for name, a, b in fields:
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            around = slice(max(0, at - 20), at + 30)
            return f"{name} differs at {at}: {a[around]!r} built, {b[around]!r} rendered"
    return None


# -- the shortcut --------------------------------------------------------------------------------
class ApiShortcut:
    """Per URL shape: learn, build pages from JSON, check now and then (see the module docstring)."""

    def __init__(self, cfg: RenderingConfig) -> None:
        self.sample_pages = cfg.api_shortcut_samples
        self.shapes: dict[str, ShapeShortcut] = {}
        self._capturing: set[str] = set()
        self._rerender: set[str] = set()  # shapes whose built pages are to be queued again
        self.hook = CaptureHook(self._wants)
        self.http: HttpFetcher | None = None
        self.browser: Fetcher | None = None
        self._cookie_source: Callable[[], Awaitable[list[dict]]] | None = None
        self._cookies_at = -1e9
        self._cookie_lock = asyncio.Lock()

    def bind(self, http: HttpFetcher, browser: Fetcher,
             cookie_source: Callable[[], Awaitable[list[dict]]] | None) -> None:
        self.http, self.browser, self._cookie_source = http, browser, cookie_source

    # -- storage --------------------------------------------------------------------------------
    @staticmethod
    def create_table(db: Store) -> None:
        db.ensure_table(TABLE, {"shape": str, "state": str, "reason": str, "recipe": str, "pages": int,
                                "checks": int, "render_ms_avoided": float, "updated_at": str}, pk="shape")

    def load(self, db: Store) -> None:
        """What an earlier run of this crawl learned: shortcuts in use, and shapes that stay rendered."""
        for shape, state, reason, recipe, pages, checks in db.read(
                f"SELECT shape, state, reason, recipe, pages, checks FROM {TABLE}"):
            if state == "shortcut" and recipe:
                try:
                    loaded = Recipe.load(recipe)
                except (ValueError, KeyError, TypeError):
                    continue  # written by another version: learn again
                sh = self.shapes[shape] = ShapeShortcut(shape, "shortcut", recipe=loaded, pages=pages or 0,
                                                        checks=checks or 0)
                while sh.next_check <= sh.pages:  # the checks go on at the intervals they had reached
                    sh.next_check *= 2
            elif state == "rendering":
                self.shapes[shape] = ShapeShortcut(shape, "rendering", reason=reason or "")

    def rows(self) -> list[dict[str, Any]]:
        return [s.row() for _, s in sorted(self.shapes.items()) if s.state != "learning"]

    def summary(self) -> dict[str, Any]:
        if not self.shapes:
            return {}
        # Pages built before a shape went back to the browser do not count: they are rendered again.
        return {
            "shapes": {k: s.describe() for k, s in sorted(self.shapes.items())},
            "renders_avoided": sum(s.avoided() for s in self.shapes.values()),
            "render_seconds_avoided_est": round(
                sum(s.avoided() * s.mean_render_ms() for s in self.shapes.values()) / 1000, 1),
        }

    def stale(self, url: str) -> bool:
        """A page of this URL's shape built from JSON now would be stored wrong: its recipe was
        found wrong (the writer queues such a page again instead of storing it)."""
        sh = self.shapes.get(url_shape(url))
        return sh is not None and sh.state == "rendering"

    def take_rerenders(self) -> set[str]:
        """Shapes sent back to the browser since the last call: their built pages are queued again
        in the writer's next transaction (``writer.requeue_built``)."""
        out, self._rerender = self._rerender, set()
        return out

    def rendering_shapes(self) -> set[str]:
        return {k for k, s in self.shapes.items() if s.state == "rendering"}

    def demote(self, url: str, reason: str) -> None:
        """Render this URL's shape from now on (a part found what only the browser gets right)."""
        sh = self.shapes.setdefault(url_shape(url), ShapeShortcut(url_shape(url)))
        if sh.state != "rendering":
            if sh.pages:
                self._rerender.add(sh.shape)
            sh.state, sh.reason, sh.samples = "rendering", reason, []
            log.info("api shortcut: %s back to rendering: %s", sh.shape, reason)
        sh.notify()

    # -- fetching -------------------------------------------------------------------------------
    async def fetch(self, req: Request, *, trace_dir: Path | None = None) -> FetchResult:
        """The page of a shape the router renders: built from JSON, or rendered (and learned from)."""
        sh = self.shapes.setdefault(url_shape(req.url), ShapeShortcut(url_shape(req.url)))
        # While the shape is learned, its pages are rendered as samples (pages kept waiting would
        # leave the workers idle: a shape that stays rendered would lose that time); only while
        # the recipe is being made from the samples (a moment, in a thread) do they wait.
        while sh.state == "learning" and sh.deciding:
            if sh.changed is None:
                sh.changed = asyncio.Event()
            await sh.changed.wait()
        if sh.state == "learning":
            return await self._sample(sh, req, trace_dir)
        if sh.state == "shortcut" and trace_dir is None:
            if sh.pages + 1 >= sh.next_check and not sh.checking:
                sh.next_check *= 2
                return await self._check(sh, req)
            try:
                built = await self._build(sh, req)
            except (tpl.Missing, ValueError, _NotBuilt) as exc:
                log.info("api shortcut: %s rendered instead (%s)", req.url, exc)
                built = None
            if built is not None and sh.state == "shortcut":  # (a check may have failed meanwhile)
                assert self.http is not None
                sh.pages += 1
                return await self.http.finish(req, built)
        return await self._render(sh, req, trace_dir)

    async def _render(self, sh: ShapeShortcut, req: Request, trace_dir: Path | None = None,
                      settle: bool = False) -> FetchResult:
        assert self.browser is not None
        result = await self.browser.fetch(req, trace_dir=trace_dir, settle=settle)
        sh.rendered += 1
        sh.render_ms += result.fetch_ms + result.render_ms
        return result

    def _wants(self, url: str) -> bool:
        """Read this page's JSON? Pages sampled or checked, and the router's comparisons of a shape
        still learning (they are the shortcut's first samples)."""
        if url in self._capturing:
            return True
        sh = self.shapes.get(url_shape(url))
        return sh is None or (sh.state == "learning" and len(sh.samples) < self.sample_pages)

    async def observe(self, req: Request, shell: FetchResult | None, rendered: FetchResult,
                      static: bool) -> None:
        """A page the router compared (fetched over HTTP and rendered): a sample, unless static."""
        captured = self.hook.captured.pop(req.url, [])
        if static or shell is None:
            return
        sh = self.shapes.setdefault(url_shape(req.url), ShapeShortcut(url_shape(req.url)))
        await self._add_sample(sh, req, shell, rendered, captured)

    async def _sample(self, sh: ShapeShortcut, req: Request, trace_dir: Path | None) -> FetchResult:
        """Render the page while reading its JSON, fetch its shell; learn once there are enough."""
        assert self.http is not None
        self._capturing.add(req.url)
        shell_task = asyncio.create_task(self._shell(req))
        try:
            rendered = await self._render(sh, req, trace_dir, settle=True)
        except BaseException:
            shell_task.cancel()
            await asyncio.gather(shell_task, return_exceptions=True)
            raise
        finally:
            self._capturing.discard(req.url)
        captured = self.hook.captured.pop(req.url, [])
        try:
            shell: FetchResult | None = await shell_task
        except FetchError:
            shell = None
        await self._add_sample(sh, req, shell, rendered, captured)
        return rendered

    async def _add_sample(self, sh: ShapeShortcut, req: Request, shell: FetchResult | None,
                          rendered: FetchResult, captured: list[tuple[str, Any]]) -> None:
        """Keep a rendered page with its shell and JSON; learn the recipe once there are enough."""
        try:
            if sh.state != "learning" or sh.deciding or not rendered.complete or not rendered.store:
                return
            if not captured:
                # A finished page that fetched no JSON: nothing to learn from its shape.
                sh.state, sh.reason = "rendering", "the rendered page fetched no JSON"
                rendered.extra_rows.setdefault(TABLE, []).append(sh.row())
                return
            if shell is None or shell.html is None or shell.status != rendered.status:
                return
            tables = frozenset(rendered.extra_rows) - {SHAPE_WAITS}
            sh.samples.append(_Sample(req.url, shell, rendered, captured, tables))
            final = len(sh.samples) >= self.sample_pages
            if not final and len(sh.samples) < min(MIN_SAMPLES, self.sample_pages):
                return
            sh.deciding = True
            try:
                recipe, why = await asyncio.to_thread(learn if final else learn_early, sh.samples)
            finally:
                sh.deciding = False
            if recipe is None and not final and not why:
                return  # the new sample varies from what the others taught: more samples
            if recipe is not None:
                sh.state, sh.recipe = "shortcut", recipe
                log.info("api shortcut: %s built from %s", sh.shape, recipe.describe())
            else:
                sh.state, sh.reason = "rendering", why
                log.info("api shortcut: %s stays rendered: %s", sh.shape, why)
            sh.samples = []
            rendered.extra_rows.setdefault(TABLE, []).append(sh.row())
        finally:
            sh.notify()

    async def _check(self, sh: ShapeShortcut, req: Request) -> FetchResult:
        """Render a shortcut page and build it from JSON too; a difference ends the shortcut."""
        sh.checking = True
        built_task = asyncio.create_task(self._build(sh, req))
        try:
            try:
                rendered = await self._render(sh, req, settle=True)
            except BaseException:
                built_task.cancel()
                await asyncio.gather(built_task, return_exceptions=True)
                raise
            why_not = ""
            try:
                built: FetchResult | None = await built_task
            except (tpl.Missing, ValueError, _NotBuilt, FetchError) as exc:
                built, why_not = None, f"not built: {exc}"
        finally:
            sh.checking = False
        if not rendered.complete or not rendered.store:
            # Nothing to judge by: an unfinished render, or one a hook refused (the session part
            # refuses a page that came back logged out); the refused page comes again as a retry.
            return rendered
        assert sh.recipe is not None
        recipe = sh.recipe
        differs = why_not if built is None else difference(built, rendered, recipe.html is not None)
        if differs is None:
            sh.checks += 1
        else:
            sh.state = "rendering"
            sh.reason = f"a check found a difference on {req.url} (after {sh.checks} passed): {differs}"
            if sh.pages:  # every page built from JSON is rendered again and replaces what was stored
                self._rerender.add(sh.shape)
            log.warning("api shortcut: %s back to rendering: %s", sh.shape, sh.reason)
        rendered.extra_rows.setdefault(TABLE, []).append(sh.row())
        return rendered

    def resync_cookies(self) -> None:
        """Take the browser's cookies again before the next JSON fetch (a re-login changed them)."""
        self._cookies_at = -1e9

    async def _cookies(self) -> None:
        if self._cookie_source is None or time.monotonic() - self._cookies_at <= COOKIE_SYNC_SECONDS:
            return
        async with self._cookie_lock:
            if time.monotonic() - self._cookies_at > COOKIE_SYNC_SECONDS:
                assert self.http is not None
                self.http.client.set_cookies(await self._cookie_source())
                self._cookies_at = time.monotonic()

    async def _shell(self, req: Request) -> FetchResult:
        assert self.http is not None
        await self._cookies()
        return await self.http.client.fetch(req.url, parse=False)

    async def _json(self, client: HttpClient, url: str) -> Any:
        got = await client.fetch(url, parse=False)
        if got.status != 200 or got.text is None:
            raise _NotBuilt(f"{url} answered {got.status} {got.content_type!r}")
        if len(got.text) > 100_000:
            return await asyncio.to_thread(json.loads, got.text)
        return json.loads(got.text)

    async def _build(self, sh: ShapeShortcut, req: Request) -> FetchResult:
        """The page from its shell and its JSON, without hooks (the caller runs them)."""
        recipe = sh.recipe
        assert recipe is not None and self.http is not None
        client = self.http.client
        shell_task = asyncio.create_task(self._shell(req))
        try:
            shell_html: str | None = None
            if recipe.needs_shell_first():
                shell = await shell_task
                shell_html = shell.html
            base = _base(req.url, shell_html, recipe.needs_shell_first())
            urls = {k: tpl.render(t, base) for k, t in recipe.endpoints.items()}
            got = await asyncio.gather(*(self._json(client, u) for u in urls.values()))
            shell = await shell_task
        except BaseException:
            shell_task.cancel()
            await asyncio.gather(shell_task, return_exceptions=True)
            raise
        if shell.html is None or shell.status != 200:
            raise _NotBuilt(f"the shell answered {shell.status} {shell.content_type!r}")
        return await asyncio.to_thread(_write, recipe, req.url, shell, dict(zip(urls, got, strict=True)))


class _NotBuilt(Exception):
    """The JSON or the shell is not what the recipe expects: render this page instead."""


def _write(recipe: Recipe, url: str, shell: FetchResult, data: dict[str, Any]) -> FetchResult:
    """Fill the recipe's templates (a worker thread: CPU work)."""
    t0 = time.perf_counter()
    src = tpl.url_sources(url)
    uses = set().union(tpl.uses(recipe.title), tpl.uses(recipe.text), tpl.uses(recipe.links),
                       tpl.uses(recipe.html) if recipe.html is not None else set())
    if any(p[0] == "shell" for p in uses):
        src = src.merged(tpl.shell_sources(shell.html))
    for key, d in data.items():
        src = src.merged(tpl.json_sources(key, d))
    result = FetchResult(
        requested_url=shell.requested_url,
        final_url=shell.final_url,
        status=shell.status,
        content_type=shell.content_type,
        via="api",
        html=tpl.render(recipe.html, src) if recipe.html is not None else shell.html,
        text=tpl.render(recipe.text, src),
        title=tpl.render(recipe.title, src),
        links=tpl.text_links(tpl.render(recipe.links, src)),
        fetch_ms=shell.fetch_ms,
        headers=shell.headers,
    )
    result.render_ms = (time.perf_counter() - t0) * 1000
    return result
