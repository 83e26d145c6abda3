"""A site model from the site's own CAPTCHAs with no labels at all (``captcha fit --self-train``).

A site shows as many CAPTCHAs as one asks for, and the base model already reads most of a new
style; what it reads surely it is nearly always right about. So the base, fitted to the site
(:func:`views.fit_profile`: its view chosen from the images), reads every image, and its sure
answers (:mod:`sure`: ``min_confidence``, or a character's own lower bar) become the labels of an
ordinary fine-tuning run from the base.
The network then learns the style's distortions from the images it already read, and reads the
ones it was unsure of better.

How sure is a trade between clean labels and many. Measured on the benchmark's bent monospace
style with one bar for all (2,500 unlabelled images; 200 test images of another seed; the base
fitted reading 84.5 % exact; docs/captcha.md, "Self-training with no labels"):

* 0.8: 1,113 images kept, 96.5 % of them right; trained, 93.5 % exact;
* 0.9: 721 kept, 98.2 % right; 96.5 %;
* 0.95: 456 kept, 99.3 % right; 95.5 %.

A wrong answer the network is sure of is one it makes again: each is trained on as the truth. A
second round, the first model relabelling the images it had not trained on, gained nothing (93.5 %
again at 0.8), so there is one round.

Early stopping watches a held-back part of the sure answers: noisy by the few wrong ones, but
no label exists to judge against.

The trained network leans where its labels leaned: the few confident mistakes it trained on
(``9`` read ``g`` on the bent monospace style) it now makes more often. The site still draws
its characters about equally often, so the character weights are fitted again, to the trained
network, on the same images (:mod:`site_prior`): on that style, seeds 2 / 3 / 4, 95.0 / 95.0 /
97.5 % read without them and 95.0 / 96.5 / 98.5 % with them (docs/captcha.md).
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np

from browsercrawl.captcha import preprocess, site_prior
from browsercrawl.captcha.profile import BUILTIN_BASE, Profile, model_recogniser
from browsercrawl.captcha.recognise import CtcRecogniser, Priors
from browsercrawl.captcha.sure import sure_answers
from browsercrawl.captcha.train import (
    DEFAULT_CTC_STEPS,
    Log,
    StartFrom,
    checkpoint_path,
    train_ctc_model,
    training_record,
    warn_if_cut,
    write_trained,
)
from browsercrawl.captcha.views import fit_profile
from browsercrawl.errors import UserError

DEFAULT_MIN_CONFIDENCE = 0.9  # see the module docstring
MIN_SURE = 50  # fewer sure answers than this teach the network nothing it can be trusted with


def in_stored_case(profile: Profile) -> Profile:
    """The profile that labels a case-insensitive site's images: read as a site of the one case
    its charset is stored in, so the decoder folds a letter's two cases together.

    Read case-insensitively, the network splits a letter's probability between ``a`` and ``A``,
    which the site takes as one answer, and its confidence shows the split: on the benchmark's
    mixed-case serif style 58 of 2,500 images reached 0.9, and trained on the 123 kept the
    style fell from 75.5 to 67.5 %."""
    cs = profile.charset
    if profile.case != "insensitive" or cs.lower() == cs.upper():  # no charset, or no letters in it
        return profile
    case = "lower" if cs == cs.lower() else "upper" if cs == cs.upper() else None
    if case is None:  # both cases stored: nothing to fold
        return profile
    out = copy.copy(profile)
    out.case = case
    return out


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
    reading = in_stored_case(fitted)
    sure = sure_answers(reading.build(), reading.steps, reading.priors, images, min_confidence)
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
    meta["training"] = training_record(report, self_trained={
        "images": sure.n, "sure": len(sure.samples), "min_confidence": min_confidence, "view": choice.view})
    spec: dict = {"kind": "ctc", "model": out.name}
    weights = trained_char_weights(meta, arrays, priors, steps, images)
    if log:
        said = weights.describe() if isinstance(weights, site_prior.CharWeights) else f"none: {weights}"
        log(f"character weights of the trained network: {said}")
    if isinstance(weights, site_prior.CharWeights):
        spec["char_weights"] = weights.weights
    prof = Profile(profile.name, steps, spec, priors.charset, priors.min_len, priors.max_len, priors.case)
    return write_trained(out, meta, arrays, prof)


def trained_char_weights(meta: dict, arrays: dict[str, np.ndarray], priors: Priors, steps: list[dict],
                         images: list[np.ndarray]) -> site_prior.CharWeights | str:
    """The character weights (:mod:`site_prior`) of the network trained on its own answers,
    fitted on the images it was trained from; or why none can be fitted here."""
    rec = model_recogniser(meta, arrays, priors)
    assert isinstance(rec, CtcRecogniser)
    return site_prior.fit_for_site(rec.net, [preprocess.apply(img, steps) for img in images], priors)
