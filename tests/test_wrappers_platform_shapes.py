"""Page shapes of real shop platforms: the chosen option of a variant select, a price that sits
in a sale block on some pages and a plain block on others, contributor names beside role spans."""

from __future__ import annotations

from browsercrawl.wrappers import Wrapper, learn_wrapper
from browsercrawl.wrappers.heal import HealingWrapper

BINDINGS = ["Mass Market Paperback", "Hardcover", "Paperback"]


def _binding_wrapper(page) -> Wrapper:
    """The binding learned from two samples of ``page(title, binding)`` and six unseen pages."""
    samples = [page("Salt", "Hardcover"), page("Iron", "Paperback")]
    others = [page(f"Book {i}", BINDINGS[i % 3]) for i in range(6)]
    values = [{"binding": "Hardcover"}, {"binding": "Paperback"}]
    return learn_wrapper(samples, values, cluster_pages=others).wrapper


def variant_page(title: str, binding: str) -> str:
    options = "".join(
        f"<option value='{b}'{' selected' if b == binding else ''}>{b}</option>" for b in BINDINGS
    )
    return (
        f"<html><body><div class='product'><h1>{title}</h1><form><div class='selector-wrapper'>"
        f"<label for='opt'>Format</label><select id='opt'>{options}</select></div>"
        "<button>Add to cart</button></form></div></body></html>"
    )


def test_the_selected_option_of_a_select_is_learned_by_its_mark_not_its_position() -> None:
    wrapper = _binding_wrapper(variant_page)
    assert "[selected]" in wrapper.rules[0].css
    for binding in BINDINGS:
        assert wrapper.apply(variant_page("Atlas", binding)) == {"binding": binding}



def format_buttons_page(title: str, binding: str) -> str:
    """Toggle buttons for the formats in a fixed order; the current one only by ``aria-pressed``."""
    buttons = "".join(
        f"<button class='format-btn' aria-pressed='{'true' if b == binding else 'false'}'>{b}</button>"
        for b in BINDINGS
    )
    return (f"<html><body><div class='pdp'><h1>{title}</h1><div class='formats'>{buttons}</div>"
            "</div></body></html>")


def format_switcher_page(title: str, binding: str) -> str:
    """Each format a list item holding a button; the state is on the button, the value in a span."""
    items = "".join(
        f"<li class='fmt'><button aria-pressed='{'true' if b == binding else 'false'}'>"
        f"<span class='format'>{b}</span><span class='price'>$9.99</span></button></li>"
        for b in BINDINGS
    )
    return (f"<html><body><div class='pdp'><h1>{title}</h1><ul class='switcher'>{items}</ul>"
            "</div></body></html>")


def test_the_pressed_toggle_button_is_learned_by_its_state_not_its_position() -> None:
    wrapper = _binding_wrapper(format_buttons_page)
    assert "aria-pressed" in wrapper.rules[0].css
    for binding in BINDINGS:
        assert wrapper.apply(format_buttons_page("Atlas", binding)) == {"binding": binding}

def price_page(price: str, old: str | None, related: tuple[str, ...] = ("9,99 €", "12,00 €")) -> str:
    if old is None:
        box = (
            "<span class='price-container'><span data-price-type='finalPrice' class='price-wrapper'>"
            f"<span class='price'>{price}</span></span></span>"
        )
    else:
        box = (
            "<span class='special-price'><span class='price-container'><span class='price-label'>"
            "Special Price</span><span data-price-type='finalPrice' class='price-wrapper'>"
            f"<span class='price'>{price}</span></span></span></span><span class='old-price'>"
            "<span class='price-container'><span class='price-label'>Regular Price</span>"
            f"<span data-price-type='oldPrice' class='price-wrapper'><span class='price'>{old}</span>"
            "</span></span></span>"
        )
    others = "".join(f"<li><span class='price'>{p}</span></li>" for p in related)
    return (
        f"<html><body><div class='info'><div class='price-box'>{box}</div></div>"
        f"<ol class='related'>{others}</ol></body></html>"
    )


def test_a_price_in_a_sale_block_on_some_pages_and_a_plain_block_on_others_is_found_on_both() -> None:
    """No path holds on both layouts; the machine-read mark both carry does."""
    others = [price_page(f"{10 + i},50 €", f"{20 + i},00 €" if i % 2 else None) for i in range(8)]
    for samples, values in (
        ([price_page("14,20 €", "19,00 €"), price_page("8,10 €", "11,00 €")], ["14,20 €", "8,10 €"]),
        ([price_page("14,20 €", "19,00 €"), price_page("8,10 €", None)], ["14,20 €", "8,10 €"]),
    ):
        wrapper = learn_wrapper(samples, [{"price": v} for v in values], cluster_pages=others).wrapper
        assert wrapper.apply(price_page("7,35 €", None)) == {"price": "7,35 €"}
        assert wrapper.apply(price_page("6,35 €", "9,00 €")) == {"price": "6,35 €"}


