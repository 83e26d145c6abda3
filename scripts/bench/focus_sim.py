"""The focused crawler's algorithm over in-memory fixture sites, without the engine: for tuning.

``simulate`` drives the product's :class:`~browsercrawl.focus.core.FocusCore` exactly as the part
does (roots first, then the examples, then the best waiting links of each site, a batch per idle
moment) but reads pages from the generated sites instead of fetching them, so a grid of weights
runs in seconds. The benchmark's figures come from real crawls (``scripts/bench_focus.py``); this
only picks the settings those crawls use, on the tuning sites.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from browsercrawl_demo.focus_sites import Site

from browsercrawl.engine.parse import parse_page
from browsercrawl.focus.core import FocusCore, FocusSettings


@dataclass
class Run:
    order: dict[str, list[str]] = field(default_factory=dict)  # host -> URLs in fetch order
    labelled: dict[str, str] = field(default_factory=dict)  # url -> kind


def _page(sites: dict[str, Site], url: str) -> tuple[str, str, str, list[tuple[str, str]]] | None:
    host, path = url.split("://", 1)[1].split("/", 1)
    site = sites[host]
    html = site.html("/" + path)
    if html is None:
        return None
    title, text, links, _ = parse_page(html, url)
    links = [(u.replace("&amp;", "&"), a) for u, a in links if u.split("://", 1)[1].split("/", 1)[0] == host]
    return title, text, html, links


def simulate(sites: dict[str, Site], examples: list[str], settings: FocusSettings,
             per_host: int = 2) -> Run:
    core = FocusCore(settings, examples)
    run = Run()
    todo: deque[tuple[str, int]] = deque((f"http://{h}{s.root}", 0) for h, s in sites.items())
    while True:
        while todo:
            url, depth = todo.popleft()
            got = _page(sites, url)
            host = url.split("://", 1)[1].split("/", 1)[0]
            if got is None:
                core.example_failed(url)
                continue
            title, text, html, links = got
            verdict, _ = core.observe(url, title, text, html, depth)
            run.order.setdefault(host, []).append(url)
            run.labelled[url] = verdict.kind
            for link, anchor in links:
                core.offer(url, link, anchor)
        batch = core.take(per_host)
        if not batch:
            return run
        todo.extend((n.url, n.depth) for n in batch)


def breadth_first(sites: dict[str, Site]) -> Run:
    run = Run()
    for host, site in sites.items():
        start = f"http://{host}{site.root}"
        seen = {start}
        todo = deque([start])
        order = run.order.setdefault(host, [])
        while todo:
            url = todo.popleft()
            got = _page(sites, url)
            if got is None:
                continue
            order.append(url)
            for link, _ in got[3]:
                if link not in seen:
                    seen.add(link)
                    todo.append(link)
    return run


def prefix_figures(sites: dict[str, Site], run: Run, share: float,
                   exclude: set[str] = frozenset()) -> dict[str, dict[str, float]]:
    """Per site: recall and harvest of the first ``share`` of its pages, and labelled precision."""
    out = {}
    for host, site in sites.items():
        truth = {f"http://{host}{p}" for p in site.targets()} - exclude
        budget = max(1, round(share * len(site.pages)))
        got = [u for u in run.order.get(host, [])][:budget]
        found = [u for u in got if u in truth]
        labelled = [u for u in got if run.labelled.get(u) == "target" and u not in exclude]
        right = [u for u in labelled if u in truth]
        out[host] = {
            "recall": len(found) / len(truth) if truth else 0.0,
            "harvest": len(found) / len(got) if got else 0.0,
            "labelled": len(labelled),
            "precision": len(right) / len(labelled) if labelled else 1.0,
            "labelled_recall": len(right) / len(truth) if truth else 0.0,
        }
    return out
