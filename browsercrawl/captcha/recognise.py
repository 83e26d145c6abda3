"""Recognisers behind one interface: preprocessed grayscale image in, ``(text, confidence)`` out.

* :class:`TesseractRecogniser` - no training; page-segmentation mode 7/8 on the whole line, or
  mode 10 on each segmented character, always with the charset as a whitelist.
* :class:`CharRecogniser` - segment, normalise each character, classify with a small MLP trained
  (scikit-learn) on one site's labelled samples; inference is plain numpy.
* :class:`CtcRecogniser` - the whole-string network of :mod:`browsercrawl.captcha.ctc`.
* :class:`VoteRecogniser` - several of the above; the answer with the most confidence-weighted
  votes wins, after the length and charset priors.

Confidence is in 0..1 and comparable enough across recognisers to vote and to decide when a
person should be asked instead.
"""

from __future__ import annotations

import os
from collections import ChainMap
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from browsercrawl.captcha import preprocess, segment
from browsercrawl.captcha.ctc import CtcNet
from browsercrawl.errors import EnvironmentProblem


def _pytesseract():
    """pytesseract, set to start Tesseract with one OpenMP thread.

    Tesseract's OpenMP threads only add spin-waiting on small images (on a busy 2-core machine each
    call got several times slower); its docs recommend 1 for many small images. The limit goes to
    Tesseract alone, through the environment pytesseract hands its subprocess (a live overlay on
    ``os.environ``): set process-wide, it would also cap PyTorch's threads when training runs in the
    same process.
    """
    import pytesseract

    mod = pytesseract.pytesseract
    if not isinstance(getattr(mod, "environ", None), ChainMap):
        mod.environ = ChainMap({"OMP_THREAD_LIMIT": "1"}, os.environ)
    return pytesseract


UNKNOWN_CONFIDENCE = 0.5


class Recogniser(Protocol):
    name: str

    def recognise(self, gray: np.ndarray) -> tuple[str, float]: ...


CASES = ("sensitive", "insensitive", "upper", "lower")


@dataclass
class Priors:
    """What the site's answers look like; used to filter and to penalise impossible answers.

    ``case`` is a property of the site: ``sensitive`` (answers must match letter for letter),
    ``insensitive`` (the site accepts any case), ``upper``/``lower`` (every answer is in that case,
    so a recogniser's other-case reading is folded onto it).
    """

    charset: str = ""
    min_len: int = 1
    max_len: int = 12
    case: str = "sensitive"

    def clean(self, text: str) -> str:
        text = "".join(text.split())
        if self.case == "upper" or (self.charset and self.charset.upper() == self.charset
                                    and text.upper() != text and self.case != "insensitive"):
            text = text.upper()
        elif self.case == "lower":
            text = text.lower()
        if self.charset:
            ok = set(self.allowed())
            text = "".join(c for c in text if c in ok)
        return text

    def allowed(self) -> str:
        """The characters an answer may hold (both cases of each on a case-insensitive site)."""
        if self.case == "insensitive":
            return "".join(sorted(set(self.charset) | set(self.charset.swapcase())))
        return self.charset

    def key(self, text: str) -> str:
        """What the site compares: the text itself, or its case-folded form when case does not count."""
        return text.casefold() if self.case == "insensitive" else text

    def same(self, answer: str, label: str) -> bool:
        """Would the site accept ``answer`` for a CAPTCHA whose label is ``label``?"""
        return self.key(answer) == self.key(label)

    def plausibility(self, text: str) -> float:
        """1.0 for a possible answer, a strong penalty for a length the site never uses."""
        return 1.0 if self.min_len <= len(text) <= self.max_len else 0.1

    def expected_len(self) -> int | None:
        return self.min_len if self.min_len == self.max_len else None


