"""Wrapper learning from two sample pages and the values wanted on them (GWC, section 1).

Learning, for each label:

1. Find the nodes holding the value on each sample: a leaf whose text equals it, else an attribute
   that equals it (``href``, ``data-*``, ``datetime``...), else the deepest element whose text
   equals it, else the deepest leaf, element or attribute that *contains* it (then a regex with
   the text around the value on both samples cuts it out). Nodes on the common template tree
   (their tag path exists in both samples) are tried first.
2. Make each node's CSS path precise walking up to the root (or to an element with a unique,
   stable id): the bare tag when no sibling shares it, else a class/id/attribute that tells it
   from those siblings, else ``:nth-of-type(n)``.
3. Keep the first path that extracts the right value from *both* samples; when none does, merge
   the paths found on A and B (steps that differ lose their position or keep their common
   attributes). So an extra block or a value appearing twice on one page does not mislead it.
4. Repeated fields (a list of values, like comments): the paths of two instances are aligned and
   the step where they are different siblings loses its position
   (``li:nth-of-type(1) > p`` + ``li:nth-of-type(2) > p`` -> ``li > p``); the variant that finds
   most of the listed values on both samples wins.

The result is a readable JSON file (see docs/induction.md)::

    {"format": "browsercrawl-wrapper/1",
     "fields": {"title#text": "div#main > h1",
                "author_url#href": "div.byline > a",
                "comments#text[]": "ul.comments > li > p",
                "price#text": {"css": "span.price", "regex": "Price: (.+?) EUR"}}}
"""


from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lxml import etree

from browsercrawl.wrappers.model import (
    _ATTR_ORDER,
    _CLASS_TOKEN,
    _GENERATED,
    _NO_MATCH_ATTRS,
    _SKIP,
    FieldRule,
    TextIndex,
    Wrapper,
    norm,
    parse_html,
)


def _elements(root: etree._Element) -> Iterable[etree._Element]:
    for el in root.iter():
        if isinstance(el.tag, str) and not any(a.tag in _SKIP for a in _ancestors_or_self(el)):
            yield el


def _ancestors_or_self(el: etree._Element) -> Iterable[etree._Element]:
    while el is not None:
        yield el
        el = el.getparent()


def _is_leaf(el: etree._Element) -> bool:
    return not any(isinstance(c.tag, str) for c in el)


def tag_path(el: etree._Element) -> tuple[str, ...]:
    return tuple(a.tag for a in reversed(list(_ancestors_or_self(el))))


@dataclass
class _Page:
    root: etree._Element
    texts: TextIndex
    elements: list[etree._Element]
    tag_paths: set[tuple[str, ...]]
    ids: dict[str, int]


def _page(html: str | bytes) -> _Page:
    root = parse_html(html)
    elements = list(_elements(root))
    ids: dict[str, int] = {}
    for el in elements:
        if el.get("id"):
            ids[el.get("id")] = ids.get(el.get("id"), 0) + 1
    return _Page(root, TextIndex(root), elements, {tag_path(e) for e in elements}, ids)


# --------------------------------------------------------------------------------------------
# Finding the nodes that hold a value


@dataclass
class _Hit:
    el: etree._Element
    part: str
    contains: bool  # the value is inside a longer text: a regex must cut it out
    full: str  # the whole text or attribute value


def _attr_equal(attr: str, value: str, name: str) -> bool:
    if attr == value:
        return True
    # A link written relative on the page while the user pasted the absolute URL.
    return name in ("href", "src") and attr.startswith("/") and len(attr) > 1 and value.endswith(attr)


def find_hits(page: _Page, value: str, common: set[tuple[str, ...]] | None = None) -> list[_Hit]:
    """Nodes holding ``value``: exact before contains, leaf before non-leaf, template first."""
    value = norm(value)
    if not value:
        return []
    leaf_eq, attr_eq, inner_eq, leaf_in, inner_in, attr_in = [], [], [], [], [], []
    for el in page.elements:
        text = page.texts.text(el)
        if value not in text and not any(value in a or a in value for a in el.attrib.values()):
            continue  # most elements: nothing to look at
        leaf = _is_leaf(el)
        if text == value:
            (leaf_eq if leaf else inner_eq).append(_Hit(el, "text", False, text))
        elif value in text:
            (leaf_in if leaf else inner_in).append(_Hit(el, "text", True, text))
        for name, attr in el.attrib.items():
            if name in _NO_MATCH_ATTRS:
                continue
            a = norm(attr)
            if _attr_equal(a, value, name):
                attr_eq.append(_Hit(el, name, False, a))
            elif value in a and name not in ("class", "id"):
                attr_in.append(_Hit(el, name, True, a))
    # Of nested elements with the same text keep the deepest: the others only wrap it.
    inner_eq = [h for h in inner_eq if not any(_inside(o.el, h.el) for o in inner_eq if o is not h)]
    inner_in = [
        h
        for h in inner_in
        if not any(_inside(o.el, h.el) for o in inner_in + leaf_in + inner_eq + leaf_eq if o is not h)
    ]
    attr_eq.sort(key=lambda h: not _is_leaf(h.el))
    hits = leaf_eq + attr_eq + inner_eq + leaf_in + inner_in + attr_in
    if common is not None:  # stable sort: nodes of the common template tree first
        hits.sort(key=lambda h: tag_path(h.el) not in common)
    return hits