def contributors_page(names: list[str], translator: int | None = None) -> str:
    spans = "".join(
        f"<span tabindex='-1'><a class='link' href='/a/{i}'><span class='name'>{n}</span>"
        + ("<span class='role'>(Translator)</span>" if i == translator else "")
        + "</a>"
        + (", " if i < len(names) - 1 else "")
        + "</span>"
        for i, n in enumerate(names)
    )
    return f"<html><body><h1>A book</h1><h3><div class='contributors'>{spans}</div></h3></body></html>"


def test_one_name_on_each_sample_is_a_list_whose_items_keep_their_class_beside_role_spans() -> None:
    """On the samples the name is alone in its link (a bare ``span`` step); pages with a
    translator add a role span beside it, which the list must not read as a name."""
    samples = [contributors_page(["Jane Doe"]), contributors_page(["John Roe"])]
    others = [
        contributors_page(["Ana Khan", "Li Wei", "Tom Hart"], translator=2),
        contributors_page(["Olga Berg", "Ben Sato"]),
        contributors_page(["Sara Lopez"]),
        contributors_page(["Yuki Sato", "Peter Smith", "Maria Garcia", "Ahmed Khan"], translator=2),
        contributors_page(["Tom Doe"]),
    ]
    values = [{"authors": "Jane Doe"}, {"authors": "John Roe"}]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    page = contributors_page(["Li Doe", "Ana Roe", "Ben Wei"], translator=2)
    assert wrapper.apply(page) == {"authors": ["Li Doe", "Ana Roe", "Ben Wei"]}
    healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()))
    assert healer.apply(page.replace("class='name'", "class='n'")) == {
        "authors": ["Li Doe", "Ana Roe", "Ben Wei"]
    }


def test_a_price_learned_by_its_mark_survives_a_tag_change() -> None:
    others = [price_page(f"{10 + i},50 €", f"{20 + i},00 €" if i % 2 else None) for i in range(8)]
    samples = [price_page("14,20 €", "19,00 €"), price_page("8,10 €", None)]
    wrapper = learn_wrapper(
        samples, [{"price": "14,20 €"}, {"price": "8,10 €"}], cluster_pages=others
    ).wrapper
    page = price_page("6,35 €", "9,00 €").replace("<span", "<em").replace("</span>", "</em>")
    assert wrapper.apply(page) == {"price": "6,35 €"}


def titled_page(title: str, series: str | None, renamed: bool = False) -> str:
    def c(name: str) -> str:
        return "x" + format(abs(hash(name)) % 0xFFFFFF, "06x") if renamed else name

    above = f"<h3 class='{c('Series')}'><a href='/s'>{series}</a></h3>" if series else ""
    return (
        f"<html><body><header><a href='/'>Shelf</a></header><div class='{c('Main')}'>"
        f"<div class='{c('TitleSection')}'>"
        f"<div class='{c('TitleSection__title')}'>{above}<h1 class='{c('Text')} {c('Text__title1')}'>"
        f"{title}</h1></div></div><div class='{c('Meta')}'><p>A story.</p></div></div>"
        "<footer><p>&copy; Shelf &middot; <a href='/help'>Help</a></p></footer></body></html>"
    )


def test_healing_does_not_move_a_field_into_the_footer() -> None:
    """A one-word title looks like the footer's "Help" link about as much as like the heading
    (renamed classes, a series line above it); a redesign does not move a field into the footer."""
    samples = [titled_page("Harbor", None), titled_page("Salt", None)]
    others = [
        titled_page(t, "Cycle #2" if i % 2 else None)
        for i, t in enumerate(["Iron", "Atlas", "Paper", "Glass"])
    ]
    wrapper = learn_wrapper(samples, [{"title": "Harbor"}, {"title": "Salt"}], cluster_pages=others).wrapper
    healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()))
    page = titled_page("The Iron Silent Empire", "Cycle #3", renamed=True)
    assert healer.apply(page) == {"title": "The Iron Silent Empire"}


def parameter_page(publisher: str, binding: str, date: str, order: list[int]) -> str:
    items = [f"<li>出版社：<a href='/p'>{publisher}</a></li>", f"<li>包装：{binding}</li>"]
    items += [f"<li>出版时间：{date}</li>", "<li>页数：320</li>"]
    return f"<html><body><h1>A book</h1><ul id='params'>{''.join(items[i] for i in order)}</ul></body></html>"


