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
    old = tmp_path / "old.npz"  # a version-1 CTC file (folded weights only) cannot be trained further
    np.savez(old, meta=np.frombuffer(b'{"format": "browsercrawl-captcha-model", "version": 1, '
                                     b'"kind": "ctc"}', np.uint8))
    with pytest.raises(UserError, match=r"old\.npz: a CTC model from an older browsercrawl"):
        read_model(old)


def test_tesseract_alone_gets_one_openmp_thread(monkeypatch) -> None:
    """The one-thread limit must reach Tesseract's subprocess, not this process (it capped torch)."""
    import os

    from browsercrawl.captcha.recognise import _pytesseract

    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    pt = _pytesseract()
    gray = preprocess.apply(preprocess.decode_image(clean_png("K7P3X")), Profile().steps)
    assert TesseractRecogniser(Priors("K7P3XABC", 5, 5)).recognise(gray)[0] == "K7P3X"
    assert pt.pytesseract.environ["OMP_THREAD_LIMIT"] == "1" and "OMP_THREAD_LIMIT" not in os.environ
    monkeypatch.setenv("BC_PROBE", "live")  # the overlay follows later changes of the environment
    assert pt.pytesseract.environ["BC_PROBE"] == "live"


def _png(bgr: np.ndarray) -> bytes:
    import cv2

    return cv2.imencode(".png", bgr)[1].tobytes()


def test_ctc_numpy_inference_matches_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    xs = [rng.normal(size=(ctc.INPUT_H, 96)).astype(np.float32) for _ in range(8)]
    plan = ctc.TrainPlan(max_steps=5, budget_s=30)
    tnet = ctc.train_torch(xs, ["AB", "BA", "A", "B"] * 2, "AB", plan, init=None)
    net = ctc.to_numpy(tnet, "AB", 96)
    with torch.no_grad():
        ref = tnet(torch.from_numpy(xs[0])[None, None])[0].T.numpy()
    assert np.abs(net.logits(xs[0]) - ref).max() < 1e-3
    # what a model file holds (trainable parameters) loads back to the same numpy network
    again = ctc.CtcNet.from_params(ctc.split_params(ctc.params_of(tnet)), ctc.model_meta("AB", 96, net.arch))
    assert np.array_equal(again.logits(xs[1]), net.logits(xs[1]))


def test_ctc_learns_a_tiny_clean_set() -> None:
    pytest.importorskip("torch")
    texts = ["A", "X", "T", "AX", "XT", "TA"] * 3
    grays = [preprocess.grayscale(preprocess.decode_image(clean_png(t))) for t in texts]
    width = 64
    xs = [ctc.to_input(g, width) for g in grays]
    tnet = ctc.train_torch(xs, texts, "AXT", ctc.TrainPlan(max_steps=150, budget_s=300), init=None)
    net = ctc.to_numpy(tnet, "AXT", width)
    got = [net.predict(x)[0] for x in xs[:6]]
    assert got == texts[:6]


def test_decoding_restricted_to_the_site_charset_folds_case() -> None:
    """The base model knows 62 characters; a site's answers may be upper case and digits only."""
    class Scripted(ctc.CtcNet):
        def logits(self, x):  # columns: 'a', blank, 'A', 'x', blank, '7'
            z = np.full((6, 5), -9.0, np.float32)
            for t, k in enumerate([1, 0, 2, 3, 0, 4]):
                z[t, k] = 5.0
            z[0, 2] = 4.0  # 'a' strong, 'A' a little weaker: together they are the site's 'A'
            return z

    net = Scripted("aAx7", 0, ctc.DEFAULT_ARCH, [], [], (np.zeros(1), np.zeros(1)))
    x = np.zeros((ctc.INPUT_H, 64), np.float32)
    assert net.predict(x)[0] == "aAx7"  # no restriction: the network's own characters
    text, _, prob = net.predict(x, "AX7")
    assert text == "AAX7" and prob.shape == (6, 4) and np.allclose(prob.sum(axis=1), 1)
    assert net.predict(x, "A7")[0] == "AA7"  # 'x' is not allowed at all: its column goes elsewhere


def test_fine_tuning_carries_output_rows_by_character() -> None:
    torch = pytest.importorskip("torch")
    src = ctc.build_torch_net(ctc.DEFAULT_ARCH, 4)  # blank + "aB7"
    params = ctc.split_params(ctc.params_of(src))
    dst = ctc.build_torch_net(ctc.DEFAULT_ARCH, 5)  # blank + "BAZ7"
    carried = ctc.init_state(dst, params, "aB7", "BAZ7")
    assert carried == 3  # B and 7 as they are, A from its lower-case twin; Z is new
    w = dst.state_dict()["head.weight"]
    sw = torch.from_numpy(params["head.weight"])
    for new_row, old_row in [(0, 0), (1, 2), (2, 1), (4, 3)]:
        assert torch.equal(w[new_row], sw[old_row])
    assert not torch.equal(w[3], sw[1]) and not torch.equal(w[3], sw[2])
    body = "body.0.weight"
    assert torch.equal(dst.state_dict()[body], src.state_dict()[body])
    other = ctc.build_torch_net(ctc.Arch(convs=((8, (2, 2)),), seq=()), 4)
    with pytest.raises(UserError, match="another architecture"):
        ctc.init_state(other, params, "aB7", "aB7")


def test_solver_default_profile_sync_and_async() -> None:
    """No profile: the bundled base model reads text it was never trained on, sync and async."""
    solver = CaptchaSolver.from_profile(None)
    sol = solver.solve_sync(clean_png("HELLO"))
    assert isinstance(sol, Solution) and sol.text == "HELLO" and sol.recogniser == "ctc"
    assert 0 < sol.confidence <= 1
    assert asyncio.run(solver.solve(clean_png("W4TER"))).text == "W4TER"


def test_default_profile_without_the_base_file_is_tesseract(monkeypatch, tmp_path) -> None:
    from browsercrawl.captcha import profile

    monkeypatch.setattr(profile, "BASE_MODEL", tmp_path / "missing.npz")
    sol = CaptchaSolver.from_profile(None).solve_sync(clean_png("HELLO"))
    assert sol.text == "HELLO" and sol.recogniser == "tesseract"


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
