"""Terms of a page and how much each counts: the weighting of the deep-web crawler's formula (1).

``weight_i = K_i * tf_i * log(N / n_i)``: ``tf`` and ``n`` are counted here and in
:mod:`browsercrawl.forms.cluster`; ``K`` is the factor of where a word stands. The paper names three
kinds of place that raise it (font, relative position, distance to the form's controls) and the
title as the example; the factors below are ours, chosen once and kept for every site:

* title 3.0; h1/h2 2.0; h3-h6 and bold/strong/em 1.5; other text 1.0;
* text in the upper third of the page's body text: x1.2;
* in the form: its labels, placeholders and button texts (next to a control) 2.0, other form
  text 1.0, the options of a select 0.5 (long lists of options would drown the rest).

The page's own text leaves out link text (the paper cleans away links before weighing) unless
``with_links`` is asked for, as result pages are mostly links to their records.
"""

from __future__ import annotations

import re
from collections import Counter

from lxml import html as lxml_html

from browsercrawl.forms.lexicon import Lexicon

K_TITLE = 3.0
K_HEADING = 2.0
K_SUBHEADING = 1.5
K_BOLD = 1.5
K_UPPER = 1.2
K_NEAR_CONTROL = 2.0
K_OPTION = 0.5

_SKIP = frozenset({"script", "style", "noscript", "template", "head", "svg", "iframe", "select",
                   "option", "textarea"})
_HEADING = {"h1": K_HEADING, "h2": K_HEADING, "h3": K_SUBHEADING, "h4": K_SUBHEADING,
            "h5": K_SUBHEADING, "h6": K_SUBHEADING}
_BOLD = frozenset({"b", "strong", "em", "th", "dt"})
_LATIN = re.compile(r"[^\W\d_]+")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+")


def tokens(text: str, lex: Lexicon, min_length: int = 3) -> list[str]:
    """Query-able words of ``text``: lower-cased letters only, no stop words; CJK as bigrams."""
    text = text.lower()
    stop = lex.stop_words
    out = [w for w in _LATIN.findall(text)
           if len(w) >= min_length and w not in stop and not _CJK_RUN.fullmatch(w)]
    if lex.cjk:
        for run in _CJK_RUN.findall(text):
            if len(run) == 1:
                if run not in stop:
                    out.append(run)
                continue
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out


def weighted_terms(root, lex: Lexicon, min_length: int, *, with_links: bool,
                   title: str = "") -> Counter[str]:
    """``K * tf`` of every term of an element's visible text (the formula's weight before IDF)."""
    pieces: list[tuple[str, float]] = []

    def walk(el, factor: float, in_link: bool) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag in _SKIP:
            return
        own = factor
        if tag in _HEADING:
            own = max(factor, _HEADING[tag])
        elif tag in _BOLD:
            own = max(factor, K_BOLD)
        link = in_link or tag == "a"
        if el.text and (with_links or not link):
            pieces.append((el.text, own))
        for child in el:
            walk(child, own, link)
            if child.tail and (with_links or not link):
                pieces.append((child.tail, own))

    if isinstance(root.tag, str):
        walk(root, 1.0, False)
    counts: Counter[str] = Counter()
    for tok in tokens(title, lex, min_length):
        counts[tok] += K_TITLE
    upper_end = sum(len(t) for t, _ in pieces) / 3
    seen = 0
    for text, factor in pieces:
        k = factor * (K_UPPER if seen < upper_end else 1.0)
        seen += len(text)
        for tok in tokens(text, lex, min_length):
            counts[tok] += k
    return counts


def page_terms(html: str, lex: Lexicon, min_length: int = 3, *, with_links: bool = False) -> Counter[str]:
    """Weighted terms of a whole HTML page (title boosted; links left out unless asked for)."""
    try:
        doc = lxml_html.document_fromstring(html)
    except (ValueError, lxml_html.etree.ParserError):
        return Counter()
    title_el = doc.find(".//title")
    title = title_el.text_content() if title_el is not None else ""
    body = doc.find("body")
    if body is None:
        return Counter({t: K_TITLE for t in tokens(title, lex, min_length)})
    return weighted_terms(body, lex, min_length, with_links=with_links, title=title)
