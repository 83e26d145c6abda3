"""``browsercrawl demo``'s focused crawl: five sites, three examples, half the pages, scored against truth."""

from __future__ import annotations

from browsercrawl_demo.focus_demo import report_rows, run_focus


def test_demo_focused_crawl_scores_against_the_truth(tmp_path) -> None:
    lines: list[str] = []
    report = run_focus(tmp_path, lines.append)
    assert (tmp_path / "focus.toml").is_file() and (tmp_path / "focus-bfs.toml").is_file()
    assert report["pages"] <= report["budget"] + 20
    assert report["targets_found"] >= 0.6 * report["targets_existing"]
    assert report["targets_found"] >= 1.5 * report["bfs_targets_found"]
    assert report["labelled_right"] >= 0.9 * report["labelled"] > 0
    assert report["held_out_found"] > 0 and report["rounds"] >= 1
    rows = dict(report_rows({"focus": report}))
    precision = rows["pages labelled target that are (precision)"]
    assert precision == f"{report['labelled_right']} / {report['labelled']}"
    assert lines and "focused crawl of five sites" in lines[0]
