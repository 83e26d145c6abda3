"""A parsed sample page and the small tree questions learning and healing ask about it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import tinycss2
from lxml import etree

from browsercrawl.wrappers.model import _SKIP, TextIndex, norm, parse_html

_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
# Utility classes that hide a block in every common CSS framework.
_HIDDEN_CLASSES = {"hidden", "d-none", "hide", "is-hidden", "visually-hidden", "sr-only", "invisible"}
_NEVER_SHOWN = {"meta", "input", "link", "title"}
# A value drawn crossed out: the old price beside the one a buyer pays. By tag, inline style, or
# the class names shops and CSS frameworks give it (Tailwind ``line-through``, Bootstrap
# ``text-decoration-line-through``, "was/old/compare-at price").
_STRUCK_TAGS = {"del", "s", "strike"}
_STRUCK_CLASS = re.compile(
    r"line-?through|strike|\b(?:was|old|compare-?at)[-_]?price\b|\bprice[-_]{1,2}(?:was|old|compare)", re.I)


def ancestors_or_self(el: etree._Element | None) -> Iterable[etree._Element]:
    while el is not None:
        yield el
        el = el.getparent()


def common_depth(el: etree._Element, anchors: Iterable[etree._Element]) -> tuple[int, int]:
    """(depth of the deepest ancestor ``el`` shares with any anchor, depth of ``el`` itself).

    How near a candidate node sits to a record's other fields: the learner and the healer both
    prefer the candidate that meets them deepest.
    """
    chain = list(ancestors_or_self(el))  # kept alive: lxml proxies' ids are reused once dropped
    mine = {id(a): depth for depth, a in enumerate(reversed(chain))}
    best = 0
    for anchor in anchors:
        for a in ancestors_or_self(anchor):
            if id(a) in mine:
                best = max(best, mine[id(a)])
                break
    return best, len(mine) - 1


def in_navigation(el: etree._Element) -> bool:
    """Inside the page's navigation (``<nav>``, ``role=navigation``, a breadcrumb): it repeats
    the content's title or category as a way there, and a person reads the content's own copy."""
    for a in ancestors_or_self(el):
        if a.tag == "nav" or a.get("role") == "navigation" or "breadcrumb" in (a.get("class") or "").lower():
            return True
    return False


def is_leaf(el: etree._Element) -> bool:
    return not any(isinstance(c.tag, str) for c in el)


def tag_path(el: etree._Element) -> tuple[str, ...]:
    return tuple(a.tag for a in reversed(list(ancestors_or_self(el))))


def _strikes(el: etree._Element) -> bool:
    """Drawn crossed out: by tag, inline style or a struck-price class."""
    return (
        el.tag in _STRUCK_TAGS
        or "line-through" in (el.get("style") or "")
        or bool(_STRUCK_CLASS.search(el.get("class") or ""))
    )


def inside(inner: etree._Element, outer: etree._Element) -> bool:
    """True when ``outer`` is a proper ancestor of ``inner``."""
    return any(a is outer for a in ancestors_or_self(inner.getparent()))


def _hides(el: etree._Element, classes: frozenset[str], ids: frozenset[str]) -> bool:
    """Hidden by an attribute, its inline style, a hiding utility class, or a class or id the
    page's own stylesheet hides (:func:`hiding_rules`)."""
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    if el.tag in _NEVER_SHOWN and (el.tag != "input" or el.get("type", "").lower() == "hidden"):
        return True
    if _HIDDEN_STYLE.search(el.get("style") or ""):
        return True
    if el.get("id") in ids:
        return True
    own = set((el.get("class") or "").split())
    return bool(_HIDDEN_CLASSES & own or classes & own)


_ONE_CLASS = re.compile(r"^(?:[a-z][\w-]*)?\.([\w-]+)$", re.I)
_ONE_ID = re.compile(r"^(?:[a-z][\w-]*)?#([\w-]+)$", re.I)


