#!/usr/bin/env python3
"""Benchmark the CAPTCHA solver against ddddocr on styles the base model never trained on.

Usage:
    .venv/bin/python scripts/bench_captcha.py [--styles lined,confetti,arc,hollow,wave,grain]
        [--train 500] [--test 300] [--curve 50,100,250] [--extra-unlabelled 2000] [--extra-styles ...]
        [--load 10] [--loaded-styles ...]
        [--steps 600] [--test-seed 2] [--zero-shot-only | --no-labels-only] [--no-self-train]
        [--ddddocr-python PATH] [--json OUT]

For each style (scripts/bench/captcha_styles.py; fixed seeds: training images seed 1, test images
seed 2 or ``--test-seed``) the same test images are read by:

* ddddocr          - the most used pre-trained reader, in its own interpreter (``--ddddocr-python``,
                     by default this one if it imports ddddocr, else /tmp/bc-bench-ddddocr/bin/python);
                     never a browsercrawl dependency. Missing: the column is skipped, and says so.
                     Its answer is judged by the site's case rule like ours.
* base, zero-shot  - the bundled base model told only the site's profile facts (charset, length
                     range, case rule), no training;
* base, fitted     - the same base with its view chosen (``captcha fit``, captcha/views.py) from the
                     style's training images read without their labels: still no label used;
* self-trained     - no labels either: ``captcha fit --self-train`` on the training images and the
                     ``--extra-unlabelled`` ones (seed 5), all unlabelled: the base trains on the
                     answers it is sure of (captcha/self_train.py); skipped with ``--no-self-train``;
* trained N        - one ``browsercrawl captcha train`` run (CTC fine-tuned from the base) on N
                     labelled images, then ``captcha eval --json``: the learning curve
                     (``--curve``) and the full ``--train`` set;
* trained + unl.   - the full labelled set plus ``--extra-unlabelled`` more images of the style
                     (seed 5) with no labels, read by the trained model and the sure answers
                     trained on in a second round (``captcha train --unlabelled``): a site shows
                     as many unlabelled CAPTCHAs as one asks for, so this is still N labels;
* trained, loaded  - the full set again while ``--load`` busy processes run beside it (a machine
                     shared with other jobs); the load average seen during the run is printed.

Exact match follows each style's case rule (docs/captcha.md). Prints a table, then the learning
curves, from one run; ``--json`` writes the numbers.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench import captcha_styles as styles  # noqa: E402
from rapidfuzz.distance import Levenshtein  # noqa: E402

from browsercrawl.captcha import preprocess  # noqa: E402
from browsercrawl.captcha.profile import base_profile  # noqa: E402
from browsercrawl.captcha.recognise import Priors  # noqa: E402
from browsercrawl.captcha.threads import single_threaded  # noqa: E402
from browsercrawl.captcha.views import fit_profile  # noqa: E402

DDDD_VENV_PYTHON = Path("/tmp/bc-bench-ddddocr/bin/python")
DDDD_SCRIPT = """
import json, sys, time, ddddocr
ocr = ddddocr.DdddOcr(show_ad=False)
out = []
for p in sys.argv[1:]:
    data = open(p, 'rb').read()
    t = time.process_time()
    text = ocr.classification(data)
    out.append([p, text, (time.process_time() - t) * 1000])
print(json.dumps(out))
"""


def find_ddddocr(given: str | None) -> tuple[str | None, str]:
    """The interpreter to run ddddocr with, or None and why not."""
    candidates = [given] if given else [sys.executable, str(DDDD_VENV_PYTHON)]
    for py in candidates:
        if py and Path(py).exists() and subprocess.run([py, "-c", "import ddddocr"],
                                                       capture_output=True).returncode == 0:
            return py, ""
    return None, ("ddddocr is not installed, so its column is skipped; to compare, install it apart "
                  f"from browsercrawl: python3 -m venv {DDDD_VENV_PYTHON.parent.parent} && "
                  f"{DDDD_VENV_PYTHON.parent}/pip install ddddocr")


def judge(priors: Priors, preds: list[tuple[str, str, float]]) -> dict[str, float]:
    """preds: (label, answer, ms). Exact and per-char by the site's case rule."""
    n = max(1, len(preds))
    exact = sum(priors.same(t, lab) for lab, t, _ in preds) / n
    ok = sum(max(0, len(lab) - Levenshtein.distance(priors.key(t), priors.key(lab))) for lab, t, _ in preds)
    return {"exact": exact, "per_char": ok / max(1, sum(len(lab) for lab, _, _ in preds)),
            "ms": sum(ms for *_, ms in preds) / n}


