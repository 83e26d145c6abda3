"""The generated book sites have the traps they are meant to have, and redesigns keep the text."""

from __future__ import annotations

import re
from itertools import combinations

import lxml.html
import pytest

from scripts.bench.wrapper_sites import CHANGES, HELD_OUT, TUNING, change_markup, generate_site


@pytest.mark.parametrize("style", TUNING + HELD_OUT, ids=lambda s: s.name)
def test_sites_are_reproducible_and_hold_the_traps(style):
    site = generate_site(style, 40, 1)
    assert site.pages == generate_site(style, 40, 1).pages
    truths = site.truth
    # One vs many: most books have one author, some several.
    counts = [len(t["authors"]) for t in truths]
    assert counts.count(1) >= 15 and max(counts) >= 3
    # Shared vs varying neighbour text: pairs of samples often agree on publisher or binding.
    pairs = list(combinations(truths[:20], 2))
    assert sum(a["publisher"] == b["publisher"] for a, b in pairs) >= 0.15 * len(pairs)
    assert all(t["sku"].startswith("BK-10") for t in truths)
    for html, truth in zip(site.pages, truths, strict=True):
        assert truth["isbn"] in html and truth["price"] in lxml.html.fromstring(html).text_content()


def test_tuning_sites_hide_copies_of_the_isbn_before_the_visible_one():
    for style in [s for s in TUNING if s.name in ("shelf", "catalog", "microdata", "inline", "dl")]:
        html = generate_site(style, 1, 2).pages[0]
        isbn = generate_site(style, 1, 2).truth[0]["isbn"]
        assert html.count(isbn) >= 2, style.name


@pytest.mark.parametrize("kind", CHANGES)
def test_a_redesign_changes_markup_but_not_text(kind):
    site = generate_site(TUNING[1], 3, 1)
    for html in site.pages:
        new = change_markup(html, kind, 1)
        assert new != html

        def words(h: str) -> list[str]:
            return sorted(w for t in lxml.html.fromstring(h).itertext() for w in re.findall(r"\w+", t))

        assert words(new) == words(html)


_HIDING_CLASSES = ({"d-none"}, {"visually-hidden"}, {"sr-only"})


def _visible_text(html: str) -> str:
    """The text a person sees: no head, scripts, metas, inputs, ``hidden`` or ``display:none``
    nodes (inline, or by a page's class rules such as ``.a.b{display:none}``)."""
    root = lxml.html.document_fromstring(html)
    rules = [*_HIDING_CLASSES]
    for style in root.iter("style"):
        for selector in re.findall(r"((?:\.[\w-]+)+)\s*\{[^}]*display:\s*none", style.text or ""):
            rules.append(set(selector.strip(".").split(".")))
    for el in list(root.iter()):
        if not isinstance(el.tag, str) or el.getparent() is None:
            continue
        classes = set((el.get("class") or "").split())
        inline = (el.get("style") or "").replace(" ", "")
        if (
            el.tag in ("head", "script", "style", "template", "noscript", "meta", "link", "input")
            or el.get("hidden") is not None
            or "display:none" in inline
            or "visibility:hidden" in inline
            or any(rule <= classes for rule in rules)
        ):
            el.drop_tree()
    return root.text_content()


def _values(truth: dict) -> list[tuple[str, str]]:
    return [(k, x) for k, v in truth.items() for x in (v if isinstance(v, list) else [v])]


@pytest.mark.parametrize("style", HELD_OUT, ids=lambda s: s.name)
def test_held_out_values_are_visible_with_a_hidden_copy_first(style):
    site = generate_site(style, 30, 3)
    for html, truth in zip(site.pages, site.truth, strict=True):
        visible = _visible_text(html)
        for name, value in _values(truth):
            assert value in visible, (style.name, name, value)
        # The first ISBN and title in the source are copies nobody sees (metas, scripts, inputs).
        for name in ("isbn", "title"):
            marked = html.replace(str(truth[name]), "MARKER-FIRST-COPY", 1)
            assert "MARKER-FIRST-COPY" not in _visible_text(marked), (style.name, name)
        for kind in CHANGES:
            redesigned = _visible_text(change_markup(html, kind, 1))
            assert all(value in redesigned for _, value in _values(truth)), (style.name, kind)