def hiding_rules(root: etree._Element) -> tuple[frozenset[str], frozenset[str]]:
    """The classes and ids the page's own ``<style>`` hides (``.mobile-only{display:none}``).

    A page repeats its title, authors and price in a sticky bar or a mobile block hidden by a
    class of its own stylesheet, often before the block a person reads. Only top-level rules
    count: one inside ``@media`` hides the block on some screens only, and a rule whose selector
    is more than one class or id (``.open .menu``) hides it only in some state.
    """
    classes: set[str] = set()
    ids: set[str] = set()
    for style in root.iter("style"):
        for rule in tinycss2.parse_stylesheet(style.text or "", skip_comments=True, skip_whitespace=True):
            if rule.type != "qualified-rule":
                continue
            body = tinycss2.serialize(rule.content)
            if not _HIDDEN_STYLE.search(body):
                continue
            for selector in tinycss2.serialize(rule.prelude).split(","):
                if m := _ONE_CLASS.match(selector.strip()):
                    classes.add(m.group(1))
                elif m := _ONE_ID.match(selector.strip()):
                    ids.add(m.group(1))
    return frozenset(classes), frozenset(ids)


@dataclass
class Page:
    """One parsed page: its root, text index, visible/hidden elements and id counts."""

    root: etree._Element
    texts: TextIndex
    elements: list[etree._Element]
    ids: dict[str, int]
    hidden: set[etree._Element]

    @cached_property
    def tag_paths(self) -> set[tuple[str, ...]]:
        """Every element's tag path (learning compares samples' trees; healing never needs it)."""
        return {tag_path(e) for e in self.elements}

    @cached_property
    def struck(self) -> frozenset[str]:
        """Normalised texts the page shows crossed out (an old price): not the page's value."""
        out = set()
        for el in self.elements:
            if _strikes(el):
                text = norm("".join(el.itertext()))
                if text:
                    out.add(text)
        return frozenset(out)

    def is_struck(self, el: etree._Element) -> bool:
        """Whether ``el`` is shown crossed out, itself or inside a struck block ("<span
        class=old-price><span>Precio regular</span><span>$27.57</span></span>")."""
        return any(_strikes(a) for a in ancestors_or_self(el))

    @cached_property
    def machine_values(self) -> frozenset[str]:
        """Values the page states for machines: JSON-LD strings and numbers, ``<meta content>``,
        hidden inputs. A shop's structured data names the product's own publisher, price..."""
        out: set[str] = set()
        for raw in self.root.xpath('//script[contains(@type, "ld+json")]/text()'):
            try:
                _collect(json.loads(raw), out)
            except ValueError:
                continue
        for value in self.root.xpath("//meta/@content | //input[@type='hidden']/@value"):
            if norm(value):
                out.add(norm(value))
        return frozenset(out)

    @cached_property
    def all_texts(self) -> set[str]:
        """Every element's text: whether a label or heading is on this page at all."""
        return {self.texts.text(e) for e in self.elements}

    def is_hidden(self, el: etree._Element) -> bool:
        """A person does not read it: hidden itself or inside a hidden block."""
        return el in self.hidden


def _collect(data: object, out: set[str]) -> None:
    if isinstance(data, dict):
        for v in data.values():
            _collect(v, out)
    elif isinstance(data, list):
        for v in data:
            _collect(v, out)
    elif isinstance(data, (str, int, float)) and not isinstance(data, bool) and norm(str(data)):
        out.add(norm(str(data)))


def page_of(html: str | bytes) -> Page:
    return page_from_root(parse_html(html))


def page_from_root(root: etree._Element, texts: TextIndex | None = None) -> Page:
    elements: list[etree._Element] = []
    hidden: set[etree._Element] = set()
    _walk(root, False, elements, hidden, *hiding_rules(root))
    ids: dict[str, int] = {}
    for el in elements:
        if el.get("id"):
            ids[el.get("id")] = ids.get(el.get("id"), 0) + 1
    return Page(root, texts or TextIndex(root), elements, ids, hidden)


def _walk(
    el: etree._Element, hidden: bool, out: list, hidden_set: set, classes: frozenset[str], ids: frozenset[str]
) -> None:
    if not isinstance(el.tag, str) or el.tag in _SKIP:
        return
    hidden = hidden or _hides(el, classes, ids)
    out.append(el)
    if hidden:
        hidden_set.add(el)
    for child in el:
        _walk(child, hidden, out, hidden_set, classes, ids)


def units_form_a_run(els: list[etree._Element]) -> bool:
    """The matched nodes sit in same-shaped siblings (one per node) under one ancestor."""
    if len(els) < 2:
        return True
    chains = [list(reversed(list(ancestors_or_self(e)))) for e in els]
    depth = 0
    while all(len(c) > depth + 1 for c in chains) and len({id(c[depth]) for c in chains}) == 1:
        depth += 1
    units = [c[depth] for c in chains]
    if len({id(u) for u in units}) != len(units):
        return False
    return len({(u.tag, u.get("class")) for u in units}) == 1