def run_ddddocr(py: str, test: list[tuple[Path, str]], priors: Priors) -> list[tuple[str, str, float]]:
    r = subprocess.run([py, "-c", DDDD_SCRIPT, *[str(p) for p, _ in test]], capture_output=True, text=True,
                       check=True)
    got = {p: (t, ms) for p, t, ms in json.loads(r.stdout)}
    out = []
    for p, lab in test:
        text, ms = got[str(p)]
        text = "".join(text.split())
        if priors.case in ("upper", "lower"):
            text = text.upper() if priors.case == "upper" else text.lower()
        out.append((lab, text, ms))
    return out


def run_base(test: list[tuple[Path, str]], facts: dict, unlabelled: list[Path] | None = None
             ) -> tuple[list[tuple[str, str, float]], str]:
    """The bundled base model with the site's profile facts, its view chosen from ``unlabelled``
    images when given; ms is CPU time (load-independent). Also says which view read them."""
    prof = base_profile(**facts)
    choice = "grayscale"
    if unlabelled:
        with single_threaded():
            prof, fitted = fit_profile(prof, [preprocess.decode_image(p.read_bytes()) for p in unlabelled])
        choice = fitted.describe()
    rec = prof.build()
    out = []
    for p, lab in test:
        t = time.process_time()
        with single_threaded():
            text, _ = rec.recognise(preprocess.apply(preprocess.decode_image(p.read_bytes()), prof.steps))
        out.append((lab, text, (time.process_time() - t) * 1000))
    return out, choice


def _busy() -> None:
    while True:
        pass


@contextlib.contextmanager
def load_generator(n: int):
    """``n`` processes that spin on the CPU, like other jobs on a shared machine."""
    procs = [mp.get_context("spawn").Process(target=_busy, daemon=True) for _ in range(n)]
    for p in procs:
        p.start()
    try:
        yield
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.join()


class LoadWatch:
    """The 1-minute load average seen while a block runs (min and max, sampled every 5 s)."""

    def __enter__(self) -> LoadWatch:
        self.seen: list[float] = [os.getloadavg()[0]]
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(5):
            self.seen.append(os.getloadavg()[0])

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._t.join()
        self.seen.append(os.getloadavg()[0])

    def text(self) -> str:
        return f"{min(self.seen):.1f}-{max(self.seen):.1f}"


CLI = [sys.executable, "-m", "browsercrawl", "captcha"]
CLI_ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def run_then_eval(style: str, tag: str, command: list[str], test_dir: Path, model: Path, log) -> dict:
    """One ``browsercrawl captcha`` training command that writes ``model``, timed and with the load
    watched, then ``captcha eval --json`` of that model on the test images."""
    t0 = time.monotonic()
    with LoadWatch() as watch:
        r = subprocess.run([*CLI, *command], capture_output=True, text=True, env=CLI_ENV)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        raise SystemExit(f"{style}: captcha {command[0]} failed: {r.stderr.strip().splitlines()[-1:]}")
    said = ("trained:", "WARNING", "training on", "training view", "self-labelled", "reading in")
    for line in r.stderr.splitlines():
        if line.startswith(said):
            log(f"{style} ({tag}): {line}")
    ev = subprocess.run([*CLI, "eval", str(test_dir), "--model", str(model), "--json"], capture_output=True,
                        text=True, env=CLI_ENV, check=True)
    score = json.loads(ev.stdout)
    return {"exact": score["exact"], "per_char": score["per_char"], "ms": score["ms_per_image"],
            "wall_s": wall, "load": watch.text(), **_training_meta(model)}


