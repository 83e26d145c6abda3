"""The regex that cuts a value out of a longer text, from context that is stable on the site.

Two samples agree on many things by chance: the publisher, the year, the binding, the first
digits of an id, the last letters of a neighbouring word. A regex that requires any of that
comes out empty wherever it differs. So the context is built from *tokens* (word runs, single
punctuation marks, spaces; never part of a word) and a token is kept only when it is stable:

* with reference texts (the same node on the other pages of the cluster), when it occurs in at
  least ``STABLE_SHARE`` of them;
* without any, only punctuation, spaces and a *label* (words ending in ``:`` or starting the
  text), never a word that just happens to be on both samples.

Left of the value: the tokens back to the nearest stable label, each run of unstable words in
between (a publisher, a date) a lazy gap (``Publisher: .+?, (.+?) Binding: ``).
Right of it: the adjacent stable tokens, or the end of the text. The capture group follows the
shape of the sample values (no spaces -> ``\\S+``; digits -> ``[0-9]+``) only when no stable
right context ends it: "Hardcover" on both samples must not make "Mass Market Paperback" fail.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

STABLE_SHARE = 0.9
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _is_word(tok: str) -> bool:
    return bool(re.match(r"\w", tok))


class _Stability:
    """Decides which tokens are part of the page template rather than of this page's data."""

    def __init__(self, references: Sequence[str]) -> None:
        self.refs = [r for r in references if r]

    def stable(self, tok: str, *, label: bool) -> bool:
        if not _is_word(tok):
            return True  # spaces and punctuation: separators
        if self.refs:
            hits = sum(1 for r in self.refs if re.search(rf"(?<!\w){re.escape(tok)}(?!\w)", r))
            return hits >= STABLE_SHARE * len(self.refs)
        return label


def _abstract(toks: list[str], stab: _Stability) -> list[str]:
    """Tokens with every run of unstable words (and the spaces inside it) replaced by ``*``."""

    def is_label(i: int) -> bool:  # a word followed by ':' or the first word of the text
        return (i + 1 < len(toks) and toks[i + 1] == ":") or i == 0

    kinds = ["S" if not _is_word(t) or stab.stable(t, label=is_label(i)) else "U" for i, t in enumerate(toks)]
    out: list[str] = []
    i = 0
    while i < len(toks):
        if kinds[i] == "U":
            j = i + 1
            while j + 1 < len(toks) and toks[j].isspace() and kinds[j + 1] == "U":
                j += 2
            out.append("*")
            i = j
        else:
            out.append(toks[i])
            i += 1
    return out


def _left(prefixes: list[str], stab: _Stability) -> str | None:
    """The regex text left of the capture group; None when no stable anchor exists.

    The samples' prefixes are abstracted (unstable word runs -> ``*``) and their common end is
    kept up to the nearest stable word (a label) and the stable tokens joined to it.
    """
    seqs = [_abstract(tokens(p), stab) for p in prefixes]
    n = min(len(q) for q in seqs)
    common: list[str] = []
    for i in range(1, n + 1):
        if len({q[-i] for q in seqs}) != 1:
            break
        common.insert(0, seqs[0][-i])
    at_start = all(len(q) == len(common) for q in seqs)
    words = [i for i, t in enumerate(common) if t != "*" and _is_word(t)]
    if words:
        k = words[-1]
        while k > 0 and common[k - 1] != "*":
            k -= 1
        start = "^" if k == 0 and at_start else ""
        return start + "".join(".+?" if t == "*" else _rx(t) for t in common[k:])
    adjacent = []
    for t in reversed(common):
        if t == "*":
            break
        adjacent.insert(0, t)
    literal = "".join(adjacent)
    if at_start and "*" not in common:
        return "^" + _rx(literal)
    return _rx(literal) if literal.strip() else None


def _rights(suffixes: list[str], stab: _Stability) -> list[str]:
    """Right-context literals, longest first: the stable tokens shared after the value."""
    if all(not s for s in suffixes):
        return ["$"]
    toks = [tokens(s) for s in suffixes]
    n = min(len(t) for t in toks)
    out: list[str] = []
    for i in range(n):
        tok = toks[0][i]
        if len({t[i] for t in toks}) != 1 or not stab.stable(tok, label=False):
            break
        out.append(tok)
    variants = [_rx("".join(out[:k])) for k in range(len(out), 0, -1) if "".join(out[:k]).strip()]
    # Samples ending the value differently ("Tor (2019)" / "Tor; 2nd edition (2019)"): either
    # sample's own stable separator ends it.
    own = []
    for t in toks:
        run = []
        for tok in t:
            if not stab.stable(tok, label=False):
                break
            run.append(tok)
        own.append("".join(run))
    if all(o.strip() for o in own) and len(set(own)) > 1:
        variants.append("(?:" + "|".join(_rx(o) for o in sorted(set(own), key=len, reverse=True)) + ")")
    # The samples' separator may be optional on other pages ("Tor; 2nd edition (2019)" on both
    # samples, "Vintage (2019)" elsewhere): the next stable run after an unstable gap ends it too.
    seq = _abstract(toks[0], stab)
    if "*" in seq:
        first = "".join(seq[: seq.index("*")])
        rest = seq[seq.index("*") + 1 :]
        second = "".join(rest[: rest.index("*")] if "*" in rest else rest)
        if first.strip() and second.strip():
            variants.append(f"(?:{_rx(first)}.*?)?{_rx(second)}")
    return [*dict.fromkeys(variants), ""]


