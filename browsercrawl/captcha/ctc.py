"""Whole-string recogniser: a convolutional network read column by column with CTC.

Why whole-string: styles such as the ``captcha`` package's ImageCaptcha overlap and warp their
characters, so cutting them apart first loses most of the accuracy. A fully convolutional net whose
output columns are decoded with CTC needs no segmentation and learns from string labels alone.

Why fine-tuning: a few hundred labelled images are all a person can be asked for, and a network
trained on them alone memorises them. Training therefore starts, by default, from the bundled
base model (``models/base-ctc.npz``, pretrained on synthetic CAPTCHA-like text, see
:mod:`browsercrawl.captcha.synth` and ``scripts/pretrain_captcha.py``) or from the site's previous
model, whose output rows are carried over character by character (:func:`init_state`).

Training uses PyTorch (optional extra ``captcha-train``); solving does not. A model file keeps the
trainable parameters (so it can be trained further); :class:`CtcNet` folds each batch-norm into the
convolution before it when loading and runs the net with numpy matrix products in a few
milliseconds per image.

Architecture (:class:`Arch`): 3x3 conv blocks (batch-norm, ReLU, max-pool); the rows left after
pooling become channels of one sequence over the image columns; 1-D conv blocks over neighbouring
columns; a 1-D conv to charset + blank scores per column.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from browsercrawl.errors import EnvironmentProblem, UserError

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


# -- numpy inference ------------------------------------------------------------------------------
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
    _projections: dict[str, tuple[np.ndarray, str]] = field(default_factory=dict, repr=False)

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

    def predict(self, x: np.ndarray, allowed: str = "") -> tuple[str, float, np.ndarray]:
        """Greedy CTC decode: text, confidence (product of the kept columns' top probability).

        ``allowed`` restricts the answer to a site's charset when the network knows more
        characters (the base model knows 62): each character's probability goes to itself, or to
        its other case when only that is allowed (a site whose answers are upper case), or is
        dropped; the columns are then renormalised.
        """
        z = self.logits(x)
        z = z - z.max(axis=1, keepdims=True)
        prob = np.exp(z)
        prob /= prob.sum(axis=1, keepdims=True)
        charset = self.charset
        if allowed and set(allowed) != set(charset):
            proj, charset = self._projection(allowed)
            prob = prob @ proj
            prob /= np.maximum(prob.sum(axis=1, keepdims=True), 1e-12)
        best = prob.argmax(axis=1)
        text, conf, prev = [], 1.0, 0
        for t, k in enumerate(best):
            if k != 0 and k != prev:
                text.append(charset[k - 1])
                conf *= float(prob[t, k])
            prev = k
        return "".join(text), conf, prob

    def _projection(self, allowed: str) -> tuple[np.ndarray, str]:
        """(K_net, 1 + len(allowed)) matrix folding the network's classes onto ``allowed``."""
        key = "".join(sorted(set(allowed)))
        cached = self._projections.get(key)
        if cached is None:
            out = {c: i + 1 for i, c in enumerate(key)}
            proj = np.zeros((len(self.charset) + 1, len(key) + 1), np.float32)
            proj[0, 0] = 1.0
            for i, c in enumerate(self.charset):
                j = out.get(c) or out.get(c.swapcase())
                if j:
                    proj[i + 1, j] = 1.0
            cached = self._projections[key] = (proj, key)
        return cached


def _conv1d(s: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Same-padded 1-D convolution of a (C, T) sequence with (O, C, k) weights -> (O, T)."""
    k = w.shape[2]
    t = s.shape[1]
    p = np.pad(s, ((0, 0), (k // 2, k // 2)))
    win = np.stack([p[:, i : i + t] for i in range(k)], axis=1)  # (C, k, T)
    return w.reshape(w.shape[0], -1) @ win.reshape(-1, t) + b[:, None]


# -- training (PyTorch) ---------------------------------------------------------------------------
def default_threads() -> int:
    """Training threads: the cores this process may use, at most 4 (small convs scale no further).

    Measured on an idle 2-core machine: a training step took 292 ms on one thread, 186 ms on two.
    """
    return max(1, min(4, len(os.sched_getaffinity(0))))


def _torch():
    try:
        import torch
    except ImportError as exc:
        raise EnvironmentProblem(
            "training the CTC recogniser needs PyTorch: pip install 'browsercrawl[captcha-train]'"
        ) from exc
    return torch


def build_torch_net(arch: Arch, n_classes: int):
    """The PyTorch module for ``arch`` with ``n_classes`` outputs (charset + blank)."""
    torch = _torch()
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            blocks: list[Any] = []
            c = 1
            for o, pool in arch.convs:
                blocks += [nn.Conv2d(c, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(),
                           nn.MaxPool2d(pool)]
                c = o
            self.body = nn.Sequential(*blocks)
            seq: list[Any] = []
            c *= arch.rows
            for o in arch.seq:
                seq += [nn.Conv1d(c, o, arch.k, padding=arch.k // 2, bias=False), nn.BatchNorm1d(o),
                        nn.ReLU()]
                c = o
            self.seq = nn.Sequential(*seq)
            self.drop = nn.Dropout(0.2)
            self.head = nn.Conv1d(c, n_classes, arch.k, padding=arch.k // 2)

        def forward(self, x):
            a = self.body(x)
            a = a.reshape(a.shape[0], a.shape[1] * a.shape[2], a.shape[3])
            return self.head(self.drop(self.seq(a)))  # (N, K, T)

    return Net()


def params_of(net) -> dict[str, np.ndarray]:
    """A torch module's parameters and batch-norm statistics as model-file arrays."""
    return {PARAM + k: v.detach().cpu().numpy().copy() for k, v in net.state_dict().items()
            if not k.endswith("num_batches_tracked")}


def split_params(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The parameter arrays of a model file, names without the prefix."""
    return {k[len(PARAM):]: v for k, v in arrays.items() if k.startswith(PARAM)}


def init_state(net, params: dict[str, np.ndarray], from_charset: str, charset: str) -> int:
    """Load ``params`` into ``net``; output rows follow the characters. Returns rows carried over.

    Every layer but the head is copied as is. Head row 0 is the CTC blank; the row of each character
    of ``charset`` is copied from the same character in ``from_charset`` (or, for a site whose
    answers are upper case, from its lower-case twin); characters the old model never saw keep their
    fresh random rows.
    """
    torch = _torch()
    state = net.state_dict()
    for k, v in params.items():
        if k.startswith("head.") or k not in state:
            continue
        if tuple(state[k].shape) != v.shape:
            raise UserError(f"the model to start from has another architecture ({k}: {v.shape})")
        state[k] = torch.from_numpy(v)
    hw, hb = state["head.weight"].clone(), state["head.bias"].clone()
    src_w, src_b = torch.from_numpy(params["head.weight"]), torch.from_numpy(params["head.bias"])
    if tuple(src_w.shape[1:]) != tuple(hw.shape[1:]):
        raise UserError("the model to start from has another architecture (head)")
    rows = {c: i + 1 for i, c in enumerate(from_charset)}
    hw[0], hb[0] = src_w[0], src_b[0]
    carried = 0
    for i, c in enumerate(charset):
        j = rows.get(c) or rows.get(c.swapcase())
        if j is not None:
            hw[i + 1], hb[i + 1] = src_w[j], src_b[j]
            carried += 1
    state["head.weight"], state["head.bias"] = hw, hb
    net.load_state_dict(state)
    return carried


@dataclass
class TrainPlan:
    """How long and how hard to train; progress is the larger of the step and time fractions."""

    max_steps: int = 2500
    budget_s: float = 270.0
    batch: int = 32
    peak_lr: float = 3e-3
    warmup: float = 0.05
    threads: int = 1
    seed: int = 0
    log_every: int = 200


def train_torch(
    inputs: list[np.ndarray],
    labels: list[str],
    charset: str,
    plan: TrainPlan | None = None,
    *,
    arch: Arch = DEFAULT_ARCH,
    init: tuple[dict[str, np.ndarray], str] | None = None,
    log=None,
):
    """Train on standardised inputs of one width; returns the torch module (in eval mode).

    ``init`` is (parameters, their charset) of a model to start from. The learning rate follows a
    warm-up + cosine schedule over progress = the larger of the step and time fractions, so the run
    ends on time on a loaded machine instead of being cut off at a high learning rate, and ends
    early on an idle one. Augmentation (small affine warps, noise) stretches the small labelled set.
    """
    torch = _torch()
    plan = plan or TrainPlan()
    torch.manual_seed(plan.seed)
    rng = np.random.default_rng(plan.seed)
    net = build_torch_net(arch, len(charset) + 1)
    if init is not None:
        carried = init_state(net, init[0], init[1], charset)
        if log:
            log(f"starting from a trained model ({carried} of {len(charset)} characters known)")
    x_all = torch.from_numpy(np.stack(inputs)[:, None].astype(np.float32))
    idx = {c: i + 1 for i, c in enumerate(charset)}
    targets = [torch.tensor([idx[c] for c in s], dtype=torch.long) for s in labels]
    run_steps(net, plan, log, lambda: _batch(torch, x_all, targets, labels, plan.batch, rng))
    return net


def _batch(torch, x_all, targets, labels, size: int, rng: np.random.Generator):
    sel = rng.choice(len(labels), size=min(size, len(labels)), replace=False)
    xb = augment(torch, x_all[sel], rng)
    return xb, torch.cat([targets[i] for i in sel]), torch.tensor([len(labels[i]) for i in sel])


def run_steps(net, plan: TrainPlan, log, next_batch) -> int:
    """The optimisation loop shared by site training and pretraining; returns steps done."""
    torch = _torch()
    nn = torch.nn
    # Denormal floats in the convolutions' backward pass made steps take seconds instead of
    # ~0.5 s (seen in pretraining); flushing them to zero changes nothing measurable in accuracy.
    torch.set_flush_denormal(True)
    torch.set_num_threads(plan.threads)
    net.train()
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.AdamW(net.parameters(), lr=plan.peak_lr, weight_decay=1e-4)
    start, step, smooth = time.monotonic(), 0, None
    while True:
        frac = max((time.monotonic() - start) / plan.budget_s, step / plan.max_steps)
        if frac >= 1:
            break
        lr = plan.peak_lr * min(1.0, frac / plan.warmup) * 0.5 * (1 + math.cos(math.pi * frac))
        for g in opt.param_groups:
            g["lr"] = lr
        xb, tgt, tl = next_batch()
        out = net(xb).log_softmax(1).permute(2, 0, 1)  # (T, N, K)
        il = torch.full((xb.shape[0],), out.shape[0], dtype=torch.long)
        loss = ctc(out, tgt, il, tl)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        opt.step()
        step += 1
        smooth = loss.item() if smooth is None else 0.98 * smooth + 0.02 * loss.item()
        if log and step % plan.log_every == 0:
            per_step = (time.monotonic() - start) / step
            log(f"step {step} loss {smooth:.3f} lr {lr:.5f} {frac:.0%} of budget, {per_step:.2f} s/step")
    if log:
        log(f"stopped after {step} steps, {time.monotonic() - start:.0f} s")
    net.eval()
    return step


def augment(torch, xb, rng: np.random.Generator):
    """Random small rotation, scale, shear and shift, plus pixel noise, on a batch in one go."""
    import torch.nn.functional as F

    n = xb.shape[0]
    ang = torch.from_numpy(rng.uniform(-0.08, 0.08, n)).float()
    sc = torch.from_numpy(rng.uniform(0.9, 1.1, n)).float()
    sh = torch.from_numpy(rng.uniform(-0.15, 0.15, n)).float()
    tx = torch.from_numpy(rng.uniform(-0.05, 0.05, n)).float()
    ty = torch.from_numpy(rng.uniform(-0.1, 0.1, n)).float()
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = torch.cos(ang) / sc
    theta[:, 0, 1] = -torch.sin(ang) / sc + sh
    theta[:, 1, 0] = torch.sin(ang) / sc
    theta[:, 1, 1] = torch.cos(ang) / sc
    theta[:, 0, 2], theta[:, 1, 2] = tx, ty
    grid = F.affine_grid(theta, list(xb.shape), align_corners=False)
    out = F.grid_sample(xb, grid, padding_mode="border", align_corners=False)
    return out + 0.1 * torch.randn_like(out)


def to_numpy(net, charset: str, width: int, arch: Arch = DEFAULT_ARCH) -> CtcNet:
    """The numpy network of a trained torch module (what a saved model loads as)."""
    return CtcNet.from_params(split_params(params_of(net)), model_meta(charset, width, arch))


def model_meta(charset: str, width: int, arch: Arch, **extra: Any) -> dict[str, Any]:
    """The ``meta`` of a ctc model file (see ``profile.write_model``)."""
    return {"kind": "ctc", "charset": charset, "width": width, "arch": arch.to_json(), **extra}