def _inside(inner: etree._Element, outer: etree._Element) -> bool:
    return any(a is outer for a in _ancestors_or_self(inner.getparent()))


# --------------------------------------------------------------------------------------------
# CSS paths


def _css_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _step(el: etree._Element, *, positional: bool = True) -> str:
    """One precise step: tag, else tag + telling attribute, else tag:nth-of-type(n)."""
    tag = el.tag
    parent = el.getparent()
    if parent is None:
        return tag
    same = [s for s in parent if s.tag == tag]
    if len(same) == 1:
        return tag
    others = [s for s in same if s is not el]
    for name in (*_ATTR_ORDER, *sorted(k for k in el.attrib if k.startswith("data-"))):
        val = el.get(name)
        if not val or _GENERATED.search(val):
            continue
        if name == "class":
            for token in val.split():
                if _CLASS_TOKEN.match(token) and not any(
                    token in (s.get("class") or "").split() for s in others
                ):
                    return f"{tag}.{token}"
            continue
        if not any(s.get(name) == val for s in others):
            if name == "id" and _CLASS_TOKEN.match(val):
                return f"{tag}#{val}"
            return f"{tag}[{name}={_css_string(val)}]"
    if not positional:
        return tag
    return f"{tag}:nth-of-type({same.index(el) + 1})"


def precise_steps(el: etree._Element, page: _Page, *, anchor: bool = True) -> list[str]:
    """Steps from the root (or from the nearest element with a unique stable id) down to ``el``."""
    steps: list[str] = []
    node = el
    while node is not None and isinstance(node.tag, str):
        node_id = node.get("id")
        if (
            anchor
            and node is not el
            and node_id
            and page.ids.get(node_id) == 1
            and _CLASS_TOKEN.match(node_id)
            and not _GENERATED.search(node_id)
        ):
            steps.append(f"{node.tag}#{node_id}")
            break
        steps.append(_step(node))
        node = node.getparent()
    return list(reversed(steps))


_NTH = re.compile(r":nth-of-type\(\d+\)$")


def merge_steps(a: list[str], b: list[str]) -> list[str] | None:
    """Two paths to corresponding nodes -> one: differing steps lose their position/attribute."""
    if len(a) != len(b):
        return None
    out = []
    for x, y in zip(a, b, strict=True):
        if x == y:
            out.append(x)
            continue
        tx, ty = re.match(r"[\w-]+", x), re.match(r"[\w-]+", y)
        if not tx or not ty or tx.group(0) != ty.group(0):
            return None
        out.append(tx.group(0))
    return out


def generalise_pair(a: list[str], b: list[str]) -> list[str] | None:
    """Two instances of a repeated field: drop the position where they are different siblings.

    Walks from the leaf up to the first step where the two differ under the same parent path:
    they are siblings there, so that step becomes the bare tag (the paper's rule). Deeper steps
    that differ lose their position too.
    """
    if len(a) != len(b):
        return None
    for i in range(len(a) - 1, -1, -1):
        if a[i] != b[i] and a[:i] == b[:i]:
            tag = re.match(r"[\w-]+", a[i])
            out = [*a[:i], tag.group(0) if tag else a[i]]
            out += [x if x == y else _NTH.sub("", x) for x, y in zip(a[i + 1 :], b[i + 1 :], strict=True)]
            return out
    return list(a)


def _join(steps: list[str]) -> str:
    return " > ".join(steps)


# --------------------------------------------------------------------------------------------
# Learning


@dataclass
class LearnResult:
    wrapper: Wrapper
    warnings: list[str]


def _values(v: Any) -> list[str]:
    if v is None:
        return []
    if isinstance(v, list):
        return [norm(str(x)) for x in v if x is not None and norm(str(x))]
    return [norm(str(v))] if norm(str(v)) else []


