"""Wrapper learning from sample pages, the values wanted on them, and the cluster's other pages.

Per label:

1. Find the nodes holding the value on each sample, visible ones first (``candidates.py``).
2. For each, candidate paths (``paths.py``): precise from the root or a stable id, learned on
   another sample, merged across samples, without positions, and anchored on the label before the
   value (``th:contains("ISBN") + td``). A value inside longer text gets a regex from context that
   is stable on the site (``context.py``).
3. Keep the candidates exact on *every* sample (more samples only remove wrong candidates), visible
   before hidden, fewest positions first.
4. With the other pages of the cluster (values unknown), check each (``validate.py``): found on
   most pages, not one value everywhere when the samples differ, values of the samples' kind (date,
   ISBN, price, name...). The first candidate within 0.05 of the best quality wins.
5. A single value whose path, read as a list, finds a run of same-shaped siblings on unseen pages
   (and exactly the sample value on every sample) is a list: one author on both samples does not
   make ``authors`` single.
6. A fingerprint of the node is stored with the rule for healing (``fingerprint.py``).

Fields given as lists on a sample are repeated fields: the paths of two instances are aligned and
the step where they are siblings loses its position (the paper's rule).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from lxml import etree

from browsercrawl.wrappers.candidates import Hit, attr_equal, find_hits
from browsercrawl.wrappers.context import context_regex
from browsercrawl.wrappers.dom import Page, common_depth, in_navigation, inside, page_of, units_form_a_run
from browsercrawl.wrappers.fingerprint import (
    boilerplate,
    fingerprint,
    look_alikes,
    site_shapes,
    unsteady_neighbours,
)
from browsercrawl.wrappers.leads import ancestor, lead_holder, lead_text
from browsercrawl.wrappers.model import (
    CONJUNCTIONS,
    LINE_BREAK,
    FieldRule,
    Wrapper,
    item_units,
    norm,
    own_text,
    qualified,
    qualifier,
    text_after,
    text_between,
    text_words,
)
from browsercrawl.wrappers.paths import (
    MARKING_ATTRS,
    attribute_steps,
    class_steps,
    column_of,
    css_string,
    generalise_pair,
    join,
    label_steps,
    last_of_type_steps,
    lead_steps,
    merge_steps,
    one_label,
    positions,
    precise_steps,
    run_of,
    stable_classes,
    stray_marks,
    text_label,
    without_positions,
)
from browsercrawl.wrappers.validate import FieldReport, check_on_cluster, first_node, has_kind, kind_of

MAX_HITS = 12
MAX_CHECKED = 10  # exact candidates checked on the unseen pages, best first
QUALITY_SLACK = 0.05
MIN_UNSEEN_FOR_AVOID = 3  # fewer unseen pages cannot tell boilerplate from a coincidence


@dataclass
class LearnResult:
    wrapper: Wrapper
    warnings: list[str]
    report: dict[str, FieldReport] = field(default_factory=dict)


def _values(v: Any) -> list[str]:
    if v is None:
        return []
    if isinstance(v, list):
        return [norm(str(x)) for x in v if x is not None and norm(str(x))]
    return [norm(str(v))] if norm(str(v)) else []


def _same(rule: FieldRule, got: str, want: str) -> bool:
    return got == want or (rule.part in ("href", "src") and attr_equal(got, want, rule.part))


def _check(rule: FieldRule, page: Page, expected: list[str]) -> float:
    """How well a rule does on one sample: 1.0 exact; for lists, the share of values found.

    Extra list items are not penalised here: a user lists a few comments of many. Among rules
    finding the same share, :func:`_extras` prefers the one adding fewest unlisted items.
    """
    got = rule.extract(page.root, page.texts)
    if not rule.many:
        return 1.0 if got is not None and _same(rule, got, expected[0]) else 0.0
    got = got or []
    if not got or not expected:
        return 0.0
    return sum(1 for v in expected if any(_same(rule, g, v) for g in got)) / len(expected)


def _extras(rule: FieldRule, page: Page, expected: list[str]) -> int:
    got = rule.extract(page.root, page.texts) or []
    return sum(1 for g in got if g not in expected)


def _as_pairs(samples: Sequence[Any], values: Sequence[Mapping[str, Any]]) -> None:
    if len(samples) != len(values):
        raise ValueError(f"{len(samples)} sample pages but {len(values)} value objects")
    if not samples:
        raise ValueError("learning a wrapper needs at least one sample page")


def learn_wrapper(
    samples: Sequence[str | bytes],
    values: Sequence[Mapping[str, Any]],
    names: Sequence[str] | None = None,
    cluster_pages: Sequence[str | bytes] = (),
) -> LearnResult:
    """Learn a wrapper from sample pages and, per sample, ``label -> value or [values]``.

    ``cluster_pages`` are other pages of the same class (the pre-crawl's), values unknown: they
    pick between candidate paths, tell lists from single values and give each label's found-rate
    (``report``). A label missing (or null) on a sample is optional there. Labels whose value
    cannot be found are reported in ``warnings`` and left out; so are weak labels' rates.
    """
    _as_pairs(samples, values)
    names = list(names) if names else [f"sample {chr(65 + i)}" for i in range(len(samples))]
    pages = [page_of(s) for s in samples]
    unseen = [page_of(s) for s in cluster_pages]
    common = set.intersection(*(p.tag_paths for p in pages))
    warnings: list[str] = []
    learned: dict[str, FieldRule] = {}
    report: dict[str, FieldReport] = {}
    labels = list(dict.fromkeys(label for v in values for label in v))
    given = frozenset(x for v in values for raw in v.values() for x in _values(raw))
    # A value equal on all samples (threads by the same author, who is also the logged-in user
    # named in the header) can sit in several places that all "work". Learn the labels whose
    # values differ first; their nodes anchor the record, and a same-valued label takes the exact
    # path nearest to them (sorted() is stable: the user's order otherwise).
    anchors: list[etree._Element] = []
    constant: set[str] | None = None  # the cluster's boilerplate texts, found when first needed
    for label in sorted(labels, key=lambda lb: _same_everywhere(values, lb)):
        raw = [v.get(label) for v in values]
        many = any(isinstance(v, list) for v in raw)
        wanted = [_values(r) for r in raw]
        hits: list[list[list[Hit]]] = []
        for s, page in enumerate(pages):
            per_value = []
            for v in wanted[s]:
                found = find_hits(page, v, common)
                if not found:
                    warnings.append(f"label {label!r}: value {v!r} not found on {names[s]}")
                per_value.append(found)
            hits.append(per_value)
        usable = [s for s in range(len(pages)) if wanted[s] and any(hits[s])]
        if not usable:
            if any(wanted):
                warnings.append(f"label {label!r}: not found on any sample; left out")
            continue
        kind = kind_of([v for s in usable for v in wanted[s]])
        same = _same_everywhere(values, label)
        ctx = _Context(label, pages, wanted, hits, usable, unseen, kind, given)
        if many:
            rule = _learn_many(ctx)
            if rule is not None and not rule.split and all(len(wanted[s]) == 1 for s in usable):
                # One item on every sample: the unseen pages may write several in its node ("A, B").
                one = FieldRule(rule.label, rule.part, rule.css, False, rule.regex, column=rule.column)
                rule = _split_list(ctx, one) or rule
        else:
            alternates: list[FieldRule] = []
            rule = _learn_one(ctx, anchors if same else None, alternates)
            if rule is not None:
                rule = _widest_list(ctx, _maybe_list(ctx, rule), alternates)
        if rule is None:
            warnings.append(f"label {label!r}: no CSS path extracts it; left out")
            continue
        rule = _role_cut(ctx, rule)
        score = [_check(rule, pages[s], wanted[s]) for s in usable]
        if min(score) < 1.0:
            bad = [names[s] for s, sc in zip(usable, score, strict=True) if sc < 1.0]
            warnings.append(f"label {label!r}: the learned path is not exact on {', '.join(bad)}")
        first = usable[0]
        # The node the value comes from: a regex may pass over the path's first match (the
        # author's link before the publisher's, both ``span.t1 > a``).
        page = pages[first]
        nodes = _valued_nodes(rule, page) or rule.nodes(rule.css, page.root, page.texts)
        if nodes:
            rule.fingerprint = fingerprint(nodes[0], pages[first], wanted[first][0], kind, rule.many)
            if not rule.many:
                # The node the value comes from on each page, and the value it gives there.
                every = [*(pages[s] for s in usable), *unseen]
                found = [(p, ns[0]) for p in every if (ns := _valued_nodes(rule, p))]
                unsteady_neighbours(rule.fingerprint, [n for _, n in found])
                site_shapes(rule.fingerprint, [v for p, n in found if (v := rule.cut(n, p.texts))])
            if strays := _stray_texts(ctx, rule):
                rule.fingerprint["strays"] = strays
            stable = _stable_label(rule, [pages[s] for s in usable] + unseen)
            if rule.regex and _OWN_LABEL.match(rule.regex):
                # "^商品編號：(.+?)$" reads the label in the node's own text; the row before it
                # ("出版地：美國") is a neighbour, not a label healing should look for.
                stable = None
            rule.fingerprint["label"] = stable if ctx.is_label(stable) else None
        if unseen:
            check = check_on_cluster(rule, unseen, kind)
            if rule.fingerprint and kind and check.found and check.kind_rate < 0.9:
                # Two samples guessed the kind ("ChildExt", "Sections": capitalised names); the
                # unseen values say otherwise ("expf128"): healing must not require it.
                rule.fingerprint["kind"] = None
            report[label] = FieldReport(
                label, kind, rule.many, check.pages, check.found_rate, check.kind_rate
            )
            if report[label].weak():
                warnings.append(
                    f"label {label!r}: weak on the cluster: found on {check.found_rate:.0%} of "
                    f"{check.pages} unseen pages, {check.kind_rate:.0%} of them a {kind or 'value'}"
                )
        if rule.fingerprint and unseen and len(unseen) >= MIN_UNSEEN_FOR_AVOID and ctx.samples_differ():
            if constant is None:
                constant = boilerplate(pages, unseen)
            own = {v for p in [*pages, *unseen] for v in _values(rule.extract(p.root, p.texts))}
            rule.fingerprint["avoid"] = look_alikes(rule.fingerprint, pages[first], constant - own - given)
        learned[label] = rule
        if not same and 0 in usable:  # anchors live on sample A, where same-valued labels start
            anchors.extend(rule.nodes(rule.css, pages[0].root, pages[0].texts)[:3])
    return LearnResult(Wrapper([learned[lb] for lb in labels if lb in learned]), warnings, report)


def _stable_label(rule: FieldRule, pages: Sequence[Page]) -> str | None:
    """The label before the field's node when it is the same on (nearly) every page, else None."""
    labels = []
    for page in pages:
        nodes = _valued_nodes(rule, page)
        if nodes:
            labels.append(text_label(nodes[0], page))
    if not labels or labels[0] is None:
        return None
    return labels[0] if sum(lb == labels[0] for lb in labels) >= 0.8 * len(labels) else None


def _same_everywhere(values: Sequence[Mapping[str, Any]], label: str) -> bool:
    given = [_values(v.get(label)) for v in values]
    given = [g for g in given if g]
    return len(given) >= 2 and all(g == given[0] for g in given)


@dataclass
class _Context:
    label: str
    pages: list[Page]
    wanted: list[list[str]]
    hits: list[list[list[Hit]]]
    usable: list[int]
    unseen: list[Page]
    kind: str | None
    given: frozenset[str] = frozenset()  # every value the user gave, of any label

    def is_label(self, text: str | None) -> bool:
        """Text before a node is a label unless it is or holds a value the user gave (a
        coincidence: "包装：Mass Market Paperback" is another field's row, not this one's label)."""
        if text is None or text in self.given:
            return False
        return not any(len(v) >= 4 and v in text for v in self.given)

    def exact(self, rule: FieldRule) -> bool:
        return all(_check(rule, self.pages[s], self.wanted[s]) == 1.0 for s in self.usable)

    def samples_differ(self) -> bool:
        return len({tuple(self.wanted[s]) for s in self.usable}) > 1


def _raw_texts(rule: FieldRule, page: Page) -> list[str]:
    """The texts a regex of the rule would search: each line of each node (``<br>`` ends one)."""
    out = []
    for el in rule.selector()(page.root):
        if rule.part == "text":
            out.extend(page.texts.lines(el))
        elif el.get(rule.part):
            out.append(norm(el.get(rule.part)))
    return out


def _with_regex(ctx: _Context, label: str, part: str, css: str, many: bool) -> list[FieldRule]:
    """Rules for ``css`` with a regex cutting the value out of the node's longer text.

    Two contexts: the line holding the value (``<br>`` ends a line: ``^Publisher: (.+?)$``), and
    the node's whole text (a label lines away: ``Publisher: .+?, (.+?), ``); both are tried.
    """
    bare = FieldRule(label, part, css, many)
    kind = ctx.kind
    plausible = (lambda v: has_kind(v, kind)) if kind else None
    rules = []
    for texts_of in (_raw_texts, _whole_texts):
        pairs = []
        for s in ctx.usable:
            want = ctx.wanted[s][0]
            full = next((t for t in texts_of(bare, ctx.pages[s]) if want in t), None)
            if full is None:
                break
            pairs.append((full, want))
        else:
            refs = [" \n ".join(texts_of(bare, p)) for p in ctx.unseen]
            regex = context_regex(pairs, refs, plausible)
            if regex and all(r.regex != regex for r in rules):
                rules.append(FieldRule(label, part, css, many, regex))
    return rules


def _whole_texts(rule: FieldRule, page: Page) -> list[str]:
    out = []
    for el in rule.selector()(page.root):
        raw = page.texts.text(el) if rule.part == "text" else norm(el.get(rule.part))
        if raw:
            out.append(raw)
    return out


def _step_variants(ctx: _Context, h: Hit, first: int) -> list[list[str] | None]:
    page = ctx.pages[first]
    mine = {a: precise_steps(h.el, page, anchor=a) for a in (True, False)}
    by_label = label_steps(h.el, page, None) if ctx.is_label(text_label(h.el, page)) else None
    # "<li>Print edition: <span>Paperback</span></li>": the label is the block's first words.
    led = lead_steps(h.el, page) if h.part == "text" else None
    out: list[list[str] | None] = [
        mine[True],
        mine[False],
        by_label,
        led[0] if led and ctx.is_label(led[1]) else None,
        class_steps(h.el, page),
        last_of_type_steps(h.el, page),
    ]
    for s in ctx.usable:
        if s == first:
            continue
        for o in ctx.hits[s][0][:6]:
            if o.part != h.part or o.hidden != h.hidden:
                continue
            for anchor in (True, False):
                theirs = precise_steps(o.el, ctx.pages[s], anchor=anchor)
                out.extend([theirs, merge_steps(mine[anchor], theirs)])
    out.extend([without_positions(x) for x in out if x])
    out.extend(attribute_steps(h.el, page))
    return out


def _learn_one(
    ctx: _Context,
    anchors: list[etree._Element] | None = None,
    alternates: list[FieldRule] | None = None,
    turn: int = 0,
) -> FieldRule | None:
    """A single value: candidates exact on every sample, ranked, checked on the unseen pages.

    ``alternates`` receives the other candidates found about as often on the unseen pages, best
    first: :func:`_widest_list` may prefer one of them read as a list. Candidates start from the
    first sample's nodes; when none is exact on every sample, from the next sample's (the value
    a link on one page, words in a line of text on another: only the line's node serves both).
    """
    first = ctx.usable[0]
    seen: set[tuple[str, str]] = set()
    exact: list[tuple[tuple, FieldRule]] = []
    best: tuple[float, FieldRule] | None = None
    for order, h in enumerate(ctx.hits[first][0][:MAX_HITS]):
        for steps in _step_variants(ctx, h, first):
            if not steps or (h.part, join(steps)) in seen:
                continue
            seen.add((h.part, join(steps)))
            css = join(steps)
            rules = (
                _with_regex(ctx, ctx.label, h.part, css, False)
                if h.contains
                else [FieldRule(ctx.label, h.part, css)]
            )
            if h.part == "text" and (ctx.unseen or h.contains) and own_text(h.el) == ctx.wanted[first][0]:
                # The element's own text: a child that sometimes holds more (a series prefix
                # inside the title) is left out; the unseen pages tell which reading is right.
                rules.append(FieldRule(ctx.label, "own", css))
            for rule in rules:
                score = sum(_check(rule, ctx.pages[s], ctx.wanted[s]) for s in ctx.usable)
                if best is None or score > best[0]:
                    best = (score, rule)
                if score < len(ctx.usable):
                    continue
                near = 0
                if anchors and first == 0:
                    # The node the value comes from, not the path's first match (an empty cell).
                    node = first_node(rule, ctx.pages[first])
                    near = common_depth(node, anchors)[0] if node is not None else 0
                key = (h.hidden, in_navigation(h.el), -near, positions(rule.css), order, len(exact))
                exact.append((key, rule))
        column = _column_rule(ctx, h, first)
        if column is not None:
            near = 0
            if anchors and first == 0:
                found = column[1].nodes(column[1].css, ctx.pages[first].root, ctx.pages[first].texts)
                near = common_depth(found[0], anchors)[0] if found else 0
            exact.append(((h.hidden, in_navigation(h.el), -near, column[0], order, len(exact)), column[1]))
    lines = _line_of_the_value(ctx, first, len(exact))
    exact += lines
    if not exact:
        if turn + 1 < len(ctx.usable):
            turned = replace(ctx, usable=[*ctx.usable[1:], ctx.usable[0]])
            found = _learn_one(turned, anchors, alternates, turn + 1)
            if found is not None and turned.exact(found):
                return found
        return best[1] if best else None
    ranked = [r for _, r in sorted(exact, key=lambda x: x[0])]
    if not ctx.unseen:
        return ranked[0]
    # One-step paths by a machine-read mark (``span[data-price-type="finalPrice"]``) rank behind
    # the many spellings of the samples' own path; the best two are checked however far down.
    marked = [r for r in ranked[MAX_CHECKED:] if r.column is None and " " not in r.css][:2]
    fallback = [r for _, r in lines]
    checks = [
        (r, check_on_cluster(r, ctx.unseen, ctx.kind, _sample_label(ctx, r)))
        for r in ranked[:MAX_CHECKED] + marked
        if r not in fallback
    ]
    # The value's line with a regex (``_line_of_the_value``) competes only where it finds the
    # value on clearly more unseen pages than the best path to the value's own node: that path
    # finds nothing where the value is no link.
    found_best = max((c for _, c in checks), key=lambda c: c.quality()).found_rate if checks else -1.0
    for r in fallback:
        check = check_on_cluster(r, ctx.unseen, ctx.kind, _sample_label(ctx, r))
        if check.found_rate > found_best + QUALITY_SLACK:
            checks.append((r, check))
    # One value on every unseen page is a constant (the site's name, the logged-in user), not a
    # field, unless no candidate varies (then the field is constant on this site).
    checks = [c for c in checks if not c[1].identical()] or checks
    top = max(c.quality() for _, c in checks)
    close = [r for r, c in checks if c.quality() >= top - QUALITY_SLACK]
    best = close[0]
    # Two rows the samples cannot tell apart ("Imprint" and "Publisher" naming the same house on
    # both) part on the unseen pages; the one whose label is the field's own name is the field.
    named = [r for r in close if _label_names_field(ctx.label, _sample_label(ctx, r))]
    if named and best not in named and _parts_on_unseen(ctx, best, named[0]):
        best = named[0]
    elif len(close) > 1 and _samples_backed(ctx):
        # Else the one the page's structured data (JSON-LD, meta) agrees with on the unseen pages:
        # "Brand: Tor" beside an "Imprint" row that only sometimes names the same house. Only
        # where the samples' own values are in their structured data: else it speaks of other
        # fields (a row read by its place meets the ISBN, which the data holds, on some pages).
        backing = {id(r): _machine_backing(ctx, r) for r in close[:MAX_CHECKED]}
        backed = max(close[:MAX_CHECKED], key=lambda r: backing[id(r)])
        if backing[id(backed)] >= backing[id(best)] + 0.3 and _parts_on_unseen(ctx, best, backed):
            best = backed
    if best.regex and _SHAPED.search(best.regex):
        # A group shaped by the samples ("(\S+)": both houses one word) in text without a label
        # yields to a line that names the field ("^Publisher: (.+?)$"), found as often.
        named_line = [
            r for r in close if r.regex and _OWN_LABEL.match(r.regex) and not _SHAPED.search(r.regex)
        ]
        best = named_line[0] if named_line else best
    if best.column is None and _sample_label(ctx, best) is None:
        # The same values on every unseen page, from a row labelled "Encuadernación:" and from a
        # node only its class tells (``div.format.selected > span``): the label is what a
        # redesign keeps, and what healing finds the field by. A label is a field's when it ends
        # in a colon, or when the path goes by it outside the navigation (``dt:contains("Indbinding")
        # + dd``); a breadcrumb before the title's link is no label of the title.
        labelled = [
            r for r in close
            if r.column is None and _field_label(ctx, r) and not _parts_on_unseen(ctx, best, r)
        ]
        best = labelled[0] if labelled else best
    if alternates is not None:
        # Candidates found as often whose values are not all of the kind ("Ann Lee, Bo Chen" is
        # no name) may be lists the winner cuts one item from.
        found = max(c.found_rate for _, c in checks)
        # The value's line (a fallback for values linked on some pages only) is no such list.
        alternates.extend(
            r for r, c in checks
            if r is not best and c.found_rate >= found - QUALITY_SLACK and r not in fallback
        )
    return best


def _line_of_the_value(ctx: _Context, first: int, after: int) -> list[tuple[tuple, FieldRule]]:
    """The value's parent with a regex cutting it out of its line ("出版社: <a>Tor</a>" and, on
    other pages, "出版社: Vintage" with no link): ranked after every other candidate, so it wins
    only where those are found on fewer unseen pages."""
    top = ctx.hits[first][0][:1]
    if not ctx.unseen or not top or top[0].part != "text" or top[0].contains:
        return []
    h, page = top[0], ctx.pages[first]
    parent = h.el.getparent()
    if parent is None or parent.tag in ("body", "html") or page.texts.text(parent) == ctx.wanted[first][0]:
        return []
    css = join(without_positions(precise_steps(parent, page)))
    return [
        ((h.hidden, in_navigation(h.el), 0, positions(css), MAX_HITS, after + k), rule)
        for k, rule in enumerate(_with_regex(ctx, ctx.label, "text", css, False))
        if ctx.exact(rule)
    ]


def _column_rule(ctx: _Context, h: Hit, first: int) -> tuple[float, FieldRule] | None:
    """The hit's value found by its label in a parallel column, when exact on every sample."""
    if h.contains or h.part != "text":
        return None
    found = column_of(h.el, ctx.pages[first])
    if found is None:
        return None
    values_css, labels_css, text, others = found
    if any(not ctx.is_label(t) for t in others):
        return None  # a run holding values the user gave is another record's cells, not labels
    rule = FieldRule(
        ctx.label, "text", values_css, column={"labels": labels_css, "label": text, "with": others}
    )
    if not ctx.exact(rule):
        return None
    # Ranked like a path with the values' positions, just ahead of one with as many: the label
    # ties the value to its column, where a position alone breaks when a column is optional.
    return positions(values_css) - 0.5, rule


def _label_names_field(field_name: str, label: str | None) -> bool:
    """The page's label for a node says the field's name ("Publisher:" for ``publisher``)."""
    if not label:
        return False
    wanted, said = text_words(field_name), text_words(label)
    return bool(wanted) and all(w in said for w in wanted)


def _machine_backed(value: str, page: Page) -> bool:
    """Whether the page's structured data holds ``value`` (a price as its amount: "33.64")."""
    machine = page.machine_values
    return value in machine or bool(_PRICE.search(value) and _digits(value) in {_digits(m) for m in machine})


def _samples_backed(ctx: _Context) -> bool:
    return all(_machine_backed(v, ctx.pages[s]) for s in ctx.usable for v in ctx.wanted[s])


def _machine_backing(ctx: _Context, rule: FieldRule) -> float:
    """Share of the unseen pages whose structured data holds the value the rule reads there."""
    hits = found = 0
    for page in ctx.unseen:
        got = rule.extract(page.root, page.texts)
        values = got if isinstance(got, list) else [got] if got else []
        if values:
            found += 1
            hits += all(_machine_backed(v, page) for v in values)
    return hits / found if found else 0.0


_PRICE = re.compile(r"\d[.,]\d{2}(?!\d)")  # an amount with cents: "US$33.64", "12,99 €"


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _parts_on_unseen(ctx: _Context, a: FieldRule, b: FieldRule) -> bool:
    """The two rules read different values on some unseen page."""
    return any(a.extract(p.root, p.texts) != b.extract(p.root, p.texts) for p in ctx.unseen)


def _sample_label(ctx: _Context, rule: FieldRule) -> str | None:
    """The label before the rule's node when every sample has the same one (``Edition``)."""
    if rule.column is not None:
        return None  # its label is the one in the label column, checked by the rule itself
    if " " not in rule.css:
        # A one-step path by a machine-read mark: the mark names the node; a label shown only in
        # one of the page's layouts ("Special Price" on sale pages) is not asked for.
        return None
    if rule.regex and _OWN_LABEL.match(rule.regex):
        # "^Publisher — (.+?)$": the regex reads the label in the node's own text; what stands
        # before the node (another row, "Series — Salt Cycle", on some pages) is no label of it.
        return None
    labels = set()
    for s in ctx.usable:
        node = first_node(rule, ctx.pages[s])
        labels.add(text_label(node, ctx.pages[s]) if node is not None else None)
    label = labels.pop() if len(labels) == 1 else None
    if not ctx.is_label(label):
        return None
    if _a_row(label, ctx.unseen):
        # The samples share a row before the value by chance ("版次：2nd edition" before the
        # date on both), not the field's label; asking for it would fail every candidate.
        return None
    return label


def _field_label(ctx: _Context, rule: FieldRule) -> bool:
    """Whether the samples' label before the rule's node names a field: short and ending in a
    colon ("Encuadernación:"), or the label the path goes by (``dt:contains("Indbinding") +
    dd``) outside the page's navigation."""
    text = _sample_label(ctx, rule)
    if not text or len(text) > 30:
        return False
    if text.rstrip().endswith((":", "：")):
        return True
    node = first_node(rule, ctx.pages[ctx.usable[0]])
    return ":contains(" in rule.css and node is not None and not in_navigation(node)


_SHAPED = re.compile(r"\((?:\\S\+|\[0-9\]\+)\)")  # a group shaped by the sample values
_OWN_LABEL = re.compile(r"\^[^\W\d_][^()]*?[^\W\d_][^()]*\(")  # "^Publisher — (": letters before the group


_ROW = re.compile(r"^(.{1,30}?[:：])\s*\S")


def _a_row(text: str, pages: Sequence[Page]) -> bool:
    """Whether ``text`` is a label and its value ("版次：2nd edition"): the same label shows
    other values on other pages ("版次：Revised")."""
    m = _ROW.match(text)
    if m is None:
        return False
    prefix = m.group(1)
    return any(t != text and t.startswith(prefix) for p in pages for t in p.all_texts)


def _maybe_list(ctx: _Context, rule: FieldRule) -> FieldRule:
    """Read a single-value rule as a list when unseen pages show a run of same-shaped values."""
    if not ctx.unseen or (rule.part != "text" and rule.regex):
        return rule
    steps = rule.css.split(" > ")
    variants = [rule.css]
    for i in range(len(steps) - 1, max(-1, len(steps) - 4), -1):
        if positions(steps[i]):
            variants.append(join([*steps[:i], *without_positions([steps[i]]), *steps[i + 1 :]]))
            break
    node = first_node(rule, ctx.pages[ctx.usable[0]])
    classes = stable_classes(node) if node is not None and re.fullmatch(r"[\w-]+", steps[-1]) else []
    if classes:
        # A bare tag on the samples (the name alone in its link) meets siblings of other roles
        # on pages with more items (``<span class=name>`` beside ``<span class=role>``): the
        # list keeps the sample node's classes.
        classed = steps[-1] + "".join(f".{c}" for c in classes)
        variants += [v.rsplit(" > ", 1)[0] + " > " + classed for v in list(variants)]
    if " + " in steps[-1]:  # a label path: every same-tag sibling after the label, not the first
        variants.append(join([*steps[:-1], steps[-1].replace(" + ", " ~ ")]))
    if len(steps) >= 3 and "." in steps[-1] and not positions(steps[-1]):
        # Items that sit in a wrapper only when there are several (``field > item`` for one,
        # ``field > items > item`` for more): the classed item anywhere under its parent.
        variants.append(join(steps[:-1]) + " " + steps[-1])
    listed = []
    for css in variants:
        many = FieldRule(rule.label, rule.part, css, True, rule.regex)
        # Where unseen pages show another role's block of the same shape ("Narrated by"), the
        # path to the samples' lead ("By") is tried first.
        listed += [led, many] if (led := _led(ctx, many)) is not None else [many]
    # A "Follow author" button after the name in its run, or another role's name in a wrapper
    # another machine-read mark names: the list without them, tried first.
    listed = [x for m in listed for x in (_strays_out(ctx, m), _parent_marked(ctx, m), m) if x is not None]
    for many in listed:
        if not all(
            (many.extract(ctx.pages[s].root, ctx.pages[s].texts) or []) == ctx.wanted[s] for s in ctx.usable
        ):
            # The samples prove it single, or the run goes on with another role's items (one
            # author, then a translator): a list that a word between two items ends.
            many = _role_cut(ctx, many)
            if many.until is None and not many.unqualified and many.role is None:
                continue
        check = check_on_cluster(many, ctx.unseen, ctx.kind)
        if check.multi == 0 or check.kind_rate < 0.9:
            continue
        runs = [
            units_form_a_run(nodes) and one_label(nodes, p)
            for p in ctx.unseen
            if len(many.extract(p.root, p.texts) or []) > 1
            for nodes in [many.selector()(p.root)]
        ]
        if sum(runs) >= 0.9 * len(runs):
            return many
    return _split_list(ctx, rule) or rule


def _strays_out(ctx: _Context, rule: FieldRule) -> FieldRule | None:
    """The list rule without the items of its run that the samples leave out, when each of them
    carries a mark that none of the samples' items has (:func:`paths.stray_marks`).

    A "Follow author" button (``<a class="btn">``) and a "what is this?" link (``<a
    target="_blank">``) come after the author links on every page, in the same ``li > a`` run:
    ``li > a:not(.btn):not([target])`` reads the authors alone. Another role's items, with no
    mark of their own, are cut by the words between them instead (:func:`_role_cut`).
    """
    if not rule.many or rule.split or rule.regex or rule.column:
        return None
    if rule.until or rule.role or rule.unqualified:
        return None
    values: list[etree._Element] = []
    strays: list[etree._Element] = []
    for s in ctx.usable:
        page, want = ctx.pages[s], set(ctx.wanted[s])
        for node in _valued_nodes(rule, page):
            (values if rule.cut(node, page.texts) in want else strays).append(node)
    marks = stray_marks(values, strays)
    return replace(rule, css=rule.css + marks) if marks else None


def _parent_marked(ctx: _Context, rule: FieldRule) -> FieldRule | None:
    """The list rule through the item wrappers the samples' items share a mark of (a class, or
    a machine-read attribute's value) when the run's other items' wrappers lack it, or when the
    samples show no other item and the mark is a machine-read attribute's.

    Book Depository: "By (author) <span itemprop="author"><a>A</a></span>, Translated by <span
    itemprop="contributor"><a>T</a></span>": every name a link of one shape; the wrappers say
    which are the authors (``span[itemprop="author"] > a``).
    """
    if not rule.many or rule.split or rule.regex or rule.column or rule.until or rule.role:
        return None
    steps = rule.css.split(" > ")
    if len(steps) < 2 or re.search(r"[\s+~]", steps[-2]):
        return None

    def marks(el: etree._Element) -> set[str]:
        out = {f".{c}" for c in stable_classes(el)}
        return out | {
            f"[{a}={css_string(v)}]"
            for a, v in el.attrib.items()
            if (a in MARKING_ATTRS or a.startswith("data-")) and v and len(v) <= 40
        }

    shared: set[str] | None = None
    strays: list[set[str]] = []
    for s in ctx.usable:
        page, want = ctx.pages[s], set(ctx.wanted[s])
        for node in _valued_nodes(rule, page):
            parent = node.getparent()
            if parent is None:
                return None
            if rule.cut(node, page.texts) in want:
                shared = marks(parent) if shared is None else shared & marks(parent)
            else:
                strays.append(marks(parent))
    if not shared:
        return None
    # With no other item on the samples, a machine-read mark only (the unseen pages' items
    # decide between the paths: one that reads other wrappers' items there ranks lower).
    told = sorted(m for m in shared if not any(m in st for st in strays) and (strays or m[0] == "["))
    if not told:
        return None
    return replace(rule, css=" > ".join([*steps[:-2], steps[-2] + told[0], steps[-1]]))


def _stray_texts(ctx: _Context, rule: FieldRule) -> list[str]:
    """The texts of the items a list rule's ``:not()`` marks leave out on the samples ("追蹤作者"):
    healing leaves out the items with these texts from a relocated run too."""
    base = re.sub(r"(?::not\([^()]*\))+$", "", rule.css)
    if not rule.many or base == rule.css:
        return []
    bare = replace(rule, css=base)
    return sorted(
        {v for s in ctx.usable for v in bare.extract(ctx.pages[s].root, ctx.pages[s].texts) or []}
        - {v for s in ctx.usable for v in ctx.wanted[s]}
    )


def _role_cut(ctx: _Context, rule: FieldRule) -> FieldRule:
    """The list rule cut where another role's items join its run (see the three rules below),
    or the rule as it was."""
    ended = _ended_run(ctx, rule)
    if ended.until:
        return ended
    out = _qualified_out(ctx, rule)
    return out if out.unqualified else _role_kept(ctx, rule)


def _role_kept(ctx: _Context, rule: FieldRule) -> FieldRule:
    """Keep the items the samples' role word follows ("<a>A</a>（著）／<a>I</a>（イラスト）"), when
    every sample item is followed by it and, on the unseen pages, items with other words come
    now and then, always after the page's items with the samples' word: another role's list
    appended to the field's. Where the roles interleave ("A 著，B 译，C 著") every contributor is
    the field's, and the rule stays as it was."""
    if not rule.many or rule.split or rule.until or rule.unqualified or not ctx.unseen:
        return rule
    common: set[str] | None = None
    for s in ctx.usable:
        page, want = ctx.pages[s], set(ctx.wanted[s])
        nodes = _valued_nodes(rule, page)
        units = item_units(nodes)
        mine = [set(qualifier(units, i)) for i, n in enumerate(nodes) if rule.cut(n, page.texts) in want]
        for words in mine:
            common = words if common is None else common & words
    if not common:
        return rule
    for word in sorted(common):
        others = 0
        for page in ctx.unseen:
            nodes = _valued_nodes(rule, page)
            units = item_units(nodes)
            has = [word in qualifier(units, i) for i in range(len(nodes))]
            if nodes and not has[0]:
                break  # a page whose first item has another role: not an appended list
            if any(b and not a for a, b in pairwise(has)):
                break  # interleaved roles: every contributor is the field's
            others += has.count(False)
        else:
            if not others:
                continue
            kept = _exact_role_rule(ctx, rule, role=word)
            if kept is not None:
                return kept
    return rule


def _qualified_out(ctx: _Context, rule: FieldRule) -> FieldRule:
    """Leave out items followed by words ("<a>B</a> <span>(Translator)</span>") when no item of
    the samples is, and the unseen pages show such items now and then (a third of them at most,
    never every item of a page): a qualifier marks another role's item, not one of the field's."""
    if not rule.many or rule.split or rule.until or rule.unqualified or not ctx.unseen:
        return rule
    for s in ctx.usable:
        page, want = ctx.pages[s], set(ctx.wanted[s])
        nodes = _valued_nodes(rule, page)
        units = item_units(nodes)
        if any(rule.cut(n, page.texts) in want and qualified(units, i) for i, n in enumerate(nodes)):
            return rule  # the samples' own items carry words after them: no qualifier
    items = dropped = 0
    for page in ctx.unseen:
        nodes = _valued_nodes(rule, page)
        units = item_units(nodes)
        marked = sum(qualified(units, i) for i in range(len(nodes)))
        if nodes and marked == len(nodes):
            return rule
        items, dropped = items + len(nodes), dropped + marked
    if not dropped or dropped * 3 > items:
        return rule
    return _exact_role_rule(ctx, rule, unqualified=True) or rule


def _ended_run(ctx: _Context, rule: FieldRule) -> FieldRule:
    """A list whose run another role's items continue ("<a>A</a>, <a>B</a> 저/<a>T</a> 역") stops
    at the word that follows its last item on every sample, when on the unseen pages that word
    stands between two items once at most, and only punctuation parts the others: it closes the
    run. Where it follows every item ("A (Author), B (Author)") or other words part the items too
    ("A 著，B 译，C 著"), it is each item's role and ends nothing."""
    if not rule.many or rule.split or rule.until or not ctx.unseen:
        return rule
    closing: set[str] | None = None
    for s in ctx.usable:
        page, want = ctx.pages[s], ctx.wanted[s]
        nodes = _valued_nodes(rule, page)
        if not want or len(nodes) < len(want):
            return rule
        last = nodes[len(want) - 1]
        after = text_between(last, nodes[len(want)]) if len(nodes) > len(want) else text_after(last, None)
        words = set(text_words(after or ""))
        closing = words if closing is None else closing & words
    pages = []  # per unseen page, the words between each two neighbouring items ("and" aside)
    for page in ctx.unseen:
        nodes = _valued_nodes(rule, page)
        pages.append([
            [w for w in text_words(t) if w not in CONJUNCTIONS]
            for a, b in pairwise(nodes) if (t := text_between(a, b)) is not None
        ])
    betweens = [b for p in pages for b in p]
    if closing == set():
        # Every sample's list ends its block ("by A and B"): the words every worded gap of the
        # unseen pages shares ("; illustrated by", "; read by": "by") may end the run there.
        worded = [set(b) for b in betweens if b]
        closing = set.intersection(*worded) if worded else set()
    if not closing:
        return rule
    for word in sorted(closing):
        ends = sum(word in b for b in betweens)
        # It ends one run per page, and the items of a run are parted by punctuation alone: where
        # other words part them too ("A 著，B 译，C 著": each item's role), it is a role, not an end.
        if not ends or ends == len(betweens) or any(sum(word in b for b in p) > 1 for p in pages):
            continue
        # Within the run (up to the gap the word stands in), punctuation alone parts the items;
        # past it, other roles' gaps may have words of their own ("A (지은이), B (엮은이) | Tor").
        if any(b for p in pages for b in p[: next((i for i, g in enumerate(p) if word in g), len(p))]):
            continue
        ended = _exact_role_rule(ctx, rule, until=word)
        if ended is not None:
            return ended
    return rule


def _exact_role_rule(ctx: _Context, rule: FieldRule, **role: Any) -> FieldRule | None:
    """The list rule with one of the keys keeping it to one role's items (``until``,
    ``unqualified``, ``role``), when it stays exact on every sample."""
    cut = FieldRule(rule.label, rule.part, rule.css, True, rule.regex, rule.fingerprint,
                    list(rule.alternates), rule.column, **role)
    return cut if all(_check(cut, ctx.pages[s], ctx.wanted[s]) == 1.0 for s in ctx.usable) else None


def _valued_nodes(rule: FieldRule, page: Page) -> list[etree._Element]:
    return [n for n in rule.nodes(rule.css, page.root, page.texts) if rule.cut(n, page.texts) is not None]


def _widest_list(ctx: _Context, rule: FieldRule, alternates: Sequence[FieldRule]) -> FieldRule:
    """A single rule yields to an equally good candidate that reads the same field as a list.

    Both samples with one author: "Title by Ann Lee (Paperback)" cut at " by " and the
    "Author" row reproduce them alike, but on unseen pages the title names only the first
    author where the row holds "Ann Lee, Bo Chen". When an alternate, read as a list, finds
    several values on some unseen pages and holds the single rule's value on (nearly) every page
    where that one finds it, the single rule was cutting one item out of the list. The list must
    be as good on the unseen pages (found as often, items of the kind).
    """
    if rule.many or not ctx.unseen:
        return rule
    quality = check_on_cluster(rule, ctx.unseen, ctx.kind).quality()
    for alt in alternates[:MAX_CHECKED]:
        listed = _maybe_list(ctx, alt)
        if not listed.many:
            continue
        if check_on_cluster(listed, ctx.unseen, ctx.kind).quality() < quality - QUALITY_SLACK:
            continue
        multi = agree = found = 0
        for page in ctx.unseen:
            one, items = rule.extract(page.root, page.texts), listed.extract(page.root, page.texts) or []
            multi += len(items) > 1
            if isinstance(one, str):
                found += 1
                # One of the items, or one with words around it (a sentence's regex reading
                # "Olga Doe Ilustraciones" where the list has "Olga Doe").
                agree += one in items or any(it in one for it in items if len(it) >= 4)
        if multi and found and agree >= 0.9 * found:
            return listed
    return rule


# Separators of a list written in one text; a comma or semicolon must be among them ("War and
# Peace" is one title, "Doe, Roe and Wei" three names), or the pieces must be values elsewhere.
# "and" in the languages whose dates validate.py reads: French, German, Spanish, Italian and
# Portuguese, Dutch.
_CONJUNCTIONS = CONJUNCTIONS
_LIST_SEPARATORS = (", ", "; ", " & ", *(f" {c} " for c in _CONJUNCTIONS))


def _split_lines(ctx: _Context, rule: FieldRule) -> FieldRule | None:
    """The rule as a list of its node's lines, when unseen pages hold several lines of the kind.

    ``<td>Ann Lee<br>Bo Chen</td>``: no separator is written, the line breaks are the list. On
    every sample the node must be one line, the value.
    """
    if rule.part != "text" or rule.regex:
        return None
    many = FieldRule(rule.label, rule.part, rule.css, True, split=LINE_BREAK, column=rule.column)
    if not all(
        (many.extract(ctx.pages[s].root, ctx.pages[s].texts) or []) == ctx.wanted[s] for s in ctx.usable
    ):
        return None
    check = check_on_cluster(many, ctx.unseen, ctx.kind)
    if check.multi < 0.1 * check.pages or check.kind_rate < 0.9:
        return None
    return many


def _one_node(ctx: _Context, rule: FieldRule) -> bool:
    """Whether the rule's path gives a value from one node on (nearly) every unseen page.

    A list written in one node's text is split there; a path finding several nodes would read
    every node's text as items (``tr > td > a``: the publisher's link and the series' link),
    and whether those nodes are a list was :func:`_maybe_list`'s question.
    """
    several = 0
    for p in ctx.unseen:
        nodes = rule.nodes(rule.css, p.root, p.texts)
        several += sum(1 for el in nodes if rule.cut(el, p.texts) is not None) > 1
    return several < 0.1 * max(len(ctx.unseen), 1)


def _split_list(ctx: _Context, rule: FieldRule) -> FieldRule | None:
    """The rule as a list split at separators the unseen values hold and the sample values do not."""
    if not _one_node(ctx, rule):
        return None
    lines = _split_lines(ctx, rule)
    if lines is not None:
        return lines
    relaxed = _to_line_end(ctx, rule)
    if relaxed is not None:  # the value's right context cut the unseen lists short ("Peter R.")
        found = _split_at_separators(ctx, relaxed)
        if found is not None:
            return found
    return _split_at_separators(ctx, rule)


def _to_line_end(ctx: _Context, rule: FieldRule) -> FieldRule | None:
    """The rule's regex learned again with list items as the plausible values.

    Learned for one value, the regex may end at the first mark a longer list holds ("Written by
    Tom L." from "Written by Tom L. Berg."); judged by whether every item of the cut text, split
    at the list separators, is of the samples' kind, the context that ends the whole list wins.
    """
    if not rule.regex:
        return None
    pairs = _texts_holding_value(ctx, rule)
    if pairs is None:
        return None
    split = "|".join(re.escape(sep) for sep in _LIST_SEPARATORS)
    kind = ctx.kind

    def items_ok(v: str) -> bool:
        return all(has_kind(norm(x), kind) for x in re.split(split, v) if norm(x))

    refs = [" \n ".join(_raw_texts(rule, p)) for p in ctx.unseen]
    regex = context_regex(pairs, refs, items_ok)
    if regex is None or regex == rule.regex:
        return None
    return FieldRule(rule.label, rule.part, rule.css, rule.many, regex, column=rule.column)


def _split_at_separators(ctx: _Context, rule: FieldRule) -> FieldRule | None:
    values = [v for p in ctx.unseen if isinstance(v := rule.extract(p.root, p.texts), str)]
    given = [v for s in ctx.usable for v in ctx.wanted[s]]
    seps = [
        sep for sep in _LIST_SEPARATORS if any(sep in v for v in values) and not any(sep in g for g in given)
    ]
    if not any(sep.strip() in ",;" for sep in seps):
        # Only "A & B" / "A and B" on the site: a list only if the pieces are values elsewhere.
        seps = [sep for sep in seps if _pieces_recur(values, given, sep, ctx.kind)]
        if not seps:
            return None
    split = "|".join(re.escape(sep) for sep in seps)
    if _qualified(values, given, split):
        return _cut_before(ctx, rule, split)
    many = FieldRule(rule.label, rule.part, rule.css, True, rule.regex, split=split, column=rule.column)
    if not all(
        (many.extract(ctx.pages[s].root, ctx.pages[s].texts) or []) == ctx.wanted[s] for s in ctx.usable
    ):
        return None
    check = check_on_cluster(many, ctx.unseen, ctx.kind)
    if check.multi < 0.1 * check.pages or check.kind_rate < 0.9:
        return None
    return many


_WORD = re.compile(r"[^\W\d_]{3,}")


def _qualified(values: Sequence[str], given: Sequence[str], split: str) -> bool:
    """Whether what follows the separator qualifies the value rather than listing more values.

    "Tor; 2nd edition", "Vintage; Revised edition": the later pieces share a word ("edition")
    that no first piece and no sample value holds. Items of a list are alike at every place
    ("Ann Lee; Bo Chen", "Bo Chen"): no word belongs to the later places only.
    """
    later: list[set[str]] = []
    first: set[str] = {w for g in given for w in _WORD.findall(g.lower())}
    for v in values:
        pieces = [norm(x) for x in re.split(split, v) if norm(x)]
        if not pieces:
            continue
        first |= set(_WORD.findall(pieces[0].lower()))
        later += [set(_WORD.findall(p.lower())) for p in pieces[1:]]
    if len(later) < 2:
        return False
    counts: dict[str, int] = {}
    for words in later:
        for w in words - first:
            counts[w] = counts.get(w, 0) + 1
    return any(n >= max(2, 0.5 * len(later)) for n in counts.values())


def _texts_holding_value(ctx: _Context, rule: FieldRule) -> list[tuple[str, str]] | None:
    """Per sample, (the rule's text holding the sample's first value, that value); None when a
    sample's text does not hold it."""
    pairs = []
    for s in ctx.usable:
        want = ctx.wanted[s][0]
        full = next((t for t in _raw_texts(rule, ctx.pages[s]) if want in t), None)
        if full is None:
            return None
        pairs.append((full, want))
    return pairs


def _cut_before(ctx: _Context, rule: FieldRule, split: str) -> FieldRule | None:
    """The single rule's regex learned again so that the value ends before the separator."""
    pairs = _texts_holding_value(ctx, rule)
    if pairs is None:
        return None
    refs = [" \n ".join(_raw_texts(rule, p)) for p in ctx.unseen]
    regex = context_regex(pairs, refs, lambda v: re.search(split, v) is None)
    if regex is None or regex == rule.regex:
        return None
    cut = FieldRule(rule.label, rule.part, rule.css, False, regex, column=rule.column)
    return cut if ctx.exact(cut) else None


def _pieces_recur(values: Sequence[str], given: Sequence[str], sep: str, kind: str | None) -> bool:
    """Whether "A & B" texts on the unseen pages are lists of the field's values, not one value.

    Without a comma anywhere, " & " is ambiguous ("Simon & Schuster", "Pride & Prejudice"). The
    other pages settle it: a piece that is a whole value elsewhere (a sample's, or an unseen
    page's), or that sits at different places in two texts ("A & B", "C & A"), is a value of its
    own. A name written with " & " repeats whole and its pieces never stand alone; titles of a
    series share their first piece at the same place ("Tom & Ann", "Tom & Bo") and stay whole.
    Every piece must be of the samples' kind.
    """
    joined = sorted({v for v in values if sep in v})
    if len(joined) < 2:
        return False
    pieces = [[p.strip() for p in v.split(sep)] for v in joined]
    if any(not p or not has_kind(p, kind) for ps in pieces for p in ps):
        return False
    whole = set(given) | {v for v in values if sep not in v}
    places: dict[str, set[int]] = {}
    for ps in pieces:
        for i, p in enumerate(ps):
            places.setdefault(p, set()).add(i)
    return any(p in whole or len(places[p]) > 1 for ps in pieces for p in ps)


def _unit_marks(unit: etree._Element) -> tuple[tuple[str, str], ...]:
    """An item's unit by its machine-read marks (``itemprop="author"``)."""
    return tuple(sorted((a, v) for a, v in unit.attrib.items() if a in MARKING_ATTRS))


def _block_of(unit: etree._Element) -> tuple[str, str]:
    """The block an item's unit stands in, by tag and exact class attribute."""
    parent = unit.getparent()
    return ("", "") if parent is None else (parent.tag, parent.get("class") or "")


def _sample_blocks(ctx: _Context, rule: FieldRule) -> set[tuple[str, str]]:
    """The blocks the samples' items stand in (read by ``rule``, which is exact on them)."""
    return {_block_of(u) for s in ctx.usable for u in item_units(_valued_nodes(rule, ctx.pages[s]))}


def _in_samples_block(ctx: _Context, rule: FieldRule) -> FieldRule | None:
    """The list path with its block's step matching the block's exact class attribute
    (``div[class="authors"] > a``): a modifier class (``authors--translators``) marks another
    role's block of the same shape. None when the samples' items do not share one classed block
    reached by child steps."""
    steps = rule.css.split(" > ")
    blocks, depths = set(), set()
    for s in ctx.usable:
        nodes = _valued_nodes(rule, ctx.pages[s])
        for node, unit in zip(nodes, item_units(nodes), strict=True):
            depth = 0
            while node is not unit:
                node, depth = node.getparent(), depth + 1
            blocks.add(_block_of(unit))
            depths.add(depth)
    if len(blocks) != 1 or len(depths) != 1:
        return None
    (tag, cls), depth = blocks.pop(), depths.pop()
    at = len(steps) - 2 - depth  # the step of the block: the unit's step is ``depth`` above the item's
    if not cls or at < 0 or " " in steps[at] or not steps[at].startswith(tag):
        return None
    steps[at] = f"{tag}[class={css_string(cls)}]"
    return FieldRule(rule.label, rule.part, " > ".join(steps), True, rule.regex)


def _samples_lead(ctx: _Context, rule: FieldRule) -> tuple[int, str] | None:
    """The words every sample's items stand under (``leads.py``), and how many levels above an
    item their block is; None when the samples have no lead, or not one and the same."""
    found = set()
    for s in ctx.usable:
        page, want = ctx.pages[s], set(ctx.wanted[s])
        nodes = [n for n in _valued_nodes(rule, page) if rule.cut(n, page.texts) in want]
        if not nodes:
            return None
        held = lead_holder(nodes[0], item_units(nodes)[0])
        if held is None or any(not inside(n, held[0]) for n in nodes):
            return None
        found.add(held[1:])
    return found.pop() if len(found) == 1 else None


def _other_leads(ctx: _Context, rule: FieldRule, lead: tuple[int, str]) -> int:
    """How many items the rule reads on the unseen pages from blocks of the samples' depth that
    start with other words than the samples' lead: another role's people."""
    up, words = lead
    count = 0
    for page in ctx.unseen:
        blocks: dict[int, tuple[etree._Element, etree._Element, int]] = {}
        for node in _valued_nodes(rule, page):
            holder = ancestor(node, up)
            if holder is not None:
                _, first, n = blocks.get(id(holder), (holder, node, 0))
                blocks[id(holder)] = (holder, first, n + 1)
        count += sum(n for holder, first, n in blocks.values() if lead_text(holder, first) != words)
    return count


def _led(ctx: _Context, rule: FieldRule) -> FieldRule | None:
    """The rule with its block's step kept to the samples' lead (``h2:lead("By") > span > a``),
    when the unseen pages show blocks of that step starting with other words ("Narrated by"):
    authors and narrators written alike. None when there is nothing to tell apart."""
    if not ctx.unseen:
        return None
    lead = _samples_lead(ctx, rule)
    if lead is None or not _other_leads(ctx, rule, lead):
        return None
    up, words = lead
    steps = rule.css.split(" > ")
    at = len(steps) - 1 - up
    # Child steps only from the block down: a descendant step would miscount the levels.
    if at < 0 or any(" " in re.sub(r'"[^"]*"', "", step) for step in steps[at:]):
        return None
    steps[at] += f":lead({css_string(words)})"
    led = FieldRule(rule.label, rule.part, " > ".join(steps), rule.many, rule.regex, split=rule.split,
                    until=rule.until, unqualified=rule.unqualified, role=rule.role)
    pages, wanted = ctx.pages, ctx.wanted
    exact = all(_check(led, pages[s], wanted[s]) >= _check(rule, pages[s], wanted[s]) for s in ctx.usable)
    return led if exact else None


def _rules_for(
    label: str, part: str, steps_list: Iterable[list[str] | None], many: bool, regex: str | None
) -> Iterable[FieldRule]:
    seen = set()
    for steps in steps_list:
        if steps and join(steps) not in seen:
            seen.add(join(steps))
            yield FieldRule(label, part, join(steps), many, regex)


def _learn_many(ctx: _Context) -> FieldRule | None:
    """A repeated field: generalise the paths of two instances, keep what finds most values."""
    pages, wanted = ctx.pages, ctx.wanted
    instances: list[tuple[int, str, Hit]] = []
    for s in ctx.usable:
        for value, found in zip(wanted[s], ctx.hits[s], strict=True):
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
    classed = [class_steps(h.el, pages[s]) for s, _, h in instances]
    variants.extend(classed)
    # The same with every node's classes: the items' own class (``span.name``) stays on the
    # generalised path where the bare one would also meet a role span beside some names.
    for i in range(len(classed)):
        for j in range(i + 1, min(len(classed), i + 9)):
            variants.append(generalise_pair(classed[i], classed[j]))
    variants.extend(run_of(label_steps(h.el, pages[s], None)) for s, _, h in instances[:2])
    # Items wrapped only when there are several: the classed item anywhere under the step above
    # the wrapper (``div.field--author div.field__item``).
    for s, _, h in instances[:2]:
        steps = class_steps(h.el, pages[s])
        if len(steps) >= 4 and "." in steps[-1]:
            variants.append([*steps[:-3], f"{steps[-3]} {without_positions(steps[-1:])[0]}"])
    contains = [(h.full, v) for _, v, h in instances if h.contains][:4]
    regex = context_regex(contains) if contains else None
    rules = list(_rules_for(ctx.label, part, variants, True, regex))
    rules += [r for r in (_in_samples_block(ctx, r) for r in list(rules)) if r is not None]
    rules += [r for r in (_led(ctx, r) for r in list(rules)) if r is not None]
    split, written = _written_lists(ctx)
    # The nodes the lists are written in, when the values' first nodes are elsewhere (a heading
    # that parts them otherwise: "Libro T - A - B - Tor"): their paths too.
    variants.extend(
        v
        for s, el in written
        if not any(si == s and inside(h.el, el) for si, _, h in instances)
        for v in (precise_steps(el, pages[s]), class_steps(el, pages[s]), label_steps(el, pages[s], None))
    )
    if split is not None and split != LINE_BREAK:
        # "by Jane Doe, John Roe": the list is cut out of the node's text first, then split.
        rules += [
            FieldRule(r.label, r.part, r.css, True, rx, split=_more_separators(ctx, r, split))
            for r in _rules_for(ctx.label, part, variants, True, None)
            if (rx := _written_list_regex(ctx, r)) is not None
        ]
    if split is not None:  # a written list in a column of cells: read by its column label
        for _, _, h in instances[:2]:
            col = column_of(h.el, pages[instances[0][0]]) if h.part == "text" else None
            if col is not None and not any(not ctx.is_label(t) for t in col[3]):
                column = {"labels": col[1], "label": col[2], "with": col[3]}
                sep = (
                    split
                    if split == LINE_BREAK
                    else _more_separators(ctx, FieldRule(ctx.label, part, col[0]), split)
                )
                rules.append(FieldRule(ctx.label, part, col[0], True, column=column, split=sep))
    if split is not None:  # "Jane Doe, John Roe" in one node: the same paths, split
        rules += [
            FieldRule(
                r.label,
                r.part,
                r.css,
                True,
                split=split if split == LINE_BREAK else _more_separators(ctx, r, split),
            )
            for r in _rules_for(ctx.label, part, variants, True, None)
        ]
    # Buttons in the run ("Follow author" after the author links): the same path without them;
    # another role's items told by their wrapper (``span[itemprop="contributor"] > a``): the
    # same path through the authors' wrappers only.
    rules += [r for r in (_strays_out(ctx, r) for r in list(rules)) if r is not None]
    rules += [r for r in (_parent_marked(ctx, r) for r in list(rules)) if r is not None]
    # A run that goes on with another role's items on a sample (a translator's link after the
    # authors'): the same path ended by the word between them.
    rules += [
        ended for r in rules
        if not r.split and sum(_extras(r, pages[s], wanted[s]) for s in ctx.usable)
        and ((ended := _role_cut(ctx, r)).until or ended.unqualified or ended.role)
    ]
    scored: list[tuple[tuple[float, int], FieldRule]] = []
    for rule in rules:
        score = sum(_check(rule, pages[s], wanted[s]) for s in ctx.usable)
        if score == 0:
            continue
        extras = sum(_extras(rule, pages[s], wanted[s]) for s in ctx.usable)
        scored.append(((score, -extras), rule))
    if not scored:
        return None
    top = max(k for k, _ in scored)
    tied = [r for k, r in scored if k == top]

    def on_unseen(rule: FieldRule) -> tuple[float, float]:
        # Rules the samples cannot tell apart (both show the wrapper of several items): the one
        # finding values on most unseen pages (the single-item pages lack the wrapper), then the
        # one whose items are all of the samples' kind (``a > span`` also meets a role span,
        # "(Translator)", on pages with a translator; ``a > span.name`` does not).
        if not ctx.unseen or len(tied) < 2:
            return 1.0, 1.0
        check = check_on_cluster(rule, ctx.unseen, ctx.kind)
        return check.found_rate, check.kind_rate

    def foreign(rule: FieldRule) -> int:
        # Items read from a block none of the samples' items (read by the same rule) stand in:
        # the translators' own line (``div.authors.authors--translators`` beside ``div.authors``).
        if not ctx.unseen or len(tied) < 2:
            return 0
        # Or from a block of the same shape that starts with other words ("Narrated by"), or in
        # a wrapper another machine-read mark names (``span[itemprop="contributor"]``).
        blocks = _sample_blocks(ctx, rule)
        marked = {
            _unit_marks(u) for s in ctx.usable for u in item_units(_valued_nodes(rule, ctx.pages[s]))
        }
        lead = _samples_lead(ctx, rule)
        return sum(
            (_block_of(u) not in blocks) + (_unit_marks(u) not in marked)
            for p in ctx.unseen
            for u in item_units(_valued_nodes(rule, p))
        ) + (_other_leads(ctx, rule, lead) if lead else 0)

    def rank(rule: FieldRule) -> tuple[float, ...]:
        return (*on_unseen(rule), -foreign(rule), -positions(rule.css), -len(rule.css))

    return max(tied, key=rank)


def _written_list_regex(ctx: _Context, rule: FieldRule) -> str | None:
    """A regex cutting a written list out of the node's text ("de A, B et C" -> "A, B et C").

    Learned like a single value's context: the text from the first listed value to the last is
    the value on each sample.
    """
    pairs = []
    for s in ctx.usable:
        values = ctx.wanted[s]
        texts = _raw_texts(rule, ctx.pages[s])
        full = next((t for t in texts if all(v in t for v in values)), None)
        if full is None:
            return None
        start, end = full.find(values[0]), full.rfind(values[-1]) + len(values[-1])
        if end <= start:
            return None
        pairs.append((full, full[start:end]))
    if all(full == joined for full, joined in pairs):
        return None  # nothing around the list to cut away
    refs = [" \n ".join(_raw_texts(rule, p)) for p in ctx.unseen]
    return context_regex(pairs, refs)


def _more_separators(ctx: _Context, rule: FieldRule, split: str) -> str:
    """``split`` plus the list separators the node's text shows on unseen pages ("A, B & C")."""
    given = [v for s in ctx.usable for v in ctx.wanted[s]]
    texts = [t for p in ctx.unseen for t in (rule.extract(p.root, p.texts) or [])[:1]]
    extra = [
        re.escape(sep)
        for sep in _LIST_SEPARATORS
        if re.escape(sep) not in split.split("|")
        and any(sep in t for t in texts)
        and not any(sep in g for g in given)
    ]
    return "|".join([*split.split("|"), *extra])


def _written_list(ctx: _Context) -> str | None:
    """The separators when a sample's listed values are written in one text ("A, B and C")."""
    return _written_lists(ctx)[0]


def _written_lists(ctx: _Context) -> tuple[str | None, list[tuple[int, etree._Element]]]:
    """The separators of the samples' lists written in one text, and per sample the node
    holding it (where a heading parts the same names otherwise: "Libro T - A - B - Tor")."""
    seps: set[str] = set()
    nodes: list[tuple[int, etree._Element]] = []
    for s in ctx.usable:
        values = ctx.wanted[s]
        if len(values) < 2:
            continue
        for el in ctx.pages[s].elements:
            text = ctx.pages[s].texts.text(el)
            if not all(v in text for v in values) or any(
                all(v in ctx.pages[s].texts.text(c) for v in values) for c in el if isinstance(c.tag, str)
            ):
                continue  # not the deepest node holding them all
            if ctx.pages[s].texts.lines(el) == values:  # one item a line: "Ann Lee<br>Bo Chen"
                return LINE_BREAK, [(s, el)]
            rest = text[text.find(values[0]) :]
            found: set[str] = set()
            for a, b in pairwise(values):
                i, j = rest.find(a), rest.find(b)
                if i < 0 or j < i + len(a):
                    break
                sep = rest[i + len(a) : j]
                if sep.strip(" ") in (",", ";", "&", "/", *_CONJUNCTIONS):
                    found.add(sep)
                rest = rest[j:]
            if found:
                seps |= found
                nodes.append((s, el))
                break
            # Parted by something else ("Libro T - A - B - Vintage" in a heading): the list may be
            # written again further down ("Autor: A, B").
    return ("|".join(re.escape(x) for x in sorted(seps, key=len, reverse=True)) if seps else None), nodes
