"""Writing what ``discover`` found as a job file: the given job's session and browser settings, the
person page as seed, and a commented ``[social]`` section that runs without edits.

TOML writers drop comments, so the file is written as text; every value goes through
:func:`toml_value` and the result is validated with the job loader before it is saved.
"""

from __future__ import annotations

import json
import re
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from browsercrawl.config.job import parse_job
from browsercrawl.discover.lists import FoundList
from browsercrawl.discover.run import Findings
from browsercrawl.errors import UserError

# Sections of the given job carried into the written one: how to log in and how to render.
# The rest (another crawl's scope, output, parts) would change what the social crawl does.
KEEP_TABLES = ("session", "browser", "rendering", "politeness", "distributed")
_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")


def toml_value(value: Any) -> str:
    """A TOML literal for a str / int / float / bool / list / dict (inline table)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        if "'" not in value and "\n" not in value and "\\" in value:
            return f"'{value}'"  # regexes read best as literal strings
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML literal for {type(value).__name__}")


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def kept_sections(text: str) -> str:
    """The tables of a job file's text that the written job keeps (see ``KEEP_TABLES``), as written."""
    out: list[str] = []
    keep = False
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            name = m.group(1).strip().strip("\"'").split(".")[0]
            keep = name in KEEP_TABLES
        if keep:
            out.append(line)
    return "\n".join(out).strip()


def _source_lines(lst: FoundList) -> list[str]:
    lines = [f"kind = {toml_value(lst.kind)}"] if lst.role == "relation" else []
    lines.append(f"source = {toml_value(lst.source)}")
    if lst.source == "dom":
        for key in ("tab", "more", "scroll"):
            if getattr(lst, key):
                lines.append(f"{key} = {toml_value(getattr(lst, key))}")
        lines.append(f"entries = {toml_value(lst.entries_css)}")
        lines.append(f"fields = {toml_value(lst.fields)}")
        return lines
    if lst.source == "json_api":
        lines.append(f"url = {toml_value(lst.url)}")
        if lst.first_page != 1:
            lines.append(f"first_page = {lst.first_page}")
    else:
        lines.append(f"script = {toml_value(lst.script)}")
    lines.append(f"list_path = {toml_value(lst.list_path)}")
    if lst.next_path:
        lines.append(f"next_path = {toml_value(lst.next_path)}")
    if lst.max_pages:
        lines.append(f"max_pages = {lst.max_pages}")
    lines.append(f"fields = {toml_value(lst.fields)}")
    return lines


def _list_comment(lst: FoundList) -> list[str]:
    seen = lst.requests[0] if lst.requests else ""
    more = f" (+{len(lst.requests) - 1} more pages seen)" if len(lst.requests) > 1 else ""
    what = "people" if lst.role == "relation" else "items"
    if lst.source == "dom":
        where = f"behind the control {lst.words!r}"
    else:
        where = "at " + (lst.list_path or "(the document)")
    lines = [f"# seen: {seen}{more}", f"#   {lst.entries} {what} {where}"
             + (f", e.g. {lst.example}" if lst.example else "")]
    if lst.role == "relation":
        lines.append(f"#   kind from the words: {lst.words[:100]}")
    if lst.source == "embedded_json":
        lines.append("#   embedded lists are often only the first entries; no endpoint gives this kind")
    lines.extend(f"#   note: {n}" for n in lst.notes)
    return lines


def social_section(f: Findings) -> str:
    """The commented ``[social]`` section for ``f``."""
    shape = f.shape
    lines = [
        "[social]",
        f"# person pages: {f.person_url} -> id {f.person_id!r}",
        f"person_url = {toml_value(shape.regex())}",
        f"person_template = {toml_value(shape.template())}",
        'follow_links = "none"             # the relation lists are the crawl order',
    ]
    if f.fields.fields or f.key_fields:
        lines += ["", "[social.fields]"]
        for label, where in f.key_fields.items():
            lines.append(f"{_key(label)} = {toml_value(where)}   # keys the endpoints below: {{{label}}}")
    if f.fields.fields:
        lines += [
                  f"# learned from two persons' pages ({f.person_id}, {f.second_person}) and the values "
                  "their list entries gave"]
        for label, where in f.fields.fields.items():
            example = f.fields.examples.get(label, "")
            lines.append(f"{_key(label)} = {toml_value(where)}   # e.g. {json.dumps(example[:60])}")
    for lst in f.relations:
        lines += ["", "[[social.relations]]", *_list_comment(lst), *_source_lines(lst)]
    for lst in f.items:
        lines += ["", "[[social.items]]", *_list_comment(lst), *_source_lines(lst)]
    return "\n".join(lines)


def job_text(f: Findings, job_source: Path | None, database: str) -> str:
    """The whole job file for ``f`` (``job_source``: the job whose session and browser it keeps)."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    head = [
        f"# Written by `browsercrawl discover {f.url}` on {when}.",
        f"# It opened {f.person_url}" + (f" and {f.second_person}'s page" if f.second_person else "")
        + f", pressed {f.clicks} tabs and \"more\" controls (the deny list held"
        + (f"; {len(f.blocked)} non-GET requests refused" if f.blocked else "") + ").",
    ]
    undecided = f.undecided + f.fields.notes
    if undecided:
        head.append("# Could not decide (left out):")
        head.extend(f"#   - {u}" for u in undecided)
    parts = ["\n".join(head), f"seeds = {toml_value([f.person_url])}"]
    if job_source is not None:
        kept = kept_sections(job_source.read_text(encoding="utf-8"))
        if kept:
            parts.append(f"# from {job_source.name}\n{kept}")
    parts.append(f"[output]\ndatabase = {toml_value(database)}")
    parts.append(social_section(f))
    return "\n\n".join(parts) + "\n"


def write_job(f: Findings, out: Path, job_source: Path | None) -> str:
    """Write the job to ``out`` after checking it loads; the text written."""
    text = job_text(f, job_source, out.with_suffix(".db").name)
    try:
        parse_job(tomllib.loads(text), out)
    except (tomllib.TOMLDecodeError, UserError) as exc:  # a bug here, but never a broken file
        raise UserError(f"{out}: the discovered job does not load ({exc}); nothing written") from None
    out.write_text(text, encoding="utf-8")
    return text
