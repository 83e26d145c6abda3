"""Whole-string recogniser: a convolutional network read column by column with CTC.

Why whole-string: styles such as the ``captcha`` package's ImageCaptcha overlap and warp their
characters, so cutting them apart first loses most of the accuracy. A fully convolutional net whose
output columns are decoded with CTC needs no segmentation and learns from string labels alone.

Why fine-tuning: a few hundred labelled images are all a person can be asked for, and a network
trained on them alone memorises them. Training therefore starts, by default, from the bundled
base model (``models/base-ctc.npz``, pretrained on synthetic CAPTCHA-like text, see
:mod:`browsercrawl.captcha.synth` and ``scripts/pretrain_captcha.py``) or from the site's previous
model, whose output rows are carried over character by character (``ctc_train.init_state``).

This module is the solving side and imports no torch: a model file keeps the trainable parameters
(so it can be trained further, see :mod:`browsercrawl.captcha.ctc_train`, which needs PyTorch);
:class:`CtcNet` folds each batch-norm into the convolution before it when loading and runs the net
with numpy matrix products in a few milliseconds per image.

Architecture (:class:`Arch`): 3x3 conv blocks (batch-norm, ReLU, max-pool); the rows left after
pooling become channels of one sequence over the image columns; 1-D conv blocks over neighbouring
columns; a 1-D conv to charset + blank scores per column.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

INPUT_H = 48
BASE_MODEL = Path(__file__).with_name("models") / "base-ctc.npz"
BN_EPS = 1e-5
PARAM = "p:"  # prefix of parameter arrays in a model file


@dataclass(frozen=True)
class Arch:
    """Layer sizes; stored in every model file so a file always rebuilds its own network."""

    convs: tuple[tuple[int, tuple[int, int]], ...] = ((32, (2, 2)), (64, (2, 2)), (96, (2, 1)), (128, (2, 1)))
    seq: tuple[int, ...] = (128,)  # hidden 1-D conv blocks
    k: int = 3  # columns each 1-D conv sees
    input_h: int = INPUT_H

    @property
    def rows(self) -> int:
        """Feature rows left after pooling (they become channels of the column sequence)."""
        h = self.input_h
        for _, (ph, _) in self.convs:
            h //= ph
        return h

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Arch:
        return cls(
            convs=tuple((int(o), (int(p[0]), int(p[1]))) for o, p in d["convs"]),
            seq=tuple(int(s) for s in d["seq"]),
            k=int(d["k"]),
            input_h=int(d["input_h"]),
        )


DEFAULT_ARCH = Arch()


def input_width(aspect: float) -> int:
    """Network input width for a style whose images are ``aspect`` times wider than tall."""
    return int(min(256, max(64, round(INPUT_H * aspect / 8) * 8)))


def to_input(gray: np.ndarray, width: int) -> np.ndarray:
    """Resize a grayscale image to the network input and standardise it (float32, H x W)."""
    x = cv2.resize(gray, (width, INPUT_H), interpolation=cv2.INTER_AREA).astype(np.float32)
    return (x - x.mean()) / (x.std() + 1e-3)


def _fold(w: np.ndarray, p: dict[str, np.ndarray], bn: str) -> tuple[np.ndarray, np.ndarray]:
    """Fold batch-norm ``bn`` into the bias-free convolution weights ``w`` before it."""
    scale = p[f"{bn}.weight"] / np.sqrt(p[f"{bn}.running_var"] + BN_EPS)
    shape = (-1,) + (1,) * (w.ndim - 1)
    bias = p[f"{bn}.bias"] - p[f"{bn}.running_mean"] * scale
    return (w * scale.reshape(shape)).astype(np.float32), bias.astype(np.float32)


@dataclass
class CtcNet:
    """Numpy inference of a trained network (batch-norm folded into the convolutions)."""

    charset: str
    width: int  # 0: any width (the input is resized keeping the image's aspect)
    arch: Arch
    convs: list[tuple[np.ndarray, np.ndarray]]  # (O, C, 3, 3), (O,)
    seq: list[tuple[np.ndarray, np.ndarray]]  # (O, C, k), (O,)
    head: tuple[np.ndarray, np.ndarray]  # (K, C, k), (K,)
    _projections: dict[str, tuple[np.ndarray, np.ndarray, str]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_params(cls, params: dict[str, np.ndarray], meta: dict[str, Any]) -> CtcNet:
        """Build from a model file's parameter arrays (names as in the PyTorch module)."""
        arch = Arch.from_json(meta["arch"])
        convs = [_fold(params[f"body.{4 * i}.weight"], params, f"body.{4 * i + 1}")
                 for i in range(len(arch.convs))]
        seq = [_fold(params[f"seq.{3 * j}.weight"], params, f"seq.{3 * j + 1}") for j in range(len(arch.seq))]
        head = (params["head.weight"].astype(np.float32), params["head.bias"].astype(np.float32))
        return cls(meta["charset"], int(meta["width"]), arch, convs, seq, head)

    def input_for(self, gray: np.ndarray) -> np.ndarray:
        width = self.width or input_width(gray.shape[1] / max(1, gray.shape[0]))
        return to_input(gray, width)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Per-column class scores (T, K) for one standardised input image (H, W)."""
        a = x[None]
        for (w, b), (_, (ph, pw)) in zip(self.convs, self.arch.convs, strict=True):
            c, h, wd = a.shape
            p = np.pad(a, ((0, 0), (1, 1), (1, 1)))
            cols = np.lib.stride_tricks.sliding_window_view(p, (3, 3), axis=(1, 2))
            cols = cols.transpose(1, 2, 0, 3, 4).reshape(h * wd, c * 9)
            a = cols @ w.reshape(w.shape[0], -1).T + b
            a = np.maximum(a, 0).T.reshape(-1, h, wd)
            a = a[:, : h - h % ph, : wd - wd % pw]
            a = a.reshape(a.shape[0], h // ph, ph, wd // pw, pw).max(axis=(2, 4))
        s = a.reshape(-1, a.shape[2])  # (C * rows, T): channel c, row r -> c * rows + r, as in torch
        for w, b in self.seq:
            s = np.maximum(_conv1d(s, w, b), 0)
        return _conv1d(s, *self.head).T

    def probabilities(self, x: np.ndarray, allowed: str = "",
                      weights: Mapping[str, float] | None = None) -> tuple[np.ndarray, str]:
        """Per-column class probabilities (T, 1 + len(charset)) and that charset.

        ``allowed`` restricts the answer to a site's charset when the network knows more
        characters (the base model knows 62): each character's probability goes to itself, or to
        its other case when only that is allowed (a site whose answers are upper case), or is
        dropped; the allowed characters then share the column's character probability by the
        change in their prior (see :meth:`_projection`), the blank keeping its own, and the
        columns are renormalised. A lower-case ``l`` is never folded onto ``L``: it looks like
        ``I`` or ``1``, not like ``L``. ``weights`` (character -> factor, fitted to a site's
        images by :mod:`browsercrawl.captcha.site_prior`) weigh the characters the same way.
        """
        z = self.logits(x)
        z = z - z.max(axis=1, keepdims=True)
        prob = np.exp(z)
        prob /= prob.sum(axis=1, keepdims=True)
        charset = self.charset
        prior: np.ndarray | None = None
        if allowed and set(allowed) != set(charset):
            proj, prior, charset = self._projection(allowed)
            prob = prob @ proj
        if weights:
            w = np.array([weights.get(c, 1.0) for c in charset], np.float32)
            prior = w if prior is None else prior * w
        if prior is not None:
            prob = weigh_characters(prob, prior)
        return prob, charset

    def predict(self, x: np.ndarray, allowed: str = "", min_len: int = 1, max_len: int = 0,
                weights: Mapping[str, float] | None = None) -> tuple[str, float, np.ndarray]:
        """Decode: text, confidence (product of each emitted character's probability), columns.

        ``min_len``/``max_len`` (0: no limit) is the site's length prior: when the best path's
        text has another length, the best path of an allowed length is taken instead.
        """
        prob, charset = self.probabilities(x, allowed, weights)
        text, conf = decode(prob, charset, min_len, max_len)
        return text, conf, prob

    def _projection(self, allowed: str) -> tuple[np.ndarray, np.ndarray, str]:
        """The (K_net, 1 + len(allowed)) matrix folding the network's classes onto ``allowed``, and
        each allowed character's weight: one over the number of classes folded onto it.

        The network learned its characters equally often; a site draws each of its own equally
        often. Summed, a character with two of the network's classes behind it (``O`` and ``o``
        on an upper-case site) had twice the prior of one with one (``0``), and a round glyph was
        read ``O``: 19 of the 23 errors on the benchmark's lined style (docs/captcha.md). By
        Bayes, each site character's share is its classes' probability times its prior at the
        site over its prior in training, which is one over the classes folded onto it (the
        constant ``K / m`` cancels once the characters keep their share against the blank, whose
        prior is the same on both sides; keeping that share leaves the decision between a
        character and none exactly as the network makes it).
        """
        key = "".join(sorted(set(allowed)))
        cached = self._projections.get(key)
        if cached is None:
            out = {c: i + 1 for i, c in enumerate(key)}
            proj = np.zeros((len(self.charset) + 1, len(key) + 1), np.float32)
            proj[0, 0] = 1.0
            for i, c in enumerate(self.charset):
                j = out.get(c) or (None if c in NO_CASE_FOLD else out.get(c.swapcase()))
                if j:
                    proj[i + 1, j] = 1.0
            prior = 1.0 / np.maximum(proj[1:, 1:].sum(axis=0), 1.0)
            cached = self._projections[key] = (proj, prior.astype(np.float32), key)
        return cached


NO_CASE_FOLD = "l"


def weigh_characters(prob: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Column probabilities (T, 1 + K; blank first) with each character's scaled by its weight.

    The characters keep the share of each column they had against the blank, so whether a column
    emits a character at all stays the network's call; only which character it is moves.
    """
    chars = prob[:, 1:] * weights
    chars *= prob[:, 1:].sum(axis=1, keepdims=True) / np.maximum(chars.sum(axis=1, keepdims=True), 1e-30)
    out = np.concatenate([prob[:, :1], chars], axis=1)
    return out / np.maximum(out.sum(axis=1, keepdims=True), 1e-12)


