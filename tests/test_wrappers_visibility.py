"""Visible text a person reads is preferred over hidden copies and attributes holding the value."""

from __future__ import annotations

import pytest

from browsercrawl.wrappers import learn_wrapper
from browsercrawl.wrappers.candidates import find_hits
from browsercrawl.wrappers.dom import page_of


def page(isbn: str, slug: str, hide: str) -> str:
    return (
        f"<html><body><div {hide}><a href='/item/{isbn}-{slug}'>https://shop/item/{isbn}-{slug}</a></div>"
        f"<h1>{slug}</h1><ul><li>ISBN-13: {isbn}</li><li>Pages: 300</li></ul></body></html>"
    )


@pytest.mark.parametrize(
    "hide",
    ["style='display:none'", "hidden", "class='d-none'", "aria-hidden='true'", "style='visibility: hidden'"],
)
def test_hidden_blocks_are_candidates_only_after_visible_text(hide):
    hits = find_hits(page_of(page("9780140449136", "the-odyssey", hide)), "9780140449136")
    assert hits[0].el.tag == "li" and not hits[0].hidden
    assert any(h.hidden for h in hits)  # still there, for when nothing visible holds it


STYLES = [
    "<style>.mobile-only{display:none}</style>",
    "<style>/* sticky */ .x, div.mobile-only { color: red; display: none !important }</style>",
    "<style>#copy{visibility:hidden}</style>",
]


@pytest.mark.parametrize("style", STYLES)
def test_a_block_the_pages_own_stylesheet_hides_is_hidden(style: str) -> None:
    html = (
        f"<html><head>{style}</head><body><div class='mobile-only' id='copy'><span>Olga Roe</span></div>"
        "<p class='byline'>by <a>Olga Roe</a></p></body></html>"
    )
    hits = find_hits(page_of(html), "Olga Roe")
    assert hits[0].el.tag == "a" and len(hits) > 1 and all(h.hidden for h in hits[1:])


@pytest.mark.parametrize(
    "style",
    [
        "<style>@media (min-width: 768px) { .mobile-only { display: none } }</style>",
        "<style>.menu.open .mobile-only { display: none }</style>",
        "<style>.mobile-only { display: block }</style>",
    ],
)
def test_a_block_hidden_only_on_some_screens_or_in_some_state_is_not(style: str) -> None:
    html = f"<html><head>{style}</head><body><div class='mobile-only'><span>Olga Roe</span></div>"
    assert not any(h.hidden for h in find_hits(page_of(html), "Olga Roe"))


def test_isbn_is_learned_from_the_visible_line_not_the_hidden_url():
    # The hidden URLs' slugs share "-the-" on both samples: a regex learned there breaks elsewhere.
    samples = [
        page("9780140449136", "the-odyssey", "hidden"),
        page("9780140455113", "the-republic", "hidden"),
    ]
    values = [{"isbn": "9780140449136"}, {"isbn": "9780140455113"}]
    result = learn_wrapper(samples, values)
    rule = result.wrapper.rules[0]
    assert "li" in rule.css and "a" not in rule.css.split(" > ")[-1]
    assert result.wrapper.apply(page("9780679783275", "war-and-peace", "hidden")) == {"isbn": "9780679783275"}


def test_meta_and_hidden_inputs_are_hidden():
    html = (
        "<html><body><meta itemprop='isbn' content='9780140449136'>"
        "<input type='hidden' value='9780140449136'><span>9780140449136</span></body></html>"
    )
    hits = find_hits(page_of(html), "9780140449136")
    assert hits[0].el.tag == "span"
    assert {h.el.tag for h in hits if h.hidden} == {"meta", "input"}


def test_an_attribute_is_used_when_no_visible_text_holds_the_value():
    html = "<html><body><h1>X</h1><time datetime='2024-03-18'>last spring</time></body></html>"
    result = learn_wrapper(
        [html, html.replace("2024-03-18", "2023-01-02")], [{"d": "2024-03-18"}, {"d": "2023-01-02"}]
    )
    assert result.wrapper.rules[0].part == "datetime"


def _crumbs(i: int) -> str:
    """The title twice: the breadcrumb's last item (first in the document) and the h1."""
    title = f"The Book Number {i}"
    items = [("/", "Home"), ("/en", "English books"), (f"/b/{i}", title)]
    crumbs = "".join(f"<li><a href='{u}'><span>{t}</span></a></li>" for u, t in items)
    body = f"<section><h1 class='title'>{title}</h1><p>{i} pages</p></section>"
    return f"<html><body><nav class='breadcrumb'><ol>{crumbs}</ol></nav>{body}</body></html>"


def test_the_content_copy_of_a_value_wins_over_the_breadcrumbs():
    """Both exact; the breadcrumb is a way to the page, the h1 is what a person reads as its title
    (a redesign that reorders the breadcrumbs must not move the title)."""
    values = [{"title": f"The Book Number {i}"} for i in (1, 2)]
    result = learn_wrapper([_crumbs(1), _crumbs(2)], values, cluster_pages=[_crumbs(i) for i in range(3, 9)])
    assert "h1" in result.wrapper.rules[0].css and "nav" not in result.wrapper.rules[0].css
