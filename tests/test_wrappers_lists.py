"""A value in a run of same-shaped siblings is a list unless the samples prove otherwise."""

from __future__ import annotations

import pytest

from browsercrawl.errors import UserError
from browsercrawl.wrappers import Wrapper, learn_wrapper
from browsercrawl.wrappers.heal import HealingWrapper


def book(title: str, authors: list[str], related: list[str] = ()) -> str:
    links = ", ".join(f"<a class='author' href='/a/{i}'>{a}</a>" for i, a in enumerate(authors))
    rel = "".join(f"<li><span class='author'>{r}</span></li>" for r in related)
    return (
        f"<html><body><h1>{title}</h1><div class='byline'>by {links}</div>"
        f"<p class='pub'>Vintage</p><ul class='rel'>{rel}</ul></body></html>"
    )


OTHERS = [
    book("C", ["Ann Lee", "Bo Chen", "Cy Dunn"], ["Rel One"]),
    book("D", ["Dee Fox"], ["Rel Two", "Rel Three"]),
    book("E", ["Eve Gold", "Fay Hill"]),
    book("F", ["Gus Ito"]),
    book("G", ["Hal Jones", "Ida King", "Jo Lam", "Kim Moe"]),
]


def test_one_author_on_both_samples_still_learns_a_list_from_the_cluster():
    samples = [book("A", ["Jane Doe"], ["Rel X"]), book("B", ["John Roe"])]
    result = learn_wrapper(samples, [{"authors": "Jane Doe"}, {"authors": "John Roe"}], cluster_pages=OTHERS)
    rule = result.wrapper.rules[0]
    assert rule.many
    assert result.report["authors"].many
    assert result.wrapper.apply(OTHERS[4]) == {"authors": ["Hal Jones", "Ida King", "Jo Lam", "Kim Moe"]}
    assert result.wrapper.apply(samples[0]) == {"authors": ["Jane Doe"]}  # related authors stay out


def test_a_single_field_stays_single_when_a_list_would_add_values_to_a_sample():
    def page(price: str, extra: str) -> str:
        return f"<html><body><h1>T</h1><div><b>{price}</b><b>{extra}</b></div></body></html>"

    samples = [page("$5.00", "In stock"), page("$7.50", "Sold out")]
    others = [page(f"${n}.99", "In stock") for n in range(2, 9)]
    result = learn_wrapper(samples, [{"price": "$5.00"}, {"price": "$7.50"}], cluster_pages=others)
    assert not result.wrapper.rules[0].many
    assert result.wrapper.apply(others[0]) == {"price": "$2.99"}


def test_without_other_pages_a_single_value_stays_single():
    samples = [book("A", ["Jane Doe"]), book("B", ["John Roe"])]
    result = learn_wrapper(samples, [{"authors": "Jane Doe"}, {"authors": "John Roe"}])
    assert not result.wrapper.rules[0].many


def _byline(title: str, by: str, publisher: str = "Vintage") -> str:
    return f"<html><body><h1>{title}</h1><p class='by'>{by}</p><p class='pub'>{publisher}</p></body></html>"


def test_a_list_written_a_and_b_without_any_comma_is_split_when_its_names_recur() -> None:
    """No page shows a comma; the names joined by "&" stand alone on other pages, so it is a list."""
    others = [
        _byline("C", "Ann Lee &amp; Bo Chen"),
        _byline("D", "Cy Dunn"),
        _byline("E", "Dee Fox &amp; Ann Lee"),
        _byline("F", "Bo Chen"),
        _byline("G", "Eve Gold &amp; Fay Hill"),
        _byline("H", "Gus Ito"),
    ]
    samples = [_byline("A", "Jane Doe"), _byline("B", "Cy Dunn")]
    result = learn_wrapper(samples, [{"authors": "Jane Doe"}, {"authors": "Cy Dunn"}], cluster_pages=others)
    rule = result.wrapper.rules[0]
    assert rule.many
    assert result.wrapper.apply(others[4]) == {"authors": ["Eve Gold", "Fay Hill"]}
    assert result.wrapper.apply(samples[0]) == {"authors": ["Jane Doe"]}


