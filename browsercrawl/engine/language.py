"""A page's language, for ``scope.languages``: the one it declares, else the one its text is in.

Declared first (``<html lang>``, then the ``Content-Language`` header): a site knows its own
language better than a guess from a few words. Without a declaration the visible text is
classified by py3langid (the maintained fork of langid.py: pure Python and numpy, its model ships
in the package, deterministic). Too little text to tell gives None, and such a page is kept.
"""

from __future__ import annotations

import re

_HTML_LANG = re.compile(r"<html\b[^>]*?\blang\s*=\s*[\"']?\s*([A-Za-z]{2,3})\b", re.IGNORECASE)
_MIN_WORDS = 5
_MAX_CHARS = 5000


def declared_language(html: str | None, headers: dict[str, str]) -> str | None:
    """The primary subtag of ``<html lang>`` or of ``Content-Language`` (lower case)."""
    if html:
        m = _HTML_LANG.search(html[:20_000])
        if m:
            return m.group(1).lower()
    header = headers.get("content-language", "").split(",")[0].strip()
    m = re.match(r"([A-Za-z]{2,3})\b", header)
    return m.group(1).lower() if m else None


def detected_language(text: str | None) -> str | None:
    """py3langid's answer for the text, or None for fewer than five words."""
    if not text or len(text.split()) < _MIN_WORDS:
        return None
    import py3langid  # loads its model on first use (a second): only crawls that filter pay it

    return str(py3langid.classify(text[:_MAX_CHARS])[0])


def page_language(html: str | None, text: str | None, headers: dict[str, str]) -> str | None:
    return declared_language(html, headers) or detected_language(text)
