"""String templates learned from rendered pages: how a page's text, links and HTML follow from its JSON.

A rendered JavaScript page is, most of the time, a fixed frame with the values of one or two JSON
answers written into it, a list's entries once per element of a JSON array. This module learns that
frame from a rendered string and the values the page had at hand (its JSON answers, its URL's path
segments and query values, the HTML shell's attribute values and texts), and writes the string
again from new values without a browser.

A template is a list of parts: literal strings, references to a value (a path into the sources and
the way the value was written: as is, HTML-escaped as text or as an attribute, whitespace
collapsed, URL-quoted) and loops (a body repeated once per element of a JSON array, its references
relative to the element). Values are found at token boundaries only (a ``7`` inside ``n700`` is not
the value 7), longest first, JSON before the URL before the shell. A learned template is only used
once it writes every sample it was learned from exactly (:func:`fits`); callers check that.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

import lxml.html
from lxml import etree

Path = tuple[Any, ...]
ELEMENT = "@"  # the first step of a path relative to a loop's element

# Priority of sources when one string is several values (lower first).
_PRIORITY = {"json": 0, "url": 1, "shell": 2}


class Missing(Exception):
    """A template names a value the sources do not have (a JSON answer of another form)."""


# -- how a value is written ---------------------------------------------------------------------
def _html_text(v: str) -> str:
    return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\xa0", "&nbsp;")


def _html_attr(v: str) -> str:
    return v.replace("&", "&amp;").replace('"', "&quot;").replace("\xa0", "&nbsp;")


def _collapse(v: str) -> str:
    return " ".join(v.split())


def _quote(v: str) -> str:
    return quote(v, safe="/:@!$&'()*+,;=-._~")


TRANSFORMS = {"raw": lambda v: v, "text": _html_text, "attr": _html_attr, "ws": _collapse, "url": _quote}


def scalar(v: Any) -> str | None:
    """A JSON scalar as a page's script would print it (``String(v)``); None for null and containers."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else repr(v)
    if isinstance(v, str):
        return v
    return None


# -- the values a page has at hand --------------------------------------------------------------
@dataclass
class Sources:
    """Values by path, and the length of every JSON array (for loops)."""

    values: dict[Path, str]
    arrays: dict[Path, int]

    def merged(self, other: Sources) -> Sources:
        return Sources({**self.values, **other.values}, {**self.arrays, **other.arrays})


def json_sources(key: str, data: Any, max_nodes: int = 20_000) -> Sources:
    """The scalars of one JSON answer under ``("json", key, ...)``."""
    values: dict[Path, str] = {}
    arrays: dict[Path, int] = {}
    stack: list[tuple[Path, Any]] = [(("json", key), data)]
    while stack and len(values) < max_nodes:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend(((*path, k), v) for k, v in node.items())
        elif isinstance(node, list):
            arrays[path] = len(node)
            stack.extend(((*path, i), v) for i, v in enumerate(node))
        else:
            s = scalar(node)
            if s is not None:
                values[path] = s
    return Sources(values, arrays)


def url_sources(url: str) -> Sources:
    """A page URL's path segments and query values."""
    parts = urlsplit(url)
    values: dict[Path, str] = {}
    for i, seg in enumerate(parts.path.split("/")):
        if seg:
            values[("url", "path", i)] = seg
    for k, v in parse_qsl(parts.query, keep_blank_values=False):
        values.setdefault(("url", "query", k), v)
    return Sources(values, {})


def shell_sources(html: str | None, max_values: int = 500) -> Sources:
    """Attribute values and texts of the HTML shell, by element path (ids found in the shell)."""
    values: dict[Path, str] = {}
    if not html or not html.strip():
        return Sources(values, {})
    try:
        doc = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return Sources(values, {})
    tree = doc.getroottree()
    for el in doc.iter():
        if not isinstance(el.tag, str) or el.tag in ("script", "style"):
            continue
        where = tree.getpath(el)
        for name, value in el.attrib.items():
            if value.strip():
                values[("shell", where, "@" + name)] = value
        if el.text and el.text.strip():
            values[("shell", where, "text")] = el.text.strip()
        if len(values) >= max_values:
            break
    return Sources(values, {})


# -- templates ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ref:
    path: Path
    how: str = "raw"


@dataclass(frozen=True)
class Loop:
    array: Path
    body: tuple[Any, ...]  # str | Ref (element-relative paths start with ELEMENT)
    sep: tuple[Any, ...] = ()  # written between two entries (str | Ref)


Template = list[Any]  # str | Ref | Loop


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


def _occurrences(text: str, needle: str) -> Iterable[int]:
    """Where ``needle`` occurs in ``text`` at token boundaries."""
    start = 0
    head, tail = _is_word(needle[0]), _is_word(needle[-1])
    while (p := text.find(needle, start)) >= 0:
        end = p + len(needle)
        if not (head and p > 0 and _is_word(text[p - 1])) and not (
            tail and end < len(text) and _is_word(text[end])
        ):
            yield p
        start = p + 1


@dataclass
class _Hit:
    start: int
    end: int
    refs: list[Ref]  # every value written there (alternatives), best first