def test_names_written_with_an_ampersand_stay_whole() -> None:
    """ "Simon & Schuster" repeats whole and series titles share their first piece: no list."""
    pubs = ["Simon &amp; Schuster", "Vintage", "Simon &amp; Schuster", "Tor", "Farrar &amp; Straus"]
    others = [_byline(f"T{i}", "Ann Lee", p) for i, p in enumerate(pubs)]
    samples = [_byline("A", "Jane Doe", "Tor"), _byline("B", "Cy Dunn", "Vintage")]
    result = learn_wrapper(samples, [{"publisher": "Tor"}, {"publisher": "Vintage"}], cluster_pages=others)
    assert not result.wrapper.rules[0].many
    assert result.wrapper.apply(others[0]) == {"publisher": "Simon & Schuster"}
    titles = ["Tom &amp; Ann", "Tom &amp; Bo", "Tom &amp; Cy", "Rain", "Sun"]
    others = [f"<html><body><h1>{t}</h1><p>x</p></body></html>" for t in titles]
    samples = [f"<html><body><h1>{t}</h1><p>x</p></body></html>" for t in ("Moon", "Star")]
    result = learn_wrapper(samples, [{"title": "Moon"}, {"title": "Star"}], cluster_pages=others)
    assert result.wrapper.apply(others[1]) == {"title": "Tom & Bo"}


def test_a_written_list_after_a_word_is_cut_out_before_it_is_split() -> None:
    """ "de A, B et C": the list is cut after "de", then split; an initial's dot stays in the name."""

    def page(by: str) -> str:
        return f"<html><body><h1>T</h1><p class='auteurs'>de {by}</p><p>Tor</p></body></html>"

    others = [page("Eve Gold et Fay R. Hill"), page("Gus Ito"), page("Hal Jones, Ida King et Jo Lam")]
    samples = [page("Ann Lee, Bo Chen et Cy Dunn"), page("Dee Fox")]
    values = [{"authors": ["Ann Lee", "Bo Chen", "Cy Dunn"]}, {"authors": "Dee Fox"}]
    result = learn_wrapper(samples, values, cluster_pages=others)
    assert result.wrapper.apply(others[0]) == {"authors": ["Eve Gold", "Fay R. Hill"]}
    samples = [page("Ann Lee"), page("Dee Fox")]
    result = learn_wrapper(samples, [{"authors": "Ann Lee"}, {"authors": "Dee Fox"}], cluster_pages=others)
    assert result.wrapper.apply(others[0]) == {"authors": ["Eve Gold", "Fay R. Hill"]}
    assert result.wrapper.apply(others[2]) == {"authors": ["Hal Jones", "Ida King", "Jo Lam"]}


def _details(publisher: str, series: str | None) -> str:
    rows = [("ISBN-13:", "9780000000001"), ("Publisher:", f"<a href='/p'>{publisher}</a>")]
    if series:
        rows.append(("Series:", f"<a href='/s'>{series}</a>"))
    rows.append(("Pages:", "320"))
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<html><body><h1>T</h1><table><tbody>{table}</tbody></table></body></html>"


def test_links_in_rows_under_two_labels_are_two_fields_not_one_list() -> None:
    """A "Publisher:" link and a "Series:" link two rows apart look the same, but each row has
    its own label: the run of rows is a table of facts, so the publisher stays single (both
    samples from one publisher, so the label path and the bare link path tie on them)."""
    samples = [_details("Harper Collins", None), _details("Harper Collins", None)]
    others = [
        _details("Tor", "River Cycle #4"),
        _details("Penguin Books", None),
        _details("Vintage", "Glass Cycle #2"),
        _details("Harper Collins", "Iron Cycle #1"),
        _details("Tor", None),
    ]
    result = learn_wrapper(samples, [{"publisher": "Harper Collins"}] * 2, cluster_pages=others)
    assert not result.wrapper.rules[0].many
    assert result.wrapper.apply(others[0]) == {"publisher": "Tor"}


def _bullet(publisher: str, edition: str | None, date: str) -> str:
    packed = publisher + (f"; {edition}" if edition else "") + f" ({date})"
    return (
        "<html><body><h1>T</h1><ul><li><span><b>Publisher :</b> "
        f"<span>{packed}</span></span></li><li><span><b>Language :</b> <span>English</span></span></li>"
        "</ul></body></html>"
    )


def test_a_qualifier_after_a_semicolon_is_cut_off_not_read_as_more_values() -> None:
    """ "Tor; 2nd edition (2019/5/3)": the part after "; " on some unseen pages always holds a
    word the values never hold ("edition"), so it qualifies the value and is not a second one.
    Both samples from one publisher: their values say nothing of the field's kind."""
    samples = [_bullet("Tor", None, "2019/5/3"), _bullet("Tor", None, "2020/1/9")]
    others = [
        _bullet("Harper Collins", "Anniversary edition", "2018/2/2"),
        _bullet("Tor", None, "2017/3/3"),
        _bullet("Penguin Books", "2nd edition", "2016/4/4"),
        _bullet("Vintage", "Revised edition", "2015/5/5"),
        _bullet("Orbit", None, "2014/6/6"),
        _bullet("Tor", "2nd edition", "2013/7/7"),
    ]
    result = learn_wrapper(samples, [{"publisher": "Tor"}] * 2, cluster_pages=others)
    assert not result.wrapper.rules[0].many
    got = [result.wrapper.apply(p)["publisher"] for p in others[:3]]
    assert got == ["Harper Collins", "Tor", "Penguin Books"]


