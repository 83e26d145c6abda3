"""The command-line contract: urls cluster, wrapper learn, wrapper apply, and their errors."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from browsercrawl.cli import main
from browsercrawl.induction.urlmodel import parse_url

FIX = Path(__file__).parent / "fixtures" / "induction"
W = FIX / "wrapper"
EXE = str(Path(__file__).parent.parent / ".venv" / "bin" / "browsercrawl")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture
def urls_txt(tmp_path) -> Path:
    lines = [
        line.split("\t")[1]
        for line in (FIX / "urls" / "news.tsv").read_text().splitlines()
        if not line.startswith("#")
    ]
    path = tmp_path / "urls.txt"
    path.write_text("# news site\n\n" + "\n".join(lines) + "\n")
    return path


def test_urls_cluster_json(capsys, urls_txt):
    rc, out, _ = run(capsys, "urls", "cluster", str(urls_txt), "--json")
    assert rc == 0
    clusters = json.loads(out)["clusters"]
    distinct = {parse_url(u).url for u in urls_txt.read_text().split() if u.startswith("http")}
    assert sum(c["size"] for c in clusters) == len(distinct)  # duplicates counted once
    assert [c["id"] for c in clusters] == list(range(len(clusters)))
    for c in clusters:
        assert c["size"] == len(c["members"])
        assert all(re.match(c["regex"], u) for u in c["members"])
    assert clusters[0]["segments"] == 5 and clusters[0]["size"] == 160  # the articles


def test_urls_cluster_text_report_through_the_installed_command(urls_txt):
    proc = subprocess.run([EXE, "urls", "cluster", str(urls_txt)], capture_output=True, text=True)
    assert proc.returncode == 0
    assert proc.stdout.startswith("276 URLs, 7 clusters")


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "URL list not found"), ("", "no URLs"), ("http://a.com/x\nnot a url\n", "line 2")],
)
def test_urls_cluster_bad_input(capsys, tmp_path, content, message):
    path = tmp_path / "u.txt"
    if content is not None:
        path.write_text(content)
    rc, _, err = run(capsys, "urls", "cluster", str(path), "--json")
    assert rc == 2
    assert err.startswith("browsercrawl: error: ") and message in err and str(path) in err
    assert len(err.strip().splitlines()) == 1


def test_wrapper_learn_then_apply(capsys, tmp_path):
    out = tmp_path / "w.json"
    rc, _, err = run(
        capsys,
        "wrapper",
        "learn",
        str(W / "recipe_a.html"),
        str(W / "recipe_b.html"),
        "--values",
        str(W / "values.json"),
        "--out",
        str(out),
    )
    assert rc == 0 and "warning" not in err
    assert json.loads(out.read_text())["format"] == "browsercrawl-wrapper/1"
    rc, stdout, _ = run(
        capsys, "wrapper", "apply", str(out), str(W / "recipe_c.html"), str(W / "recipe_a.html"), "--jsonl"
    )
    assert rc == 0
    lines = [json.loads(x) for x in stdout.splitlines()]
    assert [x["file"] for x in lines] == [str(W / "recipe_c.html"), str(W / "recipe_a.html")]
    expected = json.loads((W / "expected_c.json").read_text())
    assert {k: v for k, v in lines[0].items() if k != "file"} == expected


def test_wrapper_learn_warns_about_a_value_not_on_the_page(capsys, tmp_path):
    values = json.loads((W / "values.json").read_text())
    values[1]["title"] = "Not On This Page"
    vpath = tmp_path / "v.json"
    vpath.write_text(json.dumps(values))
    rc, _, err = run(
        capsys,
        "wrapper",
        "learn",
        str(W / "recipe_a.html"),
        str(W / "recipe_b.html"),
        "--values",
        str(vpath),
        "--out",
        str(tmp_path / "w.json"),
    )
    assert rc == 0
    assert "warning: label 'title'" in err and "recipe_b.html" in err


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (None, "values file not found"),
        ("{not json", "not JSON"),
        ('{"title": "x"}', "list of 2 objects"),
        ('[{"title": "x"}]', "list of 2 objects"),
        ('[{"title": {"a": 1}}, {}]', "[0].title"),
        ('[{"ghost": "zzz"}, {"ghost": "yyy"}]', "no label could be found"),
    ],
)
def test_wrapper_learn_bad_values(capsys, tmp_path, values, message):
    vpath = tmp_path / "v.json"
    if values is not None:
        vpath.write_text(values)
    rc, _, err = run(
        capsys,
        "wrapper",
        "learn",
        str(W / "recipe_a.html"),
        str(W / "recipe_b.html"),
        "--values",
        str(vpath),
        "--out",
        str(tmp_path / "w.json"),
    )
    assert rc == 2 and message in err and str(vpath) in err
    assert not (tmp_path / "w.json").exists()


def test_wrapper_learn_missing_sample(capsys, tmp_path):
    rc, _, err = run(
        capsys,
        "wrapper",
        "learn",
        str(tmp_path / "nope.html"),
        str(W / "recipe_b.html"),
        "--values",
        str(W / "values.json"),
        "--out",
        str(tmp_path / "w.json"),
    )
    assert rc == 2 and "nope.html: sample page not found" in err


@pytest.mark.parametrize(
    ("wrapper", "message"),
    [("[1, 2]", '"fields" object'), ('{"fields": {"t#text": "h1[["}}', "bad CSS path"), ("nope", "not JSON")],
)
def test_wrapper_apply_bad_wrapper(capsys, tmp_path, wrapper, message):
    wpath = tmp_path / "w.json"
    wpath.write_text(wrapper)
    rc, _, err = run(capsys, "wrapper", "apply", str(wpath), str(W / "recipe_c.html"), "--jsonl")
    assert rc == 2 and message in err and str(wpath) in err


def test_wrapper_apply_missing_page(capsys, tmp_path):
    wpath = tmp_path / "w.json"
    wpath.write_text('{"fields": {"t#text": "h1"}}')
    missing = tmp_path / "gone.html"
    rc, _, err = run(capsys, "wrapper", "apply", str(wpath), str(missing), "--jsonl")
    assert rc == 2 and f"{missing}: page not found" in err


def test_commands_are_listed():
    assert shutil.which(EXE) or Path(EXE).exists()
    proc = subprocess.run([EXE, "--help"], capture_output=True, text=True)
    assert "urls" in proc.stdout and "wrapper" in proc.stdout


@pytest.mark.parametrize("width", [60, 80, 200])
def test_the_command_list_says_what_each_command_says_of_itself(width):
    """``browsercrawl --help`` lists the built-in commands from the table in cli.py without importing
    them; the lines must be the ones the commands' own help would give."""
    import importlib

    import click

    from browsercrawl.cli import _SUBCOMMANDS, cli

    with click.Context(cli) as ctx:
        limit = width - 6 - max(len(n) for n in cli.list_commands(ctx))
    for name in sorted(_SUBCOMMANDS):
        module, attr = _SUBCOMMANDS[name][0].split(":")
        command = getattr(importlib.import_module(module), attr)
        formatter = click.HelpFormatter(width=width)
        with click.Context(cli) as ctx:
            cli.format_commands(ctx, formatter)
        line = next(r for r in formatter.getvalue().splitlines() if r.split()[:1] == [name])
        assert " ".join(line.split()[1:]) == " ".join(command.get_short_help_str(limit).split()), name
