"""Which of a model's answers to unlabelled CAPTCHAs are sure enough to train on.

Self-training (``captcha fit --self-train`` with no labels, ``captcha train --unlabelled`` beside
labels) trains on answers the model gave itself; a wrong one it is sure of is learned as the truth
and made again, so only sure answers count, by a bar each character sets for itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from browsercrawl.captcha import preprocess
from browsercrawl.captcha.recognise import Priors, Recogniser
from browsercrawl.captcha.threads import single_threaded

Samples = list[tuple[np.ndarray, str]]  # decoded BGR image, label


@dataclass
class SureAnswers:
    """The images read surely enough to train on, labelled with the answer, out of ``n``:
    ``at_threshold`` of them reached ``min_confidence``; the rest reached their characters' own
    thresholds (``thresholds``, the ones below ``min_confidence``)."""

    samples: Samples
    n: int
    min_confidence: float
    at_threshold: int
    thresholds: dict[str, float]
    unsteady: int = 0  # sure enough, but read otherwise given a margin or stretched (:func:`steady`)

    def describe(self) -> str:
        text = (f"{len(self.samples)} of {self.n} images ({len(self.samples) / max(1, self.n):.0%}): "
                f"{self.at_threshold} read with confidence >= {self.min_confidence:g}")
        lowered = sorted((t, c) for c, t in self.thresholds.items() if t < self.min_confidence)
        if lowered:
            more = len(self.samples) + self.unsteady - self.at_threshold
            text += (f", {more} more by the thresholds of characters rarely read surely ("
                     + ", ".join(f"{c} {t:.2f}" for t, c in lowered[:6])
                     + (", ..." if len(lowered) > 6 else "") + ")")
        if self.unsteady:
            text += f"; {self.unsteady} of those left out, read otherwise given a margin or stretched"
        return text


def character_thresholds(answers: list[tuple[str, float]], min_confidence: float) -> dict[str, float]:
    """Each character's confidence threshold: the one that keeps as large a share of the answers
    holding it as ``min_confidence`` keeps of all answers (never above ``min_confidence``).

    One threshold for all starves the characters the network hesitates over: on the benchmark's
    simple style the base read ``0`` and ``O`` right but never at 0.9 or more (one image with
    either among 1,210 kept), and trained on those it lost both, 99.0 % fitted down to 81.5 %.
    Kept by their own thresholds (0.66 and 0.69 there), both are trained on like the rest, and
    the answers kept stay 99.1 % right (class-balanced self-training, as in Zou et al., 2018).
    """
    confs = np.array([c for _, c in answers])
    share = float((confs >= min_confidence).mean()) if len(confs) else 0.0
    by_char: dict[str, list[float]] = {}
    for text, conf in answers:
        for ch in set(text):
            by_char.setdefault(ch, []).append(conf)
    if share == 0:  # nothing is sure enough: no character lowers the bar
        return dict.fromkeys(by_char, min_confidence)
    return {ch: min(min_confidence, float(np.quantile(v, 1 - share))) for ch, v in by_char.items()}


def in_charset(text: str, charset: str) -> str:
    """The answer in the site's own charset: on a case-insensitive site the recogniser may answer
    in either case, while the site stores one (a letter the charset lacks in this case but holds
    in the other is swapped)."""
    if not charset:
        return text
    have = set(charset)
    return "".join(c if c in have or c.swapcase() not in have else c.swapcase() for c in text)


def perturbed(img: np.ndarray) -> list[np.ndarray]:
    """The image with a margin above and below (its glyphs come out smaller in the network's
    fixed input height), and stretched both ways: a glyph the network reads by its size against
    the frame or by its width changes under one of them; one it reads by its strokes does not."""
    h, w = img.shape[:2]
    return [cv2.copyMakeBorder(img, 6, 6, 0, 0, cv2.BORDER_REPLICATE),
            cv2.resize(img, (max(1, round(w * 1.12)), h), interpolation=cv2.INTER_AREA),
            cv2.resize(img, (max(1, round(w * 0.9)), h), interpolation=cv2.INTER_AREA)]


def steady(rec: Recogniser, pri: Priors, img: np.ndarray, text: str) -> bool:
    """Whether every :func:`perturbed` copy of ``img`` (already preprocessed) reads ``text`` too.

    Confidence alone keeps the network's confident mistakes, and those are the labels that hurt:
    on the benchmark's bent monospace style (2,500 images) the sure answers were 98.1 % right,
    the ones among them read the same in all three copies 99.0 % (1,347 of 1,455 kept, half the
    wrong ones gone; ``9`` read ``g``, ``b`` read ``6``)."""
    for copy in perturbed(img):
        with single_threaded():
            other, _ = rec.recognise(copy)
        if in_charset(other, pri.charset) != text:
            return False
    return True


def sure_answers(rec: Recogniser, steps: list[dict[str, Any]], pri: Priors, images: list[np.ndarray],
                 min_confidence: float, check_steady: bool = True) -> SureAnswers:
    """Each image read by ``rec`` after ``steps``; those sure enough (:func:`character_thresholds`),
    of a length the site uses and, with ``check_steady``, read the same given a margin or stretched
    (:func:`steady`), labelled with the answer. CPU work: call it from a thread in async code."""
    reads = []
    for img in images:
        x = preprocess.apply(img, steps)
        with single_threaded():
            text, conf = rec.recognise(x)
        text = in_charset(text, pri.charset)
        if text and pri.min_len <= len(text) <= pri.max_len:
            reads.append((img, x, text, conf))
    thresholds = character_thresholds([(t, c) for _, _, t, c in reads], min_confidence)
    sure = [(img, x, t) for img, x, t, c in reads if c >= min(thresholds[ch] for ch in t)]
    kept = [(img, t) for img, x, t in sure if not check_steady or steady(rec, pri, x, t)]
    at = sum(c >= min_confidence for _, _, _, c in reads)
    return SureAnswers(kept, len(images), min_confidence, at, thresholds, len(sure) - len(kept))
