"""From a fetched page to what the writer commits: canonical links, scoped new URLs, the page row.

Links enter the frontier through the scope and then the trap rules (:mod:`browsercrawl.frontier.traps`):
a URL cut as a trap is recorded with the page (``trap_cuts``) instead of queued.

CPU work (canonicalising and scoping hundreds of links), so the crawler runs it in a thread,
unless the page is small (:meth:`OutcomeBuilder.inline`).
"""

from __future__ import annotations

from browsercrawl.engine.language import page_language
from browsercrawl.engine.parse import parse_inline
from browsercrawl.engine.parts import LinkPriority
from browsercrawl.engine.result import FetchResult
from browsercrawl.engine.writer import Outcome, page_row
from browsercrawl.frontier.base import Completion, NewUrl, Request, SeenSet
from browsercrawl.frontier.scope import Scope
from browsercrawl.frontier.traps import CHAIN_TABLE, CUT_TABLE, TrapGuard
from browsercrawl.frontier.urls import canonical_url, host_key

# Pages with up to this many links are built on the event loop (see ``OutcomeBuilder.inline``).
INLINE_LINKS = 64


def default_priority(req: Request, url: str, text: str) -> float:
    """Breadth first: a link waits with its depth."""
    return float(req.depth + 1)


class OutcomeBuilder:
    """Turns a :class:`FetchResult` into an :class:`Outcome` (see module docstring)."""

    def __init__(self, scope: Scope, link_priority: LinkPriority, store_html: bool,
                 traps: TrapGuard) -> None:
        self.scope = scope
        self.traps = traps
        self.link_priority = link_priority
        self.store_html = store_html

    def inline(self, result: FetchResult) -> bool:
        """Whether building ``result``'s outcome costs less than handing it to a thread: few links
        (cached canonical forms make most a dict look-up), a small page to compress, no language to
        detect. Like the parse (``parse.INLINE_PARSE_CHARS``), it blocks the loop well under 1 ms."""
        return (len(result.links) + len(result.extra_urls) <= INLINE_LINKS
                and (result.html is None or parse_inline(result.html))
                and not self.scope.config.languages)

    def build(self, req: Request, result: FetchResult, seen: SeenSet) -> Outcome:
        """``seen`` holds the URLs already in the frontier; new ones are added to it. A page in a
        language ``scope.languages`` leaves out is skipped: not stored, its links not followed."""
        wanted = self.scope.config.languages
        if wanted and result.html is not None:
            lang = page_language(result.html, result.text, result.headers)
            if lang is not None and lang not in wanted:
                why = f"language {lang!r} is not in scope.languages"
                return Outcome(Completion(req, "skipped", error=why))
        final = canonical_url(result.final_url) if result.final_url.startswith("http") else req.url
        depth = req.depth + 1
        links: list[tuple[str, str, int]] = []
        new_urls: list[NewUrl] = []
        extra_rows = result.extra_rows
        for href, text in result.links:
            try:
                url = self.traps.clean(canonical_url(href))
            except ValueError:
                continue
            in_scope = self.scope.allows(url, depth)
            links.append((url, text, int(in_scope)))
            if in_scope and url not in seen:
                prio = self.link_priority(req, url, text)
                if prio is None or not self._admit(req.url, url, extra_rows):
                    continue
                seen.add(url)
                new_urls.append(NewUrl(url, host_key(url), depth, prio, req.url))
        for href, kind in result.extra_urls:
            try:
                url = self.traps.clean(canonical_url(href))
            except ValueError:
                continue
            if url not in seen and self.scope.allows(url, depth) and self._admit(req.url, url, extra_rows):
                seen.add(url)
                new_urls.append(NewUrl(url, host_key(url), depth, float(depth), req.url, kind))
        row = page_row(result, final, req.depth, req.parent, req.kind, self.store_html)
        return Outcome(Completion(req, "done"), page=row, links=links, new_urls=new_urls,
                       extra_rows=extra_rows)

    def _admit(self, parent: str, url: str, extra_rows: dict[str, list[dict]]) -> bool:
        """The trap rules' verdict on a new in-scope URL; its chain or its cut joins the page's rows."""
        verdict = self.traps.judge(parent, url)
        if verdict.rule is not None:
            extra_rows.setdefault(CUT_TABLE, []).append(TrapGuard.cut_row(parent, url, verdict.rule))
            return False
        if verdict.chain > 1:
            extra_rows.setdefault(CHAIN_TABLE, []).append(TrapGuard.chain_row(url, verdict.chain))
        return True
