"""Candidates are checked on the cluster's unseen pages; weak fields are reported."""

from __future__ import annotations

import pytest

from browsercrawl.wrappers import learn_wrapper
from browsercrawl.wrappers.validate import has_kind, kind_of


@pytest.mark.parametrize(
    ("values", "kind"),
    [
        (["9780140449136", "978-0-14-044913-6"], "isbn"),
        (["2019-03-14", "March 14, 2019", "14 Mar 2019", "14.03.2019"], "date"),
        (["$12.99", "8,27 EUR", "12.50"], "price"),
        (["Jane Doe", "J. R. Tolkien", "Penguin Books"], "name"),
        (["BK-10234", "A7"], "code"),
        (["Sold out!", "12 x 3"], None),
    ],
)
def test_kinds_of_sample_values(values, kind):
    assert kind_of(values) == kind


@pytest.mark.parametrize(
    "value",
    [
        "2019/03/14",
        "14-03-2019",
        "14-Mar-2019",
        "4. März 2019",
        "4 mars 2019",
        "1er avril 2020",
        "4 de marzo de 2019",
        "marzo de 2019",
        "12 ottobre 2021",
        "3 mei 2018",
        "2019年3月14日",
        "2019. 3. 14.",
        "Sept. 4th, 2019",
        "5 marca 2020",
        "5. marts 2020",
        "5 augusti 2020",
        "2020. március 5.",
        "5 Ağustos 2020",
        "5 марта 2020",
        "5 Desember 2020",
        "2020년 03월 05일",
        "2020 年 3 月",
        "Mar-2020",
    ],
)
def test_dates_in_other_formats_and_languages_are_dates(value):
    assert has_kind(value, "date")
    assert not has_kind(value, "price")


@pytest.mark.parametrize(
    "value", ["R$ 12,99", "US$12.99", "CHF 12.–", "129 kr", "PLN 45,00", "45,00 zł", "¥1,200", "1 299,00 SEK"]
)
def test_prices_in_other_currencies_are_prices(value):
    assert has_kind(value, "price")


@pytest.mark.parametrize(
    "value", ["Marseille 2019", "12 Maple Street", "2019", "Jane Doe", "1234567", "Mart Kasım 12"]
)
def test_look_alikes_are_not_dates_or_prices(value):
    assert not has_kind(value, "date") and not has_kind(value, "price")


def test_an_isbn_with_a_bad_check_digit_is_not_an_isbn():
    assert has_kind("9780140449136", "isbn") and not has_kind("9780140449137", "isbn")


def row_page(rows: list[tuple[str, str]]) -> str:
    cells = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f"<html><body><h1>Book</h1><table>{cells}</table></body></html>"


def book(publisher: str, date: str, edition: str | None = None) -> str:
    rows = [("Title", "Book")]
    if edition:
        rows.append(("Edition", edition))
    rows += [("Publisher", publisher), ("Date", date)]
    return row_page(rows)


def test_a_positional_path_that_only_works_on_the_samples_loses_to_the_label_path():
    # Neither sample has the optional edition row, so `tr:nth-of-type(2) > td` is exact on both;
    # unseen pages with an edition show it yields an edition or a publisher where a date belongs.
    samples = [book("Tor", "2019-03-01"), book("Vintage", "2020-11-30")]
    others = [book("Harper", f"2018-0{m}-11", "2nd edition" if m % 2 else None) for m in range(1, 10)]
    result = learn_wrapper(samples, [{"date": "2019-03-01"}, {"date": "2020-11-30"}], cluster_pages=others)
    assert result.wrapper.apply(book("Penguin", "2021-05-05", "Revised")) == {"date": "2021-05-05"}
    assert result.report["date"].found_rate == 1.0 and result.report["date"].kind == "date"


def test_a_path_giving_one_value_on_every_unseen_page_is_rejected_when_samples_differ():
    def page(name: str) -> str:
        # The shop name in the header is a name like the publisher; on sample A it is equal.
        return (
            f"<html><body><header><span>Vintage</span></header>"
            f"<main><span class='x'>{name}</span></main></body></html>"
        )

    samples = [page("Vintage"), page("Tor")]
    others = [page(n) for n in ("Harper", "Penguin", "Tor", "Orbit")]
    result = learn_wrapper(samples, [{"publisher": "Vintage"}, {"publisher": "Tor"}], cluster_pages=others)
    assert result.wrapper.apply(page("Orbit")) == {"publisher": "Orbit"}


