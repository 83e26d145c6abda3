"""The path discriminator: which anchor words and URL tokens lead to targets, learned while crawling.

Every fetched page was reached by a hop (the anchor text and URL tokens of the link followed). A
hop *led to a target* when a target was found at its end or anywhere below it along the crawl's
path from the site's root. For each token the model counts the hops that carried it and those
of them that led to a target; a token's rate is that share, smoothed towards the overall share
(so a token seen once says little). The example pages seed the counts with their own title and
URL tokens as if a hop had carried them to a target, and so do the job's keywords.

A link's score mixes its own hop (the best rate of its tokens) with the hops of the path that
reached the page holding it: the paper's "anchor texts along the path from the root", which is
what lets a misleading anchor ("Archive") count once the crawl has found targets behind it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence


class PathModel:
    """Token rates of hops that led to targets (see module docstring)."""

    def __init__(self, smoothing: float = 2.0, path_weight: float = 0.6) -> None:
        self.smoothing = smoothing
        self.path_weight = path_weight
        self.carried: Counter[str] = Counter()  # hops that carried the token
        self.led: Counter[str] = Counter()  # of those, hops that led to a target
        self.hops = 0
        self.hops_led = 0

    def prior(self, tokens: Iterable[str], weight: int = 1) -> None:
        """Count ``tokens`` as ``weight`` hops that led to a target (from examples and keywords)."""
        for t in set(tokens):
            self.carried[t] += weight
            self.led[t] += weight

    def fetched(self, hop: Sequence[str]) -> None:
        """A page reached by ``hop`` was fetched."""
        self.hops += 1
        for t in set(hop):
            self.carried[t] += 1

    def led_to_target(self, hop: Sequence[str]) -> None:
        """The page reached by ``hop`` (fetched before) is a target or lies on a target's path."""
        self.hops_led += 1
        for t in set(hop):
            self.led[t] += 1

    def base_rate(self) -> float:
        return (self.hops_led + 1) / (self.hops + 2)

    def rate(self, token: str) -> float:
        prior = self.smoothing * self.base_rate()
        return (self.led.get(token, 0) + prior) / (self.carried.get(token, 0) + self.smoothing)

    def hop_score(self, hop: Sequence[str]) -> float:
        """The best token rate of a hop (the base rate for a hop without tokens)."""
        return max((min(1.0, self.rate(t)) for t in hop), default=self.base_rate())

    def path_score(self, path: Sequence[Sequence[str]]) -> float | None:
        """The mean score of the hops that reached a page (None for a page reached by none)."""
        return sum(self.hop_score(h) for h in path) / len(path) if path else None

    def mix(self, hop: Sequence[str], along: float | None) -> float:
        """A link's score from its own hop and its page's :meth:`path_score`."""
        own = self.hop_score(hop)
        return own if along is None else (1 - self.path_weight) * own + self.path_weight * along

    def score(self, hop: Sequence[str], path: Sequence[Sequence[str]]) -> float:
        """A link's score: its hop mixed with the mean score of the hops that reached its page."""
        return self.mix(hop, self.path_score(path))
