"""``browsercrawl captcha ...``: solve, eval, train, tune, fit, label, debug.

``train DIR --out MODEL`` (any file name) and ``eval DIR --model MODEL --json`` are a stable
contract other tools call; ``eval --json`` prints exactly one JSON object on stdout.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from browsercrawl.errors import UserError


def _solver(profile: str | None):
    from browsercrawl.captcha.solver import CaptchaSolver

    return CaptchaSolver.from_profile(profile)


def _check_budget(budget: float) -> None:
    if not 1 <= budget <= 86_400:
        raise UserError(f"--budget {budget}: must be between 1 and 86400 seconds")


def _start_from(value: str) -> Path | str | None:
    """``--from``: "base", "none" or an existing model file (checked before any training)."""
    if value in ("base", "none"):
        return None if value == "none" else "base"
    path = Path(value)
    if not path.is_file():
        raise UserError(f"--from {value}: no such model file (or say base / none)")
    from browsercrawl.captcha.profile import read_model

    read_model(path)  # a bad file is a one-line error now, not after loading the samples
    return path


@click.group()
def captcha() -> None:
    """Solve image CAPTCHAs; train and tune a site's profile from labelled samples."""


@captcha.command()
@click.argument("image", type=click.Path(path_type=Path))
@click.option("--profile", "--model", "profile", help="profile JSON or model file (default: bundled base)")
@click.option("--json", "as_json", is_flag=True, help="print a JSON object")
def solve(image: Path, profile: str | None, as_json: bool) -> None:
    """Print the answer to one CAPTCHA image."""
    if not image.is_file():
        raise UserError(f"{image}: image not found")
    sol = _solver(profile).solve_sync(image.read_bytes())
    if as_json:
        click.echo(json.dumps({"text": sol.text, "confidence": round(sol.confidence, 4),
                               "recogniser": sol.recogniser}))
    else:
        click.echo(sol.text)


CASE_CHOICE = click.Choice(["sensitive", "insensitive", "upper", "lower"])


@captcha.command("eval")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--profile", "--model", "profile", help="profile JSON or model file (default: bundled base)")
@click.option("--case", type=CASE_CHOICE, default=None,
              help="the site's case rule (default: the profile's); insensitive: any case is right")
@click.option("--json", "as_json", is_flag=True,
              help="print one JSON object: exact, exact_cased, exact_ignoring_case, per_char, "
                   "ms_per_image, n, case")
def eval_cmd(directory: Path, profile: str | None, case: str | None, as_json: bool) -> None:
    """Measure exact and per-character accuracy and ms/image on a labelled folder.

    ``exact`` and ``per_char`` follow the site's case rule (the profile's ``case``, or --case);
    ``exact_cased`` and ``exact_ignoring_case`` are both printed as well.
    """
    from browsercrawl.captcha.samples import load_labelled_folder
    from browsercrawl.captcha.train import evaluate, load_samples

    solver = _solver(profile)
    if case:
        solver.profile.case = case
        solver.recogniser = solver.profile.build()
    samples = load_samples(load_labelled_folder(directory))
    score = evaluate(solver.recogniser, solver.profile.steps, samples, solver.profile.priors)
    if as_json:
        click.echo(json.dumps(score.as_dict()))
    else:
        click.echo(f"{score.n} images: exact {score.exact:.1%} (case {score.case}; letter for letter "
                   f"{score.exact_cased:.1%}, ignoring case {score.exact_ignoring_case:.1%}), "
                   f"per-char {score.per_char:.1%}, {score.ms_per_image:.1f} ms/image")


@captcha.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="model file to write (any name; .npz by convention)")
@click.option("--kind", type=click.Choice(["auto", "ctc", "chars"]), default="auto",
              help="ctc: whole-string network (needs torch); chars: segment + classify; auto: ctc if torch")
@click.option("--steps", "max_steps", default=None, type=int,
              help="CTC training: at most this many batches of 32 [default: 800]")
