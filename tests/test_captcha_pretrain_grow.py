"""scripts/pretrain_captcha.py's grow(): a deeper network started from a trained one computes,
before any training, what the trained one computed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from browsercrawl.captcha import ctc, ctc_train, synth
from browsercrawl.captcha.profile import read_model
from scripts import pretrain_captcha

torch = pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[1]

SMALLER = ctc.Arch(convs=((32, (2, 2)), (64, (2, 2)), (96, (2, 1)), (128, (2, 1))), seq=(128,))
DEEPER = ctc.Arch(convs=((32, (2, 2)), (64, (2, 2)), (96, (2, 1)), (96, (1, 1)), (128, (2, 1)),
                         (128, (1, 1))), seq=(128, 128))


def _inputs(n: int = 16) -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.normal(0, 1, (n, 1, ctc.INPUT_H, 128)).astype(np.float32)


def _trained_smaller():
    """A network of the smaller architecture whose batch-norm statistics are not the defaults
    (as a trained one's are not), and its parameters."""
    torch.manual_seed(0)
    net = ctc_train.build_net(SMALLER, len(synth.BASE_CHARSET) + 1)
    net.train()
    with torch.no_grad():
        for seed in range(3):
            net(torch.from_numpy(np.random.default_rng(seed).normal(0.5, 2, (16, 1, ctc.INPUT_H, 128))
                                 .astype(np.float32)))
    return net, ctc.split_params(ctc_train.params_of(net))


def test_a_grown_network_reads_like_the_one_it_grew_from() -> None:
    old, params = _trained_smaller()
    new = ctc_train.build_net(DEEPER, len(synth.BASE_CHARSET) + 1)
    x = torch.from_numpy(_inputs())
    grown = pretrain_captcha.grow(torch, new, DEEPER, params, SMALLER, synth.BASE_CHARSET, synth.BASE_CHARSET,
                                  lambda: x)
    assert grown == ["body.13", "body.21", "seq.4"]
    old.eval()
    new.eval()
    with torch.no_grad():
        a, b = old(x), new(x)
    assert a.shape == b.shape
    assert (a.argmax(1) == b.argmax(1)).float().mean() > 0.99
    assert torch.allclose(a, b, atol=1e-2 * float(a.abs().max()))
    # blocks without pooling run in the numpy solver as in torch
    solver = ctc_train.to_numpy(new, synth.BASE_CHARSET, 0, DEEPER)
    assert np.abs(solver.logits(x[0, 0].numpy()) - b[0].T.numpy()).max() < 1e-3


def test_growing_into_an_architecture_that_drops_a_trained_block_is_refused() -> None:
    _, params = _trained_smaller()
    shallower = ctc.Arch(convs=((32, (2, 2)), (64, (2, 2)), (128, (2, 1)), (128, (2, 1))))
    net = ctc_train.build_net(shallower, len(synth.BASE_CHARSET) + 1)
    with pytest.raises(SystemExit, match="neither in the old network nor an identity"):
        pretrain_captcha.grow(torch, net, shallower, params, SMALLER, synth.BASE_CHARSET, synth.BASE_CHARSET,
                              lambda: torch.from_numpy(_inputs()))


def test_continuing_a_trained_network_keeps_its_size_unless_told_to_grow() -> None:
    meta, _ = read_model(ctc.BASE_MODEL)
    assert pretrain_captcha.network_arch(None, meta) == ctc.Arch.from_json(meta["arch"])
    assert pretrain_captcha.network_arch(None, None) == ctc.DEFAULT_ARCH
    assert pretrain_captcha.network_arch(json.dumps(DEEPER.to_json()), {"arch": SMALLER.to_json()}) == DEEPER


@pytest.mark.parametrize("bad", ["{convs: 1}", '{"convs": [[32, [2, 2]]], "seq": [128]}', '{"convs": 5}'])
def test_an_arch_that_is_not_one_is_a_one_line_error(bad: str) -> None:
    with pytest.raises(SystemExit, match=r"^pretrain_captcha: --arch is not an architecture .*\n?$"):
        pretrain_captcha.network_arch(bad, None)


@pytest.mark.parametrize("args", [["--arch", "{bad"], ["--init", "/nonexistent/base.npz"]])
def test_bad_arch_or_init_stops_in_one_line_before_generating_images(args: list[str], tmp_path) -> None:
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "pretrain_captcha.py"), *args,
                        "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / "m.npz")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip().startswith("pretrain_captcha: --"), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "cache").exists()
