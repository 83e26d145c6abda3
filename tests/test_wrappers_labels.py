"""Labels that are not a bare leaf text: an icon named by its tooltip, a label wrapped in a span.

Optional rows shift every position after them, so only the label tells the value; these pages
have one optional row ("Edition") on some pages and not on others.
"""

from __future__ import annotations

import json

from browsercrawl.wrappers import learn_wrapper


def icon_page(fmt: str, sku: str, edition: str | None = None) -> str:
    facts = [("building", "Publisher", "Tor")]
    if edition:
        facts.append(("star", "Edition", edition))
    facts += [("book", "Format", fmt), ("tag", "Item", sku)]
    items = "".join(
        f"<li><i class='bi bi-{icon}' title='{t}' aria-hidden='true'></i> <span>{v}</span></li>"
        for icon, t, v in facts
    )
    return f"<html><body><h1>T</h1><ul class='facts'>{items}</ul></body></html>"


def test_an_icon_with_a_title_labels_the_value_after_it() -> None:
    samples = [icon_page("Hardcover", "BK-101"), icon_page("Paperback", "BK-102")]
    others = [
        icon_page("Paperback", "BK-203", "2nd edition"),
        icon_page("Hardcover", "BK-204"),
        icon_page("Mass Market Paperback", "BK-205", "Revised edition"),
        icon_page("Paperback", "BK-206"),
    ]
    values = [{"binding": "Hardcover", "sku": "BK-101"}, {"binding": "Paperback", "sku": "BK-102"}]
    result = learn_wrapper(samples, values, cluster_pages=others)
    rules = {r.label: r for r in result.wrapper.rules}
    assert '[title="Format"]' in rules["binding"].css
    assert result.wrapper.apply(others[2]) == {"binding": "Mass Market Paperback", "sku": "BK-205"}


def dl_page(isbn: str, pages: str, edition: str | None = None) -> str:
    groups = [("Verlag", "Tor")]
    if edition:
        groups.append(("Auflage", edition))
    groups += [("Seitenzahl", pages), ("ISBN", isbn)]
    dl = "".join(
        f"<div><dt><span class='lbl'>{k}</span></dt><dd><span class='val'>{v}</span></dd></div>"
        for k, v in groups
    )
    return f"<html><body><h1>T</h1><dl>{dl}</dl></body></html>"


def test_a_label_wrapped_in_a_span_still_labels_the_value() -> None:
    samples = [dl_page("9780140449136", "320"), dl_page("9780306406157", "211")]
    others = [
        dl_page("9781861972712", "455", "2. Auflage"),
        dl_page("9780262033848", "120"),
        dl_page("9780131103627", "272", "3. Auflage"),
    ]
    values = [{"isbn": "9780140449136"}, {"isbn": "9780306406157"}]
    result = learn_wrapper(samples, values, cluster_pages=others)
    assert ':contains("ISBN")' in result.wrapper.rules[0].css
    assert result.wrapper.apply(others[2]) == {"isbn": "9780131103627"}


def test_a_french_list_written_a_b_et_c_is_split() -> None:
    def page(by: str) -> str:
        return f"<html><body><h1>T</h1><p class='auteurs'>{by}</p><p>Tor</p></body></html>"

    samples = [page("Ann Lee, Bo Chen et Cy Dunn"), page("Dee Fox")]
    values = [{"authors": ["Ann Lee", "Bo Chen", "Cy Dunn"]}, {"authors": "Dee Fox"}]
    result = learn_wrapper(samples, values, cluster_pages=[page("Eve Gold et Fay Hill"), page("Gus Ito")])
    assert result.wrapper.apply(page("Eve Gold et Fay Hill")) == {"authors": ["Eve Gold", "Fay Hill"]}


def tab_page(fmt: str, sku: str, edition: str | None = None) -> str:
    rows = (
        [("Publisher", "Tor")] + ([("Edition", edition)] if edition else []) + [("Format", fmt), ("ID", sku)]
    )
    table = "".join(f"<tr><td class='k'>{k}</td><td class='v'>{v}</td></tr>" for k, v in rows)
    return f"<html><body><h1>T</h1><div role='tabpanel' hidden><table>{table}</table></div></body></html>"