def test_names_after_a_semicolon_are_still_a_list() -> None:
    """The same shape holding a list: the names after "; " share no word the first ones lack."""
    samples = [_bullet("Ann Lee", None, "2019/5/3"), _bullet("Bo Chen", None, "2020/1/9")]
    others = [
        _bullet("Cy Dunn", "Ann Chen", "2018/2/2"),
        _bullet("Dee Fox", None, "2017/3/3"),
        _bullet("Eve Lee", "Bo Dunn", "2016/4/4"),
        _bullet("Fay Hill", "Cy Lee", "2015/5/5"),
        _bullet("Gus Ito", None, "2014/6/6"),
    ]
    result = learn_wrapper(samples, [{"authors": "Ann Lee"}, {"authors": "Bo Chen"}], cluster_pages=others)
    assert result.wrapper.rules[0].many
    assert result.wrapper.apply(others[0]) == {"authors": ["Cy Dunn", "Ann Chen"]}


def _contributors(names: list[str], role_at: int | None = None) -> str:
    links = ", ".join(
        f"<span><a href='/a/{i}'><span class='name'>{n}</span>"
        + ("<span class='role'>(Translator)</span>" if i == role_at else "")
        + "</a></span>"
        for i, n in enumerate(names)
    )
    return f"<html><body><h1>T</h1><h3><div class='list'>{links}</div></h3></body></html>"


def test_a_role_beside_some_names_is_not_taken_as_one_more_name() -> None:
    """No sample has a translator: ``a > span`` and ``a > span.name`` both read the samples
    right; on unseen pages the bare one also reads "(Translator)", which is no name."""
    samples = [_contributors(["Olga J. Doe", "Sara Doe"]), _contributors(["Jane Sato"])]
    others = [
        _contributors(["Maria Khan", "Yuki Berg", "Ana Khan", "Tom H. Doe"], role_at=2),
        _contributors(["Ben Roe"]),
        _contributors(["Olga Doe", "Peter Berg", "Ben Khan"], role_at=2),
        _contributors(["Li Wei", "Ana Hart"]),
        _contributors(["Sara Khan", "Tom Roe", "Cy Dunn"], role_at=2),
    ]
    values = [{"authors": ["Olga J. Doe", "Sara Doe"]}, {"authors": "Jane Sato"}]
    result = learn_wrapper(samples, values, cluster_pages=others)
    assert result.wrapper.apply(others[2]) == {"authors": ["Olga Doe", "Peter Berg", "Ben Khan"]}


NAMES = ["Ann Lee", "Bo Chen", "Cy Dunn", "Dee Fox", "Eve Gold", "Fay Hill", "Gus Ito", "Hal Jones"]


def byline(i: int, authors: int, translators: int) -> str:
    """Authors then translators in one span, links alike: ``A, B 저/T 역`` (the translator's
    links continue the authors' run; only the word after the authors tells them apart)."""
    names = [NAMES[(i + k) % 8] for k in range(authors + translators)]
    link = "<a href='/search?q={0}'>{0}</a>".format
    text = ", ".join(link(n) for n in names[:authors]) + " 저"
    if translators:
        text += "/" + ", ".join(link(n) for n in names[authors:]) + " 역"
    return f"<html><body><h2>Book {i}</h2><span class='auth'>{text}</span><p>Vintage</p></body></html>"


def test_a_run_of_links_ends_at_the_word_after_the_samples_last_item():
    shapes = [(1, 0), (2, 0), (1, 1), (3, 1), (2, 1), (1, 0), (2, 2), (1, 1), (4, 0), (1, 0)]
    unseen = [byline(i, a, t) for i, (a, t) in enumerate(shapes)]
    for sample_shapes in ([(1, 1), (1, 0)], [(1, 0), (2, 0)], [(2, 1), (1, 0)]):
        pages = [byline(20 + k, a, t) for k, (a, t) in enumerate(sample_shapes)]
        values = [{"authors": [NAMES[(20 + k + j) % 8] for j in range(a)]}
                  for k, (a, _) in enumerate(sample_shapes)]
        wrapper = learn_wrapper(pages, values, cluster_pages=unseen).wrapper
        assert wrapper.rules[0].until == "저", sample_shapes
        for i, (a, t) in enumerate([(3, 1), (1, 2), (2, 0)]):
            want = [NAMES[(40 + i + j) % 8] for j in range(a)]
            assert wrapper.apply(byline(40 + i, a, t)) == {"authors": want}, (sample_shapes, a, t)
        again = Wrapper.from_json(wrapper.to_json())
        assert again.rules[0].until == "저"