@click.option("--epochs", default=None, type=float, help="CTC training: at most this many passes instead")
@click.option("--budget", default=3600.0, show_default=True,
              help="CTC training: wall-clock safety net in seconds; a cut run says so and can --resume")
@click.option("--resume", is_flag=True, help="continue the run the --budget cap (or Ctrl-C) stopped")
@click.option("--holdout", default=0.1, show_default=True,
              help="CTC training: fraction held back to decide when to stop (none below 20 images)")
@click.option("--case", type=CASE_CHOICE, default=None,
              help="the site's case rule (default: upper/lower when every label is, else sensitive)")
@click.option("--unlabelled", type=click.Path(path_type=Path), default=None,
              help="folder of unlabelled images: the trained model labels those it is sure of, "
                   "then trains again")
@click.option("--min-confidence", default=0.9, show_default=True, help="for --unlabelled")
@click.option("--profile", help="take preprocessing steps from this profile JSON")
@click.option("--from", "start", default="base", show_default=True,
              help="CTC training starts from: base (the bundled pretrained model), none, or a model file")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="CTC training threads (default: 1 or 2, measured while training)")
def train(directory: Path, out: Path, kind: str, max_steps: int | None, epochs: float | None, budget: float,
          resume: bool, holdout: float, case: str | None, unlabelled: Path | None, min_confidence: float,
          profile: str | None, start: str, threads: int | None) -> None:
    """Train a recogniser on a labelled folder and write one model file."""
    import math

    from browsercrawl.captcha.profile import Profile
    from browsercrawl.captcha.samples import load_labelled_folder, unlabelled_folder
    from browsercrawl.captcha.train import (
        DEFAULT_CTC_STEPS,
        checkpoint_path,
        load_samples,
        torch_available,
        train_to_file,
    )

    if out.is_dir():
        raise UserError(f"--out {out}: is a folder; give the model file to write")
    _check_budget(budget)
    if max_steps is not None and epochs is not None:
        raise UserError("--steps and --epochs: give one of them")
    if max_steps is not None and not 1 <= max_steps <= 100_000:
        raise UserError(f"--steps {max_steps}: must be between 1 and 100000")
    if not 0 <= holdout < 1:
        raise UserError(f"--holdout {holdout}: must be between 0 and 1")
    if resume and not checkpoint_path(out).is_file():
        raise UserError(f"--resume: no unfinished training at {checkpoint_path(out)}")
    start_from = _start_from(start)
    steps = Profile.load(profile).steps if profile else None
    samples = load_samples(load_labelled_folder(directory))
    extra = None
    if unlabelled is not None:
        from browsercrawl.captcha import preprocess

        extra = [preprocess.decode_image(p.read_bytes()) for p in unlabelled_folder(unlabelled)]
    if epochs is not None:
        if not 0 < epochs <= 10_000:
            raise UserError(f"--epochs {epochs}: must be above 0 and at most 10000")
        max_steps = max(1, math.ceil(epochs * len(samples) / 32))
    if kind == "auto":
        kind = "ctc" if torch_available() else "chars"
    prof = train_to_file(samples, out, kind, budget, lambda m: click.echo(m, err=True), steps,
                         max_steps=max_steps or DEFAULT_CTC_STEPS, start=start_from, threads=threads,
                         case=case, holdout=holdout, resume=resume, unlabelled=extra,
                         min_confidence=min_confidence)
    click.echo(f"wrote {out} ({kind}, {len(samples)} images, charset {prof.charset!r}, "
               f"lengths {prof.min_len}-{prof.max_len}, case {prof.case})")


@captcha.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="folder for profile + models")
@click.option("--name", default=None, help="profile name (default: the folder's name)")
@click.option("--holdout", default=0.2, show_default=True, help="fraction held back for scoring")
@click.option("--budget", default=3600.0, show_default=True,
              help="CTC training: wall-clock safety net, seconds")
@click.option("--steps", "max_steps", default=800, show_default=True,
              help="CTC training: at most this many batches of 32")
