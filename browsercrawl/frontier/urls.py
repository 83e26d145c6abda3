"""URL canonicalisation: one spelling per resource, so dedup and resume compare like with like."""

from __future__ import annotations

import functools
from urllib.parse import urlsplit

from w3lib.url import canonicalize_url


@functools.lru_cache(maxsize=8192)
def canonical_url(url: str) -> str:
    """Canonical form used as the frontier key and the stored page URL.

    Cached: a site's pages repeat most of their links (menus, related items), and w3lib's
    canonicalisation was a third of the HTTP path's CPU per page (a ValueError is not cached).

    w3lib sorts query arguments, normalises percent-encoding and drops the fragment; we also
    lower-case the scheme and host (w3lib leaves the host as given) and drop default ports.
    """
    canon = canonicalize_url(url, keep_fragments=False)
    parts = urlsplit(canon)
    host = _bracketed((parts.hostname or "").lower())
    port = parts.port
    if port and not (
        (parts.scheme == "http" and port == 80) or (parts.scheme == "https" and port == 443)
    ):
        host = f"{host}:{port}"
    if parts.username:
        host = f"{parts.username}@{host}"
    path = parts.path or "/"
    rebuilt = f"{parts.scheme.lower()}://{host}{path}"
    if parts.query:
        rebuilt += f"?{parts.query}"
    return rebuilt


def _bracketed(host: str) -> str:
    """An IPv6 address keeps its brackets in a URL (``[::ffff:7f00:2]:8080``), else the port and
    the address run together."""
    return f"[{host}]" if ":" in host else host


@functools.lru_cache(maxsize=8192)
def host_key(url: str) -> str:
    """The politeness key of a URL: host plus non-default port (one queue per key)."""
    parts = urlsplit(url)
    host = _bracketed((parts.hostname or "").lower())
    if parts.port:
        return f"{host}:{parts.port}"
    return host


def is_http_url(url: str) -> bool:
    return url.startswith(("http://", "https://"))
