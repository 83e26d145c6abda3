"""The position-weighted URL similarity of the GWC paper.

For two URLs of one host with m path segments each,
``s = sum_k w_k / (1 + edit_k / maxlen_k)`` with ``w_k = m`` for the first segment down to 1 for
the last: a difference near the root (section names) counts more than one near the leaf (ids).
Hosts or segment counts that differ give 0. :func:`normalised_similarity` divides by the largest
possible value ``m(m+1)/2`` so thresholds for different m live on one scale, ``[0.5, 1]``
(a totally different segment still scores ``w_k / 2``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

from browsercrawl.induction.urlmodel import ParsedUrl, segment_signature


def position_weights(m: int) -> list[int]:
    """``[m, m-1, ..., 1]``: the weight of each path position."""
    return list(range(m, 0, -1))


def max_similarity(m: int) -> float:
    """The similarity of two identical m-segment URLs (1 for the bare host)."""
    return m * (m + 1) / 2 if m else 1.0


def segment_similarity(a: str, b: str) -> float:
    """``1 / (1 + edit / maxlen)``: 1 for equal segments, 0.5 for entirely different ones."""
    return 1.0 / (1.0 + Levenshtein.normalized_distance(a, b))


def path_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """The paper's formula (1) over two equal-length segment lists; 0 when lengths differ."""
    m = len(a)
    if m != len(b):
        return 0.0
    if m == 0:
        return 1.0
    return sum(
        w / (1.0 + Levenshtein.normalized_distance(x, y))
        for w, x, y in zip(position_weights(m), a, b, strict=True)
    )


def url_similarity(a: ParsedUrl, b: ParsedUrl, *, signatures: bool = True) -> float:
    """Formula (1) for two parsed URLs; query strings are ignored as in the paper.

    With ``signatures`` the edit distance is taken between segment signatures (digits and slugs
    blanked, see :func:`segment_signature`), which is what clustering uses; without, between the
    raw segments exactly as the paper writes it.
    """
    if a.host != b.host or len(a.segments) != len(b.segments):
        return 0.0
    if signatures:
        return path_similarity(
            [segment_signature(s) for s in a.segments], [segment_signature(s) for s in b.segments]
        )
    return path_similarity(a.segments, b.segments)


def normalised_similarity(a: ParsedUrl, b: ParsedUrl, *, signatures: bool = True) -> float:
    """:func:`url_similarity` divided by its maximum, so 1 means equal and 0.5 all different."""
    return url_similarity(a, b, signatures=signatures) / max_similarity(len(a.segments))
