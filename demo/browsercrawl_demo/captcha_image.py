"""Image CAPTCHAs for the demo community site, and labelled samples for training a solver.

The demo site must be hard the way real communities are, so its login CAPTCHA has the usual
defences: rotated and offset characters in varied colours, interference lines through the text
and dot noise; level 3 adds a wave warp and overlapping characters. Difficulty is a knob so the
solver can be trained and measured from easy to hard.

The font is Pillow's bundled scalable font (``ImageFont.load_default(size=...)``, Pillow >= 10.1)
so no system font is needed and images are identical on every machine. All randomness comes
from the ``rng`` argument, so the same rng state always yields the same PNG bytes.

Difficulty levels (each includes the previous one):

* 0 - clean dark text on white, evenly spaced.
* 1 - plus dot noise.
* 2 - (default) plus per-character rotation (+-25 deg), random offsets, varied colours on a
  tinted background, 2-3 interference lines crossing the text.
* 3 - plus a sine-wave warp, characters pushed together so they touch, 4-5 lines, more noise.

Command line: ``python -m browsercrawl_demo.captcha_image OUTDIR N [--difficulty D] [--seed S]``
writes N samples named ``<i>_<TEXT>.png`` (the labelled-folder format the solver trains on).
"""

from __future__ import annotations

import argparse
import io
import math
import random
import sys
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

