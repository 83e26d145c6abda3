"""``browsercrawl urls cluster`` and ``browsercrawl wrapper learn|apply``: induction without a crawl.

A stable contract other tools call on saved pages and URL lists:

* ``urls cluster URLS.txt --json``: one URL a line in (blank lines and ``#`` comments skipped);
  out ``{"clusters": [{"id", "host", "segments", "size", "regex", "members"}]}``, largest first.
* ``wrapper learn A.html B.html --values V.json --out W.json``: V.json is a list of two objects
  ``label -> value or [values]``, one per sample; warnings (a value not found) go to stderr.
* ``wrapper apply W.json FILES... --jsonl``: one line per file, ``{"file": ..., label: value}``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from browsercrawl.errors import UserError


def _read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise UserError(f"{path}: {what} not found") from None
    except IsADirectoryError:
        raise UserError(f"{path}: {what} is a directory, not a file") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read {what} ({exc.strerror})") from None


@click.group()
def urls() -> None:
    """Cluster URLs into classes and write a regex for each class."""


@urls.command("cluster")
@click.argument("urls_file", metavar="URLS.txt")
@click.option("--json", "as_json", is_flag=True, help="Write JSON (default: a short text report).")
@click.option("--examples", default=3, show_default=True, help="Example URLs per cluster in text.")
def cluster_cmd(urls_file: str, as_json: bool, examples: int) -> None:
    """Cluster the URLs of URLS.txt (one a line; '-' reads stdin)."""
    from browsercrawl.induction.clustering import cluster_parsed
    from browsercrawl.induction.regex import assign_regexes
    from browsercrawl.induction.urlmodel import parse_url

    text = sys.stdin.read() if urls_file == "-" else _read_text(urls_file, "URL list")
    parsed = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            parsed.append(parse_url(line))
        except UserError as exc:
            raise UserError(f"{urls_file}, line {n}: {exc}") from None
    if not parsed:
        raise UserError(f"{urls_file}: no URLs in the file")
    clusters = cluster_parsed(parsed)
    assign_regexes(clusters)
    if as_json:
        out = {
            "clusters": [
                {
                    "id": c.id,
                    "host": c.host,
                    "segments": c.m,
                    "size": c.size,
                    "regex": c.regex,
                    "members": c.urls(),
                }
                for c in clusters
            ]
        }
        click.echo(json.dumps(out, indent=1, ensure_ascii=False))
        return
    click.echo(f"{len(parsed)} URLs, {len(clusters)} clusters")
    for c in clusters:
        click.echo(f"#{c.id}  {c.size} URLs  {c.regex}")
        for u in c.urls()[:examples]:
            click.echo(f"    {u}")


@click.group()
def wrapper() -> None:
    """Learn a wrapper from two sample pages and apply it to saved pages."""


def _load_values(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        data = json.loads(_read_text(path, "values file"))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, list) or len(data) != 2 or not all(isinstance(d, dict) for d in data):
        raise UserError(f"{path}: expected a list of two objects (label -> value), one per sample")
    for i, d in enumerate(data):
        for label, value in d.items():
            ok = (
                value is None
                or isinstance(value, str | int | float)
                or (isinstance(value, list) and all(isinstance(v, str | int | float) for v in value))
            )
            if not ok or "#" in label:
                raise UserError(
                    f"{path}: [{i}].{label}: a label (without '#') needs a value or a list of values"
                )
    return data[0], data[1]


@wrapper.command("learn")
@click.argument("sample_a", metavar="A.html")
@click.argument("sample_b", metavar="B.html")
@click.option(
    "--values",
    "values_file",
    required=True,
    metavar="V.json",
    help="A list of two objects label -> value or [values], one per sample.",
)
@click.option("--out", "out_file", required=True, metavar="W.json", help="Where to write it.")
def learn_cmd(sample_a: str, sample_b: str, values_file: str, out_file: str) -> None:
    """Learn label -> CSS path rules from two sample pages and their values."""
    from browsercrawl.wrappers import learn_wrapper

    values = _load_values(values_file)
    html = (_read_text(sample_a, "sample page"), _read_text(sample_b, "sample page"))
    result = learn_wrapper(html, values, (sample_a, sample_b))
    for w in result.warnings:
        click.echo(f"browsercrawl: warning: {w}", err=True)
    if not result.wrapper.rules:
        raise UserError(f"{values_file}: no label could be found on the sample pages")
    try:
        result.wrapper.save(out_file)
    except OSError as exc:
        raise UserError(f"{out_file}: cannot write wrapper ({exc.strerror})") from None
    click.echo(f"{len(result.wrapper.rules)} fields -> {out_file}", err=True)


@wrapper.command("apply")
@click.argument("wrapper_file", metavar="W.json")
@click.argument("files", nargs=-1, required=True, metavar="FILES...")
@click.option("--jsonl", is_flag=True, help="One JSON object a line (the default and only format).")
def apply_cmd(wrapper_file: str, files: tuple[str, ...], jsonl: bool) -> None:
    """Extract the wrapper's labels from saved pages: one JSON line per file."""
    from browsercrawl.wrappers import Wrapper

    w = Wrapper.load(wrapper_file)
    for f in files:
        record: dict[str, Any] = {"file": f}
        record.update(w.apply(_read_text(f, "page")))
        click.echo(json.dumps(record, ensure_ascii=False))
