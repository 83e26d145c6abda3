"""A site's CAPTCHA profile (JSON, editable by hand) and the trained-model file (one ``.npz``).

Profile JSON::

    {"name": "demo", "charset": "ABC...", "min_len": 5, "max_len": 5, "case": "upper",
     "steps": [{"step": "grayscale"}, {"step": "binarise_otsu"}, {"step": "remove_dots", "max_area": 6}],
     "recogniser": {"kind": "ctc", "model": "demo.npz"}}

``recogniser.kind`` is ``tesseract`` (``psm`` 7/8/10, ``segmentation``), ``chars`` or ``ctc`` (with
``model``, a path relative to the profile file; ctc may add ``views``), or ``vote`` (``members``: a
list of recogniser objects, ``weights``). ``case`` is the site's case rule (``sensitive``,
``insensitive``, ``upper``, ``lower``); ``min_len``/``max_len`` the length prior the decoder keeps
to. A model file carries its own profile, so ``--model X.npz`` alone is enough; a model file is
recognised by its content, whatever its name ends in.

The model file is a numpy ``.npz`` loaded with ``allow_pickle=False``: only arrays plus a JSON
``meta`` entry, so a model downloaded from elsewhere cannot run code on load.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from browsercrawl.captcha import preprocess
from browsercrawl.captcha.ctc import BASE_MODEL, CtcNet, split_params
from browsercrawl.captcha.recognise import (
    CASES,
    CTC_VIEWS,
    CharRecogniser,
    CtcRecogniser,
    Mlp,
    Priors,
    Recogniser,
    TesseractRecogniser,
    VoteRecogniser,
)
from browsercrawl.errors import UserError

BUILTIN_BASE = "builtin:base"  # a profile's model name for the bundled pretrained base model
MODEL_FORMAT = "browsercrawl-captcha-model"
MODEL_VERSION = 2  # 2: ctc models keep trainable parameters and their architecture
# The Tesseract pipeline: drop the background colour (tinted backgrounds, coloured dots), enlarge,
# binarise, open away thin interference lines, drop dots, add the margin Tesseract wants.
TESSERACT_STEPS: list[dict[str, Any]] = [
    {"step": "separate_background", "k": 3},
    {"step": "scale", "factor": 2.0},
    {"step": "denoise_median", "k": 3},
    {"step": "binarise_otsu"},
    {"step": "remove_lines_morph", "k": 3},
    {"step": "remove_dots", "max_area": 20},
    {"step": "pad", "px": 12},
]


@dataclass
class Profile:
    """Which steps, which recogniser, and what answers look like, for one site's CAPTCHA."""

    name: str = "default"
    steps: list[dict[str, Any]] = field(default_factory=lambda: [dict(s) for s in TESSERACT_STEPS])
    recogniser: dict[str, Any] = field(default_factory=lambda: {"kind": "tesseract", "psm": 7})
    charset: str = ""
    min_len: int = 1
    max_len: int = 12
    case: str = "sensitive"
    base_dir: Path | None = field(default=None, repr=False, compare=False)

    @property
    def priors(self) -> Priors:
        return Priors(self.charset, self.min_len, self.max_len, self.case)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("base_dir")
        return d

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def from_dict(cls, d: Any, where: str, base_dir: Path | None = None) -> Profile:
        if not isinstance(d, dict):
            raise UserError(f"{where}: a profile must be a JSON object")
        known = {"name", "steps", "recogniser", "charset", "min_len", "max_len", "case"}
        extra = set(d) - known
        if extra:
            raise UserError(f"{where}: unknown field {sorted(extra)[0]!r}")
        p = cls(**{k: v for k, v in d.items() if k in known}, base_dir=base_dir)
        if not isinstance(p.steps, list):
            raise UserError(f"{where}: steps must be a list")
        preprocess.validate(p.steps, where)
        if not isinstance(p.charset, str):
            raise UserError(f"{where}: charset must be a string")
        if not (isinstance(p.min_len, int) and isinstance(p.max_len, int) and 0 < p.min_len <= p.max_len):
            raise UserError(f"{where}: min_len/max_len must be integers with 0 < min_len <= max_len")
        if p.case not in CASES:
            raise UserError(f"{where}: case must be one of {', '.join(CASES)}")
        _check_recogniser(p.recogniser, f"{where}: recogniser")
        return p

    @classmethod
    def load(cls, path: str | Path) -> Profile:
        path = Path(path)
        if not path.is_file():
            raise UserError(f"{path}: profile or model file not found")
        if is_model_file(path):
            meta, _ = read_model(path)
            return cls.from_dict(meta["profile"], str(path), path.parent)
        try:
            data = json.loads(path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise UserError(f"{path}: not valid JSON ({exc})") from exc
        return cls.from_dict(data, str(path), path.parent)

    def build(self) -> Recogniser:
        """Instantiate the recogniser this profile names (loading model files)."""
        return _build(self.recogniser, self.priors, self.base_dir or Path("."))


def is_model_file(path: Path) -> bool:
    """A model file ends in ``.npz`` or, named otherwise, is a zip archive (what numpy writes);
    anything else is read as a profile (JSON)."""
    if path.suffix == ".npz":
        return True
    with path.open("rb") as f:
        return f.read(4) == b"PK\x03\x04"


# What the base model reads. Adding "min_channel" (the darkest channel: coloured glyphs stay dark on
# pale colour noise) changed zero-shot exact by -2 to +1.3 points per style and doubled the time,
# so it is a site profile's choice, not the default.
BASE_VIEWS = ("grayscale",)


def base_profile(charset: str = "", min_len: int = 1, max_len: int = 12, case: str = "sensitive",
                 name: str = "base") -> Profile:
    """The bundled base model told what a site's answers look like (no training at all).

    No steps: the colour image reaches the recogniser, which makes its grayscale ``views``.
    """
    return Profile(name, [], {"kind": "ctc", "model": BUILTIN_BASE, "views": list(BASE_VIEWS)},
                   charset, min_len, max_len, case)


def default_profile() -> Profile:
    """What solves a CAPTCHA when no profile is given: the bundled pretrained base model.

    It reads many styles with no site training at all (see docs/captcha.md, "Benchmark"), and
    answers from it that a site accepts become the samples a site model is trained on. Without
    the model file (a stripped install) the Tesseract pipeline.
    """
    if not BASE_MODEL.is_file():
        return Profile()
    return base_profile()


def _check_recogniser(spec: Any, where: str) -> None:
    if not isinstance(spec, dict) or spec.get("kind") not in ("tesseract", "chars", "ctc", "vote"):
        raise UserError(f"{where}: kind must be one of tesseract, chars, ctc, vote")
    kind = spec["kind"]
    if "steps" in spec:
        if not isinstance(spec["steps"], list):
            raise UserError(f"{where}: steps must be a list")
        preprocess.validate(spec["steps"], where)
    if kind == "tesseract" and spec.get("psm", 7) not in (6, 7, 8, 10, 13):
        raise UserError(f"{where}: psm must be 6, 7, 8, 10 or 13")
    if kind in ("chars", "ctc") and not isinstance(spec.get("model"), str):
        raise UserError(f"{where}: kind {kind!r} needs a 'model' file path")
    views = spec.get("views", ["grayscale"])
    if kind == "ctc" and (not isinstance(views, list) or not views or any(v not in CTC_VIEWS for v in views)):
        raise UserError(f"{where}: views must be a non-empty list of {', '.join(CTC_VIEWS)}")
    weights = spec.get("char_weights")
    if kind == "ctc" and weights is not None and not (
            isinstance(weights, dict) and all(isinstance(c, str) and len(c) == 1 for c in weights)
            and all(isinstance(w, int | float) and not isinstance(w, bool) and 0 < w < 100
                    for w in weights.values())):
        raise UserError(f"{where}: char_weights must map single characters to positive numbers")
    if kind == "vote":
        members = spec.get("members")
        if not isinstance(members, list) or not members:
            raise UserError(f"{where}: kind 'vote' needs a non-empty 'members' list")
        for i, m in enumerate(members):
            _check_recogniser(m, f"{where}.members[{i}]")


def _build(spec: dict[str, Any], priors: Priors, base: Path) -> Recogniser:
    if spec.get("steps"):
        inner = _build({k: v for k, v in spec.items() if k != "steps"}, priors, base)
        return Preprocessed(inner, spec["steps"])
    kind = spec["kind"]
    if kind == "tesseract":
        return TesseractRecogniser(priors, int(spec.get("psm", 7)), spec.get("segmentation", "components"))
    if kind == "vote":
        members = [_build(m, priors, base) for m in spec["members"]]
        return VoteRecogniser(members, [float(w) for w in spec.get("weights", [])])
    path = BASE_MODEL if spec["model"] == BUILTIN_BASE else Path(spec["model"])
    path = path if path.is_absolute() else base / path
    meta, arrays = read_model(path)
    if meta["kind"] != kind:
        raise UserError(f"{path}: holds a {meta['kind']!r} model, the profile says {kind!r}")
    return model_recogniser(meta, arrays, priors, tuple(spec.get("views", ("grayscale",))),
                            spec.get("char_weights"))


def model_recogniser(meta: dict[str, Any], arrays: dict[str, np.ndarray], priors: Priors,
                     views: tuple[str, ...] = ("grayscale",),
                     char_weights: dict[str, float] | None = None) -> Recogniser:
    if meta["kind"] == "ctc":
        return CtcRecogniser(priors, CtcNet.from_params(split_params(arrays), meta), views=views,
                             char_weights=dict(char_weights) if char_weights else None)
    n = int(meta["layers"])
    weights = [arrays[f"mlp_w{i}"] for i in range(n)]
    mlp = Mlp(weights, [arrays[f"mlp_b{i}"] for i in range(n)], meta["classes"])
    return CharRecogniser(priors, mlp, meta["segmentation"], bool(meta["deskew"]))


def write_model(path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """Write the single-file model: arrays plus ``meta`` (JSON, includes the profile)."""
    meta = {"format": MODEL_FORMAT, "version": MODEL_VERSION, **meta}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        np.savez_compressed(f, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8), **arrays)


def read_model(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    if not path.is_file():
        raise UserError(f"{path}: model file not found")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        meta = json.loads(arrays.pop("meta").tobytes())
    except Exception as exc:
        raise UserError(f"{path}: not a browsercrawl CAPTCHA model ({type(exc).__name__})") from exc
    if meta.get("format") != MODEL_FORMAT or meta.get("kind") not in ("ctc", "chars"):
        raise UserError(f"{path}: not a browsercrawl CAPTCHA model (format {meta.get('format')!r})")
    if meta["kind"] == "ctc" and meta.get("version", 1) < 2:
        raise UserError(f"{path}: a CTC model from an older browsercrawl; train it again (captcha train)")
    return meta, arrays


@dataclass
class Preprocessed:
    """A recogniser that first applies its own extra steps (for vote members needing binaries)."""

    inner: Recogniser
    steps: list[dict[str, Any]]

    @property
    def name(self) -> str:
        return self.inner.name

    def recognise(self, gray: np.ndarray) -> tuple[str, float]:
        return self.inner.recognise(preprocess.apply(gray, self.steps))
