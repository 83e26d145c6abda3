"""Character weights fitted to a site's unlabelled images (captcha/site_prior.py): a network that
leans towards one of two look-alikes on a font it never saw is told how often the site draws each."""

from __future__ import annotations

import json

import numpy as np
import pytest

from browsercrawl.captcha import ctc, preprocess, site_prior
from browsercrawl.captcha.profile import Profile, base_profile
from browsercrawl.captcha.recognise import CtcRecogniser
from browsercrawl.captcha.samples import load_labelled_folder
from browsercrawl.captcha.train import evaluate, load_samples
from browsercrawl.captcha.views import fit_profile
from browsercrawl.errors import UserError
from scripts.bench import captcha_styles as styles


def columns(p0: float) -> np.ndarray:
    """One glyph between two blanks; charset '0OA': the network gives '0' p0, 'O' the rest."""
    p = np.full((3, 4), 1e-6)
    p[0, 0] = p[2, 0] = 1.0
    p[1, 1:] = [p0, 1 - p0, 1e-6]
    return p / p.sum(axis=1, keepdims=True)


def test_weights_even_out_a_lean_the_answers_show() -> None:
    """Half the images are a '0' the network gives 0.4 (so it answers 'O'), half an 'O' it gives
    0.1; the 'A's it reads right. Fitted, the answers give '0' and 'O' about equally often."""
    cols = [columns(0.4)] * 50 + [columns(0.1)] * 50
    a = np.full((3, 4), 1e-6)
    a[0, 0] = a[2, 0] = 1.0
    a[1, 3] = 1.0
    cols += [a] * 50
    decode = lambda p: ctc.decode(p, "0OA", 1, 1)[0]  # noqa: E731
    assert [decode(c) for c in cols[:50]] == ["O"] * 50  # the lean
    fitted = site_prior.fit(cols, "0OA", decode)
    w = np.array([fitted.weights[c] for c in "0OA"])
    answers = [decode(ctc.weigh_characters(c, w)) for c in cols]
    assert answers == ["0"] * 50 + ["O"] * 50 + ["A"] * 50
    assert fitted.weights["0"] > fitted.weights["O"] and fitted.skew_after < fitted.skew_before
    assert all(site_prior.LOWEST <= x <= site_prior.HIGHEST for x in fitted.weights.values())
    assert "150 images" in fitted.describe()


def test_weighing_keeps_the_blank_and_only_moves_the_characters() -> None:
    p = columns(0.4)
    out = ctc.weigh_characters(p, np.array([2.0, 0.5, 1.0]))
    assert np.allclose(out.sum(axis=1), 1) and np.allclose(out[:, 0], p[:, 0])
    assert out[1, 1] > out[1, 2]


@pytest.mark.parametrize(("case", "charset", "n", "why"), [
    ("insensitive", "abc", 500, "case-insensitive"),
    ("upper", "", 500, "charset is not known"),
    ("upper", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 60, "too few images (60)"),
])
def test_when_weights_are_not_fitted(case, charset, n, why) -> None:
    assert why in site_prior.why_not(case, charset, n, 5)
    assert site_prior.why_not("upper", "ABC", 100, 5) is None


@pytest.fixture(scope="module")
def lined(tmp_path_factory):
    base = tmp_path_factory.mktemp("site-prior")
    styles.generate("lined", base / "site", 200, seed=41)
    styles.generate("lined", base / "test", 100, seed=42)
    return base


def test_the_base_fitted_to_the_lined_style_reads_zero_as_zero(lined) -> None:
    """The base leans to 'O' on the lined style's font: fitted to 200 of the site's images (no
    labels), it weighs '0' above 'O' and reads more test images right."""
    facts = styles.profile_facts("lined")
    imgs = [preprocess.decode_image(p.read_bytes()) for p, _ in load_labelled_folder(lined / "site")]
    fitted, choice = fit_profile(base_profile(**facts), imgs)
    weights = fitted.recogniser["char_weights"]
    assert weights["0"] > weights["O"], weights
    assert choice.weights is not None and "character weights" in choice.describe()
    rec = fitted.build()
    assert isinstance(rec, CtcRecogniser) and rec.char_weights == weights
    unweighted = Profile.from_dict({**fitted.to_json(), "recogniser": {
        k: v for k, v in fitted.recogniser.items() if k != "char_weights"}}, "test")
    test = load_samples(load_labelled_folder(lined / "test"))
    before = evaluate(unweighted.build(), unweighted.steps, test, unweighted.priors)
    after = evaluate(rec, fitted.steps, test, fitted.priors)
    assert after.exact > before.exact, (before.exact, after.exact)  # 0.95 -> 0.97 when written


def test_a_case_insensitive_site_gets_no_weights_and_says_why(tmp_path) -> None:
    styles.generate("arc", tmp_path, 120, seed=43)
    imgs = [preprocess.decode_image(p.read_bytes()) for p, _ in load_labelled_folder(tmp_path)]
    fitted, choice = fit_profile(base_profile(**styles.profile_facts("arc")), imgs)
    assert "char_weights" not in fitted.recogniser and "case-insensitive" in choice.describe()


@pytest.mark.parametrize("bad", [{"0": -1}, {"00": 2.0}, ["0", 2.0], {"0": "2"}, {"0": True}])
def test_bad_character_weights_in_a_profile_are_one_line(tmp_path, bad) -> None:
    prof = base_profile(charset="0O", min_len=1, max_len=2).to_json()
    prof["recogniser"]["char_weights"] = bad
    path = tmp_path / "p.json"
    path.write_text(json.dumps(prof))
    with pytest.raises(UserError, match="char_weights must map single characters to positive numbers"):
        Profile.load(path)
