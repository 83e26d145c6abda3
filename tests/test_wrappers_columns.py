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
    assert rule.column == {"labels": rule.column["labels"], "label": "ISBN"}
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
