"""The bootstrapping focused crawler, without the engine: pages in, verdicts and the next links out.

``FocusCore`` holds every link the crawl found and has not fetched yet (the waiting links), the
target discriminator (``target.py``) and the path discriminator (``path.py``). Each fetched page
is scored, labelled and taught to the path model (``observe``); each link of it is offered
(``offer``); when the crawl has nothing left, the best waiting links of each site are released
(``take``), re-scored with everything learned since they were found:

    R(l) = h1 * R(anchor) + h2 * R(page holding it) + h3 * R(predicted target)

* R(anchor): the path discriminator's score of the link's hop and the hops that reached its page;
* R(page holding it): the share of the pages fetched through its links that were targets
  (smoothed; the best of the pages known to link to it);
* R(predicted target): the link's anchor words and URL tokens compared with the examples' titles
  and URLs (what the target will look like, guessed before fetching it).

Links below ``link_threshold`` are released only when no site has a better link left. The part
(``part.py``) drives this from the engine; the benchmark drives the same object over an in-memory
site, so what is measured is what runs.
"""

from __future__ import annotations

import heapq
import threading
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from browsercrawl.focus.features import PageFeatures, link_tokens, url_tokens, words
from browsercrawl.focus.path import PathModel
from browsercrawl.focus.target import TargetModel, TargetSettings
from browsercrawl.focus.tfidf import cosine

RESCORE_SHARE = 0.1  # every waiting link is re-scored after 10% more pages read...
RESCORE_MIN_PAGES = 10  # ...or 10 pages, whichever is more


@dataclass(frozen=True)
class LinkWeights:
    anchor: float = 0.25  # h1 (the defaults were measured: docs/focus.md)
    page: float = 0.75  # h2
    predicted: float = 0.0  # h3


@dataclass(frozen=True)
class FocusSettings:
    target: TargetSettings
    links: LinkWeights = LinkWeights()
    link_threshold: float = 0.2
    round_every: int = 5  # new targets between two bootstrapping rounds
    path_weight: float = 0.6
    keywords: tuple[str, ...] = ()


@dataclass
class Node:
    """A URL the focused crawl knows: how it was reached and, once fetched, what it was."""

    url: str
    host: str
    depth: int
    parent: str | None = None  # on the shortest known path from the root (the path discriminator's)
    parents: list[str] = field(default_factory=list)  # every page seen linking to it (first few)
    anchor: Counter[str] = field(default_factory=Counter)
    url_tokens: tuple[str, ...] = ()
    fetched: bool = False
    score: float = 0.0
    target: bool = False
    led: bool = False  # its hop was counted as leading to a target
    children: int = 0  # fetched pages reached through it
    child_targets: int = 0
    out: list[str] = field(default_factory=list)  # the links found on it (once fetched)
    r: float | None = None  # its R(l) when last scored (waiting links)

    @property
    def hop(self) -> tuple[str, ...]:
        return tuple(self.anchor) + self.url_tokens


@dataclass
class Verdict:
    """What the crawl stores for one fetched page."""

    url: str
    host: str
    kind: str  # "target" | "other"
    score: float
    round: int  # the example set's round that labelled it
    seq: int  # the page's place in this site's crawl (1 = first)
    depth: int
    path: str  # anchor texts from the site's root, " > " separated
    example_round: int | None = None  # set once it joined the examples


def host_of(url: str) -> str:
    return urlsplit(url).netloc.lower()


