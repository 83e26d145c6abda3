"""Deterministic generated CAPTCHA sets, for the benchmark and the tests.

Real sites' CAPTCHAs cannot be shipped with the repository, so the pipeline is measured on images
from public generators (the ``captcha`` package, a simple lined style drawn here, the demo site's
own generator). Every set is reproducible from its seed so numbers can be compared across runs.
"""

from __future__ import annotations

import io
import random
import string
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from browsercrawl.errors import UserError

ALNUM_UPPER = string.ascii_uppercase + string.digits


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu if the system has it (it does on Debian), else Pillow's built-in scalable font."""
    for path in (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ):
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def render_lined(text: str, rng: random.Random) -> bytes:
    """A simple style: dark glyphs, small jitter, a few thin interference lines and dots."""
    w, h = 30 * len(text) + 20, 50
    img = Image.new("L", (w, h), 235)
    draw = ImageDraw.Draw(img)
    font = _font(30)
    x = 10
    for ch in text:
        glyph = Image.new("L", (40, 46), 0)
        ImageDraw.Draw(glyph).text((6, 4), ch, font=font, fill=255)
        glyph = glyph.rotate(rng.uniform(-15, 15), resample=Image.Resampling.BILINEAR)
        img.paste(rng.randint(10, 60), (x - 6, rng.randint(-2, 6)), glyph)
        x += 30
    for _ in range(3):
        pts = [(rng.randint(0, w), rng.randint(0, h)) for _ in range(2)]
        draw.line(pts, fill=rng.randint(40, 120), width=1)
    for _ in range(60):
        px, py = rng.randint(0, w - 1), rng.randint(0, h - 1)
        draw.point((px, py), fill=rng.randint(60, 160))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def render_imagecaptcha(text: str, rng: random.Random) -> bytes:
    """The ``captcha`` package's ImageCaptcha with its defaults (it draws from ``random``)."""
    from captcha.image import ImageCaptcha

    random.seed(rng.random())
    return ImageCaptcha().generate(text).getvalue()


def render_demo(text: str, rng: random.Random) -> bytes:
    """The demo site's CAPTCHA at its default difficulty."""
    from browsercrawl.demo.captcha_image import render_captcha

    return render_captcha(text, rng)


STYLES: dict[str, tuple[Callable[[str, random.Random], bytes], str, tuple[int, int]]] = {
    # name -> (renderer, charset, (min length, max length))
    "lined": (render_lined, ALNUM_UPPER, (4, 6)),
    "imagecaptcha": (render_imagecaptcha, ALNUM_UPPER, (4, 6)),
    "demo": (render_demo, "", (5, 5)),
}


def style_charset(style: str) -> str:
    """The charset a style draws from (the demo's comes from its own module)."""
    if style == "demo":
        from browsercrawl.demo.captcha_image import CAPTCHA_CHARSET

        return CAPTCHA_CHARSET
    return STYLES[style][1]


def generate(style: str, out_dir: Path, n: int, seed: int) -> list[tuple[Path, str]]:
    """Write ``n`` images named ``<index>_<label>.png`` into ``out_dir``; lengths evenly mixed."""
    if style not in STYLES:
        raise UserError(f"unknown CAPTCHA style {style!r}; known: {', '.join(sorted(STYLES))}")
    render, _, (lo, hi) = STYLES[style]
    charset = style_charset(style)
    rng = random.Random(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        length = lo + i % (hi - lo + 1)
        if style == "demo":
            from browsercrawl.demo.captcha_image import random_captcha_text

            text = random_captcha_text(rng, length)
        else:
            text = "".join(rng.choice(charset) for _ in range(length))
        path = out_dir / f"{i:05d}_{text}.png"
        path.write_bytes(render(text, rng))
        out.append((path, text))
    return out


if __name__ == "__main__":  # python -m browsercrawl.captcha.datasets STYLE OUTDIR N [SEED]
    import sys

    args = sys.argv[1:]
    generate(args[0], Path(args[1]), int(args[2]), int(args[3]) if len(args) > 3 else 0)
