"""scripts/pretrain_captcha.py's grow(): a deeper network started from a trained one computes,
before any training, what the trained one computed."""

from __future__ import annotations

import numpy as np
import pytest

from browsercrawl.captcha import ctc, ctc_train, synth
from browsercrawl.captcha.profile import read_model
from scripts import pretrain_captcha

torch = pytest.importorskip("torch")

BASE = ctc.BASE_MODEL
DEEPER = ctc.Arch(convs=((32, (2, 2)), (64, (2, 2)), (96, (2, 1)), (96, (1, 1)), (128, (2, 1)),
                         (128, (1, 1))), seq=(128, 128))


def _inputs(n: int = 16) -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.normal(0, 1, (n, 1, ctc.INPUT_H, 128)).astype(np.float32)


def test_a_grown_network_reads_like_the_one_it_grew_from() -> None:
    meta, arrays = read_model(BASE)
    old_arch = ctc.Arch.from_json(meta["arch"])
    params = ctc.split_params(arrays)
    old = ctc_train.build_net(old_arch, len(meta["charset"]) + 1)
    ctc_train.init_state(old, params, meta["charset"], meta["charset"])
    new = ctc_train.build_net(DEEPER, len(synth.BASE_CHARSET) + 1)
    x = torch.from_numpy(_inputs())
    grown = pretrain_captcha.grow(torch, new, DEEPER, params, old_arch, meta["charset"], synth.BASE_CHARSET,
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
    meta, arrays = read_model(BASE)
    shallower = ctc.Arch(convs=((32, (2, 2)), (64, (2, 2)), (128, (2, 1)), (128, (2, 1))))
    net = ctc_train.build_net(shallower, len(synth.BASE_CHARSET) + 1)
    with pytest.raises(SystemExit, match="neither in the old network nor an identity"):
        pretrain_captcha.grow(torch, net, shallower, ctc.split_params(arrays),
                              ctc.Arch.from_json(meta["arch"]), meta["charset"], synth.BASE_CHARSET,
                              lambda: torch.from_numpy(_inputs()))