def test_a_role_after_every_item_ends_nothing():
    """``A (Author), B (Author)``: the word follows every item, so it is no end of the run."""
    def page(i: int, n: int) -> str:
        links = ", ".join(f"<a href='/a/{k}'>{NAMES[(i + k) % 8]}</a> (Author)" for k in range(n))
        return f"<html><body><h2>Book {i}</h2><p class='by'>{links}</p></body></html>"

    unseen = [page(i, n) for i, n in enumerate([1, 2, 3, 1, 2, 4, 1])]
    values = [{"authors": [NAMES[20 % 8]]}, {"authors": [NAMES[21 % 8]]}]
    wrapper = learn_wrapper([page(20, 1), page(21, 1)], values, cluster_pages=unseen).wrapper
    assert wrapper.rules[0].until is None
    assert wrapper.apply(page(30, 3)) == {"authors": [NAMES[(30 + k) % 8] for k in range(3)]}


def test_until_must_be_a_word_in_a_wrapper_file():
    bad = {"format": "browsercrawl-wrapper/1", "fields": {"authors#text[]": {"css": "a", "until": 3}}}
    with pytest.raises(UserError, match=r"fields.authors#text\[\].until must be a word"):
        Wrapper.from_json(bad, "w.json")


def test_roles_between_every_item_end_nothing():
    """``A 著，B 译，C 著``: every contributor is in the field and each item carries its role, so
    the word after the samples' last item (著) is a role, not the end of the run."""
    def page(i: int, roles: str) -> str:
        links = "，".join(f"<a href='/a/{k}'>{NAMES[(i + k) % 8]}</a> {r}" for k, r in enumerate(roles))
        return f"<html><body><h2>Book {i}</h2><div id='by'>{links}</div></body></html>"

    unseen = [page(i, r) for i, r in enumerate(["著", "著译", "著译著", "著著", "著", "译著", "著著著"])]
    values = [{"authors": [NAMES[20 % 8]]}, {"authors": [NAMES[21 % 8]]}]
    wrapper = learn_wrapper([page(20, "著"), page(21, "著")], values, cluster_pages=unseen).wrapper
    assert wrapper.rules[0].until is None
    assert wrapper.apply(page(30, "著译著")) == {"authors": [NAMES[(30 + k) % 8] for k in range(3)]}


def contributors(i: int, authors: int, role: str | None) -> str:
    """``By: A, B, T (Translator)``: the other role's link is marked only by what follows it."""
    names = [NAMES[(i + k) % 8] for k in range(authors + (1 if role else 0))]
    links = ", ".join(f"<a class='c' href='/s?a={n}'>{n}</a>" for n in names)
    tail = f" <span class='role'>({role})</span>" if role else ""
    return f"<html><body><h1>Book {i}</h1><div id='by'><span>By: </span>{links}{tail}</div></body></html>"


def test_items_followed_by_a_role_are_left_out_when_no_sample_item_is():
    shapes = [(1, None), (2, "Translator"), (1, None), (3, None), (1, "Illustrator"), (2, None), (1, None),
              (2, None), (1, "Narrator"), (1, None)]
    unseen = [contributors(i, a, r) for i, (a, r) in enumerate(shapes)]
    values = [{"authors": [NAMES[20 % 8]]}, {"authors": [NAMES[21 % 8], NAMES[22 % 8]]}]
    wrapper = learn_wrapper([contributors(20, 1, None), contributors(21, 2, None)], values,
                            cluster_pages=unseen).wrapper
    assert wrapper.rules[0].unqualified
    assert wrapper.apply(contributors(40, 2, "Translator")) == {"authors": [NAMES[0], NAMES[1]]}
    assert wrapper.apply(contributors(41, 3, None)) == {"authors": [NAMES[1], NAMES[2], NAMES[3]]}
    assert Wrapper.from_json(wrapper.to_json()).rules[0].unqualified


def test_unqualified_must_be_true_or_false_in_a_wrapper_file():
    field = {"css": "a", "unqualified": "yes"}
    bad = {"format": "browsercrawl-wrapper/1", "fields": {"authors#text[]": field}}
    with pytest.raises(UserError, match=r"fields.authors#text\[\].unqualified must be true or false"):
        Wrapper.from_json(bad, "w.json")


def test_a_role_on_a_sample_keeps_the_names_class_on_the_generalised_path() -> None:
    """The third name on sample B has a role span beside it, so only its step carries the
    name's class; the path generalised over the items keeps that class and reads no role."""
    samples = [_contributors(["Olga Roe", "Jane Sato"]), _contributors(["Tom Hart", "Bo Li", "Mo Berg"], 2)]
    others = [
        _contributors(["Maria Wei", "Sara Smith", "Yuki Khan", "John Ivanova"], role_at=2),
        _contributors(["Ben Roe"]),
        _contributors(["John Smith", "Ana Wei", "Maria Smith"], role_at=2),
    ]
    values = [{"authors": ["Olga Roe", "Jane Sato"]}, {"authors": ["Tom Hart", "Bo Li", "Mo Berg"]}]
    result = learn_wrapper(samples, values, cluster_pages=others)
    names = ["Maria Wei", "Sara Smith", "Yuki Khan", "John Ivanova"]
    assert result.wrapper.apply(others[0]) == {"authors": names}


