"""Wrapper induction on saved pages: optional fields, repeated comments, attributes, duplicates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browsercrawl.errors import UserError
from browsercrawl.wrappers import Wrapper, generalise_pair, learn_wrapper

FIX = Path(__file__).parent / "fixtures" / "induction" / "wrapper"


def read(name: str) -> str:
    return (FIX / name).read_text()


@pytest.fixture(scope="module")
def learned():
    values = json.loads(read("values.json"))
    return learn_wrapper((read("recipe_a.html"), read("recipe_b.html")), (values[0], values[1]))


def test_learned_wrapper_extracts_an_unseen_page(learned):
    assert learned.warnings == []
    got = learned.wrapper.apply(read("recipe_c.html"))
    assert got == json.loads(read("expected_c.json"))


def test_learned_wrapper_reproduces_its_samples(learned):
    values = json.loads(read("values.json"))
    a = learned.wrapper.apply(read("recipe_a.html"))
    b = learned.wrapper.apply(read("recipe_b.html"))
    assert a == values[0]
    # B: the optional discount is absent; the link was given absolute but is relative on the page.
    assert b["discount"] is None and b["author_url"] == "/u/mei-wong"
    assert {k: v for k, v in b.items() if k not in ("discount", "author_url")} == {
        k: v for k, v in values[1].items() if k not in ("discount", "author_url")
    }


def test_wrapper_file_is_readable_json_in_the_papers_key_format(learned, tmp_path):
    path = tmp_path / "w.json"
    learned.wrapper.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "browsercrawl-wrapper/1"
    keys = set(data["fields"])
    assert {"title#text", "author_url#href", "published#datetime", "rating#data-rating"} <= keys
    assert "comments#text[]" in keys  # a repeated field
    assert "regex" in data["fields"]["price#text"]  # the value sits inside "Price: ... EUR"
    again = Wrapper.load(path)
    assert again.apply(read("recipe_c.html")) == learned.wrapper.apply(read("recipe_c.html"))


def test_value_appearing_twice_takes_the_occurrence_that_works_on_both_samples():
    def sample(views: int, price: int) -> str:
        return (
            f"<html><body><div class='side'><span>Views</span><b>{views}</b></div>"
            f"<div class='main'><h1>Item</h1><span class='price'>{price}</span></div></body></html>"
        )

    # On A the price equals the view count and comes first in the page; B tells them apart.
    result = learn_wrapper((sample(42, 42), sample(7, 13)), ({"price": "42"}, {"price": "13"}))
    assert result.wrapper.apply(sample(99, 5)) == {"price": "5"}


def test_repeated_field_with_a_single_instance_per_sample():
    def sample(items: list[str]) -> str:
        lis = "".join(f"<li><p>{x}</p></li>" for x in items)
        return f"<html><body><h1>T</h1><ul class='c'>{lis}</ul></body></html>"

    result = learn_wrapper(
        (sample(["only a"]), sample(["x", "only b"])), ({"c": ["only a"]}, {"c": ["only b"]})
    )
    assert result.wrapper.apply(sample(["1", "2", "3"])) == {"c": ["1", "2", "3"]}


def test_missing_value_is_reported_by_label_and_sample():
    html = "<html><body><h1>Title</h1></body></html>"
    result = learn_wrapper(
        (html, html), ({"title": "Title", "ghost": "nowhere"}, {"title": "Title"}), ("a.html", "b.html")
    )
    assert [r.label for r in result.wrapper.rules] == ["title"]
    assert any("'ghost'" in w and "a.html" in w for w in result.warnings)


def test_generalise_pair_is_the_papers_example():
    a = ["div[class=tent]", "li:nth-of-type(1)", "p[class=info]", "span:nth-of-type(2)"]
    b = ["div[class=tent]", "li:nth-of-type(2)", "p[class=info]", "span:nth-of-type(2)"]
    assert generalise_pair(a, b) == ["div[class=tent]", "li", "p[class=info]", "span:nth-of-type(2)"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"title": "h1"}, "label#text"),
        ({"title#text": "h1[["}, "bad CSS path"),
        ({"title#text": {"css": "h1", "regex": "("}}, "regex"),
        ({"title#text": 3}, "needs a CSS path"),
    ],
)
def test_bad_wrapper_json_names_the_key(fields, message):
    with pytest.raises(UserError, match=message):
        Wrapper.from_json({"fields": fields}, "w.json")


def test_listing_a_few_of_many_repeated_values_extracts_them_all():
    def sample(tag: str, n: int) -> str:
        lis = "".join(f"<li class='c'><b>u{i}</b><p>{tag} comment {i}</p></li>" for i in range(n))
        return f"<html><body><h1>{tag}</h1><ol>{lis}</ol><p>footer</p></body></html>"

    values = ({"comments": ["A comment 0", "A comment 3"]}, {"comments": ["B comment 1", "B comment 2"]})
    result = learn_wrapper((sample("A", 6), sample("B", 4)), values)
    assert result.warnings == []
    assert result.wrapper.apply(sample("C", 5)) == {"comments": [f"C comment {i}" for i in range(5)]}
