"""What a page and a link look like to the focused crawler: bags of tokens, one bag per field.

A page has four fields, each compared with the examples on its own (``target.py``): its visible
text (words; Chinese, Japanese and Korean runs, written without spaces, as character pairs: the
source paper's sites are Chinese), its title, the tokens of its URL (path and query split at
punctuation, digit runs turned into ``#`` so ``?id=123`` and ``?id=456`` look alike) and its
structure (``parent>child`` tag pairs and ``tag.class`` names of the body, which tell a score
table from a list of news even when the words are close). A link has the words of its anchor
and the tokens of its URL.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

import lxml.html
from lxml import etree

_WORD = re.compile(r"[^\W\d_]{2,}", re.UNICODE)
_URL_PART = re.compile(r"[A-Za-z]+|\d+")
# Words too common to tell one page from another in any topic (English; other languages rely on IDF).
_STOP = """a an and are as at be by for from has have in is it its of on or our that the their this to
was were will with we you your not no can all any may also more most than then these those they them
which who what when where how per new one two after before into out over under about only other"""
STOP_WORDS = frozenset(_STOP.split())
_SKIP = {"script", "style", "noscript", "template"}


_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")


def words(text: str | None) -> list[str]:
    """Lower-case words of two letters or more, stop words dropped; Chinese, Japanese and Korean
    text, written without spaces, as overlapping character pairs."""
    if not text:
        return []
    out = []
    for m in _WORD.findall(text):
        if _CJK_RUN.search(m):
            for run in _CJK_RUN.findall(m):
                out.extend(run[i:i + 2] for i in range(len(run) - 1))
            rest = _CJK_RUN.sub(" ", m).split()
            out.extend(w.lower() for w in rest if len(w) >= 2 and w.lower() not in STOP_WORDS)
        elif (w := m.lower()) not in STOP_WORDS:
            out.append(w)
    return out


def url_tokens(url: str) -> list[str]:
    """Path and query tokens of a URL (not its host: sites differ, shapes repeat); digits as ``#``."""
    parts = urlsplit(url)
    out = []
    for piece in _URL_PART.findall(f"{parts.path} {parts.query}"):
        out.append("#" if piece.isdigit() else piece.lower())
    segments = [s for s in parts.path.split("/") if s]
    out.append(f"depth:{len(segments)}")
    return out


def structure_tokens(html: str | None) -> list[str]:
    """``parent>child`` tag pairs and ``tag.class`` names of the body (the page's build, not its words)."""
    if not html or not html.strip():
        return []
    try:
        doc = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return []
    body = doc.find("body")
    if body is None:
        return []
    out = []
    for el in body.iter():
        tag = el.tag if isinstance(el.tag, str) else None
        if tag is None or tag in _SKIP:
            continue
        parent = el.getparent()
        if parent is not None and isinstance(parent.tag, str):
            out.append(f"{parent.tag}>{tag}")
        for cls in (el.get("class") or "").split():
            out.append(f"{tag}.{cls.lower()}")
    return out


FIELDS = ("text", "title", "url", "structure")


@dataclass(frozen=True)
class PageFeatures:
    """The four bags of one page (see module docstring)."""

    url: str
    bags: dict[str, Counter[str]]

    @classmethod
    def of(cls, url: str, title: str | None, text: str | None, html: str | None) -> PageFeatures:
        return cls(url, {
            "text": Counter(words(text)),
            "title": Counter(words(title)),
            "url": Counter(url_tokens(url)),
            "structure": Counter(structure_tokens(html)),
        })


def link_tokens(url: str, anchor: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(anchor words, URL tokens) of one link."""
    return tuple(words(anchor)), tuple(t for t in url_tokens(url) if not t.startswith("depth:"))