def _hits(text: str, sources: Sources, min_len: int, protect: Iterable[str] = ()) -> list[_Hit]:
    """Non-overlapping places where values are written, longest first; never inside a ``protect``
    string (the site's origin: the ``0`` of ``127.0.0.1`` is not page 0's id)."""
    by_string: dict[str, list[Ref]] = {}
    for path, value in sources.values.items():
        if not value.strip():
            continue
        for how, fn in TRANSFORMS.items():
            s = fn(value)
            if how != "raw" and s == value:
                continue
            if len(s) < min_len and not s.isdigit():
                continue
            by_string.setdefault(s, []).append(Ref(path, how))
    taken: list[_Hit] = []
    occupied = bytearray(len(text) + 1)
    for guarded in protect:
        start = 0
        while guarded and (p := text.find(guarded, start)) >= 0:
            occupied[p:p + len(guarded)] = b"\x01" * len(guarded)
            start = p + len(guarded)
    for s in sorted(by_string, key=len, reverse=True):
        if s not in text:
            continue
        refs = sorted(by_string[s], key=lambda r: (_PRIORITY.get(r.path[0], 9), len(r.path), str(r.path)))
        for p in _occurrences(text, s):
            end = p + len(s)
            if any(occupied[p:end]):
                continue
            occupied[p:end] = b"\x01" * (end - p)
            taken.append(_Hit(p, end, refs))
    taken.sort(key=lambda h: h.start)
    return taken


def _flat(text: str, hits: list[_Hit]) -> list[Any]:
    out: list[Any] = []
    at = 0
    for h in hits:
        if h.start > at:
            out.append(text[at:h.start])
        out.append(h)
        at = h.end
    if at < len(text):
        out.append(text[at:])
    return out


def _element_ref(hit: _Hit, array: Path, k: int) -> Ref | None:
    """The hit's alternative inside element ``k`` of ``array``, made relative to the element."""
    n = len(array)
    for r in hit.refs:
        if len(r.path) > n and r.path[:n] == array and r.path[n] == k:
            return Ref((ELEMENT, *r.path[n + 1:]), r.how)
    return None


def _gen(part: Any, array: Path, k: int) -> Any:
    if isinstance(part, _Hit):
        return _element_ref(part, array, k) or part.refs[0]
    return part


def _common_suffix(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _firsts(seq: list[Any], array: Path, n: int, first: int) -> list[int] | None:
    """Where each element's entry starts: element 0 at ``first``, each next one after the last."""
    out = [first]
    for k in range(1, n):
        idx = next((i for i in range(out[-1] + 1, len(seq))
                    if isinstance(seq[i], _Hit) and _element_ref(seq[i], array, k)), None)
        if idx is None:
            return None
        out.append(idx)
    return out


def _loop(seq: list[Any], array: Path, n: int) -> list[Any] | None:
    """Fold the entries of ``array`` (``n`` >= 2 elements) into one :class:`Loop`, or None.

    Element 0's value may also be written before the list (a page showing its own id that is also
    a related id): each of its places is tried as the start of the list.
    """
    for first in (i for i, p in enumerate(seq) if isinstance(p, _Hit) and _element_ref(p, array, 0)):
        firsts = _firsts(seq, array, n, first)
        if firsts is not None and (folded := _fold(seq, array, firsts)) is not None:
            return folded
    return None


def _atoms(parts: Iterable[Any]) -> list[Any]:
    """Parts as single characters and references (so a split may fall inside a literal)."""
    out: list[Any] = []
    for p in parts:
        if isinstance(p, str):
            out.extend(p)
        else:
            out.append(p)
    return out


def _parts(atoms: Iterable[Any]) -> list[Any]:
    """Single characters joined back into literals."""
    out: list[Any] = []
    for a in atoms:
        if isinstance(a, str) and out and isinstance(out[-1], str):
            out[-1] += a
        else:
            out.append(a)
    return out


def _fold(seq: list[Any], array: Path, firsts: list[int]) -> list[Any] | None:
    """One loop from the entries starting at ``firsts``; what separates two entries is split into
    the end of an entry (also after the last one), a separator (only between entries) and the start
    of an entry (also before the first one)."""
    n = len(firsts)
    bodies = [tuple(_gen(p, array, k) for p in seq[firsts[k]:firsts[k + 1]]) for k in range(n - 1)]
    body = bodies[0]
    if any(b != body for b in bodies[1:]) or not body:
        return None
    last = firsts[-1]
    body_atoms = _atoms(body)
    after_gen = _atoms(_gen(p, array, n - 1) for p in seq[last:])
    after_raw = _atoms(seq[last:])
    before_raw = _atoms(seq[:firsts[0]])
    before_gen = _atoms(_gen(p, array, 0) for p in seq[:firsts[0]])
    core = 0  # how much of an entry the last one has too
    while core < len(body_atoms) and core < len(after_gen) and body_atoms[core] == after_gen[core]:
        core += 1
    between = body_atoms[core:]
    lcs = 0
    while lcs < len(between) and lcs < len(before_gen) and between[-1 - lcs] == before_gen[-1 - lcs]:
        lcs += 1
    sep, start = between[:len(between) - lcs], between[len(between) - lcs:]
    if any(isinstance(a, Ref) and a.path[:1] == (ELEMENT,) for a in sep):
        return None
    loop = Loop(array, tuple(_parts([*start, *body_atoms[:core]])), tuple(_parts(sep)))
    head = _parts(before_raw[:len(before_raw) - len(start)])
    tail = _parts(after_raw[core:])
    return [*head, loop, *tail]


def learn(text: str, sources: Sources, min_len: int = 2, protect: Iterable[str] = ()) -> Template:
    """The template that writes ``text`` from ``sources`` (see the module docstring)."""
    seq = _flat(text, _hits(text, sources, min_len, protect))
    # Longer arrays first: their entries are the clearest repetition.
    for array, n in sorted(sources.arrays.items(), key=lambda kv: -kv[1]):
        if n < 2 or any(isinstance(s, int) for s in array[2:]):
            continue  # one element shows no repetition; arrays inside arrays stay unrolled
        folded = _loop(seq, array, n)
        if folded is not None:
            seq = folded
    out: Template = []
    for p in seq:
        part = p.refs[0] if isinstance(p, _Hit) else p
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        else:
            out.append(part)
    return out


def learn_from(samples: list[tuple[str, Sources]], min_len: int = 2,
               protect: Iterable[str] = ()) -> Template | None:
    """A template learned from one of the samples that writes all of them; None when none does.

    The sample with the longest arrays is tried first: its lists show their repetition best.
    """
    order = sorted(samples, key=lambda s: -sum(s[1].arrays.values()))
    for text, src in order:
        template = learn(text, src, min_len, protect)
        if fits(template, samples):
            return template
    return None


def render(template: Template, sources: Sources) -> str:
    """Write the template with ``sources``' values; :class:`Missing` if one is not there."""
    out: list[str] = []
    for part in template:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Ref):
            out.append(_value(part, sources, None))
        else:
            n = sources.arrays.get(part.array)
            if n is None:
                raise Missing(f"no array {part.array}")
            for k in range(n):
                element = (*part.array, k)
                if k:
                    out.extend(b if isinstance(b, str) else _value(b, sources, None) for b in part.sep)
                for b in part.body:
                    out.append(b if isinstance(b, str) else _value(b, sources, element))
    return "".join(out)


