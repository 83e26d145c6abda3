"""The words a block of items starts with: "By <a>A</a>, <a>B</a>" against "Narrated by <a>N</a>".

Sites write the authors and another role's people (narrators, translators, illustrators) in
blocks of one shape, the same tag and class, told apart only by the words before the first name.
The learner reads those words on the samples (the block's *lead*) and, when the unseen pages show
blocks of the same shape with other leads, keeps the path to the samples' lead with the
``:lead("By")`` step (``model.py``). A single value's lead is its label when no element of its
own holds one: "<li>Print edition: <span>Paperback</span></li>" (``paths.py``).
"""

from __future__ import annotations

import re

from lxml import etree

from browsercrawl.wrappers.model import norm

# A lead is a label, not a sentence: "By", "af", "Written by", "Auteur :".
MAX_LEAD_WORDS = 3
MAX_LEAD_CHARS = 24
# How far above an item's block the lead may stand: "<h2>By <span><a>A</a></span></h2>".
MAX_LEAD_LEVELS = 3
_LETTER = re.compile(r"[^\W\d_]")


def text_before(holder: etree._Element, node: etree._Element) -> str:
    """The words ``holder`` itself writes before its descendant ``node``, whitespace collapsed:
    its own text and that of the elements on the way down to ``node``, not what other elements
    before it hold ("<li>Brand: <a>Tor</a></li>" gives "Brand:"; in "<ul><li><b>Vintage</b>
    publisher</li><li><b>Tor</b>..." the first row is no text of the list before the second)."""
    # The ancestors are kept alive: lxml makes a new proxy per access, and a dropped one's id
    # may be given to another element's.
    chain = list(node.iterancestors())
    on_the_way = {id(a) for a in chain}
    out: list[str] = []

    def walk(el: etree._Element) -> bool:
        out.append(el.text or "")
        for child in el:
            if child is node:
                return True
            if id(child) in on_the_way and walk(child):
                return True
            out.append(child.tail or "")
        return False

    walk(holder)
    return norm("".join(out))


def lead_text(holder: etree._Element, node: etree._Element) -> str:
    """The words a block starts with before its item ``node``: its own words
    (:func:`text_before`), or else the text of a label element opening it ("<div><span>Tác giả:
    </span><a>A</a>, <a>B</a></div>")."""
    own = text_before(holder, node)
    if has_words(own):
        return own
    # The label element: the block's first child, a leaf, right before the item's branch.
    branch = node
    while branch.getparent() is not None and branch.getparent() is not holder:
        branch = branch.getparent()
    first = next((c for c in holder if isinstance(c.tag, str)), None)
    before = branch.getprevious()
    while before is not None and not isinstance(before.tag, str):
        before = before.getprevious()
    if first is None or before is not first or len(first):
        return own
    label = norm("".join(first.itertext()))
    return label if is_lead(label) else own


def has_words(text: str) -> bool:
    """Whether a text has a letter: punctuation between links ("::", ", ") has none."""
    return bool(_LETTER.search(text))


def is_lead(text: str) -> bool:
    """Whether words before a value can be its label: a few words with a letter ("By", "af",
    "Brand:"), not punctuation between links ("::") nor a sentence."""
    return has_words(text) and len(text) <= MAX_LEAD_CHARS and len(text.split()) <= MAX_LEAD_WORDS


def lead_holder(node: etree._Element, unit: etree._Element) -> tuple[etree._Element, int, str] | None:
    """The nearest ancestor above the item's ``unit`` whose own words before ``node`` are a short
    lead, with how many levels it stands above ``node`` and the lead; None when the first ancestor
    with words before the item holds more than a label (a sentence)."""
    up = 0
    el = node
    while el is not unit:
        el, up = el.getparent(), up + 1
    for _ in range(MAX_LEAD_LEVELS):
        el, up = el.getparent(), up + 1
        if el is None:
            return None
        lead = lead_text(el, node)
        if has_words(lead):
            return (el, up, lead) if is_lead(lead) else None
    return None


def ancestor(node: etree._Element, up: int) -> etree._Element | None:
    """The element ``up`` levels above ``node``."""
    el: etree._Element | None = node
    for _ in range(up):
        el = el.getparent() if el is not None else None
    return el