def two_blocks(i: int, authors: int, translators: int) -> str:
    """Authors in one block, translators in a block of the same shape told apart by a modifier
    class (``by by--translators``) and its own label."""
    names = [NAMES[(i + k) % 8] for k in range(authors + translators)]
    link = "<a class='who' href='/s?q={0}'>{0}</a>".format
    body = "<div class='by'>av " + ", ".join(link(n) for n in names[:authors]) + "</div>"
    if translators:
        others = ", ".join(link(n) for n in names[authors:])
        body += f"<div class='by by--translators'>Översättare: {others}</div>"
    return f"<html><body><main><h1>Book {i}</h1>{body}<p>{200 + i} sidor</p></main></body></html>"


def test_items_of_a_block_the_samples_never_use_are_not_in_the_list():
    shapes = [(1, 1), (2, 0), (1, 0), (3, 1), (1, 2), (2, 1), (1, 0), (2, 0), (1, 1), (4, 0)]
    unseen = [two_blocks(i, a, t) for i, (a, t) in enumerate(shapes)]
    pages = [two_blocks(20, 1, 0), two_blocks(21, 3, 0)]
    values = [{"authors": [NAMES[20 % 8]]}, {"authors": [NAMES[(21 + k) % 8] for k in range(3)]}]
    wrapper = learn_wrapper(pages, values, cluster_pages=unseen).wrapper
    for i, (a, t) in enumerate([(1, 1), (2, 2), (3, 0)]):
        want = [NAMES[(40 + i + k) % 8] for k in range(a)]
        assert wrapper.apply(two_blocks(40 + i, a, t)) == {"authors": want}, (a, t)


def credits(i: int, authors: int, narrators: int, lead: str = "By", other: str = "Narrated by") -> str:
    """``<h2>By <span><a>A</a>, <a>B</a></span></h2><h2>Narrated by <span>...</span></h2>``: the
    other role's block has the authors' shape, tag and class; only its first words differ."""
    names = [NAMES[(i + k) % 8] for k in range(authors + narrators)]

    def block(words: str, people: list[str]) -> str:
        links = ", ".join(f"<a class='name' href='/s?q={n}'>{n}</a>" for n in people)
        return f"<h2 class='contributors'>{words} <span class='people'>{links}</span></h2>"

    second = block(other, names[authors:]) if narrators else ""
    return f"<html><body><h1>Book {i}</h1>{block(lead, names[:authors])}{second}<p>Vintage</p></body></html>"


@pytest.mark.parametrize("lead,other", [("By", "Narrated by"), ("af", "Oversat af")])
@pytest.mark.parametrize("sample_shapes", [[1, 1], [2, 3], [1, 2]])
def test_another_roles_block_of_the_same_shape_is_told_apart_by_its_first_words(
    lead: str, other: str, sample_shapes: list[int]
) -> None:
    """No sample has a narrator; on unseen pages a "Narrated by" block of the authors' very shape
    follows the authors' now and then: the list keeps to the block starting with "By" (and
    "Oversat af" is no block starting with "af")."""
    shapes = [(1, 0), (2, 1), (1, 0), (3, 0), (1, 2), (2, 0), (1, 0), (2, 1), (4, 0), (1, 1)]
    unseen = [credits(i, a, n, lead, other) for i, (a, n) in enumerate(shapes)]
    pages = [credits(20 + k, a, 0, lead, other) for k, a in enumerate(sample_shapes)]
    values = [{"authors": [NAMES[(20 + k + j) % 8] for j in range(a)]} for k, a in enumerate(sample_shapes)]
    wrapper = learn_wrapper(pages, values, cluster_pages=unseen).wrapper
    for i, (a, n) in enumerate([(3, 1), (1, 2), (2, 0)]):
        want = [NAMES[(40 + i + j) % 8] for j in range(a)]
        got = wrapper.apply(credits(40 + i, a, n, lead, other))
        assert got == {"authors": want}, (i, wrapper.rules[0].css)
    assert Wrapper.from_json(wrapper.to_json()).apply(credits(50, 2, 1, lead, other)) == {
        "authors": [NAMES[2], NAMES[3]]
    }


def test_a_lead_step_needs_words_in_a_wrapper_file() -> None:
    bad = {"format": "browsercrawl-wrapper/1", "fields": {"authors#text[]": 'h2:lead("") > a'}}
    with pytest.raises(UserError, match=r"w.json.*authors"):
        Wrapper.from_json(bad, "w.json")


