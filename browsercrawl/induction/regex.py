"""Regular expressions for URL clusters: generalise each path segment and query value by rules.

Rules, per segment (or query value) across a cluster's members:

* the same everywhere -> the literal (escaped);
* a shared extension (``.html``) is kept literally, a mix of extensions or none becomes
  ``(?:\\.[A-Za-z][A-Za-z0-9]{0,4})?``;
* values made of the same runs (digits, letters, one separator character each) are generalised
  run by run: digits -> ``[0-9]+`` (or ``[0-9]{2}``/``[0-9]{4}`` for zero-padded days and months
  and years: dates), constant letters stay literal, other letters -> ``[a-z]+``/``[A-Z]+``/
  ``[a-zA-Z]+`` by case;
* otherwise the common leading and trailing runs are kept (``123-`` ids before a slug, ``.80084``
  after one) and the varying middle becomes a slug ``[a-z0-9]+(?:-[a-z0-9]+)*`` (or a mixed token
  ``[A-Za-z0-9]+``), else anything but ``/``;
* a trailing slash is always optional (``/?``); query keys are kept in canonical (sorted) order,
  those in every member required, the others optional.

Every regex is then checked against the members (all must match) and the other clusters of the
same host and path length (none may match); a regex that matches a foreign URL is tightened by
replacing the generalised slot that excludes most offenders with the literal values of the members.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from browsercrawl.induction.clustering import UrlCluster
from browsercrawl.induction.urlmodel import ParsedUrl

_TOKEN = re.compile(r"[0-9]+|(?:[A-Za-z]|%[0-9A-Fa-f]{2})+|.", re.S)
_EXT = re.compile(r"\.([A-Za-z][A-Za-z0-9]{0,4})$")
_ANY_EXT = r"(?:\.[A-Za-z][A-Za-z0-9]{0,4})?"
_WORDY = re.compile(r"^(?:[A-Za-z0-9]|%[0-9A-Fa-f]{2})+(?:[-_+.~,](?:[A-Za-z0-9]|%[0-9A-Fa-f]{2})+)*$")


def _esc(text: str) -> str:
    """``re.escape`` without the needless ``\\-`` (only ever used outside character classes)."""
    return re.escape(text).replace("\\-", "-")


def _kind(tok: str) -> str:
    if tok[0].isdigit():
        return "D"
    if tok[0].isalpha() or (tok[0] == "%" and len(tok) >= 3):
        return "A"
    return tok  # a separator stands for itself


def _letters(values: Sequence[str]) -> str:
    if any("%" in v for v in values):
        return "(?:[A-Za-z]|%[0-9A-F]{2})+"
    if all(v.islower() for v in values):
        return "[a-z]+"
    if all(v.isupper() for v in values):
        return "[A-Z]+"
    return "[a-zA-Z]+"


def _digits(values: Sequence[str]) -> str:
    lengths = {len(v) for v in values}
    if lengths == {2} and any(v.startswith("0") for v in values):
        return "[0-9]{2}"  # zero-padded month, day, hour
    if lengths == {4} and all(1900 <= int(v) <= 2099 for v in values):
        return "[0-9]{4}"  # a year
    return "[0-9]+"


def _run(values: Sequence[str], kind: str) -> str:
    if kind == "D":
        return _digits(values)
    if len(set(values)) == 1:
        return _esc(values[0])
    return _letters(values) if kind == "A" else _esc(values[0])


def _slug(middles: Sequence[str]) -> str:
    """A pattern for free text made of words: slugs, mixed tokens such as ``B07XJ8C8F5``."""
    present = [m for m in middles if m]
    if not present:
        return ""
    if not all(_WORDY.match(m) for m in present):
        pat = "[^/?#&]+"
    else:
        chars = "".join(present)
        cls = ""
        if re.search("[a-z]", chars):
            cls += "a-z"
        if re.search("[A-Z]", chars):
            cls += "A-Z"
        if re.search("[0-9]", chars) or "%" in chars:
            cls += "0-9"
        word = f"[{cls}]+" if "%" not in chars else f"(?:[{cls}]|%[0-9A-F]{{2}})+"
        seps = sorted({c for m in present for c in m if c in "-_+.~,"})
        # As many words as the shortest member has at least (capped at 3): a slug class then
        # does not swallow one-word pages such as /about/.
        fewest = min(sum(m.count(c) for c in "-_+.~,") for m in present)
        rep = {0: "*", 1: "+"}.get(fewest, "{2,}")
        sep = _esc(seps[0]) if len(seps) == 1 else "[" + re.escape("".join(seps)) + "]"
        pat = word + (f"(?:{sep}{word}){rep}" if seps else "")
    return pat if len(present) == len(middles) else f"(?:{pat})?"


def generalise(values: Sequence[str]) -> str:
    """One regex (no anchors) matching every value, generalised by the rules of this module."""
    if len(set(values)) == 1:
        return _esc(values[0])
    exts = [_EXT.search(v) for v in values]
    ext = ""
    stems = list(values)
    if any(exts):
        found = {e.group(0) for e in exts if e}
        ext = _esc(found.pop()) if all(exts) and len(found) == 1 else _ANY_EXT
        stems = [v[: e.start()] if e else v for v, e in zip(values, exts, strict=True)]
    return _stems(stems) + ext


def _stems(stems: Sequence[str]) -> str:
    if len(set(stems)) == 1:
        return _esc(stems[0])
    toks = [_TOKEN.findall(s) for s in stems]
    kinds = [[_kind(t) for t in ts] for ts in toks]
    if all(k == kinds[0] for k in kinds):
        return "".join(_run([ts[i] for ts in toks], kinds[0][i]) for i in range(len(kinds[0])))

    def same(i: int) -> bool:
        """Keep the i-th token (negative: from the end) outside the slug: digits, separators.

        A word shared at the edge of two slugs (``-title``) is a coincidence, not a rule.
        """
        column = [ts[i] for ts in toks]
        k = {_kind(t) for t in column}
        return k == {"D"} or (len(set(column)) == 1 and k != {"A"})

    shortest = min(len(ts) for ts in toks)
    pre = 0
    while pre < shortest and same(pre):
        pre += 1
    post = 0
    while post < shortest - pre and same(-post - 1):
        post += 1
    # A leading run must be followed by a separator to stand apart from the slug (123-title).
    while pre and _kind(toks[0][pre - 1]) in ("A", "D") and pre < shortest:
        pre -= 1
    while post and _kind(toks[0][len(toks[0]) - post]) in ("A", "D"):
        post -= 1  # ... and a trailing run must follow one (title.80084)
    head = "".join(_run([ts[i] for ts in toks], kinds[0][i]) for i in range(pre))
    tail = "".join(
        _run([ts[len(ts) - post + i] for ts in toks], kinds[0][len(kinds[0]) - post + i]) for i in range(post)
    )
    middles = ["".join(ts[pre : len(ts) - post]) for ts in toks]
    return head + _slug(middles) + tail


@dataclass
class _Slot:
    """One place of a URL regex: a path segment or a query key, with its members' values."""

    name: str  # "seg:2" or "q:page"
    values: list[str | None]  # per member; None = query key absent
    literal: bool = False  # tightened: an alternation of the members' values

    def pattern(self) -> str:
        present = [v for v in self.values if v is not None]
        if self.literal:
            body = "(?:" + "|".join(_esc(v) for v in sorted(set(present))) + ")"
        else:
            body = generalise(present) if present else ""
        if self.name.startswith("seg:"):
            return body
        key = _esc(self.name[2:])
        item = f"[?&]{key}={body}"
        return item if len(present) == len(self.values) else f"(?:{item})?"