def _regex_for(hits: list[tuple[_Hit, str]]) -> str | None:
    """A regex cutting the value out of the text around it, from the text shared by samples."""
    pres, sufs = [], []
    for hit, value in hits:
        i = hit.full.find(value)
        pres.append(hit.full[:i])
        sufs.append(hit.full[i + len(value) :])
    pre = _common_suffix(pres)[-24:]
    suf = _common_prefix(sufs)[:24]
    if len(hits) == 1:  # one sample only: the nearest word either side
        pre = re.search(r"(\S*\s*)$", pre).group(1) if pre else ""
        suf = re.match(r"(\s*\S*)", suf).group(1) if suf else ""
    if not pre and not suf:
        return None
    return (_rx_text(pre) if pre else "^") + "(.+?)" + (_rx_text(suf) if suf else "$")


def _rx_text(text: str) -> str:
    """A literal for a regex the user may read and edit: spaces and hyphens left unescaped."""
    return re.escape(text).replace("\\ ", " ").replace("\\-", "-")


def _common_prefix(xs: list[str]) -> str:
    if not xs:
        return ""
    s, t = min(xs), max(xs)
    n = 0
    while n < len(s) and s[n] == t[n]:
        n += 1
    return s[:n]


def _common_suffix(xs: list[str]) -> str:
    return _common_prefix([x[::-1] for x in xs])[::-1]


def _check(rule: FieldRule, page: _Page, expected: list[str]) -> float:
    """How well a rule does on one sample: 1.0 exact; for lists, the share of values found.

    Extra list items are not penalised here: a user lists a few comments of many. Among rules
    finding the same share, :func:`_extras` prefers the one adding fewest unlisted items.
    """
    got = rule.extract(page.root, page.texts)

    def same(g: str, w: str) -> bool:
        return g == w or (rule.part in ("href", "src") and _attr_equal(g, w, rule.part))

    if not rule.many:
        return 1.0 if got is not None and same(got, expected[0]) else 0.0
    got = got or []
    if not got or not expected:
        return 0.0
    return sum(1 for v in expected if any(same(g, v) for g in got)) / len(expected)


def _extras(rule: FieldRule, page: _Page, expected: list[str]) -> int:
    got = rule.extract(page.root, page.texts) or []
    return sum(1 for g in got if g not in expected)


def learn_wrapper(
    samples: tuple[str | bytes, str | bytes],
    values: tuple[Mapping[str, Any], Mapping[str, Any]],
    names: tuple[str, str] = ("sample A", "sample B"),
) -> LearnResult:
    """Learn a wrapper from two sample pages and, per sample, ``label -> value or [values]``.

    A label missing (or null) on one sample is optional: it is learned from the other one.
    Labels whose value cannot be found are reported in ``warnings`` (naming label and sample)
    and left out of the wrapper.
    """
    pages = (_page(samples[0]), _page(samples[1]))
    common = pages[0].tag_paths & pages[1].tag_paths
    warnings: list[str] = []
    learned: dict[str, FieldRule] = {}
    labels = list(dict.fromkeys([*values[0].keys(), *values[1].keys()]))
    # A value equal on both samples (both threads by the same author, who is also the logged-in
    # user named in the header) can sit in several places that all "work" on both samples. Learn
    # the labels whose values differ first; their nodes then anchor the record, and a same-valued
    # label takes the exact path nearest to them (sorted() is stable: the user's order otherwise).
    anchors: list[etree._Element] = []
    for label in sorted(labels, key=lambda lb: _same_on_both(values, lb)):
        raw = (values[0].get(label), values[1].get(label))
        many = any(isinstance(v, list) for v in raw)
        wanted = (_values(raw[0]), _values(raw[1]))
        hits: list[list[list[_Hit]]] = [[], []]
        for s in (0, 1):
            for v in wanted[s]:
                found = find_hits(pages[s], v, common)
                if not found:
                    warnings.append(f"label {label!r}: value {v!r} not found on {names[s]}")
                hits[s].append(found)
        usable = [s for s in (0, 1) if wanted[s] and any(hits[s])]
        if not usable:
            if wanted[0] or wanted[1]:
                warnings.append(f"label {label!r}: not found on either sample; left out")
            continue
        same = _same_on_both(values, label)
        if many:
            rule = _learn_many(label, pages, wanted, hits, usable)
        else:
            rule = _learn_one(label, pages, wanted, hits, usable, anchors if same else None)
        if rule is None:
            warnings.append(f"label {label!r}: no CSS path extracts it; left out")
            continue
        score = [_check(rule, pages[s], wanted[s]) for s in usable]
        if min(score) < 1.0:
            bad = [names[s] for s, sc in zip(usable, score, strict=True) if sc < 1.0]
            warnings.append(f"label {label!r}: the learned path is not exact on {', '.join(bad)}")
        learned[label] = rule
        if not same and 0 in usable:  # anchors live on sample A, where same-valued labels start
            anchors.extend(rule.selector()(pages[0].root)[:3])
    return LearnResult(Wrapper([learned[lb] for lb in labels if lb in learned]), warnings)


