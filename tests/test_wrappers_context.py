"""Regex context comes from text stable on the site, never from what two samples share by chance."""

from __future__ import annotations

import re

from browsercrawl.wrappers import learn_wrapper
from browsercrawl.wrappers.context import context_regex


def _cut(rx: str, text: str) -> str | None:
    m = re.search(rx, text)
    return m.group(1) if m else None


def test_shared_neighbour_text_is_not_required_when_other_pages_show_it_varies():
    # Both samples: Penguin Books, 2019, Paperback. Other pages of the cluster: anything else.
    pairs = [
        ("Penguin Books (2019) · Paperback", "Paperback"),
        ("Penguin Books (2019) · Paperback", "Paperback"),
    ]
    others = [
        f"{p} ({y}) · {b}" for p, y, b in [("Tor", 2020, "Hardcover"), ("Vintage", 2018, "Mass Market")] * 5
    ]
    rx = context_regex(pairs, others)
    assert rx is not None
    assert _cut(rx, "Harper Collins (2021) · Mass Market Paperback") == "Mass Market Paperback"


def test_without_other_pages_only_labels_and_separators_are_context():
    pairs = [("Publisher: Tor (2019)", "2019"), ("Publisher: Tor (2019)", "2019")]
    rx = context_regex(pairs)
    # "Tor" is on both samples but is not a label: the year of another publisher is still found.
    assert _cut(rx, "Publisher: Vintage (2021)") == "2021"


def test_a_partial_word_next_to_the_value_is_never_context():
    # The words before the value end in the same letters ("...th") on both samples.
    pairs = [("Author: Keith 12 pages", "12"), ("Author: Smith 40 pages", "40")]
    rx = context_regex(pairs, ["Author: Jones 7 pages", "Author: Li 300 pages"] * 3)
    assert _cut(rx, "Author: Jones 7 pages") == "7"


def test_a_value_shape_shared_by_the_samples_does_not_cut_longer_values():
    pairs = [("Format: Hardcover, 328 pages", "Hardcover"), ("Format: Paperback, 120 pages", "Paperback")]
    rx = context_regex(pairs, ["Format: Mass Market Paperback, 99 pages"] * 5)
    assert _cut(rx, "Format: Mass Market Paperback, 99 pages") == "Mass Market Paperback"


def test_learned_id_regex_does_not_keep_the_samples_common_digits():
    def page(sku: str, year: str) -> str:
        return f"<html><body><h1>T</h1><p class='ref'>Item BK-{sku} ({year})</p></body></html>"

    samples = [page("10234", "2019"), page("10277", "2019")]
    others = [page(f"{n}", y) for n, y in [("55501", "2020"), ("98012", "2018"), ("10999", "2021")] * 3]
    result = learn_wrapper(samples, [{"sku": "BK-10234"}, {"sku": "BK-10277"}], cluster_pages=others)
    assert result.wrapper.apply(page("77777", "2024")) == {"sku": "BK-77777"}



NAMES = ["Ann Lee", "Bo Chen", "Cy Dunn", "Dee Fox", "Eve Gold", "Fay Hill"]
HOUSES = ["Tor", "Penguin Books", "Vintage", "Harper Collins"]


def _byline(i: int) -> str:
    """"A, B (지은이), C (엮은이) | Tor | 2019-03-26": authors, sometimes another role, the
    publisher and the date in one line."""
    authors = ", ".join(NAMES[(i + k) % 6] for k in range(1 + i % 2)) + " (지은이)"
    other = f", {NAMES[(i + 3) % 6]} (엮은이)" if i % 3 == 0 else ""
    return f"{authors}{other} | {HOUSES[i % 4]} | 20{10 + i % 10}-0{1 + i % 9}-1{i % 10}"


def test_a_value_after_a_separator_is_cut_after_its_last_occurrence():
    """Both samples with the same publisher and no other role: the context left of the date is
    the separator " | ", which also parts the authors' roles from the publisher; the date
    follows its last occurrence, whatever role stands before the publisher."""
    pairs = [(_byline(i), _byline(i)[-10:]) for i in (1, 5)]  # both Penguin Books, no other role
    rx = context_regex(pairs, [_byline(i) for i in range(6, 30)])
    assert rx is not None
    for i in (3, 6, 9, 10):
        assert _cut(rx, _byline(i)) == _byline(i)[-10:], (rx, _byline(i))
