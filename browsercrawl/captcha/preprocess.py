"""Preprocessing steps: small pure functions from image to image, composed by a profile.

Conventions, so steps compose in any order: images are uint8 numpy arrays; after ``grayscale`` they
are 2-D with dark ink on a light background; binary images hold only 0 (ink) and 255 (background).
Every step takes the image plus keyword parameters and returns a new image, so a profile is just a
list of ``{"step": name, **params}`` and ``captcha debug`` can write the image after each one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from browsercrawl.errors import UserError

Step = Callable[..., np.ndarray]
STEPS: dict[str, Step] = {}


def step(fn: Step) -> Step:
    """Register a preprocessing step under its function name."""
    STEPS[fn.__name__] = fn
    return fn


def decode_image(data: bytes) -> np.ndarray:
    """PNG/JPEG/GIF bytes -> BGR array (GIFs through Pillow, which OpenCV cannot read)."""
    arr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if arr is None:
        import io

        from PIL import Image

        try:
            with Image.open(io.BytesIO(data)) as im:
                arr = cv2.cvtColor(np.asarray(im.convert("RGB")), cv2.COLOR_RGB2BGR)
        except Exception as exc:
            raise UserError(f"not a readable image ({len(data)} bytes): {exc}") from exc
    return arr


def _light_background(gray: np.ndarray) -> np.ndarray:
    """Invert if the border is darker than mid-grey, so ink is always dark."""
    border = np.concatenate([gray[0], gray[-1], gray[:, 0], gray[:, -1]])
    return 255 - gray if border.mean() < 128 else gray


@step
def grayscale(img: np.ndarray) -> np.ndarray:
    """Colour -> luminance, with ink made dark if the image is light-on-dark."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    return _light_background(gray)


@step
def close_hairlines(img: np.ndarray, k: int = 2) -> np.ndarray:
    """Luminance with ink made dark, then a grayscale closing with a ``k`` x ``k`` square: dark
    marks thinner than ``k`` px (a hatch or a grid behind the glyphs, hairline strokes) take the
    lighter value around them; strokes at least ``k`` px wide stay.

    Why a view of its own: the base network reads outline-only glyphs over a hatch far better
    closed (49 -> 86 % exact on the benchmark's hollow style) but loses a point or a few on most
    other styles, so a site's own images decide whether it is used (``captcha/views.py``).
    """
    return cv2.morphologyEx(grayscale(img), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))


@step
def min_channel(img: np.ndarray) -> np.ndarray:
    """The darkest of the three colour channels, ink made dark: every saturated colour comes out
    dark (one of its channels is low), pale tints and white come out light. Grayscale: as is."""
    gray = img.min(axis=2) if img.ndim == 3 else img
    return _light_background(np.ascontiguousarray(gray))


@step
def max_channel(img: np.ndarray) -> np.ndarray:
    """The brightest of the three colour channels (HSV value), ink made dark: a pixel comes out
    light when any of its channels is bright, so a field of light or vivid colour noise fades
    and only ink that is dark in every channel stays dark. A grayscale image: its luminance view.

    Why: luminance weighs green six times blue, so a blue speck is as dark as a glyph and a
    green glyph as light as the field. On the benchmark's many-coloured style the base read
    64.5 % in luminance and 78 % in this view with no training, and a model trained on 500
    labels 76 % and 90 %; on one-colour styles it is luminance give or take a point.
    """
    gray = img.max(axis=2) if img.ndim == 3 else img
    return _light_background(np.ascontiguousarray(gray))


@step
def saturation(img: np.ndarray, k: int = 3) -> np.ndarray:
    """Colour strength as ink: strongly coloured pixels dark, greys and pale tints light.

    Why: glyphs drawn in vivid colours over a pastel, noisy field are told apart by how
    coloured they are, not by how dark (a yellow glyph is as light as the field). A median of
    ``k`` px first drops one-pixel colour specks, which would otherwise be the most coloured
    pixels of all. Grayscale input: as is (no colour to use).
    """
    if img.ndim == 2:
        return img
    smooth = cv2.medianBlur(img, k) if k > 1 else img
    hsv = cv2.cvtColor(smooth, cv2.COLOR_BGR2HSV)
    return np.ascontiguousarray(255 - hsv[..., 1])


@step
def contrast(img: np.ndarray, clip: float = 2.0, tile: int = 4) -> np.ndarray:
    """Local contrast equalisation (CLAHE) after a full-range stretch."""
    img = cv2.normalize(img, None, 0, 255, cv2.NORM_MINMAX)
    return cv2.createCLAHE(clipLimit=clip, tileGridSize=(tile, tile)).apply(img)


@step
def sharpen(img: np.ndarray, amount: float = 1.0, sigma: float = 1.0) -> np.ndarray:
    """Unsharp mask: img + amount * (img - blur)."""
    blur = cv2.GaussianBlur(img, (0, 0), sigma)
    return cv2.addWeighted(img, 1 + amount, blur, -amount, 0)


@step
def scale(img: np.ndarray, factor: float = 2.0) -> np.ndarray:
    """Resize by ``factor``; Tesseract reads small CAPTCHAs much better at 2-3x."""
    return cv2.resize(img, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)


@step
def pad(img: np.ndarray, px: int = 10) -> np.ndarray:
    """Add a white margin (Tesseract misses glyphs touching the edge)."""
    return cv2.copyMakeBorder(img, px, px, px, px, cv2.BORDER_CONSTANT, value=255)


@step
def binarise_otsu(img: np.ndarray) -> np.ndarray:
    """Global threshold chosen by Otsu's method."""
    _, out = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return _light_background(out)


