"""Values in lines of one node, an element's own text, and lists written in one text."""

from __future__ import annotations

from browsercrawl.wrappers import Wrapper, learn_wrapper
from browsercrawl.wrappers.model import FieldRule


def details(publisher: str, edition: str | None = None) -> str:
    lines = [f"Publisher: {publisher}"] + ([f"Edition: {edition}"] if edition else []) + ["Format: Paperback"]
    return f"<html><body><h1>Book</h1><p class='d'>{'<br>'.join(lines)}</p></body></html>"


def test_a_line_break_ends_the_value():
    # Both samples lack the optional line: the whole-text context "Publisher: X Format:" fails
    # where an edition line sits between; the line "Publisher: X" does not.
    samples = [details("Tor"), details("Vintage")]
    others = [
        details(p, "2nd edition" if i % 2 else None) for i, p in enumerate(["Orbit", "Penguin Books"] * 4)
    ]
    result = learn_wrapper(samples, [{"publisher": "Tor"}, {"publisher": "Vintage"}], cluster_pages=others)
    assert result.wrapper.apply(details("Harper Collins", "Revised")) == {"publisher": "Harper Collins"}


def titled(title: str, series: str | None = None) -> str:
    prefix = f"<span class='series'>{series}:</span> " if series else ""
    return f"<html><body><h1>{prefix}{title}</h1><p>ISBN 9780140449136</p></body></html>"


def test_an_elements_own_text_leaves_out_a_childs_prefix():
    samples = [titled("The Harbor", "Stone Cycle #1"), titled("Iron Salt")]
    others = [
        titled(t, "Winter Cycle #2" if i % 3 == 0 else None)
        for i, t in enumerate(["Night", "Paper Wolves"] * 4)
    ]
    result = learn_wrapper(samples, [{"title": "The Harbor"}, {"title": "Iron Salt"}], cluster_pages=others)
    assert result.wrapper.rules[0].part == "own"
    assert result.wrapper.apply(titled("Glass Garden", "Salt Cycle #3")) == {"title": "Glass Garden"}
    again = Wrapper.from_json(result.wrapper.to_json())
    assert again.rules[0].key == "title#own"


def byline(authors: list[str]) -> str:
    text = authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + " &amp; " + authors[-1]
    return f"<html><body><h1>Book</h1><div class='by'>{text}</div></body></html>"


def test_a_list_written_in_one_text_is_split_at_its_separators():
    samples = [byline(["Jane Doe", "Li Wei"]), byline(["John Roe"])]
    others = [
        byline(a) for a in (["Ann Lee", "Bo Chen", "Cy Dunn"], ["Dee Fox"], ["Eve Gold", "Fay Hill"])
    ] * 3
    result = learn_wrapper(
        samples, [{"authors": ["Jane Doe", "Li Wei"]}, {"authors": ["John Roe"]}], cluster_pages=others
    )
    rule = result.wrapper.rules[0]
    assert rule.many and rule.split
    assert result.wrapper.apply(byline(["Ann Lee", "Bo Chen", "Cy Dunn"])) == {
        "authors": ["Ann Lee", "Bo Chen", "Cy Dunn"]
    }


def test_single_samples_learn_a_written_list_from_the_cluster():
    samples = [byline(["Jane Doe"]), byline(["John Roe"])]
    others = [
        byline(a) for a in (["Ann Lee", "Bo Chen", "Cy Dunn"], ["Dee Fox"], ["Eve Gold", "Fay Hill"])
    ] * 3
    result = learn_wrapper(samples, [{"authors": "Jane Doe"}, {"authors": "John Roe"}], cluster_pages=others)
    assert result.wrapper.apply(byline(["Ann Lee", "Bo Chen", "Cy Dunn"])) == {
        "authors": ["Ann Lee", "Bo Chen", "Cy Dunn"]
    }


def test_a_title_with_and_in_it_stays_one_value():
    def page(title: str) -> str:
        return f"<html><body><h1>{title}</h1></body></html>"

    samples = [page("Night Harbor"), page("Iron Salt")]
    others = [page(t) for t in ("War and Peace", "Pride and Prejudice", "Dune", "Emma")] * 2
    result = learn_wrapper(samples, [{"title": "Night Harbor"}, {"title": "Iron Salt"}], cluster_pages=others)
    assert not result.wrapper.rules[0].many
    assert result.wrapper.apply(page("War and Peace")) == {"title": "War and Peace"}


def test_a_value_cut_out_of_a_link_is_decoded_however_the_page_wrote_the_url():
    """A redesigned page serialised by another tool writes ``/pub/Penguin%20Books`` where the old
    one wrote a raw space: the publisher read from the link stays "Penguin Books"."""
    rule = FieldRule("publisher", "href", "span.pub > a", regex="^/pub/(.+?)$")
    wrapper = Wrapper([rule])
    for href in ("/pub/Penguin Books", "/pub/Penguin%20Books", "/pub/Caf%C3%A9%20Press"):
        page = f"<html><body><span class='pub'>Publisher: <a href='{href}'>x</a></span></body></html>"
        want = "Café Press" if "Caf" in href else "Penguin Books"
        assert wrapper.apply(page) == {"publisher": want}


def test_an_elements_own_text_keeps_words_apart_at_a_line_break():
    """``<td>Ann Lee<br>Bo Chen</td>``: the own text reads as a browser shows it, not glued
    ("Ann LeeBo Chen"), so it agrees with the node's text and its lines can become a list."""
    wrapper = Wrapper.from_json({"fields": {"authors#own": "td"}})
    page = "<html><body><table><tr><td>Ann Lee<br>Bo Chen<span>(ed.)</span></td></tr></table></body></html>"
    assert wrapper.apply(page) == {"authors": "Ann Lee Bo Chen"}