def test_weak_fields_are_reported_with_their_found_rate():
    samples = [book("Tor", "2019-03-01", "2nd edition"), book("Vintage", "2020-11-30", "Revised")]
    others = [book("Harper", f"2018-01-1{i}", "Revised" if i < 2 else None) for i in range(10)]
    values = [{"edition": "2nd edition", "date": "2019-03-01"}, {"edition": "Revised", "date": "2020-11-30"}]
    result = learn_wrapper(samples, values, cluster_pages=others)
    assert result.report["edition"].found_rate == pytest.approx(0.2)
    assert result.report["edition"].weak() and not result.report["date"].weak()
    assert any("'edition'" in w and "20% of 10 unseen pages" in w for w in result.warnings)


def test_each_extra_sample_only_removes_paths_that_worked_by_chance():
    samples = [
        book("Tor", "2019-03-01"),
        book("Vintage", "2020-11-30"),
        book("Orbit", "2021-01-01", "Revised"),
    ]
    values = [{"date": "2019-03-01"}, {"date": "2020-11-30"}, {"date": "2021-01-01"}]
    two = learn_wrapper(samples[:2], values[:2])
    three = learn_wrapper(samples, values)
    probe = book("Penguin", "2022-02-02", "2nd edition")
    assert three.wrapper.apply(probe) == {"date": "2022-02-02"}
    for s, v in zip(samples, values, strict=True):
        assert three.wrapper.apply(s) == v
    assert two.wrapper.apply(samples[0]) == values[0]


def _shop_page(i: int, on_sale: bool, struck: str, details_first: bool = False) -> str:
    """A product page: the price a buyer pays (with the old one crossed out on sale pages), and a
    details list whose "Price" row is always the list price, after the price or before it."""
    listed = f"${20 + i}.99"
    paid = f"${12 + i}.49" if on_sale else listed
    old = struck.format(listed) if on_sale else ""
    buy = f"<div class='buy'><div class='amount'>{paid}</div>{old}</div>"
    details = (f"<dl class='details'><dt>Pages</dt><dd>{100 + i}</dd><dt>Price</dt><dd>{listed}</dd>"
               f"<dt>Format</dt><dd>Paperback</dd></dl>")
    return f"<html><body><h1>Book {i}</h1>{details + buy if details_first else buy + details}</body></html>"


@pytest.mark.parametrize("details_first", [False, True])
@pytest.mark.parametrize("struck", [
    "<del>{}</del>",
    "<div class='text-gray line-through'>{}</div>",
    "<span style='text-decoration: line-through'>{}</span>",
    "<span class='old-price'>{}</span>",
])
def test_a_value_the_unseen_pages_cross_out_is_not_the_price(struck, details_first):
    """Two full-price samples agree on the top price and the details' list price alike; on the
    unseen sale pages the details' value is the one shown crossed out, so it is not the price."""
    samples = [_shop_page(i, False, struck, details_first) for i in (1, 3)]
    values = [{"price": f"${20 + i}.99"} for i in (1, 3)]
    unseen = [_shop_page(i, i % 2 == 0, struck, details_first) for i in range(4, 14)]
    result = learn_wrapper(samples, values, cluster_pages=unseen)
    for i in (6, 8, 9):
        got = result.wrapper.apply(_shop_page(i, i % 2 == 0, struck, details_first))["price"]
        assert got == (f"${12 + i}.49" if i % 2 == 0 else f"${20 + i}.99"), (i, result.wrapper)


@pytest.mark.parametrize(
    "value",
    [
        *["Rp 456.000", "R 349", "189.000₫", "4 990 Ft", "189,50 TL", "1,650円", "RM 45.90"],
        *["CA$24.99", "AU$ 32.00", "US $12.99", "MX$ 249", "NT$450", "450 руб.", "39,90 lei"],
    ],
)
def test_prices_in_more_currencies_are_prices(value: str) -> None:
    assert has_kind(value, "price")


@pytest.mark.parametrize("value", ["-21%", "Ruth 12", "12 %"])
def test_a_discount_or_a_name_is_no_price(value: str) -> None:
    """A sale badge ("-21%") beside a price in rupiah is not one: the price's kind must know
    the rupiah for the badge to be told from it."""
    assert not has_kind(value, "price")
