"""The synthetic CAPTCHA generator that the base recogniser is pretrained on."""

from __future__ import annotations

import random

import numpy as np

from browsercrawl.captcha import synth

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def test_a_real_font_draws_the_whole_base_charset() -> None:
    assert synth.usable_chars(DEJAVU) == synth.BASE_CHARSET


def test_missing_glyphs_and_unreadable_files_are_left_out(tmp_path) -> None:
    assert synth.usable_chars(DEJAVU, "AB\u0fff") == "AB"  # Tibetan: not in DejaVu Sans
    junk = tmp_path / "junk.ttf"
    junk.write_bytes(b"not a font")
    assert synth.usable_chars(str(junk)) == ""


def test_fonts_in_skips_the_benchmark_font_and_junk(tmp_path) -> None:
    import shutil

    from captcha.image import DEFAULT_FONTS  # the captcha package's DroidSansMono

    shutil.copy(DEJAVU, tmp_path / "Good.ttf")
    shutil.copy(DEFAULT_FONTS[0], tmp_path / "DroidSansMono.ttf")
    (tmp_path / "bad.otf").write_bytes(b"nope")
    (tmp_path / "notes.txt").write_text("not a font")
    found = synth.fonts_in((str(tmp_path),))
    assert [f.path.rsplit("/", 1)[1] for f in found] == ["Good.ttf"]


def test_same_seed_same_image_and_labels_fit_the_font() -> None:
    font = synth.Font(DEJAVU, "ABC123")
    a = [synth.sample([font], random.Random(5)) for _ in range(3)]
    b = [synth.sample([font], random.Random(5)) for _ in range(3)]
    for (ia, ta), (ib, tb) in zip(a, b, strict=True):
        assert ta == tb and np.array_equal(ia, ib)
        assert set(ta) <= set("ABC123") and 3 <= len(ta) <= 8
        assert ia.ndim == 3 and ia.shape[2] == 3 and 30 <= ia.shape[0] <= 80
        assert 1.5 <= ia.shape[1] / ia.shape[0] <= 6.6


def test_images_carry_the_text() -> None:
    """Ink is present where the glyphs were drawn: a rendered image differs from its background."""
    rng = random.Random(1)
    font = synth.Font(DEJAVU, synth.BASE_CHARSET)
    for _ in range(20):
        img = synth.render("W4TER", font, rng)
        assert img.std() > 8



def test_an_image_of_hollow_look_draws_every_glyph_as_an_outline() -> None:
    """A site draws all its glyphs one way: with the image's look 'hollow', no glyph comes out
    filled (glyph by glyph, most would), and such images are a share of the family."""
    font = synth._truetype(DEJAVU, 40)
    def ink(tile) -> int:  # opaque pixels of the glyph's colour (a hollow inside may be opaque too)
        arr = np.asarray(tile).astype(int)
        return int(((arr[:, :, 3] > 128) & (arr[:, :, :3].sum(axis=2) < 150)).sum())

    filled = ink(synth._tile("H", font, (0, 0, 0), random.Random(0), "bold"))
    for seed in range(30):
        assert ink(synth._tile("H", font, (0, 0, 0), random.Random(seed), "hollow")) < 0.8 * filled
    looks = [synth._look(random.Random(seed)) for seed in range(2000)]
    assert 0.06 < looks.count("hollow") / len(looks) < 0.2
    assert looks.count(None) > len(looks) / 2


def test_benchmark_styles_stay_out_of_the_pretraining_family(tmp_path) -> None:
    """The held-out styles differ from the base's training family by code and by font: the
    synthetic generator never imports them, and their font files can be excluded by name."""
    import ast
    import inspect
    import shutil

    from scripts.bench import captcha_styles

    tree = ast.parse(inspect.getsource(synth))
    imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not any("bench" in m or "demo" in m or m == "captcha" for m in imported), imported
    shutil.copy(DEJAVU, tmp_path / "DejaVuSans-Bold.ttf")
    shutil.copy(DEJAVU, tmp_path / "Other.ttf")
    found = synth.fonts_in((str(tmp_path),), exclude=captcha_styles.held_out_font_files())
    assert [f.path.rsplit("/", 1)[1] for f in found] == ["Other.ttf"]


def test_a_held_out_family_is_left_out_whole(tmp_path, monkeypatch) -> None:
    """The styles written after the base of 2026-11-24 keep every weight of their font family out
    of pretraining, not only the file they draw with."""
    import shutil

    from scripts.bench import captcha_styles

    family = tmp_path / "family"
    family.mkdir()
    for name in ("Fam-Bold.otf", "Fam-Regular.otf", "Fam-Italic.ttf"):
        shutil.copy(DEJAVU, family / name)
    shutil.copy(DEJAVU, tmp_path / "Other.ttf")
    style = captcha_styles.HELD_OUT_FAMILIES[0]
    monkeypatch.setitem(captcha_styles.FONT_FILES, style, str(family / "Fam-Bold.otf"))
    found = synth.fonts_in((str(tmp_path),), exclude=captcha_styles.held_out_font_files())
    assert [f.path.rsplit("/", 1)[1] for f in found] == ["Other.ttf"]


def test_the_captcha_package_imports_neither_demo_nor_tests_nor_scripts() -> None:
    import ast
    from pathlib import Path

    root = Path(synth.__file__).parent
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        bad = [m for m in names if m.startswith(("browsercrawl_demo", "tests", "scripts"))]
        assert not bad, (path.name, bad)
