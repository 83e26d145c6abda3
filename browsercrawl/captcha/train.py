"""Training, evaluation and automatic tuning on a labelled folder.

``tune`` is the general answer to "a CAPTCHA style nobody has seen": it tries several pipelines
(preprocessing + Tesseract, segmentation + per-character classifier, whole-string CTC network, and a
vote of the trained ones) on a training split, scores each on a held-back split, and keeps the best.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from rapidfuzz.distance import Levenshtein

from browsercrawl.captcha import ctc, preprocess
from browsercrawl.captcha.profile import Profile, base_profile, model_recogniser, read_model, write_model
from browsercrawl.captcha.recognise import (
    CharRecogniser,
    CtcRecogniser,
    Priors,
    Recogniser,
    augment_char,
    char_features,
    train_mlp,
)
from browsercrawl.captcha.sure import Samples, SureAnswers, sure_answers
from browsercrawl.captcha.threads import single_threaded
from browsercrawl.captcha.views import MIN_IMAGES as MIN_VIEW_IMAGES
from browsercrawl.captcha.views import choose_view_by_labels, fit_profile
from browsercrawl.errors import UserError

if TYPE_CHECKING:  # the torch side of training; loaded only when a run starts (train_ctc_model)
    from browsercrawl.captcha.ctc_train import TrainReport

Log = Callable[[str], None]

def _s(name: str, **params: Any) -> dict[str, Any]:
    return {"step": name, **params}


_BIG = [_s("scale", factor=2.0), _s("denoise_median", k=3)]
_TAIL = [_s("remove_dots", max_area=20), _s("pad", px=12)]
TESSERACT_VARIANTS: list[tuple[str, list[dict[str, Any]], int]] = [
    ("plain", [_s("grayscale"), _s("scale", factor=2.0), _s("pad", px=12)], 7),
    ("otsu", [_s("grayscale"), *_BIG, _s("binarise_otsu"), *_TAIL], 7),
    ("otsu-lines", [_s("grayscale"), *_BIG, _s("binarise_otsu"), _s("remove_lines_morph", k=3), *_TAIL], 7),
    ("colour", [_s("separate_background", k=3), *_BIG, _s("binarise_otsu"),
                _s("remove_lines_morph", k=3), *_TAIL], 7),
    ("sauvola", [_s("grayscale"), _s("scale", factor=2.0), _s("denoise_gaussian", k=3),
                 _s("binarise_sauvola", window=31, k=0.2), *_TAIL], 8),
]
_CHAR_TAIL = [_s("remove_dots", max_area=10)]
CHAR_VARIANTS: list[tuple[str, list[dict[str, Any]], str]] = [
    ("otsu-components", [_s("grayscale"), _s("denoise_median", k=3), _s("binarise_otsu"), *_CHAR_TAIL],
     "components"),
    ("colour-components", [_s("separate_background", k=3), _s("binarise_otsu"),
                           _s("remove_lines_morph", k=2), *_CHAR_TAIL], "components"),
    ("otsu-projection", [_s("grayscale"), _s("denoise_median", k=3), _s("binarise_otsu"),
                         _s("remove_lines_morph", k=2), *_CHAR_TAIL], "projection"),
]
CTC_STEPS: list[dict[str, Any]] = [{"step": "grayscale"}]
SCRATCH_LR = 3e-3
FINE_TUNE_LR = 2e-3
DEFAULT_CTC_STEPS = 800


def torch_available() -> bool:
    return importlib.util.find_spec("torch") is not None


def load_samples(pairs: list[tuple[Path, str]]) -> Samples:
    out = []
    for p, label in pairs:
        out.append((preprocess.decode_image(p.read_bytes()), label))
    return out


def infer_case(labels: list[str]) -> str:
    """``upper``/``lower`` when every letter of the labels is in that case, else ``sensitive``.

    A site that accepts any case cannot be told from its labels: say ``--case insensitive``.
    """
    letters = [c for c in "".join(labels) if c.isalpha() and c.upper() != c.lower()]
    if letters and all(c.isupper() for c in letters):
        return "upper"
    if letters and all(c.islower() for c in letters):
        return "lower"
    return "sensitive"


def infer_priors(labels: list[str], case: str | None = None) -> Priors:
    """Charset, length range and case rule of the labels (what the site's answers look like)."""
    chars = sorted(set("".join(labels)))
    return Priors("".join(chars), min(map(len, labels)), max(map(len, labels)), case or infer_case(labels))


@dataclass
class Score:
    """``exact`` and ``per_char`` follow the site's case rule (what the site would accept);
    ``exact_cased`` compares letter for letter, ``exact_ignoring_case`` ignores case."""

    exact: float
    per_char: float
    ms_per_image: float
    n: int
    exact_cased: float = 0.0
    exact_ignoring_case: float = 0.0
    case: str = "sensitive"

    def as_dict(self) -> dict[str, Any]:
        return {"exact": round(self.exact, 4), "exact_cased": round(self.exact_cased, 4),
                "exact_ignoring_case": round(self.exact_ignoring_case, 4),
                "per_char": round(self.per_char, 4), "ms_per_image": round(self.ms_per_image, 2),
                "n": self.n, "case": self.case}


def evaluate(rec: Recogniser, steps: list[dict[str, Any]], samples: Samples,
             priors: Priors | None = None) -> Score:
    """Exact-match rates, per-character accuracy (1 - edit distance / label length), ms per image.

    ``priors.case`` is the site's case rule: on a case-insensitive site an answer in the other
    case is right, and ``exact``/``per_char`` count it so.
    """
    rule = priors or Priors()
    exact = cased = folded = 0
    char_ok, char_total = 0.0, 0
    t0 = time.perf_counter()
    for img, label in samples:
        with single_threaded():
            text, _ = rec.recognise(preprocess.apply(img, steps))
        exact += rule.same(text, label)
        cased += text == label
        folded += text.casefold() == label.casefold()
        a, b = rule.key(text), rule.key(label)
        char_ok += max(0, len(b) - Levenshtein.distance(a, b))
        char_total += len(label)
    ms = (time.perf_counter() - t0) * 1000 / max(1, len(samples))
    n = max(1, len(samples))
    return Score(exact / n, char_ok / max(1, char_total), ms, len(samples), cased / n, folded / n, rule.case)


def train_chars(
    samples: Samples, steps: list[dict[str, Any]], segmentation: str, priors: Priors,
    deskew: bool = True, seed: int = 0,
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Per-character MLP: segment each image into len(label) boxes, learn box -> character."""
    rng = np.random.default_rng(seed)
    seg = CharRecogniser(Priors(priors.charset, 1, 99), None, segmentation, deskew)  # type: ignore[arg-type]
    feats, ys = [], []
    for img, label in samples:
        gray = preprocess.apply(img, steps)
        seg.priors = Priors(priors.charset, len(label), len(label))
        chars = seg.chars(gray)
        if len(chars) != len(label):
            continue
        for ch, y in zip(chars, label, strict=True):
            if ch.size == 0:
                continue
            feats.append(char_features(ch, deskew))
            ys.append(y)
            for _ in range(2):
                feats.append(char_features(augment_char(ch, rng), deskew))
                ys.append(y)
    if len(set(ys)) < 2:
        raise UserError("too few usable samples to train a character classifier (segmentation failed)")
    with single_threaded():
        mlp = train_mlp(np.stack(feats), ys, seed)
    meta = {"kind": "chars", "classes": mlp.classes, "segmentation": segmentation, "deskew": deskew,
            "layers": len(mlp.weights)}
    arrays = {f"mlp_w{i}": w for i, w in enumerate(mlp.weights)}
    arrays.update({f"mlp_b{i}": b for i, b in enumerate(mlp.biases)})
    return meta, arrays


StartFrom = Path | str | None  # a model file, "base" (the bundled base model), or None (scratch)


def read_start(start: StartFrom) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
    """Meta and arrays of the model training starts from (None: scratch).

    "base" is the bundled pretrained model; when it is missing (a checkout without it) training
    starts from scratch, which still works but needs more samples.
    """
    if start is None:
        return None
    path = ctc.BASE_MODEL if start == "base" else Path(start)
    if start == "base" and not path.is_file():
        return None
    meta, arrays = read_model(path)
    if meta["kind"] != "ctc":
        raise UserError(f"{path}: training starts from a ctc model, this one is {meta['kind']!r}")
    return meta, arrays


def load_start(start: StartFrom) -> tuple[dict[str, np.ndarray], str, ctc.Arch] | None:
    """Parameters, charset and architecture of the model training starts from (None: scratch)."""
    got = read_start(start)
    if got is None:
        return None
    meta, arrays = got
    return ctc.split_params(arrays), meta["charset"], ctc.Arch.from_json(meta["arch"])


def ctc_steps_for(samples: Samples, priors: Priors, start: StartFrom,
                  log: Log | None) -> list[dict[str, Any]]:
    """The preprocessing a site's CTC model is trained on: the view the starting network reads
    the labelled images best in (:func:`views.choose_view_by_labels`); luminance from scratch."""
    got = read_start(start)
    if got is None:
        return CTC_STEPS
    rec = model_recogniser(*got, priors)
    assert isinstance(rec, CtcRecogniser)
    choice = choose_view_by_labels(rec, list(samples))
    if log:
        log(f"training view: {choice.describe()}")
    return [{"step": choice.view}]


def checkpoint_path(out: Path) -> Path:
    """Where an unfinished ``captcha train`` keeps its state (next to the model it will write)."""
    return out.with_name(out.name + ".ckpt")


def held_back(n: int, fraction: float) -> int:
    """How many labelled images early stopping watches: none below 20, else 10 to 100."""
    return 0 if n < 20 or fraction <= 0 else min(100, max(10, round(n * fraction)))


def train_ctc_model(
    samples: Samples, steps: list[dict[str, Any]], priors: Priors, budget_s: float | None, log: Log | None,
    seed: int = 0, max_steps: int = DEFAULT_CTC_STEPS, start: StartFrom = "base", threads: int | None = None,
    holdout: float = 0.1, checkpoint: Path | None = None, resume: bool = False,
    self_labelled: Samples = (),
) -> tuple[dict[str, Any], dict[str, np.ndarray], Any]:
    """Whole-string CTC network on the images after ``steps`` (trained with PyTorch).

    ``max_steps`` batches at most; a held-back part of the samples (:func:`held_back`) decides
    when to stop early and which weights to keep. ``budget_s`` is the wall-clock safety net.
    Fine-tuning a pretrained model needs a gentler learning rate than training from scratch: the
    features are already right, only the head (and a little of the rest) has to move.
    ``self_labelled`` samples are trained on but never held back: early stopping judges against
    labels a person gave. Returns the model's meta and arrays and the run's
    :class:`ctc_train.TrainReport`.
    """
    from browsercrawl.captcha import ctc_train

    n_labelled = len(samples)
    samples = list(samples) + list(self_labelled)
    grays = [preprocess.apply(img, steps) for img, _ in samples]
    grays = [preprocess.grayscale(g) if g.ndim == 3 else g for g in grays]
    aspect = float(np.median([g.shape[1] / g.shape[0] for g in grays]))
    width = ctc.input_width(aspect)
    init = load_start(start)
    arch = init[2] if init else ctc.DEFAULT_ARCH
    inputs = [ctc.to_input(g, width) for g in grays]
    labels = [lab for _, lab in samples]
    k = held_back(n_labelled, holdout)
    order = np.random.default_rng(seed).permutation(n_labelled)
    fit = np.concatenate([order[: n_labelled - k], np.arange(n_labelled, len(samples))]).astype(int)
    watch = order[n_labelled - k :]
    if log and k:
        log(f"training on {len(fit)} images, {k} held back to decide when to stop")
    # fine-tuning: the first two conv blocks stay as pretrained and the augmentation is stronger
    # (measured on a 500-image style: same held-back accuracy, steps 30 % cheaper)
    plan = ctc_train.TrainPlan(max_steps=max_steps, max_seconds=budget_s, seed=seed,
                               peak_lr=FINE_TUNE_LR if init else SCRATCH_LR, threads=threads,
                               checkpoint=checkpoint, freeze=2 if init else 0, strong_augment=bool(init),
                               patience=3)
    held = ([inputs[i] for i in watch], [labels[i] for i in watch]) if k else None
    net, report = ctc_train.train_net([inputs[i] for i in fit], [labels[i] for i in fit], priors.charset,
                                      plan, arch=arch, init=init[:2] if init else None, held=held,
                                      same=priors.same, log=log, resume=resume)
    return ctc.model_meta(priors.charset, width, arch), ctc_train.params_of(net), report


def self_label(meta: dict[str, Any], arrays: dict[str, np.ndarray], priors: Priors,
               steps: list[dict[str, Any]], images: list[np.ndarray],
               min_confidence: float) -> SureAnswers:
    """Unlabelled images the trained model reads surely (:func:`sure.sure_answers`), labelled with
    its answer.

    These join the labelled images for another round of training (self-training): a sure answer
    is right far more often than the model's average one, and each is another example of the
    style; the held-back split stays labelled by a person, so early stopping still judges
    against the truth.
    """
    return sure_answers(model_recogniser(meta, arrays, priors), steps, priors, images, min_confidence)


def split(samples: Samples, holdout: float, seed: int = 0) -> tuple[Samples, Samples]:
    """Deterministic shuffle, then the last ``holdout`` fraction is held back for scoring."""
    order = np.random.default_rng(seed).permutation(len(samples))
    k = max(1, round(len(samples) * holdout))
    if len(samples) - k < 1:
        raise UserError(f"need at least 2 labelled images to tune, got {len(samples)}")
    return [samples[i] for i in order[:-k]], [samples[i] for i in order[-k:]]


def _profile(name: str, steps, recogniser, priors: Priors) -> Profile:
    return Profile(name, [dict(s) for s in steps], recogniser, priors.charset, priors.min_len, priors.max_len,
                   priors.case)


def training_record(report: TrainReport, **extra: Any) -> dict[str, Any]:
    """What a model's meta says about the run that made it: enough to tell a finished run from
    one the clock cut, and how the held-back split read at the end."""
    return {"steps": report.steps, "planned": report.planned, "stopped_by": report.stopped_by,
            "held_exact": report.held_exact, "seconds": round(report.seconds, 1), **extra}


def write_trained(out: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray], prof: Profile) -> Profile:
    """Write a trained model whose meta carries the profile that reads it, so the model file alone
    is a working ``--profile``; returns that profile, resolved next to the file."""
    meta["profile"] = prof.to_json()
    write_model(out, meta, arrays)
    prof.base_dir = out.parent
    return prof


def train_to_file(
    samples: Samples, out: Path, kind: str, budget_s: float | None, log: Log | None,
    steps: list[dict[str, Any]] | None = None, segmentation: str = "components", name: str | None = None,
    max_steps: int = DEFAULT_CTC_STEPS, start: StartFrom = "base", threads: int | None = None, *,
    case: str | None = None, holdout: float = 0.1, resume: bool = False,
    unlabelled: list[np.ndarray] | None = None, min_confidence: float = 0.9,
) -> Profile:
    """``captcha train``: one model of ``kind`` (ctc / chars) on all samples, written to ``out``.

    ctc: ``budget_s`` is the wall-clock safety net; a run it cuts short says so on the log (steps
    done, held-back accuracy), still writes the best model so far and keeps a checkpoint next to
    ``out`` that ``resume`` continues. ``unlabelled`` images are self-labelled by the trained model
    (answers at least ``min_confidence`` sure) and a second round trains on both.
    """
    priors = infer_priors([lab for _, lab in samples], case)
    if kind == "ctc":
        steps = steps or ctc_steps_for(samples, priors, start, log)
        meta, arrays, report = train_ctc_model(samples, steps, priors, budget_s, log, max_steps=max_steps,
                                               start=start, threads=threads, holdout=holdout,
                                               checkpoint=checkpoint_path(out), resume=resume)
        warn_if_cut(report, log, out)
        if unlabelled and report.stopped_by != "wall-clock cap":
            sure = self_label(meta, arrays, priors, steps, unlabelled, min_confidence)
            extra = sure.samples
            if log:
                log(f"self-labelled {sure.describe()}; training again on {len(samples) + len(extra)}")
            if extra:
                tmp = out.with_name(out.name + ".round1")
                write_model(tmp, meta, arrays)
                try:
                    meta, arrays, report = train_ctc_model(
                        samples, steps, priors, budget_s, log, max_steps=max(50, max_steps // 2),
                        start=tmp, threads=threads, holdout=holdout, checkpoint=checkpoint_path(out),
                        self_labelled=extra)
                finally:
                    tmp.unlink(missing_ok=True)
                warn_if_cut(report, log, out)
        meta["training"] = training_record(report)
    else:
        steps = steps or CHAR_VARIANTS[0][1]
        meta, arrays = train_chars(samples, steps, segmentation, priors)
    prof = _profile(name or out.stem, steps, {"kind": kind, "model": out.name}, priors)
    return write_trained(out, meta, arrays, prof)


def warn_if_cut(report, log: Log | None, out: Path) -> None:
    """Say loudly when the wall-clock cap, not the training, ended the run."""
    if report.stopped_by != "wall-clock cap":
        return
    held = "" if report.held_exact is None else f"; held-back exact {report.held_exact:.1%}"
    msg = (f"WARNING: training was cut by the wall-clock cap (--budget) after {report.steps} of "
           f"{report.planned} planned steps ({report.step_ms:.0f} ms/step: the machine is busy){held}. "
           f"The best model so far is written; run the same command with --resume to continue "
           f"from {checkpoint_path(out)}.")
    (log or (lambda m: print(m, file=sys.stderr)))(msg)


def tune(
    samples: Samples, out_dir: Path, name: str, holdout: float = 0.2, ctc_budget_s: float | None = 3600.0,
    use_ctc: bool | None = None, log: Log = print, max_steps: int = DEFAULT_CTC_STEPS,
    start: StartFrom = "base", threads: int | None = None, case: str | None = None,
) -> tuple[Profile, list[tuple[str, Score]]]:
    """Try pipelines on a training split, score on the held-back split, write the best profile."""
    train, held = split(samples, holdout)
    priors = infer_priors([lab for _, lab in samples], case)
    results: list[tuple[str, Score, Profile, Recogniser]] = []
    quick = held[:60]  # Tesseract is slow; its variants are ranked on a subset

    def record(label: str, prof: Profile, rec: Recogniser, subset: Samples) -> None:
        s = evaluate(rec, prof.steps, subset, prof.priors)
        log(f"  {label:<28} exact {s.exact:6.1%}  per-char {s.per_char:6.1%}  {s.ms_per_image:7.1f} ms")
        results.append((label, s, prof, rec))

    log(f"tuning on {len(train)} images, scoring on {len(held)} held back")
    for vname, steps, psm in TESSERACT_VARIANTS:
        prof = _profile(name, steps, {"kind": "tesseract", "psm": psm}, priors)
        record(f"tesseract/{vname}/psm{psm}", prof, prof.build(), quick)
    by_labels = None
    if ctc.BASE_MODEL.is_file() and len(train) >= MIN_VIEW_IMAGES:
        # The bundled base with no training, in the view it reads the training images best in
        # (the same choice the CTC candidate is trained in), its characters weighed by the
        # images: with few labels it can beat every trained pipeline.
        base = base_profile(priors.charset, priors.min_len, priors.max_len, priors.case, name=name)
        by_labels = choose_view_by_labels(base.build(), train)
        log(f"  base view: {by_labels.describe()}")
        fitted, choice = fit_profile(base, [img for img, _ in train], candidates=(by_labels.view,))
        record(f"base/{choice.view}", fitted, fitted.build(), held)
    out_dir.mkdir(parents=True, exist_ok=True)
    trained: dict[str, tuple[Profile, Recogniser, dict, dict]] = {}
    for vname, steps, segm in CHAR_VARIANTS:
        try:
            meta, arrays = train_chars(train, steps, segm, priors)
        except UserError as exc:
            log(f"  chars/{vname}: skipped ({exc})")
            continue
        rec = model_recogniser(meta, arrays, priors)
        prof = _profile(name, steps, {"kind": "chars", "model": f"{name}-chars.npz"}, priors)
        record(f"chars/{vname}", prof, rec, held)
        trained[f"chars/{vname}"] = (prof, rec, meta, arrays)
    if use_ctc is None:
        use_ctc = torch_available()
    if use_ctc:
        log(f"  training the CTC network (at most {max_steps} steps)...")
        ctc_steps = ([{"step": by_labels.view}] if by_labels and start == "base"
                     else ctc_steps_for(train, priors, start, log))
        meta, arrays, report = train_ctc_model(train, ctc_steps, priors, ctc_budget_s, None,
                                               max_steps=max_steps, start=start, threads=threads)
        warn_if_cut(report, log, out_dir / f"{name}-ctc.npz")
        rec = model_recogniser(meta, arrays, priors)
        prof = _profile(name, ctc_steps, {"kind": "ctc", "model": f"{name}-ctc.npz"}, priors)
        record("ctc", prof, rec, held)
        trained["ctc"] = (prof, rec, meta, arrays)
    best_chars = max((k for k in trained if k.startswith("chars/")), default=None,
                     key=lambda k: next(s.exact for lab, s, *_ in results if lab == k))
    if "ctc" in trained and best_chars:
        from browsercrawl.captcha.profile import Preprocessed
        from browsercrawl.captcha.recognise import VoteRecogniser

        cp, crec, *_ = trained[best_chars]
        members = [Preprocessed(trained["ctc"][1], ctc_steps), Preprocessed(crec, cp.steps)]
        vote = VoteRecogniser(members, [1.0, 0.5])
        spec = {"kind": "vote", "weights": [1.0, 0.5], "members": [
            {"kind": "ctc", "model": f"{name}-ctc.npz", "steps": ctc_steps},
            {"kind": "chars", "model": f"{name}-chars.npz", "steps": cp.steps}]}
        record("vote(ctc, chars)", _profile(name, [], spec, priors), vote, held)
    label, score, best, _ = max(results, key=lambda r: (r[1].exact, r[1].per_char, -r[1].ms_per_image))
    log(f"best: {label} (exact {score.exact:.1%} on {score.n} held-back images)")
    # write the model files the winning profile refers to
    needed = {"ctc"} if label == "ctc" else set()
    if label.startswith("chars/"):
        needed.add(label)
    if label.startswith("vote"):
        needed |= {"ctc", best_chars}
    for key in needed:
        prof, _, meta, arrays = trained[key]
        meta = dict(meta, profile=prof.to_json())
        write_model(out_dir / prof.recogniser["model"], meta, arrays)
    best.save(out_dir / f"{name}.json")
    best.base_dir = out_dir
    return best, [(lab, s) for lab, s, *_ in results]


def load_image_gray(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if img is None:
        raise UserError(f"{path}: not a readable image")
    return img
