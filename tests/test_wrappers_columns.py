"""Values told apart only by the label in a parallel column or a header row."""

from __future__ import annotations

from browsercrawl.wrappers import Wrapper, learn_wrapper
from browsercrawl.wrappers.heal import HealingWrapper


def columns(rows: list[tuple[str, str]], cls: str = "values") -> str:
    labels = "".join(f"<div>{k}</div>" for k, _ in rows)
    values = "".join(f"<div>{v}</div>" for _, v in rows)
    grid = f"<div class='grid'><div class='labels'>{labels}</div><div class='{cls}'>{values}</div></div>"
    return f"<html><body><h1>Book</h1>{grid}</body></html>"


def book(isbn: str, edition: str | None = None, cls: str = "values") -> str:
    rows = (
        [("Title", "Book")] + ([("Edition", edition)] if edition else []) + [("ISBN", isbn), ("Pages", "300")]
    )
    return columns(rows, cls)


def test_a_value_column_is_read_by_the_label_column_beside_it():
    # Both samples lack the optional row: a position works on them, not on pages that have it.
    samples = [book("9780140449136"), book("9780140455113")]
    others = [book(i, "2nd" if n % 2 else None) for n, i in enumerate(["9780679783275", "9780140447934"] * 4)]
    result = learn_wrapper(
        samples, [{"isbn": "9780140449136"}, {"isbn": "9780140455113"}], cluster_pages=others
    )
    rule = result.wrapper.rules[0]
    assert rule.column == {"labels": rule.column["labels"], "label": "ISBN", "with": ["Title", "Pages"]}
    assert result.wrapper.apply(book("9780679783275", "Revised")) == {"isbn": "9780679783275"}
    again = Wrapper.from_json(result.wrapper.to_json())
    assert again.apply(book("9780679783275", "Revised")) == {"isbn": "9780679783275"}


def test_a_header_row_labels_the_cells_of_the_row_below():
    def table(price: str, extra: bool) -> str:
        head = "<th>Format</th><th>Pages</th>" + ("<th>Stock</th>" if extra else "") + "<th>Price</th>"
        row = "<td>Paperback</td><td>320</td>" + ("<td>12</td>" if extra else "") + f"<td>{price}</td>"
        return f"<html><body><table><tr>{head}</tr><tr>{row}</tr></table></body></html>"

    samples = [table("$5.00", False), table("$7.50", False)]
    others = [table(f"${n}.99", n % 2 == 0) for n in range(2, 10)]
    result = learn_wrapper(samples, [{"price": "$5.00"}, {"price": "$7.50"}], cluster_pages=others)
    assert result.wrapper.apply(table("$9.99", True)) == {"price": "$9.99"}


def test_a_column_field_heals_by_its_label():
    samples = [book("9780140449136"), book("9780140455113", "2nd")]
    others = [book(i, "2nd" if n % 2 else None) for n, i in enumerate(["9780679783275", "9780140447934"] * 4)]
    wrapper = learn_wrapper(
        samples, [{"isbn": "9780140449136"}, {"isbn": "9780140455113"}], cluster_pages=others
    ).wrapper
    healer = HealingWrapper(wrapper)
    # The class of the value column was renamed: the path finds nothing; the label still tells.
    assert healer.apply(book("9780679783275", "Revised", cls="vals")) == {"isbn": "9780679783275"}
    assert healer.apply(book("9780140447934", None, cls="vals")) == {"isbn": "9780140447934"}
    assert len(healer.repairs) == 1


def wide(authors: list[str], publisher: str, isbn: str, series: str | None = None) -> str:
    """A header row in <thead> over one data row in <tbody>; an optional column; authors a line each."""
    cols = [("Title", "Book"), ("Author", "<br>".join(authors))]
    cols += [("Series", series)] if series else []
    cols += [("Publisher", publisher), ("ISBN", isbn), ("Pages", "300")]
    head = "".join(f"<th>{k}</th>" for k, _ in cols)
    row = "".join(f"<td>{v}</td>" for _, v in cols)
    table = f"<table><thead><tr>{head}</tr></thead><tbody><tr>{row}</tr></tbody></table>"
    return f"<html><body><h1>Book</h1>{table}</body></html>"