@step
def binarise_adaptive(img: np.ndarray, block: int = 15, c: float = 5) -> np.ndarray:
    """Threshold against the local Gaussian-weighted mean (uneven backgrounds)."""
    block = block | 1
    return cv2.adaptiveThreshold(
        img, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY, block, c
    )


@step
def binarise_sauvola(img: np.ndarray, window: int = 15, k: float = 0.2, r: float = 128) -> np.ndarray:
    """Sauvola: threshold = mean * (1 + k * (std / r - 1)) over a sliding window."""
    f = img.astype(np.float64)
    size = (window | 1, window | 1)
    mean = cv2.boxFilter(f, -1, size, borderType=cv2.BORDER_REFLECT)
    sq = cv2.boxFilter(f * f, -1, size, borderType=cv2.BORDER_REFLECT)
    std = np.sqrt(np.maximum(sq - mean * mean, 0))
    thr = mean * (1 + k * (std / r - 1))
    return np.where(f > thr, 255, 0).astype(np.uint8)


@step
def denoise_median(img: np.ndarray, k: int = 3) -> np.ndarray:
    """Median filter: removes salt-and-pepper dots, keeps edges."""
    return cv2.medianBlur(img, k | 1)


@step
def denoise_gaussian(img: np.ndarray, k: int = 3) -> np.ndarray:
    """Gaussian blur (use before a threshold, not after)."""
    return cv2.GaussianBlur(img, (k | 1, k | 1), 0)


@step
def denoise_nlmeans(img: np.ndarray, h: float = 15) -> np.ndarray:
    """Non-local means: averages similar patches; strong on grainy backgrounds, slow-ish."""
    return cv2.fastNlMeansDenoising(img, None, h, 7, 21)


def _components(binary: np.ndarray):
    ink = (binary < 128).astype(np.uint8)
    return cv2.connectedComponentsWithStats(ink, connectivity=8)


@step
def remove_dots(img: np.ndarray, max_area: int = 6) -> np.ndarray:
    """Drop ink components of at most ``max_area`` pixels (binary input)."""
    n, lab, stats, _ = _components(img)
    small = np.zeros(n, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] <= max_area
    out = img.copy()
    out[small[lab]] = 255
    return out


@step
def remove_thin_components(img: np.ndarray, max_thickness: float = 2.0, min_length: int = 20) -> np.ndarray:
    """Drop long components whose mean thickness (area / length) is small: stray lines, arcs."""
    n, lab, stats, _ = _components(img)
    drop = np.zeros(n, bool)
    for i in range(1, n):
        length = max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT])
        thick = stats[i, cv2.CC_STAT_AREA] / max(length, 1)
        drop[i] = length >= min_length and thick <= max_thickness
    out = img.copy()
    out[drop[lab]] = 255
    return out


@step
def remove_lines_morph(img: np.ndarray, k: int = 2) -> np.ndarray:
    """Morphological opening of the ink: strokes thinner than ``k`` pixels disappear."""
    ink = 255 - img
    kernel = np.ones((k, k), np.uint8)
    return 255 - cv2.morphologyEx(ink, cv2.MORPH_OPEN, kernel)


@step
def remove_lines_hough(
    img: np.ndarray, min_length: int = 40, thickness: int = 1, threshold: int = 30, max_gap: int = 10
) -> np.ndarray:
    """Erase straight segments found by the probabilistic Hough transform (binary input)."""
    ink = (img < 128).astype(np.uint8) * 255
    lines = cv2.HoughLinesP(ink, 1, np.pi / 180, threshold, minLineLength=min_length, maxLineGap=max_gap)
    out = img.copy()
    if lines is not None:
        for x1, y1, x2, y2 in lines.reshape(-1, 4):
            cv2.line(out, (int(x1), int(y1)), (int(x2), int(y2)), 255, thickness)
    return out


@step
def separate_background(img: np.ndarray, k: int = 3) -> np.ndarray:
    """Cluster colours (k-means); the most common cluster is background, the rest is ink.

    Returns a grayscale image with background pixels set to white, so coloured noise in the
    background colour vanishes while the glyphs keep their own shading.
    """
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)
    _, labels, _ = cv2.kmeans(lab, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    bg = np.bincount(labels, minlength=k).argmax()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).ravel().copy()
    gray[labels == bg] = 255
    return gray.reshape(img.shape[:2])


def validate(steps: list[dict[str, Any]], where: str) -> None:
    """Check step names and parameter names; ``where`` names the file for the error message."""
    import inspect

    for i, spec in enumerate(steps):
        name = spec.get("step") if isinstance(spec, dict) else None
        if name not in STEPS:
            raise UserError(f"{where}: steps[{i}]: unknown step {name!r}; known: {', '.join(STEPS)}")
        params = set(inspect.signature(STEPS[name]).parameters) - {"img"}
        extra = set(spec) - {"step"} - params
        if extra:
            raise UserError(f"{where}: steps[{i}] ({name}): unknown parameter {sorted(extra)[0]!r}")


def run_steps(img: np.ndarray, steps: list[dict[str, Any]]) -> list[tuple[str, np.ndarray]]:
    """Apply steps in order, returning every intermediate image (for ``captcha debug``)."""
    out = []
    for spec in steps:
        params = {k: v for k, v in spec.items() if k != "step"}
        img = STEPS[spec["step"]](img, **params)
        out.append((spec["step"], img))
    return out


def apply(img: np.ndarray, steps: list[dict[str, Any]]) -> np.ndarray:
    """Apply steps in order and return the final image (colour stays colour if no step changed it;
    recognisers convert, so a vote's members can each start from the colour image)."""
    for spec in steps:
        params = {k: v for k, v in spec.items() if k != "step"}
        img = STEPS[spec["step"]](img, **params)
    return img