def test_a_hidden_label_labels_a_value_hidden_with_it() -> None:
    """Details in a closed tab: label and value are both hidden, the label still tells the row."""
    samples = [tab_page("Hardcover", "BK-101"), tab_page("Paperback", "BK-102")]
    others = [
        tab_page("Paperback", "BK-203", "2nd"),
        tab_page("Hardcover", "BK-204"),
        tab_page("Paperback", "BK-5", "3rd"),
    ]
    values = [{"binding": "Hardcover", "sku": "BK-101"}, {"binding": "Paperback", "sku": "BK-102"}]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    assert wrapper.apply(others[0]) == {"binding": "Paperback", "sku": "BK-203"}


def value_first_page(isbn: str, sku: str, edition: str | None = None) -> str:
    facts = (
        [("Tor", "publisher")]
        + ([(edition, "edition")] if edition else [])
        + [(isbn, "ISBN-13"), (sku, "our code")]
    )
    items = "".join(f"<li><b>{v}</b> <span class='what'>{k}</span></li>" for v, k in facts)
    return f"<html><body><h1>T</h1><ul class='facts'>{items}</ul></body></html>"


def test_a_label_after_its_value_labels_it() -> None:
    samples = [value_first_page("9780140449136", "BK-101"), value_first_page("9780306406157", "BK-102")]
    others = [
        value_first_page("9781861972712", "BK-203", "2nd edition"),
        value_first_page("9780262033848", "BK-204"),
        value_first_page("9780131103627", "BK-205", "Revised edition"),
    ]
    values = [{"isbn": "9780140449136", "sku": "BK-101"}, {"isbn": "9780306406157", "sku": "BK-102"}]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    assert ':contains("ISBN-13")' in wrapper.rules[0].css
    assert wrapper.apply(others[2]) == {"isbn": "9780131103627", "sku": "BK-205"}


def test_a_sentence_ending_the_list_is_cut_at_its_end_not_at_an_initial() -> None:
    def page(by: str) -> str:
        return f"<html><body><h2>T</h2><p class='meta'>Written by {by}.</p></body></html>"

    others = [
        page("Tom L. Berg"),
        page("Bo Chen, Al Q. Wu and Li Wei"),
        page("Al Wu"),
        page("Cy Dunn and Eve Gold"),
    ]
    samples = [page("Ana Hart"), page("Peter Hart")]
    result = learn_wrapper(
        samples, [{"authors": "Ana Hart"}, {"authors": "Peter Hart"}], cluster_pages=others
    )
    assert result.wrapper.apply(others[0]) == {"authors": ["Tom L. Berg"]}
    assert result.wrapper.apply(others[1]) == {"authors": ["Bo Chen", "Al Q. Wu", "Li Wei"]}


def cms_page(authors: list[str]) -> str:
    items = "".join(f"<div class='field__item'>{a}</div>" for a in authors)
    inner = f"<div class='field__items'>{items}</div>" if len(authors) > 1 else items
    return (
        "<html><body><h1>T</h1><div class='content'><div class='field field--author'>"
        f"<div class='field__label'>Author</div>{inner}</div></div></body></html>"
    )


def test_items_wrapped_only_when_there_are_several_are_found_either_way() -> None:
    others = [
        cms_page(["Cy Dunn"]),
        cms_page(["Dee Fox", "Eve Gold"]),
        cms_page(["Fay Hill"]),
        cms_page(["Gus Ito"]),
    ]
    for samples, values in (
        ([cms_page(["Ann Lee"]), cms_page(["Bo Chen"])], [{"authors": "Ann Lee"}, {"authors": "Bo Chen"}]),
        (
            [cms_page(["Ann Lee", "Bo Chen"]), cms_page(["Hal Jones", "Ida King"])],
            [{"authors": ["Ann Lee", "Bo Chen"]}, {"authors": ["Hal Jones", "Ida King"]}],
        ),
    ):
        wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
        assert wrapper.apply(others[0]) == {"authors": ["Cy Dunn"]}
        assert wrapper.apply(others[1]) == {"authors": ["Dee Fox", "Eve Gold"]}


HOUSES = ("Penguin Books", "Tor", "Vintage", "Harper Collins")


def _specs(i: int, imprint: str) -> str:
    """A specifications table whose "Imprint" row (first) often names another house."""
    rows = [("Imprint", imprint), ("Publisher", HOUSES[i % 4]), ("Pages", str(200 + i))]
    body = "".join(f"<tr><td class='k'>{k}</td><td class='v'>{v}</td></tr>" for k, v in rows)
    return f"<html><body><h1>Book {i}</h1><table class='specs'>{body}</table></body></html>"


