"""The demo CAPTCHA generator: deterministic, sized as documented, harder as difficulty rises."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest
from browsercrawl_demo.captcha_image import (
    CAPTCHA_CHARSET,
    main,
    random_captcha_text,
    render_captcha,
)
from PIL import Image, ImageChops, ImageStat


def _img(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_charset_excludes_ambiguous_characters() -> None:
    assert not set("0O1I") & set(CAPTCHA_CHARSET)
    assert len(set(CAPTCHA_CHARSET)) == len(CAPTCHA_CHARSET) == 32


def test_text_uses_charset_and_length() -> None:
    rng = random.Random(7)
    texts = [random_captcha_text(rng, length=n) for n in (4, 5, 6) for _ in range(50)]
    assert all(set(t) <= set(CAPTCHA_CHARSET) for t in texts)
    assert {len(t) for t in texts} == {4, 5, 6}
    assert len(set(texts)) > 140  # not a constant


@pytest.mark.parametrize("difficulty", [0, 1, 2, 3])
def test_same_rng_state_same_png(difficulty: int) -> None:
    a = render_captcha("AB3KZ", random.Random(5), difficulty)
    b = render_captcha("AB3KZ", random.Random(5), difficulty)
    c = render_captcha("AB3KZ", random.Random(6), difficulty)
    assert a == b
    assert a.startswith(b"\x89PNG")
    assert _img(a).size == (160, 60)
    if difficulty >= 1:
        assert a != c


def test_difficulty_adds_clutter() -> None:
    """Pixels that are neither background nor text grow with difficulty (noise, lines, colours)."""
    def distinct_colours(d: int) -> int:
        return len(_img(render_captcha("HX7PQ", random.Random(1), d)).getcolors(1 << 16) or [])

    counts = [distinct_colours(d) for d in range(4)]
    assert counts[0] < counts[1] < counts[2]
    clean = _img(render_captcha("HX7PQ", random.Random(1), 0))
    lo, hi = ImageStat.Stat(clean).extrema[0]
    assert hi == 255 and lo < 60  # white background, dark text


def test_text_changes_the_image() -> None:
    a = _img(render_captcha("AAAAA", random.Random(3), 0))
    b = _img(render_captcha("BBBBB", random.Random(3), 0))
    assert ImageChops.difference(a, b).getbbox() is not None


def test_bad_difficulty_rejected() -> None:
    with pytest.raises(ValueError, match="difficulty"):
        render_captcha("ABCDE", random.Random(0), 4)


def test_sample_writer_labels_files(tmp_path) -> None:
    assert main([str(tmp_path), "4", "--seed", "3"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 4
    for name in names:
        index, text = name.removesuffix(".png").split("_")
        assert index.isdigit() and len(text) == 5 and set(text) <= set(CAPTCHA_CHARSET)


def test_module_entry_point(tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "browsercrawl_demo.captcha_image", str(tmp_path), "2"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(list(tmp_path.glob("*_*.png"))) == 2
