"""CAPTCHA styles the benchmark and the tests measure the solver on (not part of the product).

Real sites' CAPTCHAs cannot be shipped with the repository, so the pipeline is measured on images
from generators written here (eight styles, each its own drawing code, not one generator with other
seeds), plus two from elsewhere: the ``captcha`` package's ImageCaptcha and the demo site's own.
Every set is reproducible from its seed, so numbers can be compared across runs.

Held out of the base model's training: the base is pretrained on :mod:`browsercrawl.captcha.synth`
only, which never imports this module; ``scripts/pretrain_captcha.py`` also leaves out every font
file named in :data:`FONT_FILES` (``synth.fonts_in(exclude=...)``), so a style here differs from the
training family by its drawing code *and* its font. A test checks both.

Each style has a site's profile facts: charset, length range and case rule (``case``):
``upper``/``lower`` (the site's answers are all in that case), ``insensitive`` (any case is
accepted; labels are stored lower case, as a forum stores them), ``sensitive``.
"""

from __future__ import annotations

import io
import math
import random
import string
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ALNUM_UPPER = string.ascii_uppercase + string.digits
UNAMBIGUOUS_UPPER = "ABCDEFGHJKLMNPRSTUVWXYZ2345678"  # no 0/O, 1/I, 9/g-like pairs
LOWER_DIGITS = "abcdefghjkmnpqrstuvwxyz23456789"
MIXED = "ABCDEFGHJKLMNPQRTUVWXYabdefghmnqrt2345678"  # no pairs that differ only by size (Cc, Oo, Ss...)

DEJAVU = "/usr/share/fonts/truetype/dejavu/"
LIBERATION = "/usr/share/fonts/truetype/liberation/"
FONT_FILES = {
    "lined": DEJAVU + "DejaVuSans-Bold.ttf",
    "confetti": LIBERATION + "LiberationSans-Bold.ttf",
    "arc": LIBERATION + "LiberationSerif-Bold.ttf",
    "hollow": DEJAVU + "DejaVuSerif-Bold.ttf",
    "wave": LIBERATION + "LiberationMono-Bold.ttf",
    "grain": DEJAVU + "DejaVuSansCondensed-Bold.ttf",
    # Two styles written after the base of 2026-11-24, in fonts no pretraining run had on its
    # machine then (Debian's fonts-b612 and fonts-dosis): a check of the family held out twice.
    "ticket": "/usr/share/fonts/opentype/b612/B612-Bold.otf",
    "bubble": "/usr/share/fonts/opentype/dosis/Dosis-Bold.otf",
}




def held_out_font_files() -> list[str]:
    """Every font file pretraining must leave out: the styles' own, and every other weight of the
    families whose every file is held out (those of the styles written after the base of
    2026-11-24: no weight of them was ever trained on)."""
    files = list(FONT_FILES.values())
    for name in HELD_OUT_FAMILIES:
        family = Path(FONT_FILES[name]).parent
        files += [str(p) for p in family.glob("*") if p.suffix.lower() in (".ttf", ".otf")]
    return files


# Styles whose whole font family, not only the file they draw with, stays out of pretraining.
HELD_OUT_FAMILIES = ("ticket", "bubble")

# The Debian package each style's font comes from (DejaVu and Liberation come with the machine).
FONT_PACKAGES = {"lined": "fonts-dejavu-core", "confetti": "fonts-liberation", "arc": "fonts-liberation",
                 "hollow": "fonts-dejavu-core", "wave": "fonts-liberation", "grain": "fonts-dejavu-extra",
                 "ticket": "fonts-b612", "bubble": "fonts-dosis"}


def missing_font(name: str) -> str | None:
    """Why style ``name`` cannot be drawn as written (its font file is missing), or None.

    Without its font a style would silently fall back to Pillow's own and measure another style.
    """
    path = FONT_FILES.get(name)
    if path is None or Path(path).exists():
        return None
    return f"style {name} draws with {path}, which is missing: apt-get install {FONT_PACKAGES[name]}"


