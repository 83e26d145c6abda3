"""Self-healing: find a field again when the site's markup changed under its path.

A field is *broken* on a page when its path finds nothing, finds a value of the wrong kind
(the fingerprint says the samples held dates, ISBNs, prices...), or finds a node whose label is
not the learned one (a positional path after the rows were reordered). Then every visible node of
the page is scored against the field's fingerprint (``fingerprint.similarity``); the best one at
or above ``MIN_SIMILARITY`` that no working field already uses becomes the new path (by its label
when it has one, ``dt:contains("ISBN") + dd``, else precise; a repeated field is generalised over
the run of same-shaped siblings, so all authors move, not one). The old path is kept as an
alternate, the repair is logged and reported, and the wrapper changes in place.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

from browsercrawl.wrappers.dom import Page, ancestors_or_self, page_from_root
from browsercrawl.wrappers.fingerprint import label_fits, similarity
from browsercrawl.wrappers.model import FieldRule, TextIndex, Value, Wrapper, norm, parse_html
from browsercrawl.wrappers.paths import generalise_pair, join, label_steps, precise_steps, without_positions
from browsercrawl.wrappers.validate import has_kind

log = logging.getLogger(__name__)

MIN_SIMILARITY = 0.6
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
    raw = page.texts.text(el) if rule.part == "text" else norm(el.get(rule.part) or "")
    if not raw or len(raw) > _MAX_TEXT:
        return None
    if rule.regex:
        m = re.search(rule.regex, raw)
        if not m:
            return None
        raw = norm(m.group(1) if m.groups() else m.group(0))
    return raw or None


def broken(rule: FieldRule, page: Page) -> bool:
    """The rule's own path finds nothing, a value of the wrong kind, or a node with another label."""
    fp = rule.fingerprint or {}
    for el in rule.selector()(page.root):
        value = _raw(rule, el, page)
        if value is None:
            continue
        if fp.get("kind") and not has_kind(value, fp["kind"]):
            return True
        # A label path checks its label itself; a positional one may now point at another row.
        return not rule.regex and ":contains(" not in rule.css and not label_fits(fp, el, page)
    return True


def _nodes(rule: FieldRule, page: Page) -> list[etree._Element]:
    return [el for el in rule.selector()(page.root) if _raw(rule, el, page) is not None]


def _deepest(el: etree._Element, page: Page) -> bool:
    """No child carries the same text: the node itself, not a wrapper around it."""
    text = page.texts.text(el)
    return not any(isinstance(c.tag, str) and page.texts.text(c) == text for c in el)


def _run_css(el: etree._Element, page: Page) -> str:
    """A path to ``el`` and its same-shaped siblings (for a repeated field)."""
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
                merged = generalise_pair(mine, precise_steps(node, page))
                if merged:
                    return join(merged)
    return join([*mine[:-1], *without_positions(mine[-1:])])


def relocate(rule: FieldRule, page: Page, taken: set[etree._Element]) -> tuple[FieldRule, float] | None:
    """The rule moved to the node most like its fingerprint, or None when none is alike enough."""
    fp = rule.fingerprint
    if not fp:
        return None
    best: tuple[float, etree._Element, str] | None = None
    for el in page.elements:
        if el in taken or page.is_hidden(el) or not _deepest(el, page):
            continue
        value = _raw(rule, el, page)
        if value is None:
            continue
        score = similarity(fp, el, page, value)
        if score >= MIN_SIMILARITY and (best is None or score > best[0]):
            best = (score, el, value)
    if best is None:
        return None
    score, el, value = best
    options = []
    if fp.get("label"):
        steps = label_steps(el, page, fp["label"])
        if steps:
            options.append(join(steps))
    options.append(_run_css(el, page) if rule.many else join(precise_steps(el, page)))
    old = [c for c in (rule.css, *rule.alternates) if c not in options]
    for css in options:
        new = FieldRule(rule.label, rule.part, css, rule.many, rule.regex, rule.fingerprint, old)
        got = new.extract_with(css, page.root, page.texts)
        if got and (value in got if rule.many else got == value):
            return new, score
    return None


def heal_page(wrapper: Wrapper, page: Page) -> list[Repair]:
    """Repair, in place, every field broken on ``page``; the repairs made."""
    status = {r.label: broken(r, page) for r in wrapper.rules}
    taken: set[etree._Element] = set()
    for r in wrapper.rules:
        if not status[r.label] and not r.regex:  # regex fields share their node with others
            taken.update(_nodes(r, page))
    repairs = []
    for i, rule in enumerate(wrapper.rules):
        if not status[rule.label]:
            continue
        moved = relocate(rule, page, set() if rule.regex else taken)
        if moved is None:
            continue
        new, score = moved
        wrapper.rules[i] = new
        if not new.regex:
            taken.update(_nodes(new, page))
        value = new.extract(page.root, page.texts)
        repairs.append(Repair(rule.label, rule.css, new.css, score, value))
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