def _same_on_both(values: tuple[Mapping[str, Any], Mapping[str, Any]], label: str) -> bool:
    v0, v1 = _values(values[0].get(label)), _values(values[1].get(label))
    return bool(v0) and v0 == v1


def _nearness(el: etree._Element, anchors: list[etree._Element]) -> int:
    """Depth of the deepest common ancestor of ``el`` and any anchor: higher = nearer."""
    mine = {id(a): depth for depth, a in enumerate(reversed(list(_ancestors_or_self(el))))}
    best = 0
    for anchor in anchors:
        for a in _ancestors_or_self(anchor):
            if id(a) in mine:
                best = max(best, mine[id(a)])
                break
    return best


def _rules_for(
    label: str, part: str, steps_list: Iterable[list[str] | None], many: bool, regex: str | None
) -> Iterable[FieldRule]:
    seen = set()
    for steps in steps_list:
        if steps and _join(steps) not in seen:
            seen.add(_join(steps))
            yield FieldRule(label, part, _join(steps), many, regex)


def _learn_one(label, pages, wanted, hits, usable, anchors=None) -> FieldRule | None:
    """A single value: the first candidate path that extracts it exactly from every sample.

    With ``anchors`` (nodes of labels whose values differ between samples, on sample A), every
    candidate's exact path is considered and the one whose node is nearest the anchors wins.
    """
    first = usable[0]
    other = 1 - first
    cands = [h for h in hits[first][0]][:12]
    other_hits = hits[other][0][:12] if other in usable else []
    best: tuple[float, FieldRule] | None = None
    exact: list[tuple[int, int, FieldRule]] = []  # (nearness, -order, rule)
    for h in cands:
        regex = None
        if h.contains:
            pair = [(h, wanted[first][0])]
            twin = next((o for o in other_hits if o.part == h.part and o.contains), None)
            if twin is not None:
                pair.append((twin, wanted[other][0]))
            regex = _regex_for(pair)
        variants = [precise_steps(h.el, pages[first]), precise_steps(h.el, pages[first], anchor=False)]
        for o in other_hits:
            if o.part == h.part:
                for anchor in (True, False):
                    variants.append(precise_steps(o.el, pages[other], anchor=anchor))
                    variants.append(
                        merge_steps(
                            precise_steps(h.el, pages[first], anchor=anchor),
                            precise_steps(o.el, pages[other], anchor=anchor),
                        )
                    )
        for rule in _rules_for(label, h.part, variants, False, regex):
            score = sum(_check(rule, pages[s], wanted[s]) for s in usable)
            if best is None or score > best[0]:
                best = (score, rule)
            if score == len(usable):
                if not anchors or first != 0:
                    return rule
                found = rule.selector()(pages[first].root)
                exact.append((_nearness(found[0], anchors) if found else 0, -len(exact), rule))
                break  # the next candidate node
    if exact:
        return max(exact, key=lambda x: (x[0], x[1]))[2]
    return best[1] if best else None


def _learn_many(label, pages, wanted, hits, usable) -> FieldRule | None:
    """A repeated field: generalise the paths of two instances, keep what finds most values."""
    instances: list[tuple[int, str, _Hit]] = []
    for s in usable:
        for value, found in zip(wanted[s], hits[s], strict=True):
            if found:
                instances.append((s, value, found[0]))
    part = instances[0][2].part
    instances = [i for i in instances if i[2].part == part]
    paths = [(s, precise_steps(h.el, pages[s], anchor=a)) for s, _, h in instances for a in (True, False)]
    variants: list[list[str] | None] = []
    for i in range(len(paths)):
        for j in range(i + 1, min(len(paths), i + 9)):
            variants.append(generalise_pair(paths[i][1], paths[j][1]))
    variants.extend(p for _, p in paths)
    contains = [(h, v) for _, v, h in instances if h.contains][:4]
    regex = _regex_for(contains) if contains else None
    best: tuple[tuple[float, int, int], FieldRule] | None = None
    for rule in _rules_for(label, part, variants, True, regex):
        score = sum(_check(rule, pages[s], wanted[s]) for s in usable)
        if score == 0:
            continue
        key = (score, -sum(_extras(rule, pages[s], wanted[s]) for s in usable), -len(rule.css))
        if best is None or key > best[0]:
            best = (key, rule)
    return best[1] if best else None
