"""``browsercrawl captcha ...``: solve, eval, train, tune, label, debug.

``train DIR --out MODEL`` and ``eval DIR --model MODEL --json`` are a stable contract other tools
call; ``eval --json`` prints exactly one JSON object on stdout.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from browsercrawl.errors import UserError


def _solver(profile: str | None):
    from browsercrawl.captcha.solver import CaptchaSolver

    return CaptchaSolver.from_profile(profile)


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
@click.option("--profile", "--model", "profile", help="profile JSON or model .npz (default: bundled base)")
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


@captcha.command("eval")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--profile", "--model", "profile", help="profile JSON or model .npz (default: bundled base)")
@click.option("--json", "as_json", is_flag=True, help='print {"exact", "per_char", "ms_per_image"}')
def eval_cmd(directory: Path, profile: str | None, as_json: bool) -> None:
    """Measure exact and per-character accuracy and ms/image on a labelled folder."""
    from browsercrawl.captcha.samples import load_labelled_folder
    from browsercrawl.captcha.train import evaluate, load_samples

    solver = _solver(profile)
    samples = load_samples(load_labelled_folder(directory))
    score = evaluate(solver.recogniser, solver.profile.steps, samples)
    if as_json:
        click.echo(json.dumps(score.as_dict()))
    else:
        click.echo(f"{score.n} images: exact {score.exact:.1%}, per-char {score.per_char:.1%}, "
                   f"{score.ms_per_image:.1f} ms/image")


@captcha.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="model file to write (.npz)")
@click.option("--kind", type=click.Choice(["auto", "ctc", "chars"]), default="auto",
              help="ctc: whole-string network (needs torch); chars: segment + classify; auto: ctc if torch")
@click.option("--budget", default=270.0, show_default=True, help="CTC training: at most this many seconds")
@click.option("--steps", "max_steps", default=2500, show_default=True, help="CTC training: batches of 32")
@click.option("--profile", help="take preprocessing steps from this profile JSON")
@click.option("--from", "start", default="base", show_default=True,
              help="CTC training starts from: base (the bundled pretrained model), none, or a model .npz")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="CTC training threads (default: the cores available, at most 4)")
def train(directory: Path, out: Path, kind: str, budget: float, max_steps: int, profile: str | None,
          start: str, threads: int | None) -> None:
    """Train a recogniser on a labelled folder and write one model file."""
    from browsercrawl.captcha.profile import Profile
    from browsercrawl.captcha.samples import load_labelled_folder
    from browsercrawl.captcha.train import load_samples, torch_available, train_to_file

    if out.suffix != ".npz":
        raise UserError(f"{out}: the model file must end in .npz")
    if not 1 <= budget <= 3600:
        raise UserError(f"--budget {budget}: must be between 1 and 3600 seconds")
    start_from = _start_from(start)
    steps = Profile.load(profile).steps if profile else None
    samples = load_samples(load_labelled_folder(directory))
    if kind == "auto":
        kind = "ctc" if torch_available() else "chars"
    if not 1 <= max_steps <= 100_000:
        raise UserError(f"--steps {max_steps}: must be between 1 and 100000")
    prof = train_to_file(samples, out, kind, budget, lambda m: click.echo(m, err=True), steps,
                         max_steps=max_steps, start=start_from, threads=threads)
    click.echo(f"wrote {out} ({kind}, {len(samples)} images, charset {prof.charset!r}, "
               f"lengths {prof.min_len}-{prof.max_len})")


@captcha.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="folder for profile + models")
@click.option("--name", default=None, help="profile name (default: the folder's name)")
@click.option("--holdout", default=0.2, show_default=True, help="fraction held back for scoring")
@click.option("--budget", default=270.0, show_default=True, help="CTC training: at most this many seconds")
@click.option("--steps", "max_steps", default=2500, show_default=True, help="CTC training: batches of 32")
@click.option("--no-ctc", is_flag=True, help="skip the CTC network even if torch is installed")
@click.option("--from", "start", default="base", show_default=True,
              help="CTC training starts from: base, none, or a model .npz")
@click.option("--threads", type=click.IntRange(1, 64), default=None, help="CTC training threads")
def tune(directory: Path, out: Path, name: str | None, holdout: float, budget: float, max_steps: int,
         no_ctc: bool, start: str, threads: int | None) -> None:
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
             lambda m: click.echo(m, err=True), max_steps, start=start_from, threads=threads)
    click.echo(str(out / f"{name}.json"))


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
@click.option("--profile", "--model", "profile", help="profile JSON or model .npz (default: bundled base)")
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