def _value(ref: Ref, sources: Sources, element: Path | None) -> str:
    path = ref.path
    if path and path[0] == ELEMENT:
        if element is None:
            raise Missing("element reference outside a loop")
        path = (*element, *path[1:])
    v = sources.values.get(path)
    if v is None:
        raise Missing(f"no value at {path}")
    return TRANSFORMS[ref.how](v)


def describe(template: Template) -> str:
    """The template with its references shown as ``{url.path.3}`` (for summaries)."""
    out = []
    for part in template:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Ref):
            out.append("{" + ".".join(str(k) for k in part.path) + "}")
        else:
            out.append("{for " + ".".join(str(k) for k in part.array) + "}")
    return "".join(out)


def fits(template: Template, samples: Iterable[tuple[str, Sources]]) -> bool:
    """Does the template write every sample's string exactly from its sources?"""
    try:
        return all(render(template, src) == text for text, src in samples)
    except Missing:
        return False


def uses(template: Template) -> set[Path]:
    """Every path (absolute, or the array of a loop) the template reads."""
    out: set[Path] = set()
    for part in template:
        if isinstance(part, Ref):
            out.add(part.path)
        elif isinstance(part, Loop):
            out.add(part.array)
            out |= {b.path for b in (*part.body, *part.sep) if isinstance(b, Ref) and b.path[0] != ELEMENT}
    return out


# -- storing a template -------------------------------------------------------------------------
def dump(template: Template) -> Any:
    def one(p: Any) -> Any:
        if isinstance(p, str):
            return p
        if isinstance(p, Ref):
            return {"ref": list(p.path), "how": p.how}
        return {"loop": list(p.array), "body": [one(b) for b in p.body], "sep": [one(b) for b in p.sep]}

    return [one(p) for p in template]


def load(data: Any) -> Template:
    def one(p: Any) -> Any:
        if isinstance(p, str):
            return p
        if "ref" in p:
            return Ref(tuple(p["ref"]), p.get("how", "raw"))
        return Loop(tuple(p["loop"]), tuple(one(b) for b in p["body"]),
                    tuple(one(b) for b in p.get("sep", [])))

    return [one(p) for p in data]


def links_text(links: Iterable[tuple[str, str]]) -> str:
    """A page's links as one string (one ``href<TAB>text`` line each), so they are templated too."""
    return "\n".join(f"{href}\t{text}" for href, text in links)


def text_links(s: str) -> list[tuple[str, str]]:
    out = []
    for line in s.split("\n") if s else []:
        href, _, text = line.partition("\t")
        out.append((href, text))
    return out


def dumps(template: Template) -> str:
    return json.dumps(dump(template), ensure_ascii=False)
