"""Keyword expressions, link-free page text, tunneling weights and target/directory split."""

from __future__ import annotations

import pytest

from browsercrawl.errors import UserError
from browsercrawl.induction.pages import (
    KeywordExpr,
    TunnelingScorer,
    classify_pages,
    text_without_links,
    weight_threshold,
)


@pytest.mark.parametrize(
    ("expr", "text", "expected"),
    [
        ("成都&&川菜", "成都最好的川菜馆", True),
        ("成都&&川菜", "成都的火锅", False),
        ("a&&b||c", "only c here", True),  # && binds tighter than ||
        ("a&&(b||c)", "only c here", False),
        ("tofu&&!sponsored", "Mapo TOFU recipe", True),
        ("tofu&&!sponsored", "tofu, sponsored post", False),
        ('"fried rice"||noodles', "Egg fried rice", True),
        ('"fried rice"', "rice, fried", False),
    ],
)
def test_keyword_expressions(expr, text, expected):
    assert KeywordExpr(expr).matches(text) is expected


@pytest.mark.parametrize("bad", ["", "a&&", "(a||b", "a b", "&&a", '""', "a)||b", "a&b"])
def test_bad_keyword_expression_names_it(bad):
    with pytest.raises(UserError, match="keyword expression"):
        KeywordExpr(bad)


def test_text_without_links_drops_link_text_and_scripts_keeps_tails():
    html = (
        "<html><body><p>Best <a href='/x'>sichuan</a> food <a name='anchor'>here</a></p>"
        "<script>var sichuan = 1</script><ul><li><a href='/y'>tofu</a></li></ul></body></html>"
    )
    text = text_without_links(html)
    assert text == "Best food here"
    assert text_without_links("") == ""


def test_tunneling_weights():
    scorer = TunnelingScorer("sichuan", r"^https://s\.com/recipe/[0-9]+$")
    assert scorer.weight("https://s.com/", None, "nothing", []) == 0  # entry page
    assert scorer.weight("u", 3, "Sichuan menu", []) == 0  # keyword
    assert scorer.weight("u", 3, "menu", ["https://s.com/recipe/12"]) == 0  # links to a target
    assert scorer.weight("u", 3, "menu", ["https://s.com/recipe/x"]) == 4  # parent + 1
    assert TunnelingScorer(None, None).weight("u", 0, "sichuan", []) == 1


def test_weight_threshold_rounds_half_up():
    assert weight_threshold([0, 1, 1, 2]) == 1
    assert weight_threshold([0, 1]) == 1  # 0.5 -> 1, not banker's rounding to 0
    assert weight_threshold([0, 0, 0, 1]) == 0
    assert weight_threshold([]) == 1


def test_classify_pages_by_link_count_difference():
    counts = {"e": 100, "list1": 90, "list2": 80, "t1": 10, "t2": 12, "t3": 8}
    kinds = classify_pages(counts, "e")
    # mean of (100 - n) = (0 + 10 + 20 + 90 + 88 + 92) / 6 = 50
    assert kinds.threshold == pytest.approx(50.0)
    assert sorted(kinds.targets) == ["t1", "t2", "t3"]
    assert sorted(kinds.directories) == ["e", "list1", "list2"]
    with pytest.raises(UserError, match="entry page"):
        classify_pages(counts, "missing")
