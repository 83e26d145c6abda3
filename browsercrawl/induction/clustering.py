"""Single-pass URL clustering with the position-weighted similarity and a dynamic threshold.

The paper's loop compares every URL with every member of every cluster (quadratic). Here:

* URLs are grouped by (host, number of path segments) first: the similarity is 0 across groups.
* Similarity only depends on segment *signatures* (digits and slugs blanked), so URLs with the
  same signature tuple are indistinguishable to the algorithm; the first decides, the rest follow
  through a dictionary look-up.
* The mean similarity of a URL to a cluster decomposes per position,
  ``mean_s = sum_k w_k * sum_v p_k(v) * f(u_k, v)``, where ``p_k(v)`` is the share of members with
  signature ``v`` at position k. Each cluster keeps those counts (the first ``max_distinct``
  distinct values per position, a bounded sample where ids are not digits), so one comparison
  costs a few rapidfuzz calls however large the cluster is.
* A URL joins the *most* similar cluster whose mean similarity reaches ``h(m)`` (the paper takes
  the first; best-fit no longer depends on the order clusters were opened in).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from rapidfuzz.distance import Levenshtein

from browsercrawl.induction.similarity import max_similarity, position_weights
from browsercrawl.induction.urlmodel import ParsedUrl, parse_url, segment_signature

Threshold = Callable[[int], float]


def dynamic_threshold(m: int) -> float:
    """h(m): the normalised mean similarity a URL needs to join a cluster of m-segment URLs.

    ``h(m) = 0.7 + 0.1 / m`` in units of the maximum ``m(m+1)/2`` (0.8 for one segment, 0.75 for
    two, towards 0.7 for deep paths). One segment must nearly match (``list.php`` and ``view.php``
    are different pages); with more segments a variable word in a middle position (a category or
    forum name) must not split a class. The constants come from a scan of flat thresholds per m
    on labelled URL sets (tests/fixtures/induction/urls): see docs/induction.md.
    """
    if m <= 0:
        return 0.0
    return 0.7 + 0.1 / m


@dataclass
class UrlCluster:
    """One URL class: same host, same segment count, mean similarity above h(m)."""

    host: str
    m: int
    members: list[ParsedUrl] = field(default_factory=list)
    regex: str = ""
    id: int = -1

    @property
    def size(self) -> int:
        return len(self.members)

    def urls(self) -> list[str]:
        return [p.url for p in self.members]


class _ClusterState:
    """Per-position signature counts of one cluster, enough to compute mean similarity exactly."""

    __slots__ = ("cluster", "counts", "n")

    def __init__(self, cluster: UrlCluster, m: int) -> None:
        self.cluster = cluster
        self.counts: list[dict[str, int]] = [{} for _ in range(m)]
        self.n = 0  # members counted into ``counts`` (== sum of each position's counts)

    def add(self, sig: tuple[str, ...], max_distinct: int) -> None:
        if any(v not in c and len(c) >= max_distinct for v, c in zip(sig, self.counts, strict=True)):
            return  # keep the counts a consistent sample: all positions of a member or none
        for v, c in zip(sig, self.counts, strict=True):
            c[v] = c.get(v, 0) + 1
        self.n += 1

    def mean_similarity(self, sig: tuple[str, ...], weights: list[int]) -> float:
        total = 0.0
        dist = Levenshtein.normalized_distance
        for w, u, c in zip(weights, sig, self.counts, strict=True):
            acc = 0.0
            for v, k in c.items():
                acc += k if u == v else k / (1.0 + dist(u, v))
            total += w * acc
        return total / self.n


def cluster_parsed(
    parsed: Iterable[ParsedUrl],
    *,
    threshold: Threshold = dynamic_threshold,
    max_distinct: int = 48,
    signatures: bool = True,
) -> list[UrlCluster]:
    """Cluster already-parsed URLs (duplicates by canonical form are dropped), largest first.

    ``signatures=False`` compares raw segments as the paper does (kept for the measurements in
    docs/induction.md; it splits id-only classes apart).
    """
    groups: dict[tuple[str, int], list[ParsedUrl]] = defaultdict(list)
    seen: set[str] = set()
    for p in parsed:
        if p.url not in seen:
            seen.add(p.url)
            groups[p.group].append(p)
    clusters: list[UrlCluster] = []
    for (host, m), members in groups.items():
        clusters.extend(_cluster_group(host, m, members, threshold(m), max_distinct, signatures))
    clusters.sort(key=lambda c: (-c.size, c.host, c.m, c.members[0].url))
    for i, c in enumerate(clusters):
        c.id = i
    return clusters


def cluster_urls(
    urls: Iterable[str], *, threshold: Threshold = dynamic_threshold, max_distinct: int = 48
) -> list[UrlCluster]:
    """Cluster absolute http(s) URLs; a ``UserError`` names the first one that is not a URL."""
    return cluster_parsed((parse_url(u) for u in urls), threshold=threshold, max_distinct=max_distinct)


def _cluster_group(
    host: str, m: int, members: list[ParsedUrl], h: float, max_distinct: int, signatures: bool
) -> list[UrlCluster]:
    if m == 0:  # the bare host: similarity 1 between all of them
        return [UrlCluster(host, 0, list(members))]
    weights = position_weights(m)
    need = h * max_similarity(m)
    states: list[_ClusterState] = []
    decided: dict[tuple[str, ...], _ClusterState] = {}
    for p in members:
        sig = tuple(segment_signature(s) for s in p.segments) if signatures else p.segments
        state = decided.get(sig)
        if state is None:
            best, best_s = None, need - 1e-9
            for st in states:
                s = st.mean_similarity(sig, weights)
                if s >= best_s:
                    best, best_s = st, s
            if best is None:
                best = _ClusterState(UrlCluster(host, m), m)
                states.append(best)
            state = decided[sig] = best
        state.cluster.members.append(p)
        state.add(sig, max_distinct)
    return [st.cluster for st in states]
