"""HTML parsing for pages fetched over plain HTTP (the browser path gets the same fields from the DOM).

Runs in a worker thread (lxml releases the GIL for much of its parsing), never on the event loop.
"""

from __future__ import annotations

from urllib.parse import urljoin

import lxml.html
from lxml import etree

_SKIP_TEXT = {"script", "style", "noscript", "template", "head"}


def _collapse(s: str) -> str:
    return " ".join(s.split())


def parse_html(html: str | bytes, base_url: str) -> tuple[str, str, list[tuple[str, str]]]:
    """Return (title, visible text, links as (absolute URL, anchor text)) of an HTML document."""
    if not html or not html.strip():
        return "", "", []
    try:
        doc = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return "", "", []
    base = doc.find(".//base[@href]")
    if base is not None:
        base_url = urljoin(base_url, base.get("href", ""))
    title_el = doc.find(".//title")
    title = _collapse(title_el.text_content()) if title_el is not None else ""

    body = doc.find("body")
    text = ""
    if body is not None:
        for node in list(body.iter(*_SKIP_TEXT)):
            node.drop_tree()
        text = _collapse(" ".join(body.itertext()))

    links: list[tuple[str, str]] = []
    seen: set[str] = set()
    for a in doc.iterfind(".//a[@href]"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("javascript:", "mailto:", "tel:", "#")):
            continue
        absolute = urljoin(base_url, href)
        if not absolute.startswith(("http://", "https://")) or absolute in seen:
            continue
        seen.add(absolute)
        links.append((absolute, _collapse(a.text_content())[:200]))
    return title, text, links
