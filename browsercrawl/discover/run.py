"""``discover``: from one person's page to a ``[social]`` section that crawls the whole community.

1. Open the person's page with the job's session (logged in as the crawl would be), open its tabs
   and press "more" safely (``observe.py``).
2. The person URL pattern and id: the shape the page's URL shares with the people its JSON names,
   else with its links (``people.py``).
3. The relation and item lists: arrays of people / of timed entries in the JSON it fetched or
   embedded, their endpoint templates and paging (``lists.py``).
4. The person fields: open a second person named in those lists, find the first person's entry
   in the second's lists, and learn a wrapper from the two pages and their entries (``fields.py``).

What it could not decide is kept in ``Findings.undecided`` and printed; nothing is guessed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from browsercrawl.assemble import build_parts
from browsercrawl.config import JobConfig
from browsercrawl.config.job import parse_job
from browsercrawl.config.social import ListSource
from browsercrawl.discover.dom import dom_lists
from browsercrawl.discover.fields import LearnedFields, learn_person_fields, wanted_values
from browsercrawl.discover.lists import FoundList, find_lists, person_urls, person_values
from browsercrawl.discover.observe import Observation, observe
from browsercrawl.discover.people import PersonShape, infer_shape, shapes_between
from browsercrawl.engine.browser import LaunchOptions, job_launch_options
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import StandaloneHandle
from browsercrawl.engine.runtime import BrowserRuntime
from browsercrawl.errors import UserError
from browsercrawl.frontier.urls import canonical_url
from browsercrawl.parts import REGISTRY
from browsercrawl.social.extract import read_list

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext

log = logging.getLogger(__name__)

SECOND_PERSON_TRIES = 3
CANDIDATE_PAGES = 4  # pages tried (one per link shape) when the given page is nobody's


@dataclass
class Findings:
    """Everything ``discover`` inferred, with one example each, and what it could not decide."""

    url: str
    person_url: str
    person_id: str
    shape: PersonShape
    relations: list[FoundList] = field(default_factory=list)
    items: list[FoundList] = field(default_factory=list)
    fields: LearnedFields = field(default_factory=LearnedFields)
    second_person: str | None = None
    clicks: int = 0
    blocked: list[str] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)

    @property
    def key_fields(self) -> dict[str, str]:
        """Person fields the chosen endpoints are keyed by (``{user_pk}`` in a URL template)."""
        out: dict[str, str] = {}
        for lst in [*self.relations, *self.items]:
            out.update(lst.person_fields)
        return out


def minimal_job(url: str) -> JobConfig:
    """The job ``discover`` runs without ``--job``: the URL as seed, no session."""
    return parse_job({"seeds": [url]}, Path("discover.toml"))


def _people_shape(obs: Observation, person_url: str) -> PersonShape:
    docs = [*obs.responses, *obs.scripts]
    from_json = [u for d in docs for u in person_urls(d)]
    shape = infer_shape(person_url, from_json) or infer_shape(person_url, obs.links)
    if shape is None:
        raise NotAPerson(
            f"{obs.url}: cannot tell which URLs are people: no JSON list and no set of links shares "
            "this page's URL shape (one path segment or one query value different); give a person's page",
            obs.links)
    return shape


def choose_lists(found: list[FoundList], undecided: list[str]) -> tuple[list[FoundList], list[FoundList]]:
    """The relation sources the job reads (every endpoint; an embedded list only when no endpoint
    gives that kind) and the first item endpoint."""
    relations = [f for f in found if f.role == "relation"]
    for f in relations:
        if f.kind is None:
            undecided.append(f"relation kind of {f.url or f.script} ({f.list_path or 'root'}): the words "
                             f"{f.words!r} say neither follows, followers nor friends; left out")
    kinds_by_api = {f.kind for f in relations if f.source == "json_api" and f.kind}
    chosen = [f for f in relations if f.kind and (f.source == "json_api" or f.kind not in kinds_by_api)]
    items = [f for f in found if f.role == "items" and f.source == "json_api"][:1]
    return chosen, items


async def discover(url: str, job: JobConfig | None = None, *,
                   launch: LaunchOptions | None = None) -> Findings:
    """Open the person page at ``url`` (logged in with ``job``'s session) and infer its social job."""
    job = job or minimal_job(url)
    # Only the session part: it logs the context in; no other part may act on these pages.
    parts = build_parts(job, CrawlOptions(quiet=True), skip=[s.name for s in REGISTRY if s.name != "session"])
    handle = StandaloneHandle()
    for part in parts:
        part.bind(handle)
    factory = next((p.context_factory for p in parts if p.context_factory), None)
    hooks = [h for p in parts for h in p.hooks()]
    async with BrowserRuntime(job, launch or job_launch_options(job), hooks=hooks, context_factory=factory,
                              tabs=1) as runtime:
        context = await runtime.new_context()
        if handle.error is not None:
            raise handle.error
        try:
            findings, first, known = await _person(context, url, job)
        except NotAPerson as exc:
            findings, first, known = await _from_links(context, url, job, exc)
        await _learn_fields(context, job, findings, first, known)
        await context.close()
    return findings


class NotAPerson(UserError):
    """The page opened is nobody's (no people shape, or no list of people); ``links``: its links."""

    def __init__(self, message: str, links: list[str]) -> None:
        super().__init__(message)
        self.links = links


async def _person(context: BrowserContext, url: str,
                  job: JobConfig) -> tuple[Findings, Observation, set[str]]:
    """Everything but the fields, from the person page at ``url``; ``NotAPerson`` if it is none."""
    first = await observe(context, url, job.ajax)
    if first.status >= 400:
        raise UserError(f"{url}: HTTP {first.status}")
    if first.login_form:
        raise UserError(f"{url}: the site answered a login page ({first.url}); give --job with a [session] "
                        "that logs in (docs/sessions.md)")
    person_url = canonical_url(first.canonical or first.url)
    shape = _people_shape(first, person_url)
    person_id = shape.id_of(person_url) or shape.id_of(canonical_url(first.url))
    if person_id is None:
        raise NotAPerson(f"{url}: the page's own URL does not fit the person pattern {shape.regex()}",
                         first.links)
    known = {i for d in [*first.responses, *first.scripts] for u in person_urls(d)
             if (i := shape.id_of(u))} | {i for u in first.links if (i := shape.id_of(u))}
    values = person_values(first.scripts, first.html)
    found, notes = find_lists(first.responses, first.scripts, person_id, shape, known, values)
    findings = Findings(url, person_url, person_id, shape, clicks=first.clicks,
                        blocked=list(first.blocked))
    findings.undecided.extend(notes)
    findings.relations, findings.items = choose_lists(found, findings.undecided)
    kinds = {f.kind for f in findings.relations if f.kind}
    if len(kinds) < 2:  # relations only in the DOM, behind tabs (or some of them)
        dom, dom_notes = await dom_lists(context, url, shape, person_url, job.ajax, kinds)
        findings.relations.extend(dom)
        findings.undecided.extend(dom_notes)
        for f in dom:
            findings.undecided.extend(f"{f.tab}: {n}" for n in f.notes if "recycled" not in n)
    if not findings.relations:
        raise NotAPerson(
            f"{url}: no list of people found among the JSON this page fetched or embedded or behind "
            f"its tabs (people would be {shape.template()}); give a person's page, and --job with a "
            "[session] if the site needs a login"
            + (f"; undecided: {'; '.join(findings.undecided)}" if findings.undecided else ""), first.links)
    for f in found:
        findings.undecided.extend(f"{f.url or f.script}: {n}" for n in f.notes)
    return findings, first, known


async def _from_links(context: BrowserContext, url: str, job: JobConfig,
                      failure: NotAPerson) -> tuple[Findings, Observation, set[str]]:
    """The given page is nobody's (a member list, a feed, a thread): try the pages its links lead
    to, most common link shape first (a member list's entries, a feed's author links)."""
    for candidate in person_candidates(failure.links, url)[:CANDIDATE_PAGES]:
        try:
            findings, first, known = await _person(context, candidate, job)
        except NotAPerson:
            continue
        findings.undecided.insert(0, f"{url} is not a person's page ({failure}); started from "
                                     f"{candidate}, one of its links")
        findings.url = url
        return findings, first, known
    raise failure


def person_candidates(links: list[str], page_url: str, limit: int = 300) -> list[str]:
    """One link per URL shape shared by several links of a page, the most common shapes first."""
    links = [u for u in dict.fromkeys(links) if u.split("#")[0] != page_url.split("#")[0]][:limit]
    counts: dict[PersonShape, int] = {}
    example: dict[PersonShape, str] = {}
    for i, a in enumerate(links):
        for b in links[i + 1:]:
            for shape in shapes_between(a, b):
                counts[shape] = counts.get(shape, 0) + 1
                example.setdefault(shape, a)
    ranked = sorted((s for s in counts if counts[s] >= 2), key=lambda s: -counts[s])
    return [example[s] for s in ranked]


async def _learn_fields(context: BrowserContext, job: JobConfig, findings: Findings, first: Observation,
                        known: set[str]) -> None:
    """Open a second person and learn the person fields from the two pages (see the module doc)."""
    shape, me = findings.shape, findings.person_id
    entries: dict[str, dict[str, str]] = {}
    for lst in findings.relations:
        for pid, entry in lst.people.items():
            entries.setdefault(pid, entry)
    tried = 0
    fallback: tuple[Observation, str] | None = None
    for other in [p for p in entries if p != me]:
        if tried >= SECOND_PERSON_TRIES:
            break
        tried += 1
        second_url = canonical_url(urljoin(findings.person_url, shape.template().format(id=other)))
        obs = await observe(context, second_url, job.ajax)
        found, _ = find_lists(obs.responses, obs.scripts, other, shape, known,
                              person_values(obs.scripts, obs.html))
        mine = next((lst.people[me] for lst in found if lst.role == "relation" and me in lst.people), None)
        if mine is None:
            mine = await _in_dom_lists(context, second_url, findings, me)
        if mine is None:
            fallback = fallback or (obs, other)
            continue
        findings.second_person = other
        findings.fields = learn_person_fields(
            (first.html, obs.html), (wanted_values(mine, me), wanted_values(entries[other], other)),
            (me, other))
        return
    if fallback is not None:
        obs, other = fallback
        findings.second_person = other
        findings.fields = learn_person_fields(
            (first.html, obs.html), ({}, wanted_values(entries[other], other)), (me, other))
        findings.undecided.append(f"fields: {me} is in none of the lists of {tried} people opened, so they "
                                  f"were learned from {other}'s page alone")
        return
    findings.undecided.append("fields: no second person to learn the person fields from")


async def _in_dom_lists(context: BrowserContext, url: str, findings: Findings,
                        me: str) -> dict[str, str] | None:
    """``me``'s entry (its text as ``name``) in the DOM relation lists of the person page at ``url``."""
    for lst in findings.relations:
        if lst.source != "dom" or lst.entries_css is None:
            continue
        source = ListSource(source="dom", tab=lst.tab, more=lst.more, entries=lst.entries_css,
                            scroll=lst.scroll, fields={"url": "@href", "name": ""}, timeout_ms=30_000)
        page = await context.new_page()
        try:
            await page.goto(url, wait_until="load")
            answer = await read_list(page, source, {})
        finally:
            await page.close()
        for entry in answer["entries"]:
            if entry.get("url") and findings.shape.id_of(urljoin(url, entry["url"])) == me:
                return {"name": entry["name"]} if entry.get("name") else None
    return None
