"""The ``browsercrawl captcha`` commands end to end, and their one-line errors on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from browsercrawl.captcha.profile import Profile
from browsercrawl.captcha.samples import load_labelled_folder, record_verified_sample
from browsercrawl.errors import UserError
from scripts.bench import captcha_styles as styles

BIN = str(Path(sys.executable).with_name("browsercrawl"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, "captcha", *args], capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="module")
def sets(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("cli")
    styles.generate("lined", base / "train", 100, seed=21)
    styles.generate("lined", base / "test", 30, seed=22)
    return base / "train", base / "test"


def test_train_eval_solve_contract(sets, tmp_path) -> None:
    train, test = sets
    model = tmp_path / "lined.npz"
    r = run("train", str(train), "--out", str(model), "--kind", "chars")
    assert r.returncode == 0, r.stderr
    assert model.is_file() and "wrote" in r.stdout
    r = run("eval", str(test), "--model", str(model), "--json")
    assert r.returncode == 0, r.stderr
    score = json.loads(r.stdout)
    assert {"exact", "per_char", "ms_per_image"} <= set(score)
    assert score["exact"] >= 0.4 and score["per_char"] >= 0.75
    img, _ = load_labelled_folder(test)[0]
    r = run("solve", str(img), "--model", str(model), "--json")
    out = json.loads(r.stdout)
    assert out["recogniser"] == "chars" and 4 <= len(out["text"]) <= 6 and 0 <= out["confidence"] <= 1


def test_ctc_fine_tunes_the_base_then_its_own_model(sets, tmp_path) -> None:
    """`train --kind ctc` starts from the bundled base; `--from MODEL` continues a site's model
    (what a crawl's verified samples are for); both beat the base read zero-shot."""
    train, test = sets
    base = json.loads(run("eval", str(test), "--json").stdout)["exact"]
    first = tmp_path / "first.npz"
    # Counted in steps, not seconds: under load a wall-clock budget would buy fewer of them.
    r = run("train", str(train), "--out", str(first), "--kind", "ctc", "--steps", "100", "--threads", "2")
    assert r.returncode == 0, r.stderr
    assert "starting from a trained model" in r.stderr
    assert "training view: grayscale (" in r.stderr  # every view reads this one style alike
    tuned = json.loads(run("eval", str(test), "--model", str(first), "--json").stdout)
    again = tmp_path / "again.npz"
    r = run("train", str(train), "--out", str(again), "--kind", "ctc", "--steps", "30", "--from", str(first))
    assert r.returncode == 0, r.stderr
    charset = json.loads(run("solve", str(load_labelled_folder(test)[0][0]), "--model", str(again),
                             "--json").stdout)
    assert charset["recogniser"] == "ctc"
    n = len(set("".join(label for _, label in load_labelled_folder(train))))
    assert f"({n} of {n} characters known)" in r.stderr
    continued = json.loads(run("eval", str(test), "--model", str(again), "--json").stdout)
    assert tuned["exact"] >= 0.8 and tuned["exact"] > base, (base, tuned)
    assert continued["exact"] >= 0.8, continued


def test_train_takes_any_file_name_and_a_cut_run_resumes(sets, tmp_path) -> None:
    """The wall-clock cap is a safety net: a run it cuts says so with steps and held-back accuracy,
    still writes a usable model, and `--resume` finishes the same run from its checkpoint."""
    train, test = sets
    model = tmp_path / "site-model.bin"
    r = run("train", str(train), "--out", str(model), "--kind", "ctc", "--budget", "1", "--steps", "30")
    assert r.returncode == 0, r.stderr
    assert "WARNING: training was cut by the wall-clock cap (--budget) after" in r.stderr
    assert "of 30 planned steps" in r.stderr and "--resume" in r.stderr
    ckpt = tmp_path / "site-model.bin.ckpt"
    assert model.is_file() and ckpt.is_file()
    assert run("eval", str(test), "--model", str(model), "--json").returncode == 0
    r = run("train", str(train), "--out", str(model), "--kind", "ctc", "--steps", "30", "--resume")
    assert r.returncode == 0, r.stderr
    assert "resuming from" in r.stderr and "WARNING" not in r.stderr and not ckpt.exists()
    assert "case upper" in r.stdout  # every label is upper case: the site's rule, stored in the model
    score = json.loads(run("eval", str(test), "--model", str(model), "--json").stdout)
    assert score["exact"] >= 0.8 and score["case"] == "upper", score


def test_self_labelling_adds_confident_answers(sets, tmp_path) -> None:
    train, test = sets
    small = tmp_path / "small"
    small.mkdir()
    for p, _ in load_labelled_folder(train)[:40]:
        (small / p.name).write_bytes(p.read_bytes())
    unlabelled = tmp_path / "unlabelled"
    unlabelled.mkdir()
    for i, (p, _) in enumerate(load_labelled_folder(test)):
        (unlabelled / f"u{i}.png").write_bytes(p.read_bytes())  # no label in the name
    r = run("train", str(small), "--out", str(tmp_path / "m.npz"), "--kind", "ctc", "--steps", "30",
            "--unlabelled", str(unlabelled), "--min-confidence", "0.5")
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stderr.splitlines() if x.startswith("self-labelled"))
    taken = int(line.split()[1])
    assert 0 < taken <= 30 and "of 30 images (" in line, line