def test_a_lead_step_takes_whole_words() -> None:
    """``h2:lead("By")`` takes "By Ann" but neither "Bye Ann" nor "Narrated by Ann"."""
    fields = {"a#text[]": 'h2:lead("By") > a'}
    rule = Wrapper.from_json({"format": "browsercrawl-wrapper/1", "fields": fields})
    html = "<html><body><h2>By <a>Ann</a></h2><h2>Bye <a>Bo</a></h2>"
    html += "<h2>Narrated by <a>Cy</a></h2></body></html>"
    assert rule.apply(html) == {"a": ["Ann"]}


def test_a_lead_ending_in_a_colon_needs_no_space_after_it() -> None:
    """"出版社：<a>Tor</a>": a label's colon ends its words; no space follows it in Chinese."""
    fields = {"p#text": 'li:lead("出版社：") > a', "b#text": 'li:lead("ISBN:") > b'}
    rule = Wrapper.from_json({"format": "browsercrawl-wrapper/1", "fields": fields})
    html = "<html><body><ul><li>作者：<a>Ann</a></li><li>出版社：<a>Tor</a> <a>追蹤</a></li>"
    html += "<li>ISBN:<b>123</b></li></ul></body></html>"
    assert rule.apply(html) == {"p": "Tor", "b": "123"}


def roles_line(i: int, authors: int, others: int, interleave: bool = False) -> str:
    """``<a>A</a>（著）／<a>B</a>（著）／<a>I</a>（イラスト）``: each name followed by its role; the
    illustrators come after the authors (or, ``interleave``, between them)."""
    names = [NAMES[(i + k) % 8] for k in range(authors + others)]
    roles = ["著"] * authors + ["イラスト"] * others
    if interleave and authors > 1 and others:
        roles[1], roles[-1] = roles[-1], roles[1]
    line = "／".join(f"<a href='/s?q={n}'>{n}</a>（{r}）" for n, r in zip(names, roles, strict=True))
    return f"<html><body><h1>Book {i}</h1><div class='author'><span>著者：</span>{line}</div></body></html>"


def test_items_followed_by_another_role_word_after_the_fields_are_left_out() -> None:
    shapes = [(1, 0), (2, 1), (1, 1), (3, 0), (1, 2), (2, 0), (1, 0), (3, 1)]
    unseen = [roles_line(i, a, o) for i, (a, o) in enumerate(shapes)]
    values = [{"authors": [NAMES[20 % 8]]}, {"authors": [NAMES[21 % 8], NAMES[22 % 8]]}]
    samples = [roles_line(20, 1, 0), roles_line(21, 2, 0)]
    wrapper = learn_wrapper(samples, values, cluster_pages=unseen).wrapper
    assert wrapper.rules[0].role == "著"
    assert wrapper.apply(roles_line(40, 2, 1)) == {"authors": [NAMES[0], NAMES[1]]}
    assert Wrapper.from_json(wrapper.to_json()).rules[0].role == "著"


def test_interleaved_roles_keep_every_contributor() -> None:
    """The roles alternate on unseen pages: they are each contributor's, not another list."""
    shapes = [(1, 0), (3, 1), (2, 1), (3, 0), (3, 1), (2, 0)]
    unseen = [roles_line(i, a, o, interleave=True) for i, (a, o) in enumerate(shapes)]
    values = [{"authors": [NAMES[20 % 8]]}, {"authors": [NAMES[21 % 8], NAMES[22 % 8]]}]
    samples = [roles_line(20, 1, 0), roles_line(21, 2, 0)]
    wrapper = learn_wrapper(samples, values, cluster_pages=unseen).wrapper
    assert wrapper.rules[0].role is None


def test_role_must_be_a_word_in_a_wrapper_file() -> None:
    bad = {"format": "browsercrawl-wrapper/1", "fields": {"authors#text[]": {"css": "a", "role": ""}}}
    with pytest.raises(UserError, match=r"fields.authors#text\[\].role must be a word"):
        Wrapper.from_json(bad, "w.json")


def byline_roles(i: int, authors: int, role: str | None) -> str:
    """Indigo's byline: "by A, B and C; illustrated by D and E", the other role's links alike."""
    names = [NAMES[(i + k) % 8] for k in range(authors + (2 if role else 0))]

    def links(people: list[str]) -> str:
        return ", ".join(f"<a class='c' href='/s?q={n}'>{n}</a>" for n in people[:-1]) + (
            f" and <a class='c' href='/s?q={people[-1]}'>{people[-1]}</a>" if len(people) > 1 else
            f"<a class='c' href='/s?q={people[0]}'>{people[0]}</a>")

    text = "by " + links(names[:authors]) + (f"; {role} by " + links(names[authors:]) if role else "")
    return f"<html><body><h1>Book {i}</h1><div class='contributors'>{text}</div><p>Tor</p></body></html>"


