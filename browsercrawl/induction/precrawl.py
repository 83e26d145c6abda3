"""The initialisation pre-crawl and the induction of a site profile from it.

Written against :class:`PageSource`, a one-method async protocol, so any fetcher (the browser
engine, a directory of saved pages, an HTTP client) can drive it. The pre-crawl visits pages
lowest tunneling weight first (a URL waits with its parent's weight as priority), records per
page its weight and how many URLs it holds, and stops after ``max_pages``. Then:

* target candidates = pages with markedly fewer URLs than the entry page (``pages.classify_pages``);
* all known URLs are clustered once and every cluster gets a regex that excludes the others;
* the target class is the cluster holding the sample target URLs when they are given (the user
  named them), else the cluster holding most target candidates (the paper's rule);
* the 10 largest other clusters become directory classes; the weight threshold is
  ``round(mean weight)``; the wrapper is learned from the sample pages and checked
  on the target-class pages the pre-crawl kept (``PrecrawlResult.target_html``).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urljoin

import lxml.html

from browsercrawl.errors import UserError
from browsercrawl.induction.clustering import UrlCluster, cluster_parsed
from browsercrawl.induction.pages import (
    TunnelingScorer,
    classify_pages,
    text_without_links,
    weight_threshold,
)
from browsercrawl.induction.profile import ClusterReport, SiteProfile
from browsercrawl.induction.regex import assign_regexes, cluster_regex
from browsercrawl.induction.urlmodel import ParsedUrl, canonical, parse_url
from browsercrawl.wrappers import learn_wrapper

MAX_DIRECTORY_CLASSES = 10
# Pages of the (provisional) target class whose HTML the pre-crawl keeps: the wrapper learner
# checks its candidate paths on them. A few dozen tell a path that works from a coincidence.
MAX_KEPT_TARGETS = 40


@dataclass
class FetchedPage:
    """One fetched page: ``links`` are absolute URLs with their anchor text."""

    url: str
    final_url: str
    html: str
    text: str
    links: list[tuple[str, str]] = field(default_factory=list)


class PageSource(Protocol):
    """Anything that can fetch a page; raising means the page failed (recorded, not fatal)."""

    async def fetch(self, url: str) -> FetchedPage: ...


@dataclass
class PageRecord:
    url: str  # canonical final URL
    weight: int
    url_count: int
    parent: str | None


@dataclass
class PrecrawlResult:
    pages: dict[str, PageRecord]
    discovered: list[str]  # every canonical in-scope URL seen, fetched or not
    errors: dict[str, str]
    entry: str  # canonical final URL of the first entry page
    # HTML of up to MAX_KEPT_TARGETS pages matching the provisional target regex, by final URL.
    target_html: dict[str, str] = field(default_factory=dict)


class HtmlPageSource:
    """A :class:`PageSource` over pages already in hand (saved files, a dict, a test site).

    Links are read from ``a[href]`` with lxml and resolved against the page URL (and a
    ``<base href>``); an unknown URL raises ``KeyError`` like a 404 would fail a fetch.
    """

    def __init__(self, pages: Mapping[str, str]) -> None:
        self._pages = {parse_url(u).url: html for u, html in pages.items()}

    async def fetch(self, url: str) -> FetchedPage:
        canon = parse_url(url).url
        html = self._pages[canon]
        text, links = await asyncio.to_thread(_links_and_text, canon, html)
        return FetchedPage(canon, canon, html, text, links)


def _links_and_text(url: str, html: str) -> tuple[str, list[tuple[str, str]]]:
    root = lxml.html.document_fromstring(html.encode("utf-8")) if html.strip() else None
    if root is None:
        return "", []
    base = root.xpath("string(//base/@href)") or url
    links = []
    for a in root.xpath("//a[@href]"):
        href = a.get("href", "").strip()
        if href and not href.startswith(("#", "javascript:", "mailto:", "tel:")):
            links.append((urljoin(urljoin(url, base), href), " ".join(a.text_content().split())))
    return " ".join(root.text_content().split()), links


def _in_scope(url: str, hosts: set[str]) -> ParsedUrl | None:
    try:
        p = parse_url(url)
    except UserError:
        return None
    return p if p.host in hosts else None


async def precrawl(
    source: PageSource,
    entry_urls: Sequence[str],
    scorer: TunnelingScorer,
    *,
    max_pages: int = 2000,
    concurrency: int = 4,
    extra_hosts: Iterable[str] = (),
    keep_html: Callable[[str], bool] | None = None,
) -> PrecrawlResult:
    """Pre-crawl from ``entry_urls`` on their hosts, lowest tunneling weight first.

    Pages whose final URL passes ``keep_html`` keep their HTML (up to ``MAX_KEPT_TARGETS``).
    """
    if not entry_urls:
        raise UserError("the pre-crawl needs at least one entry URL")
    entries = [parse_url(u) for u in entry_urls]
    hosts = {p.host for p in entries} | set(extra_hosts)
    seq = itertools.count()
    heap: list[tuple[int, int, str, str | None, int | None]] = []
    seen: dict[str, None] = {}
    for p in entries:
        if p.url not in seen:
            seen[p.url] = None
            heapq.heappush(heap, (0, next(seq), p.url, None, None))
    pages: dict[str, PageRecord] = {}
    errors: dict[str, str] = {}
    entry_final: str | None = None
    kept: dict[str, str] = {}
    in_flight: dict[asyncio.Task, tuple[str, str | None, int | None]] = {}

    async def fetch_one(url: str) -> tuple[FetchedPage, str]:
        page = await source.fetch(url)
        text = await asyncio.to_thread(text_without_links, page.html) if page.html else page.text
        return page, text

    started = 0
    while heap or in_flight:
        while heap and len(in_flight) < concurrency and started < max_pages:
            _, _, url, parent, parent_weight = heapq.heappop(heap)
            started += 1
            task = asyncio.create_task(fetch_one(url))
            in_flight[task] = (url, parent, parent_weight)
        if not in_flight:
            break
        done, _ = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            url, parent, parent_weight = in_flight.pop(task)
            try:
                page, text = task.result()
            except Exception as exc:  # a failed page is data for the report, not a crash
                errors[url] = f"{type(exc).__name__}: {exc}"
                continue
            final = _in_scope(page.final_url or url, hosts)
            final_url = final.url if final else url
            links: dict[str, None] = {}
            for href, _anchor in page.links:
                p = _in_scope(href, hosts)
                if p is not None:
                    links[p.url] = None
            all_links = {h for h, _ in page.links if h.startswith(("http://", "https://"))}
            weight = scorer.weight(final_url, parent_weight, text, links)
            pages[final_url] = PageRecord(final_url, weight, len(all_links), parent)
            if keep_html is not None and len(kept) < MAX_KEPT_TARGETS and page.html and keep_html(final_url):
                kept[final_url] = page.html
            if entry_final is None and parent is None:
                entry_final = final_url
            seen.setdefault(final_url, None)
            for link in links:
                if link not in seen:
                    seen[link] = None
                    heapq.heappush(heap, (weight, next(seq), link, final_url, weight))
    if entry_final is None:
        first = entries[0].url
        raise UserError(f"entry page {first} could not be fetched: {errors.get(first, 'unknown')}")
    return PrecrawlResult(pages, list(seen), errors, entry_final, kept)


def derive_profile(
    result: PrecrawlResult,
    *,
    entry_urls: Sequence[str],
    sample_urls: Sequence[str] = (),
    keywords: str | None = None,
    max_directories: int = MAX_DIRECTORY_CLASSES,
    examples: int = 3,
) -> SiteProfile:
    """Target and directory regexes, thresholds and a cluster report from a pre-crawl."""
    counts = {u: r.url_count for u, r in result.pages.items()}
    kinds = classify_pages(counts, result.entry)
    candidates = set(kinds.targets)
    samples = {parse_url(u).url for u in sample_urls}
    urls = [*result.discovered, *sorted(samples - set(result.discovered))]
    clusters = cluster_parsed(parse_url(u) for u in urls)
    assign_regexes(clusters)

    def rank(c: UrlCluster) -> tuple[int, int, int]:
        members = {p.url for p in c.members}
        return (len(members & samples), len(members & candidates), c.size)

    target = max(clusters, key=rank) if clusters else None
    if target is not None and rank(target)[:2] == (0, 0):
        target = None
    others = [c for c in clusters if c is not target]
    directories = others[:max_directories]
    report = []
    for c in clusters:
        role = "target" if c is target else "directory" if c in directories else "other"
        members = {p.url for p in c.members}
        report.append(ClusterReport(c.regex, c.size, role, c.urls()[:examples], len(members & candidates)))
    return SiteProfile(
        entry_urls=list(entry_urls),
        target_regex=target.regex if target else None,
        directory_regexes=[c.regex for c in directories],
        weight_threshold=weight_threshold(r.weight for r in result.pages.values()),
        keywords=keywords,
        link_threshold=kinds.threshold,
        clusters=report,
    )


def provisional_target_regex(sample_urls: Sequence[str]) -> str | None:
    """Before the pre-crawl: a regex generalising the sample target URLs (same host and depth)."""
    parsed = [parse_url(u) for u in sample_urls]
    if not parsed or len({p.group for p in parsed}) != 1:
        return None
    host, m = parsed[0].group
    return cluster_regex(UrlCluster(host, m, parsed))


async def induce(
    source: PageSource,
    entry_urls: Sequence[str],
    samples: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    keywords: str | None = None,
    max_pages: int = 2000,
    concurrency: int = 4,
) -> tuple[SiteProfile, PrecrawlResult, list[str]]:
    """The whole initialisation: pre-crawl, profile, wrapper from the sample target pages.

    The wrapper learner also gets the pre-crawled pages of the target class (values unknown) to
    check its paths on and to report each field's found-rate (in the warnings when weak).

    ``samples`` are ``(url, label -> value or [values])``; returns the profile, the pre-crawl
    (for reports) and the wrapper warnings.
    """
    if len(samples) < 2:
        raise UserError(f"induction needs at least two sample target pages, got {len(samples)}")
    sample_urls = [u for u, _ in samples]
    provisional = provisional_target_regex(sample_urls)
    scorer = TunnelingScorer(keywords, provisional)
    keep = re.compile(provisional).match if provisional else None
    result = await precrawl(
        source,
        entry_urls,
        scorer,
        max_pages=max_pages,
        concurrency=concurrency,
        extra_hosts={parse_url(u).host for u in sample_urls},
        keep_html=(lambda url: bool(keep(canonical(url)))) if keep else None,
    )
    # Clustering thousands of URLs is CPU work: keep it off the event loop.
    profile = await asyncio.to_thread(
        derive_profile, result, entry_urls=entry_urls, sample_urls=sample_urls, keywords=keywords
    )
    fetched = await asyncio.gather(*(source.fetch(u) for u in sample_urls))
    # The other pages of the target class the pre-crawl saw: the learner checks paths on them.
    sample_set = {parse_url(u).url for u in sample_urls} | {f.final_url for f in fetched}
    others = [h for u, h in result.target_html.items() if u not in sample_set and profile.is_target(u)]
    learned = await asyncio.to_thread(
        learn_wrapper,
        [f.html for f in fetched],
        [values for _, values in samples],
        sample_urls,
        others,
    )
    profile.wrapper = learned.wrapper
    return profile, result, learned.warnings
