"""A learned wrapper: one CSS path (and optional regex) per label, saved as readable JSON.

This module holds what applying a wrapper needs and nothing of learning, so the parts that only
apply one (social, the crawl's extract step) do not carry the learner. The file format::

    {"format": "browsercrawl-wrapper/1",
     "fields": {"title#text": "div#main > h1",
                "author_url#href": "div.byline > a",
                "comments#text[]": "ul.comments > li > p",
                "price#text": {"css": "span.price", "regex": "Price: (.+?) EUR"},
                "isbn#text": {"css": "dl > dt:contains(\"ISBN\") + dd",
                              "alternates": ["dl > dd:nth-of-type(4)"],
                              "fingerprint": {"tag": "dd", "label": "ISBN", "kind": "isbn", ...}}}}

A field is a CSS path string, or an object with ``css`` and optional ``regex`` (first group kept),
``alternates`` (older paths tried in order when ``css`` finds nothing: a healed wrapper keeps the
path it replaced), ``column`` (``{"labels": CSS, "label": "ISBN"}``: of the nodes ``css`` finds,
the one in the position of that label among the nodes ``labels`` finds: label and value columns,
header rows; a path's step may be ``h2:lead("By")``: an element whose text starts with those
words), ``split`` (a regex splitting one node's text into a list: ``", | and "``; ``\\n``:
one item a line, ``<br>`` between them) and
``fingerprint`` (what the node looked like, for healing; see ``heal.py``); ``until``,
``unqualified`` and ``role`` keep a list to one role's items (see ``FieldRule``). Besides ``text`` and
attribute names, a key's part may be ``own``: an element's own text, without its children's.
Files without the optional keys (every older wrapper) read as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin

import lxml.html
from cssselect import ExpressionError, HTMLTranslator
from cssselect.parser import Function
from cssselect.xpath import XPathExpr
from lxml import etree

from browsercrawl.errors import UserError

FORMAT = "browsercrawl-wrapper/1"
Value = str | list[str] | None

_SKIP = {"script", "style", "noscript", "template", "head"}
_GENERATED = re.compile(r"[0-9]{3,}|[0-9a-f]{8,}|^[0-9]")
_CLASS_TOKEN = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_KEY = re.compile(r"^(?P<label>[^#]+)#(?P<part>[A-Za-z_:][-\w:.]*)(?P<many>\[\])?$")
_ATTR_ORDER = ("id", "class", "itemprop", "property", "name", "role", "rel", "type")
_NO_MATCH_ATTRS = {"style"}
_URL_ATTRS = ("href", "src")


class _Translator(HTMLTranslator):
    """cssselect's own translator: ``:contains("ISBN")`` is a case-sensitive XPath contains()
    (lxml's subclass lower-cases through an extension function, which also matches "First
    published"); plus ``:lead("By")``, below."""

    def xpath_lead_function(self, xpath: XPathExpr, function: Function) -> XPathExpr:
        """``h2:lead("By")``: an element whose text starts with the words "By". Two blocks of
        one shape, "By <a>A</a>" and "Translated by <a>T</a>", are told apart only by the words
        their text starts with; ``:contains`` would also take "Oversat af" for "af"."""
        if function.argument_types() not in (["STRING"], ["IDENT"]):
            raise ExpressionError(f"Expected a single string for :lead(), got {function.arguments!r}")
        words = norm(str(function.arguments[0].value))
        if not words:
            raise ExpressionError(":lead() needs the words the element's text starts with")
        if not words[-1].isalnum():
            # A label's colon ends its words ("出版社：Tor", "ISBN:978..."): no space need follow.
            return xpath.add_condition(f"starts-with(normalize-space(.), {self.xpath_literal(words)})")
        return xpath.add_condition(
            f"starts-with(concat(normalize-space(.), ' '), {self.xpath_literal(words + ' ')})"
        )


_TRANSLATOR = _Translator()


def compile_css(css: str) -> etree.XPath:
    """A CSS path as a compiled XPath; raises cssselect's errors on a bad path."""
    return etree.XPath(_TRANSLATOR.css_to_xpath(css))


def _strings(x: object) -> bool:
    return isinstance(x, list) and all(isinstance(v, str) for v in x)


def norm(text: str | None) -> str:
    """Whitespace-collapsed text: how values are compared and returned."""
    return " ".join((text or "").split())


# --------------------------------------------------------------------------------------------
# The wrapper file


def _rows(cells: list[etree._Element]) -> list[tuple[etree._Element, list[etree._Element]]]:
    """Cells grouped by their parent (a row or a column), in document order."""
    rows: dict[int, tuple[etree._Element, list[etree._Element]]] = {}
    for c in cells:
        parent = c.getparent()
        rows.setdefault(id(parent), (parent, []))[1].append(c)
    return list(rows.values())


def _depth_shared(a: etree._Element, b: etree._Element) -> int:
    chain = [a, *a.iterancestors()]  # kept alive: lxml proxies' ids are reused once dropped
    mine = {id(x) for x in chain}
    return sum(1 for x in b.iterancestors() if id(x) in mine)


def _column_cell(
    cells: list[etree._Element], labels: list[etree._Element], want: str, others: set[str], texts: TextIndex
) -> list[etree._Element]:
    """The value cell under (or beside) the label ``want``.

    Of the label rows holding ``want``, the one sharing most labels with the learned row
    (``others``: a related-books table also has an "Author" column); of the value rows, the one
    nearest it (deepest common ancestor, first on ties); the cell at the label's place.
    """
    best: tuple[int, etree._Element, int] | None = None
    for row, row_cells in _rows(labels):
        names = [texts.text(c) for c in row_cells]
        if want in names and (best is None or len(others & set(names)) > best[0]):
            best = (len(others & set(names)), row, names.index(want))
    if best is None:
        return []
    _, label_row, i = best
    near: tuple[int, list[etree._Element]] | None = None
    for row, row_cells in _rows(cells):
        if row is label_row:
            continue
        depth = _depth_shared(label_row, row)
        if near is None or depth > near[0]:
            near = (depth, row_cells)
    return [near[1][i]] if near is not None and i < len(near[1]) else []


# The ``split`` of a list written one item a line (``Ann Lee<br>Bo Chen``): the node's lines.
LINE_BREAK = r"\n"


def own_text(el: etree._Element) -> str:
    """An element's own text, without its children's; a ``<br>`` still parts the words beside it."""
    return norm((el.text or "") + "".join((" " if c.tag == "br" else "") + (c.tail or "") for c in el))


@dataclass
class FieldRule:
    """How to extract one label: a CSS path, the part of the node, list or not, optional regex."""

    label: str
    part: str  # "text" or an attribute name
    css: str
    many: bool = False
    regex: str | None = None
    fingerprint: dict[str, Any] | None = field(default=None, compare=False)
    alternates: list[str] = field(default_factory=list)
    # Values told apart only by position beside a parallel run of labels (a column of labels
    # next to a column of values, a header row over a data row): {"labels": CSS, "label": text}.
    # "with": the other labels of the learned row, telling it from another row with this label.
    column: dict[str, Any] | None = None
    # A list written in one node's text ("Jane Doe, John Roe and Li Wei"): the separators' regex.
    split: str | None = None
    # A run of items that another role's items continue in the same node ("<a>A</a>, <a>B</a>
    # 저/<a>T</a> 역": authors, then a translator): the word that, between two items, ends the run.
    until: str | None = None
    # Items of a run followed by words before the next item ("<a>B</a> (Translator)") are another
    # role's: left out. Learned when no sample item is ever followed by a word.
    unqualified: bool = False
    # Every item followed by its role ("<a>A</a>（著）／<a>I</a>（イラスト）"): the field's items
    # are those the role word follows; the others are another role's.
    role: str | None = None
    _selectors: dict[str, etree.XPath] = field(default_factory=dict, repr=False, compare=False)

    @property
    def key(self) -> str:
        return f"{self.label}#{self.part}" + ("[]" if self.many else "")

    def selector(self, css: str | None = None) -> etree.XPath:
        css = css or self.css
        sel = self._selectors.get(css)
        if sel is None:
            sel = self._selectors[css] = compile_css(css)
        return sel

    def extract(self, root: etree._Element, texts: TextIndex, base_url: str | None = None) -> Value:
        """The value(s) on one page; ``href``/``src`` resolved against ``base_url`` when given.

        The alternates (paths this one replaced) are tried in order when ``css`` finds nothing.
        """
        for css in (self.css, *self.alternates):
            got = self.extract_with(css, root, texts, base_url)
            if got:
                return got
        return [] if self.many else None

    def nodes(self, css: str, root: etree._Element, texts: TextIndex) -> list[etree._Element]:
        """The nodes ``css`` selects; with a column label, only the one in the label's position."""
        found = self.selector(css)(root)
        if self.column is None:
            return found
        labels = self.selector(self.column["labels"])(root)
        with_ = self.column.get("with")
        if with_ is None:  # a file written before "with": the first label row's place, as then
            index = next((i for i, el in enumerate(labels) if texts.text(el) == self.column["label"]), None)
            return [found[index]] if index is not None and index < len(found) else []
        return _column_cell(found, labels, self.column["label"], set(with_), texts)

    def cut(self, el: etree._Element, texts: TextIndex, base_url: str | None = None) -> str | None:
        """The value one node gives: its text or attribute, cut by the regex; None if none."""
        if self.part not in ("text", "own") and el.get(self.part) is None:
            return None
        if self.part == "text":
            raw = texts.text(el)
        elif self.part == "own":  # the element's own text, without its children's
            raw = own_text(el)
        else:
            raw = norm(el.get(self.part))
        if base_url and self.part in _URL_ATTRS and raw:
            raw = urljoin(base_url, raw)
        if self.regex:
            # Line by line first (``Publisher: Tor<br>Edition: 2nd``), then the whole text.
            lines = texts.lines(el) if self.part == "text" else []
            m = next((m for m in (re.search(self.regex, x) for x in lines) if m), None)
            m = m or re.search(self.regex, raw)
            if not m:
                return None
            raw = norm(m.group(1) if m.groups() else m.group(0))
            if self.part in _URL_ATTRS:
                # A value cut out of a URL is written URL-encoded there ("/pub/Penguin%20Books"),
                # or not, depending on who serialised the page; the value is what it decodes to.
                raw = norm(unquote(raw))
        return raw or None

    def _ends_at(self, previous: etree._Element, el: etree._Element) -> bool:
        """The ``until`` word stands between the previous item and ``el``: the run ended."""
        return self.until in text_words(text_between(previous, el) or "")

    def taken(
        self, css: str, root: etree._Element, texts: TextIndex, base_url: str | None = None
    ) -> list[tuple[etree._Element, str]]:
        """The nodes one path of this rule takes its value(s) from, each with its raw value: the
        first for a single field; for a list, the run up to its ``until`` word, without other
        roles' items."""
        out: list[tuple[etree._Element, str]] = []
        previous: etree._Element | None = None
        found = self.nodes(css, root, texts)
        units = item_units(found) if self.many and (self.unqualified or self.role) else []
        for i, el in enumerate(found):
            raw = self.cut(el, texts, base_url)
            if raw is None:
                continue
            if not self.many:
                return [(el, raw)]
            if self.until and previous is not None and self._ends_at(previous, el):
                break  # another role's items follow
            previous = el
            if units and self.unqualified and qualified(units, i):
                continue  # "(Translator)" after it: another role's item
            if units and self.role and self.role not in qualifier(units, i):
                continue  # "（イラスト）" after it, not the field's "（著）"
            out.append((el, raw))
        return out

    def extract_with(
        self, css: str, root: etree._Element, texts: TextIndex, base_url: str | None = None
    ) -> Value:
        """The value(s) one path of this rule finds."""
        taken = self.taken(css, root, texts, base_url)
        if not self.many:
            return taken[0][1] if taken else None
        values: list[str] = []
        for el, raw in taken:
            if self.split == LINE_BREAK and self.part == "text" and not self.regex:
                values.extend(texts.lines(el))
            elif self.split:
                values.extend(v for v in (norm(x) for x in re.split(self.split, raw)) if v)
            else:
                values.append(raw)
        return values


# "and" in the languages whose dates validate.py reads (French, German, Spanish, Italian and
# Portuguese, Dutch): it joins a list's items, it says nothing about either.
CONJUNCTIONS = ("and", "et", "und", "y", "e", "en")


def text_words(text: str) -> list[str]:
    """Lower-case words of a text (punctuation and spaces between them dropped)."""
    return re.sub(r"[\W_]+", " ", text).lower().split()


# Elements that run inside a line of text: an item's wrapper of this kind is part of the item, a
# sibling of this kind right after it may qualify it ("<span>(Translator)</span>").
_INLINE = frozenset({"a", "span", "small", "em", "i", "b", "strong", "sup", "sub", "font", "abbr", "cite"})


def item_units(items: list[etree._Element]) -> list[etree._Element]:
    """Per item, the inline wrappers around it that hold no other item (``<span><a><b>Name</b>
    (Translator)</a></span>``): what a list's separators and qualifiers stand beside."""
    held: dict[int, int] = {}  # element -> how many items it holds
    alive = []  # lxml makes a proxy per access: a dropped one's id may be another element's
    for item in items:
        node = item
        while node is not None:
            alive.append(node)
            held[id(node)] = held.get(id(node), 0) + 1
            node = node.getparent()
    units = []
    for item in items:
        unit = item
        while (parent := unit.getparent()) is not None and held[id(parent)] == 1 and parent.tag in _INLINE:
            unit = parent
        units.append(unit)
    return units


def qualifier(units: list[etree._Element], i: int) -> list[str]:
    """The words right after the ``i``-th item's unit (:func:`item_units`), in its line and
    before the next item, "and" left out: a role such as "(Translator)" beside the item. A role
    inside the item's own unit is part of it; a line break or a block ends what can qualify it."""
    unit = units[i]
    nxt = units[i + 1] if i + 1 < len(units) else None
    parts = [unit.tail or ""]
    for sib in unit.itersiblings():
        if sib is nxt or not isinstance(sib.tag, str) or sib.tag not in _INLINE:
            break
        parts += ["".join(sib.itertext()), sib.tail or ""]
    return [w for w in text_words("".join(parts)) if w not in CONJUNCTIONS]


def qualified(units: list[etree._Element], i: int) -> bool:
    """Whether words qualify the ``i``-th item (:func:`qualifier`)."""
    return bool(qualifier(units, i))


def text_after(el: etree._Element, stop: etree._Element | None) -> str:
    """The text after ``el`` among its siblings, up to ``stop`` or the end of its parent."""
    parts = [el.tail or ""]
    for node in el.itersiblings():
        if node is stop:
            break
        if isinstance(node.tag, str):
            parts.append("".join(node.itertext()))
        parts.append(node.tail or "")
    return "".join(parts)


def text_between(a: etree._Element, b: etree._Element) -> str | None:
    """The text between two siblings ``a`` and ``b`` (``a`` first); None when not siblings."""
    parent = a.getparent()
    if parent is None or b.getparent() is not parent or not any(n is b for n in a.itersiblings()):
        return None
    return text_after(a, b)


@dataclass
class Wrapper:
    """A learned extractor: one rule per label. ``apply`` maps a page to ``label -> value``."""

    rules: list[FieldRule]

    def to_json(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        for r in self.rules:
            spec: dict[str, Any] = {"css": r.css}
            if r.regex:
                spec["regex"] = r.regex
            if r.alternates:
                spec["alternates"] = list(r.alternates)
            if r.column:
                spec["column"] = dict(r.column)
            if r.split:
                spec["split"] = r.split
            if r.until:
                spec["until"] = r.until
            if r.unqualified:
                spec["unqualified"] = True
            if r.role:
                spec["role"] = r.role
            if r.fingerprint:
                spec["fingerprint"] = r.fingerprint
            fields[r.key] = spec if len(spec) > 1 else r.css
        return {"format": FORMAT, "fields": fields}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n")

    @classmethod
    def from_json(cls, data: Any, source: str = "wrapper") -> Wrapper:
        """Build from parsed JSON; a ``UserError`` names the source and the key at fault."""
        if not isinstance(data, dict) or not isinstance(data.get("fields"), dict):
            raise UserError(f'{source}: expected an object with a "fields" object')
        rules = []
        for key, spec in data["fields"].items():
            m = _KEY.match(key)
            if not m:
                raise UserError(f'{source}: field key {key!r} is not "label#text" or "label#attr"')
            regex = None
            alternates: list[str] = []
            fingerprint = None
            column = None
            split = None
            until = None
            unqualified = False
            role = None
            if isinstance(spec, dict):
                css, regex = spec.get("css"), spec.get("regex")
                alternates = spec.get("alternates") or []
                fingerprint = spec.get("fingerprint")
                if not isinstance(alternates, list) or not all(
                    isinstance(a, str) and a.strip() for a in alternates
                ):
                    raise UserError(f"{source}: fields.{key}.alternates must be a list of CSS paths")
                if fingerprint is not None and not isinstance(fingerprint, dict):
                    raise UserError(f"{source}: fields.{key}.fingerprint must be an object")
                split = spec.get("split")
                if split is not None:
                    if not isinstance(split, str) or not split:
                        raise UserError(f"{source}: fields.{key}.split must be a regex string")
                    try:
                        re.compile(split)
                    except re.error as exc:
                        raise UserError(f"{source}: fields.{key}.split: {exc}") from None
                unqualified = spec.get("unqualified", False)
                if not isinstance(unqualified, bool):
                    raise UserError(f"{source}: fields.{key}.unqualified must be true or false")
                until = spec.get("until")
                if until is not None and (not isinstance(until, str) or not until.strip()):
                    raise UserError(f"{source}: fields.{key}.until must be a word")
                role = spec.get("role")
                if role is not None and (not isinstance(role, str) or not role.strip()):
                    raise UserError(f"{source}: fields.{key}.role must be a word")
                column = spec.get("column")
                if column is not None and not (
                    isinstance(column, dict)
                    and isinstance(column.get("labels"), str)
                    and isinstance(column.get("label"), str)
                    and (column.get("with") is None or _strings(column["with"]))
                ):
                    raise UserError(
                        f'{source}: fields.{key}.column needs "labels" (CSS) and "label" strings'
                        ' (and "with": a list of strings)'
                    )
                if regex is not None:
                    if not isinstance(regex, str):
                        raise UserError(f"{source}: fields.{key}.regex must be a string")
                    try:
                        re.compile(regex)
                    except re.error as exc:
                        raise UserError(f"{source}: fields.{key}.regex: {exc}") from None
            else:
                css = spec
            if not isinstance(css, str) or not css.strip():
                raise UserError(f"{source}: fields.{key} needs a CSS path string")
            rule = FieldRule(
                m["label"],
                m["part"],
                css,
                bool(m["many"]),
                regex,
                fingerprint,
                list(alternates),
                column,
                split,
                until,
                unqualified,
                role,
            )
            try:
                for path in (css, *alternates, *([column["labels"]] if column else [])):
                    rule.selector(path)
            except Exception as exc:  # cssselect raises several error types
                raise UserError(f"{source}: fields.{key}: bad CSS path {path!r} ({exc})") from None
            rules.append(rule)
        return cls(rules)

    @classmethod
    def load(cls, path: str | Path) -> Wrapper:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{path}: cannot read wrapper ({exc.strerror})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
        return cls.from_json(data, str(path))

    def apply(self, html: str | bytes, base_url: str | None = None) -> dict[str, Value]:
        """Extract every label from one page; missing single fields are None, lists may be [].

        With ``base_url`` (the page's final URL) link-valued fields come back absolute, as a user
        storing records wants them; a ``<base href>`` on the page takes precedence, like a browser.
        """
        root = parse_html(html)
        return self.apply_parsed(root, TextIndex(root), base_url)

    def apply_parsed(
        self, root: etree._Element, texts: TextIndex, base_url: str | None = None
    ) -> dict[str, Value]:
        """:meth:`apply` on a page already parsed (healing parses once for both)."""
        if base_url:
            base = root.xpath("string(//base/@href)").strip()
            base_url = urljoin(base_url, base) if base else base_url
        return {r.label: r.extract(root, texts, base_url) for r in self.rules}


# --------------------------------------------------------------------------------------------
# Pages


# HTML5 void elements libxml2's HTML parser does not know: it would nest everything after a
# ``<wbr>`` inside it (rustdoc writes ``std::<wbr>simd::<wbr>prelude``), so every path below
# one would depend on how many came before. Closed at once, they parse as the empty nodes they are.
_UNKNOWN_VOID = re.compile(rb"<(wbr|source|track|embed|keygen)(\s[^<>]*)?/?>", re.I)
_UNKNOWN_VOID_END = re.compile(rb"</(?:wbr|source|track|embed|keygen)\s*>", re.I)


def parse_html(html: str | bytes) -> etree._Element:
    """Parse a page with lxml; comments and processing instructions are dropped."""
    if isinstance(html, str):
        html = html.encode("utf-8")
    html = _UNKNOWN_VOID.sub(rb"<\1\2></\1>", _UNKNOWN_VOID_END.sub(b"", html))
    if not html.strip():
        return lxml.html.fromstring("<html><body></body></html>")
    parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True, encoding="utf-8")
    return lxml.html.document_fromstring(html, parser=parser)


class TextIndex:
    """Normalised text of every element (script/style left out), computed once per page."""

    def __init__(self, root: etree._Element) -> None:
        self._raw: dict[etree._Element, str] = {}
        self._norm: dict[etree._Element, str] = {}
        self._fill(root)

    def _fill(self, el: etree._Element) -> str:
        if not isinstance(el.tag, str) or el.tag in _SKIP:
            self._raw[el] = ""
            return ""
        parts = [el.text or ""]
        for child in el:
            if child.tag == "br":
                parts.append("\n")  # a line break separates words (and lines), as a browser shows it
            parts.append(self._fill(child))
            parts.append(child.tail or "")
        raw = "".join(parts)
        self._raw[el] = raw
        return raw

    def lines(self, el: etree._Element) -> list[str]:
        """The element's text split at ``<br>``: a value rarely runs over a line break."""
        return [line for line in (norm(x) for x in self._raw.get(el, "").split("\n")) if line]

    def text(self, el: etree._Element) -> str:
        done = self._norm.get(el)
        if done is None:
            done = self._norm[el] = norm(self._raw.get(el, ""))
        return done