def test_a_header_row_in_thead_labels_the_data_row_and_lines_in_a_cell_are_a_list():
    # Both samples share the publisher and lack the optional column: only the header tells.
    samples = [wide(["Ann Lee"], "Tor", "9780140449136"), wide(["Bo Chen"], "Tor", "9780140455113")]
    others = [
        wide(["Cy Dunn", "Dee Fox"], "Vintage", "9780679783275", "Saga #1"),
        wide(["Eve Gold"], "Penguin Books", "9780140447934"),
        wide(["Fay Hill", "Gus Ito", "Hal Jones"], "Tor", "9780262033848", "Saga #2"),
        wide(["Ida King"], "Harper Collins", "9780131103627", "Saga #3"),
    ]
    values = [
        {"authors": "Ann Lee", "publisher": "Tor", "isbn": "9780140449136"},
        {"authors": "Bo Chen", "publisher": "Tor", "isbn": "9780140455113"},
    ]
    result = learn_wrapper(samples, values, cluster_pages=others)
    assert result.wrapper.apply(others[2]) == {
        "authors": ["Fay Hill", "Gus Ito", "Hal Jones"],
        "publisher": "Tor",
        "isbn": "9780262033848",
    }
    assert result.wrapper.apply(others[0])["publisher"] == "Vintage"
    assert result.wrapper.apply(samples[0])["authors"] == ["Ann Lee"]
    # Given as a list on a sample, the lines are learned as the list at once.
    values[0]["authors"] = ["Cy Dunn", "Dee Fox"]
    result = learn_wrapper([others[0], samples[1]], values, cluster_pages=others[1:])
    again = Wrapper.from_json(result.wrapper.to_json())
    assert again.apply(others[2])["authors"] == ["Fay Hill", "Gus Ito", "Hal Jones"]


def with_related(page: str, first: bool) -> str:
    """``page`` with a related-books table (its own "Author" column) before or after the book's."""
    rel = (
        "<table><thead><tr><th>Title</th><th>Author</th><th>Price</th></tr></thead><tbody>"
        "<tr><td>Other</td><td>Zed Quinn</td><td>$5.00</td></tr></tbody></table>"
    )
    head, body = page.split("<table>", 1)
    return head + (rel + "<table>" + body if first else "<table>" + body.replace("</body>", rel + "</body>"))


def test_a_column_is_read_from_the_row_of_its_own_labels_when_another_table_has_the_label():
    samples = [with_related(wide(["Ann Lee"], "Tor", "9780140449136"), False)]
    samples.append(with_related(wide(["Bo Chen"], "Vintage", "9780140455113"), False))
    others = [
        with_related(wide(["Cy Dunn", "Dee Fox"], "Vintage", "9780679783275", "Saga #1"), False),
        with_related(wide(["Eve Gold"], "Penguin Books", "9780140447934"), False),
        with_related(wide(["Fay Hill", "Gus Ito"], "Tor", "9780262033848"), False),
    ]
    values = [
        {"authors": "Ann Lee", "isbn": "9780140449136"},
        {"authors": "Bo Chen", "isbn": "9780140455113"},
    ]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    moved = with_related(wide(["Hal Jones", "Ida King"], "Tor", "9780131103627"), True)
    # The related table now comes first: the book's row is still the one with the book's labels.
    assert wrapper.apply(moved) == {"authors": ["Hal Jones", "Ida King"], "isbn": "9780131103627"}


def test_a_list_written_a_line_each_heals_within_its_cell():
    """A list in one node (``split``) is relocated to one node, not to a run of sibling cells."""
    samples = [
        wide(["Ann Lee", "Bo Chen"], "Tor", "9780140449136"),
        wide(["Cy Dunn"], "Tor", "9780140455113"),
    ]
    values = [{"authors": ["Ann Lee", "Bo Chen"]}, {"authors": "Cy Dunn"}]
    others = [
        wide(["Dee Fox", "Eve Gold"], "Vintage", "9780679783275"),
        wide(["Fay Hill"], "Tor", "9780262033848"),
    ]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()))
    renamed = wide(["Gus Ito", "Hal Jones"], "Tor", "9780131103627").replace("<th>", "<th class='h'>")
    renamed = renamed.replace("<thead>", "<caption>Book</caption><thead>").replace("<table>", "<div><table>")
    assert healer.apply(renamed)["authors"] == ["Gus Ito", "Hal Jones"]


def buy_box(i: int) -> str:
    """Three price cells beside three shipping sentences: same count, no labels."""
    return (
        f"<html><body><h1>Book {i}</h1><div id='box'><div id='prices'><div class='rrp'>RRP ${30 + i}.00</div>"
        f"<div class='sale-price'><span>${20 + i}.50</span></div><div class='save'>Save {i}%</div></div>"
        "<div id='shipping'><p>In Stock</p><p>Ships in 1 to 2 business days</p>"
        "<p>Free shipping on orders over $59</p></div></div></body></html>"
    )


def test_sentences_beside_a_run_of_cells_are_no_column_of_labels() -> None:
    samples = [buy_box(1), buy_box(2)]
    result = learn_wrapper(samples, [{"price": "$21.50"}, {"price": "$22.50"}],
                           cluster_pages=[buy_box(i) for i in range(3, 9)])
    assert result.wrapper.rules[0].column is None, result.wrapper.rules[0]
