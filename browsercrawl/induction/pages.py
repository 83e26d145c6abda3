"""Page-level pieces of the GWC initialisation: topic keywords, tunneling weights, page kinds.

* :class:`KeywordExpr` parses topic expressions such as ``sichuan&&(tofu||chicken)&&!sponsored``
  with a small recursive-descent parser (never ``eval``): ``!`` binds tightest, then ``&&``,
  then ``||``; quotes make a phrase; matching is case-insensitive substring search, which also
  works for languages written without spaces.
* :class:`TunnelingScorer` gives a page weight 0 when its text (links removed) matches the
  keywords or when it links to a target page, else its parent's weight + 1; the crawl skips pages
  heavier than the threshold (``round(mean weight)`` of the pre-crawl).
* :func:`classify_pages` splits pages into target candidates and directory pages by how many
  URLs they hold compared with the entry page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import lxml.html
from lxml import etree

from browsercrawl.errors import UserError

# --------------------------------------------------------------------------------------------
# Keyword expressions

_TOKENS = re.compile(r'\s*(?:(?P<op>&&|\|\||!|\(|\))|"(?P<quoted>[^"]*)"|(?P<word>[^\s&|!()"]+))')


@dataclass(frozen=True)
class _Node:
    op: str  # "word", "and", "or", "not"
    args: tuple[_Node, ...] = ()
    word: str = ""

    def eval(self, text: str) -> bool:
        if self.op == "word":
            return self.word in text
        if self.op == "not":
            return not self.args[0].eval(text)
        if self.op == "and":
            return all(a.eval(text) for a in self.args)
        return any(a.eval(text) for a in self.args)


class KeywordExpr:
    """A boolean keyword expression: ``a&&b||c``, ``!x``, ``(a||b)&&"two words"``."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._tokens = self._lex(source)
        self._pos = 0
        if not self._tokens:
            raise UserError(f"keyword expression {source!r} is empty")
        self._root = self._or()
        if self._pos != len(self._tokens):
            raise UserError(f"keyword expression {source!r}: unexpected {self._tokens[self._pos][1]!r}")

    def _lex(self, source: str) -> list[tuple[str, str]]:
        tokens, pos = [], 0
        source = source.rstrip()
        while pos < len(source):
            m = _TOKENS.match(source, pos)
            if not m or m.end() == pos:
                raise UserError(f"keyword expression {source!r}: cannot read {source[pos:]!r}")
            if m["op"]:
                tokens.append(("op", m["op"]))
            elif m["quoted"] is not None:
                if not m["quoted"].strip():
                    raise UserError(f"keyword expression {source!r}: empty quoted phrase")
                tokens.append(("word", m["quoted"]))
            else:
                tokens.append(("word", m["word"]))
            pos = m.end()
        return tokens

    def _peek(self) -> tuple[str, str] | None:
        return self._tokens[self._pos] if self._pos < len(self._tokens) else None

    def _take(self, value: str) -> bool:
        if self._peek() == ("op", value):
            self._pos += 1
            return True
        return False

    def _or(self) -> _Node:
        args = [self._and()]
        while self._take("||"):
            args.append(self._and())
        return args[0] if len(args) == 1 else _Node("or", tuple(args))

    def _and(self) -> _Node:
        args = [self._not()]
        while self._take("&&"):
            args.append(self._not())
        return args[0] if len(args) == 1 else _Node("and", tuple(args))

    def _not(self) -> _Node:
        if self._take("!"):
            return _Node("not", (self._not(),))
        return self._atom()

    def _atom(self) -> _Node:
        tok = self._peek()
        if tok is None:
            raise UserError(f"keyword expression {self.source!r} ends too early")
        if self._take("("):
            node = self._or()
            if not self._take(")"):
                raise UserError(f"keyword expression {self.source!r}: missing ')'")
            return node
        if tok[0] != "word":
            raise UserError(f"keyword expression {self.source!r}: unexpected {tok[1]!r}")
        self._pos += 1
        return _Node("word", word=tok[1].casefold())

    def matches(self, text: str) -> bool:
        """Whether ``text`` satisfies the expression (case-insensitive substrings)."""
        return self._root.eval(text.casefold())

    def __repr__(self) -> str:
        return f"KeywordExpr({self.source!r})"


# --------------------------------------------------------------------------------------------
# Page text without links


def text_without_links(html: str | bytes) -> str:
    """The visible text of a page with every ``a[href]`` (text and all) removed.

    The paper removes link text before the keyword test so that navigation menus and "related"
    lists do not make every page look on-topic.
    """
    if isinstance(html, str):
        html = html.encode("utf-8")
    if not html.strip():
        return ""
    try:
        root = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return ""
    for el in root.xpath("//a[@href] | //script | //style | //noscript | //template"):
        tail = el.tail
        parent = el.getparent()
        if parent is None:
            continue
        prev = el.getprevious()
        if tail:  # keep the text that follows the removed element
            if prev is not None:
                prev.tail = (prev.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
        parent.remove(el)
    return " ".join(root.text_content().split())


# --------------------------------------------------------------------------------------------
# Tunneling weights


class TunnelingScorer:
    """Weights pages by tunneling: 0 when relevant, else the parent's weight + 1."""

    def __init__(self, keywords: KeywordExpr | str | None, target_regex: str | None) -> None:
        if isinstance(keywords, str):
            keywords = KeywordExpr(keywords) if keywords.strip() else None
        self.keywords = keywords
        self.target = re.compile(target_regex) if target_regex else None

    def is_relevant(self, text: str, out_links: Iterable[str]) -> bool:
        """A keyword hit in the link-free text, or a link to a page of the target class."""
        if self.keywords is not None and self.keywords.matches(text):
            return True
        return self.target is not None and any(self.target.match(u) for u in out_links)

    def weight(self, url: str, parent_weight: int | None, text: str, out_links: Iterable[str]) -> int:
        """The page's weight; entry pages (no parent) weigh 0 like relevant pages."""
        if parent_weight is None or self.is_relevant(text, out_links):
            return 0
        return parent_weight + 1


def weight_threshold(weights: Iterable[int]) -> int:
    """``round(mean weight)`` of the pre-crawled pages (halves round up, as the paper means)."""
    ws = list(weights)
    if not ws:
        return 1
    return math.floor(sum(ws) / len(ws) + 0.5)


# --------------------------------------------------------------------------------------------
# Target vs directory pages


@dataclass
class PageKinds:
    """Target candidates (few links) and directory pages (many), with the threshold used."""

    targets: list[str]
    directories: list[str]
    threshold: float


def classify_pages(url_counts: Mapping[str, int], entry_url: str) -> PageKinds:
    """Split pages by ``d = URLs on the entry page - URLs on the page``.

    The threshold is the mean of ``d`` over all pages; a page whose ``d`` exceeds it has markedly
    fewer links than the entry page: a target candidate. The rest are directory pages.
    """
    if entry_url not in url_counts:
        raise UserError(f"entry page {entry_url} was not fetched in the pre-crawl")
    entry = url_counts[entry_url]
    diffs = {u: entry - n for u, n in url_counts.items()}
    threshold = sum(diffs.values()) / len(diffs)
    targets = [u for u, d in diffs.items() if d > threshold and u != entry_url]
    directories = [u for u, d in diffs.items() if not (d > threshold and u != entry_url)]
    return PageKinds(targets, directories, threshold)
