"""URL model for clustering: host, path segments, trailing slash, query pairs.

URLs are canonicalised with w3lib first (sorted query, no fragment, lower-case host, percent
encoding made uniform) so that two spellings of one page are one URL, and so that generated regexes
can rely on the query keys appearing in sorted order. Default ports are dropped for the same reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from w3lib.url import canonicalize_url

from browsercrawl.errors import UserError

_DEFAULT_PORTS = {"http": "80", "https": "443"}
_DIGITS = re.compile(r"[0-9]+")
_SLASHES = re.compile(r"/{2,}")
_WORD_SEP = re.compile(r"[-_+]")
_HAS_LETTER = re.compile(r"[A-Za-z%]")
_EXT = re.compile(r"\.([A-Za-z][A-Za-z0-9]{0,4})$")


@dataclass(frozen=True, slots=True)
class ParsedUrl:
    """One canonical URL split into the parts clustering and regex generation look at."""

    url: str  # canonical form; generated regexes match this form
    scheme: str
    host: str  # lower case, with the port only when it is not the scheme's default
    segments: tuple[str, ...]  # non-empty path segments, still percent-encoded
    trailing_slash: bool
    query: tuple[tuple[str, str], ...]  # (key, value) pairs as encoded, in canonical (sorted) order

    @property
    def group(self) -> tuple[str, int]:
        """URLs of different hosts or path lengths never share a cluster (similarity 0)."""
        return (self.host, len(self.segments))

    @property
    def query_keys(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.query)


def canonical(url: str) -> str:
    """The canonical spelling of ``url`` (w3lib canonicalisation, default port removed)."""
    canon = canonicalize_url(url.strip())
    parts = urlsplit(canon)
    if parts.port is not None and _DEFAULT_PORTS.get(parts.scheme) == str(parts.port):
        host = parts.hostname or ""
        canon = canon.replace(parts.netloc, host, 1)
    return canon


def parse_url(url: str) -> ParsedUrl:
    """Parse one absolute http(s) URL; a ``UserError`` names the URL when it is not one."""
    raw = url.strip()
    try:
        parts = urlsplit(canonical(raw))
    except ValueError as exc:
        raise UserError(f"not a URL: {raw!r} ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(f"not an absolute http(s) URL: {raw!r}")
    host = parts.hostname
    if parts.port is not None and _DEFAULT_PORTS.get(parts.scheme) != str(parts.port):
        host = f"{host}:{parts.port}"
    path = _SLASHES.sub("/", parts.path or "/")
    segments = tuple(s for s in path.split("/") if s)
    # Raw (still encoded) pairs in canonical order, so regexes built from them match ``url``.
    query = tuple((kv.partition("=")[0], kv.partition("=")[2]) for kv in parts.query.split("&") if kv)
    canon = f"{parts.scheme}://{host}{path}" + (f"?{parts.query}" if parts.query else "")
    return ParsedUrl(
        url=canon,
        scheme=parts.scheme,
        host=host,
        segments=segments,
        trailing_slash=path.endswith("/") and bool(segments),
        query=query,
    )


def segment_signature(segment: str) -> str:
    """What a segment looks like once its variable parts are blanked out.

    Digit runs become ``0`` (ids, years, page numbers) and a whole slug (three or more words with at
    least two of letters, such as ``123-some-title``) becomes ``~`` keeping its extension, so that
    ``/shop/123`` and ``/shop/98765`` or two article slugs compare as equal while ``/shop/about``
    stays apart from ``/shop/123``. docs/induction.md gives the measurement that chose this.
    """
    ext = ""
    m = _EXT.search(segment)
    stem = segment
    if m:
        stem, ext = segment[: m.start()], segment[m.start() :].lower()
    if is_slug(stem):
        return "~" + ext
    return _DIGITS.sub("0", stem) + ext


def is_slug(text: str) -> bool:
    """Three or more words joined by ``-``, ``_`` or ``+``, at least two of them with letters."""
    words = _WORD_SEP.split(text)
    if len(words) < 3 or not all(words):
        return False
    return sum(1 for w in words if _HAS_LETTER.search(w)) >= 2