CAPTCHA_CHARSET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O/1/I: ambiguous even for humans
WIDTH = 160
HEIGHT = 60
MAX_DIFFICULTY = 3


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` px (cached: loading it parses the font file)."""
    font = ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("Pillow lacks FreeType support; CAPTCHA rendering needs it")
    return font


def random_captcha_text(rng: random.Random, length: int = 5) -> str:
    """A CAPTCHA answer: ``length`` characters drawn from :data:`CAPTCHA_CHARSET`."""
    return "".join(rng.choice(CAPTCHA_CHARSET) for _ in range(length))


def _random_colour(rng: random.Random, lo: int, hi: int) -> tuple[int, int, int]:
    return (rng.randint(lo, hi), rng.randint(lo, hi), rng.randint(lo, hi))


def _char_tile(ch: str, font: ImageFont.FreeTypeFont, colour: tuple[int, int, int]) -> Image.Image:
    """One character on a transparent tile, tightly cropped, so it can be rotated and pasted."""
    left, top, right, bottom = font.getbbox(ch)
    tile = Image.new("RGBA", (right - left + 4, bottom - top + 4), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((2 - left, 2 - top), ch, font=font, fill=(*colour, 255))
    return tile


def _wave_warp(img: Image.Image, rng: random.Random) -> Image.Image:
    """Bend the image with a vertical sine displacement built as a Pillow mesh transform."""
    amp = rng.uniform(2.5, 4.5)
    period = rng.uniform(45, 80)
    phase = rng.uniform(0, 2 * math.pi)
    step = 8
    mesh = []
    for x0 in range(0, img.width, step):
        x1 = min(x0 + step, img.width)
        d0 = amp * math.sin(2 * math.pi * x0 / period + phase)
        d1 = amp * math.sin(2 * math.pi * x1 / period + phase)
        # source quad corners: upper-left, lower-left, lower-right, upper-right
        quad = (x0, d0, x0, img.height + d0, x1, img.height + d1, x1, d1)
        mesh.append(((x0, 0, x1, img.height), quad))
    return img.transform(img.size, Image.Transform.MESH, mesh, Image.Resampling.BILINEAR,
                         fillcolor=img.getpixel((0, 0)))


def _draw_lines(draw: ImageDraw.ImageDraw, rng: random.Random, count: int) -> None:
    """Interference lines that cross the text band from the left part to the right part."""
    for _ in range(count):
        y0 = rng.randint(HEIGHT // 4, 3 * HEIGHT // 4)
        y1 = rng.randint(HEIGHT // 4, 3 * HEIGHT // 4)
        x0 = rng.randint(0, WIDTH // 5)
        x1 = rng.randint(4 * WIDTH // 5, WIDTH)
        mid = ((x0 + x1) // 2, rng.randint(10, HEIGHT - 10))
        colour = _random_colour(rng, 20, 140)
        draw.line([(x0, y0), mid, (x1, y1)], fill=colour, width=rng.randint(1, 2), joint="curve")


def _draw_dots(draw: ImageDraw.ImageDraw, rng: random.Random, count: int) -> None:
    for _ in range(count):
        x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
        r = rng.choice((0, 0, 1))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=_random_colour(rng, 0, 200))


def render_captcha(text: str, rng: random.Random, difficulty: int = 2) -> bytes:
    """Render ``text`` as a PNG of about 160x60 at ``difficulty`` 0-3 (see module docstring)."""
    if not 0 <= difficulty <= MAX_DIFFICULTY:
        raise ValueError(f"captcha difficulty must be 0..{MAX_DIFFICULTY}, got {difficulty}")
    if not text:
        raise ValueError("captcha text must not be empty")
    background = (255, 255, 255) if difficulty < 2 else _random_colour(rng, 215, 250)
    img = Image.new("RGB", (WIDTH, HEIGHT), background)
    font = _font(36 if len(text) <= 5 else max(20, 36 - 3 * (len(text) - 5)))

    tiles = []
    for ch in text:
        colour = (20, 20, 20) if difficulty < 2 else _random_colour(rng, 0, 120)
        tile = _char_tile(ch, font, colour)
        if difficulty >= 2:
            tile = tile.rotate(rng.uniform(-25, 25), resample=Image.Resampling.BICUBIC, expand=True)
            tile = tile.crop(tile.getbbox())  # rotation's expand leaves wide transparent margins
        tiles.append(tile)

    gap = {0: 4, 1: 4, 2: 1, 3: -4}[difficulty]  # px between chars; negative = touching
    inner = WIDTH - 8
    natural = sum(t.width for t in tiles) + gap * (len(tiles) - 1)
    if natural > inner and len(tiles) > 1:  # squeeze so the last character is never cut off
        gap -= math.ceil((natural - inner) / (len(tiles) - 1))
    total = sum(t.width for t in tiles) + gap * (len(tiles) - 1)
    x = max(4, (WIDTH - total) // 2)
    for tile in tiles:
        dx = rng.randint(-2, 2) if difficulty >= 2 else 0
        dy = rng.randint(-6, 6) if difficulty >= 2 else 0
        y = min(max(0, (HEIGHT - tile.height) // 2 + dy), max(0, HEIGHT - tile.height))
        img.paste(tile, (x + dx, y), tile)
        x += tile.width + gap

    draw = ImageDraw.Draw(img)
    if difficulty >= 2:
        _draw_lines(draw, rng, rng.randint(2, 3) if difficulty == 2 else rng.randint(4, 5))
    if difficulty >= 3:
        img = _wave_warp(img, rng)
        draw = ImageDraw.Draw(img)
    if difficulty >= 1:
        _draw_dots(draw, rng, {1: 120, 2: 200, 3: 350}[difficulty])

    out = io.BytesIO()
    img.save(out, format="PNG", optimize=False)
    return out.getvalue()


def write_samples(outdir: Path, count: int, difficulty: int = 2, seed: int = 0) -> list[Path]:
    """Write ``count`` labelled CAPTCHAs as ``<i>_<TEXT>.png`` into ``outdir``; return paths."""
    outdir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    paths = []
    for i in range(count):
        text = random_captcha_text(rng)
        path = outdir / f"{i}_{text}.png"
        path.write_bytes(render_captcha(text, rng, difficulty))
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """``python -m browsercrawl_demo.captcha_image OUTDIR N``: write N labelled samples."""
    parser = argparse.ArgumentParser(prog="python -m browsercrawl_demo.captcha_image",
                                     description="Write N labelled demo CAPTCHAs as <i>_<TEXT>.png")
    parser.add_argument("outdir", type=Path)
    parser.add_argument("count", type=int)
    parser.add_argument("--difficulty", type=int, default=2, choices=range(MAX_DIFFICULTY + 1))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error("N must be >= 0")
    write_samples(args.outdir, args.count, args.difficulty, args.seed)
    print(f"wrote {args.count} captchas to {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