def test_of_two_rows_the_samples_cannot_tell_apart_the_one_labelled_with_the_fields_name_wins():
    samples = [_specs(i, HOUSES[i % 4]) for i in (1, 2)]  # imprint = publisher on both samples
    unseen = [_specs(i, HOUSES[(i + i // 4) % 4]) for i in range(3, 15)]
    values = [{"publisher": HOUSES[1]}, {"publisher": HOUSES[2]}]
    result = learn_wrapper(samples, values, cluster_pages=unseen)
    for i in range(15, 23):
        assert result.wrapper.apply(_specs(i, HOUSES[(i + 1) % 4])) == {"publisher": HOUSES[i % 4]}


def _shop(i: int, imprint: str) -> str:
    """A "Brand" line under the title and an "Imprint" row in the specifications (first in the
    document), neither labelled "publisher"; the JSON-LD names the brand."""
    house = HOUSES[i % 4]
    ld = f'<script type="application/ld+json">{{"@type": "Product", "brand": "{house}"}}</script>'
    specs = (f"<table><tr><td>Imprint</td><td>{imprint}</td></tr>"
             f"<tr><td>Pages</td><td>{300 + i}</td></tr></table>")
    info = f"<ul><li>Brand: <a href='/m/{i}'>{house}</a></li><li>Code: BK-{i}</li></ul>"
    return f"<html><head>{ld}</head><body>{specs}<h1>Book {i}</h1>{info}</body></html>"


def test_of_rows_the_samples_cannot_tell_apart_the_one_the_structured_data_backs_wins():
    samples = [_shop(i, HOUSES[i % 4]) for i in (1, 2)]
    unseen = [_shop(i, HOUSES[(i + i // 4) % 4]) for i in range(3, 15)]
    values = [{"publisher": HOUSES[1]}, {"publisher": HOUSES[2]}]
    result = learn_wrapper(samples, values, cluster_pages=unseen)
    for i in range(15, 23):
        assert result.wrapper.apply(_shop(i, HOUSES[(i + 1) % 4])) == {"publisher": HOUSES[i % 4]}, i


def _params(rows: list[tuple[str, str]]) -> str:
    items = "".join(f"<li title='{v}'>{k}：{v}</li>" for k, v in rows)
    return f"<html><body><h1>T</h1><ul id='params'>{items}</ul></body></html>"


def test_a_row_the_samples_share_by_chance_before_the_value_is_not_its_label():
    """Rows in the seller's order; on both samples the date follows "版次：2nd edition", a label
    with its value (other pages show "版次：Revised"). Asked for as the date's label it failed
    every candidate alike, and the path after that row won; the date is read by its own label."""
    samples = [
        _params([("ISBN", "9788186023563"), ("版次", "2nd edition"), ("出版时间", "2021-03-02")]),
        _params([("版次", "2nd edition"), ("出版时间", "2019-06-18"), ("ISBN", "9789231685651")]),
    ]
    others = [
        _params([("出版时间", "2021-01-28"), ("ISBN", "9782591837968")]),
        _params([("ISBN", "9782591837975"), ("出版时间", "2020-06-27"), ("页数", "254")]),
        _params([("页数", "583"), ("ISBN", "9782591837982"), ("出版时间", "2018-03-02")]),
        _params([("出版时间", "2019-12-05"), ("版次", "Revised"), ("ISBN", "9782591837999")]),
        _params([("ISBN", "9782591838002"), ("出版时间", "2020-01-20")]),
    ]
    values = [{"published": "2021-03-02"}, {"published": "2019-06-18"}]
    result = learn_wrapper(samples, values, cluster_pages=others)
    got = [result.wrapper.apply(p)["published"] for p in others]
    assert got == ["2021-01-28", "2020-06-27", "2018-03-02", "2019-12-05", "2020-01-20"]


def _spec_table(authors: list[str], rows: list[tuple[str, str]]) -> str:
    people = "".join(f"<li>{a}</li>" for a in authors)
    body = f"<tr><th>Author</th><td><ul>{people}</ul></td></tr>"
    body += "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<html><body><h1>T</h1><table><tbody>{body}</tbody></table></body></html>"


def test_a_shared_value_is_placed_by_the_cell_it_comes_from_not_the_paths_first_match():
    """Both samples from one publisher, so the record's other fields place it. ``tr > td``
    read as own text starts at the author cell (a list, no text of its own) and was ranked by
    that cell's nearness to the authors; it gives the publisher only while the rows keep their
    order. The cell the value comes from is the publisher's; the label path is kept."""
    samples = [
        _spec_table(["Ann Lee"], [("Publisher", "Penguin Books"), ("ISBN", "9780140449136")]),
        _spec_table(["Bo Chen", "Cy Dunn"], [("Publisher", "Penguin Books"), ("ISBN", "9780140455113")]),
    ]
    others = [
        _spec_table(["Dee Fox"], [("Publisher", "Tor"), ("ISBN", "9780679783275")]),
        _spec_table(["Eve Gold"], [("Publisher", "Vintage"), ("ISBN", "9780679783282")]),
        _spec_table(["Fay Hill", "Gus Ito"], [("Publisher", "Orbit"), ("ISBN", "9780679783299")]),
    ]
    values = [
        {"authors": ["Ann Lee"], "publisher": "Penguin Books"},
        {"authors": ["Bo Chen", "Cy Dunn"], "publisher": "Penguin Books"},
    ]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    reordered = _spec_table(["Hal Jones"], [("ISBN", "9780679783305"), ("Publisher", "Tor")])
    assert wrapper.apply(reordered)["publisher"] == "Tor"


def details(fmt: str, publisher: str, isbn: str, rows: int = 0) -> str:
    """ "<li>Print edition: <span>Paperback</span></li>": each label is its row's first words, in
    the row's own text, beside the value's element. ``rows`` optional rows come first."""
    facts = [("Series:", f"Saga {k}") for k in range(rows)]
    facts += [("Imprint:", publisher), ("ISBN:", isbn), ("Print edition:", fmt), ("Language:", "English")]
    items = "".join(f"<li>{label} <span>{value}</span></li>" for label, value in facts)
    return f"<html><body><h1>T</h1><div class='details'><ul>{items}</ul></div></body></html>"


def test_the_words_a_row_starts_with_label_the_value_in_it() -> None:
    samples = [details("Hardcover", "Tor", "9781111111111"), details("Paperback", "Orbit", "9782222222222")]
    others = [
        details("Paperback", "Tor", "9783333333333", rows=1),
        details("Ebook", "Penguin", "9784444444444"),
        details("Hardcover", "Orbit", "9785555555555", rows=2),
        details("Paperback", "Vintage", "9786666666666"),
    ]
    values = [{"binding": "Hardcover"}, {"binding": "Paperback"}]
    result = learn_wrapper(samples, values, cluster_pages=others)
    rule = result.wrapper.rules[0]
    assert ':lead("Print edition:")' in rule.css
    assert rule.fingerprint["label"] == "Print edition:"
    page = details("Audio CD", "Tor", "9787777777777", rows=2)
    assert result.wrapper.apply(page) == {"binding": "Audio CD"}


def test_the_words_before_a_value_in_its_row_label_it_not_the_heading_above_the_rows() -> None:
    """``<h1>The Glass</h1><ul><li>Brand: <a>Tor</a></li>``: the label is "Brand:"."""
    from browsercrawl.wrappers.dom import page_of
    from browsercrawl.wrappers.paths import text_label

    page = page_of("<html><body><div><h1>The Glass</h1><ul><li>Brand: <a href='/m/5'>Tor</a></li>"
                   "<li>Product Code: BK-1</li></ul></div></body></html>")
    assert text_label(page.root.find(".//a"), page) == "Brand:"


def formats_page(i: int, label: str = "Indbinding") -> str:
    """The current format told two ways: the active tile (by its class alone) and a labelled
    row of the details list."""
    formats = ["Hardcover", "Paperback", "Mass Market Paperback"]
    mine = formats[i % 3]
    tiles = "".join(
        f"<li class='format{' format--active' if f == mine else ''}'><span class='format__name'>{f}</span>"
        "</li>"
        for f in formats
    )
    return (f"<html><body><h1>Book {i}</h1><ul class='formats'>{tiles}</ul><dl class='details'>"
            f"<dt>Forlag</dt><dd>Tor</dd><dt>{label}</dt><dd>{mine}</dd><dt>Sidetal</dt><dd>{100 + i}</dd>"
            "</dl></body></html>")


def test_a_value_in_a_labelled_row_is_learned_from_the_row_not_from_a_tile_only_its_class_tells():
    samples = [formats_page(1), formats_page(2)]
    values = [{"binding": "Paperback"}, {"binding": "Mass Market Paperback"}]
    result = learn_wrapper(samples, values, cluster_pages=[formats_page(i) for i in range(3, 12)])
    assert 'dt:contains("Indbinding")' in result.wrapper.rules[0].css


def test_rows_before_a_value_are_no_lead_and_its_label_after_it_still_counts() -> None:
    """``<li><b>Hardcover</b> <span>format</span></li>`` after other such rows: the rows' text
    before it is no label; "format" after it is."""
    from browsercrawl.wrappers.dom import page_of
    from browsercrawl.wrappers.paths import text_label

    page = page_of("<html><body><ul><li><b>Vintage</b> <span>publisher</span></li>"
                   "<li><b>Hardcover</b> <span>format</span></li></ul></body></html>")
    assert text_label(page.root.findall(".//b")[1], page) == "format"


def info_page(i: int, publisher: str, linked: bool) -> str:
    """Douban's info block: "出版社:" then the house as a link on some pages, bare on others."""
    house = f"<a href='/press/{i}'>{publisher}</a>" if linked else publisher
    return (f"<html><body><h1>Book {i}</h1><div id='info'><span class='pl'>作者</span>: "
            f"<a href='/a'>Ann Lee</a><br><span class='pl'>出版社:</span> {house}<br>"
            f"<span class='pl'>出版年:</span> 2020-{i}-1<br>"
            "</div></body></html>")


def test_a_value_linked_on_some_pages_and_bare_on_others_is_cut_from_its_line() -> None:
    houses = ["Tor", "Vintage", "Orbit", "Penguin Books"]
    unseen = [info_page(i, houses[i % 4], linked=i % 2 == 0) for i in range(3, 12)]
    for linked in ((True, True), (True, False), (False, True)):
        samples = [info_page(1, "Tor", linked[0]), info_page(2, "Orbit", linked[1])]
        result = learn_wrapper(samples, [{"publisher": "Tor"}, {"publisher": "Orbit"}], cluster_pages=unseen)
        for i in (12, 13):
            page = info_page(i, "Vintage", linked=i % 2 == 0)
            assert result.wrapper.apply(page) == {"publisher": "Vintage"}, (linked, result.wrapper.rules[0])


def listing(i: int, authors: list[str]) -> str:
    """Mercado Libre: the heading parts the names with " - " ("Libro T - A - B - Tor"); the
    specs table writes them "A, B" under "Autor"."""
    return (f"<html><body><h1>Libro Book {i} - {' - '.join(authors)} - Tor</h1><table><tbody>"
            f"<tr><th>Título</th><td><span>Book {i}</span></td></tr>"
            f"<tr><th>Autor</th><td><span>{', '.join(authors)}</span></td></tr>"
            f"<tr><th>Editorial</th><td><span>Tor</span></td></tr></tbody></table></body></html>")


def test_a_list_written_in_a_cell_is_read_there_when_a_heading_parts_it_otherwise() -> None:
    people = ["Ann Lee", "Bo Chen", "Cy Dunn", "Dee Fox", "Eve Gold"]
    unseen = [listing(i, people[i % 5 : i % 5 + 1 + i % 3]) for i in range(3, 12)]
    for sample_people in ([people[:3], people[1:3]], [people[:1], people[2:3]]):
        samples = [listing(1, sample_people[0]), listing(2, sample_people[1])]
        values = [{"authors": sample_people[0]}, {"authors": sample_people[1]}]
        result = learn_wrapper(samples, values, cluster_pages=unseen)
        got = result.wrapper.apply(listing(20, people[1:4]))
        assert got == {"authors": people[1:4]}, (sample_people, result.wrapper.rules)


def listing_described(i: int, authors: list[str]) -> str:
    """The listing again, with the seller's description naming the authors in a sentence that
    goes on with other words on some pages ("Autor: A Ilustraciones de B")."""
    more = f" Ilustraciones de {authors[-1]}" if i % 3 == 0 else ""
    described = f"<p class='desc'>LIBRO NUEVO. Autor: {' y '.join(authors[:1])}{more}. Editorial: Tor</p>"
    return listing(i, authors).replace("</table>", f"</table>{described}")


def test_one_name_on_each_sample_is_read_from_the_list_not_from_a_sentence_naming_the_first() -> None:
    people = ["Ann Lee", "Bo Chen", "Cy Dunn", "Dee Fox", "Eve Gold"]
    unseen = [listing_described(i, people[i % 5 : i % 5 + 1 + i % 3]) for i in range(3, 15)]
    samples = [listing_described(1, ["Bo Chen"]), listing_described(2, ["Cy Dunn"])]
    result = learn_wrapper(samples, [{"authors": "Bo Chen"}, {"authors": "Cy Dunn"}], cluster_pages=unseen)
    got = result.wrapper.apply(listing_described(20, people[1:4]))
    assert got == {"authors": people[1:4]}, result.wrapper.rules


def accordion(i: int, publisher: str, series: bool) -> str:
    """Squarespace's details: "Label — value" paragraphs, a "Series —" row first on some pages."""
    rows = [f"Series — Salt Cycle {i}"] if series else []
    rows += [f"Publisher — {publisher}", f"Pages — {100 + i}"]
    return ("<html><body><h1>Book</h1><div class='acc'><button>Details</button><div class='open'>"
            + "".join(f"<p>{r}</p>" for r in rows) + "</div></div></body></html>")


def test_a_row_naming_its_field_is_read_by_that_name_whatever_row_comes_before_it() -> None:
    houses = ["Tor", "Vintage", "Orbit", "Penguin Books"]
    unseen = [accordion(i, houses[i % 4], series=i % 3 == 0) for i in range(3, 15)]
    samples = [accordion(1, "Tor", False), accordion(2, "Vintage", False)]
    result = learn_wrapper(samples, [{"publisher": "Tor"}, {"publisher": "Vintage"}], cluster_pages=unseen)
    assert result.wrapper.apply(accordion(30, "Penguin Books", series=True)) == {"publisher": "Penguin Books"}


def listing_with_formats(i: int, price: str, binding: str) -> str:
    """Etsy: the price in the buy box (JSON-LD states its amount), and a format select whose
    last option is always the paperback's price."""
    prices = {"Hardcover": f"US${20 + i}.10", "Paperback": f"US${10 + i}.20"}
    prices[binding] = price
    options = "".join(f"<option>{b} ({p})</option>" for b, p in prices.items())
    data = json.dumps({"offers": {"price": price.removeprefix("US$")}})
    return (f"<html><head><script type='application/ld+json'>{data}</script></head><body>"
            f"<h1>Book {i}</h1><p class='price'><span class='sr'>Price:</span>{price}</p>"
            f"<select id='fmt'>{options}</select></body></html>")


def test_of_two_prices_alike_on_the_samples_the_one_the_structured_data_states_wins() -> None:
    formats = ["Hardcover", "Paperback"]
    unseen = [listing_with_formats(i, f"US${30 + i}.55", formats[i % 2]) for i in range(3, 13)]
    samples = [listing_with_formats(k, f"US${30 + k}.55", "Paperback") for k in (1, 2)]
    result = learn_wrapper(samples, [{"price": "US$31.55"}, {"price": "US$32.55"}], cluster_pages=unseen)
    assert result.wrapper.apply(listing_with_formats(40, "US$70.55", "Hardcover")) == {"price": "US$70.55"}


def _basic_info(i: int, extra_rows: int) -> str:
    """Aladin's "기본정보": bare facts, then "ISBN : ..." and "상품코드 : ..." rows; the ISBN also in
    a hidden input (structured data a machine reads), the shop code nowhere else."""
    isbn = f"978{1000000000 + 7919 * i}"
    facts = ["Paperback", f"{100 + i}쪽", "133*198mm", "영어"][: 2 + extra_rows]
    facts = "".join(f"<li>{f}</li>" for f in facts)
    rows = f"<li>ISBN : {isbn}</li><li>상품코드 : BK-{10000 + i}</li>"
    return (
        f"<html><body><input type='hidden' name='isbn' value='{isbn}'><h1>Book {i}</h1>"
        f"<div class='info'><ul>{facts}{rows}</ul></div></body></html>"
    )


def test_structured_data_that_never_holds_the_samples_values_does_not_pick_the_path():
    """Both samples with the same rows: "the fourth row" and "the row labelled 상품코드" read
    the same; on other pages the fourth row is the ISBN, which the hidden input holds. That
    data does not back the shop code (it holds neither sample's), so the label path stays."""
    samples = [_basic_info(1, 0), _basic_info(2, 0)]
    values = [{"sku": "BK-10001"}, {"sku": "BK-10002"}]
    unseen = [_basic_info(i, i % 2) for i in range(3, 15)]
    wrapper = learn_wrapper(samples, values, cluster_pages=unseen).wrapper
    for i in range(15, 21):
        assert wrapper.apply(_basic_info(i, i % 2)) == {"sku": f"BK-{10000 + i}"}, (i, wrapper.rules[0].css)
