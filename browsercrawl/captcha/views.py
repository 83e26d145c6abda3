"""Which view a site's CAPTCHAs are read in, chosen from the site's own images, with no labels.

The network reads a grayscale view of each image. Plain luminance (``grayscale``) suits most
styles; glyphs drawn over fine texture (a hatch, a grid) are read far better once hairline marks
are closed away (``close_hairlines``), which costs other styles a point or a few. Which one a site
needs shows in the network's own confidence over a batch of the site's images: a style it reads
better in one view, it reads more surely there.

One image's confidence is too noisy to choose by (taking the more confident view image by image
lost points on the colour styles), so the choice is made once, over the batch: each image is read
in every candidate view, and a view replaces the plain one when the median, over the images, of
its confidence minus the plain view's exceeds ``VIEW_MARGIN``. The median, not the mean: a few
images that one view reads far more surely moved the mean of a 100-image batch past any usable
margin on styles where that view loses exact matches. Measured with the shipped base on the
benchmark's styles (``scripts/bench/captcha_styles.py``; median gain of the closed view over 500
images of the training seed, then on five disjoint batches of 100): hollow +0.027 (+0.017 to
+0.031), the demo site's +0.009 (+0.004 to +0.030), grain +0.003, wave +0.001, confetti +0.000,
lined -0.000, arc -0.002. On those images the closed view reads hollow 9 points better and the
demo 2, and costs lined, grain and arc 2-3; so the margin sits between the demo and grain. A
surer network gains less confidence from any view than the earlier base did (hollow +0.18 then),
and the margin was halved with it: a margin has to be measured again with each new base.

Colour images are read in ``max_channel`` too (the brightest channel: ink dark in every channel
stays, vivid colour noise fades). Over the benchmark's ten styles only the one with glyphs of many
colours over pale rings and discs gains from it (+0.027, 84.0-90.0 % exact against 73.5-82.0 % in
luminance); on the others its median gain is within 0.0004 of zero, below the margin, or (hollow,
+0.022) below the closed view's.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from browsercrawl.captcha import preprocess, site_prior
from browsercrawl.captcha.profile import BUILTIN_BASE, Profile
from browsercrawl.captcha.recognise import SHAPE_VIEWS, CtcRecogniser
from browsercrawl.errors import UserError

# The first is kept unless another wins clearly; colour views only count for colour images.
VIEW_CANDIDATES = ("grayscale", "close_hairlines", "max_channel")
VIEW_MARGIN = 0.005  # median gain in confidence a view needs over the first candidate
MIN_IMAGES = 20  # fewer, and the choice is a coin toss on every style but the clearest


def _in_colour(img: np.ndarray) -> bool:
    """Whether the image holds colour: grayscale, and gray stored in three equal channels (as many
    sites save it), do not."""
    return img.ndim == 3 and bool((img != img[..., :1]).any())


def _for_images(candidates: tuple[str, ...], images: list[np.ndarray]) -> tuple[str, ...]:
    """The candidates worth reading these images in: of grayscale images a colour view is the
    image itself, so only the first candidate and the views that change shapes."""
    if any(_in_colour(img) for img in images):
        return candidates
    return tuple(v for v in candidates if v == candidates[0] or v in SHAPE_VIEWS)


@dataclass
class ViewChoice:
    """The chosen view and what it rests on: each candidate's mean confidence over the images and
    the median of its gain over the first candidate, image by image."""

    view: str
    confidence: dict[str, float]
    median_gain: dict[str, float]
    n: int
    weights: site_prior.CharWeights | None = None  # fitted by fit_profile
    weights_skipped: str | None = None  # why no weights were fitted

    def describe(self) -> str:
        first = next(iter(self.confidence))
        if self.view != first:
            why = f"median confidence gain over {first} {self.median_gain[self.view]:+.3f}"
        else:
            why = ", ".join(f"{v}: median gain {g:+.3f}" for v, g in self.median_gain.items() if v != first)
        means = ", ".join(f"{v} {c:.3f}" for v, c in self.confidence.items())
        text = f"{self.view} ({why + '; ' if why else ''}mean confidence {means}; {self.n} images)"
        if self.weights is not None:
            text += f"; character weights {self.weights.describe()}"
        elif self.weights_skipped:
            text += f"; no character weights: {self.weights_skipped}"
        return text


def choose_view(recogniser: CtcRecogniser, images: list[np.ndarray],
                candidates: tuple[str, ...] = VIEW_CANDIDATES, margin: float = VIEW_MARGIN) -> ViewChoice:
    """Read every image in every candidate view; keep the first candidate unless another's median
    gain in confidence over it exceeds ``margin``. CPU work: call it from a thread in async code."""
    if len(images) < MIN_IMAGES:
        raise UserError(f"{len(images)} images: choosing a view needs at least {MIN_IMAGES} of the site's "
                        "CAPTCHAs")
    candidates = _for_images(candidates, images)
    conf = {v: np.array([recogniser.read(img, v)[1] for img in images]) for v in candidates}
    first = candidates[0]
    gain = {v: float(np.median(conf[v] - conf[first])) for v in candidates}
    best = max(candidates, key=gain.__getitem__)
    view = best if gain[best] > margin else first
    return ViewChoice(view, {v: float(c.mean()) for v, c in conf.items()}, gain, len(images))


# What ``captcha train`` may train on, the first kept unless the labels say otherwise. Colour views
# only count for colour images (of a grayscale image they are the image itself).
TRAINING_VIEWS = ("grayscale", "close_hairlines", "max_channel", "min_channel")
# Labelled images read per view (about 10 ms an image): every one a site usually labels. With 300 of
# 500, the benchmark's many-coloured style kept luminance by 8 images (max_channel 79.0 against
# 76.3 %), and read with all 500 the lead was 19 (79.2 against 75.4 %): the draw decided the view.
TRAINING_VIEW_IMAGES = 1000
# Exact-match gain a view needs over the first. A lead of a point or two zero-shot need not survive
# training: the benchmark's wave style, read 2.5 points better closed zero-shot, trained closed
# read 98.0 % against 99.0 % in luminance.
TRAINING_VIEW_GAIN = 0.03


@dataclass
class LabelledViewChoice:
    """The view a site model is trained on, chosen by how the starting network reads the site's
    labelled images in each: exact matches per view, and against the first candidate the images
    only the other view reads (``wins``) and only the first reads (``losses``)."""

    view: str
    exact: dict[str, float]
    wins: dict[str, int]
    losses: dict[str, int]
    n: int

    def describe(self) -> str:
        rates = ", ".join(f"{v} {e:.1%}" for v, e in self.exact.items())
        first = next(iter(self.exact))
        if self.view == first:
            return f"{self.view} (the starting network reads {self.n} labelled images: {rates})"
        return (f"{self.view} (the starting network reads {self.n} labelled images: {rates}; "
                f"{self.wins[self.view]} read only in {self.view}, {self.losses[self.view]} only in {first})")


def choose_view_by_labels(recogniser: CtcRecogniser, samples: list[tuple[np.ndarray, str]],
                          candidates: tuple[str, ...] = TRAINING_VIEWS) -> LabelledViewChoice:
    """The view the network reads these labelled (colour) images best in, to train it on.

    Fine-tuning keeps the network's first layers, so a view it already reads a site well in is
    one its features suit; on the benchmark's many-coloured style the view the base read 13
    points better trained 14 points better (docs/captcha.md). A candidate replaces the first only
    when its advantage is clear: at least ``TRAINING_VIEW_GAIN`` more exact, and the images it
    alone reads outnumber those the first alone reads by more than the square root of both (one
    standard deviation of that difference, as in McNemar's test). Two deviations kept luminance
    for 100 labels of the many-coloured style (75 against 67 % exact), which then trained 12
    points below the 50-label run that had moved. CPU work: call it from a thread in async code.
    """
    if len(samples) > TRAINING_VIEW_IMAGES:  # a fixed draw: a folder's order may follow the labels
        pick = np.random.default_rng(0).choice(len(samples), TRAINING_VIEW_IMAGES, replace=False)
        samples = [samples[i] for i in sorted(pick)]
    candidates = _for_images(candidates, [img for img, _ in samples])
    pri = recogniser.priors
    right = {v: np.array([pri.same(recogniser.read(img, v)[0], lab) for img, lab in samples])
             for v in candidates}
    first = candidates[0]
    wins = {v: int((right[v] & ~right[first]).sum()) for v in candidates}
    losses = {v: int((right[first] & ~right[v]).sum()) for v in candidates}
    margin = {v: wins[v] - losses[v] - np.sqrt(wins[v] + losses[v]) for v in candidates}
    best = max(candidates[1:], key=margin.__getitem__, default=first)
    clear = margin[best] > 0 and wins[best] - losses[best] >= TRAINING_VIEW_GAIN * len(samples)
    view = best if best != first and clear else first
    exact = {v: float(r.mean()) for v, r in right.items()}
    return LabelledViewChoice(view, exact, wins, losses, len(samples))


def fit_profile(profile: Profile, images: list[np.ndarray], where: str = "profile",
                candidates: tuple[str, ...] = VIEW_CANDIDATES) -> tuple[Profile, ViewChoice]:
    """The profile with its CTC network's view chosen from these (colour) images of the site, and
    the characters weighted by how often the site draws them (:mod:`site_prior`) where that can
    be told (the choice says which, or why not).

    The new profile names its model by an absolute path (or the bundled base), so it can be
    written anywhere. One candidate: that view, chosen elsewhere (by labels, say)."""
    rec = profile.recogniser
    if rec.get("kind") != "ctc" or rec.get("steps"):
        raise UserError(f"{where}: choosing a view needs a ctc recogniser, not {rec.get('kind')!r}")
    built = profile.build()
    assert isinstance(built, CtcRecogniser)
    inputs = [preprocess.apply(img, profile.steps) for img in images]
    choice = choose_view(built, inputs, candidates)
    fitted = copy.deepcopy(profile)
    model = rec["model"]
    if model != BUILTIN_BASE and not Path(model).is_absolute():
        model = str(((profile.base_dir or Path(".")) / model).resolve())
    fitted.recogniser = {k: v for k, v in rec.items() if k != "char_weights"}
    fitted.recogniser.update(model=model, views=[choice.view])
    grays = [built.view_of(g, choice.view) for g in inputs]
    weights = site_prior.fit_for_site(built.net, grays, built.priors)
    if isinstance(weights, site_prior.CharWeights):
        choice.weights = weights
        fitted.recogniser["char_weights"] = weights.weights
    else:
        choice.weights_skipped = weights
    fitted.base_dir = None
    return fitted, choice