class FocusCore:
    """See module docstring. Thread-safe: links are offered from the engine's worker threads."""

    def __init__(self, settings: FocusSettings, examples: list[str]) -> None:
        self.settings = settings
        self.model = TargetModel(settings.target)
        self.path = PathModel(path_weight=settings.path_weight)
        self.nodes: dict[str, Node] = {}
        self.waiting: dict[str, dict[str, Node]] = {}  # host -> url -> node not fetched yet
        self.example_urls = list(dict.fromkeys(examples))
        self.examples_pending = set(self.example_urls)
        self.examples_asked = False
        self.verdicts: dict[str, Verdict] = {}
        self.candidates: dict[str, PageFeatures] = {}  # labelled targets not yet examples
        self.seq: Counter[str] = Counter()
        self.targets_since_round = 0
        self.scored_at = -1  # pages read when every waiting link was last re-scored
        self.dirty: set[str] = set()  # waiting links to re-score at the next release
        self.lock = threading.RLock()
        for kw in settings.keywords:
            self.path.prior(words(kw), weight=2)

    # -- state ------------------------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        """The examples are read and the threshold set: scores mean something."""
        return self.model.threshold is not None

    def example_failed(self, url: str) -> None:
        with self.lock:
            self.examples_pending.discard(url)
            self._maybe_settle()

    def _maybe_settle(self) -> None:
        if not self.examples_pending and not self.ready and self.model.examples:
            self.model.settle_threshold()

    # -- pages ------------------------------------------------------------------------------------
    def observe(self, url: str, title: str | None, text: str | None, html: str | None,
                depth: int = 0) -> tuple[Verdict, list[Verdict]]:
        """Score and label a fetched page; returns its verdict and the verdicts of pages that a
        bootstrapping round just admitted to the examples (their stored rows change)."""
        with self.lock:
            if url in self.verdicts:  # fetched both ways (auto mode's samples): learn from it once
                return self.verdicts[url], []
        feats = PageFeatures.of(url, title, text, html)
        with self.lock:
            if url in self.verdicts:
                return self.verdicts[url], []
            node = self.nodes.get(url)
            host = host_of(url)
            if node is None:
                node = self.nodes[url] = Node(url, host, depth)
            self._unwait(node)
            node.fetched = True
            self.model.observe(feats)
            if url in self.examples_pending:
                self.model.add_given(feats)
                self.examples_pending.discard(url)
                for t in (*feats.bags["title"], *url_tokens(url)):
                    self.path.prior([t])
                self._maybe_settle()
            score = self.model.similarity(feats) if self.model.examples else 0.0
            node.score = score
            node.target = url in self.example_urls or (self.ready and self.model.is_target(score))
            self.path.fetched(node.hop)
            for holder in (self.nodes.get(u) for u in node.parents):
                if holder is not None:
                    holder.children += 1
                    holder.child_targets += int(node.target)
                    self.dirty.update(holder.out)  # its yield changed: so did R of its links
            if node.target:
                self._credit_path(node)
                if url not in self.example_urls:
                    self.candidates[url] = feats
                self.targets_since_round += 1
            self.seq[host] += 1
            verdict = Verdict(url, host, "target" if node.target else "other", round(score, 4),
                              self.model.round, self.seq[host], node.depth, self._path_text(node))
            if url in self.example_urls:
                verdict.example_round = 0
            self.verdicts[url] = verdict
            admitted = self._bootstrap() if node.target else []
            return verdict, admitted

    def _credit_path(self, node: Node) -> None:
        """Every hop from the root to a new target led to a target (each hop counted once)."""
        cur: Node | None = node
        while cur is not None and not cur.led:
            cur.led = True
            self.path.led_to_target(cur.hop)
            cur = self.nodes.get(cur.parent) if cur.parent else None

    def _bootstrap(self) -> list[Verdict]:
        if self.targets_since_round < self.settings.round_every:
            return []
        self.targets_since_round = 0
        cands = [(self.verdicts[u].score, f) for u, f in self.candidates.items()]
        admitted = self.model.admit(cands)
        out = []
        for page in admitted:
            self.candidates.pop(page.url, None)
            v = self.verdicts[page.url]
            v.example_round = self.model.round
            out.append(v)
        return out

    def _path_text(self, node: Node, limit: int = 12) -> str:
        hops = []
        cur: Node | None = node
        while cur is not None and len(hops) < limit:
            hops.append(" ".join(cur.anchor) or cur.url)
            cur = self.nodes.get(cur.parent) if cur.parent else None
        return " > ".join(reversed(hops))

    # -- links ------------------------------------------------------------------------------------
    def offer(self, parent_url: str, url: str, anchor: str) -> None:
        """A link found on a fetched page; it waits until :meth:`take` releases it."""
        with self.lock:
            node = self.nodes.get(url)
            if node is not None and node.fetched:
                return
            parent = self.nodes.get(parent_url)
            anchor_words, toks = link_tokens(url, anchor)
            if parent is not None:
                parent.out.append(url)
            if node is None:
                host = host_of(url)
                node = self.nodes[url] = Node(url, host, (parent.depth + 1) if parent else 1,
                                              parent_url, [parent_url], Counter(anchor_words), toks)
                self.waiting.setdefault(host, {})[url] = node
                self.dirty.add(url)
                return
            if node.host not in self.waiting or url not in self.waiting[node.host]:
                return  # already released
            node.anchor.update(w for w in anchor_words if w not in node.anchor)
            self.dirty.add(url)
            if parent_url not in node.parents and len(node.parents) < 8:
                node.parents.append(parent_url)
            if parent is not None and parent.depth + 1 < node.depth:
                node.parent = parent_url
                node.depth = parent.depth + 1

    def _unwait(self, node: Node) -> None:
        waiting = self.waiting.get(node.host)
        if waiting is not None:
            waiting.pop(node.url, None)

    def relevance(self, node: Node, examples: list[tuple[dict, dict]] | None = None,
                  paths: dict[str | None, float | None] | None = None) -> float:
        """R(l) of a waiting link (see module docstring); ``examples``: :meth:`_example_vectors`;
        ``paths``: the path scores of pages already computed in this round (siblings share one)."""
        w = self.settings.links
        if paths is not None and node.parent in paths:
            along = paths[node.parent]
        else:
            path: list[tuple[str, ...]] = []
            cur = self.nodes.get(node.parent) if node.parent else None
            while cur is not None and len(path) < 8:
                if cur.hop:
                    path.append(cur.hop)
                cur = self.nodes.get(cur.parent) if cur.parent else None
            along = self.path.path_score(path)
            if paths is not None:
                paths[node.parent] = along
        r_anchor = self.path.mix(node.hop, along)
        r_page = self._page_relevance(node)
        if not w.predicted:
            return w.anchor * r_anchor + w.page * r_page
        r_pred = self._predicted(node, self._example_vectors() if examples is None else examples)
        return w.anchor * r_anchor + w.page * r_page + w.predicted * r_pred

    def _page_relevance(self, node: Node) -> float:
        """R(page holding it): the best yield of the pages linking to it (targets among the pages
        fetched through its links, smoothed). Measured against the holder's own similarity to the
        examples, which sends the crawl into the navigation of every target page (docs/focus.md)."""
        best = 0.0
        for holder in (self.nodes.get(u) for u in node.parents):
            if holder is not None:
                best = max(best, holder.child_targets / (holder.children + 1))
        return best

    def _example_vectors(self) -> list[tuple[dict, dict]]:
        title_vocab, url_vocab = self.model.vocab["title"], self.model.vocab["url"]
        return [(title_vocab.vector(ex.features.bags["title"]), url_vocab.vector(ex.features.bags["url"]))
                for ex in self.model.examples]

    def _predicted(self, node: Node, examples: list[tuple[dict, dict]]) -> float:
        """The link's anchor and URL against the examples' titles and URLs."""
        if not examples:
            return 0.0
        a = self.model.vocab["title"].vector(node.anchor)
        u = self.model.vocab["url"].vector(Counter(node.url_tokens))
        return max(0.5 * cosine(a, et) + 0.5 * cosine(u, eu) for et, eu in examples)

    def take(self, per_host: int) -> list[Node]:
        """Release the best ``per_host`` waiting links of every site (first the examples)."""
        with self.lock:
            if not self.examples_asked:
                self.examples_asked = True
                if self.examples_pending:
                    out = []
                    for url in sorted(self.examples_pending):
                        node = self.nodes.get(url) or Node(url, host_of(url), 0)
                        self.nodes[url] = node
                        self._unwait(node)
                        out.append(node)
                    return out
            for url in list(self.examples_pending):  # asked for and still unread: not fetchable
                self.example_failed(url)
            self._rescore()
            ranked: dict[str, list[tuple[float, Node]]] = {}
            for host, waiting in self.waiting.items():
                if waiting:  # best R first, then the shallower, then the first found
                    best = heapq.nlargest(per_host, waiting.values(), key=lambda n: (n.r or 0.0, -n.depth))
                    ranked[host] = [(n.r or 0.0, n) for n in best]
            # Links under the threshold wait while any site still has a better one.
            floor = self.settings.link_threshold
            strong = any(r[0][0] >= floor for r in ranked.values())
            out = []
            for host, scored in ranked.items():
                chosen = [n for r, n in scored[:per_host] if r >= floor or not strong]
                for n in chosen:
                    self.waiting[host].pop(n.url)
                out.extend(chosen)
            return out

    def _rescore(self) -> None:
        """Score new links and those whose holders' yield changed; every link again once the crawl
        has read ``RESCORE_SHARE`` more pages (what the path discriminator learned moves slowly),
        so a release costs little even with tens of thousands of links waiting."""
        pages = sum(self.seq.values())
        full = pages - self.scored_at >= max(RESCORE_MIN_PAGES, RESCORE_SHARE * pages)
        if full:
            self.scored_at = pages
        ex = self._example_vectors() if self.settings.links.predicted else []
        paths: dict[str | None, float | None] = {}
        if full:
            todo = [n for waiting in self.waiting.values() for n in waiting.values()]
        else:
            todo = [n for n in (self.nodes.get(u) for u in self.dirty)
                    if n is not None and n.url in self.waiting.get(n.host, {})]
        for n in todo:
            n.r = self.relevance(n, ex, paths)
        self.dirty.clear()

    def waiting_count(self) -> int:
        with self.lock:
            return sum(len(w) for w in self.waiting.values())
