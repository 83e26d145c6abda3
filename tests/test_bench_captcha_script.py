"""scripts/bench_captcha.py's table: each no-label column judged against ddddocr on its own line,
so a model trained on its own answers is never counted as zero-shot."""

from __future__ import annotations

import argparse

from scripts import bench_captcha


def score(exact: float, **extra) -> dict:
    return {"exact": exact, "per_char": 0.99, "ms": 7.0, **extra}


def run(exact: float) -> dict:
    return score(exact, wall_s=150.0, load="1.0-2.0", steps=600, stopped_by="early-stop")


def table(capsys, row: dict) -> str:
    args = argparse.Namespace(train=500, extra_unlabelled=2000, load=10, self_label=100)
    bench_captcha.print_tables({"wave": {"facts": {"case": "lower"}, "view": "close_hairlines", "curve": {},
                                         **row}}, args, True)
    return capsys.readouterr().out


def test_self_trained_is_judged_apart_from_zero_shot(capsys) -> None:
    out = table(capsys, {"ddddocr": score(0.95), "base": score(0.82), "fitted": score(0.845),
                         "self_trained": run(0.97)})
    line = next(s for s in out.splitlines() if s.startswith("| wave |"))
    assert "zero-shot < ddddocr" in line and "no labels, self-trained >= ddddocr" in line
    assert "| 97.0% (600 steps, early-stop, 150 s, load 1.0-2.0) |" in line
    assert "self-trained on 2500 unlabelled" in out.splitlines()[0]


def test_without_a_self_trained_run_its_column_is_empty(capsys) -> None:
    out = table(capsys, {"ddddocr": score(0.90), "base": score(0.92), "fitted": score(0.91)})
    line = next(s for s in out.splitlines() if s.startswith("| wave |"))
    assert "zero-shot >= ddddocr" in line and "self-trained" not in line
    assert line.count("|") == out.splitlines()[1].count("|")


def test_a_target_met_exactly_counts_as_met(capsys) -> None:
    """ddddocr at 76.5 % makes the target 96.5 %: 193 of 200 right meets it, and it prints as 96.5 %,
    not rounded up to a 97 % it was never held to."""
    out = table(capsys, {"ddddocr": score(153 / 200), "base": score(0.78), "fitted": score(0.78),
                         "trained": run(193 / 200), "extra": run(192 / 200)})
    line = next(s for s in out.splitlines() if s.startswith("| wave |"))
    assert "trained >= 96.5%" in line and "extra < 96.5%" in line


def test_a_style_whose_font_is_missing_is_named_with_the_package_to_install(monkeypatch) -> None:
    """Without its font a style falls back to Pillow's own and would measure another style."""
    from scripts.bench import captcha_styles as styles

    assert all(name in styles.FONT_PACKAGES for name in styles.FONT_FILES)
    monkeypatch.setitem(styles.FONT_FILES, "ticket", "/nonexistent/B612-Bold.otf")
    assert styles.missing_font("ticket") == ("style ticket draws with /nonexistent/B612-Bold.otf, which is "
                                             "missing: apt-get install fonts-b612")
    assert styles.missing_font("demo") is None  # not drawn with a system font