@lru_cache(maxsize=64)
def font(path: str, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The style's font (DejaVu and Liberation come with the machine), else Pillow's bundled one."""
    if Path(path).exists():
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def _rgb(rng: random.Random, lo: int, hi: int) -> tuple[int, int, int]:
    return (rng.randint(lo, hi), rng.randint(lo, hi), rng.randint(lo, hi))


def _saturated(rng: random.Random, value: float = 0.75) -> tuple[int, int, int]:
    """A strong colour: one channel high, one low, the third anywhere (HSV-like, by hand)."""
    import colorsys

    r, g, b = colorsys.hsv_to_rgb(rng.random(), rng.uniform(0.7, 1.0), value)
    return int(r * 255), int(g * 255), int(b * 255)


def _glyph(ch: str, fnt, fill, stroke: int = 0, stroke_fill=None) -> Image.Image:
    left, top, right, bottom = fnt.getbbox(ch, stroke_width=stroke)
    tile = Image.new("RGBA", (right - left + 4, bottom - top + 4), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((2 - left, 2 - top), ch, font=fnt, fill=fill, stroke_width=stroke,
                              stroke_fill=stroke_fill)
    return tile


# -- lined: the simple style -------------------------------------------------------------------------
def render_lined(text: str, rng: random.Random) -> bytes:
    """Dark glyphs, small jitter, a few thin interference lines and dots, on light grey."""
    w, h = 30 * len(text) + 20, 50
    img = Image.new("L", (w, h), 235)
    draw = ImageDraw.Draw(img)
    fnt = font(FONT_FILES["lined"], 30)
    x = 10
    for ch in text:
        glyph = Image.new("L", (40, 46), 0)
        ImageDraw.Draw(glyph).text((6, 4), ch, font=fnt, fill=255)
        glyph = glyph.rotate(rng.uniform(-15, 15), resample=Image.Resampling.BILINEAR)
        img.paste(rng.randint(10, 60), (x - 6, rng.randint(-2, 6)), glyph)
        x += 30
    for _ in range(3):
        pts = [(rng.randint(0, w), rng.randint(0, h)) for _ in range(2)]
        draw.line(pts, fill=rng.randint(40, 120), width=1)
    for _ in range(60):
        px, py = rng.randint(0, w - 1), rng.randint(0, h - 1)
        draw.point((px, py), fill=rng.randint(60, 160))
    return _png(img)


# -- confetti: many-coloured glyphs on many-coloured noise ----------------------------------------------
def render_confetti(text: str, rng: random.Random) -> bytes:
    """Each glyph its own strong colour; the background is a field of coloured specks and blobs in
    colours of the same strength, plus short coloured strokes: luminance alone barely tells glyph
    from noise, hue and the glyphs' solid areas do."""
    w, h = 34 * len(text) + 24, 56
    g = np.random.default_rng(rng.getrandbits(32))
    base = np.array(_rgb(rng, 150, 235), np.float32)
    field = base + g.normal(0, 28, (h // 4 + 1, w // 4 + 1, 3))
    bg = np.clip(np.kron(field, np.ones((4, 4, 1)))[:h, :w], 0, 255).astype(np.uint8)
    img = Image.fromarray(bg, "RGB")
    draw = ImageDraw.Draw(img)
    for _ in range(int(w * h / 40)):  # colour speckle
        x, y = rng.randrange(w), rng.randrange(h)
        draw.point((x, y), fill=_saturated(rng, rng.uniform(0.5, 0.95)))
    for _ in range(6):  # soft blobs
        x, y, r = rng.randrange(w), rng.randrange(h), rng.randint(4, 12)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=_saturated(rng, rng.uniform(0.7, 0.95)))
    fnt = font(FONT_FILES["confetti"], 34)
    x = 12 + rng.randint(-4, 4)
    for ch in text:
        tile = _glyph(ch, fnt, (*_saturated(rng, rng.uniform(0.45, 0.7)), 255))
        tile = tile.rotate(rng.uniform(-20, 20), resample=Image.Resampling.BICUBIC, expand=True)
        img.paste(tile, (x, max(0, (h - tile.height) // 2 + rng.randint(-5, 5))), tile)
        x += tile.width - rng.randint(2, 7)
    for _ in range(rng.randint(4, 7)):  # short coloured strokes
        x0, y0 = rng.randrange(w), rng.randrange(h)
        draw.line([(x0, y0), (x0 + rng.randint(-25, 25), y0 + rng.randint(-12, 12))],
                  fill=_saturated(rng, rng.uniform(0.45, 0.8)), width=rng.randint(2, 3))
    return _png(img)


# -- arc: letters on a curved baseline, crossed by thick arcs; case-insensitive site ------------------
def render_arc(text: str, rng: random.Random) -> bytes:
    """Mixed-case serif letters riding a circular baseline, each tilted along it, two thick arcs in
    the text's colour through the line, a pale paper texture. The site accepts any case."""
    w, h = 30 * len(text) + 40, 64
    paper = np.full((h, w, 3), _rgb(rng, 225, 250), np.float32)
    paper += np.random.default_rng(rng.getrandbits(32)).normal(0, 6, (h, w, 1))
    img = Image.fromarray(np.clip(paper, 0, 255).astype(np.uint8), "RGB")
    ink = _rgb(rng, 10, 90)
    fnt = font(FONT_FILES["arc"], 32)
    bend = rng.choice((-1, 1)) * rng.uniform(0.25, 0.5)  # radians of arc the text spans
    cx = w / 2
    for i, ch in enumerate(text):
        t = (i + 0.5) / len(text) - 0.5  # -0.5 .. 0.5 along the line
        x = 20 + (i + 0.5) * (w - 40) / len(text)
        y = h / 2 + 60 * (1 - math.cos(bend * t * 2)) * (1 if bend > 0 else -1) - (10 if bend > 0 else -10)
        tile = _glyph(ch, fnt, (*ink, 255))
        tile = tile.rotate(-math.degrees(bend * t * 2) + rng.uniform(-8, 8),
                           resample=Image.Resampling.BICUBIC, expand=True)
        img.paste(tile, (int(x - tile.width / 2), int(y - tile.height / 2)), tile)
    draw = ImageDraw.Draw(img)
    for _ in range(2):
        r = rng.uniform(w * 0.5, w * 1.2)
        cy = h / 2 + rng.choice((-1, 1)) * r + rng.uniform(-h / 4, h / 4)
        box = (cx - r + rng.uniform(-20, 20), cy - r, cx + r, cy + r)
        draw.arc(box, 0, 360, fill=ink, width=rng.randint(2, 3))
    return _png(img.filter(ImageFilter.GaussianBlur(0.6)))


# -- hollow: outlined glyphs over a hatched grid ---------------------------------------------------------
def render_hollow(text: str, rng: random.Random) -> bytes:
    """Outline-only glyphs (the inside is the background) over a diagonal hatch and a grid, in
    two or three close blue-grey tones; characters overlap slightly."""
    w, h = 36 * len(text) + 30, 58
    bg = _rgb(rng, 235, 255)
    img = Image.new("RGB", (w, h), bg)
    draw = ImageDraw.Draw(img)
    tone = (rng.randint(40, 90), rng.randint(60, 110), rng.randint(120, 180))
    hatch = tuple(min(255, c + 60) for c in tone)
    step = rng.randint(6, 9)
    for x in range(-h, w, step):
        draw.line([(x, h), (x + h, 0)], fill=hatch, width=1)
    for y in range(rng.randint(0, 10), h, rng.randint(12, 18)):
        draw.line([(0, y), (w, y)], fill=hatch, width=1)
    fnt = font(FONT_FILES["hollow"], 36)
    x = 10
    for ch in text:
        tile = _glyph(ch, fnt, (*bg, 255), stroke=2, stroke_fill=(*tone, 255))
        tile = tile.rotate(rng.uniform(-12, 12), resample=Image.Resampling.BICUBIC, expand=True)
        img.paste(tile, (x, max(0, (h - tile.height) // 2 + rng.randint(-4, 4))), tile)
        x += tile.width - rng.randint(4, 9)
    return _png(img)


# -- wave: a monospace run bent by two crossing waves -------------------------------------------------
def render_wave(text: str, rng: random.Random) -> bytes:
    """Lower-case monospace text drawn as one line on a two-colour gradient, then the whole image is
    bent by a horizontal and a vertical sine wave; one wavy line in the text colour."""
    w, h = 26 * len(text) + 30, 52
    a, b = np.array(_rgb(rng, 180, 255)), np.array(_rgb(rng, 180, 255))
    t = np.linspace(0, 1, w)[None, :, None]
    img = Image.fromarray(np.broadcast_to(a * (1 - t) + b * t, (h, w, 3)).astype(np.uint8), "RGB")
    ink = _rgb(rng, 0, 110)
    draw = ImageDraw.Draw(img)
    fnt = font(FONT_FILES["wave"], 34)
    x = 15
    for ch in text:
        draw.text((x, h / 2 + rng.uniform(-3, 3)), ch, font=fnt, fill=ink, anchor="lm")
        x += 26 - rng.randint(0, 5)
    amp, per, ph = rng.uniform(4, 8), rng.uniform(w / 2, w), rng.uniform(0, 6.3)
    pts = [(px, h / 2 + amp * math.sin(2 * math.pi * px / per + ph)) for px in range(0, w, 2)]
    draw.line(pts, fill=ink, width=2)
    arr = np.asarray(img)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a1, p1, f1 = rng.uniform(2, 4), rng.uniform(40, 80), rng.uniform(0, 6.3)
    a2, p2, f2 = rng.uniform(1.5, 3), rng.uniform(25, 45), rng.uniform(0, 6.3)
    ys2 = ys + a1 * np.sin(2 * np.pi * xs / p1 + f1)
    xs2 = xs + a2 * np.sin(2 * np.pi * ys / p2 + f2)
    import cv2

    out = cv2.remap(arr, xs2, ys2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return _png(Image.fromarray(out, "RGB"))


# -- grain: small, grainy, blurred, JPEG'd digits ------------------------------------------------------
def render_grain(text: str, rng: random.Random) -> bytes:
    """A long code (6-8 characters) at low resolution: condensed glyphs, heavy Gaussian grain,
    salt-and-pepper, a blur and JPEG compression, stored as PNG as a site's re-encode would."""
    w, h = 17 * len(text) + 16, 34
    img = Image.new("L", (w, h), rng.randint(190, 230))
    draw = ImageDraw.Draw(img)
    fnt = font(FONT_FILES["grain"], 24)
    x = 8
    for ch in text:
        draw.text((x, h / 2 + rng.uniform(-3, 3)), ch, font=fnt, fill=rng.randint(20, 80), anchor="lm")
        x += 17 + rng.randint(-2, 1)
    arr = np.asarray(img).astype(np.float32)
    g = np.random.default_rng(rng.getrandbits(32))
    arr += g.normal(0, rng.uniform(18, 30), arr.shape)
    salt = g.random(arr.shape)
    arr[salt < 0.03] = 0
    arr[salt > 0.97] = 255
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.7))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=rng.randint(30, 55))
    return _png(Image.open(io.BytesIO(buf.getvalue())).convert("L"))


# -- ticket: one string, perturbed rows, arcs in the ink (Securimage-like); case-sensitive -------------
def render_ticket(text: str, rng: random.Random) -> bytes:
    """A case-sensitive code drawn as one string in one dark colour (the font's own spacing and
    baseline), its rows shifted by a sine, crossed by three curves of the same ink and width as
    the strokes, and sprinkled with specks of it: the lines can only be told from the glyphs by
    their shape."""
    w, h = 27 * len(text) + 36, 62
    img = Image.new("RGB", (w, h), _rgb(rng, 228, 255))
    draw = ImageDraw.Draw(img)
    ink = _rgb(rng, 15, 95)
    fnt = font(FONT_FILES["ticket"], 36)
    draw.text((18 + rng.randint(-4, 4), h / 2 + rng.randint(-4, 4)), text, font=fnt, fill=ink, anchor="lm")
    arr = np.asarray(img)
    amp, per, ph = rng.uniform(1.5, 3.0), rng.uniform(18, 30), rng.uniform(0, 6.3)
    shift = (amp * np.sin(2 * np.pi * np.arange(h) / per + ph)).round().astype(int)
    arr = np.stack([np.roll(arr[y], shift[y], axis=0) for y in range(h)])
    img = Image.fromarray(arr, "RGB")
    draw = ImageDraw.Draw(img)
    for _ in range(3):
        y0, y1, ym = rng.uniform(10, h - 10), rng.uniform(10, h - 10), rng.uniform(-10, h + 10)
        pts = []
        for i in range(41):  # a quadratic curve across the image
            t = i / 40
            pts.append((t * w, (1 - t) ** 2 * y0 + 2 * t * (1 - t) * ym + t * t * y1))
        draw.line(pts, fill=ink, width=rng.choice((2, 3)))
    for _ in range(w * h // 60):
        draw.point((rng.randrange(w), rng.randrange(h)), fill=ink)
    return _png(img)


# -- bubble: rounded glyphs of many colours among rings; case-insensitive ---------------------------
def render_bubble(text: str, rng: random.Random) -> bytes:
    """Rounded condensed glyphs, each its own mid-dark colour and tilt, crowded so they touch,
    over rings and discs of pale colours and a light blur; the site accepts any case (letters are
    drawn in either)."""
    w, h = 30 * len(text) + 40, 58
    img = Image.new("RGB", (w, h), _rgb(rng, 230, 255))
    draw = ImageDraw.Draw(img)
    for _ in range(rng.randint(12, 20)):
        x, y, r = rng.randrange(w), rng.randrange(h), rng.randint(5, 22)
        colour = _saturated(rng, rng.uniform(0.75, 0.95))
        if rng.random() < 0.5:
            draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=rng.randint(1, 3))
        else:
            pale = tuple(int(c + (255 - c) * 0.6) for c in colour)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=pale)
    fnt = font(FONT_FILES["bubble"], 44)
    x = 12 + rng.randint(-3, 3)
    for ch in text:
        ch = ch.upper() if rng.random() < 0.5 else ch.lower()
        tile = _glyph(ch, fnt, (*_saturated(rng, rng.uniform(0.35, 0.6)), 255))
        tile = tile.rotate(rng.uniform(-25, 25), resample=Image.Resampling.BICUBIC, expand=True)
        img.paste(tile, (x, max(0, (h - tile.height) // 2 + rng.randint(-4, 4))), tile)
        x += max(8, tile.width - rng.randint(5, 9))
    return _png(img.filter(ImageFilter.GaussianBlur(0.5)))


# -- from elsewhere ------------------------------------------------------------------------------------
def render_imagecaptcha(text: str, rng: random.Random) -> bytes:
    """The ``captcha`` package's ImageCaptcha with its defaults (it draws from ``random``)."""
    from captcha.image import ImageCaptcha

    random.seed(rng.random())
    return ImageCaptcha().generate(text).getvalue()


def _demo():
    """The demo site's CAPTCHA module: the one place the benchmark reaches into the demo."""
    from browsercrawl_demo import captcha_image

    return captcha_image


def render_demo(text: str, rng: random.Random) -> bytes:
    """The demo site's CAPTCHA at its default difficulty."""
    return _demo().render_captcha(text, rng)


@dataclass(frozen=True)
class Style:
    """A generator plus what a site's profile would say about its answers."""

    render: Callable[[str, random.Random], bytes]
    charset: str
    lengths: tuple[int, int]
    case: str = "sensitive"
    own: bool = True  # drawn by code written here (the held-out styles), not taken from elsewhere

    def label(self, text: str) -> str:
        """The label as the site stores it (a case-insensitive site stores lower case)."""
        return text.lower() if self.case == "insensitive" else text


STYLES: dict[str, Style] = {
    "lined": Style(render_lined, ALNUM_UPPER, (4, 6), "upper"),
    "confetti": Style(render_confetti, UNAMBIGUOUS_UPPER, (4, 6), "upper"),
    "arc": Style(render_arc, MIXED, (5, 5), "insensitive"),
    "hollow": Style(render_hollow, ALNUM_UPPER, (4, 5), "upper"),
    "wave": Style(render_wave, LOWER_DIGITS, (5, 7), "lower"),
    "grain": Style(render_grain, string.digits + "ABCDEFHKMNPRSTX", (6, 8), "upper"),
    "ticket": Style(render_ticket, "ABCDEFGHKLMNPRSTUVWYZabcdeghkmnprsuvwyz23456789", (6, 6), "sensitive"),
    "bubble": Style(render_bubble, "abdefhkmnprtuvwxy2345678", (4, 5), "insensitive"),
    "imagecaptcha": Style(render_imagecaptcha, ALNUM_UPPER, (4, 6), "upper", own=False),
    "demo": Style(render_demo, "", (5, 5), "upper", own=False),
}
OWN_STYLES = [name for name, s in STYLES.items() if s.own]


def style_charset(name: str) -> str:
    """The charset a style draws from (the demo's comes from its own module)."""
    return _demo().CAPTCHA_CHARSET if name == "demo" else STYLES[name].charset


def profile_facts(name: str) -> dict:
    """What a person would write in the site's profile: charset (as the site stores answers),
    length range and case rule."""
    s = STYLES[name]
    charset = style_charset(name)
    if s.case == "insensitive":
        charset = "".join(sorted(set(charset.lower())))
    return {"charset": charset, "min_len": s.lengths[0], "max_len": s.lengths[1], "case": s.case}


def generate(name: str, out_dir: Path, n: int, seed: int) -> list[tuple[Path, str]]:
    """Write ``n`` images named ``<index>_<label>.png`` into ``out_dir``; lengths evenly mixed."""
    if name not in STYLES:
        raise ValueError(f"unknown CAPTCHA style {name!r}; known: {', '.join(sorted(STYLES))}")
    style = STYLES[name]
    lo, hi = style.lengths
    charset = style_charset(name)
    rng = random.Random(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        length = lo + i % (hi - lo + 1)
        text = "".join(rng.choice(charset) for _ in range(length))
        label = style.label(text)
        path = out_dir / f"{i:05d}_{label}.png"
        path.write_bytes(style.render(text, rng))
        out.append((path, label))
    return out


if __name__ == "__main__":  # python scripts/bench/captcha_styles.py STYLE OUTDIR N [SEED]
    args = sys.argv[1:]
    generate(args[0], Path(args[1]), int(args[2]), int(args[3]) if len(args) > 3 else 0)