def _capture(values: Sequence[str], right: str) -> str:
    """The group: lazy up to a stable right context; else by the values' shape."""
    if right:
        return "(.+?)"
    if all(re.fullmatch(r"[0-9]+", v) for v in values):
        return "([0-9]+)"
    if all(not re.search(r"\s", v) for v in values):
        return r"(\S+)"
    return "(.+?)" if right else "(.+)"


def _rx(text: str) -> str:
    """A literal for a regex the user may read and edit: spaces and hyphens left unescaped."""
    return re.escape(text).replace("\\ ", " ").replace("\\-", "-")


def context_regex(
    pairs: Sequence[tuple[str, str]],
    references: Sequence[str] = (),
    value_ok: Callable[[str], bool] | None = None,
) -> str | None:
    """A regex whose first group is the value in each ``(full text, value)`` pair, or None.

    ``references`` are texts of the same node on other pages of the cluster (values unknown);
    one page's texts of several matching nodes are joined by newlines. ``value_ok`` tells a
    plausible value (of the samples' kind): of the candidate regexes, the one cutting plausible
    values from most references wins.
    """
    prefixes, suffixes, values = [], [], []
    for full, value in pairs:
        # The value as a whole word ("Tor" in "Toronto : Tor, 2020" is the second one).
        m = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", full)
        i = m.start() if m else full.find(value)
        if i < 0:
            return None
        prefixes.append(full[:i])
        suffixes.append(full[i + len(value) :])
        values.append(value)
    stab = _Stability(references)
    left = _left(prefixes, stab) if any(prefixes) else "^"
    if left is None:
        return None
    ok = value_ok or (lambda v: True)

    def score(rx: str) -> int | None:
        """References where ``rx`` cuts a plausible value; None when it misses a sample."""
        try:
            compiled = re.compile(rx)
        except re.error:
            return None
        if not all((m := compiled.search(f)) and m.group(1).strip() == v.strip() for f, v in pairs):
            return None
        hits = 0
        for ref in stab.refs:
            m = next((m for m in map(compiled.search, ref.split("\n")) if m), None)
            hits += m is not None and ok(m.group(1).strip())
        return hits

    # Of the right contexts that cut the samples right, the longest scoring nearly as well as the
    # best (a token present on most pages may be absent next to the value; an empty context
    # matches everything but ends the value by its shape only).
    found: list[tuple[int, str]] = []
    lefts = [left]
    tail = left.rsplit(".+?", 1)[-1]  # the separator right before the value
    if tail.strip() and not tail.startswith("^") and not re.search(r"\w", tail):
        # "A (지은이) | Tor | 2020-03-05": the value also follows the separator's last occurrence,
        # whatever stands before it ("A (지은이), B (엮은이) | ..." on other pages).
        lefts.append("^.*" + tail)
    for left, right in ((lf, rt) for lf in lefts for rt in _rights(suffixes, stab)):
        if right and not right.endswith("$") and all(re.fullmatch(right, x) for x in suffixes):
            # The context ends the text on every sample ("Written by Tom L. Berg."): anchored
            # there, a value holding the context's mark ("L.") is not cut short.
            anchored = left + _capture(values, right) + right + "$"
            n = score(anchored)
            if n is not None:
                found.append((n, anchored))
        rx = left + _capture(values, right) + right
        n = score(rx)
        if n is None:
            continue
        found.append((n, rx))
        # Punctuation the cut values hold on other pages but no sample value has ("Tor; Revised
        # edition" where the samples had "Tor"): it ends the value there too.
        foreign = _foreign_marks(rx, stab.refs, values)
        if foreign:
            cls = re.escape(foreign)
            n2 = score(left + f"([^{cls}]+?)(?:[{cls}].*?)?" + right)
            if n2 is not None:
                found.append((n2, left + f"([^{cls}]+?)(?:[{cls}].*?)?" + right))
    if not found:
        return None
    top = max(n for n, _ in found)
    return next(rx for n, rx in found if n >= 0.9 * top)


def _foreign_marks(rx: str, refs: Sequence[str], values: Sequence[str]) -> str:
    """Punctuation marks inside values ``rx`` cuts from ``refs`` that no sample value contains."""
    compiled = re.compile(rx)
    mine = {c for v in values for c in v}
    marks: set[str] = set()
    for ref in refs:
        m = next((m for m in map(compiled.search, ref.split("\n")) if m), None)
        if m:
            marks.update(c for c in m.group(1) if not c.isalnum() and not c.isspace() and c not in mine)
    return "".join(sorted(marks))
