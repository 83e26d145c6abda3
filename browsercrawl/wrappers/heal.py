"""Self-healing: find a field again when the site's markup changed under its path.

A field is *broken* on a page when its path finds nothing, finds a value of the wrong kind
(the fingerprint says the samples held dates, ISBNs, prices...), or finds a node whose label is
not the learned one (a positional path after the rows were reordered). Then every visible node of
the page is scored against the field's fingerprint (``fingerprint.similarity``); the best one at
or above ``MIN_SIMILARITY`` that no working field already uses becomes the new path (by its label
when it has one, ``dt:contains("ISBN") + dd``, else the path with fewest positions that still
gives the node's value; a repeated field is generalised over the run of same-shaped siblings, so
all authors move, not one). The old path is kept as an
alternate, the repair is logged and reported, and the wrapper changes in place.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

from browsercrawl.wrappers.dom import (
    Page,
    ancestors_or_self,
    common_depth,
    page_from_root,
    units_form_a_run,
)
from browsercrawl.wrappers.fingerprint import _tag, glued, label_fits, path_likeness, similarity
from browsercrawl.wrappers.leads import ancestor, lead_text
from browsercrawl.wrappers.model import (
    _CLASS_TOKEN,
    _GENERATED,
    LINE_BREAK,
    FieldRule,
    TextIndex,
    Value,
    Wrapper,
    compile_css,
    norm,
    parse_html,
)
from browsercrawl.wrappers.paths import (
    MARKING_ATTRS,
    STATE_ATTRS,
    class_steps,
    column_of,
    css_string,
    generalise_pair,
    join,
    label_steps,
    last_of_type_steps,
    lead_steps,
    precise_steps,
    run_of,
    stable_classes,
    stray_marks,
    without_positions,
)
from browsercrawl.wrappers.validate import has_kind

log = logging.getLogger(__name__)

MIN_SIMILARITY = 0.6
NEAR_TIE = 0.05  # candidates this close to the best are told apart by nearness to the record
_MAX_TEXT = 300


@dataclass
class Repair:
    """One field found again: its old and new path, the similarity and the value it now gives."""

    label: str
    old_css: str
    new_css: str
    similarity: float
    value: Value

    def line(self) -> str:
        return (
            f"healed {self.label!r}: {self.old_css!r} -> {self.new_css!r} (similarity {self.similarity:.2f})"
        )


def _raw(rule: FieldRule, el: etree._Element, page: Page) -> str | None:
    raw = rule.cut(el, page.texts)
    return raw if raw is not None and len(raw) <= _MAX_TEXT else None


def _items(rule: FieldRule, el: etree._Element, page: Page) -> list[str]:
    """The values one node gives: one, or the items of a list written in it (``split``)."""
    raw = _raw(rule, el, page)
    if raw is None:
        return []
    if not rule.split:
        return [raw]
    if rule.split == LINE_BREAK and rule.part == "text" and not rule.regex:
        return page.texts.lines(el)
    return [v for v in (norm(x) for x in re.split(rule.split, raw)) if v]


def broken(rule: FieldRule, page: Page) -> bool:
    """The rule's paths find nothing, or the first that finds a value finds one of the wrong kind
    or of the page's boilerplate, or a node with another label or id.

    The alternates count as the rule's own paths, as in extraction: a field healed on a page of
    one shape (one author, no wrapper around the items) keeps the path of the other shape, and
    a page of that shape is not a reason to heal again.
    """
    fp = rule.fingerprint or {}
    for css in (rule.css, *rule.alternates):
        for el in rule.nodes(css, page.root, page.texts):
            items = _items(rule, el, page)
            if not items:
                continue
            if fp.get("kind") and not all(has_kind(v, fp["kind"]) for v in items):
                return True
            if items[0] in fp.get("avoid", ()):
                return True  # a heading or label now where the varying field was
            if _other_id(fp, el):
                return True  # another element by name: a redesign renames tags, not ids
            if _moved_away(fp, el):
                return True
            if " " not in css and _not_the_first(rule, css, el, page):
                return True
            # A label path checks its label itself; a positional one may now point at another row.
            return not rule.regex and ":contains(" not in css and not label_fits(fp, el, page)
    return True


def _other_id(fp: dict, el: etree._Element) -> bool:
    """Whether ``el`` has a stable id and the learned node had another one.

    ``h1#book-title`` and ``h2#book-author`` become ``h2``/``h3``: the authors' ``div > h2``
    now meets the title, which its id tells apart.
    """
    learned = _learned_id(fp)
    mine = el.get("id")
    return bool(learned and mine and not _GENERATED.search(mine) and mine != learned)


def _learned_id(fp: dict) -> str | None:
    """The id the learned node had (the last step of the fingerprint's path), if any."""
    path = fp.get("path") or []
    learned = re.match(r"[\w-]+#([^.]+)", path[-1]) if path else None
    return learned.group(1) if learned else None


def _learned_id_node(fp: dict, page: Page) -> etree._Element | None:
    """The page's element with the learned node's stable id, if any."""
    learned = _learned_id(fp)
    if learned is None or _GENERATED.search(learned) or page.ids.get(learned) != 1:
        return None
    return next((el for el in page.elements if el.get("id") == learned), None)


def _not_the_first(rule: FieldRule, css: str, el: etree._Element, page: Page) -> bool:
    """A one-step path by a machine-read mark (``[data-price-type="finalPrice"]``) reads the first
    node with the mark; after blocks are reordered, the related books' price boxes may come
    first. The path is broken when a later node with the mark stands where the learned one
    stood (its path from the root clearly more alike)."""
    fp = rule.fingerprint or {}
    if not fp.get("path"):
        return False
    others = [n for n in rule.nodes(css, page.root, page.texts) if n is not el and _items(rule, n, page)]
    if not others:
        return False
    return max(path_likeness(fp, n) for n in others) > path_likeness(fp, el) + PATH_MARGIN


def _moved_away(fp: dict, el: etree._Element) -> bool:
    """The path reads a node with none of the field's classes while a sibling of it (or a node
    under one) has all of them: the block was reordered and the path now points at a neighbour
    (a struck list price that came to stand before the price). Only so near: a class that goes
    with the value ("in-stock") is found on other records' nodes far away."""
    wanted = set(fp.get("classes") or [])
    parent = el.getparent()
    if not wanted or parent is None or wanted & set((el.get("class") or "").split()):
        return False
    return any(isinstance(o.tag, str) and wanted <= set((o.get("class") or "").split())
               for o in parent.iterdescendants())


def _nodes(rule: FieldRule, page: Page) -> list[etree._Element]:
    """The nodes the rule takes its value(s) from: the first only for a single field."""
    for css in (rule.css, *rule.alternates):
        # A list's run as the rule reads it: the publisher's link after the authors' "(지은이)"
        # is not taken from the publisher's field.
        if rule.many:
            used = [el for el, raw in rule.taken(css, page.root, page.texts) if len(raw) <= _MAX_TEXT]
        else:
            used = [el for el in rule.nodes(css, page.root, page.texts) if _raw(rule, el, page) is not None]
        if used:
            return used if rule.many else used[:1]
    return []


def _deepest(el: etree._Element, page: Page) -> bool:
    """No child carries the same text: the node itself, not a wrapper around it."""
    text = page.texts.text(el)
    return not any(isinstance(c.tag, str) and page.texts.text(c) == text for c in el)


def _by_own_class(el: etree._Element, page: Page) -> list[str]:
    """``html > body div.xf0f025 > span.x4828e1``: the node by its classes and its parents' (up
    to two), the fewest that no other element on the page matches; any class, generated-looking
    or not (the healed path serves the redesigned site whose classes these are). For where the
    positions on the path to it differ between pages: a struck price before it on sale pages
    only, a translator's line above it on some."""
    steps: list[str] = []
    node = el
    for _ in range(3):
        if node is None or not isinstance(node.tag, str) or node.tag in ("html", "body"):
            return []
        steps.insert(0, node.tag + "".join(f".{c}" for c in _classes(node)))
        css = "html > body " + " > ".join(steps)
        if "." in steps[-1] and compile_css(css)(page.root) == [el]:
            return [css]
        node = node.getparent()
    return []


_BLOCK_MARK = re.compile(
    r'\[class="(?:[^"\\]|\\.)*"\]|:lead\("(?:[^"\\]|\\.)*"\)'
    r'|\[(?:' + "|".join(MARKING_ATTRS) + r')="(?:[^"\\]|\\.)*"\]'
)


def _block_marks_kept(rule: FieldRule, css: str, el: etree._Element) -> str | None:
    """The healed list path with the learned block's marks carried over to the block now at the
    same depth above the item: its exact class attribute (``div[class="x02bd92"]``, beside the
    translators' ``div[class="x02bd92 x607f2f"]``) and the words it starts with (``:lead("By")``).
    None when the learned path had no such mark, or the block now starts with other words."""
    new = css.split(" > ")
    marks = _block_marks(rule)
    if not marks or not _fits_block_marks(marks, el):
        return None
    for depth, found in marks:
        block = ancestor(el, depth)
        at = len(new) - 1 - depth
        if block is None or at < 0 or not new[at].startswith(block.tag):
            return None
        step = new[at]
        for mark in found:
            if mark.startswith("[class="):
                exact = css_string(block.get("class") or "")
                step = re.sub(r"^([\w-]+)[^:\[]*", r"\1", step) + f"[class={exact}]"
            else:
                step += mark
        new[at] = step
    return " > ".join(new)


def _strays_left_out(rule: FieldRule, css: str, page: Page) -> str | None:
    """The healed list path leaving out the items whose texts the learned path left out (a
    "Follow author" button after the names: ``fingerprint["strays"]``), by a mark each of them
    has on this page and no other item has; None when there are none or no mark tells them."""
    texts = set((rule.fingerprint or {}).get("strays") or ())
    if not texts:
        return None
    nodes = rule.selector(css)(page.root)
    strays = [n for n in nodes if rule.cut(n, page.texts) in texts]
    marks = stray_marks([n for n in nodes if n not in strays], strays, _classes)
    return css + marks if marks else None


def _block_marks(rule: FieldRule) -> list[tuple[int, list[str]]]:
    """The learned path's block marks (``[class="..."]``, ``:lead("...")``), each with how many
    levels above the item its step stands."""
    steps = rule.css.split(" > ")
    return [(len(steps) - 1 - i, found) for i, st in enumerate(steps) if (found := _BLOCK_MARK.findall(st))]


def _fits_block_marks(marks: list[tuple[int, list[str]]], el: etree._Element) -> bool:
    """Whether the block above ``el`` could carry the learned marks: as many classes as the
    learned exact class attribute (``x2841b`` for ``author``, not ``x2841b x9931c`` for
    ``author translator``), and the learned first words."""
    for depth, found in marks:
        block = ancestor(el, depth)
        if block is None or not isinstance(block.tag, str):
            return False
        for mark in found:
            if mark.startswith("[class="):
                learned = mark[len('[class="') : -len('"]')].split()
                if len((block.get("class") or "").split()) != len(learned):
                    return False
            elif mark.startswith("["):  # a machine-read mark (itemprop="author"): kept by a redesign
                name, value = mark[1:-1].split("=", 1)
                if block.get(name) != value[1:-1].replace('\\"', '"'):
                    return False
            else:
                words = norm(mark[len(':lead("') : -len('")')].replace('\\"', '"'))
                if not lead_text(block, el).startswith(words):
                    return False
    return True


def _run_css(el: etree._Element, page: Page, classed: bool = False) -> str:
    """A path to ``el`` and its same-shaped siblings (for a repeated field).

    ``classed``: the learned item had classes; with no sibling item on this page, the path
    keeps ``el``'s own (``a > span.name``), so on pages with more items a role span beside a
    name (``a > span.role``) stays out.
    """
    mine = precise_steps(el, page)
    chain = list(ancestors_or_self(el))
    for unit in chain[:3]:
        parent = unit.getparent()
        if parent is None:
            break
        rel = [a.tag for a in reversed(chain[: chain.index(unit)])]
        for sib in parent:
            if sib is unit or sib.tag != unit.tag or sib.get("class") != unit.get("class"):
                continue
            node = sib
            for tag in rel:
                node = next((c for c in node if c.tag == tag), None)
                if node is None:
                    break
            if node is not None:
                theirs = precise_steps(node, page)
                merged = generalise_pair(mine, theirs)
                if merged:
                    merged = _keep_classes(merged, mine, theirs, unit)
                    # Any class the items share counts here, generated-looking or not: the
                    # healed path serves the redesigned site whose classes these are.
                    shared = [c for c in _classes(el) if c in _classes(node)]
                    if shared and unit is not el and re.fullmatch(r"[\w-]+", merged[-1]):
                        # The item alone in its link on some units and beside a role span on
                        # others (``a > span.name`` + ``span.role``): the items' own classes.
                        merged[-1] += "".join(f".{c}" for c in shared)
                    return join(merged)
    last = without_positions(mine[-1:])[0]
    if classed and re.fullmatch(r"[\w-]+", last):
        last += "".join(f".{c}" for c in _classes(el))
    return join([*mine[:-1], last])


def _classes(el: etree._Element) -> list[str]:
    return [t for t in (el.get("class") or "").split() if _CLASS_TOKEN.match(t)]


def _keep_classes(merged: list[str], mine: list[str], theirs: list[str], unit: etree._Element) -> list[str]:
    """The run's step keeps the classes its items share: ``dd.contrib``, not every ``dd``."""
    classes = stable_classes(unit)
    if not classes:
        return merged
    for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if a != b:
            merged[i] = merged[i] + "".join(f".{c}" for c in classes)
            break
    return merged


def _consecutive(nodes: list[etree._Element]) -> bool:
    """Siblings next to each other (line breaks between them aside): one run, not two fields."""
    if not nodes:
        return False
    parent = nodes[0].getparent()
    if any(n.getparent() is not parent for n in nodes):
        return False
    kids = [c for c in parent if isinstance(c.tag, str) and c.tag != "br"]
    at = sorted(kids.index(n) for n in nodes)
    return at == list(range(at[0], at[0] + len(at))) and units_form_a_run(nodes)


def _nearness(el: etree._Element, anchors: list[etree._Element]) -> float:
    """How deep ``el`` meets the record's other fields, as a share of its own depth."""
    if not anchors:
        return 0.0
    shared, depth = common_depth(el, anchors)
    return shared / max(depth, 1)


def relocate(
    rule: FieldRule,
    page: Page,
    taken: set[etree._Element],
    anchors: list[etree._Element] | None = None,
) -> tuple[FieldRule, float] | None:
    """The rule moved to the node most like its fingerprint, or None when none is alike enough.

    With ``anchors`` (nodes of the record's fields already found) a node nearer them ranks
    higher: the related-books box has authors too, but not beside this book's ISBN.
    """
    fp = rule.fingerprint
    if not fp:
        return None
    alike: list[tuple[float, etree._Element, str]] = []
    labelled = bool(rule.regex and re.search(r"[^\W\d_]{2}", rule.regex.split("(", 1)[0]))
    # Visible nodes first; a hidden one (a closed tab, a hidden copy) only when no visible node
    # is alike: the field was learned from a hidden node when nothing visible held it.
    visible = [el for el in page.elements if not page.is_hidden(el)]
    hidden = [el for el in page.elements if page.is_hidden(el)]
    # The learned node's stable id, still on the page: a redesign renames classes and tags, not
    # ids, so that node is the field's wherever it moved (when it still holds a value of its kind).
    same_id = _learned_id_node(fp, page)
    if same_id is not None and same_id not in taken:
        alike = _alike(rule, page, [same_id], taken, {**fp, "label": None}, labelled)
        if alike:
            return _relocated(rule, page, alike, anchors, fp)
    for group in (visible, hidden):
        alike = _alike(rule, page, group, taken, fp, labelled)
        if alike:
            break
    if (
        not alike
        and fp.get("label")
        and _label_on_page(fp["label"], page)
        and not _finds_its_kind(rule, page, fp)  # its path still finds one: keep that
    ):
        # The label is still on the page but no longer beside a value like the field's (a
        # wrapper div took the "label" away, or reordered items moved it) and the path finds
        # nothing, or a value of another kind: judged without the label, by a stricter measure.
        # An optional field whose label is gone from the page is still not relocated, nor one
        # whose path still finds a value of its kind (blocks only reordered).
        loose = {**fp, "label": None}
        alike = [a for a in _alike(rule, page, visible, taken, loose, labelled) if a[0] >= LOOSE_SIMILARITY]
        found = _relocated(rule, page, alike, anchors, loose) if alike else None
        if found is not None:  # the label no longer goes with the field: forget it
            found[0].fingerprint = loose
        return found
    if not alike:
        return None
    return _relocated(rule, page, alike, anchors, fp)


LOOSE_SIMILARITY = 0.8  # without the fingerprint's label, a node must be this alike


def _finds_its_kind(rule: FieldRule, page: Page, fp: dict) -> bool:
    """The rule's path still finds values, all of the fingerprint's kind."""
    got = rule.extract(page.root, page.texts)
    values = got if isinstance(got, list) else [got] if got else []
    return bool(values) and all(has_kind(v, fp.get("kind")) for v in values)


def _label_on_page(label: str, page: Page) -> bool:
    return any(page.texts.text(el) == label for el in page.elements)


def _alike(
    rule: FieldRule,
    page: Page,
    elements: list[etree._Element],
    taken: set[etree._Element],
    fp: dict,
    labelled: bool,
) -> list[tuple[float, etree._Element, str]]:
    """The nodes of ``elements`` alike enough to the fingerprint: (similarity, node, value)."""
    alike: list[tuple[float, etree._Element, str]] = []
    for el in elements:
        if el in taken or not _deepest(el, page):
            continue
        items = _items(rule, el, page)
        if not items:
            continue
        if not (rule.split or rule.regex) and glued(fp, el, page):
            continue
        value = items[0]  # a written list: its first item is what the fingerprint describes
        if value in fp.get("avoid", ()):
            continue  # the same text on every learned page, where the field's values differed
        if page.is_struck(el):
            continue  # shown crossed out (the regular price beside the special one): the learner
            # never keeps a path whose values the pages strike out, nor does healing
        if rule.column is not None:  # a column field is found again by its label only
            col = column_of(el, page)
            if col is None or col[2] != rule.column["label"]:
                continue
        score = similarity(fp, el, page, value, labelled)
        if score >= MIN_SIMILARITY:
            alike.append((score, el, value))
    return alike


_STATE_IN_PATH = re.compile(r"\[(" + "|".join(re.escape(a) for a in STATE_ATTRS) + r")[=\]]")


def _has_state_on(el: etree._Element, names: list[str]) -> bool:
    """Whether ``el`` or one of its ancestors has one of the state attributes ``names`` on."""
    node = el
    while node is not None:
        if any(node.get(n) not in (None, "false") for n in names):
            return True
        node = node.getparent()
    return False


def _state_holder(el: etree._Element) -> etree._Element | None:
    """``el`` or its nearest ancestor with a state attribute on (``aria-current="true"``...), or
    singled out among its same-tag siblings by a class of its own (:func:`_singled_out`)."""
    node: etree._Element | None = el
    while node is not None:
        if any(node.get(n) not in (None, "false") for n in STATE_ATTRS) or _singled_out(node):
            return node
        node = node.getparent()
    return None


def _by_singling_class(el: etree._Element, page: Page) -> str | None:
    """A path without positions to ``el`` through the ancestor a class of its own singles out
    among its siblings (:func:`_singled_out`), by that class, hashed or not; None if none does."""
    steps = without_positions(precise_steps(el, page))
    node, up = el, 0
    while node is not None and up < len(steps):
        parent = node.getparent()
        if parent is not None and _singled_out(node):
            others = next(_class_set(s) for s in parent if s.tag == node.tag and s is not node)
            extra = sorted(_class_set(node) - others)[0]
            at = len(steps) - 1 - up
            steps[at] = f"{steps[at]}[class~={css_string(extra)}]"
            return join(steps)
        node, up = parent, up + 1
    return None


def _singled_out(node: etree._Element) -> bool:
    """Whether ``node`` has every class its same-tag siblings share and one more, where the
    siblings all have the same classes: the current item marked by a class ("edition
    edition-current" among "edition"), which a redesign renames but keeps apart."""
    parent = node.getparent()
    if parent is None:
        return False
    others = {_class_set(s) for s in parent if s.tag == node.tag and s is not node}
    return len(others) == 1 and _class_set(node) > next(iter(others))


def _class_set(el: etree._Element) -> frozenset[str]:
    return frozenset((el.get("class") or "").split())


def _current_of_a_run(
    alike: list[tuple[float, etree._Element, str]],
) -> list[tuple[float, etree._Element, str]]:
    """The alike nodes inside the item a state marks, when the other alike nodes sit in that
    item's unmarked siblings (format tiles, tabs, options); [] when no such run is there."""
    out = []
    for a in alike:
        holder = _state_holder(a[1])
        if holder is None or holder.getparent() is None:
            continue
        # The run's item: the holder itself, or the ancestor of it that has same-tag siblings.
        item = holder
        while item.getparent() is not None and len([s for s in item.getparent() if s.tag == item.tag]) < 2:
            item = item.getparent()
        parent = item.getparent()
        if parent is None:
            continue
        siblings = [s for s in parent if s.tag == item.tag and s is not item]
        if any(b is not a and any(b[1] is d for sib in siblings for d in sib.iter()) for b in alike):
            out.append(a)
    return out


def _relocated(
    rule: FieldRule,
    page: Page,
    alike: list[tuple[float, etree._Element, str]],
    anchors: list[etree._Element] | None,
    fp: dict,
) -> tuple[FieldRule, float] | None:
    """The best of the alike nodes as a new rule for the field, or None if no path gives it."""
    # A list written in one node, not a run of siblings; but a run of nodes each split
    # ("<span>A</span><span>, B</span>": the learned node had a sibling of its tag) is a run.
    within = bool(rule.many and rule.split) and _tag(fp.get("next") or "") != fp.get("tag")
    # A path that chose its node by a state (the selected option, the pressed format button) keeps
    # choosing by it: a redesign renames classes, not which item is the current one.
    states = _STATE_IN_PATH.findall(" ".join((rule.css, *rule.alternates)))
    if states:
        marked = [a for a in alike if _has_state_on(a[1], states)]
        alike = marked or alike
    elif not rule.many:
        # The path chose the current item by a class ("li.aktiv") that the redesign renamed; the
        # item is still the one a state attribute marks among its alike siblings, when it is
        # about as alike as the best (a breadcrumb's current page is not the brand's link).
        top = max(a[0] for a in alike)
        alike = [a for a in _current_of_a_run(alike) if a[0] >= top - CURRENT_TIE] or alike
    if rule.many and (marks := _block_marks(rule)):
        # The list kept to one block of several alike (the authors', not the translators'): so
        # does its relocation.
        alike = [a for a in alike if _fits_block_marks(marks, a[1])] or alike
    # Nearness to the record's fields found so far breaks near-ties only.
    top = max(a[0] for a in alike)
    score, el, value = max(
        (a for a in alike if a[0] >= top - NEAR_TIE), key=lambda a: (_nearness(a[1], anchors or []), a[0])
    )
    options = []
    if fp.get("label"):
        steps = label_steps(el, page, fp["label"])
        if steps is None and (led := lead_steps(el, page)) is not None and led[1] == fp["label"]:
            steps = led[0]  # "<li>Print edition: <span>Paperback</span></li>"
        steps = run_of(steps) if rule.many and not within else steps
        if steps and rule.many and not within:  # every same-shaped sibling after the label, in a run
            css = join(steps).replace(" + ", " ~ ")
            if _consecutive(rule.selector(css)(page.root)):
                options.append(css)
        if steps:
            options.append(join(steps))
    if rule.many and not within:
        run = _run_css(el, page, bool(fp.get("classes")))
        marked = _block_marks_kept(rule, run, el)
        options += [marked, run] if marked else [run]
    else:  # fewest positions first: each is a place the next redesign breaks the path
        precise = precise_steps(el, page)
        last = last_of_type_steps(el, page)
        if last and ":last-of-type" in " ".join((rule.css, *rule.alternates)):
            options.append(join(last))  # the learner chose "the last one" (checked on unseen pages)
        loose = join(without_positions(precise))
        # A path without positions that meets several nodes reads this one only by its place on
        # this page: the node's own classes come first then.
        own = _by_own_class(el, page)
        first = [*own, loose] if len(rule.selector(loose)(page.root)) > 1 else [loose, *own]
        if (current := _by_singling_class(el, page)) and len(rule.selector(loose)(page.root)) > 1:
            first.insert(0, current)  # the current edition among the editions, by its own class
        options += [*first, join(class_steps(el, page)), join(precise)]
    if rule.many and not within:  # each with the learned block marks, first
        options = [c for css in options for c in (_block_marks_kept(rule, css, el), css) if c]
    if rule.many:  # each without the buttons the learned path left out, first
        options = [c for css in options for c in (_strays_left_out(rule, css, page), css) if c]
    options = list(dict.fromkeys(options))
    # A column rule's old paths mean nothing without their labels: they are not kept.
    old = [] if rule.column else [c for c in (rule.css, *rule.alternates) if c not in options]
    candidates = [
        FieldRule(rule.label, rule.part, css, rule.many, rule.regex, rule.fingerprint, old, split=rule.split,
                  until=rule.until, unqualified=rule.unqualified, role=rule.role)
        for css in options
    ]
    col = column_of(el, page) if rule.column is not None else None
    if col is not None:
        column = {"labels": col[1], "label": col[2], "with": col[3]}
        candidates.insert(
            0,
            FieldRule(
                rule.label, rule.part, col[0], rule.many, rule.regex, rule.fingerprint, [], column, rule.split
            ),
        )
    items = _items(rule, el, page)
    for new in candidates:
        css = new.css
        got = new.extract_with(css, page.root, page.texts)
        if got and (got == items if within else value in got if rule.many else got == value):
            return new, score
    return None


CURRENT_TIE = 0.1  # how much less alike the item a state marks may be than the best node
PATH_MARGIN = 0.1  # how much more alike a later node's path must be to take a one-step path's place
SURE = 0.9  # repairs this alike are made first and anchor the record for the others


def heal_page(wrapper: Wrapper, page: Page) -> list[Repair]:
    """Repair, in place, every field broken on ``page``; the repairs made."""
    status = {r.label: broken(r, page) for r in wrapper.rules}
    taken: set[etree._Element] = set()
    anchors: list[etree._Element] = []
    for r in wrapper.rules:
        if not status[r.label]:
            nodes = _nodes(r, page)
            anchors.extend(nodes[:3])
            if not r.regex:  # regex fields share their node with others
                taken.update(nodes)
    repairs: list[Repair] = []
    for sure in (True, False):
        for i, rule in enumerate(wrapper.rules):
            if not status[rule.label]:
                continue
            moved = relocate(rule, page, set() if rule.regex else taken, anchors)
            if moved is None or (sure and moved[1] < SURE):
                continue
            new, score = moved
            wrapper.rules[i] = new
            status[rule.label] = False
            nodes = _nodes(new, page)
            anchors.extend(nodes[:3])
            if not new.regex:
                taken.update(nodes)
            repairs.append(Repair(rule.label, rule.css, new.css, score, new.extract(page.root, page.texts)))
    return repairs


class HealingWrapper:
    """Applies a wrapper and heals it on the way; safe to share between worker threads.

    ``on_repair`` is called (under the lock) with each repair, e.g. to save the wrapper.
    """

    def __init__(self, wrapper: Wrapper, on_repair: Callable[[Repair], None] | None = None) -> None:
        self.wrapper = wrapper
        self.on_repair = on_repair
        self.repairs: list[Repair] = []
        self._lock = threading.Lock()

    def apply(self, html: str | bytes, base_url: str | None = None) -> dict[str, Value]:
        root = parse_html(html)
        texts = TextIndex(root)
        page = page_from_root(root, texts)
        with self._lock:
            if any(broken(r, page) for r in self.wrapper.rules):
                for repair in heal_page(self.wrapper, page):
                    log.info("wrapper %s on %s", repair.line(), base_url or "a page")
                    self.repairs.append(repair)
                    if self.on_repair is not None:
                        self.on_repair(repair)
            rules = list(self.wrapper.rules)
        return Wrapper(rules).apply_parsed(root, texts, base_url)
