"""What a field's node looked like when it was learned, and how alike another node is.

Stored beside the path in the wrapper file so a wrapper can find its field again after a
redesign (``heal.py``). It holds what usually survives one: the label before the value (``ISBN``),
the kind of value (date, price...), the tag and classes, the text's shape, the neighbours' tags and
the tag path. Similarity is a weighted mean of rapidfuzz ratios and equalities, in ``[0, 1]``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lxml import etree
from rapidfuzz import fuzz

from browsercrawl.wrappers.dom import Page, ancestors_or_self
from browsercrawl.wrappers.model import _GENERATED
from browsercrawl.wrappers.paths import text_label
from browsercrawl.wrappers.validate import has_kind

_LANDMARKS = {"header", "footer", "nav"}
LANDMARK_PENALTY = 0.8
_ATTRS = ("itemprop", "property", "name", "role", "rel", "type")


def shape(text: str) -> str:
    """``The River 12`` -> ``Aa Aa 9``: letters, digits and punctuation runs, not the words."""
    s = re.sub(r"[A-ZÀ-Þ]", "A", text)
    s = re.sub(r"[a-zß-ÿ]+", "a", s)
    s = re.sub(r"[0-9]+", "9", s)
    return re.sub(r"(Aa?)+", "Aa", s)[:40]


def _sig(el: etree._Element | None) -> str:
    if el is None or not isinstance(el.tag, str):
        return ""
    cls = [t for t in (el.get("class") or "").split() if not _GENERATED.search(t)]
    ident = el.get("id") or ""
    ident = f"#{ident}" if ident and not _GENERATED.search(ident) else ""
    return el.tag + ident + "".join(f".{c}" for c in cls[:2])


# Tags a redesign swaps for one another: a heading stays a heading, inline text stays inline.
_FAMILY = {
    **{f"h{i}": "heading" for i in range(1, 7)},
    **dict.fromkeys(("span", "em", "i", "b", "strong", "small", "font", "mark", "bdi"), "inline"),
    **dict.fromkeys(("div", "p", "section", "article", "aside", "main", "header", "footer"), "block"),
    **dict.fromkeys(("li", "dd", "dt", "td", "th"), "item"),
}


def _tag(sig: str) -> str:
    return re.split(r"[.#]", sig, maxsplit=1)[0]


def _bare(sig: str) -> str:
    """A path step's tag family (``h2`` -> ``heading``), classes and id dropped."""
    tag = re.split(r"[.#]", sig, maxsplit=1)[0]
    return _FAMILY.get(tag, tag)


def _sibling(el: etree._Element, forward: bool) -> etree._Element | None:
    node = el.getnext() if forward else el.getprevious()
    while node is not None and not isinstance(node.tag, str):
        node = node.getnext() if forward else node.getprevious()
    return node


def fingerprint(
    el: etree._Element, page: Page, value: str, kind: str | None, many: bool = False
) -> dict[str, Any]:
    """The fingerprint of the node ``el`` holding ``value`` (see the module docstring)."""
    path = [_sig(a) for a in reversed(list(ancestors_or_self(el)))]
    return {
        "tag": el.tag,
        "classes": [t for t in (el.get("class") or "").split() if not _GENERATED.search(t)],
        "attrs": {k: el.get(k) for k in _ATTRS if el.get(k)},
        "label": text_label(el, page),
        "kind": kind,
        "many": many,
        "shape": shape(value),
        "length": len(value),
        "prev": _sig(_sibling(el, False)),
        "next": _sig(_sibling(el, True)),
        "path": path,
        "parts": _parts(el, page),
    }


LABEL_ALIKE = 85  # rapidfuzz ratio of two labels taken for one
STEADY_NEIGHBOURS = 0.8  # share of the cluster's pages on which a neighbour must be the same


MAX_SHAPES = 5


def site_shapes(fp: dict[str, Any], values: Sequence[str]) -> None:
    """Keep the shapes the cluster's values take (``shapes``: each on a tenth of them at least,
    five at most) when the sample's is not shared by most: titles of two, three or four words
    ("Aa Aa" against a related book's "Aa Aa Aa"), houses of one or two ("Tor", "Penguin Books")."""
    if not values or sum(shape(v) == fp.get("shape") for v in values) >= STEADY_NEIGHBOURS * len(values):
        return
    counts: dict[str, int] = {}
    for v in values:
        counts[shape(v)] = counts.get(shape(v), 0) + 1
    common = sorted((s for s, n in counts.items() if n * 10 >= len(values)), key=lambda s: -counts[s])
    fp["shapes"] = common[:MAX_SHAPES] or [fp.get("shape", "")]