def test_a_run_ends_where_the_unseen_pages_name_another_role_after_a_semicolon() -> None:
    """No sample has an illustrator, so no sample shows the word that ends the authors; the
    unseen pages' "; illustrated by" and "; read by" share "by", which never parts two authors."""
    shapes = [(1, None), (2, "illustrated"), (3, None), (1, "read"), (2, None), (1, "translated"),
              (3, "read")]
    unseen = [byline_roles(i, a, r) for i, (a, r) in enumerate(shapes)]
    values = [{"authors": [NAMES[20 % 8]]}, {"authors": [NAMES[21 % 8], NAMES[22 % 8]]}]
    samples = [byline_roles(20, 1, None), byline_roles(21, 2, None)]
    wrapper = learn_wrapper(samples, values, cluster_pages=unseen).wrapper
    assert wrapper.apply(byline_roles(40, 3, "illustrated")) == {"authors": [NAMES[0], NAMES[1], NAMES[2]]}
    assert wrapper.apply(byline_roles(41, 1, "read")) == {"authors": [NAMES[1]]}


def tiki_rows(i: int, authors: int, translators: int) -> str:
    """Tiki's rows: "<div class=row><span>Tác giả: </span><a>A</a>, <a>B</a></div>" and a
    "Dịch giả:" row of the same shape: the label an element opening each row."""
    names = [NAMES[(i + k) % 8] for k in range(authors + translators)]

    def row(label: str, people: list[str]) -> str:
        links = ", ".join(f"<a href='/author/{n}'>{n}</a>" for n in people)
        return f"<div class='ofoDDL'><span>{label} </span>{links}</div>"

    rows = row("Tác giả:", names[:authors]) + (row("Dịch giả:", names[authors:]) if translators else "")
    return f"<html><body><div class='iopCMA'>{rows}</div><h1>Book {i}</h1></body></html>"


def test_another_roles_row_opened_by_its_own_label_element_is_left_out() -> None:
    shapes = [(1, 0), (2, 1), (1, 2), (3, 0), (2, 1), (1, 0), (2, 2)]
    unseen = [tiki_rows(i, a, t) for i, (a, t) in enumerate(shapes)]
    values = [{"authors": [NAMES[20 % 8]]}, {"authors": [NAMES[21 % 8], NAMES[22 % 8], NAMES[23 % 8]]}]
    wrapper = learn_wrapper([tiki_rows(20, 1, 0), tiki_rows(21, 3, 0)], values, cluster_pages=unseen).wrapper
    assert wrapper.apply(tiki_rows(40, 2, 1)) == {"authors": [NAMES[0], NAMES[1]]}, wrapper.rules[0].css


def test_a_blocks_label_element_is_its_first_child_right_before_the_items() -> None:
    """"<div><span>Tác giả: </span><a>A</a></div>" starts with its label; a price box whose first
    child is an MSRP line, not right before the price, does not start with "MSRP:"."""
    from browsercrawl.wrappers.leads import lead_text
    from browsercrawl.wrappers.model import parse_html

    root = parse_html("<html><body><div id='a'><span>Tác giả: </span><a>Ann Lee</a></div>"
                      "<div id='p'><div>MSRP: <span></span></div><div><span class='price'>$5</span></div>"
                      "</div></body></html>")
    assert lead_text(root.find(".//div[@id='a']"), root.find(".//a")) == "Tác giả:"
    assert lead_text(root.find(".//div[@id='p']"), root.find(".//span[@class='price']")) == ""


NAMES_TW = ["Ann Lee", "Bo Chen", "Cy Dunn", "Dee Fox", "Eve Gold", "Fay Hill", "Gus Ito", "Hal Jones"]


def follow_buttons(i: int, authors: int) -> str:
    """"作者： <a>A</a>, <a>B</a> <a class=btn>追蹤作者</a> <a target=_blank>新功能介紹</a>": a
    follow button and a what-is-this link close every page's run of author links."""
    names = [NAMES_TW[(i + k) % 8] for k in range(authors)]
    links = ", ".join(f"<a href='/search/{n.replace(' ', '+')}/adv_author/'>{n}</a>" for n in names)
    buttons = "<a href='#' class='btn_follow'><span>追蹤作者</span></a> "
    buttons += "<a href='/new' target='_blank'>新功能介紹</a>"
    return (
        f"<html><body><h1>Book {i}</h1><ul class='info'><li>作者： {links} {buttons}</li>"
        f"<li>出版社：<a href='/pub/{i % 3}'><span>House {i % 3}</span></a> {buttons}</li></ul></body></html>"
    )


