"""``wrapper learn`` with more samples and --pages, ``wrapper heal``: the command-line contract."""

from __future__ import annotations

import json

import pytest

from browsercrawl.cli import main
from scripts.bench.wrapper_sites import TUNING, change_markup, generate_site, sample_values

STYLE = next(s for s in TUNING if s.name == "dl")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture
def site_files(tmp_path):
    site = generate_site(STYLE, 30, 3)
    for i, html in enumerate(site.pages):
        (tmp_path / f"p{i:02d}.html").write_text(html)
    others = tmp_path / "others"
    others.mkdir()
    for i in range(10, 30):
        (others / f"p{i:02d}.html").write_text(site.pages[i])
    return tmp_path, site


def test_learn_from_three_samples_with_other_pages_reports_found_rates(capsys, site_files):
    folder, site = site_files
    values = folder / "v.json"
    values.write_text(json.dumps([sample_values(site.truth[i]) for i in range(3)]))
    out = folder / "w.json"
    samples = [str(folder / f"p0{i}.html") for i in range(3)]
    rc, _, err = run(
        capsys,
        "wrapper",
        "learn",
        *samples,
        "--values",
        str(values),
        "--out",
        str(out),
        "--pages",
        str(folder / "others"),
    )
    assert rc == 0, err
    assert "isbn: found on 100% of 20 other pages, 100% of them a isbn" in err
    assert "authors: found on 100% of 20 other pages" in err and "(list)" in err
    rc, stdout, _ = run(capsys, "wrapper", "apply", str(out), str(folder / "p05.html"))
    assert rc == 0
    got = json.loads(stdout)
    assert {k: v for k, v in got.items() if k != "file"} == site.truth[5]


def test_learn_needs_one_value_object_per_sample(capsys, site_files):
    folder, site = site_files
    values = folder / "v.json"
    values.write_text(json.dumps([sample_values(site.truth[i]) for i in range(2)]))
    samples = [str(folder / f"p0{i}.html") for i in range(3)]
    rc, _, err = run(
        capsys, "wrapper", "learn", *samples, "--values", str(values), "--out", str(folder / "w.json")
    )
    assert rc == 2 and "list of 3 objects" in err and len(err.strip().splitlines()) == 1


def test_heal_repairs_and_saves_the_wrapper(capsys, site_files):
    folder, site = site_files
    values = folder / "v.json"
    values.write_text(json.dumps([sample_values(site.truth[i]) for i in range(2)]))
    wrapper = folder / "w.json"
    rc, _, err = run(
        capsys,
        "wrapper",
        "learn",
        str(folder / "p00.html"),
        str(folder / "p01.html"),
        "--values",
        str(values),
        "--out",
        str(wrapper),
        "--pages",
        str(folder / "others"),
    )
    assert rc == 0, err
    changed = []
    for i in (20, 21):
        path = folder / f"new{i}.html"
        path.write_text(change_markup(site.pages[i], "classes_renamed"))
        changed.append(str(path))
    healed = folder / "w2.json"
    rc, stdout, err = run(capsys, "wrapper", "heal", str(wrapper), *changed, "--out", str(healed))
    assert rc == 0
    assert "healed 'authors'" in err
    records = [json.loads(x) for x in stdout.splitlines()]
    assert records[1]["authors"] == site.truth[21]["authors"]
    data = json.loads(healed.read_text())["fields"]["authors#text[]"]
    assert data["alternates"] and data["css"] not in data["alternates"]
