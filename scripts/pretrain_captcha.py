#!/usr/bin/env python3
"""Pretrain the base CAPTCHA recogniser on synthetic images (writes browsercrawl/captcha/models/base-ctc.npz).

Usage:
    .venv/bin/python scripts/pretrain_captcha.py [--images 200000] [--steps 30000] [--hours 4]
        [--out browsercrawl/captcha/models/base-ctc.npz] [--threads 2] [--seed 0]

Why: a site's few hundred labelled CAPTCHAs are too few to learn what characters look like from
scratch; ``captcha train`` fine-tunes this base instead (see docs/captcha.md). The images come
from :mod:`browsercrawl.captcha.synth` over the system's fonts. The shipped base was made with
Debian's font packages installed (the list is in docs/captcha.md, "The base model"); fewer fonts
give a weaker but working base. Nothing of the benchmark's generators (scripts/bench/captcha_styles.py,
the ``captcha`` package, the demo site) is used, and the font files the benchmark styles draw with
are left out.

The synthetic set is generated once (two processes) into ``--cache`` and reused; training saves a
checkpoint to ``--out`` every ``--save-every`` steps, so a long run can be stopped at any time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench.captcha_styles import held_out_font_files  # noqa: E402

from browsercrawl.captcha import ctc, ctc_train, preprocess, synth  # noqa: E402
from browsercrawl.captcha.ctc_train import init_state  # noqa: E402
from browsercrawl.captcha.profile import write_model  # noqa: E402

DEFAULT_OUT = ROOT / "browsercrawl" / "captcha" / "models" / "base-ctc.npz"


def _make_chunk(args: tuple[list[synth.Font], int, int]) -> list[tuple[np.ndarray, str]]:
    """``n`` synthetic samples from seed ``seed``, already resized to the network input (uint8)."""
    fonts, seed, n = args
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        img, text = synth.sample(fonts, rng)
        gray = preprocess.grayscale(img)
        width = ctc.input_width(gray.shape[1] / gray.shape[0])
        small = cv2_resize(gray, width)
        out.append((small, text))
    return out


def cv2_resize(gray: np.ndarray, width: int) -> np.ndarray:
    import cv2

    return cv2.resize(gray, (width, ctc.INPUT_H), interpolation=cv2.INTER_AREA)


def generate(fonts: list[synth.Font], n: int, seed: int, cache: Path, procs: int) -> dict[int, tuple]:
    """The synthetic set grouped by input width: width -> (uint8 images N x H x W, labels)."""
    path = cache / f"synth-v{synth.VERSION}-{seed}-{n}-{len(fonts)}fonts.npz"
    if path.exists():
        with np.load(path, allow_pickle=False) as z:
            widths = sorted({int(k.split("_")[1]) for k in z.files})
            return {w: (z[f"x_{w}"], [str(s) for s in z[f"y_{w}"]]) for w in widths}
    chunk = 2000
    jobs = [(fonts, seed * 1_000_003 + i, min(chunk, n - i * chunk)) for i in range((n + chunk - 1) // chunk)]
    t0 = time.monotonic()
    by_width: dict[int, tuple[list, list]] = {}
    with mp.get_context("spawn").Pool(procs) as pool:  # fork after torch/OpenMP start-up stalls
        for i, part in enumerate(pool.imap(_make_chunk, jobs)):
            for img, text in part:
                xs, ys = by_width.setdefault(img.shape[1], ([], []))
                xs.append(img)
                ys.append(text)
            done = min(n, (i + 1) * chunk)
            print(f"generated {done} / {n} ({time.monotonic() - t0:.0f} s)", file=sys.stderr)
    cache.mkdir(parents=True, exist_ok=True)
    out = {w: (np.stack(xs), ys) for w, (xs, ys) in sorted(by_width.items())}
    arrays = {}
    for w, (xs, ys) in out.items():
        arrays[f"x_{w}"], arrays[f"y_{w}"] = xs, np.array(ys)
    np.savez(path, **arrays)
    return out


def standardise(torch, xb):
    xb = xb.float()
    mean = xb.mean(dim=(1, 2, 3), keepdim=True)
    std = xb.std(dim=(1, 2, 3), keepdim=True, correction=0)  # as numpy, like ctc.to_input
    return (xb - mean) / (std + 1e-3)


def accuracy(net, data: dict[int, tuple], charset: str, limit: int = 1500) -> float:
    """Exact-match rate of greedy decoding on held-out synthetic images."""
    torch = ctc_train.import_torch()

    ok = total = 0
    net.eval()
    with torch.no_grad():
        for _, (xs, ys) in data.items():
            for i in range(0, min(len(ys), limit), 256):
                xb = standardise(torch, torch.from_numpy(xs[i : i + 256])[:, None])
                best = net(xb).argmax(1).numpy()  # (N, T)
                for row, label in zip(best, ys[i : i + 256], strict=False):
                    text, prev = [], 0
                    for k in row:
                        if k != 0 and k != prev:
                            text.append(charset[k - 1])
                        prev = k
                    ok += "".join(text) == label
                    total += 1
    net.train()
    return ok / max(1, total)


def average_models(a: Path, b: Path, out: Path, note: str | None = None) -> None:
    """Write the element-wise mean of two models' parameters and batch-norm statistics.

    Why: a short continued pretraining on a wider family can lose some styles the earlier base
    read while gaining others; the mean of the two checkpoints (same architecture, one lineage)
    often keeps most of both. The meta (architecture, charset, profile) is A's.
    """
    from browsercrawl.captcha.profile import read_model

    meta_a, arr_a = read_model(a)
    meta_b, arr_b = read_model(b)
    if meta_a.get("arch") != meta_b.get("arch") or meta_a.get("charset") != meta_b.get("charset") \
            or arr_a.keys() != arr_b.keys() or any(arr_a[k].shape != arr_b[k].shape for k in arr_a):
        raise SystemExit(f"pretrain_captcha: {a} and {b} are not the same network (architecture or charset)")
    mean = {k: ((arr_a[k].astype(np.float64) + arr_b[k]) / 2).astype(arr_a[k].dtype) for k in arr_a}
    meta = {k: v for k, v in meta_a.items() if k not in ("format", "version")}
    meta["history"] = note or f"mean of {a.name} and {b.name}"
    write_model(out, meta, mean)


def network_arch(arch_json: str | None, init_meta: dict | None) -> ctc.Arch:
    """The architecture to train: ``--arch`` if given, else the ``--init`` model's own (continuing
    a trained network keeps its size; only an explicit ``--arch`` grows it), else the default."""
    if arch_json:
        try:
            return ctc.Arch.from_json(json.loads(arch_json))
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"pretrain_captcha: --arch is not an architecture ({type(exc).__name__}: "
                             f'{exc}); expected JSON like {{"convs": [[32, [2, 2]], ...], "seq": [128], '
                             '"k": 3, "input_h": 48}') from None
    if init_meta is not None:
        return ctc.Arch.from_json(init_meta["arch"])
    return ctc.DEFAULT_ARCH


def grow(torch, net, new_arch: ctc.Arch, old_params: dict[str, np.ndarray], old_arch: ctc.Arch,
         from_charset: str, charset: str, probe) -> list[str]:
    """Start a deeper network from a trained one; returns the blocks that start as identities.

    Why: a larger network learns the family better (the base's training and held-out losses
    are alike: it underfits), but training one from scratch costs days on two cores. The trained
    blocks are copied in order; every block of the new architecture with no counterpart (as
    many channels out as in, no pooling) starts as an identity: a centred one-hot kernel, then a
    batch-norm whose scale and shift are the measured spread and mean of its input, so the
    grown network at first computes what the old one did, and training takes it from there.
    ``probe()`` returns a batch of inputs to measure those statistics on.
    """
    state = net.state_dict()
    inserted: list[tuple[str, str, int]] = []  # (conv weight name, bn prefix, channels)

    def place(kind: str, new_blocks, old_blocks, stride: int) -> None:
        j = 0
        for i, spec in enumerate(new_blocks):
            conv, bn = f"{kind}.{stride * i}", f"{kind}.{stride * i + 1}"
            if j < len(old_blocks) and spec == old_blocks[j]:
                oconv, obn = f"{kind}.{stride * j}", f"{kind}.{stride * j + 1}"
                for suffix in ("weight",):
                    state[f"{conv}.{suffix}"] = torch.from_numpy(old_params[f"{oconv}.{suffix}"])
                for suffix in ("weight", "bias", "running_mean", "running_var"):
                    state[f"{bn}.{suffix}"] = torch.from_numpy(old_params[f"{obn}.{suffix}"])
                j += 1
                continue
            w = state[f"{conv}.weight"]
            if w.shape[0] != w.shape[1] or (kind == "body" and tuple(spec[1]) != (1, 1)):
                raise SystemExit(f"pretrain_captcha: block {kind} {i} {spec} is neither in the old network "
                                 "nor an identity (same channels in and out, no pooling)")
            eye = torch.zeros_like(w)
            centre = tuple(d // 2 for d in w.shape[2:])
            for c in range(w.shape[0]):
                eye[(c, c, *centre)] = 1.0
            state[f"{conv}.weight"] = eye
            inserted.append((f"{kind}.{stride * i + 1}", kind, w.shape[0]))
        if j != len(old_blocks):
            raise SystemExit(f"pretrain_captcha: the new {kind} blocks do not contain the old ones in order")

    place("body", [(o, tuple(p)) for o, p in new_arch.convs], [(o, tuple(p)) for o, p in old_arch.convs], 4)
    place("seq", list(new_arch.seq), list(old_arch.seq), 3)
    if new_arch.rows != old_arch.rows or new_arch.k != old_arch.k:
        raise SystemExit("pretrain_captcha: the grown network must keep the rows and the 1-D kernel")
    net.load_state_dict(state)
    init_state(net, {k: v for k, v in old_params.items() if k.startswith("head.")} | {
        k: v.detach().numpy() for k, v in net.state_dict().items() if not k.startswith("head.")},
        from_charset, charset)
    modules = dict(net.named_modules())
    for bn_name, _, _ in inserted:  # in order: each measured with the ones before it in place
        bn = modules[bn_name]
        seen: dict[str, object] = {}
        hook = bn.register_forward_hook(lambda m, inp, out, seen=seen: seen.__setitem__("x", inp[0].detach()))
        net.eval()
        with torch.no_grad():
            net(probe())
        hook.remove()
        x = seen["x"]
        dims = [d for d in range(x.ndim) if d != 1]
        mean, var = x.mean(dim=dims), x.var(dim=dims, correction=0)
        with torch.no_grad():
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean)
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
    return [name for name, _, _ in inserted]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--images", type=int, default=200_000)
    ap.add_argument("--steps", type=int, default=30_000)
    ap.add_argument("--hours", type=float, default=4.0)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/bc-pretrain"))
    ap.add_argument("--save-every", type=int, default=1000)
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--init", type=Path, help="continue from this model file")
    ap.add_argument("--arch", default=None,
                    help="the network's architecture as JSON (ctc.Arch; default: --init's own); with "
                         "--init of a smaller one, the network is grown from it (see grow())")
    ap.add_argument("--average", type=Path, nargs=2, metavar=("A", "B"),
                    help="write the mean of two models of one architecture to --out and stop (no training)")
    ap.add_argument("--note", default=None, help="with --average: the history line kept in the model's meta")
    args = ap.parse_args()
    if args.average:
        average_models(*args.average, args.out, args.note)
        return 0

    torch = ctc_train.import_torch()

    from browsercrawl.captcha.profile import read_model
    from browsercrawl.errors import UserError

    # Bad input fails here, before minutes of image generation.
    try:
        init = read_model(args.init) if args.init else None
    except UserError as exc:
        raise SystemExit(f"pretrain_captcha: --init: {exc}") from None
    arch = network_arch(args.arch, init[0] if init else None)

    fonts = synth.fonts_in(exclude=held_out_font_files())  # the benchmark styles' fonts stay unseen
    if len(fonts) < 5:
        print(f"only {len(fonts)} usable fonts under /usr/share/fonts; install more (docs/captcha.md)",
              file=sys.stderr)
        return 2
    print(f"{len(fonts)} fonts", file=sys.stderr)
    data = generate(fonts, args.images, args.seed, args.cache, procs=2)
    held = generate(fonts, 3000, args.seed + 7919, args.cache, procs=2)
    charset = synth.BASE_CHARSET
    idx = {c: i + 1 for i, c in enumerate(charset)}
    widths = sorted(data)
    weights = np.array([len(data[w][1]) for w in widths], dtype=np.float64)
    weights /= weights.sum()
    tensors = {w: torch.from_numpy(data[w][0]) for w in widths}
    targets = {w: [torch.tensor([idx[c] for c in s]) for s in data[w][1]] for w in widths}
    rng = np.random.default_rng(args.seed)

    def next_batch():
        w = widths[rng.choice(len(widths), p=weights)]
        n = len(data[w][1])
        sel = rng.choice(n, size=min(args.batch, n), replace=False)
        xb = standardise(torch, tensors[w][sel][:, None])
        xb = ctc_train.augment(torch, xb, rng)
        labels = [data[w][1][i] for i in sel]
        return xb, torch.cat([targets[w][i] for i in sel]), torch.tensor([len(s) for s in labels])

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    net = ctc_train.build_net(arch, len(charset) + 1)
    if init:
        meta, arrays = init
        old_arch = ctc.Arch.from_json(meta["arch"])
        if old_arch == arch:
            ctc_train.init_state(net, ctc.split_params(arrays), meta["charset"], charset)
        else:
            def probe():
                w = widths[-1] if len(widths) < 3 else widths[len(widths) // 2]
                return standardise(torch, tensors[w][:256][:, None])
            grown = grow(torch, net, arch, ctc.split_params(arrays), old_arch, meta["charset"], charset,
                         probe)
            print(f"grown from {args.init}: {', '.join(grown)} start as identities", file=sys.stderr)
    started = time.monotonic()

    def save(tag: str) -> None:
        acc = accuracy(net, held, charset)
        meta = ctc.model_meta(charset, 0, arch, fonts=len(fonts), images=args.images,
                              synthetic_exact=round(acc, 4))
        meta["profile"] = {"name": "base", "steps": [{"step": "grayscale"}],
                           "recogniser": {"kind": "ctc", "model": args.out.name},
                           "charset": charset, "min_len": 1, "max_len": 12}
        write_model(args.out, meta, ctc_train.params_of(net))
        print(f"{tag}: held-out synthetic exact {acc:.1%}, saved {args.out} "
              f"({(time.monotonic() - started) / 60:.0f} min)", file=sys.stderr)

    plan = ctc_train.TrainPlan(max_steps=args.steps, max_seconds=args.hours * 3600,
                               batch=args.batch, peak_lr=args.lr, warmup=0.02, threads=args.threads,
                               seed=args.seed, log_every=args.log_every)
    step = [0]

    def batch_and_checkpoint():
        step[0] += 1
        if step[0] % args.save_every == 0:
            save(f"step {step[0]}")
        return next_batch()

    ctc_train.run_steps(net, plan, lambda m: print(m, file=sys.stderr, flush=True), batch_and_checkpoint)
    save("final")
    return 0


if __name__ == "__main__":
    sys.exit(main())