def test_a_row_holding_another_fields_value_is_not_taken_as_a_label() -> None:
    """Both samples have the same binding and, by chance, the date's row right after the
    binding's row: "包装：Hardcover" is the binding's row, not the date's label."""
    samples = [
        parameter_page("Tor", "Hardcover", "2019-05-01", [0, 1, 2, 3]),
        parameter_page("Vintage", "Hardcover", "2020-02-11", [3, 1, 2, 0]),
    ]
    others = [
        parameter_page("Tor", b, f"2018-0{i + 1}-1{i}", order)
        for i, (b, order) in enumerate(
            [("Paperback", [2, 0, 1, 3]), ("Hardcover", [0, 2, 3, 1]), ("Paperback", [3, 2, 1, 0])]
        )
    ]
    values = [
        {"published": "2019-05-01", "binding": "Hardcover"},
        {"published": "2020-02-11", "binding": "Hardcover"},
    ]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    got = wrapper.apply(parameter_page("Tor", "Paperback", "2021-07-07", [1, 3, 0, 2]))
    assert got["published"] == "2021-07-07"


def listing_page(title: str, authors: list[str], binding: str) -> str:
    """A marketplace listing: the title names the first author, the "Author" row all of them."""
    rows = [("Book Title", title), ("Author", ", ".join(authors)), ("Format", binding)]
    specs = "".join(
        f"<div class='row'><div class='labels'><span>{k}</span></div>"
        f"<div class='values'><span>{v}</span></div></div>"
        for k, v in rows
    )
    return (
        f"<html><body><h1><span class='bold'>{title} by {authors[0]} ({binding})</span></h1>"
        f"<div class='specifics'><h2>Item specifics</h2>{specs}</div></body></html>"
    )


def test_a_name_cut_from_the_title_yields_to_the_row_that_lists_every_author() -> None:
    """Each sample has one author, which "Title by Ann Lee (Paperback)" gives exactly; on the
    unseen pages the title still names only the first author where the "Author" row holds the
    whole list, so the row, read as a list, is the field."""
    samples = [
        listing_page("Dune Road", ["Ann Lee"], "Paperback"),
        listing_page("Salt Lake", ["Bo Chen"], "Hardcover"),
    ]
    others = [
        listing_page("Iron Gate", ["Cy Diaz", "Di Evans"], "Paperback"),
        listing_page("Glass Sea", ["Ed Fox"], "Hardcover"),
        listing_page("Old Mill", ["Fay Gold", "Gus Hill", "Hal Ives"], "Paperback"),
        listing_page("Red Moon", ["Ivy Jones"], "Paperback"),
    ]
    values = [{"title": "Dune Road", "authors": "Ann Lee"}, {"title": "Salt Lake", "authors": "Bo Chen"}]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    got = wrapper.apply(listing_page("Tin Roof", ["Jo King", "Kay Lane"], "Hardcover"))
    assert got["authors"] == ["Jo King", "Kay Lane"]
    assert wrapper.apply(listing_page("Blue Fern", ["Lu Mann"], "Paperback"))["authors"] == ["Lu Mann"]



def test_a_list_item_is_chosen_by_the_pressed_button_inside_it() -> None:
    wrapper = _binding_wrapper(format_switcher_page)
    assert ":has(button[aria-pressed" in wrapper.rules[0].css
    for binding in BINDINGS:
        assert wrapper.apply(format_switcher_page("Atlas", binding)) == {"binding": binding}



def test_healing_keeps_choosing_the_item_by_its_state_after_classes_are_renamed() -> None:
    """A bookseller's format switcher: after a redesign the first, unpressed button looked as
    alike as the pressed one, and the healed path read the same binding on every page."""
    from scripts.bench.wrapper_score import CLUSTER, SCORED, field_f1, pairs_for, site_of
    from scripts.bench.wrapper_sites import HELD_OUT, TUNING, change_markup, sample_values

    style = next(s for s in (*TUNING, *HELD_OUT) if s.name == "bn")
    site = site_of(style, 1)
    a, b = pairs_for(1, 6)[0]
    values = [sample_values(site.truth[a]), sample_values(site.truth[b])]
    wrapper = learn_wrapper([site.pages[a], site.pages[b]], values,
                            cluster_pages=[site.pages[i] for i in CLUSTER]).wrapper
    truth = [site.truth[i] for i in SCORED]
    healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()))
    healed = [healer.apply(change_markup(site.pages[i], "classes_renamed", 1)) for i in SCORED]
    assert field_f1(healed, truth, "binding") == 1.0
    assert field_f1(healed, truth, "price") == 1.0
