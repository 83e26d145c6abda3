"""How often a site draws each character, fitted to the site's own images with no labels.

A site's CAPTCHA generator draws its characters about equally often; that is how nearly every
generator picks them (a random choice from the charset). The network was trained on other fonts,
and on a font it never saw it can lean towards one of two look-alikes: on the benchmark's lined
style (DejaVu Sans Bold, which the base never trained on) it read every ``0`` as ``O`` more often
than not, while the column's probability of ``0`` stayed clearly higher on a true ``0`` (0.33-0.61)
than on a true ``O`` (0.04-0.21). Read over a batch of the site's images, such a lean shows as a
character the answers give far too often beside one they give far too rarely.

So the site's images are read once, and character weights are fitted until the answers give each
character about equally often: each round multiplies a character's weight by the square root of
its expected share over its share in the answers, within ``[1/2, 2]`` (a weight that needs more is
not a lean but a character the network cannot read, and pushing it further breaks the others).
The weights then scale the characters' probabilities in every column, the blank keeping its own
(:meth:`browsercrawl.captcha.ctc.CtcNet.probabilities`).

Not fitted on a case-insensitive site: there the images show both cases in proportions nobody
knows (one generator draws a letter's two cases as two characters, another as one), so "equally
often" is not known. Measured with the base on the benchmark's styles (docs/captcha.md):
lined 93.0 / 92.5 -> 98.0 / 99.0 % exact (seeds 2 / 3), the other upper- and lower-case styles
within -1 to +1.5 points; the insensitive arc style lost 7-10 points before it was left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from browsercrawl.captcha import ctc
from browsercrawl.captcha.recognise import Priors

ROUNDS = 8
STEP = 0.5  # exponent of each round's correction: half-way there in log terms, so it settles
LOWEST, HIGHEST = 0.5, 2.0
MIN_PER_CHARACTER = 10  # expected occurrences of each character in the images, or no fitting


@dataclass
class CharWeights:
    """The fitted weights and what they rest on: how far the answers' character shares were from
    equal before and after (total variation distance, 0 = equal), and how many images."""

    weights: dict[str, float]
    skew_before: float
    skew_after: float
    n: int

    def describe(self) -> str:
        top = sorted(self.weights.items(), key=lambda kv: -kv[1])
        shown = ", ".join(f"{c} x{w:.2f}" for c, w in [*top[:3], *top[-2:]])
        return (f"{shown} (answers' character skew {self.skew_before:.3f} -> {self.skew_after:.3f}; "
                f"{self.n} images)")


def why_not(case: str, charset: str, n_images: int, mean_len: float) -> str | None:
    """Why character weights cannot be fitted here (None: they can)."""
    if case == "insensitive":
        return "a case-insensitive site: how often each case is drawn is unknown"
    if not charset:
        return "the site's charset is not known"
    if n_images * mean_len / len(set(charset)) < MIN_PER_CHARACTER:
        return f"too few images ({n_images}) for {len(set(charset))} characters"
    return None


def fit(columns: list[np.ndarray], charset: str,
        decode: Callable[[np.ndarray], str]) -> CharWeights:
    """Weights for ``charset`` (the columns' characters, in order) that make the answers give each
    character about equally often. ``columns`` are each image's column probabilities (T, 1 + K),
    read once; ``decode`` turns reweighted columns into an answer (the site's length prior)."""
    k = len(charset)
    index = {c: i for i, c in enumerate(charset)}
    w = np.ones(k)

    def shares(weights: np.ndarray) -> np.ndarray:
        counts = np.zeros(k)
        for prob in columns:
            for c in decode(ctc.weigh_characters(prob, weights)):
                if c in index:
                    counts[index[c]] += 1
        return counts / max(1.0, counts.sum())

    before = shares(w)
    got = before
    for _ in range(ROUNDS):
        w = np.clip(w * ((1 / k) / np.maximum(got, 0.2 / k)) ** STEP, LOWEST, HIGHEST)
        w /= np.exp(np.log(w).mean())
        got = shares(w)
    skew = lambda s: 0.5 * float(np.abs(s - 1 / k).sum())  # noqa: E731
    return CharWeights({c: round(float(x), 3) for c, x in zip(charset, w, strict=True)},
                       skew(before), skew(got), len(columns))


def fit_to_images(net: ctc.CtcNet, grays: list[np.ndarray], allowed: str, min_len: int,
                  max_len: int) -> CharWeights:
    """Read each (view) image once with ``net`` restricted to ``allowed``, then :func:`fit`.
    CPU work: call it from a thread in async code."""
    columns, charset = [], ""
    for g in grays:
        prob, charset = net.probabilities(net.input_for(g), allowed)
        columns.append(prob)
    return fit(columns, charset, lambda p: ctc.decode(p, charset, min_len, max_len)[0])


def fit_for_site(net: ctc.CtcNet, grays: list[np.ndarray], priors: Priors) -> CharWeights | str:
    """Weights for the site ``priors`` describe, fitted to its images read in the network's view
    (:func:`fit_to_images`); or, where none can be fitted, why (:func:`why_not`). CPU work: call
    it from a thread in async code."""
    allowed = priors.allowed()
    why = why_not(priors.case, allowed, len(grays), (priors.min_len + priors.max_len) / 2)
    if why is not None:
        return why
    return fit_to_images(net, grays, allowed, priors.min_len, priors.max_len)