def path_likeness(fp: dict[str, Any], el: etree._Element) -> float:
    """How alike the path from the root to ``el`` is to the learned node's (0..1)."""
    path = [_sig(a) for a in reversed(list(ancestors_or_self(el)))]
    return fuzz.ratio(" ".join(fp.get("path") or []), " ".join(path)) / 100


def unsteady_neighbours(fp: dict[str, Any], nodes: Sequence[etree._Element]) -> None:
    """Forget (None) a neighbour of the field's node that differs on the cluster's pages: a
    price has a struck price before it on sale pages only, so one sample's neighbour tells
    nothing about another page's. ``nodes``: the field's node on each page the learner has."""
    for key, forward in (("prev", False), ("next", True)):
        same = sum(_sig(_sibling(n, forward)) == fp.get(key) for n in nodes)
        if nodes and same < STEADY_NEIGHBOURS * len(nodes):
            fp[key] = None


def _parts(el: etree._Element, page: Page) -> int:
    """How many child elements hold text: 0 for a leaf; two or more glue the texts of a block."""
    return sum(1 for c in el if isinstance(c.tag, str) and page.texts.text(c))


def glued(fp: dict[str, Any], el: etree._Element, page: Page) -> bool:
    """Whether ``el`` is a block of several texts where the learned node was (nearly) a leaf:
    the wrapper round a list's items reads "Ann LeeBo Chen", one value of no one's."""
    learned = fp.get("parts")
    return learned is not None and learned < 2 and _parts(el, page) >= 2


# Boilerplate texts kept in a fingerprint: those this alike to it on a sample (a margin below
# the healer's threshold: a redesign moves scores both ways), at most this many, this long.
AVOID_SIMILARITY = 0.45
AVOID_MAX = 8
_AVOID_LENGTH = 80


def boilerplate(samples: list[Page], unseen: list[Page], min_share: float = 0.9) -> set[str]:
    """Short texts of innermost visible nodes on every sample and ``min_share`` of the unseen
    pages: headings, labels, buttons, the site's name: what does not vary in the cluster."""
    first = samples[0]
    texts: set[str] = set()
    for el in first.elements:
        t = first.texts.text(el)
        if (
            t
            and len(t) <= _AVOID_LENGTH
            and not first.is_hidden(el)
            and not any(isinstance(c.tag, str) and first.texts.text(c) == t for c in el)
        ):
            texts.add(t)
    for page in samples[1:]:
        texts &= page.all_texts
    counts = dict.fromkeys(texts, 0)
    for page in unseen:
        for t in page.all_texts & texts:
            counts[t] += 1
    return {t for t, n in counts.items() if n >= min_share * len(unseen)}


def look_alikes(fp: dict[str, Any], page: Page, texts: set[str]) -> list[str]:
    """Of ``texts`` (boilerplate), those whose node on ``page`` is alike to the fingerprint.

    A field whose values differ from page to page is never one of them: stored in the
    fingerprint (``avoid``), they keep healing off a section heading or a label that resembles
    the field ("Product Details" for a title) and sits nearer the record's other fields.
    """
    found: dict[str, float] = {}
    for el in page.elements:
        t = page.texts.text(el)
        if t in texts and not page.is_hidden(el) and t not in found:
            score = similarity(fp, el, page, t)
            if score >= AVOID_SIMILARITY:
                found[t] = score
    return sorted(found, key=lambda t: -found[t])[:AVOID_MAX]


def label_fits(fp: dict[str, Any], el: etree._Element, page: Page) -> bool:
    """False when the fingerprint has a label and the node's label is another one."""
    want = fp.get("label")
    if not want:
        return True
    got = text_label(el, page)
    # A label reworded a little ("Publisher:" -> "Publisher", "Author" -> "Authors") is the same;
    # another word ending alike is not ("Autor:" against "Traductor:" is 75).
    return got is not None and fuzz.ratio(want.lower(), got.lower()) >= LABEL_ALIKE


