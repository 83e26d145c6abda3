"""Recognisers, priors, voting, model files and the solver, on small generated images."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from browsercrawl.captcha import ctc, datasets, preprocess
from browsercrawl.captcha.profile import Profile, model_recogniser, read_model, write_model
from browsercrawl.captcha.recognise import Priors, TesseractRecogniser, VoteRecogniser
from browsercrawl.captcha.samples import load_labelled_folder
from browsercrawl.captcha.solver import CaptchaSolver, Solution
from browsercrawl.captcha.train import evaluate, load_samples, train_chars, train_to_file
from browsercrawl.errors import UserError


def clean_png(text: str) -> bytes:
    img = Image.new("L", (40 * len(text) + 40, 70), 255)
    ImageDraw.Draw(img).text((20, 10), text, font=datasets._font(40), fill=0)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def lined(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("lined")
    datasets.generate("lined", base / "train", 120, seed=11)
    datasets.generate("lined", base / "test", 40, seed=12)
    return base / "train", base / "test"


def test_priors_clean_and_penalise() -> None:
    p = Priors("ABC123", 4, 5)
    assert p.clean(" ab c1 x!") == "ABC1"
    assert p.plausibility("ABC1") == 1.0 and p.plausibility("AB") < 0.5
    assert p.expected_len() is None and Priors("A", 5, 5).expected_len() == 5


def test_tesseract_reads_clean_text_line_and_per_character() -> None:
    gray = preprocess.apply(preprocess.decode_image(clean_png("K7P3X")), Profile().steps)
    line = TesseractRecogniser(Priors("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 5, 5), psm=7)
    assert line.recognise(gray)[0] == "K7P3X"
    per_char = TesseractRecogniser(Priors("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 5, 5), psm=10)
    text, conf = per_char.recognise(gray)
    assert text == "K7P3X" and 0 < conf <= 1


class Fixed:
    def __init__(self, text: str, conf: float) -> None:
        self.name, self.text, self.conf = "fixed", text, conf

    def recognise(self, gray):  # a real recogniser's interface, answers given per test
        return self.text, self.conf


def test_vote_is_weighted_by_confidence() -> None:
    img = np.zeros((2, 2), np.uint8)
    vote = VoteRecogniser([Fixed("ABCD", 0.5), Fixed("ABCD", 0.5), Fixed("ABCO", 0.9)])
    text, conf = vote.recognise(img)
    assert text == "ABCD" and conf == pytest.approx(1.0 / 3)
    assert VoteRecogniser([Fixed("ABCD", 0.4), Fixed("ABCO", 0.9)]).recognise(img)[0] == "ABCO"
    assert VoteRecogniser([Fixed("ABCD", 0.4), Fixed("ABCO", 0.9)], [3.0, 1.0]).recognise(img)[0] == "ABCD"


def test_char_classifier_learns_the_lined_style(lined, tmp_path) -> None:
    train_dir, test_dir = lined
    train = load_samples(load_labelled_folder(train_dir))
    test = load_samples(load_labelled_folder(test_dir))
    model = tmp_path / "lined.npz"
    prof = train_to_file(train, model, "chars", 10, None)
    assert prof.min_len == 4 and prof.max_len == 6
    loaded = Profile.load(model)
    score = evaluate(loaded.build(), loaded.steps, test)
    assert score.exact >= 0.5 and score.per_char >= 0.8, score
    assert score.ms_per_image < 50


def test_model_file_round_trip_and_garbage(tmp_path, lined) -> None:
    train = load_samples(load_labelled_folder(lined[0]))[:30]
    priors = Priors("".join(sorted(set("".join(lab for _, lab in train)))), 4, 6)
    steps = [{"step": "grayscale"}, {"step": "binarise_otsu"}]
    meta, arrays = train_chars(train, steps, "components", priors)
    path = tmp_path / "m.npz"
    write_model(path, {**meta, "profile": Profile("m", charset=priors.charset).to_json()}, arrays)
    meta2, arrays2 = read_model(path)
    assert meta2["kind"] == "chars" and set(arrays2) == set(arrays)
    img = preprocess.grayscale(preprocess.decode_image(_png(train[0][0])))
    a = model_recogniser(meta, arrays, priors).recognise(preprocess.binarise_otsu(img))
    b = model_recogniser(meta2, arrays2, priors).recognise(preprocess.binarise_otsu(img))
    assert a == b
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(UserError, match=r"bad\.npz: not a browsercrawl CAPTCHA model"):
        read_model(bad)


def _png(bgr: np.ndarray) -> bytes:
    import cv2

    return cv2.imencode(".png", bgr)[1].tobytes()


def test_ctc_numpy_inference_matches_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    xs = [rng.normal(size=(ctc.INPUT_H, 96)).astype(np.float32) for _ in range(8)]
    tnet = ctc.train_torch(xs, ["AB", "BA", "A", "B"] * 2, "AB", budget_s=5, max_steps=5)
    net = ctc.fold(tnet, "AB", 96)
    with torch.no_grad():
        ref = tnet(torch.from_numpy(xs[0])[None, None])[0].T.numpy()
    assert np.abs(net.logits(xs[0]) - ref).max() < 1e-3
    again = ctc.CtcNet.from_arrays(net.to_arrays(), "AB", 96)
    assert np.array_equal(again.logits(xs[1]), net.logits(xs[1]))


def test_ctc_learns_a_tiny_clean_set() -> None:
    pytest.importorskip("torch")
    texts = ["A", "X", "T", "AX", "XT", "TA"] * 3
    grays = [preprocess.grayscale(preprocess.decode_image(clean_png(t))) for t in texts]
    width = 64
    xs = [ctc.to_input(g, width) for g in grays]
    net = ctc.train_ctc(xs, texts, "AXT", width, budget_s=300, max_steps=120)
    got = [net.predict(x)[0] for x in xs[:6]]
    assert got == texts[:6]


def test_solver_default_profile_sync_and_async() -> None:
    solver = CaptchaSolver.from_profile(None)
    sol = solver.solve_sync(clean_png("HELLO"))
    assert isinstance(sol, Solution) and sol.text == "HELLO" and sol.recogniser == "tesseract"
    assert asyncio.run(solver.solve(clean_png("W4TER"))).text == "W4TER"


def test_profile_errors_name_the_file_and_field(tmp_path) -> None:
    p = tmp_path / "p.json"
    p.write_text('{"steps": [], "recogniser": {"kind": "magic"}}')
    with pytest.raises(UserError, match=r"p\.json: recogniser: kind must be one of"):
        Profile.load(p)
    p.write_text('{"min_len": 5, "max_len": 3}')
    with pytest.raises(UserError, match=r"min_len/max_len"):
        Profile.load(p)
    p.write_text('{"colour": 1}')
    with pytest.raises(UserError, match="unknown field 'colour'"):
        Profile.load(p)
    p.write_text('{"recogniser": {"kind": "ctc"}}')
    with pytest.raises(UserError, match="needs a 'model' file path"):
        Profile.load(p)
    p.write_text("{nope")
    with pytest.raises(UserError, match="not valid JSON"):
        Profile.load(p)
