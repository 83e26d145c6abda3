"""Reading one person from a live, logged-in page: who it is, their fields, relations and items.

Everything here runs inside the page (``page.evaluate``), so JSON endpoints are called with the
page's cookies and DOM lists are expanded by the page's own code. The result is a plain
:class:`PersonSnapshot`; turning it into rows (and comparing it with an earlier visit) is
``store.py``'s job.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from browsercrawl.config.social import ListSource, RelationKind, SocialConfig
from browsercrawl.engine.recycled import collect_recycled
from browsercrawl.frontier.urls import canonical_url

if TYPE_CHECKING:
    from playwright.async_api import Page

log = logging.getLogger(__name__)

READ_LIST_JS = (Path(__file__).parent / "read_list.js").read_text(encoding="utf-8")

_IDENTITY_JS = """(fields) => {
  const link = document.querySelector('link[rel="canonical"]');
  const out = {};
  for (const [name, where] of Object.entries(fields)) {
    const at = where.lastIndexOf("@");
    const css = at >= 0 ? where.slice(0, at).trim() : where.trim();
    const node = css ? document.querySelector(css) : document.documentElement;
    const part = at >= 0 ? where.slice(at + 1).trim() : null;
    if (!node) { out[name] = null; continue; }
    if (part && part.startsWith("json:")) {  // a value in JSON the page embeds: "script#data@json:user.id"
      let v;
      try { v = JSON.parse(node.textContent); } catch (e) { v = undefined; }
      for (const k of part.slice(5).split(".").filter(Boolean)) v = (v == null) ? v : v[k];
      out[name] = (v == null) ? null : (typeof v === "object" ? JSON.stringify(v) : String(v));
      continue;
    }
    out[name] = part ? node.getAttribute(part) : node.textContent.trim();
  }
  return {canonical: link ? link.href : null, fields: out};
}"""


class PersonMatcher:
    """Recognises person URLs and maps every URL form of a person to one canonical id."""

    def __init__(self, cfg: SocialConfig) -> None:
        assert cfg.person_url is not None
        self.pattern = re.compile(cfg.person_url)
        self.group = cfg.id_group
        self.template = cfg.person_template

    def id_of(self, url: str) -> str | None:
        m = self.pattern.search(url)
        if not m:
            return None
        try:
            return m.group(self.group)
        except IndexError:
            return m.group(0)

    def url_for(self, person_id: str, base: str, fallback: str | None = None) -> str:
        """The one URL a person is enqueued under (``person_template``), else the URL seen."""
        if self.template:
            return canonical_url(urljoin(base, self.template.format(id=person_id)))
        return canonical_url(fallback or base)


@dataclass
class RelationList:
    """All entries of one relation kind on one page, merged over its sources."""

    targets: dict[str, str] = field(default_factory=dict)  # person id -> URL to visit
    unknown_urls: list[str] = field(default_factory=list)  # person URLs whose id needs a visit
    complete: bool = False  # some source read the whole list (so a missing edge was removed)


@dataclass
class PersonSnapshot:
    """What one visit of a person's page showed."""

    id: str
    url: str
    fields: dict[str, Any]
    relations: dict[RelationKind, RelationList]
    items: dict[str, dict[str, Any]]  # item id -> {time (epoch s or None), text, data}
    items_complete: bool
    errors: list[str] = field(default_factory=list)
    # JSON requests of the lists that the site refused or answered with something else than JSON:
    # the person must not be stored from this visit (its lists would look empty).
    failed_requests: list[str] = field(default_factory=list)

    def newest_item_time(self) -> float | None:
        times = [i["time"] for i in self.items.values() if i["time"] is not None]
        return max(times) if times else None


def parse_time(value: Any) -> float | None:
    """Epoch seconds from ISO 8601 text (``Z`` or an offset; no zone = UTC) or epoch s/ms numbers."""
    if value is None:
        return None
    text = str(value).strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        number = float(text)
        return number / 1000 if number > 1e11 else number
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (t if t.tzinfo else t.replace(tzinfo=UTC)).timestamp()


_OPEN_TAB_JS = """async ({tab, entries, timeout}) => {
  if (tab) {
    const el = document.querySelector(tab);
    if (!el) return "no tab " + tab;
    el.click();
  }
  const end = Date.now() + timeout;
  while (Date.now() < end && !document.querySelector(entries)) await new Promise(r => setTimeout(r, 50));
  return document.querySelector(entries) ? null : "no entries " + entries;
}"""


async def read_list(page: Page, source: ListSource, variables: dict[str, str]) -> dict[str, Any]:
    """Run one list source in the page: ``{entries: [...], complete: bool, error: str|None}``."""
    if source.source == "dom" and source.scroll:
        return await _read_recycled(page, source)
    spec = source.model_dump()
    return await page.evaluate(READ_LIST_JS, {"spec": spec, "vars": variables})


