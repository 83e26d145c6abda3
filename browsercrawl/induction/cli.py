"""``browsercrawl urls cluster`` and ``browsercrawl wrapper learn|apply``: induction without a crawl.

A stable contract other tools call on saved pages and URL lists:

* ``urls cluster URLS.txt --json``: one URL a line in (blank lines and ``#`` comments skipped);
  out ``{"clusters": [{"id", "host", "segments", "size", "regex", "members"}]}``, largest first.
* ``wrapper learn A.html B.html [MORE.html...] --values V.json --out W.json [--pages DIR]``: V.json
  is a list of objects ``label -> value or [values]``, one per sample; ``--pages`` gives other
  pages of the kind to check paths on (found-rates go to stderr); warnings go to stderr.
* ``wrapper heal W.json FILES... [--out W2.json]``: apply with self-healing; repairs on stderr.
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
    """Learn a wrapper from sample pages, apply it to saved pages, heal it after a redesign."""


def _load_values(path: str, count: int) -> list[dict[str, Any]]:
    try:
        data = json.loads(_read_text(path, "values file"))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, list) or len(data) != count or not all(isinstance(d, dict) for d in data):
        raise UserError(
            f"{path}: expected a list of {count} objects (label -> value), one per sample page"
        )
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
    return data


def _page_files(specs: tuple[str, ...]) -> list[str]:
    """Files named, and the ``*.html``/``*.htm`` files of directories named, sorted."""
    files: list[str] = []
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            files.extend(str(p) for p in sorted(path.iterdir()) if p.suffix.lower() in (".html", ".htm"))
        else:
            files.append(spec)
    return files


@wrapper.command("learn")
@click.argument("samples", nargs=-1, required=True, metavar="A.html B.html [MORE.html...]")
@click.option(
    "--values",
    "values_file",
    required=True,
    metavar="V.json",
    help="A list of objects label -> value or [values], one per sample, in order.",
)
@click.option("--out", "out_file", required=True, metavar="W.json", help="Where to write it.")
@click.option(
    "--pages",
    "page_specs",
    multiple=True,
    metavar="FILE|DIR",
    help="Other pages of the same kind (values unknown) to check the paths on; repeatable.",
)
def learn_cmd(samples: tuple[str, ...], values_file: str, out_file: str, page_specs: tuple[str, ...]) -> None:
    """Learn label -> CSS path rules from sample pages and their values.

    Every extra sample removes paths that only worked by chance; pages given with --pages choose
    between candidate paths, tell lists from single values and give each label's found-rate.
    """
    from browsercrawl.wrappers import learn_wrapper

    if len(samples) < 2:
        raise UserError("wrapper learn needs at least two sample pages")
    values = _load_values(values_file, len(samples))
    html = [_read_text(s, "sample page") for s in samples]
    others = [_read_text(f, "page") for f in _page_files(page_specs)]
    result = learn_wrapper(html, values, list(samples), cluster_pages=others)
    for w in result.warnings:
        click.echo(f"browsercrawl: warning: {w}", err=True)
    if not result.wrapper.rules:
        raise UserError(f"{values_file}: no label could be found on the sample pages")
    try:
        result.wrapper.save(out_file)
    except OSError as exc:
        raise UserError(f"{out_file}: cannot write wrapper ({exc.strerror})") from None
    for label, rep in result.report.items():
        click.echo(
            f"{label}: found on {rep.found_rate:.0%} of {rep.pages} other pages"
            + (f", {rep.kind_rate:.0%} of them a {rep.kind}" if rep.kind else "")
            + (" (list)" if rep.many else ""),
            err=True,
        )
    click.echo(f"{len(result.wrapper.rules)} fields -> {out_file}", err=True)


@wrapper.command("heal")
@click.argument("wrapper_file", metavar="W.json")
@click.argument("files", nargs=-1, required=True, metavar="FILES...")
@click.option("--out", "out_file", metavar="W2.json", help="Write the healed wrapper here (default: W.json).")
def heal_cmd(wrapper_file: str, files: tuple[str, ...], out_file: str | None) -> None:
    """Apply a wrapper to pages whose markup changed, repairing fields its paths lost.

    Prints one JSON line per file (as ``apply``), each repair on stderr, and saves the wrapper
    with the new paths (the old ones kept as alternates) when anything was repaired.
    """
    from browsercrawl.wrappers import Wrapper
    from browsercrawl.wrappers.heal import HealingWrapper

    healer = HealingWrapper(Wrapper.load(wrapper_file))
    for f in files:
        before = len(healer.repairs)
        record: dict[str, Any] = {"file": f}
        record.update(healer.apply(_read_text(f, "page")))
        for repair in healer.repairs[before:]:
            click.echo(f"browsercrawl: {repair.line()} on {f}", err=True)
        click.echo(json.dumps(record, ensure_ascii=False))
    target = out_file or wrapper_file
    if healer.repairs or out_file:
        try:
            healer.wrapper.save(target)
        except OSError as exc:
            raise UserError(f"{target}: cannot write wrapper ({exc.strerror})") from None
    click.echo(f"{len(healer.repairs)} repairs" + (f" -> {target}" if healer.repairs else ""), err=True)


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
