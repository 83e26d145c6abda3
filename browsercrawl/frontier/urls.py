"""URL canonicalisation: one spelling per resource, so dedup and resume compare like with like."""

from __future__ import annotations

import functools
import re
from urllib.parse import urlsplit

from w3lib.url import canonicalize_url


@functools.lru_cache(maxsize=8192)
def canonical_url(url: str) -> str:
    """Canonical form used as the frontier key and the stored page URL.

    Cached: a site's pages repeat most of their links (menus, related items), and w3lib's
    canonicalisation was a third of the HTTP path's CPU per page (a ValueError is not cached).

    w3lib sorts query arguments, normalises percent-encoding and drops the fragment; we also
    lower-case the scheme and host (w3lib leaves the host as given) and drop default ports.
    A URL already in that form is returned as it is, without w3lib (see ``_already_canonical``).
    """
    return url if _already_canonical(url) else _canonical_by_w3lib(url)


def _canonical_by_w3lib(url: str) -> str:
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


# An http(s) URL whose every part canonicalisation leaves alone: a lower-case host name or IPv4
# address, maybe a port without leading zeros, and a path of unreserved characters only (no
# query, fragment, user, percent-escape or IPv6 brackets). Most links of most sites look so.
_PLAIN_URL = re.compile(r"(https?)://[a-z0-9][a-z0-9.-]*(?::([1-9][0-9]{0,4}))?/[A-Za-z0-9._~/-]*")


def _already_canonical(url: str) -> bool:
    """Whether ``canonical_url(url) == url`` is sure without w3lib, which costs ~40 us a URL: each
    new link of a page is one miss of the cache, so this was most of the canonicalising left.

    Dot segments (w3lib resolves ``/a/../b``), the scheme's default port (dropped) and a port out
    of range (refused) take the slow road. A test checks this against w3lib on random URLs."""
    m = _PLAIN_URL.fullmatch(url)
    if m is None or "/." in url:
        return False
    port = m[2]
    return port is None or (int(port) <= 65535 and int(port) != (80 if m[1] == "http" else 443))


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
