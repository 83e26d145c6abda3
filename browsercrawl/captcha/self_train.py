"""A site model from the site's own CAPTCHAs with no labels at all (``captcha fit --self-train``).

A site shows as many CAPTCHAs as one asks for, and the base model already reads most of a new
style; what it reads surely it is nearly always right about. So the base, fitted to the site
(:func:`views.fit_profile`: its view chosen from the images), reads every image, and the answers
at least ``min_confidence`` sure become the labels of an ordinary fine-tuning run from the base.
The network then learns the style's distortions from the images it already read, and reads the
ones it was unsure of better.

How sure is a trade between clean labels and many. Measured on the benchmark's bent monospace
style (2,500 unlabelled images; 200 test images of another seed; docs/captcha.md "Benchmark"),
the base fitted reading 84.5 % exact:

* 0.8: 1,113 images kept, 96.5 % of them right; trained, 93.5 % exact;
* 0.9: 721 kept, 98.2 % right; 96.5 %;
* 0.95: 456 kept, 99.3 % right; 95.5 %.

A wrong answer the network is sure of is one it makes again: each is trained on as the truth. A
second round, the first model relabelling the images it had not trained on, gained nothing (93.5 %
again at 0.8), so there is one round.

Early stopping watches a held-back part of the sure answers: noisy by the few wrong ones, but
no label exists to judge against.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from browsercrawl.captcha import preprocess
from browsercrawl.captcha.profile import BUILTIN_BASE, Profile, write_model
from browsercrawl.captcha.recognise import Priors
from browsercrawl.captcha.threads import single_threaded
from browsercrawl.captcha.train import (
    DEFAULT_CTC_STEPS,
    Log,
    Samples,
    StartFrom,
    checkpoint_path,
    train_ctc_model,
    warn_if_cut,
)
from browsercrawl.captcha.views import fit_profile
from browsercrawl.errors import UserError

DEFAULT_MIN_CONFIDENCE = 0.9  # see the module docstring
MIN_SURE = 50  # fewer sure answers than this teach the network nothing it can be trusted with


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

    def describe(self) -> str:
        text = (f"{len(self.samples)} of {self.n} images ({len(self.samples) / max(1, self.n):.0%}): "
                f"{self.at_threshold} read with confidence >= {self.min_confidence:g}")
        lowered = sorted((t, c) for c, t in self.thresholds.items() if t < self.min_confidence)
        if lowered:
            text += (f", {len(self.samples) - self.at_threshold} more by the thresholds of characters rarely "
                     "read surely (" + ", ".join(f"{c} {t:.2f}" for t, c in lowered[:6])
                     + (", ..." if len(lowered) > 6 else "") + ")")
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


def sure_answers(profile: Profile, images: list[np.ndarray], min_confidence: float) -> SureAnswers:
    """Each image read by ``profile``; those sure enough (:func:`character_thresholds`) and of a
    length the site uses, labelled with the answer. CPU work: call it from a thread in async code."""
    rec = profile.build()
    pri = profile.priors
    reads = []
    for img in images:
        with single_threaded():
            text, conf = rec.recognise(preprocess.apply(img, profile.steps))
        text = in_charset(text, profile.charset)
        if text and pri.min_len <= len(text) <= pri.max_len:
            reads.append((img, text, conf))
    thresholds = character_thresholds([(t, c) for _, t, c in reads], min_confidence)
    kept = [(img, t) for img, t, c in reads if c >= min(thresholds[ch] for ch in t)]
    at = sum(c >= min_confidence for _, _, c in reads)
    return SureAnswers(kept, len(images), min_confidence, at, thresholds)


def self_train_to_file(
    profile: Profile, images: list[np.ndarray], out: Path, log: Log | None, *,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE, budget_s: float | None = None,
    max_steps: int = DEFAULT_CTC_STEPS, threads: int | None = None, resume: bool = False,
    where: str = "profile",
) -> Profile:
    """Fit ``profile`` to the images, train its network on its own sure answers, write ``out``.

    ``profile`` holds the site's facts (charset, lengths, case) and the ctc network that reads the
    images and that training starts from. The sure answers depend only on the images and that
    network, so ``resume`` continues a run the ``budget_s`` cap stopped on the same answers.
    Returns the written model's profile (it reads in the fitted view)."""
    fitted, choice = fit_profile(profile, images, where)
    if log:
        log(f"reading in {choice.describe()}")
    sure = sure_answers(fitted, images, min_confidence)
    if log:
        log(f"self-labelled: {sure.describe()}")
    if len(sure.samples) < MIN_SURE:
        raise UserError(f"{where}: only {sure.describe()}; self-training needs at least {MIN_SURE}: collect "
                        "more of the site's CAPTCHAs, lower --min-confidence, or label some (captcha label)")
    answers = [lab for _, lab in sure.samples]
    charset = profile.charset or "".join(sorted(set("".join(answers))))
    priors = Priors(charset, profile.min_len, profile.max_len, profile.case)
    steps = [*fitted.steps, {"step": fitted.recogniser["views"][0]}]
    model = fitted.recogniser["model"]
    start: StartFrom = "base" if model == BUILTIN_BASE else Path(model)
    meta, arrays, report = train_ctc_model(sure.samples, steps, priors, budget_s, log, max_steps=max_steps,
                                           start=start, threads=threads, checkpoint=checkpoint_path(out),
                                           resume=resume)
    warn_if_cut(report, log, out)
    meta["training"] = {"steps": report.steps, "planned": report.planned, "stopped_by": report.stopped_by,
                        "held_exact": report.held_exact, "seconds": round(report.seconds, 1),
                        "self_trained": {"images": sure.n, "sure": len(sure.samples),
                                         "min_confidence": min_confidence, "view": choice.view}}
    prof = Profile(profile.name, steps, {"kind": "ctc", "model": out.name}, priors.charset, priors.min_len,
                   priors.max_len, priors.case)
    meta["profile"] = prof.to_json()
    write_model(out, meta, arrays)
    prof.base_dir = out.parent
    return prof
