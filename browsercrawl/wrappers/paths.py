"""CSS paths to a node: precise, merged across samples, generalised over siblings, by label.

A step is the bare tag when no sibling shares it, else a class/id/attribute that tells the node
from its siblings, else ``:nth-of-type(n)``. Positions are what breaks first when a site adds an
optional row, so two sturdier forms are offered beside the precise path: the path with its
positions dropped (exact only when a regex or a class still picks the one node) and the *label*
path ``dt:contains("Publisher") + dd``, anchored on the stable label text just before the value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from lxml import etree

from browsercrawl.wrappers.dom import Page, is_leaf
from browsercrawl.wrappers.leads import has_words, is_lead, lead_holder, text_before
from browsercrawl.wrappers.model import _ATTR_ORDER, _CLASS_TOKEN, _GENERATED, norm

_NTH = re.compile(r":nth-of-type\(\d+\)")
_LAST = ":last-of-type"
_TAG = re.compile(r"[\w-]+")
_LABEL_MAX = 40
_COLUMN_LABEL_WORDS = 4  # "Number of pages", "Date de parution"
# Attributes whose values tell machines what a node is (schema.org microdata, RDFa, ARIA).
MARKING_ATTRS = ("itemprop", "property", "rel", "role", "typeof")
STATE_ATTRS = ("selected", "checked", "aria-selected", "aria-checked", "aria-current", "aria-pressed")


def css_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def step(el: etree._Element, *, positional: bool = True) -> str:
    """One precise step: tag, else tag + telling attribute, else tag:nth-of-type(n)."""
    tag = el.tag
    parent = el.getparent()
    if parent is None:
        return tag
    same = [s for s in parent if s.tag == tag]
    if len(same) == 1:
        return tag
    others = [s for s in same if s is not el]
    # The chosen one of a run (a variant select's option, a checked radio, the current tab) is
    # marked by a state attribute; its position changes from page to page, the mark does not.
    # It comes before a ``data-*`` value naming the item ("data-format=hardcover": which item is
    # chosen changes from page to page).
    own_state = next(
        (
            f"{tag}[{name}]" if val in ("", name) else f"{tag}[{name}={css_string(val)}]"
            for name in STATE_ATTRS
            if (val := el.get(name)) is not None and val != "false"
            and not any(s.get(name) not in (None, "false") for s in others)
        ),
        None,
    )
    for name in (*_ATTR_ORDER, *sorted(k for k in el.attrib if k.startswith("data-"))):
        if name.startswith("data-") and own_state:
            return own_state
        val = el.get(name)
        if not val or _GENERATED.search(val):
            continue
        if name == "class":
            for token in val.split():
                if _CLASS_TOKEN.match(token) and not any(
                    token in (s.get("class") or "").split() for s in others
                ):
                    return f"{tag}.{token}"
            continue
        if not any(s.get(name) == val for s in others):
            if name == "id" and _CLASS_TOKEN.match(val):
                return f"{tag}#{val}"
            return f"{tag}[{name}={css_string(val)}]"
    if own_state:
        return own_state
    for name in STATE_ATTRS:  # the state may sit on a child: a format switcher's <li><button aria-pressed>
        marked = _marked_inside(el, name)
        if marked is not None and not any(_marked_inside(s, name) is not None for s in others):
            val = marked.get(name)
            attr = f"[{name}]" if val in ("", name) else f"[{name}={css_string(val)}]"
            return f"{tag}:has({marked.tag}{attr})"  # no " > " inside: paths split on it
    if not positional:
        return tag
    return f"{tag}:nth-of-type({same.index(el) + 1})"


def _marked_inside(el: etree._Element, name: str, depth: int = 2) -> etree._Element | None:
    """The first element at most ``depth`` levels below ``el`` whose state ``name`` is on."""
    level = [el]
    for _ in range(depth):
        level = [c for node in level for c in node if isinstance(c.tag, str)]
        for c in level:
            if c.get(name) not in (None, "false"):
                return c
    return None


def precise_steps(el: etree._Element, page: Page, *, anchor: bool = True) -> list[str]:
    """Steps from the root (or from the nearest element with a unique stable id) down to ``el``."""
    steps: list[str] = []
    node = el
    while node is not None and isinstance(node.tag, str):
        node_id = node.get("id")
        if (
            anchor
            and node is not el
            and node_id
            and page.ids.get(node_id) == 1
            and _CLASS_TOKEN.match(node_id)
            and not _GENERATED.search(node_id)
        ):
            steps.append(f"{node.tag}#{node_id}")
            break
        steps.append(step(node))
        node = node.getparent()
    return list(reversed(steps))


def last_of_type_steps(el: etree._Element, page: Page) -> list[str] | None:
    """:func:`precise_steps` with each position that is the last of its tag as ``:last-of-type``.

    Breadcrumbs end with the page's own section however deep it is (``std::io`` /
    ``std::str::pattern``): "the last link" holds where "the second link" does not. None when
    no step is a last one.
    """
    steps = precise_steps(el, page)
    nodes = _chain(el, len(steps))
    out, changed = [], False
    for st, node in zip(steps, nodes, strict=True):
        parent = node.getparent()
        if _NTH.search(st) and parent is not None and [s for s in parent if s.tag == node.tag][-1] is node:
            out.append(_NTH.sub(":last-of-type", st))
            changed = True
        else:
            out.append(st)
    return out if changed else None


def attribute_steps(el: etree._Element, page: Page) -> list[list[str]]:
    """One-step paths ``[attr="value"]`` anywhere on the page, for ``el`` and the wrappers
    around it with the same text.

    A shop that shows a sale price in one block and a plain price in another (``special-price >
    ... > span`` on some pages, ``price-box > span > span`` on others) gives the value no common
    path, but both carry the same machine-read mark (``data-price-type="finalPrice"``,
    ``itemprop="price"``); the samples and the unseen pages then tell whether the mark holds.
    """
    out: list[list[str]] = []
    text = page.texts.text(el)
    node: etree._Element | None = el
    while node is not None and isinstance(node.tag, str) and page.texts.text(node) == text:
        for name in sorted(node.attrib):
            val = node.get(name) or ""
            if (
                (name in ("itemprop", "property", "role") or name.startswith("data-"))
                and val
                and not (_GENERATED.search(val) or any(c.isdigit() for c in val))
            ):
                out.append([f"[{name}={css_string(val)}]"])  # any tag: a redesign may change it
        node = node.getparent()
    return out


def stable_classes(el: etree._Element) -> list[str]:
    """Class tokens usable in a path: valid identifiers that do not look generated."""
    return [t for t in (el.get("class") or "").split() if _CLASS_TOKEN.match(t) and not _GENERATED.search(t)]


def class_steps(el: etree._Element, page: Page) -> list[str]:
    """Like :func:`precise_steps`, but a node with stable classes is ``tag.class1.class2``.

    Same-class siblings (``dd.contrib`` twice under one ``dl``) are then all matched: the form a
    repeated field takes when its items are told from their neighbours by class, not position.
    """
    out = []
    for s, node in zip(precise_steps(el, page), _chain(el, len(precise_steps(el, page))), strict=True):
        cls = stable_classes(node)
        out.append(node.tag + "".join(f".{t}" for t in cls) if cls and "#" not in s else s)
    return out


def _chain(el: etree._Element, n: int) -> list[etree._Element]:
    nodes = []
    node = el
    while node is not None and len(nodes) < n:
        nodes.append(node)
        node = node.getparent()
    return list(reversed(nodes))


def merge_steps(a: list[str], b: list[str]) -> list[str] | None:
    """Two paths to corresponding nodes -> one: differing steps lose their position/attribute."""
    if len(a) != len(b):
        return None
    out = []
    for x, y in zip(a, b, strict=True):
        if x == y:
            out.append(x)
            continue
        tx, ty = _TAG.match(x), _TAG.match(y)
        if not tx or not ty or tx.group(0) != ty.group(0):
            return None
        out.append(tx.group(0))
    return out


def generalise_pair(a: list[str], b: list[str]) -> list[str] | None:
    """Two instances of a repeated field: drop the position where they are different siblings.

    Walks from the leaf up to the first step where the two differ under the same parent path:
    they are siblings there, so that step becomes the bare tag (the paper's rule). Deeper steps
    that differ lose their position too.
    """
    if len(a) != len(b):
        return None
    for i in range(len(a) - 1, -1, -1):
        if a[i] != b[i] and a[:i] == b[:i]:
            tag = _TAG.match(a[i])
            out = [*a[:i], tag.group(0) if tag else a[i]]
            out += [x if x == y else _NTH.sub("", x) for x, y in zip(a[i + 1 :], b[i + 1 :], strict=True)]
            return out
    return list(a)


def without_positions(steps: list[str]) -> list[str]:
    return [_NTH.sub("", s).replace(_LAST, "") for s in steps]


def positions(css: str) -> int:
    """How many ``:nth-of-type`` steps a path has: each is a place a layout change breaks it."""
    return len(_NTH.findall(css))


def join(steps: list[str]) -> str:
    return " > ".join(steps)


def _previous(el: etree._Element) -> etree._Element | None:
    prev = el.getprevious()
    while prev is not None and not isinstance(prev.tag, str):
        prev = prev.getprevious()
    return prev


# Attributes that name an element with no text of its own: an icon standing for a label.
_NAMING_ATTRS = ("title", "aria-label")


def _icon_label(el: etree._Element, page: Page) -> tuple[str, str] | None:
    """``(attribute, text)`` when ``el`` shows no text and is named by an attribute (an icon).

    ``<i class="bi bi-building" title="Publisher" aria-hidden="true"></i> Tor``: a person reads
    the icon (its tooltip says what it means), so it labels the value after it. Icons are usually
    ``aria-hidden``; that does not make them invisible.
    """
    if page.texts.text(el):
        return None
    for name in _NAMING_ATTRS:
        text = norm(el.get(name))
        if text and len(text) <= _LABEL_MAX and re.search(r"[^\W\d_]", text):
            return name, text
    return None


def _label_node(el: etree._Element, page: Page) -> tuple[etree._Element, str, str | None] | None:
    """The element just before ``el`` when it is a label: (element, text, naming attribute)."""
    prev = _previous(el)
    if prev is None or (prev.tail or "").strip():
        return None
    icon = _icon_label(prev, page)
    if icon is not None:
        return prev, icon[1], icon[0]
    # A label is a leaf (``<dt>``, ``<th>``, ``<span class=k>``; an icon inside, or one wrapper
    # element around its text, is fine), never a block of its own.
    # A hidden label labels only a hidden value (both in a closed tab), never a visible one.
    if (page.is_hidden(prev) and not page.is_hidden(el)) or not _leafish(prev, page):
        return None
    text = page.texts.text(prev)
    if not text or len(text) > _LABEL_MAX or not re.search(r"[^\W\d_]", text):
        return None
    return prev, text, None


def label_of(el: etree._Element, page: Page) -> str | None:
    """The short text of the element just before ``el`` (``<dt>Publisher</dt>``), if any."""
    found = _label_node(el, page)
    return found[1] if found else None


def _leafish(el: etree._Element, page: Page) -> bool:
    """No child holds text, or one child holds all of it and is leafish (``dt > span``)."""
    if is_leaf(el):
        return True
    holding = [c for c in el if isinstance(c.tag, str) and page.texts.text(c)]
    if not holding:
        return True
    own = norm((el.text or "") + "".join(c.tail or "" for c in el))
    return len(holding) == 1 and not own and _leafish(holding[0], page)


def label_after(el: etree._Element, page: Page) -> str | None:
    """The label written after the value, in a pair of its own (``<li><b>Tor</b> <span>publisher
    </span></li>``): the parent holds just the two, the second a short leaf text with letters."""
    parent = el.getparent()
    if parent is None or (parent.text or "").strip():
        return None
    kids = [c for c in parent if isinstance(c.tag, str)]
    if len(kids) != 2 or kids[0] is not el or (el.tail or "").strip() or (kids[1].tail or "").strip():
        return None
    after = kids[1]
    if (page.is_hidden(after) and not page.is_hidden(el)) or not _leafish(after, page):
        return None
    text = page.texts.text(after)
    if not text or len(text) > _LABEL_MAX or not re.search(r"[^\W\d_]", text):
        return None
    return text


def _label_after_steps(el: etree._Element, page: Page, label: str | None) -> list[str] | None:
    """``ul > li:contains("ISBN-13") > b``: the value found by the label after it in its pair."""
    text = label_after(el, page)
    if text is None or (label is not None and label not in text):
        return None
    parent = el.getparent()
    up = without_positions(precise_steps(parent, page))
    cls = [t for t in (el.get("class") or "").split() if _CLASS_TOKEN.match(t) and not _GENERATED.search(t)]
    me = el.tag + "".join(f".{t}" for t in cls[:2])
    return [*up[:-1], f"{_TAG.match(up[-1]).group(0)}:contains({css_string(label or text)})", me]


def _climbs(node: etree._Element) -> bool:
    """Look for the label one level up only from a first child (``td > span``, ``dd > a``)."""
    return _previous(node) is None


def label_steps(el: etree._Element, page: Page, label: str) -> list[str] | None:
    """``... > dt:contains("Publisher") + dd``: the node found by the label before it.

    Walks up at most two levels (a value cell inside a row: ``th:contains("ISBN") + td``, or
    ``div.label:contains("Date") + div.value``) to the first node whose previous sibling is a
    label; the parent path loses its positions, the label step keeps only its tag and classes.
    """
    node = el
    tail: list[str] = []
    for _ in range(3):
        found = _label_node(node, page)
        text = found[1] if found else None
        if found is not None and text is not None and (label is None or label in text):
            prev, _, attr = found
            cls = [
                t
                for t in (prev.get("class") or "").split()
                if _CLASS_TOKEN.match(t) and not _GENERATED.search(t)
            ]
            if attr is not None:  # an icon: found by what its attribute says, not by its class
                lab = f"{prev.tag}[{attr}={css_string(text)}]"
            else:
                lab = prev.tag + "".join(f".{t}" for t in cls[:2]) + f":contains({css_string(label or text)})"
            me = _TAG.match(step(node, positional=False)).group(0)
            cls_me = [
                t
                for t in (node.get("class") or "").split()
                if _CLASS_TOKEN.match(t) and not _GENERATED.search(t)
            ]
            me += "".join(f".{t}" for t in cls_me[:2])
            parent = node.getparent()
            up = without_positions(precise_steps(parent, page)) if parent is not None else []
            return [*up, f"{lab} + {me}", *tail]
        if not _climbs(node):
            return _label_after_steps(el, page, label)
        tail.insert(0, step(node))
        node = node.getparent()
        if node is None or not isinstance(node.tag, str):
            return _label_after_steps(el, page, label)
    return _label_after_steps(el, page, label)


def run_of(steps: list[str] | None) -> list[str] | None:
    """A label path made to match every item under the labelled node (a repeated field)."""
    if not steps:
        return None
    i = next((k for k, st in enumerate(steps) if " + " in st), len(steps))
    return [*steps[: i + 1], *without_positions(steps[i + 1 :])]


def text_label(el: etree._Element, page: Page) -> str | None:
    """The label for ``el`` as :func:`label_steps` would use it, walking up two levels; else the
    label after it (:func:`label_after`), else the words its block starts with (``leads.py``)."""
    node = el
    for _ in range(3):
        text = label_of(node, page)
        if text is not None:
            return norm(text)
        parent = node.getparent()
        if parent is not None and has_words(lead := text_before(parent, el)):
            # "<li>Brand: <a>Tor</a></li>": the words before it in its own row, nearer than
            # whatever stands before the list of rows (the title's heading). More than a label's
            # words are a sentence: no label before it, maybe one after it.
            if is_lead(lead):
                return lead
            break
        if not _climbs(node):
            break
        node = parent
        if node is None or not isinstance(node.tag, str):
            break
    after = label_after(el, page)
    return norm(after) if after is not None else None


def _run_label(el: etree._Element, page: Page) -> str | None:
    """The label of one item of a run, as :func:`text_label` finds it, but a previous item of
    the same shape (``dd.contrib`` after ``dd.contrib``) is the run going on, not a label."""
    node = el
    for _ in range(3):
        found = _label_node(node, page)
        if found is not None:
            prev = found[0]
            same = prev.tag == node.tag and prev.get("class") == node.get("class")
            return None if same else norm(found[1])
        if not _climbs(node):
            return None
        node = node.getparent()
        if node is None or not isinstance(node.tag, str):
            return None
    return None


def one_label(nodes: list[etree._Element], page: Page) -> bool:
    """Whether the nodes of a run stand under at most one label (unlabelled items aside).

    Rows of a table of facts have the same shape (``tr > td > a`` for "Publisher:" and for
    "Series:"), but each row's label names another field: a list is a run under one label.
    """
    labels = {_run_label(el, page) for el in nodes} - {None}
    return len(labels) <= 1


def column_of(el: etree._Element, page: Page) -> tuple[str, str, str, list[str]] | None:
    """``el`` as the i-th of a run of cells beside a parallel run of labels, if it is one.

    A column of labels next to a column of values (``div.labels > div`` / ``div.values > div``),
    or a header row over a data row (``tr > th`` / ``tr > td``, the header row maybe in the
    table's ``<thead>``): the parent's sibling with as many cells (three or more), whose i-th cell
    is a short leaf text. Returns (values CSS, labels CSS,
    label text, the row's other labels).
    """
    parent = el.getparent()
    grand = parent.getparent() if parent is not None else None
    if grand is None:
        return None
    cells = [c for c in parent if isinstance(c.tag, str)]
    # Three cells at least: two are a row's label and value (``th`` + ``td``), not a column.
    if len(cells) < 3 or any(c.tag != el.tag for c in cells):
        return None
    i = cells.index(el)
    rows = [q for q in grand if q is not parent and isinstance(q.tag, str)]
    if grand.tag in ("tbody", "tfoot"):  # the header row sits in the table's <thead>
        table = grand.getparent()
        heads = [h for h in table if h.tag == "thead"] if table is not None else []
        rows += [q for h in heads for q in h if q.tag == "tr"]
    for q in rows:
        labels = [c for c in q if isinstance(c.tag, str)]
        if len(labels) != len(cells) or len({c.tag for c in labels}) != 1 or not _leafish(labels[i], page):
            continue
        text = page.texts.text(labels[i])
        if not text or len(text) > _LABEL_MAX or not re.search(r"[^\W\d_]", text):
            continue
        if len(text.split()) > _COLUMN_LABEL_WORDS:
            continue  # a sentence ("Ships in 1 to 2 business days") is no column's label
        # Without positions: the label row is found by its labels, so a block moved before the
        # table (or a second table with an "Author" column) does not change which row is read.
        values_css = join([*without_positions(precise_steps(parent, page)), el.tag])
        labels_css = join([*without_positions(precise_steps(q, page)), labels[i].tag])
        others = [t for c in labels if (t := page.texts.text(c)) and t != text]
        return values_css, labels_css, text, others
    return None


def lead_steps(el: etree._Element, page: Page) -> tuple[list[str], str] | None:
    """``... > li:lead("Print edition:") > span``: the node found by the words its block starts
    with ("<li>Print edition: <span>Paperback</span></li>"), where no element of its own holds
    the label; the path keeps no positions. With the lead, or None when there is none."""
    held = lead_holder(el, el)
    if held is None:
        return None
    _, up, lead = held
    steps = without_positions(precise_steps(el, page, anchor=False))
    at = len(steps) - 1 - up
    if at < 0:
        return None
    steps[at] += f":lead({css_string(lead)})"
    return steps, lead


def stray_marks(
    values: Iterable[etree._Element],
    strays: Iterable[etree._Element],
    classes: Callable[[etree._Element], list[str]] = stable_classes,
) -> str | None:
    """``:not(.btn):not([target])``: what leaves the ``strays`` out of a run they share with the
    ``values``, by a class or an attribute each stray has and no value has; None when a stray has
    no such mark, when there is no stray, or when the values share a class no stray has (the
    items' own class, ``span.name``, is a sturdier path than a "not")."""
    def marks_of(el: etree._Element) -> set[str]:
        out = {f".{c}" for c in classes(el)}
        return out | {f"[{a}]" for a in el.attrib if re.fullmatch(r"[a-z][\w-]*", a) and a != "class"}

    value_marks: set[str] = set()
    shared: set[str] | None = None
    for el in values:
        marks = marks_of(el)
        value_marks |= marks
        own_classes = {m for m in marks if m[0] == "."}
        shared = own_classes if shared is None else shared & own_classes
    stray_sets = [marks_of(el) for el in strays]
    if not stray_sets or (shared and not all(shared <= marks for marks in stray_sets)):
        return None
    chosen: list[str] = []
    for marks in stray_sets:
        own = sorted(marks - value_marks)
        if not own:
            return None
        if not any(m in marks for m in chosen):
            chosen.append(own[0])
    return "".join(f":not({m})" for m in chosen)

