"""Labels that are not a bare leaf text: an icon named by its tooltip, a label wrapped in a span.

Optional rows shift every position after them, so only the label tells the value; these pages
have one optional row ("Edition") on some pages and not on others.
"""

from __future__ import annotations

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
