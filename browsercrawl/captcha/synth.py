"""Synthetic CAPTCHA-like text images, to pretrain the base recogniser.

The base model (``models/base-ctc.npz``) learns what characters look like under the usual CAPTCHA
defences before it ever sees a site's samples, so a few hundred of those are enough to adapt it.
To stay general (and honest: the benchmark's generators must not leak into the base), the images
come from the system's fonts (``fonts_in``; Pillow's bundled font and the ``captcha`` package's
DroidSansMono are excluded) and from randomised versions of the defences the literature lists:
per-character rotation, scale and offset, overlap and squeezing, coloured or textured backgrounds,
interference lines and curves, dots and speckle, colour noise (hue-scattered blocks and specks,
coloured blobs and strokes over the text) with glyphs of every hue, hatched and gridded
backgrounds, glyphs riding an arc or a wave, wave and elastic warps, blur, low resolution, JPEG
artefacts, hollow and outlined glyphs (glyph by glyph, or every glyph of an image alike) and
inverted colours. Every draw comes from the ``rng`` argument, so a seed reproduces a set exactly
(given the same fonts and :data:`VERSION`).
"""

from __future__ import annotations

import colorsys
import io
import math
import random
import string
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

BASE_CHARSET = string.digits + string.ascii_uppercase + string.ascii_lowercase
FONT_DIRS = ("/usr/share/fonts",)
EXCLUDED_FONTS = ("droid",)  # the captcha package's font: the benchmark style must stay unseen
# Bumped whenever a seed stops drawing what it drew before: pretraining caches its generated set
# under this number, so a changed generator never trains on a stale set.
VERSION = 3


@dataclass(frozen=True)
class Font:
    """A font file and the characters it draws with distinct glyphs."""

    path: str
    chars: str


def _glyph_mask(font: ImageFont.FreeTypeFont, ch: str) -> np.ndarray:
    img = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(img).text((8, 4), ch, font=font, fill=255)
    return np.asarray(img) > 127


def usable_chars(path: str, charset: str = BASE_CHARSET) -> str:
    """The characters of ``charset`` this font draws as real glyphs.

    Drops characters drawn as the missing-glyph box or as nothing, and lower-case letters drawn
    exactly like their capitals (caps-only display fonts), which would teach wrong labels.
    """
    try:
        font = ImageFont.truetype(path, 40)
    except OSError:
        return ""
    missing = _glyph_mask(font, "\uffff")
    masks = {c: _glyph_mask(font, c) for c in charset}
    out = []
    for c, m in masks.items():
        if m.sum() < 12 or (missing.any() and np.array_equal(m, missing)):
            continue
        if c.islower() and c.upper() in masks and np.array_equal(m, masks[c.upper()]):
            continue
        out.append(c)
    distinct = {m.tobytes() for m in masks.values()}
    return "".join(out) if len(distinct) > len(charset) // 2 else ""  # a symbol font: all alike


def fonts_in(dirs: tuple[str, ...] = FONT_DIRS, min_chars: int = 20,
             exclude: Collection[str] = ()) -> list[Font]:
    """Every .ttf/.otf under ``dirs`` that draws at least ``min_chars`` of the base charset.

    ``exclude``: font file names (no folder) to leave out, besides :data:`EXCLUDED_FONTS`; the
    pretraining script passes the benchmark styles' fonts so those stay unseen.
    """
    found = []
    skip = {Path(x).name.lower() for x in exclude}
    for d in dirs:
        for p in sorted(Path(d).rglob("*")):
            name = p.name.lower()
            if p.suffix.lower() not in (".ttf", ".otf") or name in skip:
                continue
            if any(x in name for x in EXCLUDED_FONTS):
                continue
            chars = usable_chars(str(p))
            if len(chars) >= min_chars:
                found.append(Font(str(p), chars))
    return found