def train_and_eval(style: str, folder: Path, test_dir: Path, model: Path, steps: int, log,
                   extra: tuple[str, ...] = ()) -> dict:
    """One ``captcha train`` run on a labelled folder, then its ``captcha eval``."""
    return run_then_eval(style, folder.name, ["train", str(folder), "--out", str(model), "--kind", "ctc",
                                              "--steps", str(steps), *extra], test_dir, model, log)


def self_train_and_eval(style: str, unl_dir: Path, test_dir: Path, model: Path, facts: dict, log) -> dict:
    """One ``captcha fit --self-train`` run on unlabelled images, told only the site's facts (as a
    person would write them in a profile), then its ``captcha eval``."""
    told = ["--charset", facts["charset"], "--min-len", str(facts["min_len"]), "--max-len",
            str(facts["max_len"]), "--case", facts["case"]]
    command = ["fit", str(unl_dir), "--out", str(model), "--self-train", *told]
    return run_then_eval(style, "no labels", command, test_dir, model, log)


def _training_meta(model: Path) -> dict:
    from browsercrawl.captcha.profile import read_model

    return read_model(model)[0].get("training", {})


def subset(src: Path, dst: Path, n: int) -> Path:
    """The first ``n`` images of a labelled folder (lengths stay evenly mixed: they cycle)."""
    dst.mkdir(parents=True, exist_ok=True)
    for p in sorted(src.iterdir())[:n]:
        shutil.copy(p, dst / p.name)
    return dst


