"""HTML parsing for pages fetched over plain HTTP (the browser path gets the same fields from the DOM).

Runs in a worker thread (lxml releases the GIL for much of its parsing), except a small page
(``parse_inline``), which costs less on the event loop than the hop to a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

from lxml import etree

_SKIP_TEXT = {"script", "style", "noscript", "template", "head"}


# Documents up to this many characters are parsed on the event loop instead of a worker thread:
# a small page parses in 0.1-0.5 ms, about what the hop to a thread and back costs in CPU on a
# loaded machine (a future, a queued work item, a thread woken, a callback through the loop's
# self-pipe), twice per page with the outcome; past it, the thread keeps the loop free.
INLINE_PARSE_CHARS = 16 * 1024


def parse_inline(html: str) -> bool:
    """Whether ``html`` is small enough to parse on the event loop (see ``INLINE_PARSE_CHARS``)."""
    return len(html) <= INLINE_PARSE_CHARS


def _collapse(s: str) -> str:
    return " ".join(s.split())


# Words in a <script type> that make the browser run it (the spec's JavaScript MIME types and
# "module"); JSON, templates and import maps run nothing.
_SCRIPT_TYPE_WORDS = ("javascript", "ecmascript", "jscript", "livescript")
# lxml.html's options without its element classes; lxml serialises threads sharing a parser.
_PARSER = etree.HTMLParser()
_TEXT = etree.XPath("string()", smart_strings=False)
_HANDLER_XPATH = etree.XPath("boolean(//@*[starts-with(name(), 'on')])")


class ParsedPage(NamedTuple):
    title: str
    text: str
    links: list[tuple[str, str]]
    # True when the document has anything a browser would run: a script element of a JavaScript
    # type, or an event handler attribute. A page without any renders exactly as its HTML reads
    # (auto mode then needs no browser to know it). None when not asked (``judge_scripts``).
    scripted: bool | None


def runs_script(doc: etree._Element) -> bool:
    """Whether a browser would run any code of this document (see ``ParsedPage.scripted``)."""
    for script in doc.iter("script"):
        kind = (script.get("type") or "").strip().lower()
        if kind in ("", "module") or any(w in kind for w in _SCRIPT_TYPE_WORDS):
            return True
    return bool(_HANDLER_XPATH(doc))


def _origin(base_url: str) -> str:
    """``scheme://netloc`` of an http(s) URL as ``urlsplit`` reads it; '' for other schemes.

    Sliced rather than split: ``urlsplit`` was a tenth of a small page's parse. The netloc ends
    at the first '/', '?' or '#' after the scheme, as ``urlsplit`` ends it; a URL with characters
    ``urlsplit`` strips or refuses (whitespace, controls, backslashes) or an upper-case scheme
    takes the slow road.
    """
    if base_url.startswith("http://"):
        start = 7
    elif base_url.startswith("https://"):
        start = 8
    else:
        return _origin_by_split(base_url)
    end = len(base_url)
    for sep in "/?#":
        i = base_url.find(sep, start, end)
        if i != -1:
            end = i
    if end == start or not base_url.isprintable() or " " in base_url or "\\" in base_url:
        return _origin_by_split(base_url)
    return base_url[:end]


def _origin_by_split(base_url: str) -> str:
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


def _joiner(base_url: str) -> Callable[[str], str]:
    """``urljoin(base_url, href)``, with the common case done without it (a third of the parse).

    A root-relative href (``/item/5?page=2``) without dot segments, parameters or an empty query
    or fragment (which ``urljoin`` would rewrite) resolves to the base's origin followed by it.
    """
    origin = _origin(base_url)

    def join(href: str) -> str:
        if (origin and href[0] == "/" and not href.startswith("//") and "/." not in href
                and ";" not in href and "\\" not in href and not href.endswith(("?", "#"))
                and "?#" not in href and href.isprintable() and " " not in href):
            return origin + href
        return urljoin(base_url, href)

    return join


def parse_page(html: str | bytes, base_url: str, *, judge_scripts: bool = True) -> ParsedPage:
    """Title, visible text, links (absolute URL, anchor text) and whether the page runs scripts.

    ``judge_scripts=False`` leaves ``scripted`` None: only auto mode asks, and the scan of every
    attribute for an event handler was a sixth of a small page's parse.

    Parsed with lxml's plain HTML parser, not ``lxml.html``'s: that one looks up a Python element
    class for every element the code touches, a fifth of a small page's parse, for methods this
    does not need (``drop_tree`` and ``text_content`` have C equivalents in ``etree``).
    """
    if not html or not html.strip():
        return ParsedPage("", "", [], False)
    try:
        doc = etree.fromstring(html, _PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return ParsedPage("", "", [], False)
    if doc is None:
        return ParsedPage("", "", [], False)
    scripted = runs_script(doc) if judge_scripts else None
    base = doc.find(".//base[@href]")
    if base is not None:
        base_url = urljoin(base_url, base.get("href", ""))
    title_el = doc.find(".//title")
    title = _collapse(_TEXT(title_el)) if title_el is not None else ""

    body = doc.find("body")
    text = ""
    if body is not None:
        # Before the links: an anchor inside a <noscript> or <template> is no link of the page.
        etree.strip_elements(body, *_SKIP_TEXT, with_tail=False)
        text = _collapse(" ".join(body.itertext()))

    links: list[tuple[str, str]] = []
    seen: set[str] = set()
    join = _joiner(base_url)
    for a in doc.iterfind(".//a[@href]"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("javascript:", "mailto:", "tel:", "#")):
            continue
        absolute = join(href)
        if not absolute.startswith(("http://", "https://")) or absolute in seen:
            continue
        seen.add(absolute)
        links.append((absolute, _collapse(_TEXT(a))[:200]))
    return ParsedPage(title, text, links, scripted)
