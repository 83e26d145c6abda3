"""TF-IDF over the pages the crawl has read so far, one vocabulary per field, as sparse dicts.

Why sparse dicts and not a matrix library: the example set is small (tens of pages), every page
is compared once with it when it is fetched, and the document frequencies grow while the crawl
runs, so there is no fixed matrix to build; a dict of weights per page costs microseconds and
needs nothing beyond the standard library.
"""

from __future__ import annotations

import math
from collections import Counter


class Vocabulary:
    """Document frequencies of one field over the pages read so far (updated online)."""

    def __init__(self) -> None:
        self.docs = 0
        self.df: Counter[str] = Counter()

    def add(self, bag: Counter[str]) -> None:
        self.docs += 1
        self.df.update(bag.keys())

    def idf(self, token: str) -> float:
        return math.log((1 + self.docs) / (1 + self.df.get(token, 0))) + 1.0

    def vector(self, bag: Counter[str]) -> dict[str, float]:
        """Sub-linear TF times IDF, L2-normalised (empty bag: empty vector)."""
        vec = {t: (1.0 + math.log(n)) * self.idf(t) for t, n in bag.items() if n > 0}
        norm = math.sqrt(sum(w * w for w in vec.values()))
        return {t: w / norm for t, w in vec.items()} if norm else {}


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    """Cosine of two L2-normalised sparse vectors."""
    if len(a) > len(b):
        a, b = b, a
    return sum(w * b.get(t, 0.0) for t, w in a.items())
