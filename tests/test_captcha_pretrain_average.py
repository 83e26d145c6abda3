"""scripts/pretrain_captcha.py --average: the mean of two checkpoints (how the 2026-11-23 base was made)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from browsercrawl.captcha.profile import read_model, write_model

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "browsercrawl" / "captcha" / "models" / "base-ctc.npz"


def _average(a: Path, b: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "pretrain_captcha.py"), "--average",
                           str(a), str(b), "--out", str(out), "--note", "test mean"],
                          capture_output=True, text=True, timeout=300)


def test_average_is_the_elementwise_mean_and_keeps_the_first_meta(tmp_path) -> None:
    meta, arrays = read_model(BASE)
    meta = {k: v for k, v in meta.items() if k not in ("format", "version")}
    shifted = {k: (v + 2).astype(v.dtype) if v.dtype.kind == "f" else v for k, v in arrays.items()}
    other = tmp_path / "other.npz"
    write_model(other, {**meta, "history": "shifted"}, shifted)
    r = _average(BASE, other, tmp_path / "mean.npz")
    assert r.returncode == 0, r.stderr
    got_meta, got = read_model(tmp_path / "mean.npz")
    k = next(k for k, v in arrays.items() if v.dtype.kind == "f")
    assert np.allclose(got[k], arrays[k] + 1, atol=1e-5)
    assert got_meta["history"] == "test mean" and got_meta["arch"] == meta["arch"]


def test_average_refuses_networks_of_different_shape(tmp_path) -> None:
    meta, arrays = read_model(BASE)
    meta = {k: v for k, v in meta.items() if k not in ("format", "version")}
    k = next(iter(arrays))
    smaller = dict(arrays, **{k: arrays[k][:1]})
    other = tmp_path / "other.npz"
    write_model(other, meta, smaller)
    r = _average(BASE, other, tmp_path / "mean.npz")
    assert r.returncode != 0 and "not the same network" in r.stderr
    assert not (tmp_path / "mean.npz").exists()
