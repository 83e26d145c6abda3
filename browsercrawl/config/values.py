"""Checks of single values shared by every file browsercrawl reads (job files, flow files).

One rule per kind of value, so a URL or a selector refused in one file is refused in all of them:
a page URL (seed, login URL, a flow's start URL and its ``goto`` steps) must be http(s) with a host
that ``urllib`` can parse; a selector must be one Playwright accepts syntactically, checked with
cssselect when the job is loaded instead of failing every page of the crawl.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import cssselect
from lxml import etree

# Playwright's pseudo-classes whose arguments cssselect cannot parse (a selector and a number).
_PLAYWRIGHT_LAYOUT = re.compile(r":(nth-match|right-of|left-of|above|below|near)\(")
# ``engine=body`` selectors: text=, xpath=, css=, id=, data-testid=, role=, internal:... .
_ENGINE = re.compile(r"^\s*([a-zA-Z][\w:-]*)\s*=")


def check_http_url(url: str, what: str = "URL") -> str:
    """The value must be an absolute http(s) URL with a host (``file://``, ``[::1`` are refused)."""
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises ValueError on a non-numeric or out-of-range port
    except ValueError as exc:
        raise ValueError(f"{what} {url!r} is not a valid URL ({exc})") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        raise ValueError(f"{what} {url!r} is not an http(s) URL")
    return url


def _check_css(css: str, whole: str) -> None:
    if _PLAYWRIGHT_LAYOUT.search(css):
        return  # Playwright's own layout syntax; the browser checks it
    try:
        cssselect.parse(css)
    except cssselect.SelectorSyntaxError as exc:
        raise ValueError(f"selector {whole!r} is not valid CSS ({exc})") from None


def check_selector(selector: str | None) -> str | None:
    """A field validator body: a Playwright selector (CSS, ``xpath=``/``//``, ``text=``, ``>>`` chains)."""
    if selector is None:
        return None
    if not selector.strip():
        raise ValueError("selector is empty")
    for part in selector.split(">>"):
        part = part.strip()
        if not part:
            raise ValueError(f"selector {selector!r} has an empty part around '>>'")
        engine = _ENGINE.match(part)
        if part.startswith(("//", "..")) or (engine and engine.group(1) == "xpath"):
            expr = part[engine.end():] if engine else part
            try:
                etree.XPath(expr)
            except etree.XPathSyntaxError as exc:
                raise ValueError(f"selector {selector!r} is not valid XPath ({exc})") from None
        elif engine and engine.group(1) == "css":
            _check_css(part[engine.end():], selector)
        elif engine or part.startswith(("'", '"')):
            continue  # text=, role=, id=... and quoted text: any value is a valid query
        else:
            _check_css(part, selector)
    return selector