@dataclass
class TesseractRecogniser:
    """Tesseract with a whitelist; ``psm`` 7 (line), 8 (word) or 10 (each segmented character)."""

    priors: Priors
    psm: int = 7
    segmentation: str = "components"
    name: str = "tesseract"

    def _config(self, psm: int) -> str:
        wl = f" -c tessedit_char_whitelist={self.priors.charset}" if self.priors.charset else ""
        return f"--psm {psm} --oem 1{wl}"

    def _read(self, img: np.ndarray, psm: int) -> tuple[str, float]:
        pytesseract = _pytesseract()
        try:
            data = pytesseract.image_to_data(
                img, config=self._config(psm), output_type=pytesseract.Output.DICT
            )
        except pytesseract.TesseractNotFoundError as exc:
            raise EnvironmentProblem("tesseract is not installed; run scripts/setup.sh") from exc
        words = [(t, float(c)) for t, c in zip(data["text"], data["conf"], strict=False) if t.strip()]
        if not words:
            return "", 0.0
        text = "".join(t for t, _ in words)
        conf = min(max(c, 0.0) for _, c in words) / 100
        if conf == 0 and self.priors.charset:
            # Tesseract 5 reports confidence 0 for every word read under a whitelist; say
            # "unknown" rather than "certainly wrong" so callers do not reject good reads.
            conf = UNKNOWN_CONFIDENCE
        return text, conf

    def recognise(self, gray: np.ndarray) -> tuple[str, float]:
        if self.psm != 10:
            text, conf = self._read(gray, self.psm)
            text = self.priors.clean(text)
            return text, conf * self.priors.plausibility(text)
        gray = preprocess.grayscale(gray) if gray.ndim == 3 else gray
        binary = gray if _is_binary(gray) else preprocess.binarise_otsu(gray)
        boxes = segment.segment(binary, self.segmentation, self.priors.expected_len())
        chars, confs = [], []
        for x0, y0, x1, y1 in boxes:
            crop = preprocess.pad(binary[y0:y1, x0:x1], 8)
            t, c = self._read(crop, 10)
            t = self.priors.clean(t)[:1]
            chars.append(t)
            confs.append(c if t else 0.0)
        text = "".join(chars)
        conf = float(np.prod(confs)) if confs else 0.0
        return text, conf * self.priors.plausibility(text)


def _is_binary(img: np.ndarray) -> bool:
    return bool(np.isin(img, (0, 255)).all())


CHAR_SIZE = 24


def char_features(char: np.ndarray, deskew: bool) -> np.ndarray:
    """Pixels of the normalised character plus its aspect ratio, scaled to 0..1."""
    h, w = char.shape
    norm = segment.normalise(char, CHAR_SIZE, do_deskew=deskew)
    return np.concatenate([(255 - norm.ravel()) / 255.0, [w / max(h, 1)]]).astype(np.float32)


@dataclass
class Mlp:
    """A multi-layer perceptron's weights (trained by scikit-learn, run here with numpy)."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    classes: str

    def proba(self, x: np.ndarray) -> np.ndarray:
        a = x
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            a = a @ w + b
            if i < len(self.weights) - 1:
                a = np.maximum(a, 0)
        a = a - a.max(axis=-1, keepdims=True)
        e = np.exp(a)
        return e / e.sum(axis=-1, keepdims=True)


@dataclass
class CharRecogniser:
    """Segment into characters, classify each with the site's trained MLP."""

    priors: Priors
    mlp: Mlp
    segmentation: str = "components"
    deskew: bool = True
    name: str = "chars"

    def chars(self, gray: np.ndarray) -> list[np.ndarray]:
        gray = preprocess.grayscale(gray) if gray.ndim == 3 else gray
        binary = gray if _is_binary(gray) else preprocess.binarise_otsu(gray)
        boxes = segment.segment(binary, self.segmentation, self.priors.expected_len())
        return [binary[y0:y1, x0:x1] for x0, y0, x1, y1 in boxes]

    def recognise(self, gray: np.ndarray) -> tuple[str, float]:
        chars = self.chars(gray)
        if not chars:
            return "", 0.0
        x = np.stack([char_features(c, self.deskew) for c in chars])
        p = self.mlp.proba(x)
        best = p.argmax(axis=1)
        text = "".join(self.mlp.classes[i] for i in best)
        conf = float(np.prod(p[np.arange(len(best)), best]))
        return text, conf * self.priors.plausibility(text)


# Steps a view may be. Each turns a colour image into grayscale; of a grayscale image, only the
# views that change its shapes (SHAPE_VIEWS) make another view, the rest are the image itself.
CTC_VIEWS = ("grayscale", "max_channel", "min_channel", "saturation", "separate_background",
             "close_hairlines")