def decode(prob: np.ndarray, charset: str, min_len: int = 1, max_len: int = 0) -> tuple[str, float]:
    """CTC decoding of (T, K) column probabilities (class 0 = blank), with a length prior.

    The greedy best path first; only when its length falls outside ``min_len..max_len`` (and
    ``max_len`` > 0) the most probable single path whose text has an allowed length, found by
    dynamic programming over (characters emitted, class of the column).
    """
    best = prob.argmax(axis=1)
    path = best
    n = sum(1 for t, k in enumerate(best) if k and (t == 0 or k != best[t - 1]))
    if max_len and not min_len <= n <= max_len and len(best) >= min_len:
        path = _path_with_length(np.log(np.maximum(prob, 1e-30)), min_len, max_len)
    text, conf, prev = [], 1.0, 0
    for t, k in enumerate(path):
        if k != 0 and k != prev:
            text.append(charset[k - 1])
            conf *= float(prob[t, k])
        prev = k
    return "".join(text), conf


def _path_with_length(logp: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """The most probable column path (one class per column) whose collapsed text has lo..hi chars.

    ``v[n, k]``: best log-probability of the columns so far, ending in class ``k`` with ``n``
    characters emitted. A blank keeps ``n``; repeating the previous class keeps ``n``; any other
    class emits one more. Columns: tens; classes: tens; lengths: up to a dozen: microseconds.
    """
    t_len, k_len = logp.shape
    neg = -1e30
    rows = np.arange(hi + 1)
    v = np.full((hi + 1, k_len), neg)
    v[0, 0] = logp[0, 0]
    if hi >= 1:
        v[1, 1:] = logp[0, 1:]
    back_n = np.zeros((t_len, hi + 1, k_len), np.int16)
    back_k = np.zeros((t_len, hi + 1, k_len), np.int16)
    ks = np.arange(1, k_len)
    for t in range(1, t_len):
        new = np.full_like(v, neg)
        top = np.argsort(v, axis=1)[:, -2:]  # second best, best (per n)
        best_k, second_k = top[:, 1], top[:, 0]
        new[:, 0] = v[rows, best_k] + logp[t, 0]
        back_n[t, :, 0], back_k[t, :, 0] = rows, best_k
        stay = v[:, 1:]
        prev_k = np.where(best_k[:-1, None] == ks[None, :], second_k[:-1, None], best_k[:-1, None])
        emit = np.full_like(stay, neg)
        emit[1:] = v[rows[:-1, None], prev_k]
        take_stay = stay >= emit
        new[:, 1:] = np.where(take_stay, stay, emit) + logp[t, 1:]
        back_n[t, :, 1:] = np.where(take_stay, rows[:, None], rows[:, None] - 1)
        emit_k = np.vstack([np.zeros((1, k_len - 1), int), prev_k])
        back_k[t, :, 1:] = np.where(take_stay, ks[None, :], emit_k)
        v = new
    allowed = v[lo : hi + 1]
    n, k = np.unravel_index(int(allowed.argmax()), allowed.shape)
    n += lo
    path = np.zeros(t_len, int)
    for t in range(t_len - 1, -1, -1):
        path[t] = k
        if t:
            n, k = int(back_n[t, n, k]), int(back_k[t, n, k])
    return path


def _conv1d(s: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Same-padded 1-D convolution of a (C, T) sequence with (O, C, k) weights -> (O, T)."""
    k = w.shape[2]
    t = s.shape[1]
    p = np.pad(s, ((0, 0), (k // 2, k // 2)))
    win = np.stack([p[:, i : i + t] for i in range(k)], axis=1)  # (C, k, T)
    return w.reshape(w.shape[0], -1) @ win.reshape(-1, t) + b[:, None]


def split_params(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The parameter arrays of a model file, names without the prefix."""
    return {k[len(PARAM):]: v for k, v in arrays.items() if k.startswith(PARAM)}


def model_meta(charset: str, width: int, arch: Arch, **extra: Any) -> dict[str, Any]:
    """The ``meta`` of a ctc model file (see ``profile.write_model``)."""
    return {"kind": "ctc", "charset": charset, "width": width, "arch": arch.to_json(), **extra}
