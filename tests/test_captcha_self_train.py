"""A site model from unlabelled CAPTCHAs (captcha/sure.py, self_train.py, ``captcha fit --self-train``):
the base's sure answers are right far more often than its average answer, they are what the
network trains on, and the command writes a model ``captcha eval`` reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from browsercrawl.captcha import preprocess
from browsercrawl.captcha.profile import base_profile, read_model
from browsercrawl.captcha.recognise import Priors
from browsercrawl.captcha.samples import load_labelled_folder
from browsercrawl.captcha.self_train import in_stored_case, self_train_to_file, trained_char_weights
from browsercrawl.captcha.sure import character_thresholds, in_charset, perturbed, steady, sure_answers
from browsercrawl.captcha.views import fit_profile
from browsercrawl.errors import UserError
from scripts.bench import captcha_styles as styles

BIN = str(Path(sys.executable).with_name("browsercrawl"))
STYLE = "wave"  # the base reads about four in five of these: a mix of sure and unsure answers


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("self-train") / STYLE
    styles.generate(STYLE, out, 80, seed=41)
    return out


def pairs(folder: Path) -> list:
    return [(preprocess.decode_image(p.read_bytes()), lab) for p, lab in load_labelled_folder(folder)]


def facts_args() -> list[str]:
    f = styles.profile_facts(STYLE)
    return ["--charset", f["charset"], "--min-len", str(f["min_len"]), "--max-len", str(f["max_len"]),
            "--case", f["case"]]


def test_answers_take_the_sites_case() -> None:
    assert in_charset("AbC9", "abc9") == "abc9"
    assert in_charset("abc", "ABC") == "ABC"
    assert in_charset("aB", "aBb") == "aB"  # both cases are the site's: kept as read
    assert in_charset("xY", "") == "xY"


def test_an_insensitive_site_is_labelled_in_its_stored_case() -> None:
    """The decoder folds a letter's two cases only for a one-case site: a site that accepts any
    case but stores lower case is read as lower case while labelling, so the confidence of an
    answer is not split between ``a`` and ``A``."""
    lower = base_profile("abc2", 4, 5, "insensitive")
    assert in_stored_case(lower).case == "lower" and lower.case == "insensitive"
    assert in_stored_case(base_profile("ABC2", 4, 5, "insensitive")).case == "upper"
    for kept in (base_profile("aBc", 4, 5, "insensitive"), base_profile("123", 4, 5, "insensitive"),
                 base_profile("abc", 4, 5, "sensitive"), base_profile("", 4, 5, "insensitive")):
        assert in_stored_case(kept) is kept


def test_a_character_rarely_read_surely_gets_its_own_threshold() -> None:
    """Three answers in ten reach 0.9, and no answer holding 0 does: one bar for all would train
    on no 0 at all. Its own bar keeps the surest of those, as a share of them like the rest."""
    answers = [("AB", 0.95), ("BC", 0.92), ("CA", 0.97), ("AC", 0.5), ("BA", 0.4), ("CB", 0.3),
               ("A0", 0.7), ("0B", 0.65), ("C0", 0.6), ("00", 0.62)]
    t = character_thresholds(answers, 0.9)
    assert max(t.values()) <= 0.9 and t["0"] == min(t.values()) < 0.7
    kept = [a for a, c in answers if c >= min(t[ch] for ch in a)]
    assert kept == ["AB", "BC", "CA", "A0"]
    assert character_thresholds(answers, 0.99) == dict.fromkeys("ABC0", 0.99)  # none that sure: none lowered


def test_sure_answers_are_right_more_often_than_the_rest(folder) -> None:
    truth = pairs(folder)
    fitted, _ = fit_profile(base_profile(**styles.profile_facts(STYLE)), [img for img, _ in truth])
    rec, imgs = fitted.build(), [img for img, _ in truth]
    everything = sure_answers(rec, fitted.steps, fitted.priors, imgs, 0.0, check_steady=False)
    sure = sure_answers(rec, fitted.steps, fitted.priors, imgs, 0.8)
    label_of = {id(img): lab for img, lab in truth}

    def right(s) -> float:
        return sum(label_of[id(img)] == text for img, text in s.samples) / len(s.samples)

    assert 0 < len(sure.samples) < len(everything.samples) <= 80
    assert right(sure) > right(everything), (right(sure), right(everything))
    lo, hi = styles.STYLES[STYLE].lengths
    assert all(lo <= len(text) <= hi and text == text.lower() for _, text in sure.samples)
    assert f"{len(sure.samples)} of 80 images (" in sure.describe()
    assert f"{sure.at_threshold} read with confidence >= 0.8" in sure.describe()


class ReadsBySize:
    """A reader whose answer hangs on the glyphs' size in the frame it reads (the image's
    proportions): ``9`` in the proportions it was drawn in, ``g`` in any other (the way a network
    misreads a glyph by its height against the line rather than by its strokes)."""

    def recognise(self, gray: np.ndarray) -> tuple[str, float]:
        return ("a9" if 2.4 <= gray.shape[1] / gray.shape[0] <= 2.6 else "ag"), 0.99


class ReadsByShape:
    """A reader whose answer hangs only on the ink's shape (here: always the same)."""

    def recognise(self, gray: np.ndarray) -> tuple[str, float]:
        return "a9", 0.99