def _classes_alike(want: list[str], got: list[str]) -> float:
    """How alike two class lists are: the share of classes both have; else, at half weight, how
    alike their spellings are ("product-title" for "product__title"). Spelling alone would take
    the list price's ``_3I9_wc _2p6lqe`` for the price's ``_30jeq3 _16Jk6d`` half the way."""
    if not want or not got:
        return 0.0
    both = set(want) & set(got)
    if both:
        return len(both) / len(set(want) | set(got))
    return fuzz.token_set_ratio(" ".join(want), " ".join(got)) / 200


def similarity(
    fp: dict[str, Any], el: etree._Element, page: Page, value: str, labelled_regex: bool = False
) -> float:
    """How alike ``el`` (whose value would be ``value``) is to the fingerprint, in ``[0, 1]``.

    ``labelled_regex``: the value was cut out by the field's regex around a label
    (``^Binding: (.+?)$``), as telling as a label before the node.
    """
    kind = fp.get("kind")
    if kind and not has_kind(value, kind):
        return 0.0
    if not label_fits(fp, el, page):
        return 0.0
    scores: list[tuple[float, float]] = []  # (weight, score)
    tag = fp.get("tag") or ""
    scores.append((1.0, 1.0 if el.tag == tag else 0.6 if _bare(el.tag) == _bare(tag) else 0.0))
    parent = el.getparent()
    want_parent = (fp.get("path") or ["", ""])[-2] if len(fp.get("path") or []) > 1 else ""
    # The parent's tag, or its family at less (an ``h1`` title beside the related books' ``h3``s).
    same_parent = parent is not None and _tag(_sig(parent)) == _tag(want_parent)
    family = parent is not None and _bare(_sig(parent)) == _bare(want_parent)
    scores.append((1.0, 1.0 if same_parent else 0.75 if family else 0.0))
    # Every class of the node, generated-looking or not: a redesign that hashes the title's class
    # ("x9a8b71234") must not leave it with less class likeness than a related book's "x46c6ce".
    classes = (el.get("class") or "").split()
    want = list(fp.get("classes") or [])
    if want or classes:
        scores.append((1.0, _classes_alike(want, classes)))
    attrs = fp.get("attrs") or {}
    if attrs:
        scores.append((1.5, sum(el.get(k) == v for k, v in attrs.items()) / len(attrs)))
    if fp.get("label") or labelled_regex:
        scores.append((3.0, 1.0))  # label_fits passed, or the regex found its label
    if kind:
        scores.append((1.0, 1.0))
    mine = shape(value)
    shapes = fp.get("shapes") or [fp.get("shape", "")]  # the site's shapes, when one is not enough
    scores.append((1.0, max(fuzz.ratio(s, mine) for s in shapes) / 100))
    length = fp.get("length") or 1
    scores.append((0.5, min(length, len(value)) / max(length, len(value), 1)))
    if not fp.get("many"):  # a list item's neighbours depend on how many items there are
        for key, forward in (("prev", False), ("next", True)):
            if key in fp and fp[key] is None:
                continue  # it differs from page to page on the site (unsteady_neighbours)
            sib = _sibling(el, forward)
            # Compared relative to the node (a sibling of the same tag or not), so a redesign
            # renaming every tag does not make every neighbour look different.
            want_same = bool(fp.get(key)) and fp[key].split(".")[0].split("#")[0] == fp.get("tag")
            got_same = sib is not None and sib.tag == el.tag
            scores.append((0.4, fuzz.ratio(fp.get(key, ""), _sig(sib)) / 100))
            scores.append(
                (0.4, 1.0 if want_same == got_same and bool(fp.get(key)) == (sib is not None) else 0.0)
            )
    path = [_sig(a) for a in reversed(list(ancestors_or_self(el)))]
    want_path = fp.get("path") or []
    scores.append((1.0, path_likeness(fp, el)))
    # The tags alone: renamed classes leave them, the depth and the order of the tags.
    tags = [_bare(p) for p in path]
    scores.append((1.0, fuzz.ratio(" ".join(_bare(p) for p in want_path), " ".join(tags)) / 100))
    total = sum(w for w, _ in scores)
    score = sum(w * s for w, s in scores) / total
    if {_tag(p) for p in path} & _LANDMARKS - {_tag(p) for p in want_path}:
        # A redesign does not move a record's field into the page's header, footer or nav,
        # where a short link ("Help") can look as much like a short title as the heading does.
        score *= LANDMARK_PENALTY
    return score