SHAPE_VIEWS = ("close_hairlines",)


@dataclass
class CtcRecogniser:
    """Whole-string CNN + CTC; needs no segmentation.

    ``views``: preprocessing steps that each turn a colour image into one grayscale view (see
    :mod:`browsercrawl.captcha.preprocess`); the network reads every view and the most confident
    answer wins. Luminance alone loses glyphs whose colour is as light as the background (a
    yellow on a light tint); the darkest channel keeps every saturated colour dark, so coloured
    glyphs stand out from light, pale noise. A grayscale input has one view.
    """

    priors: Priors
    net: CtcNet
    name: str = "ctc"
    views: tuple[str, ...] = ("grayscale",)
    # How much more often than the network expects the site draws each character (fitted to the
    # site's own images, see browsercrawl.captcha.site_prior); none: as the network expects.
    char_weights: dict[str, float] | None = None

    def recognise(self, gray: np.ndarray) -> tuple[str, float]:
        views = self.views if gray.ndim == 3 else \
            tuple(dict.fromkeys(v if v in SHAPE_VIEWS else "grayscale" for v in self.views))
        best = ("", -1.0)
        for view in views:
            text, conf = self.read(gray, view)
            if conf > best[1]:
                best = (text, conf)
        return best

    @staticmethod
    def view_of(img: np.ndarray, view: str) -> np.ndarray:
        """The grayscale image the network reads in ``view`` (a grayscale image is its own
        ``grayscale`` view; a shape view still applies to it)."""
        return img if img.ndim == 2 and view not in SHAPE_VIEWS else preprocess.STEPS[view](img)

    def read(self, img: np.ndarray, view: str) -> tuple[str, float]:
        """The answer and its confidence in one view of the image (a grayscale image is its own
        ``grayscale`` view)."""
        text, conf, _ = self.net.predict(self.net.input_for(self.view_of(img, view)), self.priors.allowed(),
                                         self.priors.min_len, self.priors.max_len, self.char_weights)
        text = self.priors.clean(text) if self.priors.case in ("upper", "lower") else text
        return text, conf * self.priors.plausibility(text)


@dataclass
class VoteRecogniser:
    """Confidence-weighted vote of several recognisers (weights per member)."""

    members: list[Recogniser]
    weights: list[float] = field(default_factory=list)
    name: str = "vote"

    def recognise(self, gray: np.ndarray) -> tuple[str, float]:
        scores: dict[str, float] = {}
        total = 0.0
        for i, r in enumerate(self.members):
            w = self.weights[i] if i < len(self.weights) else 1.0
            text, conf = r.recognise(gray)
            total += w
            if text:
                scores[text] = scores.get(text, 0.0) + w * conf
        if not scores:
            return "", 0.0
        text = max(scores, key=scores.__getitem__)
        return text, scores[text] / max(total, 1e-9)


def train_mlp(features: np.ndarray, labels: list[str], seed: int = 0) -> Mlp:
    """Fit a one-hidden-layer MLP on character features (seconds on a few thousand characters)."""
    from sklearn.neural_network import MLPClassifier

    clf = MLPClassifier(
        hidden_layer_sizes=(128,), alpha=1e-3, max_iter=150, early_stopping=False, random_state=seed
    )
    clf.fit(features, labels)
    classes = "".join(str(c) for c in clf.classes_)
    w = [c.astype(np.float32) for c in clf.coefs_]
    b = [c.astype(np.float32) for c in clf.intercepts_]
    if len(classes) == 2:  # sklearn uses one logistic output for two classes
        w[-1] = np.concatenate([-w[-1], w[-1]], axis=1)
        b[-1] = np.concatenate([-b[-1], b[-1]])
    return Mlp(w, b, classes)


def augment_char(char: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A slightly rotated/scaled copy of a binary character, to stretch small training sets."""
    h, w = char.shape
    m = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-8, 8)), float(rng.uniform(0.9, 1.1)))
    return cv2.warpAffine(char, m, (w, h), flags=cv2.INTER_NEAREST, borderValue=255)