def test_an_answer_that_changes_with_a_margin_or_a_stretch_is_not_sure() -> None:
    """Confident is not enough: an image whose reading changes when given a margin or stretched
    is left out; one read the same in every copy is kept."""
    img = np.full((40, 100), 255, np.uint8)
    img[18:22, 10:90] = 0
    assert [c.shape for c in perturbed(img)] == [(52, 100), (40, 112), (40, 90)]
    pri = Priors("a9g", 2, 2, "lower")
    assert ReadsBySize().recognise(img)[0] == "a9"
    assert not steady(ReadsBySize(), pri, img, "a9")
    assert steady(ReadsByShape(), pri, img, "a9")
    colour = np.dstack([img] * 3)
    by_size = sure_answers(ReadsBySize(), [], pri, [colour, colour], 0.9)
    assert by_size.samples == [] and by_size.unsteady == 2
    assert "2 of those left out, read otherwise given a margin or stretched" in by_size.describe()
    unchecked = sure_answers(ReadsBySize(), [], pri, [colour], 0.9, check_steady=False)
    assert [t for _, t in unchecked.samples] == ["a9"] and unchecked.unsteady == 0
    by_shape = sure_answers(ReadsByShape(), [], pri, [colour], 0.9)
    assert [t for _, t in by_shape.samples] == ["a9"] and "left out" not in by_shape.describe()


def test_self_training_writes_a_model_that_says_what_it_trained_on(folder, tmp_path) -> None:
    said: list[str] = []
    images = [img for img, _ in pairs(folder)]
    prof = self_train_to_file(base_profile(**styles.profile_facts(STYLE)), images, tmp_path / "m.npz",
                              said.append, min_confidence=0.5, max_steps=2, threads=1)
    meta, arrays = read_model(tmp_path / "m.npz")
    st = meta["training"]["self_trained"]
    assert st["images"] == 80 and 0 < st["sure"] <= 80 and st["min_confidence"] == 0.5
    assert prof.steps == [{"step": st["view"]}] and meta["profile"]["steps"] == prof.steps
    assert prof.case == "lower" and meta["training"]["planned"] == 2
    assert any(line.startswith("self-labelled: ") for line in said), said
    # the site draws its characters equally often: the trained network's own lean is weighed out
    weights = meta["profile"]["recogniser"]["char_weights"]
    assert set(weights) == set(styles.style_charset(STYLE)) and prof.recogniser["char_weights"] == weights
    assert any(line.startswith("character weights of the trained network: ") and "skew" in line
               for line in said), said
    insensitive = Priors("abc", 4, 5, "insensitive")
    assert trained_char_weights(meta, arrays, insensitive, prof.steps, images) == \
        "a case-insensitive site: how often each case is drawn is unknown"


def test_too_few_sure_answers_are_refused(folder, tmp_path) -> None:
    images = [img for img, _ in pairs(folder)]
    with pytest.raises(UserError, match="self-training needs at least 50"):
        self_train_to_file(base_profile(**styles.profile_facts(STYLE)), images, tmp_path / "m.npz", None,
                           min_confidence=1.0, max_steps=2)
    assert not (tmp_path / "m.npz").exists()


def test_fit_self_train_command_writes_a_model_eval_reads(folder, tmp_path) -> None:
    model = tmp_path / "site-model"  # any name, as captcha train takes
    r = subprocess.run([BIN, "captcha", "fit", str(folder), "--out", str(model), *facts_args(),
                        "--self-train", "--min-confidence", "0.5", "--steps", "2", "--threads", "1"],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    assert "self-labelled: " in r.stderr and f"wrote {model} (ctc, self-trained" in r.stdout
    r = subprocess.run([BIN, "captcha", "eval", str(folder), "--model", str(model), "--json"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and json.loads(r.stdout)["n"] == 80, r.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--min-confidence", "0.5"], "--min-confidence/--steps/--resume/--threads: only with --self-train"),
    (["--self-train", "--resume"], "--resume: no unfinished training at"),
    (["--self-train", "--budget", "0"], "--budget 0.0: must be between 1 and 86400 seconds"),
])
def test_fit_self_train_bad_input_is_one_line(folder, tmp_path, args, message) -> None:
    r = subprocess.run([BIN, "captcha", "fit", str(folder), "--out", str(tmp_path / "m.npz"), *facts_args(),
                        *args], capture_output=True, text=True, timeout=600)
    lines = [line for line in r.stderr.strip().splitlines() if not line.startswith(("reading in", "self-"))]
    assert r.returncode == 2 and len(lines) == 1 and message in lines[0], r.stderr
    assert not (tmp_path / "m.npz").exists()