@lru_cache(maxsize=512)
def _truetype(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def random_text(rng: random.Random, chars: str, lo: int = 3, hi: int = 8) -> str:
    """A label: length ``lo..hi`` (4-6 most often), characters evenly from ``chars``."""
    length = min(hi, max(lo, round(rng.triangular(lo, hi, 5))))
    return "".join(rng.choice(chars) for _ in range(length))


def _colour(rng: random.Random, lo: int, hi: int) -> tuple[int, int, int]:
    return (rng.randint(lo, hi), rng.randint(lo, hi), rng.randint(lo, hi))


def _background(rng: random.Random, w: int, h: int) -> tuple[Image.Image, int]:
    """A background and its rough brightness (text is drawn to contrast with it)."""
    kind = rng.random()
    if kind < 0.35:
        c = _colour(rng, 200, 255)
        return Image.new("RGB", (w, h), c), sum(c) // 3
    if kind < 0.47:
        a, b = np.array(_colour(rng, 170, 255)), np.array(_colour(rng, 170, 255))
        horizontal = rng.random() < 0.7
        t = np.linspace(0, 1, w)[None, :, None] if horizontal else np.linspace(0, 1, h)[:, None, None]
        arr = np.broadcast_to(a * (1 - t) + b * t, (h, w, 3)).astype(np.uint8)
        return Image.fromarray(arr), int((a.mean() + b.mean()) // 2)
    if kind < 0.59:  # blotchy texture: low-resolution noise scaled up
        lo = rng.randint(150, 220)
        g = np.random.default_rng(rng.getrandbits(32))
        small = g.integers(lo, 256, (max(2, h // 8), max(2, w // 8), 3))
        arr = cv2.resize(small.astype(np.uint8), (w, h), interpolation=cv2.INTER_CUBIC)
        return Image.fromarray(arr), int(arr.mean())
    if kind < 0.71:  # colour noise: blocks of random hue around a light tint, plus coloured specks
        g = np.random.default_rng(rng.getrandbits(32))
        cell = rng.choice((1, 2, 3, 4))
        tint = np.array(_colour(rng, 140, 235), np.float32)
        small = tint + g.normal(0, rng.uniform(10, 30), (h // cell + 1, w // cell + 1, 3))
        arr = np.clip(np.kron(small, np.ones((cell, cell, 1)))[:h, :w], 0, 255).astype(np.uint8)
        img = Image.fromarray(arr)
        d = ImageDraw.Draw(img)
        for _ in range(int(w * h * rng.uniform(0, 0.05))):
            d.point((rng.randrange(w), rng.randrange(h)), fill=_vivid(rng))
        return img, int(arr.mean())
    if kind < 0.8:  # mid or saturated colour
        c = _colour(rng, 90, 255)
        return Image.new("RGB", (w, h), c), sum(c) // 3
    if kind < 0.9:  # a pattern: hatching, a grid, or both, in a tone near the background
        c = _colour(rng, 215, 255)
        img = Image.new("RGB", (w, h), c)
        d = ImageDraw.Draw(img)
        tone = tuple(max(0, v - rng.randint(30, 110)) for v in c)
        if rng.random() < 0.6:
            step, slope = rng.randint(4, 10), rng.choice((-1, 1))
            for x in range(-h, w + h, step):
                d.line([(x, 0), (x + slope * h, h)], fill=tone, width=1)
        if rng.random() < 0.6:
            sx, sy = rng.randint(6, 20), rng.randint(6, 20)
            for x in range(rng.randint(0, sx), w, sx):
                d.line([(x, 0), (x, h)], fill=tone, width=1)
            for y in range(rng.randint(0, sy), h, sy):
                d.line([(0, y), (w, y)], fill=tone, width=1)
        return img, sum(c) // 3 - 15
    c = _colour(rng, 225, 255)  # light, with faint shapes
    img = Image.new("RGB", (w, h), c)
    d = ImageDraw.Draw(img)
    for _ in range(rng.randint(3, 12)):
        x, y, r = rng.randint(0, w), rng.randint(0, h), rng.randint(3, h)
        d.ellipse((x - r, y - r, x + r, y + r), fill=_colour(rng, 185, 250))
    return img, sum(c) // 3


def _vivid(rng: random.Random) -> tuple[int, int, int]:
    """A saturated colour of random hue and brightness (colour noise, many-coloured text)."""
    r, g, b = colorsys.hsv_to_rgb(rng.random(), rng.uniform(0.6, 1.0), rng.uniform(0.35, 0.95))
    return int(r * 255), int(g * 255), int(b * 255)


def _ink(rng: random.Random, bg: int) -> tuple[int, int, int]:
    """A text or line colour with enough contrast against a background of brightness ``bg``."""
    for _ in range(20):
        c = _colour(rng, 0, 255) if rng.random() < 0.5 else _colour(rng, 0, 140)
        if abs(sum(c) / 3 - bg) > 70:
            return c
    return (0, 0, 0) if bg > 127 else (255, 255, 255)


def _look(rng: random.Random) -> str | None:
    """How every glyph of one image is drawn, or None for a look chosen glyph by glyph.

    A site's generator draws all its glyphs one way; an image of hollow glyphs only (often over a
    hatch) reads nothing like a run with one hollow glyph among filled ones.
    """
    pick = rng.random()
    return "hollow" if pick < 0.12 else "bold" if pick < 0.18 else None


def _tile(ch: str, font: ImageFont.FreeTypeFont, colour, rng: random.Random,
          look: str | None = None, scale: tuple[float, float] | None = None) -> Image.Image:
    """One character on a transparent tile: maybe hollow or outlined, rotated, stretched.

    ``look``: the image's look for every glyph ('hollow', 'bold'); None draws one at random.
    ``scale``: the image's stretch (x, y) shared by every glyph, each varying it by a few percent
    (a line of text); None stretches each glyph its own way. Rotation is about the ink's centre,
    which therefore stays where :func:`_ink_centre` says.
    """
    left, top, right, bottom = font.getbbox(ch)
    pad = 6
    tile = Image.new("RGBA", (right - left + 2 * pad, bottom - top + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    style = {"hollow": 0.0, "bold": 0.2}.get(look or "", rng.random())
    if style < 0.14:  # hollow: an outline, the inside transparent or a flat other colour
        inside = (0, 0, 0, 0) if rng.random() < 0.5 else (*_colour(rng, 200, 255), 255)
        draw.text((pad - left, pad - top), ch, font=font, fill=inside, stroke_width=rng.choice((1, 1, 2)),
                  stroke_fill=(*colour, 255))
    elif style < 0.26:  # bolder
        draw.text((pad - left, pad - top), ch, font=font, fill=(*colour, 255), stroke_width=1,
                  stroke_fill=(*colour, 255))
    else:
        draw.text((pad - left, pad - top), ch, font=font, fill=(*colour, 255))
    if scale is None:
        sx, sy = rng.uniform(0.75, 1.3), rng.uniform(0.85, 1.15)
    else:
        sx, sy = scale[0] * rng.uniform(0.95, 1.05), scale[1] * rng.uniform(0.97, 1.03)
    size = (max(1, int(tile.width * sx)), max(1, int(tile.height * sy)))
    tile = tile.resize(size, Image.Resampling.BICUBIC)
    max_rot = rng.choice((0, 8, 20, 30, 40))
    if max_rot:
        tile = tile.rotate(rng.uniform(-max_rot, max_rot), resample=Image.Resampling.BICUBIC, expand=True)
    box = tile.getbbox()
    return tile.crop(box) if box else tile


def _ink_centre(font: ImageFont.FreeTypeFont, ch: str) -> float:
    """Height of a glyph's ink centre below the top of the font's line (ascender), in pixels.

    Where a glyph sits on the line is part of what it is: ``g`` hangs below the baseline where
    ``9`` sits on it, ``b`` rises above ``6``, ``o`` is half the height of ``O``. Text drawn on a
    baseline keeps those cues; glyphs centred one by one lose them.
    """
    _, top, _, bottom = font.getbbox(ch)
    return (top + bottom) / 2


def _lines(img: Image.Image, rng: random.Random, bg: int, text_colours: list, light: bool = False) -> None:
    """Interference: straight lines, polylines, arcs and sine curves, thin to thick (``light``:
    at most two, at most 2 px)."""
    w, h = img.size
    d = ImageDraw.Draw(img)
    for _ in range(rng.choice((0, 1, 1, 2) if light else (0, 0, 1, 1, 2, 3, 4, 6))):
        colour = rng.choice(text_colours) if rng.random() < 0.4 else _ink(rng, bg)
        width = rng.choice((1, 1, 2) if light else (1, 1, 1, 2, 2, 3, 4))
        kind = rng.random()
        if kind < 0.35:
            start = (rng.randint(0, w // 4), rng.randint(0, h))
            d.line([start, (rng.randint(3 * w // 4, w), rng.randint(0, h))], fill=colour, width=width)
        elif kind < 0.55:
            pts = [(x, rng.randint(h // 5, 4 * h // 5)) for x in sorted(rng.sample(range(w), 4))]
            d.line(pts, fill=colour, width=width, joint="curve")
        elif kind < 0.75:
            x0, y0 = rng.randint(-w // 2, w // 2), rng.randint(-h, h // 2)
            x1, y1 = x0 + rng.randint(w // 2, 2 * w), y0 + rng.randint(h // 2, 2 * h)
            d.arc((x0, y0, x1, y1), rng.randint(0, 360), rng.randint(0, 360), fill=colour, width=width)
        else:
            amp, per, ph = rng.uniform(2, h / 3), rng.uniform(w / 3, 2 * w), rng.uniform(0, 6.3)
            y0 = rng.uniform(h / 3, 2 * h / 3)
            x_start, x_end = rng.randint(0, w // 3), rng.randint(2 * w // 3, w)
            pts = [(x, y0 + amp * math.sin(2 * math.pi * x / per + ph)) for x in range(x_start, x_end, 3)]
            d.line(pts, fill=colour, width=width, joint="curve")


def _dots(img: Image.Image, rng: random.Random, bg: int, light: bool = False) -> None:
    w, h = img.size
    d = ImageDraw.Draw(img)
    n = rng.choice((0, 0, 20, 80) if light else (0, 0, 20, 80, 200, 500)) * w * h // (160 * 60)
    big = rng.random() < 0.3
    for _ in range(n):
        x, y = rng.randrange(w), rng.randrange(h)
        r = rng.choice((0, 0, 1, 2) if big else (0, 0, 0, 1))
        fill = _ink(rng, bg) if rng.random() < 0.7 else _colour(rng, 0, 255)
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _warp(arr: np.ndarray, rng: random.Random) -> np.ndarray:
    """Sine waves along either axis, or a smooth random (elastic) displacement field."""
    h, w = arr.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = rng.random()
    if kind < 0.45:
        amp, per, ph = rng.uniform(1.5, h / 9), rng.uniform(w / 4, w * 1.2), rng.uniform(0, 6.3)
        ys = ys + amp * np.sin(2 * np.pi * xs / per + ph)
    elif kind < 0.65:
        amp, per, ph = rng.uniform(1, h / 12), rng.uniform(h / 2, h * 2), rng.uniform(0, 6.3)
        xs = xs + amp * np.sin(2 * np.pi * ys / per + ph)
    else:
        g = np.random.default_rng(rng.getrandbits(32))
        alpha, sigma = rng.uniform(h / 15, h / 6), rng.uniform(h / 8, h / 4)
        dx = cv2.GaussianBlur(g.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma)
        dy = cv2.GaussianBlur(g.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma)
        scale = alpha / max(1e-6, float(np.abs(dx).max()), float(np.abs(dy).max()))
        xs, ys = xs + dx * scale, ys + dy * scale
    return cv2.remap(arr, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def render(text: str, font: Font, rng: random.Random) -> np.ndarray:
    """One synthetic CAPTCHA of ``text`` drawn with ``font``, as a BGR array of its own size."""
    h = rng.randint(30, 80)
    glyph_h = h * rng.uniform(0.55, 0.9)
    per_char = glyph_h * rng.uniform(0.5, 0.95)
    w = int(min(h * 6.5, max(h * 1.6, per_char * len(text) + rng.uniform(0.1, 0.8) * h)))
    img, bg = _background(rng, w, h)
    # Defences compound: with every one drawn independently most images stack several and many
    # are past reading. A share are kept light (a few thin lines and specks, no blobs, no grain),
    # the way many sites draw them, so fine differences between glyphs (g and 9, b and 6, o and
    # O) are learned from images where they can be seen.
    light = rng.random() < 0.3
    if rng.random() < 0.3 and not light:
        _lines(img, rng, bg, [_ink(rng, bg)])  # lines under the text as well as over it
    # Most generators draw a line of text: every glyph on one baseline, stretched alike (its
    # ascenders and descenders need room). The rest place and stretch each glyph on its own,
    # centred in the image.
    on_line = rng.random() < 0.55
    size = max(8, int(glyph_h * (0.85 if on_line else 1.0)))
    pil_font = _truetype(font.path, size)
    palette = rng.random()
    base = _ink(rng, bg)
    if palette < 0.45:
        colours = [base for _ in text]
    elif palette < 0.75:
        colours = [_ink(rng, bg) for _ in text]
    else:  # many-coloured glyphs, often no darker than the colour noise around them
        colours = [_vivid(rng) for _ in text]
    look = _look(rng)
    scale = (rng.uniform(0.7, 1.3), rng.uniform(0.85, 1.15)) if on_line else None
    tiles = [_tile(c, pil_font, col, rng, look, scale) for c, col in zip(text, colours, strict=True)]
    centres = [_ink_centre(pil_font, c) * (scale[1] if scale else 1.0) for c in text]
    gap = rng.uniform(-0.3, 0.25) * size
    total = sum(t.width for t in tiles) + gap * (len(tiles) - 1)
    margin = rng.uniform(0.02, 0.12) * w
    fit = (w - 2 * margin) / max(1.0, total)
    if fit < 1 or rng.random() < 0.3:  # squeeze (or spread) the run of glyphs to fit the box
        f = min(fit, rng.uniform(0.8, 1.0)) if fit < 1 else min(fit, rng.uniform(1.0, 1.3))
        tiles = [t.resize((max(1, int(t.width * f)), max(1, int(t.height * min(1.0, f ** 0.5)))),
                          Image.Resampling.BICUBIC) for t in tiles]
        gap *= f
        total = sum(t.width for t in tiles) + gap * (len(tiles) - 1)
    x = max(0.0, (w - total) / 2 + rng.uniform(-margin, margin) / 2)
    jitter = rng.choice((0.0, 0.1, 0.25, 0.4))
    # sometimes the glyphs ride a curve (an arc or a wave) instead of a straight line
    curve = rng.choice((0.0, 0.0, 0.0, rng.uniform(0.1, 0.3)))
    phase, periods = rng.uniform(0, 6.3), rng.choice((0.5, 1.0))
    if on_line:  # the line's ink centred in the image, give or take; each glyph a little off it
        ascent, descent = pil_font.getmetrics()
        line_h = (ascent + descent) * (scale[1] if scale else 1.0)
        top = (h - line_h) / 2 + rng.uniform(-0.1, 0.1) * h
        jitter = rng.choice((0.0, 0.02, 0.05, 0.08))
    for i, t in enumerate(tiles):
        room = max(0, h - t.height)
        if on_line:
            y = top + centres[i] - t.height / 2 + rng.uniform(-jitter, jitter) * h
            low, high = -0.1 * t.height, room + 0.1 * t.height  # a glyph may touch the edge, barely
        else:
            y = room / 2 + rng.uniform(-jitter, jitter) * room
            low, high = 0, room
        if curve:
            y += curve * h * math.sin(phase + 2 * math.pi * periods * i / max(1, len(tiles) - 1))
        img.paste(t, (int(x), int(min(max(low, y), high))), t)
        x += t.width + gap
    if rng.random() < 0.15 and not light:  # coloured blobs and short strokes over the text
        d = ImageDraw.Draw(img)
        for _ in range(rng.randint(2, 8)):
            cx, cy, r = rng.randrange(w), rng.randrange(h), rng.randint(2, max(3, h // 6))
            if rng.random() < 0.5:
                d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_vivid(rng))
            else:
                d.line([(cx, cy), (cx + rng.randint(-w // 6, w // 6), cy + rng.randint(-h // 4, h // 4))],
                       fill=_vivid(rng), width=rng.randint(1, 3))
    _lines(img, rng, bg, colours, light)
    _dots(img, rng, bg, light)
    arr = np.asarray(img)[:, :, ::-1].copy()  # RGB -> BGR, like decode_image
    if rng.random() < 0.45:
        arr = _warp(arr, rng)
        if rng.random() < 0.3:  # two distortions at once (crossing waves, a wave and a field)
            arr = _warp(arr, rng)
    if rng.random() < 0.3:
        arr = cv2.GaussianBlur(arr, (0, 0), rng.uniform(0.4, 1.1))
    if rng.random() < 0.15 and not light:
        noise = np.random.default_rng(rng.getrandbits(32)).normal(0, rng.uniform(5, 25), arr.shape)
        arr = np.clip(arr + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.1 and not light:  # low resolution: shrink and blow up again
        f = rng.uniform(0.4, 0.7)
        small = cv2.resize(arr, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        arr = cv2.resize(small, (arr.shape[1], arr.shape[0]), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.25:
        arr = _jpeg(arr, rng.randint(25, 90))
    if rng.random() < 0.08:
        arr = 255 - arr
    return arr


def _jpeg(arr: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", arr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else arr


def sample(fonts: list[Font], rng: random.Random) -> tuple[np.ndarray, str]:
    """A random (image, label) pair: a random font, a label from the characters it draws."""
    font = rng.choice(fonts)
    text = random_text(rng, font.chars)
    return render(text, font, rng), text


def png(arr: np.ndarray) -> bytes:
    """PNG bytes of a BGR array (for writing labelled folders)."""
    buf = io.BytesIO()
    Image.fromarray(arr[:, :, ::-1]).save(buf, "PNG")
    return buf.getvalue()