def _slots(members: Sequence[ParsedUrl]) -> list[_Slot]:
    m = len(members[0].segments)
    slots = [_Slot(f"seg:{i}", [p.segments[i] for p in members]) for i in range(m)]
    keys = sorted({k for p in members for k, _ in p.query})
    for k in keys:
        slots.append(_Slot(f"q:{k}", [dict(p.query).get(k) for p in members]))
    return slots


def _compose(host: str, m: int, slots: list[_Slot]) -> str:
    path = "/".join(s.pattern() for s in slots[:m])
    query = "".join(s.pattern() for s in slots[m:])
    head = f"^https?://{_esc(host)}/"
    return head + (path + "/?" if m else "") + query + "$"


def _repeated(p: ParsedUrl) -> bool:
    keys = [k for k, _ in p.query]
    return len(keys) != len(set(keys))


def cluster_regex(cluster: UrlCluster, others: Sequence[ParsedUrl] = ()) -> str:
    """The regex of one cluster: matches all members and, after tightening, none of ``others``."""
    members = cluster.members
    if any(_repeated(p) for p in members):
        return _alternation(members)  # repeated query keys: too rare to generalise well
    slots = _slots(members)
    foreign = [o for o in others if o.host == cluster.host and len(o.segments) == cluster.m]
    while True:
        rx = _compose(cluster.host, cluster.m, slots)
        compiled = re.compile(rx)
        if not all(compiled.match(p.url) for p in members):
            return _alternation(members)  # a rule failed to cover a member: never lose one
        hits = [o for o in foreign if compiled.match(o.url)]
        if not hits:
            return rx
        slot = _best_slot(slots, hits, cluster.m)
        if slot is None:
            return _alternation(members)
        slot.literal = True


def _best_slot(slots: list[_Slot], hits: list[ParsedUrl], m: int) -> _Slot | None:
    best, best_key = None, None
    for i, s in enumerate(slots):
        if s.literal:
            continue
        own = {v for v in s.values if v is not None}
        if i < m:
            excluded = sum(1 for h in hits if h.segments[i] not in own)
        else:
            key = s.name[2:]
            excluded = sum(1 for h in hits if dict(h.query).get(key, "\0") not in own)
        if excluded and (best_key is None or (excluded, -len(own)) > best_key):
            best, best_key = s, (excluded, -len(own))
    return best


def _alternation(members: Sequence[ParsedUrl]) -> str:
    return "^(?:" + "|".join(_esc(p.url) for p in members) + ")$"


def assign_regexes(clusters: Sequence[UrlCluster]) -> None:
    """Set ``regex`` on every cluster, each checked against the others of its host and length."""
    by_group: dict[tuple[str, int], list[UrlCluster]] = defaultdict(list)
    for c in clusters:
        by_group[(c.host, c.m)].append(c)
    for group in by_group.values():
        for c in group:
            others = [p for o in group if o is not c for p in o.members]
            c.regex = cluster_regex(c, others)
