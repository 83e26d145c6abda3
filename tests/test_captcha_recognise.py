"""Recognisers, priors, voting, model files and the solver, on small generated images."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from browsercrawl.captcha import ctc, preprocess
from browsercrawl.captcha.profile import Profile, model_recogniser, read_model, write_model
from browsercrawl.captcha.recognise import Priors, TesseractRecogniser, VoteRecogniser
from browsercrawl.captcha.samples import load_labelled_folder
from browsercrawl.captcha.solver import CaptchaSolver, Solution
from browsercrawl.captcha.train import evaluate, load_samples, train_chars, train_to_file
from browsercrawl.errors import UserError
from scripts.bench import captcha_styles as styles


def clean_png(text: str) -> bytes:
    img = Image.new("L", (40 * len(text) + 40, 70), 255)
    ImageDraw.Draw(img).text((20, 10), text, font=styles.font(styles.FONT_FILES["lined"], 40), fill=0)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def lined(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("lined")
    styles.generate("lined", base / "train", 120, seed=11)
    styles.generate("lined", base / "test", 40, seed=12)
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
    from browsercrawl.captcha import ctc_train

    rng = np.random.default_rng(0)
    xs = [rng.normal(size=(ctc.INPUT_H, 96)).astype(np.float32) for _ in range(8)]
    plan = ctc_train.TrainPlan(max_steps=5)
    tnet, _ = ctc_train.train_net(xs, ["AB", "BA", "A", "B"] * 2, "AB", plan, init=None)
    net = ctc_train.to_numpy(tnet, "AB", 96)
    with torch.no_grad():
        ref = tnet(torch.from_numpy(xs[0])[None, None])[0].T.numpy()
    assert np.abs(net.logits(xs[0]) - ref).max() < 1e-3
    # what a model file holds (trainable parameters) loads back to the same numpy network
    params = ctc.split_params(ctc_train.params_of(tnet))
    again = ctc.CtcNet.from_params(params, ctc.model_meta("AB", 96, net.arch))
    assert np.array_equal(again.logits(xs[1]), net.logits(xs[1]))


def test_ctc_learns_a_tiny_clean_set() -> None:
    pytest.importorskip("torch")
    from browsercrawl.captcha import ctc_train

    texts = ["A", "X", "T", "AX", "XT", "TA"] * 3
    grays = [preprocess.grayscale(preprocess.decode_image(clean_png(t))) for t in texts]
    width = 64
    xs = [ctc.to_input(g, width) for g in grays]
    tnet, _ = ctc_train.train_net(xs, texts, "AXT", ctc_train.TrainPlan(max_steps=150), init=None)
    net = ctc_train.to_numpy(tnet, "AXT", width)
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
            z[3, 2] = -8.0  # after 'x', 'A' is the likeliest: where 'x' is not allowed, 'A' is read
            return z

    net = Scripted("aAx7", 0, ctc.DEFAULT_ARCH, [], [], (np.zeros(1), np.zeros(1)))
    x = np.zeros((ctc.INPUT_H, 64), np.float32)
    assert net.predict(x)[0] == "aAx7"  # no restriction: the network's own characters
    text, _, prob = net.predict(x, "AX7")
    assert text == "AAX7" and prob.shape == (6, 4) and np.allclose(prob.sum(axis=1), 1)
    assert net.predict(x, "A7")[0] == "AA7"  # 'x' is not allowed at all: its column goes elsewhere


def test_folding_case_weighs_each_site_character_by_its_prior() -> None:
    """A round glyph the network splits 0.4 / 0.3 / 0.3 between '0', 'O' and 'o': on an upper-case
    site 'O' has two of the network's classes behind it, so summed alone it won (0.6 against
    0.4) and '0' was read 'O'. Weighted by the site's prior over the network's, '0' wins; a
    glyph the network calls 'o' or 'O' clearly is still 'O', and the blank keeps its place."""
    class Scripted(ctc.CtcNet):
        def logits(self, x):  # columns: a round glyph, blank, a clear 'o', blank
            p = np.full((4, 4), 1e-6, np.float32)  # blank, '0', 'O', 'o'
            p[0, 1:] = [0.4, 0.3, 0.3]
            p[1, 0] = 1.0
            p[2, 2:] = [0.3, 0.7]
            p[3, 0] = 1.0
            return np.log(p)

    net = Scripted("0Oo", 0, ctc.DEFAULT_ARCH, [], [], (np.zeros(1), np.zeros(1)))
    x = np.zeros((ctc.INPUT_H, 64), np.float32)
    text, _, prob = net.predict(x, "0O")
    assert text == "0O"
    assert np.allclose(prob.sum(axis=1), 1) and prob[1, 0] > 0.99  # the blank column stays blank
    assert np.isclose(prob[0, 1] / prob[0, 2], 0.4 / (0.6 / 2))  # '0' against half of 'O' + 'o'


def test_fine_tuning_carries_output_rows_by_character() -> None:
    torch = pytest.importorskip("torch")
    from browsercrawl.captcha import ctc_train

    src = ctc_train.build_net(ctc.DEFAULT_ARCH, 4)  # blank + "aB7"
    params = ctc.split_params(ctc_train.params_of(src))
    dst = ctc_train.build_net(ctc.DEFAULT_ARCH, 5)  # blank + "BAZ7"
    carried = ctc_train.init_state(dst, params, "aB7", "BAZ7")
    assert carried == 3  # B and 7 as they are, A from its lower-case twin; Z is new
    w = dst.state_dict()["head.weight"]
    sw = torch.from_numpy(params["head.weight"])
    for new_row, old_row in [(0, 0), (1, 2), (2, 1), (4, 3)]:
        assert torch.equal(w[new_row], sw[old_row])
    assert not torch.equal(w[3], sw[1]) and not torch.equal(w[3], sw[2])
    body = "body.0.weight"
    assert torch.equal(dst.state_dict()[body], src.state_dict()[body])
    other = ctc_train.build_net(ctc.Arch(convs=((8, (2, 2)),), seq=()), 4)
    with pytest.raises(UserError, match="another architecture"):
        ctc_train.init_state(other, params, "aB7", "aB7")


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


def test_solving_imports_no_torch(tmp_path) -> None:
    """Solving needs only numpy: torch is the training extra, and importing it costs seconds."""
    import subprocess
    import sys

    img = tmp_path / "x.png"
    img.write_bytes(clean_png("HELLO"))
    code = ("import sys; from browsercrawl.captcha.solver import CaptchaSolver; "
            f"t = CaptchaSolver.from_profile(None).solve_sync(open({str(img)!r}, 'rb').read()).text; "
            "print(t, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["HELLO", "False"]


def test_length_prior_decoding_finds_the_best_path_of_an_allowed_length() -> None:
    """Checked against every path of small random problems: the decoder's path is the most
    probable one whose text has an allowed length."""
    import itertools

    rng = np.random.default_rng(0)
    for _ in range(25):
        prob = rng.dirichlet(np.ones(4) * 0.5, size=6)
        lo = int(rng.integers(1, 4))
        hi = lo + int(rng.integers(0, 2))
        best = None
        for path in itertools.product(range(4), repeat=6):
            n = sum(1 for t, k in enumerate(path) if k and (t == 0 or k != path[t - 1]))
            if lo <= n <= hi:
                s = sum(np.log(prob[t, k]) for t, k in enumerate(path))
                best = max(best or (s, path), (s, path))
        text, _ = ctc.decode(prob, "abc", lo, hi)
        want = "".join("abc"[k - 1] for t, k in enumerate(best[1]) if k and (t == 0 or k != best[1][t - 1]))
        assert lo <= len(text) <= hi
        assert text == want or np.isclose(best[0], sum(np.log(prob.max(axis=1))))  # ties aside
    # the greedy answer is kept when its length is allowed
    prob = np.array([[0.1, 0.9, 0.0], [0.9, 0.05, 0.05], [0.2, 0.1, 0.7]])
    assert ctc.decode(prob, "ab", 1, 3)[0] == "ab"
    assert ctc.decode(prob, "ab", 3, 3)[0] == "aba"  # the only three-character path that is likely at all


def test_site_case_rules() -> None:
    insensitive = Priors("abc12", 3, 5, "insensitive")
    assert insensitive.same("AbC1", "abc1") and not Priors("abc12", 3, 5).same("AbC1", "abc1")
    assert insensitive.allowed() == "12ABCabc" and insensitive.clean("A b C") == "AbC"
    assert Priors("ABC", 1, 5, "upper").clean("abz") == "AB"
    assert Priors("abc", 1, 5, "lower").clean("AB") == "ab"
    from browsercrawl.captcha.train import infer_case

    assert infer_case(["AB12", "CD"]) == "upper" and infer_case(["ab1"]) == "lower"
    assert infer_case(["aB"]) == "sensitive" and infer_case(["123"]) == "sensitive"


def test_profile_case_is_checked(tmp_path) -> None:
    p = tmp_path / "p.json"
    p.write_text('{"case": "whatever"}')
    with pytest.raises(UserError, match=r"p\.json: case must be one of sensitive, insensitive"):
        Profile.load(p)
    p.write_text('{"case": "insensitive", "recogniser": {"kind": "ctc", "model": "m.npz", "views": ["x"]}}')
    with pytest.raises(UserError, match=r"views must be a non-empty list of grayscale, max_channel, "):
        Profile.load(p)


def test_eval_follows_the_site_case_rule(tmp_path) -> None:
    """A case-insensitive site stores answers lower case: the base model's upper-case reading of
    clean text is right there, wrong letter for letter."""
    for i, text in enumerate(["HELLO", "W4TER", "K7P3X"]):
        (tmp_path / f"{i}_{text.lower()}.png").write_bytes(clean_png(text))
    samples = load_samples(load_labelled_folder(tmp_path))
    from browsercrawl.captcha.profile import base_profile

    prof = base_profile("abcdefghijklmnopqrstuvwxyz0123456789", 5, 5, "insensitive")
    score = evaluate(prof.build(), prof.steps, samples, prof.priors)
    assert score.exact == 1.0 and score.exact_ignoring_case == 1.0 and score.exact_cased == 0.0
    assert score.per_char == 1.0 and score.as_dict()["case"] == "insensitive"
    lower = base_profile("abcdefghijklmnopqrstuvwxyz0123456789", 5, 5, "lower")
    assert evaluate(lower.build(), lower.steps, samples, lower.priors).exact_cased == 1.0


def test_training_stops_early_when_the_held_back_split_is_perfect() -> None:
    torch = pytest.importorskip("torch")
    from browsercrawl.captcha import ctc_train

    rng = np.random.default_rng(0)
    xs = [rng.normal(size=(ctc.INPUT_H, 64)).astype(np.float32) for _ in range(4)]
    arch = ctc.Arch(convs=((8, (2, 2)), (8, (2, 2)), (8, (2, 1)), (8, (2, 1))), seq=())
    net = ctc_train.build_net(arch, 3)
    seen = []

    def score(m) -> float:
        seen.append(1)
        return 1.0

    plan = ctc_train.TrainPlan(max_steps=1000, eval_every=5, batch=4, threads=1)
    x = torch.from_numpy(np.stack(xs)[:, None])
    batch = lambda: (x, torch.tensor([1, 2, 1, 2]), torch.tensor([1, 1, 1, 1]))  # noqa: E731
    report = ctc_train.run_steps(net, plan, None, batch, score=score)
    assert report.stopped_by == "held-back perfect" and report.steps == 10 and len(seen) == 2
    assert report.held_exact == 1.0 and report.best_step == 10  # of equal checks, the later


@pytest.mark.parametrize(("losses", "stopped_by", "steps"), [
    ([2.0, 1.0, 1.0, 1.0, 1.0], "early-stop", 25),  # neither rate nor loss moves for 3 checks: stop
    ([2.0, 1.9, 1.8, 1.7, 1.6, 1.5, 1.4, 1.3], "budget", 40),  # the loss still falls: go on
])
def test_early_stopping_waits_while_the_held_back_loss_still_falls(
        losses: list[float], stopped_by: str, steps: int) -> None:
    """A held-back rate stuck at one value (50 images: 2-point steps) does not stop a network whose
    held-back loss is still falling."""
    torch = pytest.importorskip("torch")
    from browsercrawl.captcha import ctc_train

    rng = np.random.default_rng(0)
    x = torch.from_numpy(np.stack([rng.normal(size=(ctc.INPUT_H, 64)).astype(np.float32)
                                   for _ in range(4)])[:, None])
    arch = ctc.Arch(convs=((8, (2, 2)), (8, (2, 2)), (8, (2, 1)), (8, (2, 1))), seq=())
    net = ctc_train.build_net(arch, 3)
    checks = iter(losses)
    plan = ctc_train.TrainPlan(max_steps=40, eval_every=5, batch=4, threads=1, patience=3)
    batch = lambda: (x, torch.tensor([1, 2, 1, 2]), torch.tensor([1, 1, 1, 1]))  # noqa: E731
    report = ctc_train.run_steps(net, plan, None, batch, score=lambda m: (0.6, next(checks)))
    assert (report.stopped_by, report.steps) == (stopped_by, steps)
    assert report.best_step == steps and report.held_exact == 0.6


def test_training_loads_torch_with_sleeping_openmp_workers(tmp_path: Path) -> None:
    """Spinning OpenMP workers starve the training thread on a loaded machine; a user's choice wins."""
    pytest.importorskip("torch")
    import os
    import subprocess
    import sys

    code = ("import os; from browsercrawl.captcha import ctc_train; ctc_train.import_torch(); "
            "print(os.environ.get('OMP_WAIT_POLICY'))")
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert run.stdout.strip() == "PASSIVE"
    run = subprocess.run([sys.executable, "-c", code], env={**env, "OMP_WAIT_POLICY": "ACTIVE"},
                         capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "ACTIVE"
