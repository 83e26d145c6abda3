"""Each preprocessing, segmentation and normalisation stage on small images with known outcomes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from browsercrawl.captcha import preprocess as pp
from browsercrawl.captcha import segment as sg
from browsercrawl.errors import UserError


def blank(h: int = 40, w: int = 100, v: int = 255) -> np.ndarray:
    return np.full((h, w), v, np.uint8)


def with_blocks(blocks: list[tuple[int, int, int, int]], h: int = 40, w: int = 100) -> np.ndarray:
    img = blank(h, w)
    for x0, y0, x1, y1 in blocks:
        img[y0:y1, x0:x1] = 0
    return img


def test_grayscale_makes_ink_dark_on_light() -> None:
    bgr = np.zeros((20, 30, 3), np.uint8)  # light-on-dark: white glyph on black
    bgr[5:15, 10:20] = 255
    g = pp.grayscale(bgr)
    assert g.ndim == 2 and g[0, 0] == 255 and g[10, 15] == 0


def test_contrast_stretches_a_dull_image() -> None:
    img = np.tile(np.linspace(100, 140, 64).astype(np.uint8), (16, 1))
    out = pp.contrast(img)
    assert int(out.max()) - int(out.min()) > 150


def test_sharpen_increases_edge_step() -> None:
    img = blank(20, 40, 200)
    img[:, 20:] = 60
    img = cv2.GaussianBlur(img, (5, 5), 0)
    out = pp.sharpen(img, amount=1.5)
    assert np.abs(np.diff(out[10].astype(int))).max() > np.abs(np.diff(img[10].astype(int))).max()


@pytest.mark.parametrize("fn", [pp.binarise_otsu, pp.binarise_adaptive, pp.binarise_sauvola])
def test_binarisers_separate_text_from_background(fn) -> None:
    img = blank(40, 100, 200)
    img[10:30, 20:30] = 40
    img[10:30, 60:70] = 60
    out = fn(img)
    assert set(np.unique(out)) <= {0, 255}
    assert out[20, 25] == 0 and out[20, 65] == 0 and out[2, 2] == 255 and out[20, 45] == 255


def test_sauvola_copes_with_a_lighting_gradient() -> None:
    grad = np.tile(np.linspace(90, 250, 120), (40, 1)).astype(np.uint8)
    img = grad.copy()
    img[15:25, 10:14] = 20  # ink on the dark side
    img[15:25, 100:104] = 170  # ink on the bright side, lighter than the dark background
    out = pp.binarise_sauvola(img, window=15, k=0.2)
    assert out[20, 12] == 0 and out[20, 102] == 0
    assert out[5, 60] == 255


def test_median_removes_salt_noise() -> None:
    rng = np.random.default_rng(0)
    img = blank(40, 60, 230)
    ys, xs = rng.integers(0, 40, 40), rng.integers(0, 60, 40)
    img[ys, xs] = 0
    out = pp.denoise_median(img)
    assert (out < 128).sum() < 0.2 * (img < 128).sum()


def test_nlmeans_reduces_grain_and_keeps_the_edge() -> None:
    rng = np.random.default_rng(0)
    clean = blank(40, 60, 200)
    clean[:, 30:] = 50
    noisy = np.clip(clean + rng.normal(0, 20, clean.shape), 0, 255).astype(np.uint8)
    out = pp.denoise_nlmeans(noisy, h=25)
    assert np.abs(out.astype(int) - clean).mean() < 0.5 * np.abs(noisy.astype(int) - clean).mean()
    assert out[20, 10] > 150 and out[20, 50] < 100


def test_gaussian_denoise_smooths() -> None:
    img = blank(20, 20)
    img[10, 10] = 0
    assert pp.denoise_gaussian(img, 3)[10, 10] > 100


def test_remove_dots_keeps_big_components() -> None:
    img = with_blocks([(10, 10, 30, 30), (50, 5, 52, 7)])
    out = pp.remove_dots(img, max_area=6)
    assert out[20, 20] == 0 and out[6, 51] == 255


def test_remove_thin_components_drops_a_line_keeps_a_glyph() -> None:
    img = with_blocks([(10, 10, 25, 30)], w=120)
    cv2.line(img, (40, 5), (115, 35), 0, 1)
    out = pp.remove_thin_components(img, max_thickness=2, min_length=20)
    assert out[20, 15] == 0
    assert (out[:, 40:] < 128).sum() == 0


def test_remove_lines_morph_opens_thin_strokes() -> None:
    img = with_blocks([(10, 10, 25, 30)], w=120)
    img[20, :] = 0  # a one-pixel line through the glyph
    out = pp.remove_lines_morph(img, k=3)
    assert out[20, 100] == 255 and out[15, 17] == 0


def test_remove_lines_hough_erases_a_long_straight_line() -> None:
    img = with_blocks([(10, 5, 14, 35)], w=160)
    cv2.line(img, (20, 30), (150, 8), 0, 1)
    out = pp.remove_lines_hough(img, min_length=60, thickness=3)
    assert (out[:, 30:] < 128).sum() < 10 and out[20, 12] == 0


def test_separate_background_whitens_background_colour_only() -> None:
    bgr = np.zeros((30, 60, 3), np.uint8)
    bgr[:] = (200, 230, 210)  # tinted background
    bgr[10:20, 10:20] = (30, 30, 150)  # red glyph
    bgr[10:20, 40:50] = (120, 20, 20)  # blue glyph
    out = pp.separate_background(bgr, k=3)
    assert out[0, 0] == 255 and out[15, 15] < 128 and out[15, 45] < 128


def test_max_channel_keeps_ink_dark_in_every_channel_and_fades_vivid_noise() -> None:
    bgr = np.zeros((30, 80, 3), np.uint8)
    bgr[:] = (190, 210, 200)  # pale field
    bgr[10:20, 10:20] = (40, 140, 30)  # a green glyph, dark in every channel but green
    bgr[10:20, 40:50] = (230, 30, 20)  # a vivid blue speck: darker than the glyph in luminance
    out = pp.max_channel(bgr)
    assert out.shape == (30, 80) and out.flags.c_contiguous
    assert out[15, 15] < 150 < out[15, 45] and out[0, 0] > 200
    assert pp.grayscale(bgr)[15, 45] < pp.grayscale(bgr)[15, 15]  # why the view exists
    gray = blank(10, 10, 90)
    assert (pp.max_channel(gray) == pp.grayscale(gray)).all()  # as luminance: ink made dark


def test_saturation_darkens_vivid_glyphs_of_any_lightness_and_drops_specks() -> None:
    bgr = np.zeros((30, 80, 3), np.uint8)
    bgr[:] = (200, 205, 195)  # near-grey background
    bgr[10:20, 10:20] = (0, 230, 240)  # a yellow glyph: as light as the background in luminance
    bgr[10:20, 40:50] = (150, 20, 20)  # a dark blue glyph
    bgr[5, 70] = (0, 0, 255)  # a one-pixel red speck
    out = pp.saturation(bgr)
    assert out.shape == (30, 80)
    assert out[15, 15] < 80 and out[15, 45] < 80 and out[0, 0] > 200
    assert out[5, 70] > 200  # the median drops it
    assert pp.grayscale(bgr)[15, 15] > 150  # why the view exists: luminance keeps yellow light
    gray = blank(10, 10, 90)
    assert pp.saturation(gray) is gray


def test_scale_and_pad_sizes() -> None:
    img = blank(10, 20)
    assert pp.scale(img, 2.0).shape == (20, 40)
    assert pp.pad(img, 5).shape == (20, 30)


def test_run_steps_returns_every_stage_and_validate_rejects_unknowns() -> None:
    steps = [{"step": "grayscale"}, {"step": "binarise_otsu"}, {"step": "pad", "px": 2}]
    stages = pp.run_steps(np.dstack([with_blocks([(5, 5, 9, 9)])] * 3), steps)
    assert [n for n, _ in stages] == ["grayscale", "binarise_otsu", "pad"]
    assert stages[-1][1].shape == (44, 104)
    with pytest.raises(UserError, match=r"p\.json: steps\[0\]: unknown step 'blur'"):
        pp.validate([{"step": "blur"}], "p.json")
    with pytest.raises(UserError, match="unknown parameter 'size'"):
        pp.validate([{"step": "pad", "size": 3}], "p.json")


def test_decode_image_rejects_garbage() -> None:
    with pytest.raises(UserError, match="not a readable image"):
        pp.decode_image(b"not an image at all")


# --- segmentation ---------------------------------------------------------------------------

def test_projection_finds_separate_glyphs_and_trims_rows() -> None:
    img = with_blocks([(5, 10, 15, 30), (30, 5, 38, 25), (60, 12, 75, 35)])
    assert sg.by_projection(img) == [(5, 10, 15, 30), (30, 5, 38, 25), (60, 12, 75, 35)]


def test_components_merge_a_dot_above_its_stem() -> None:
    img = with_blocks([(10, 15, 14, 35), (10, 8, 14, 12), (40, 10, 50, 35)])  # an "i" and a block
    boxes = sg.by_components(img, min_area=4)
    assert boxes == [(10, 8, 14, 35), (40, 10, 50, 35)]


def test_touching_characters_split_by_expected_width() -> None:
    img = with_blocks([(10, 10, 30, 30), (30, 18, 31, 20), (31, 10, 51, 30), (70, 10, 90, 30)])
    boxes = sg.fit_count(img, sg.by_components(img), expected=3)
    assert len(boxes) == 3
    assert abs(boxes[0][2] - 30) <= 2 and boxes[2][0] == 70


def test_fit_count_drops_specks_and_merges_when_too_many() -> None:
    img = with_blocks([(10, 10, 20, 30), (22, 10, 26, 30), (50, 10, 60, 30), (80, 5, 81, 6)])
    boxes = sg.fit_count(img, sg.by_projection(img), expected=2)
    assert boxes == [(10, 10, 26, 30), (50, 10, 60, 30)]


def test_deskew_turns_a_slanted_bar_upright() -> None:
    img = blank(60, 60)
    cv2.line(img, (20, 50), (36, 10), 0, 3)  # about 22 degrees off vertical
    out = sg.deskew(img, max_angle=30, step=2)
    assert out.shape[1] < 10 < out.shape[0]


def test_thinning_gives_one_pixel_strokes() -> None:
    img = with_blocks([(20, 5, 27, 35)], h=40, w=50)
    out = sg.thin(img)
    rows = (out[10:30] < 128).sum(axis=1)
    assert rows.max() <= 2 and rows.min() >= 1


def test_fixed_size_keeps_aspect() -> None:
    img = with_blocks([(0, 0, 5, 20)], h=20, w=5)
    out = sg.fixed_size(img, 24)
    assert out.shape == (24, 24)
    cols = np.flatnonzero((out < 128).any(axis=0))
    assert cols.size < 12 and cols.min() > 4


def test_close_hairlines_drops_a_one_pixel_hatch_and_keeps_strokes() -> None:
    img = blank(40, 60)
    img[:, ::4] = 0  # a hatch of 1-px vertical lines
    img[10:30, 20:26] = 0  # a stroke 6 px wide
    out = pp.close_hairlines(img)
    assert out.shape == img.shape and (out[5, 2:-2] == 255).all()  # the hatch is gone (inside)
    assert (out[12:28, 21:25] == 0).all()  # the stroke stays
    bgr = cv2.cvtColor(255 - img, cv2.COLOR_GRAY2BGR)  # the same light-on-dark: ink made dark first
    assert (pp.close_hairlines(bgr) == out).all()
