"""A learned wrapper: one CSS path (and optional regex) per label, saved as readable JSON.

This module holds what applying a wrapper needs and nothing of learning, so the parts that only
apply one (social, the crawl's extract step) do not carry the learner. The file format::

    {"format": "browsercrawl-wrapper/1",
     "fields": {"title#text": "div#main > h1",
                "author_url#href": "div.byline > a",
                "comments#text[]": "ul.comments > li > p",
                "price#text": {"css": "span.price", "regex": "Price: (.+?) EUR"}}}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import lxml.html
from lxml import etree
from lxml.cssselect import CSSSelector

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


def norm(text: str | None) -> str:
    """Whitespace-collapsed text: how values are compared and returned."""
    return " ".join((text or "").split())


# --------------------------------------------------------------------------------------------
# The wrapper file


@dataclass
class FieldRule:
    """How to extract one label: a CSS path, the part of the node, list or not, optional regex."""

    label: str
    part: str  # "text" or an attribute name
    css: str
    many: bool = False
    regex: str | None = None
    _selector: CSSSelector | None = field(default=None, repr=False, compare=False)

    @property
    def key(self) -> str:
        return f"{self.label}#{self.part}" + ("[]" if self.many else "")

    def selector(self) -> CSSSelector:
        if self._selector is None:
            self._selector = CSSSelector(self.css, translator="html")
        return self._selector

    def extract(self, root: etree._Element, texts: TextIndex, base_url: str | None = None) -> Value:
        """The value(s) on one page; ``href``/``src`` resolved against ``base_url`` when given."""
        values = []
        for el in self.selector()(root):
            raw = texts.text(el) if self.part == "text" else norm(el.get(self.part))
            if self.part != "text" and el.get(self.part) is None:
                continue
            if base_url and self.part in _URL_ATTRS and raw:
                raw = urljoin(base_url, raw)
            if self.regex:
                m = re.search(self.regex, raw)
                if not m:
                    continue
                raw = norm(m.group(1) if m.groups() else m.group(0))
            if not raw:
                continue
            if not self.many:
                return raw
            values.append(raw)
        return values if self.many else None


@dataclass
class Wrapper:
    """A learned extractor: one rule per label. ``apply`` maps a page to ``label -> value``."""

    rules: list[FieldRule]

    def to_json(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        for r in self.rules:
            fields[r.key] = {"css": r.css, "regex": r.regex} if r.regex else r.css
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
            if isinstance(spec, dict):
                css, regex = spec.get("css"), spec.get("regex")
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
            rule = FieldRule(m["label"], m["part"], css, bool(m["many"]), regex)
            try:
                rule.selector()
            except Exception as exc:  # cssselect raises several error types
                raise UserError(f"{source}: fields.{key}: bad CSS path {css!r} ({exc})") from None
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
        texts = TextIndex(root)
        if base_url:
            base = root.xpath("string(//base/@href)").strip()
            base_url = urljoin(base_url, base) if base else base_url
        return {r.label: r.extract(root, texts, base_url) for r in self.rules}


# --------------------------------------------------------------------------------------------
# Pages


def parse_html(html: str | bytes) -> etree._Element:
    """Parse a page with lxml; comments and processing instructions are dropped."""
    if isinstance(html, str):
        html = html.encode("utf-8")
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
            parts.append(self._fill(child))
            parts.append(child.tail or "")
        raw = "".join(parts)
        self._raw[el] = raw
        return raw

    def text(self, el: etree._Element) -> str:
        done = self._norm.get(el)
        if done is None:
            done = self._norm[el] = norm(self._raw.get(el, ""))
        return done