@click.option("--case", type=CASE_CHOICE, default=None, help="the site's case rule")
@click.option("--no-ctc", is_flag=True, help="do not train the CTC network even if torch is installed")
@click.option("--from", "start", default="base", show_default=True,
              help="CTC training starts from: base, none, or a model .npz")
@click.option("--threads", type=click.IntRange(1, 64), default=None, help="CTC training threads")
def tune(directory: Path, out: Path, name: str | None, holdout: float, budget: float, max_steps: int,
         case: str | None, no_ctc: bool, start: str, threads: int | None) -> None:
    """Try pipelines on labelled samples and keep the best on a held-back split."""
    from browsercrawl.captcha.samples import load_labelled_folder
    from browsercrawl.captcha.train import load_samples
    from browsercrawl.captcha.train import tune as run_tune

    if not 0 < holdout < 1:
        raise UserError(f"--holdout {holdout}: must be between 0 and 1")
    start_from = _start_from(start)
    samples = load_samples(load_labelled_folder(directory))
    name = name or directory.resolve().name
    run_tune(samples, out, name, holdout, budget, False if no_ctc else None,
             lambda m: click.echo(m, err=True), max_steps, start=start_from, threads=threads, case=case)
    click.echo(str(out / f"{name}.json"))


@captcha.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path), help="profile JSON to write")
@click.option("--profile", "--model", "profile", default=None,
              help="profile JSON or model file whose view to choose (default: the bundled base)")
@click.option("--charset", default=None, help="with the base: the characters the site's answers use")
@click.option("--min-len", type=click.IntRange(1, 64), default=None, help="with the base: shortest answer")
@click.option("--max-len", type=click.IntRange(1, 64), default=None, help="with the base: longest answer")
@click.option("--case", type=CASE_CHOICE, default=None, help="the site's case rule")
@click.option("--self-train", is_flag=True,
              help="also train the network on the answers it is sure of (needs torch); --out is then "
                   "the model file to write")
@click.option("--min-confidence", type=click.FloatRange(0, 1), default=None,
              help="with --self-train: the confidence an answer needs to be trained on [default: 0.9]")
@click.option("--budget", default=3600.0, show_default=True,
              help="with --self-train: wall-clock safety net in seconds; a cut run says so and can --resume")
@click.option("--steps", "max_steps", type=click.IntRange(1, 100_000), default=None,
              help="with --self-train: at most this many batches of 32 [default: 800]")
@click.option("--resume", is_flag=True, help="with --self-train: continue the run the --budget cap stopped")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="with --self-train: training threads")
def fit(directory: Path, out: Path, profile: str | None, charset: str | None, min_len: int | None,
        max_len: int | None, case: str | None, self_train: bool, min_confidence: float | None, budget: float,
        max_steps: int | None, resume: bool, threads: int | None) -> None:
    """Fit the reader to a folder of a site's CAPTCHAs; no labels needed.

    Writes a profile that reads them in the chosen view (see docs/captcha.md, "Views"); with
    --self-train, a model trained on its own sure answers ("Self-training").
    """
    from browsercrawl.captcha import preprocess
    from browsercrawl.captcha.profile import Profile, base_profile
    from browsercrawl.captcha.samples import unlabelled_folder
    from browsercrawl.captcha.views import fit_profile

    if out.is_dir():
        what = "model" if self_train else "profile"
        raise UserError(f"--out {out}: is a folder; give the {what} file to write")
    if not self_train and (resume or any(v is not None for v in (min_confidence, threads, max_steps))):
        raise UserError("--min-confidence/--steps/--resume/--threads: only with --self-train")
    if self_train:
        _check_budget(budget)
    if profile:
        prof = Profile.load(profile)
        if charset is not None or min_len is not None or max_len is not None:
            raise UserError("--charset/--min-len/--max-len: only with the base (the profile says its own)")
    else:
        lo, hi = min_len or 1, max_len or 12
        if lo > hi:
            raise UserError(f"--min-len {lo} is above --max-len {hi}")
        prof = base_profile(charset or "", lo, hi, case or "sensitive", name=directory.resolve().name)
    if case:
        prof.case = case
    images = [preprocess.decode_image(p.read_bytes()) for p in unlabelled_folder(directory)]
    if self_train:
        from browsercrawl.captcha.self_train import DEFAULT_MIN_CONFIDENCE, self_train_to_file
        from browsercrawl.captcha.train import DEFAULT_CTC_STEPS, checkpoint_path, torch_available

        if not torch_available():
            raise UserError("--self-train: needs PyTorch (pip install 'browsercrawl[captcha-train]')")
        if resume and not checkpoint_path(out).is_file():
            raise UserError(f"--resume: no unfinished training at {checkpoint_path(out)}")
        trained = self_train_to_file(prof, images, out, lambda m: click.echo(m, err=True),
                                     min_confidence=DEFAULT_MIN_CONFIDENCE if min_confidence is None
                                     else min_confidence, budget_s=budget, threads=threads, resume=resume,
                                     max_steps=max_steps or DEFAULT_CTC_STEPS, where=str(directory))
        click.echo(f"wrote {out} (ctc, self-trained on {directory}, charset {trained.charset!r}, "
                   f"lengths {trained.min_len}-{trained.max_len}, case {trained.case})")
        return
    fitted, choice = fit_profile(prof, images, profile or "base")
    fitted.save(out)
    click.echo(f"{directory}: read in {choice.describe()} -> {out}")