@pytest.mark.parametrize("counts", [(1, 1), (2, 3), (1, 4)])
def test_buttons_closing_a_run_of_links_are_no_items(counts: tuple[int, int]) -> None:
    """Items of the run the samples leave out, each with a mark of its own (a class, a
    ``target``) that no sample item has, are left out of the list."""
    samples = [follow_buttons(i, n) for i, n in zip((0, 1), counts, strict=True)]
    # One author is given as a string, several as a list (what a user types).
    pairs = list(zip((0, 1), counts, strict=True))
    values = [{"authors": NAMES_TW[i] if n == 1 else NAMES_TW[i : i + n]} for i, n in pairs]
    unseen = [follow_buttons(i, 1 + i % 3) for i in range(2, 14)]
    wrapper = learn_wrapper(samples, values, cluster_pages=unseen).wrapper
    for i in (20, 21, 22):
        want = [NAMES_TW[(i + k) % 8] for k in range(1 + i % 3)]
        assert wrapper.apply(follow_buttons(i, 1 + i % 3)) == {"authors": want}, wrapper.rules[0].css


def role_grouped(i: int) -> str:
    """Aladin's byline: "<a>A</a>, <a>B</a> (지은이), <a>C</a> (엮은이) | <a>Tor</a> | 2019-03-26",
    every name and the publisher a link of one shape; the role word after each role's group."""
    authors = [NAMES_TW[(i + k) % 8] for k in range(1 + i % 3)]
    link = "<a class='t' href='/s?q={0}'>{0}</a>"
    line = ", ".join(link.format(n) for n in authors) + " (지은이)"
    if i % 2:
        line += ", " + link.format(NAMES_TW[(i + 5) % 8]) + " (엮은이)"
    line += f" | {link.format(f'House {i % 4}')} | 2019-03-2{i % 10}"
    return f"<html><body><h1>Book {i}</h1><ul><li class='t'>{line}</li></ul></body></html>"


def test_a_run_ends_at_its_role_word_though_later_roles_have_words_of_their_own():
    """The authors' run ends at "(지은이)"; the other roles' gaps after it ("(엮은이) |") have
    words too, which do not make "지은이" a role of each item."""
    samples = [role_grouped(6), role_grouped(8)]  # one and three authors, no other role
    values = [{"authors": NAMES_TW[6]}, {"authors": [NAMES_TW[0], NAMES_TW[1], NAMES_TW[2]]}]
    wrapper = learn_wrapper(samples, values, cluster_pages=[role_grouped(i) for i in range(9, 21)]).wrapper
    for i in (21, 22, 23, 25):
        want = [NAMES_TW[(i + k) % 8] for k in range(1 + i % 3)]
        assert wrapper.apply(role_grouped(i)) == {"authors": want}, (i, wrapper.rules[0])


def microdata_byline(i: int) -> str:
    """Book Depository: "By (author) <span itemprop="author"><a>A</a></span>, Translated by
    <span itemprop="contributor"><a>T</a></span>": names in one shape, told by their wrappers."""
    person = "<span itemprop='{0}' itemscope><a itemprop='name' href='/author/{1}'>{1}</a></span>"
    names = [NAMES_TW[(i + k) % 8] for k in range(1 + i % 3)]
    line = "By (author) " + " , ".join(person.format("author", n) for n in names)
    if i % 2:
        line += " , Translated by " + person.format("contributor", NAMES_TW[(i + 5) % 8])
    return f"<html><body><h1>Book {i}</h1><div class='author-info'>{line}</div></body></html>"


@pytest.mark.parametrize("pair", [(6, 8), (6, 12)])
def test_another_roles_items_are_told_by_their_wrappers_machine_read_mark(pair: tuple[int, int]) -> None:
    """No sample has a translator; on other pages the translator's link, of the authors' shape,
    stands in a wrapper another ``itemprop`` names: the list goes through the authors' wrappers,
    and keeps to them after a redesign."""
    def authors(i: int) -> list[str]:
        return [NAMES_TW[(i + k) % 8] for k in range(1 + i % 3)]

    samples = [microdata_byline(i) for i in pair]
    values = [{"authors": a if len(a := authors(i)) > 1 else a[0]} for i in pair]
    unseen = [microdata_byline(i) for i in range(13, 25)]
    wrapper = learn_wrapper(samples, values, cluster_pages=unseen).wrapper
    assert 'itemprop="author"' in wrapper.rules[0].css
    healer = HealingWrapper(wrapper)
    for i in (25, 27, 29):
        assert wrapper.apply(microdata_byline(i)) == {"authors": authors(i)}
        redesigned = microdata_byline(i).replace("<div class='author-info'>", "<div class='x9'><p>")
        assert healer.apply(redesigned) == {"authors": authors(i)}, healer.wrapper.rules[0].css