async def _read_recycled(page: Page, source: ListSource) -> dict[str, Any]:
    """A DOM list that recycles its rows: open its tab, then collect while scrolling (engine)."""
    assert source.entries is not None
    error = await page.evaluate(_OPEN_TAB_JS, {"tab": source.tab, "entries": source.entries,
                                               "timeout": min(source.timeout_ms, 10_000)})
    if error:
        return {"entries": [], "complete": False, "error": error}
    key = next((k for k in ("url", "id", "name") if k in source.fields), None)
    return await collect_recycled(
        page, source.entries, source.fields, container=None if source.scroll == "window" else source.scroll,
        key=key, cap=source.max_entries, settle_ms=source.settle_ms, timeout_ms=source.timeout_ms)


async def identify(page: Page, cfg: SocialConfig, matcher: PersonMatcher) -> tuple[str, str, dict] | None:
    """(canonical id, canonical URL, fields) if the page is a person's, else None.

    The page URL is taken after redirects (``/member?id=7`` -> ``/u/name``); a
    ``<link rel=canonical>`` wins when it also matches the person regex, so ``/u/name/`` and
    ``/u/name`` become the same person.
    """
    info = await page.evaluate(_IDENTITY_JS, cfg.fields)
    candidates = [page.url]
    if cfg.use_canonical_link and info["canonical"]:
        candidates.insert(0, info["canonical"])
    for url in candidates:
        person_id = matcher.id_of(url)
        if person_id is not None:
            return person_id, matcher.url_for(person_id, page.url, url), info["fields"]
    return None


def _item_key(entry: dict[str, Any]) -> str:
    if entry.get("id"):
        return str(entry["id"])
    raw = f"{entry.get('time')}\n{entry.get('text')}".encode()
    return "h:" + hashlib.sha1(raw).hexdigest()[:16]


async def read_person(page: Page, cfg: SocialConfig, matcher: PersonMatcher) -> PersonSnapshot | None:
    """Read everything the config names from the person page open in ``page``."""
    who = await identify(page, cfg, matcher)
    if who is None:
        return None
    person_id, url, fields = who
    variables = {"id": person_id, "name": person_id}
    variables.update({k: str(v) for k, v in fields.items() if v is not None})
    sources: list[tuple[str, ListSource]] = [("rel", r) for r in cfg.relations]
    sources += [("item", s) for s in cfg.items]
    # JSON sources do not touch the DOM and may run together; DOM sources click, so one at a time.
    parallel = [s for _, s in sources if s.source != "dom"]
    results: dict[int, dict[str, Any]] = {}
    answers = await asyncio.gather(*(read_list(page, s, variables) for s in parallel))
    results.update({id(s): a for s, a in zip(parallel, answers, strict=True)})
    for _, s in sources:
        if s.source == "dom":
            results[id(s)] = await read_list(page, s, variables)

    snap = PersonSnapshot(person_id, url, fields, {}, {}, items_complete=False)
    for role, s in sources:
        answer = results[id(s)]
        if answer.get("error"):
            snap.errors.append(f"{s.source} {s.url or s.script or s.entries}: {answer['error']}")
            if answer.get("status") is not None:
                snap.failed_requests.append(answer["error"])
        if role == "rel":
            assert hasattr(s, "kind")
            rel = snap.relations.setdefault(s.kind, RelationList())
            rel.complete = rel.complete or bool(answer["complete"])
            for entry in answer["entries"]:
                _add_target(rel, entry, page.url, matcher)
        else:
            snap.items_complete = snap.items_complete or bool(answer["complete"])
            for entry in answer["entries"]:
                key = _item_key(entry)
                data = {k: v for k, v in entry.items() if k not in ("id", "time", "text")}
                snap.items.setdefault(key, {"time": parse_time(entry.get("time")),
                                            "text": entry.get("text"), "data": data})
    for kind in {r.kind for r in cfg.relations}:
        snap.relations.setdefault(kind, RelationList())
    if snap.errors:
        log.info("person %s: %s", person_id, "; ".join(snap.errors))
    return snap


def _add_target(rel: RelationList, entry: dict[str, Any], base: str, matcher: PersonMatcher) -> None:
    """One relation entry -> (id, URL): from its URL, else from its name/id and the template."""
    raw_url = entry.get("url")
    if raw_url:
        url = canonical_url(urljoin(base, raw_url))
        person_id = matcher.id_of(url)
        if person_id is None:
            rel.unknown_urls.append(url)
            return
        rel.targets.setdefault(person_id, matcher.url_for(person_id, base, url))
        return
    person_id = entry.get("id") or entry.get("name")
    if person_id and matcher.template:
        rel.targets.setdefault(str(person_id), matcher.url_for(str(person_id), base))