@captcha.command()
@click.argument("directory", type=click.Path(path_type=Path))
def label(directory: Path) -> None:
    """Show each unlabelled image in a browser window; type the answer (saved to labels.csv)."""
    import asyncio

    from browsercrawl.captcha.label import label_folder_headed

    n = asyncio.run(label_folder_headed(directory))
    click.echo(f"labelled {n} images in {directory / 'labels.csv'}")


@captcha.command()
@click.argument("image", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path), help="folder for stage images")
@click.option("--profile", "--model", "profile", help="profile JSON or model file (default: bundled base)")
def debug(image: Path, out: Path, profile: str | None) -> None:
    """Write the image after each preprocessing stage, plus segmentation boxes, into OUT."""
    import cv2

    from browsercrawl.captcha import preprocess, segment

    if not image.is_file():
        raise UserError(f"{image}: image not found")
    solver = _solver(profile)
    out.mkdir(parents=True, exist_ok=True)
    img = preprocess.decode_image(image.read_bytes())
    cv2.imwrite(str(out / "00-input.png"), img)
    stages = preprocess.run_steps(img, solver.profile.steps)
    for i, (name, stage) in enumerate(stages, start=1):
        cv2.imwrite(str(out / f"{i:02d}-{name}.png"), stage)
    last = stages[-1][1] if stages else img
    if last.ndim == 3:  # what the network reads: each of its grayscale views of the colour image
        for view in solver.profile.recogniser.get("views", []):
            stages.append((view, preprocess.STEPS[view](last)))
            cv2.imwrite(str(out / f"{len(stages):02d}-{view}.png"), stages[-1][1])
    final = stages[-1][1] if stages else preprocess.grayscale(img)
    if final.ndim == 2:
        binary = final if preprocess.np.isin(final, (0, 255)).all() else preprocess.binarise_otsu(final)
        boxes = segment.segment(binary, "components", solver.profile.priors.expected_len())
        vis = cv2.cvtColor(binary, cv2.COLOR_GRAY2BGR)
        for x0, y0, x1, y1 in boxes:
            cv2.rectangle(vis, (x0, y0), (x1 - 1, y1 - 1), (0, 0, 255), 1)
        cv2.imwrite(str(out / f"{len(stages) + 1:02d}-segments.png"), vis)
    sol = solver.solve_sync(image.read_bytes())
    click.echo(f"{sol.text}\t{sol.confidence:.3f}\t{sol.recogniser}\t-> {out}")