def unlabelled_copy(images: list[tuple[Path, str]], dst: Path) -> Path:
    """The images copied under names that carry no label (a generated name holds the answer)."""
    dst.mkdir(parents=True, exist_ok=True)
    for i, (p, _) in enumerate(images):
        shutil.copy(p, dst / f"u{i:05d}.png")
    return dst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--styles", default=",".join(styles.OWN_STYLES))
    ap.add_argument("--train", type=int, default=500)
    ap.add_argument("--test", type=int, default=300)
    ap.add_argument("--curve", default="50,100,250", help="smaller label counts (empty: none)")
    ap.add_argument("--curve-styles", default=None, help="styles for the curve (default: all)")
    ap.add_argument("--self-label", type=int, default=100,
                    help="also train on this many labels plus the rest of the training images unlabelled "
                         "(captcha train --unlabelled); 0: skip")
    ap.add_argument("--extra-unlabelled", type=int, default=2000,
                    help="also train on all labels plus this many more unlabelled images of the style "
                         "(captcha train --unlabelled); 0: skip")
    ap.add_argument("--extra-styles", default=None, help="styles for that run (default: all)")
    ap.add_argument("--load", type=int, default=10, help="busy processes for the loaded run (0: none)")
    ap.add_argument("--loaded-styles", default=None, help="styles for the loaded run (default: all)")
    ap.add_argument("--steps", type=int, default=None, help="captcha train --steps (default: its own)")
    ap.add_argument("--test-seed", type=int, default=2, help="seed of the test images (training: 1)")
    ap.add_argument("--zero-shot-only", action="store_true", help="no training: ddddocr and the base only")
    ap.add_argument("--self-train", action=argparse.BooleanOptionalAction, default=True,
                    help="the base self-trained on the training and extra images, unlabelled (captcha fit "
                         "--self-train)")
    ap.add_argument("--no-labels-only", action="store_true",
                    help="no labelled training: ddddocr, the base, and the base self-trained")
    ap.add_argument("--ddddocr-python", default=None)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    names = args.styles.split(",")
    for name in names:
        if name not in styles.STYLES:
            ap.error(f"--styles: unknown style {name!r}; known: {', '.join(styles.STYLES)}")
        if why := styles.missing_font(name):
            ap.error(f"--styles: {why}")
    curve = [int(x) for x in args.curve.split(",") if x]
    curve_styles = args.curve_styles.split(",") if args.curve_styles else names
    loaded_styles = args.loaded_styles.split(",") if args.loaded_styles else names
    extra_styles = args.extra_styles.split(",") if args.extra_styles else names
    from browsercrawl.captcha.train import DEFAULT_CTC_STEPS

    steps = args.steps or DEFAULT_CTC_STEPS
    py, why = find_ddddocr(args.ddddocr_python)
    if why:
        print(why, file=sys.stderr)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    started = time.monotonic()
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="bc-bench-captcha-") as tmp:
        for style in names:
            facts = styles.profile_facts(style)
            priors = Priors(facts["charset"], facts["min_len"], facts["max_len"], facts["case"])
            train_dir, test_dir = Path(tmp, style, "train"), Path(tmp, style, "test")
            styles.generate(style, train_dir, args.train, seed=1)
            test = styles.generate(style, test_dir, args.test, seed=args.test_seed)
            row: dict = {"facts": facts}
            row["base"] = judge(priors, run_base(test, facts)[0])
            fitted, row["view"] = run_base(test, facts, [p for p, _ in styles.generate(style, train_dir,
                                                                                       args.train, seed=1)])
            row["fitted"] = judge(priors, fitted)
            if py:
                row["ddddocr"] = judge(priors, run_ddddocr(py, test, priors))
            log(f"{style}: base zero-shot {row['base']['exact']:.1%}, fitted {row['fitted']['exact']:.1%} "
                f"(view {row['view']})" + (f", ddddocr {row['ddddocr']['exact']:.1%}" if py else ""))
            row["curve"] = {}
            if args.zero_shot_only:
                results[style] = row
                continue
            extra = styles.generate(style, Path(tmp, style, "extra"), args.extra_unlabelled, seed=5)
            if args.self_train:
                unl = unlabelled_copy([(p, "") for p in sorted(train_dir.iterdir())] + extra,
                                      Path(tmp, style, "no-labels"))
                model = Path(tmp, f"{style}-no-labels.npz")
                row["self_trained"] = self_train_and_eval(style, unl, test_dir, model, facts, log)
                log(f"{style}: no labels, self-trained on {args.train + len(extra)} images -> "
                    f"{row['self_trained']['exact']:.1%} (load {row['self_trained']['load']})")
            if args.no_labels_only:
                results[style] = row
                continue
            for n in (curve if style in curve_styles else []):
                if n < args.train:
                    folder = subset(train_dir, Path(tmp, style, f"train{n}"), n)
                    row["curve"][n] = train_and_eval(style, folder, test_dir, Path(tmp, f"{style}-{n}.npz"),
                                                     steps, log)
                    log(f"{style}: {n} labels -> {row['curve'][n]['exact']:.1%}")
            if args.self_label and style in curve_styles and args.self_label < args.train:
                n = args.self_label
                folder = subset(train_dir, Path(tmp, style, f"train{n}"), n)
                unl = unlabelled_copy([(p, "") for p in sorted(train_dir.iterdir())[n:]],
                                      Path(tmp, style, "unlabelled"))
                model = Path(tmp, f"{style}-{n}-self.npz")
                row["self_label"] = train_and_eval(style, folder, test_dir, model, steps, log,
                                                   ("--unlabelled", str(unl)))
                log(f"{style}: {n} labels + {args.train - n} unlabelled -> {row['self_label']['exact']:.1%}")
            row["curve"][args.train] = row["trained"] = train_and_eval(
                style, train_dir, test_dir, Path(tmp, f"{style}.npz"), steps, log)
            got = row["trained"]
            log(f"{style}: {args.train} labels -> {got['exact']:.1%} (load {got['load']})")
            if args.extra_unlabelled and style in extra_styles:
                unl = unlabelled_copy(extra, Path(tmp, style, "extra-unlabelled"))
                row["extra"] = train_and_eval(style, train_dir, test_dir, Path(tmp, f"{style}-extra.npz"),
                                              steps, log, ("--unlabelled", str(unl)))
                log(f"{style}: {args.train} labels + {args.extra_unlabelled} unlabelled -> "
                    f"{row['extra']['exact']:.1%} (load {row['extra']['load']})")
            if args.load and style in loaded_styles:
                with load_generator(args.load):
                    row["loaded"] = train_and_eval(style, train_dir, test_dir,
                                                   Path(tmp, f"{style}-loaded.npz"), steps, log)
                log(f"{style}: {args.train} labels with {args.load} busy processes -> "
                    f"{row['loaded']['exact']:.1%} (load {row['loaded']['load']})")
            results[style] = row
    print_tables(results, args, py is not None)
    print(f"\n(total {time.monotonic() - started:.0f} s; {args.train} training / {args.test} test images per "
          f"style, seeds 1 / {args.test_seed}; captcha train --steps {steps}; ms are CPU ms per image)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    return 0


def _pct(d: dict | None, key: str = "exact") -> str:
    return "-" if d is None else f"{d[key]:.1%}"


def _run(d: dict | None) -> str:
    if d is None:
        return "-"
    return (f"{d['exact']:.1%} ({d.get('steps', '?')} steps, {d.get('stopped_by', '?')}, "
            f"{d['wall_s']:.0f} s, load {d['load']})")


def print_tables(results: dict[str, dict], args, have_dddd: bool) -> None:
    print("| style | case | ddddocr | base, zero-shot | base, fitted (no labels) | base, self-trained on "
          + str(args.train + args.extra_unlabelled) + " unlabelled | trained, "
          + str(args.train) + " labels | per-char | trained, " + str(args.train) + " labels + "
          + str(args.extra_unlabelled) + " unlabelled | trained, + " + str(args.load)
          + " busy processes | base ms | targets |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for style, r in results.items():
        d = r.get("ddddocr")
        met = []
        if d is not None:
            best = max(r["base"]["exact"], r["fitted"]["exact"])
            met.append("zero-shot >= ddddocr" if best >= d["exact"] else "zero-shot < ddddocr")
            if "self_trained" in r:
                ok = r["self_trained"]["exact"] >= d["exact"]
                met.append(f"no labels, self-trained {'>=' if ok else '<'} ddddocr")
            # Rounded: rates are counts over the test set, and 0.765 + 0.20 is 0.9650000000000001 in floats,
            # which 193 of 200 right would miss.
            want = round(0.95 if style == "lined" else d["exact"] + 0.20, 6)
            for key in ("trained", "extra", "loaded"):
                if key in r:
                    ok = r[key]["exact"] >= want
                    met.append(f"{key} {'>=' if ok else '<'} {want:.1%}")
        dddd = _pct(d) if have_dddd else "skipped"
        print(f"| {style} | {r['facts']['case']} | {dddd} | {_pct(r['base'])} | {_pct(r['fitted'])} | "
              f"{_run(r.get('self_trained'))} | {_run(r.get('trained'))} | "
              f"{_pct(r.get('trained'), 'per_char')} | {_run(r.get('extra'))} | "
              f"{_run(r.get('loaded'))} | "
              f"{r['base']['ms']:.1f} | {'; '.join(met)} |")
    print("\nViews chosen from the training images without their labels (captcha fit):\n")
    for style, r in results.items():
        print(f"- {style}: {r['view']}")
    sizes = sorted({n for r in results.values() for n in r["curve"]})
    if not sizes:
        return
    print("\nLearning curves (exact, test images):\n")
    print("| style | " + " | ".join(f"{n} labels" for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for style, r in results.items():
        print(f"| {style} | " + " | ".join(_pct(r["curve"].get(n)) for n in sizes) + " |")
    selfs = {s: r["self_label"] for s, r in results.items() if "self_label" in r}
    if selfs:
        print(f"\nSelf-labelling ({args.self_label} labels + the other {args.train - args.self_label} "
              "training images unlabelled, captcha train --unlabelled):\n")
        for style, d in selfs.items():
            alone = _pct(results[style]["curve"].get(args.self_label))
            print(f"- {style}: {d['exact']:.1%} (with the labels alone: {alone})")


if __name__ == "__main__":
    sys.exit(main())
