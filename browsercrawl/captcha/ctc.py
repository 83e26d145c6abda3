"""Whole-string recogniser: a small convolutional network read column by column with CTC.

Why whole-string: styles such as the ``captcha`` package's ImageCaptcha overlap and warp their
characters, so cutting them apart first loses most of the accuracy. A fully convolutional net whose
output columns are decoded with CTC needs no segmentation and learns from string labels alone.

Training uses PyTorch (optional extra ``captcha-train``); solving does not: the trained weights are
folded (batch-norm into convolutions) and stored as numpy arrays, and :class:`CtcNet` runs them with
numpy matrix products in a few milliseconds per image.

Architecture: four 3x3 conv blocks (batch-norm, ReLU, max-pool), the height averaged away, then a
1-D convolution over neighbouring columns to charset + blank scores per column.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import cv2
import numpy as np

from browsercrawl.errors import EnvironmentProblem

# (out channels, pool (h, w)) of each 3x3 conv block; the height left after pooling is averaged out.
ARCH: tuple[tuple[int, tuple[int, int]], ...] = (
    (32, (2, 2)),
    (48, (2, 2)),
    (64, (2, 1)),
    (96, (2, 1)),
)
INPUT_H = 48
NUM_THREADS = 1  # on a shared 2-core box a second OpenMP thread mostly spins waiting for the first
HEAD_K = 5  # each output column sees this many neighbouring feature columns


def input_width(aspect: float) -> int:
    """Network input width for a style whose images are ``aspect`` times wider than tall."""
    return int(min(256, max(64, round(INPUT_H * aspect / 8) * 8)))


def to_input(gray: np.ndarray, width: int) -> np.ndarray:
    """Resize a grayscale image to the network input and standardise it (float32, H x W)."""
    x = cv2.resize(gray, (width, INPUT_H), interpolation=cv2.INTER_AREA).astype(np.float32)
    return (x - x.mean()) / (x.std() + 1e-3)


@dataclass
class CtcNet:
    """Numpy inference of the trained network; ``layers`` hold folded conv weights and biases."""

    charset: str
    width: int
    layers: list[tuple[np.ndarray, np.ndarray]]  # (O, C, 3, 3), (O,)
    pools: list[tuple[int, int]]
    head: tuple[np.ndarray, np.ndarray]  # (K, C*k) over k neighbouring columns, (K,)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Per-column class scores (T, K) for one standardised input image (H, W)."""
        a = x[None]
        for (w, b), (ph, pw) in zip(self.layers, self.pools, strict=True):
            c, h, wd = a.shape
            p = np.pad(a, ((0, 0), (1, 1), (1, 1)))
            cols = np.lib.stride_tricks.sliding_window_view(p, (3, 3), axis=(1, 2))
            cols = cols.transpose(1, 2, 0, 3, 4).reshape(h * wd, c * 9)
            a = cols @ w.reshape(w.shape[0], -1).T + b
            a = np.maximum(a, 0).T.reshape(-1, h, wd)
            a = a[:, : h - h % ph, : wd - wd % pw]
            a = a.reshape(a.shape[0], h // ph, ph, wd // pw, pw).max(axis=(2, 4))
        seq = a.mean(axis=1)  # (C, T)
        hw, hb = self.head
        k = hw.shape[1] // seq.shape[0]
        p = np.pad(seq, ((0, 0), (k // 2, k // 2)))
        t = seq.shape[1]
        win = np.stack([p[:, i : i + t] for i in range(k)], axis=1)  # (C, k, T)
        return win.reshape(-1, t).T @ hw.T + hb

    def predict(self, x: np.ndarray) -> tuple[str, float, np.ndarray]:
        """Greedy CTC decode: text, confidence (product of the kept columns' top probability)."""
        z = self.logits(x)
        z = z - z.max(axis=1, keepdims=True)
        prob = np.exp(z)
        prob /= prob.sum(axis=1, keepdims=True)
        best = prob.argmax(axis=1)
        text, conf, prev = [], 1.0, 0
        for t, k in enumerate(best):
            if k != 0 and k != prev:
                text.append(self.charset[k - 1])
                conf *= float(prob[t, k])
            prev = k
        return "".join(text), conf, prob

    def to_arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {"ctc_head_w": self.head[0], "ctc_head_b": self.head[1]}
        for i, (w, b) in enumerate(self.layers):
            out[f"ctc_w{i}"], out[f"ctc_b{i}"] = w, b
        out["ctc_pools"] = np.array(self.pools, dtype=np.int32)
        return out

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], charset: str, width: int) -> CtcNet:
        pools = [tuple(int(v) for v in p) for p in arrays["ctc_pools"]]
        layers = [(arrays[f"ctc_w{i}"], arrays[f"ctc_b{i}"]) for i in range(len(pools))]
        head = (arrays["ctc_head_w"], arrays["ctc_head_b"])
        return cls(charset, width, layers, pools, head)  # type: ignore[arg-type]


def _torch():
    try:
        import torch
    except ImportError as exc:
        raise EnvironmentProblem(
            "training the CTC recogniser needs PyTorch: pip install 'browsercrawl[captcha-train]'"
        ) from exc
    return torch


def train_ctc(
    inputs: list[np.ndarray],
    labels: list[str],
    charset: str,
    width: int,
    budget_s: float = 270.0,
    seed: int = 0,
    log=None,
    max_steps: int = 2500,
) -> CtcNet:
    """Train (see :func:`train_torch`) and fold the result into a numpy :class:`CtcNet`."""
    return fold(train_torch(inputs, labels, charset, budget_s, seed, log, max_steps), charset, width)


def train_torch(
    inputs: list[np.ndarray],
    labels: list[str],
    charset: str,
    budget_s: float = 270.0,
    seed: int = 0,
    log=None,
    max_steps: int = 2500,
):
    """Train on standardised inputs for ``max_steps`` batches or ``budget_s`` seconds; CPU only.

    The learning rate follows a warm-up + cosine schedule over progress = the larger of the step
    and time fractions, so the run ends on time on a loaded machine instead of being cut off at a
    high learning rate, and ends early on an idle one.
    Augmentation (small affine warps, noise) stands in for the thousands of samples such nets
    usually get; a few hundred labelled images are all a person can be asked for.
    """
    torch = _torch()
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(NUM_THREADS)
    rng = np.random.default_rng(seed)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            blocks, c = [], 1
            for o, pool in ARCH:
                blocks += [nn.Conv2d(c, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]
                blocks.append(nn.MaxPool2d(pool))
                c = o
            self.body = nn.Sequential(*blocks)
            self.drop = nn.Dropout(0.2)
            self.head = nn.Conv1d(c, len(charset) + 1, HEAD_K, padding=HEAD_K // 2)

        def forward(self, x):
            return self.head(self.drop(self.body(x).mean(dim=2)))  # (N, K, T)

    net = Net()
    x_all = torch.from_numpy(np.stack(inputs)[:, None].astype(np.float32))
    idx = {c: i + 1 for i, c in enumerate(charset)}
    targets = [torch.tensor([idx[c] for c in s], dtype=torch.long) for s in labels]
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    peak, batch, n = 3e-3, 32, len(inputs)
    start, step = time.monotonic(), 0
    while True:
        frac = max((time.monotonic() - start) / budget_s, step / max_steps)
        if frac >= 1:
            break
        lr = peak * min(1.0, frac / 0.05) * 0.5 * (1 + math.cos(math.pi * frac))
        for g in opt.param_groups:
            g["lr"] = lr
        sel = rng.choice(n, size=min(batch, n), replace=False)
        xb = _augment(torch, x_all[sel], rng)
        out = net(xb).log_softmax(1).permute(2, 0, 1)  # (T, N, K)
        tgt = torch.cat([targets[i] for i in sel])
        tl = torch.tensor([len(labels[i]) for i in sel])
        il = torch.full((len(sel),), out.shape[0], dtype=torch.long)
        loss = ctc(out, tgt, il, tl)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        opt.step()
        step += 1
        if log and step % 200 == 0:
            log(f"step {step} loss {loss.item():.3f} lr {lr:.5f} {frac:.0%} of budget")
    if log:
        log(f"stopped after {step} steps, {time.monotonic() - start:.0f} s")
    net.eval()
    return net


def _augment(torch, xb, rng: np.random.Generator):
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


def fold(net, charset: str, width: int) -> CtcNet:
    """Fold each batch-norm into the conv before it and copy weights out as numpy arrays."""
    layers, pools = [], []
    mods = list(net.body)
    for i in range(0, len(mods), 4):
        conv, bn, _, pool = mods[i : i + 4]
        scale = (bn.weight / (bn.running_var + bn.eps).sqrt()).detach().numpy()
        w = conv.weight.detach().numpy() * scale[:, None, None, None]
        b = (bn.bias.detach().numpy() - bn.running_mean.detach().numpy() * scale)
        layers.append((w.astype(np.float32), b.astype(np.float32)))
        ks = pool.kernel_size
        pools.append((ks, ks) if isinstance(ks, int) else tuple(ks))
    hw = net.head.weight.detach().numpy()  # (K, C, k)
    head = (hw.reshape(hw.shape[0], -1).astype(np.float32), net.head.bias.detach().numpy())
    return CtcNet(charset, width, layers, pools, head)
