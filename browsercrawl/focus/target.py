"""The target discriminator: how much a page looks like the example pages, and which pages join them.

No classifier is trained. A page's score is its similarity to its nearest example: per field
(text, title, URL, structure; ``features.py``) the TF-IDF cosine, weighed by ``weights`` and
summed. The threshold comes from the examples themselves: each example scored against the
others (leave one out) says how alike two targets of different sites are; a page must reach
``threshold_share`` of the lowest of those scores. With a single example there is nothing to
compare, and ``default_threshold`` is used.

Bootstrapping: pages labelled target are candidates; in rounds, the most similar ones join the
examples (``admit``). Two guards keep the set from drifting off topic: a candidate must also be
similar enough to the *given* examples alone (not only to pages added since), and the number of
rounds and of examples is capped; the threshold is computed once from the given examples and
never lowered by the pages the crawl added.
"""

from __future__ import annotations

from dataclasses import dataclass

from browsercrawl.focus.features import FIELDS, PageFeatures
from browsercrawl.focus.tfidf import Vocabulary, cosine


@dataclass
class Example:
    features: PageFeatures
    round: int  # 0: given in the job; n: admitted by the n-th bootstrapping round


@dataclass(frozen=True)
class TargetSettings:
    weights: dict[str, float]
    threshold_share: float = 0.85
    default_threshold: float = 0.4
    drift_share: float = 0.8  # a candidate's similarity to the given examples, as a share of the threshold
    admit_per_round: int = 3
    max_rounds: int = 10
    max_examples: int = 40


class TargetModel:
    """Scores pages against the examples; grows the examples in rounds (see module docstring)."""

    def __init__(self, settings: TargetSettings) -> None:
        self.settings = settings
        total = sum(settings.weights.get(f, 0.0) for f in FIELDS) or 1.0
        self.weights = {f: settings.weights.get(f, 0.0) / total for f in FIELDS}
        self.vocab = {f: Vocabulary() for f in FIELDS}
        self.examples: list[Example] = []
        self.threshold: float | None = None
        self.round = 0
        self._cache: tuple[tuple[int, int], list[dict[str, dict[str, float]]]] = ((-1, -1), [])

    def observe(self, page: PageFeatures) -> None:
        """Count a page in the document frequencies (every fetched page is)."""
        for f in FIELDS:
            self.vocab[f].add(page.bags[f])

    def _vectors(self, page: PageFeatures) -> dict[str, dict[str, float]]:
        return {f: self.vocab[f].vector(page.bags[f]) for f in FIELDS if self.weights[f] > 0}

    def _example_vectors(self) -> list[dict[str, dict[str, float]]]:
        """The examples' vectors, recomputed when an example joins or the IDF moved (every 16 pages)."""
        key = (len(self.examples), self.vocab["text"].docs // 16)
        if self._cache[0] != key:
            self._cache = (key, [self._vectors(e.features) for e in self.examples])
        return self._cache[1]

    def similarity(self, page: PageFeatures, given_only: bool = False) -> float:
        """Weighted similarity to the nearest example (0 when there is none)."""
        vec = self._vectors(page)
        best = 0.0
        for ex, ev in zip(self.examples, self._example_vectors(), strict=True):
            if given_only and ex.round > 0:
                continue
            if ex.features.url == page.url:
                return 1.0
            best = max(best, sum(self.weights[f] * cosine(vec[f], ev[f]) for f in vec))
        return best

    def add_given(self, page: PageFeatures) -> None:
        self.examples.append(Example(page, 0))

    def settle_threshold(self) -> float:
        """Set the threshold from the given examples (leave one out); see module docstring."""
        given = [e for e in self.examples if e.round == 0]
        if len(given) < 2:
            self.threshold = self.settings.default_threshold
            return self.threshold
        loo = []
        for ex in given:
            vec = self._vectors(ex.features)
            others = [self._vectors(o.features) for o in given if o is not ex]
            loo.append(max(sum(self.weights[f] * cosine(vec[f], ov[f]) for f in vec) for ov in others))
        self.threshold = self.settings.threshold_share * min(loo)
        return self.threshold

    def is_target(self, score: float) -> bool:
        return self.threshold is not None and score >= self.threshold

    def admit(self, candidates: list[tuple[float, PageFeatures]]) -> list[PageFeatures]:
        """One bootstrapping round: the best candidates (score, page) that pass the drift guard."""
        s = self.settings
        if self.threshold is None or self.round >= s.max_rounds or len(self.examples) >= s.max_examples:
            return []
        known = {e.features.url for e in self.examples}
        floor = s.drift_share * self.threshold
        chosen: list[PageFeatures] = []
        for score, page in sorted(candidates, key=lambda c: -c[0]):
            if len(chosen) >= s.admit_per_round or len(self.examples) + len(chosen) >= s.max_examples:
                break
            if page.url in known or score < self.threshold:
                continue
            if self.similarity(page, given_only=True) < floor:
                continue
            chosen.append(page)
        if chosen:
            self.round += 1
            self.examples.extend(Example(p, self.round) for p in chosen)
        return chosen
