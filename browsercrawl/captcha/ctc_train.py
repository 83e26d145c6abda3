"""Training the whole-string CTC network with PyTorch (the extra ``captcha-train``).

Solving never imports this module (nor torch): :mod:`browsercrawl.captcha.ctc` runs a trained
network with numpy. Here: the PyTorch module matching an :class:`~browsercrawl.captcha.ctc.Arch`,
loading a model to start from (output rows carried over by character), the optimisation loop
shared by site training and pretraining, and the augmentation that stretches a small labelled set.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from browsercrawl.captcha.ctc import DEFAULT_ARCH, PARAM, Arch, CtcNet, model_meta, split_params
from browsercrawl.errors import EnvironmentProblem, UserError


def default_threads() -> int:
    """Training threads when fixed by hand: the cores this process may use, at most 4."""
    return max(1, min(4, len(os.sched_getaffinity(0))))


def import_torch():
    """PyTorch, imported with its OpenMP workers set to sleep rather than spin while idle.

    libgomp reads ``OMP_WAIT_POLICY`` once, when torch loads it. Its default keeps idle workers
    spinning, which on a shared, loaded machine burns the very cores the working thread waits
    for: the suite's small training test took 59-176 s at a load of 10-16 with the default and
    19-26 s with passive workers, alternating runs. A value the user set is kept.
    """
    if "torch" not in sys.modules:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import torch
    except ImportError as exc:
        raise EnvironmentProblem(
            "training the CTC recogniser needs PyTorch: pip install 'browsercrawl[captcha-train]'"
        ) from exc
    return torch


def build_net(arch: Arch, n_classes: int):
    """The PyTorch module for ``arch`` with ``n_classes`` outputs (charset + blank)."""
    torch = import_torch()
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


def init_state(net, params: dict[str, np.ndarray], from_charset: str, charset: str) -> int:
    """Load ``params`` into ``net``; output rows follow the characters. Returns rows carried over.

    Every layer but the head is copied as is. Head row 0 is the CTC blank; the row of each character
    of ``charset`` is copied from the same character in ``from_charset`` (or, for a site whose
    answers are upper case, from its lower-case twin); characters the old model never saw keep their
    fresh random rows.
    """
    torch = import_torch()
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
    """How much to train: a budget of steps (batches), cut short by early stopping.

    The learning rate follows warm-up + cosine over ``max_steps``, so what a run learns does not
    depend on how busy the machine is. ``max_seconds`` is only a safety net: a run it cuts short
    says so loudly (steps done, held-back accuracy) and leaves a checkpoint to resume from; when
    the cap is going to come first, the schedule follows the clock so the cut run still ends
    annealed (pretraining's hours-long runs rely on that).
    """

    max_steps: int = 1500
    batch: int = 32
    peak_lr: float = 3e-3
    warmup: float = 0.05
    threads: int | None = None  # None: measured while training (1 or 2, whichever steps faster)
    seed: int = 0
    log_every: int = 100
    eval_every: int = 100  # steps between held-back checks
    patience: int = 4  # held-back checks without improvement before stopping
    max_seconds: float | None = None
    checkpoint: Path | None = None
    checkpoint_every_s: float = 30.0
    freeze: int = 0  # leading conv blocks kept as they are (fewer weights to overfit, faster steps)
    strong_augment: bool = False


@dataclass
class TrainReport:
    """What a run did: the caller reports it and decides nothing silently."""

    steps: int = 0
    planned: int = 0
    stopped_by: str = "budget"  # budget | early-stop | held-back perfect | wall-clock cap
    seconds: float = 0.0
    held_exact: float | None = None  # exact-match rate of the kept weights on the held-back split
    best_step: int = 0
    threads: int = 1
    resumed_from: int = 0
    step_ms: float = 0.0

    def summary(self) -> str:
        held = ("" if self.held_exact is None
                else f", held-back exact {self.held_exact:.1%} (step {self.best_step})")
        resumed = f", resumed at step {self.resumed_from}" if self.resumed_from else ""
        return (f"{self.steps} of {self.planned} steps in {self.seconds:.0f} s ({self.step_ms:.0f} ms/step, "
                f"{self.threads} thread{'s' if self.threads > 1 else ''}), stopped by {self.stopped_by}"
                f"{held}{resumed}")


def train_net(
    inputs: list[np.ndarray],
    labels: list[str],
    charset: str,
    plan: TrainPlan | None = None,
    *,
    arch: Arch = DEFAULT_ARCH,
    init: tuple[dict[str, np.ndarray], str] | None = None,
    held: tuple[list[np.ndarray], list[str]] | None = None,
    same: Callable[[str, str], bool] | None = None,
    log=None,
    resume: bool = False,
):
    """Train on standardised inputs of one width; returns (torch module in eval mode, report).

    ``init`` is (parameters, their charset) of a model to start from. ``held`` (inputs, labels)
    is the held-back split early stopping watches; ``same`` compares an answer with a label (the
    site's case rule). Augmentation (small affine warps, noise) stretches the small labelled set.
    """
    torch = import_torch()
    plan = plan or TrainPlan()
    torch.manual_seed(plan.seed)
    rng = np.random.default_rng(plan.seed)
    net = build_net(arch, len(charset) + 1)
    if init is not None:
        carried = init_state(net, init[0], init[1], charset)
        if log:
            log(f"starting from a trained model ({carried} of {len(charset)} characters known)")
    x_all = torch.from_numpy(np.stack(inputs)[:, None].astype(np.float32))
    idx = {c: i + 1 for i, c in enumerate(charset)}
    targets = [torch.tensor([idx[c] for c in s], dtype=torch.long) for s in labels]
    score = None
    if held and held[0]:
        x_held = torch.from_numpy(np.stack(held[0])[:, None].astype(np.float32))
        t_held = [torch.tensor([idx[c] for c in s], dtype=torch.long) for s in held[1]]
        score = lambda m: held_scores(m, x_held, held[1], t_held, charset, same)  # noqa: E731
    report = run_steps(net, plan, log,
                       lambda: _batch(torch, x_all, targets, labels, plan.batch, rng, plan.strong_augment),
                       score=score, resume=resume, rng=rng)
    return net, report


def held_scores(net, x, labels: list[str], targets: list[Any], charset: str,
                same: Callable[[str, str], bool] | None = None) -> tuple[float, float]:
    """Exact-match rate of greedy decoding on a held-back batch, and its mean CTC loss (the module
    is left as it was). The rate moves in steps of one image; the loss tells a network that is
    still learning from one that has stopped."""
    torch = import_torch()
    was_training = net.training
    net.eval()
    ok, loss_sum = 0, 0.0
    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True, reduction="sum")
    with torch.no_grad():
        for i in range(0, len(labels), 128):
            out = net(x[i : i + 128])
            best = out.argmax(1).numpy()
            for row, label in zip(best, labels[i : i + 128], strict=True):
                text = "".join(charset[k - 1] for j, k in enumerate(row) if k and (j == 0 or k != row[j - 1]))
                ok += same(text, label) if same else text == label
            tg = targets[i : i + 128]
            logp = out.log_softmax(1).permute(2, 0, 1)
            il = torch.full((len(tg),), logp.shape[0], dtype=torch.long)
            loss_sum += float(ctc(logp, torch.cat(tg), il, torch.tensor([len(t) for t in tg])))
    net.train(was_training)
    return ok / max(1, len(labels)), loss_sum / max(1, len(labels))


def _batch(torch, x_all, targets, labels, size: int, rng: np.random.Generator, strong: bool = False):
    sel = rng.choice(len(labels), size=min(size, len(labels)), replace=False)
    xb = augment(torch, x_all[sel], rng, strong)
    return xb, torch.cat([targets[i] for i in sel]), torch.tensor([len(labels[i]) for i in sel])


class _ThreadChooser:
    """Picks 1 or 2 threads by timing real training steps, and checks again now and then.

    On an idle 2-core machine two threads step faster; under load, OpenMP threads wait for
    each other on busy cores and one thread is several times faster (see docs/captcha.md). The
    load changes during a run, so every ``recheck`` steps a few steps run with the other count.
    """

    def __init__(self, torch, fixed: int | None, recheck: int = 300, probe: int = 3) -> None:
        self.torch, self.fixed, self.recheck, self.probe = torch, fixed, recheck, probe
        cores = len(os.sched_getaffinity(0))
        self.options = [1, 2] if cores >= 2 else [1]
        # First guess: two threads on a quiet machine, one on a busy one (load average at or
        # above the cores: two threads would wait for each other); the timing then decides.
        self.current = fixed or (self.options[-1] if os.getloadavg()[0] < cores else 1)
        self.times: dict[int, list[float]] = {}
        self.trying: int | None = None
        self.since = 0

    def before_step(self, step: int) -> None:
        if self.fixed or len(self.options) == 1:
            self.torch.set_num_threads(self.current)
            return
        if self.trying is None and (step == 2 or self.since >= self.recheck):
            self.trying = next(t for t in self.options if t != self.current)
            self.times = {}
            self.since = 0
        self.torch.set_num_threads(self.trying or self.current)

    def after_step(self, seconds: float) -> None:
        self.since += 1
        if self.fixed or len(self.options) == 1:
            return
        used = self.trying or self.current
        self.times.setdefault(used, []).append(seconds)
        if self.trying is not None and len(self.times.get(self.trying, [])) >= self.probe:
            mine = sorted(self.times.get(self.current, [])[-self.probe:])
            theirs = sorted(self.times[self.trying])
            if not mine or theirs[len(theirs) // 2] < 0.9 * mine[len(mine) // 2]:
                self.current = self.trying
            self.trying = None


def run_steps(net, plan: TrainPlan, log, next_batch, *, score=None, resume: bool = False,
              rng: np.random.Generator | None = None) -> TrainReport:
    """The optimisation loop shared by site training and pretraining.

    ``score(net)`` (held-back exact match, or that and the held-back loss) is checked every
    ``plan.eval_every`` steps; the best weights are kept and restored at the end (of equal ones the
    later: more trained, at a lower learning rate), and the run stops after ``plan.patience``
    checks in which neither the exact rate nor the loss improved (or two perfect checks in a row).
    On a split of 50 images the rate moves by 2 points, and one lucky early check used to stop a
    run that was still learning (on a 500-label style one run stopped at step 500 of 800 with step
    200's weights and read 81.5 %, two others 86.5 % and 89.0 %).

    With ``plan.checkpoint``, the whole state is saved every ``checkpoint_every_s`` seconds and on
    a wall-clock stop; ``resume`` continues it.
    """
    torch = import_torch()
    nn = torch.nn
    # Denormal floats in the convolutions' backward pass made steps take seconds instead of
    # ~0.5 s (seen in pretraining); flushing them to zero changes nothing measurable in accuracy.
    torch.set_flush_denormal(True)
    chooser = _ThreadChooser(torch, plan.threads)
    frozen = [m for block in list(net.body.children())[: 4 * plan.freeze] for m in block.parameters()]
    for p in frozen:
        p.requires_grad_(False)
    net.train()
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.AdamW([p for p in net.parameters() if p.requires_grad], lr=plan.peak_lr,
                            weight_decay=1e-4)
    report = TrainReport(planned=plan.max_steps)
    best_state, best_score, since_best, perfect = None, -1.0, 0, 0
    best_loss = math.inf
    step, smooth = 0, None
    if resume and plan.checkpoint and plan.checkpoint.is_file():
        ck = torch.load(plan.checkpoint, weights_only=True)
        net.load_state_dict(ck["net"])
        opt.load_state_dict(ck["opt"])
        step, smooth = int(ck["step"]), ck["smooth"]
        best_state, best_score = ck["best_state"], float(ck["best_score"])
        best_loss = float(ck.get("best_loss", math.inf))
        since_best, perfect = int(ck["since_best"]), int(ck["perfect"])
        report.resumed_from = step
        if rng is not None:  # a different but reproducible draw of batches from here on
            rng.bit_generator.state = np.random.default_rng(plan.seed + step).bit_generator.state
        if log:
            log(f"resuming from {plan.checkpoint} at step {step}")

    def save_checkpoint() -> None:
        if plan.checkpoint is None:
            return
        tmp = plan.checkpoint.with_name(plan.checkpoint.name + ".tmp")
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "step": step, "smooth": smooth,
                    "best_state": best_state, "best_score": best_score, "best_loss": best_loss,
                    "since_best": since_best,
                    "perfect": perfect}, tmp)
        tmp.replace(plan.checkpoint)

    start = last_save = time.monotonic()
    first_step = step
    while True:
        elapsed = time.monotonic() - start
        if step >= plan.max_steps:
            break
        if plan.max_seconds is not None and elapsed >= plan.max_seconds:
            report.stopped_by = "wall-clock cap"
            break
        # The schedule follows the steps; only when the wall-clock cap is going to end the run
        # first does it follow the clock, so a cut run still ends at a low learning rate.
        frac = step / plan.max_steps
        if plan.max_seconds:
            frac = max(frac, elapsed / plan.max_seconds)
        lr = plan.peak_lr * min(1.0, (frac + 1e-9) / plan.warmup) * 0.5 * (1 + math.cos(math.pi * frac))
        for g in opt.param_groups:
            g["lr"] = lr
        chooser.before_step(step)
        t0 = time.perf_counter()
        xb, tgt, tl = next_batch()
        out = net(xb).log_softmax(1).permute(2, 0, 1)  # (T, N, K)
        il = torch.full((xb.shape[0],), out.shape[0], dtype=torch.long)
        loss = ctc(out, tgt, il, tl)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        opt.step()
        chooser.after_step(time.perf_counter() - t0)
        step += 1
        smooth = loss.item() if smooth is None else 0.98 * smooth + 0.02 * loss.item()
        if log and step % plan.log_every == 0:
            per_step = (time.monotonic() - start) / max(1, step - first_step)
            log(f"step {step} loss {smooth:.3f} lr {lr:.5f} {per_step:.2f} s/step, "
                f"{chooser.current} thread(s)")
        if score is not None and (step % plan.eval_every == 0 or step == plan.max_steps):
            s, held_loss = _exact_and_loss(score(net))
            learning = s > best_score or held_loss < best_loss * (1 - LOSS_GAIN)
            best_loss = min(best_loss, held_loss)
            if s >= best_score:
                best_score, report.best_step = s, step
                best_state = {k: v.detach().clone() for k, v in net.state_dict().items()}
            since_best = 0 if learning else since_best + 1
            perfect = perfect + 1 if s >= 1.0 else 0
            if log:
                shown = "" if held_loss == math.inf else f", loss {held_loss:.3f}"
                log(f"step {step}: held-back exact {s:.1%} (best {best_score:.1%}){shown}")
            if perfect >= 2:
                report.stopped_by = "held-back perfect"
                break
            if since_best >= plan.patience:
                report.stopped_by = "early-stop"
                break
        if plan.checkpoint is not None and time.monotonic() - last_save >= plan.checkpoint_every_s:
            save_checkpoint()
            last_save = time.monotonic()
    report.steps, report.seconds = step, time.monotonic() - start
    report.step_ms = 1000 * report.seconds / max(1, step - first_step)
    report.threads = chooser.current
    if report.stopped_by == "wall-clock cap":
        save_checkpoint()
        if score is not None:  # the last weights may be the best: the schedule had annealed
            s, _ = _exact_and_loss(score(net))
            if s >= best_score:
                best_score, best_state, report.best_step = s, None, step
    if best_state is not None:
        net.load_state_dict(best_state)
    report.held_exact = best_score if score is not None else None
    if plan.checkpoint is not None and report.stopped_by != "wall-clock cap" and plan.checkpoint.exists():
        plan.checkpoint.unlink()  # finished: nothing to resume
    net.eval()
    if log:
        log(f"trained: {report.summary()}")
    return report


# A held-back loss at least this much (relative) below the best so far counts as still learning.
LOSS_GAIN = 0.01


def _exact_and_loss(scored: float | tuple[float, float]) -> tuple[float, float]:
    """A score callback's answer: the exact rate alone (loss unknown: infinite) or both."""
    return scored if isinstance(scored, tuple) else (scored, math.inf)


def augment(torch, xb, rng: np.random.Generator, strong: bool = False):
    """Random small rotation, scale, shear and shift, plus pixel noise, on a batch in one go.

    ``strong`` (fine-tuning on a few hundred images, which a network otherwise memorises): also
    a random contrast, stronger noise, and one or two erased patches per image, so no single
    stroke or speck can identify a training image.
    """
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
    if not strong:
        return out + 0.1 * torch.randn_like(out)
    gain = torch.from_numpy(rng.uniform(0.7, 1.3, (n, 1, 1, 1))).float()
    sigma = torch.from_numpy(rng.uniform(0.05, 0.3, (n, 1, 1, 1))).float()
    out = out * gain + sigma * torch.randn_like(out)
    h, w = out.shape[2], out.shape[3]
    for i in range(n):
        for _ in range(rng.integers(0, 3)):
            ph, pw = int(rng.integers(3, max(4, h // 4))), int(rng.integers(3, max(4, w // 12)))
            y, x = int(rng.integers(0, h - ph)), int(rng.integers(0, w - pw))
            out[i, :, y : y + ph, x : x + pw] = float(rng.normal(0, 1))
    return out


def to_numpy(net, charset: str, width: int, arch: Arch = DEFAULT_ARCH) -> CtcNet:
    """The numpy network of a trained torch module (what a saved model loads as)."""
    return CtcNet.from_params(split_params(params_of(net)), model_meta(charset, width, arch))

