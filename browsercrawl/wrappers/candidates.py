"""Finding the nodes that hold a sample value, the ones a person reads first.

Order: visible before hidden (a ``display:none`` block, ``hidden``, ``<meta>``, ``<input
type=hidden>`` holding a URL that contains an ISBN is where a regex learns to cut the wrong part
of other URLs); then text equal, attribute equal, deepest element with equal text, then the same
with "contains"; nodes on the common template tree of the samples first within each group.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from browsercrawl.wrappers.dom import Page, inside, is_leaf, tag_path
from browsercrawl.wrappers.model import _NO_MATCH_ATTRS, norm


@dataclass
class Hit:
    el: etree._Element
    part: str
    contains: bool  # the value is inside a longer text: a regex must cut it out
    full: str  # the whole text or attribute value
    hidden: bool = False


def attr_equal(attr: str, value: str, name: str) -> bool:
    if attr == value:
        return True
    # A link written relative on the page while the user pasted the absolute URL.
    return name in ("href", "src") and attr.startswith("/") and len(attr) > 1 and value.endswith(attr)


def find_hits(page: Page, value: str, common: set[tuple[str, ...]] | None = None) -> list[Hit]:
    """Nodes holding ``value``, best first (see the module docstring)."""
    value = norm(value)
    if not value:
        return []
    leaf_eq, attr_eq, inner_eq, leaf_in, inner_in, attr_in = [], [], [], [], [], []
    for el in page.elements:
        text = page.texts.text(el)
        if value not in text and not any(value in a or a in value for a in el.attrib.values()):
            continue  # most elements: nothing to look at
        hidden = page.is_hidden(el)
        leaf = is_leaf(el)
        if text == value:
            (leaf_eq if leaf else inner_eq).append(Hit(el, "text", False, text, hidden))
        elif value in text:
            (leaf_in if leaf else inner_in).append(Hit(el, "text", True, text, hidden))
        for name, attr in el.attrib.items():
            if name in _NO_MATCH_ATTRS:
                continue
            a = norm(attr)
            if attr_equal(a, value, name):
                attr_eq.append(Hit(el, name, False, a, hidden))
            elif value in a and name not in ("class", "id"):
                attr_in.append(Hit(el, name, True, a, hidden))
    # Of nested elements with the same text keep the deepest: the others only wrap it.
    inner_eq = [h for h in inner_eq if not any(inside(o.el, h.el) for o in inner_eq if o is not h)]
    inner_in = [
        h
        for h in inner_in
        if not any(inside(o.el, h.el) for o in inner_in + leaf_in + inner_eq + leaf_eq if o is not h)
    ]
    attr_eq.sort(key=lambda h: not is_leaf(h.el))
    hits = leaf_eq + attr_eq + inner_eq + leaf_in + inner_in + attr_in
    if common is not None:  # stable sort: nodes of the common template tree first
        hits.sort(key=lambda h: tag_path(h.el) not in common)
    hits.sort(key=lambda h: h.hidden)  # what a person reads before what only machines read
    return hits
