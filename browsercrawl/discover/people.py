"""Which URLs are people: the shape a person's own URL shares with the people its lists name.

A shape is the person page's URL with one part left open: one path segment (``/u/ann`` ->
``/u/{id}``) or one query value (``/member?id=7`` -> ``/member?id={id}``). The shape most of the
listed URLs have (relative to the person we started from) is the person URL pattern, the open
part is the canonical id, and the shape itself is the ``person_template``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit


@dataclass(frozen=True)
class PersonShape:
    """Person URLs: ``path`` segments (None = the id) or the id in query parameter ``param``."""

    segments: tuple[str | None, ...]
    param: str | None = None  # query parameter holding the id (then every segment is fixed)
    fixed_query: tuple[tuple[str, str], ...] = ()  # other query parameters the URL always has
    slash: bool = False  # the person's own URL ends its path with "/" (the template keeps it)

    def regex(self) -> str:
        """The ``person_url`` regex: group 1 is the id."""
        host = r"^https?://[^/?#]+"
        if self.param is None:
            parts = ["([^/?#]+)" if s is None else re.escape(s) for s in self.segments]
            return host + "/" + "/".join(parts) + r"/?(?:[?#]|$)"
        path = "/" + "/".join(re.escape(s or "") for s in self.segments)
        return host + path + r"/?\?(?:[^#]*&)?" + re.escape(self.param) + r"=([^&#]+)"

    def template(self) -> str:
        """The ``person_template``: the one URL a person is enqueued under."""
        if self.param is None:
            path = "/" + "/".join("{id}" if s is None else s for s in self.segments)
            return path + ("/" if self.slash else "")
        query = "&".join(f"{k}={v}" for k, v in self.fixed_query)
        path = "/" + "/".join(s or "" for s in self.segments)
        return f"{path}?{query + '&' if query else ''}{self.param}={{id}}"

    def id_of(self, url: str) -> str | None:
        m = re.search(self.regex(), url)
        return m.group(1) if m else None


def _split(url: str) -> tuple[str, tuple[str, ...], dict[str, str]]:
    parts = urlsplit(url)
    segments = tuple(s for s in parts.path.split("/") if s)
    return parts.netloc, segments, dict(parse_qsl(parts.query, keep_blank_values=True))


def shapes_between(person: str, other: str) -> list[PersonShape]:
    """The shapes under which ``other`` is another person like ``person`` (none, or one)."""
    host_a, seg_a, q_a = _split(person)
    host_b, seg_b, q_b = _split(other)
    if host_a != host_b or len(seg_a) != len(seg_b) or (not seg_a and not q_a):
        return []
    diff = [i for i, (a, b) in enumerate(zip(seg_a, seg_b, strict=True)) if a != b]
    if len(diff) == 1 and q_a.keys() == q_b.keys() and all(q_a[k] == q_b[k] for k in q_a):
        slash = urlsplit(person).path.endswith("/")
        return [PersonShape(tuple(None if i == diff[0] else s for i, s in enumerate(seg_a)), slash=slash)]
    if not diff and q_a.keys() == q_b.keys():
        changed = [k for k in q_a if q_a[k] != q_b[k]]
        if len(changed) == 1:
            fixed = tuple((k, v) for k, v in q_a.items() if k != changed[0])
            return [PersonShape(seg_a, changed[0], fixed)]
    return []


def infer_shape(person: str, candidates: Iterable[str], min_share: float = 0.5) -> PersonShape | None:
    """The person shape most ``candidates`` share with ``person`` (at least ``min_share`` of those
    that share any shape, and at least two URLs), or None."""
    counts: Counter[PersonShape] = Counter()
    for url in set(candidates):
        counts.update(shapes_between(person, url))
    if not counts:
        return None
    shape, n = counts.most_common(1)[0]
    return shape if n >= 2 and n >= min_share * sum(counts.values()) else None