def test_tune_writes_a_usable_profile(sets, tmp_path) -> None:
    _, test = sets
    train = tmp_path / "small"
    styles.generate("lined", train, 40, seed=23)
    r = run("tune", str(train), "--out", str(tmp_path / "prof"), "--name", "lined", "--no-ctc")
    assert r.returncode == 0, r.stderr
    prof = Path(r.stdout.strip())
    data = json.loads(prof.read_text())
    assert data["charset"] and data["min_len"] == 4 and data["max_len"] == 6
    assert "tesseract/" in r.stderr and "chars/" in r.stderr and "best:" in r.stderr
    # The untrained base, its view chosen from the training images, is a candidate too (and with
    # 32 training images it wins: the trained pipelines have too few to learn from).
    assert "base/grayscale" in r.stderr or "base/close_hairlines" in r.stderr, r.stderr
    r = run("eval", str(test), "--profile", str(prof), "--json")
    assert json.loads(r.stdout)["exact"] >= 0.3


def test_debug_writes_each_stage(sets, tmp_path) -> None:
    img, _ = load_labelled_folder(sets[1])[0]
    Profile().save(tmp_path / "tess.json")  # the Tesseract pipeline: many stages to look at
    r = run("debug", str(img), "--out", str(tmp_path / "dbg"), "--profile", str(tmp_path / "tess.json"))
    assert r.returncode == 0, r.stderr
    names = sorted(p.name for p in (tmp_path / "dbg").iterdir())
    assert names[0] == "00-input.png" and any("binarise_otsu" in n for n in names)
    assert names[-1].endswith("segments.png") and r.stdout.split("\t")[2] == "tesseract"
    r = run("debug", str(img), "--out", str(tmp_path / "dbg2"))  # default: the base model's one stage
    assert r.returncode == 0 and r.stdout.split("\t")[2] == "ctc"
    assert (tmp_path / "dbg2" / "01-grayscale.png").is_file()


def test_labelled_folder_forms_and_recording(tmp_path) -> None:
    png = styles.render_lined("AB12", __import__("random").Random(0))
    p = record_verified_sample(tmp_path / "verified", png, "AB12")
    assert p.name.endswith("_AB12.png") and p.read_bytes() == png
    assert load_labelled_folder(tmp_path / "verified") == [(p, "AB12")]
    (tmp_path / "csv").mkdir()
    (tmp_path / "csv" / "x.png").write_bytes(png)
    (tmp_path / "csv" / "labels.csv").write_text("file,label\nx.png,AB12\n")
    assert load_labelled_folder(tmp_path / "csv")[0][1] == "AB12"
    with pytest.raises(UserError, match="bad label"):
        record_verified_sample(tmp_path / "verified", png, "a/b")


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        (lambda d: None, ["eval", "{d}/missing"], "missing: not a directory of labelled CAPTCHA images"),
        (lambda d: (d / "img.png").write_bytes(b"x"), ["eval", "{d}"], "img.png: no label in the name"),
        (lambda d: (d / "labels.csv").write_text("name,answer\n"), ["eval", "{d}"],
         "labels.csv: needs a header line with columns file,label"),
        (lambda d: (d / "labels.csv").write_text("file,label\ngone.png,AB\n"), ["eval", "{d}"],
         "labels.csv:2: image 'gone.png' not found"),
        (lambda d: (d / "p.json").write_text('{"steps": [{"step": "blurr"}]}'),
         ["solve", "{d}/p.json", "--profile", "{d}/p.json"], "p.json: steps[0]: unknown step 'blurr'"),
        (lambda d: (d / "m.npz").write_bytes(b"junk"), ["eval", "{d}", "--model", "{d}/m.npz"],
         "m.npz: not a browsercrawl CAPTCHA model"),
        (lambda d: (d / "sub").mkdir(), ["train", "{d}", "--out", "{d}/sub"],
         "--out {d}/sub: is a folder; give the model file to write"),
        (lambda d: None, ["train", "{d}", "--out", "{d}/m.bin", "--resume"],
         "--resume: no unfinished training at {d}/m.bin.ckpt"),
        (lambda d: None, ["solve", "{d}/nope.png"], "nope.png: image not found"),
        (lambda d: None, ["train", "{d}", "--out", "{d}/m.npz", "--from", "{d}/gone.npz"],
         "--from {d}/gone.npz: no such model file (or say base / none)"),
        (lambda d: (d / "junk.npz").write_bytes(b"junk"),
         ["train", "{d}", "--out", "{d}/m.npz", "--from", "{d}/junk.npz"],
         "junk.npz: not a browsercrawl CAPTCHA model"),
    ],
)
def test_bad_input_gives_one_line_error(tmp_path, setup, args, message) -> None:
    setup(tmp_path)
    r = run(*[a.format(d=tmp_path) for a in args])
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    message = message.format(d=tmp_path)
    assert len(lines) == 1 and lines[0].startswith("browsercrawl: error: ") and message in lines[0], lines
    assert "Traceback" not in r.stderr


def test_label_without_display_fails_clearly(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    r = subprocess.run([BIN, "captcha", "label", str(tmp_path)], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 4 and "needs a display" in r.stderr
