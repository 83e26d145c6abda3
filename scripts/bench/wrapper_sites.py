"""Generated book-shop sites with the traps that break wrapper learning, and markup changes.

Every site renders the same kind of record (a book: title, authors, ISBN, price, publication
date, publisher, binding, shop id) with its own markup style, seeded and reproducible. The data is
drawn so that the four known failure causes show up in random sample pairs:

* **shared vs varying neighbour text**: few publishers, bindings and years, shop ids sharing their
  first digits, so two samples often agree on the text next to a value (``Penguin (2019) ·
  Paperback``) while other pages do not;
* **hidden duplicates**: ``display:none`` / ``hidden`` blocks and ``<meta>``/``<input
  type=hidden>`` holding URLs or copies that contain the value, placed *before* the visible one;
* **one vs many**: most books have one author, some two to four, in a run of same-shaped siblings;
* **type-checkable fields**: dates, ISBN-13, prices and names, next to look-alikes (a "first
  published" date, a list price, related books with their own authors and prices).

``TUNING`` styles are the ones the learner was developed against (forty-six: all but the first four
were written as held-out sets in batches, scored once as written, then looked at and fixed on);
``HELD_OUT`` styles (batch 13, written after that by someone who had not read the learner's code,
copying page shapes of real platforms: a book catalogue's edition page with a featured-editions
table repeating the title, dates and publishers, a US indie-bookshop marketplace whose "Product
Details" price is the list price, a Dutch retailer's "12,<sup>99</sup>" prices and one
"Hoofdauteur"/"Tweede Auteur" row per author beside the publisher row, a Chinese bookshop's
one-line byline and a printing date that starts with the publication month) are only scored.
``change_markup`` rewrites a page the way a site
redesign does (classes renamed, a wrapper div added, blocks reordered, tags changed) for the
self-healing benchmark.

Used by ``scripts/bench_induction.py --wrappers`` and ``tests/test_wrappers_*.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

import lxml.html

FIRST = ["Jane", "John", "Maria", "Ahmed", "Li", "Olga", "Peter", "Sara", "Tom", "Yuki", "Ana", "Ben"]
LAST = ["Doe", "Roe", "Garcia", "Khan", "Wei", "Ivanova", "Smith", "Berg", "Hart", "Sato", "Lopez"]
WORDS = [
    "Silent",
    "River",
    "Glass",
    "Garden",
    "Winter",
    "Stone",
    "Night",
    "Empire",
    "Salt",
    "Orchard",
    "Iron",
    "Harbor",
    "Lantern",
    "Paper",
    "Wolves",
    "Quiet",
    "Storm",
    "Atlas",
]
PUBLISHERS = ["Penguin Books", "Vintage", "Harper Collins", "Tor"]
BINDINGS = ["Mass Market Paperback", "Hardcover", "Paperback"]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
FIELDS = ("title", "authors", "isbn", "price", "published", "publisher", "binding", "sku")


@dataclass
class Book:
    """One page's truth; ``published`` and ``price`` already in the site's own format."""

    title: str
    authors: list[str]
    isbn: str
    price: str
    list_price: str
    published: str
    first_published: str
    publisher: str
    binding: str
    sku: str
    slug: str
    pages: int
    edition: str | None
    series: str | None
    related: list[tuple[str, str, str]] = field(default_factory=list)  # title, author, price

    def truth(self) -> dict[str, str | list[str]]:
        return {f: getattr(self, f) for f in FIELDS}


def _isbn13(r: random.Random) -> str:
    digits = [9, 7, 8] + [r.randint(0, 9) for _ in range(9)]
    check = (10 - sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10) % 10
    return "".join(map(str, [*digits, check]))


def _name(r: random.Random) -> str:
    if r.random() < 0.2:
        return f"{r.choice(FIRST)} {r.choice('ABCDEFGHJKLMNPRST')}. {r.choice(LAST)}"
    return f"{r.choice(FIRST)} {r.choice(LAST)}"


def _title(r: random.Random) -> str:
    words = r.sample(WORDS, r.randint(1, 3))
    return ("The " if r.random() < 0.5 else "") + " ".join(words)


DateFormat = Callable[[int, int, int], str]


def iso_date(y: int, m: int, d: int) -> str:
    return f"{y:04d}-{m:02d}-{d:02d}"


def us_date(y: int, m: int, d: int) -> str:
    return f"{MONTHS[m - 1]} {d}, {y}"


def uk_date(y: int, m: int, d: int) -> str:
    return f"{d} {MONTHS[m - 1][:3]} {y}"


def dot_date(y: int, m: int, d: int) -> str:
    return f"{d:02d}.{m:02d}.{y}"


def book(r: random.Random, date_format: DateFormat, currency: str) -> Book:
    """A random book; the small pools make coincidences between two samples common."""
    n_authors = r.choices([1, 2, 3, 4], weights=[60, 20, 10, 10])[0]
    authors: list[str] = []
    while len(authors) < n_authors:
        name = _name(r)
        if name not in authors:
            authors.append(name)
    year = r.randint(2018, 2021)

    def money(v: float) -> str:
        if currency == "￥":  # whole yen with thousands separators
            return f"￥{round(v * 150):,}"
        if currency == "¥":  # yuan with fen
            return f"¥{v * 7:.2f}"
        if currency == "$":
            return f"${v:.2f}"
        if currency == ",":  # comma decimals and no symbol: the shop's currency goes without saying
            return f"{v:.2f}".replace(".", ",")
        if currency.endswith(" ") or currency.endswith("$"):  # a code or symbol before the amount
            return f"{currency}{v:.2f}"
        return f"{v:.2f} {currency}".replace(".", ",")

    cents = r.randint(499, 3999)
    title = _title(r)
    return Book(
        title=title,
        authors=authors,
        isbn=_isbn13(r),
        price=money(cents / 100),
        list_price=money(cents / 100 + r.randint(1, 9)),
        published=date_format(year, r.randint(1, 12), r.randint(1, 28)),
        first_published=date_format(r.randint(1950, 2017), r.randint(1, 12), r.randint(1, 28)),
        publisher=r.choice(PUBLISHERS),
        binding=r.choice(BINDINGS),
        sku=f"BK-10{r.randint(100, 999)}",
        slug=title.lower().replace(" ", "-"),
        pages=r.randint(120, 900),
        edition=r.choice(["2nd edition", "Anniversary edition", "Revised edition"])
        if r.random() < 0.3
        else None,
        series=f"{r.choice(WORDS)} Cycle #{r.randint(1, 5)}" if r.random() < 0.3 else None,
        related=[(_title(r), _name(r), money(r.randint(499, 3999) / 100)) for _ in range(r.randint(2, 4))],
    )


def _page(site: str, body: str) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{escape(site)}</title>"
        "<style>.hidden{display:none}</style></head><body>"
        f"<header><a href='/'>{escape(site)}</a><nav><a href='/new'>New</a> <a href='/cart'>Cart (0)</a>"
        "</nav></header>"
        f"{body}<footer><p>&copy; {escape(site)} &middot; <a href='/help'>Help</a></p></footer></body></html>"
    )


def e(text: object) -> str:
    return escape(str(text))


# --------------------------------------------------------------------------------------------
# Tuning styles


def shelf(b: Book) -> str:
    """Classed divs; publisher and binding share one line; a hidden SEO block with the ISBN URL."""
    authors = ", ".join(
        f"<a class='author' href='/a/{e(a.lower().replace(' ', '-'))}'>{e(a)}</a>" for a in b.authors
    )
    rel = "".join(
        f"<li class='card'><a class='t'>{e(t)}</a><span class='by'>{e(a)}</span>"
        f"<span class='p'>{e(p)}</span></li>"
        for t, a, p in b.related
    )
    return _page(
        "Shelf",
        "<main id='book'>"
        f"<div class='seo' style='display:none'><span>https://shelf.example/item/{b.isbn}-{e(b.slug)}</span>"
        f"<span>{e(b.title)} by {e(b.authors[0])}</span></div>"
        f"<h1 class='title'>{e(b.title)}</h1>"
        + (f"<p class='series'>{e(b.series)}</p>" if b.series else "")
        + f"<div class='byline'>by {authors}</div>"
        f"<p class='pub'>{e(b.publisher)} ({b.published[-4:]}) &middot; {e(b.binding)}</p>"
        f"<div class='buy'><span class='price'>{e(b.price)}</span>"
        + (f" <s class='list'>{e(b.list_price)}</s>" if b.pages % 2 else "")
        + "</div>"
        f"<ul class='facts'><li>ISBN-13: {b.isbn}</li><li>Published: {e(b.published)}</li>"
        f"<li>First published: {e(b.first_published)}</li><li>Item {e(b.sku)}</li>"
        f"<li>Format: {e(b.binding)}, {b.pages} pages</li><li>Publisher: {e(b.publisher)}</li></ul>"
        f"</main><aside><h2>Related</h2><ul class='rel'>{rel}</ul></aside>",
    )


def catalog_table(b: Book) -> str:
    """A spec table with optional rows that shift positions; price beside a list price."""
    rows = [("Title", e(b.title))]
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("ISBN", b.isbn), ("Publisher", e(b.publisher)), ("Publication date", e(b.published))]
    if b.series:
        rows.append(("Series", e(b.series)))
    rows += [("Binding", e(b.binding)), ("Pages", str(b.pages)), ("Shop id", e(b.sku))]
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    authors = " and ".join(
        f"<a href='/author?id={i}' class='contributor'>{e(a)}</a>" for i, a in enumerate(b.authors)
    )
    rel = "".join(
        f"<div class='tile'><b>{e(t)}</b> <i>{e(a)}</i> <span>{e(p)}</span></div>" for t, a, p in b.related
    )
    return _page(
        "Catalog",
        f"<div class='crumbs'><a href='/'>Home</a> / <a href='/books'>Books</a> / {e(b.title)}</div>"
        f"<div class='product'><h2>{e(b.title)}</h2><div class='by'>by {authors}</div>"
        f"<div class='prices'><span class='was'>List price: {e(b.list_price)}</span>"
        f"<span class='now'>Our price: {e(b.price)}</span></div>"
        f"<input type='hidden' name='isbn' value='{b.isbn}'>"
        f"<table class='specs'>{table}</table></div>"
        f"<div class='also'>{rel}</div>",
    )


def microdata(b: Book) -> str:
    """itemprop attributes, <meta> copies before the text, a <time datetime> date."""
    authors = "".join(
        f"<span itemprop='author' itemscope><span itemprop='name'>{e(a)}</span></span>" for a in b.authors
    )
    return _page(
        "Readers Corner",
        "<div itemscope itemtype='https://schema.org/Book' class='book'>"
        f"<meta itemprop='isbn' content='{b.isbn}'><meta itemprop='url' content='/b/{b.isbn}/{e(b.slug)}'>"
        f"<h1 itemprop='name'>{e(b.title)}</h1>"
        f"<div class='authors'>{authors}</div>"
        f"<div class='offer' itemprop='offers' itemscope><span itemprop='price'>{e(b.price)}</span>"
        "<span class='stock'>In stock</span></div>"
        "<div class='details'>"
        f"<div><span class='k'>Publisher</span> <span itemprop='publisher'>{e(b.publisher)}</span></div>"
        f"<div><span class='k'>Published</span> <time itemprop='datePublished'>{e(b.published)}</time></div>"
        f"<div><span class='k'>Binding</span> <span itemprop='bookFormat'>{e(b.binding)}</span></div>"
        f"<div><span class='k'>ISBN</span> <span itemprop='isbn'>{b.isbn}</span></div>"
        f"<div><span class='k'>SKU</span> <span itemprop='sku'>{e(b.sku)}</span></div>"
        "</div></div>",
    )


def inline_text(b: Book) -> str:
    """Values inside running text separated by <br>: only labels and separators are stable."""
    authors = ", ".join(f"<a href='/p/{i}'>{e(a)}</a>" for i, a in enumerate(b.authors))
    return _page(
        "Old Books",
        "<div id='content'><div class='hidden'>"
        f"<a href='/view/{b.isbn}?ref={e(b.slug)}'>{b.isbn}</a></div>"
        f"<h3>{e(b.title)}</h3>"
        f"<p class='info'>By {authors}<br>Publisher: {e(b.publisher)}, {b.published}<br>"
        f"{e(b.binding)}, {b.pages} p.<br>ISBN {b.isbn}<br>Ref. {e(b.sku)}</p>"
        f"<p class='cost'>Price: {e(b.price)} (list {e(b.list_price)})</p></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out styles (never tuned on)


def definition_list(b: Book) -> str:
    """dt/dd facts; authors as several dd under one dt; an ISBN in a hidden link first."""
    dds = "".join(f"<dd class='contrib'>{e(a)}</dd>" for a in b.authors)
    facts = f"<dt>Author{'s' if len(b.authors) > 1 else ''}</dt>{dds}"
    if b.edition:
        facts += f"<dt>Edition</dt><dd>{e(b.edition)}</dd>"
    facts += (
        f"<dt>Publisher</dt><dd>{e(b.publisher)}</dd><dt>Release</dt><dd>{e(b.published)}</dd>"
        f"<dt>Format</dt><dd>{e(b.binding)}</dd><dt>EAN/ISBN</dt><dd>{b.isbn}</dd>"
        f"<dt>Article no.</dt><dd>{e(b.sku)}</dd>"
    )
    return _page(
        "Bücherstube",
        f"<section class='item'><div hidden><a href='/go/{b.isbn}'>{b.isbn}</a></div>"
        f"<h1>{e(b.title)}</h1><div class='cost'><strong>{e(b.price)}</strong> incl. VAT</div>"
        f"<dl>{facts}</dl></section>"
        "<section class='more'><h2>Customers also bought</h2>"
        + "".join(
            f"<dl class='mini'><dt>{e(t)}</dt><dd>{e(a)}</dd><dd>{e(p)}</dd></dl>" for t, a, p in b.related
        )
        + "</section>",
    )


def label_grid(b: Book) -> str:
    """Bootstrap-like rows of label/value cells with generic class names; optional rows."""
    rows = [("Author(s)", "".join(f"<span class='chip'>{e(a)}</span>" for a in b.authors))]
    if b.series:
        rows.append(("Series", e(b.series)))
    rows += [("Publisher", e(b.publisher)), ("Date", e(b.published)), ("Cover", e(b.binding))]
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("ISBN-13", b.isbn), ("Stock code", e(b.sku))]
    grid = "".join(
        f"<div class='row'><div class='col-4 label'>{k}</div><div class='col-8 value'>{v}</div></div>"
        for k, v in rows
    )
    return _page(
        "Page Turners",
        "<div class='container'><div class='row'><div class='col-12'>"
        f"<h1 class='h3'>{e(b.title)}</h1></div></div>"
        f"<div class='row'><div class='col-6'><p class='lead'>{e(b.price)}</p>"
        f"<p class='small'>RRP {e(b.list_price)}</p></div></div>"
        f"<div class='facts'>{grid}</div>"
        f"<div class='d-none'>{b.isbn} {e(b.title)} {e(b.publisher)}</div></div>",
    )


def css_modules(b: Book) -> str:
    """Generated class names (css-modules), prices with a label, a hidden canonical URL input."""
    h = hashlib.md5(b.sku.encode()).hexdigest()[:5]  # the hash differs per build, not per page
    authors = "".join(
        f"<li class='Authors_item__k3x9q'><a href='/c/{i}'>{e(a)}</a></li>" for i, a in enumerate(b.authors)
    )
    return _page(
        "Novella",
        f"<div class='Page_root__a1b2c' data-build='{h}'>"
        f"<input type='hidden' id='canonical' value='https://novella.example/{b.isbn}/{e(b.slug)}'>"
        f"<h1 class='Title_main__z9y8x'>{e(b.title)}</h1>"
        f"<ul class='Authors_list__m4n5o'>{authors}</ul>"
        "<div class='Price_box__p0q1r'><span>Price</span>"
        f"<span class='Price_value__s2t3u'>{e(b.price)}</span></div>"
        f"<table class='Facts_table__f7g8h'><tr><td>Publisher</td><td>{e(b.publisher)}</td></tr>"
        f"<tr><td>Published on</td><td>{e(b.published)}</td></tr>"
        f"<tr><td>Binding</td><td>{e(b.binding)}</td></tr>"
        f"<tr><td>ISBN</td><td>{b.isbn}</td></tr><tr><td>Item</td><td>{e(b.sku)}</td></tr></table></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 2: written after the learner and healer were tuned on the seven above


def attribute_list(b: Book) -> str:
    """li rows of name/value spans, contributor spans with roles, a price split over nodes."""
    contrib = ", ".join(
        f"<span class='contributor'><a href='/s?q={i}'>{e(a)}</a> <span class='role'>(Author)</span></span>"
        for i, a in enumerate(b.authors)
    )
    attrs = [("Publisher", e(b.publisher)), ("Publication Date", e(b.published))]
    if b.series:
        attrs.insert(0, ("Series", e(b.series)))
    attrs += [("Format", e(b.binding)), ("ISBN-13", b.isbn), ("Pages", str(b.pages)), ("SKU", e(b.sku))]
    rows = "".join(f"<li><span class='name'>{k}:</span> <span class='val'>{v}</span></li>" for k, v in attrs)
    sym, amount = (b.price[0], b.price[1:]) if b.price.startswith("$") else ("", b.price)
    return _page(
        "Paper Trail",
        f"<div class='pdp'><div class='gallery'><img src='/img/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        f"<div class='summary'><h1 class='product-title'>{e(b.title)}</h1>"
        f"<div class='contributors'>by {contrib}</div>"
        f"<div class='price-block'><span class='currency'>{sym}</span>{amount}</div>"
        f"<ul class='attributes'>{rows}</ul></div></div>",
    )


def semantic_article(b: Book) -> str:
    """<strong> labels with the value in the tail, rel=author links, a visibility:hidden copy."""
    authors = " &amp; ".join(f"<a rel='author' href='/w/{i}'>{e(a)}</a>" for i, a in enumerate(b.authors))
    return _page(
        "The Reading Room",
        f"<article><header><h1>{e(b.title)}</h1><p class='authors'>Written by {authors}</p></header>"
        f"<span style='visibility:hidden'>isbn:{b.isbn};sku:{e(b.sku)}</span>"
        f"<p class='offer'>Now <b>{e(b.price)}</b>, was <del>{e(b.list_price)}</del></p>"
        "<section class='bibliographic'>"
        f"<p><strong>Publisher:</strong> {e(b.publisher)}</p>"
        + (f"<p><strong>Edition:</strong> {e(b.edition)}</p>" if b.edition else "")
        + f"<p><strong>Date:</strong> {e(b.published)}</p>"
        f"<p><strong>Binding:</strong> {e(b.binding)}</p>"
        f"<p><strong>ISBN:</strong> {b.isbn}</p><p><strong>Our ref:</strong> {e(b.sku)}</p>"
        "</section></article>",
    )


def two_columns(b: Book) -> str:
    """Labels in one column, values in another: only positions tie them; optional rows shift both."""
    rows = [("Title", e(b.title))]
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("Publisher", e(b.publisher)), ("Published", e(b.published)), ("Binding", e(b.binding))]
    rows += [("ISBN", b.isbn), ("Code", e(b.sku)), ("Price", e(b.price))]
    labels = "".join(f"<div class='cell'>{k}</div>" for k, _ in rows)
    values = "".join(f"<div class='cell'>{v}</div>" for _, v in rows)
    authors = "".join(f"<li>{e(a)}</li>" for a in b.authors)
    return _page(
        "Shelfware",
        f"<div id='main'><h2 class='name'>{e(b.title)}</h2><ol class='writers'>{authors}</ol>"
        f"<div class='grid'><div class='col labels'>{labels}</div>"
        f"<div class='col values'>{values}</div></div></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 3: written after batch 2 had been used for tuning too


def detail_bullets(b: Book) -> str:
    """Retail detail bullets: publisher, edition and date packed in one value; byline roles."""
    byline = ", ".join(
        f"<span class='author notFaded'><a class='a-link-normal' href='/e/{i}'>{e(a)}</a> "
        "<span class='contribution'>(Author)</span></span>"
        for i, a in enumerate(b.authors)
    )
    packed = e(b.publisher) + (f"; {e(b.edition)}" if b.edition else "") + f" ({e(b.published)})"
    bullets = [
        ("Publisher", packed),
        ("Language", "English"),
        (e(b.binding), f"{b.pages} pages"),
        ("ISBN-13", b.isbn),
        ("Item model number", e(b.sku)),
    ]
    items = "".join(
        f"<li><span class='a-list-item'><span class='a-text-bold'>{k} &rlm; : &lrm;</span> "
        f"<span>{v}</span></span></li>"
        for k, v in bullets
    )
    return _page(
        "Everything Store",
        f"<div id='dp'><div id='centerCol'><h1 id='title'><span id='productTitle'>{e(b.title)}</span></h1>"
        f"<div id='bylineInfo' class='a-section'>{byline}</div>"
        f"<div id='price'><span class='a-price'><span class='a-offscreen'>{e(b.price)}</span>"
        f"<span aria-hidden='true'>{e(b.price)}</span></span></div>"
        f"<span id='productSubtitle'>{e(b.binding)} &ndash; {e(b.published)}</span></div>"
        f"<div id='detailBullets_feature_div'><ul class='a-unordered-list'>{items}</ul></div></div>",
    )


def styled_components(b: Book) -> str:
    """A rendered single-page app: generated class names, stable data-testid attributes."""
    authors = "".join(
        f"<a data-testid='author-link' class='sc-aXZVg kIppRw' href='/author/{i}'>{e(a)}</a>"
        for i, a in enumerate(b.authors)
    )

    def fact(tid: str, label: str, value: str) -> str:
        return (
            f"<div data-testid='{tid}' class='sc-gEvEer fXbJmS'><span class='sc-eqUAAy hnJtJb'>{label}</span>"
            f"<span class='sc-fqkvVR dQpXmW'>{value}</span></div>"
        )

    return _page(
        "Bookly",
        "<div id='__next'><div class='sc-kAyceB bVbQsH'>"
        f"<div class='sr-only'>{e(b.title)}, ISBN {b.isbn}, {e(b.price)}</div>"
        f"<h1 data-testid='title' class='sc-imWYAI hRZqCg'>{e(b.title)}</h1>"
        f"<div data-testid='authors' class='sc-jXbUNg gdnrfo'>{authors}</div>"
        f"<div data-testid='price' class='sc-dhKdcB cqHCtc'>{e(b.price)}</div>"
        f"<section class='sc-kpDqfm hIjDqN'>"
        + fact("publisher", "Publisher", e(b.publisher))
        + fact("pub-date", "Publication date", e(b.published))
        + fact("format", "Format", e(b.binding))
        + fact("isbn13", "ISBN", b.isbn)
        + fact("sku", "Product code", e(b.sku))
        + "</section></div></div>",
    )


def table_layout(b: Book) -> str:
    """A 1990s table layout: <b> labels with the values in the text after them, <br> lines."""
    authors = ", ".join(f"<a href='author.asp?id={i}'>{e(a)}</a>" for i, a in enumerate(b.authors))
    return _page(
        "Bargain Books",
        "<table width='100%' border='0'><tr><td width='20%' valign='top'><a href='/'>Home</a><br>"
        "<a href='/new'>New titles</a></td><td valign='top'>"
        f"<input type='hidden' name='isbn' value='{b.isbn}'>"
        f"<font size='4'><b>{e(b.title)}</b></font><br>"
        f"<font size='2'><b>Author:</b> {authors}<br><b>Publisher:</b> {e(b.publisher)}<br>"
        f"<b>Date:</b> {e(b.published)}<br><b>Binding:</b> {e(b.binding)}<br>"
        f"<b>ISBN:</b> {b.isbn}<br><b>Item #:</b> {e(b.sku)}</font><br>"
        f"<font color='red' size='3'>{e(b.price)}</font></td></tr></table>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 4: written after batch 3 had been used for tuning


def shop_theme(b: Book) -> str:
    """A hosted-shop theme: visually-hidden price labels, details in an accordion with <br> lines."""
    by = " and ".join(f"<span>{e(a)}</span>" for a in b.authors)
    lines = [f"Publisher: {e(b.publisher)}", f"Published: {e(b.published)}", f"Format: {e(b.binding)}"]
    if b.edition:
        lines.insert(1, f"Edition: {e(b.edition)}")
    lines += [f"ISBN: {b.isbn}", f"SKU: {e(b.sku)}"]
    return _page(
        "Indie Reads",
        "<section class='product'><div class='product__media'><img src='/cdn/cover.jpg' alt=''></div>"
        "<div class='product__info-wrapper'>"
        f"<h1 class='product__title'>{e(b.title)}</h1><p class='product__text subtitle'>by {by}</p>"
        "<div class='price'><div class='price__regular'><span class='visually-hidden'>Regular price</span>"
        f"<span class='price-item price-item--regular'>{e(b.price)}</span></div></div>"
        "<details open><summary>Details</summary><div class='accordion__content'>"
        f"<p>{'<br>'.join(lines)}</p></div></details></div></section>",
    )


def attribute_table(b: Book) -> str:
    """A cart plugin's attribute table: field names inside the row classes, linked author tags."""
    authors = ", ".join(f"<a href='/author/{i}' rel='tag'>{e(a)}</a>" for i, a in enumerate(b.authors))
    rows = [("author", "Author", f"<p>{authors}</p>"), ("publisher", "Publisher", f"<p>{e(b.publisher)}</p>")]
    if b.edition:
        rows.append(("edition", "Edition", f"<p>{e(b.edition)}</p>"))
    rows += [
        ("date", "Publication date", f"<p>{e(b.published)}</p>"),
        ("format", "Format", f"<p>{e(b.binding)}</p>"),
        ("isbn", "ISBN", f"<p>{b.isbn}</p>"),
    ]
    table = "".join(
        f"<tr class='product-attributes-item product-attributes-item--attribute_pa_{k}'>"
        f"<th class='product-attributes-item__label'>{label}</th>"
        f"<td class='product-attributes-item__value'>{v}</td></tr>"
        for k, label, v in rows
    )
    sym, amount = (b.price[0], b.price[1:]) if b.price.startswith("$") else ("", b.price)
    return _page(
        "Corner Shop",
        f"<div id='product-{b.sku}' class='product type-product'><div class='summary entry-summary'>"
        f"<h1 class='product_title entry-title'>{e(b.title)}</h1>"
        f"<p class='price'><span class='amount'><bdi><span class='currencySymbol'>{sym}</span>"
        f"{amount}</bdi></span></p><div class='product_meta'><span class='sku_wrapper'>SKU: "
        f"<span class='sku'>{e(b.sku)}</span></span></div>"
        "</div><div class='tabs'><h2>Additional information</h2>"
        f"<table class='shop_attributes'>{table}</table></div></div>",
    )


def aria_list(b: Book) -> str:
    """role=list rows in a different order on every page; contributors with roles; <time>."""
    r = random.Random(b.isbn)
    rows = [
        ("Publisher", e(b.publisher)),
        ("Binding", e(b.binding)),
        ("ISBN", b.isbn),
        ("Reference", e(b.sku)),
    ]
    if b.series:
        rows.append(("Series", e(b.series)))
    r.shuffle(rows)
    facts = "".join(
        f"<div role='listitem'><div class='term'>{k}</div><div class='definition'>{v}</div></div>"
        for k, v in rows
    )
    people = "".join(
        f"<li><a href='/p/{i}'>{e(a)}</a> <small>Author</small></li>" for i, a in enumerate(b.authors)
    )
    return _page(
        "Quire",
        f"<main><div class='hero'><h1>{e(b.title)}</h1><ul class='contributors'>{people}</ul>"
        f"<p class='buy'><strong>{e(b.price)}</strong> <span class='vat'>incl. VAT</span></p></div>"
        f"<p class='released'>Released <time datetime='x'>{e(b.published)}</time></p>"
        f"<div role='list' class='facts'>{facts}</div></main>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 5: written after batch 4 had been used for tuning

CITIES = ["London", "New York", "Berlin", "Toronto", "Paris"]


def library_record(b: Book) -> str:
    """A library catalogue: label cells, "City : Publisher, date." imprint, authors over <br>."""
    city = CITIES[int(b.isbn[-3:]) % len(CITIES)]
    authors = "<br>".join(f"<a href='/search?a={i}'>{e(a)}</a>" for i, a in enumerate(b.authors))
    rows = [
        ("Title:", e(b.title)),
        ("Author(s):", authors),
        ("Imprint:", f"{city} : {e(b.publisher)}, {e(b.published)}."),
        ("Description:", f"{b.pages} p. ; {e(b.binding)}"),
        ("ISBN:", b.isbn),
        ("Shelf mark:", e(b.sku)),
    ]
    cells = "".join(f"<tr><td class='label'>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return _page(
        "City Library",
        f"<div id='record'><h2>Catalogue record</h2><table class='record'>{cells}</table>"
        f"<p class='avail'>Replacement cost: {e(b.price)}</p></div>",
    )


def marketplace(b: Book) -> str:
    """A marketplace listing: a seller box, shipping beside the price, label/value pairs two a row."""
    pairs = [
        ("Author", ", ".join(e(a) for a in b.authors)),
        ("Publisher", e(b.publisher)),
        ("Publication Date", e(b.published)),
        ("Format", e(b.binding)),
        ("ISBN", b.isbn),
        ("Item number", e(b.sku)),
    ]
    rows = ""
    for i in range(0, len(pairs), 2):
        cols = "".join(
            f"<div class='ux-labels-values__labels'>{k}:</div><div class='ux-labels-values__values'>{v}</div>"
            for k, v in pairs[i : i + 2]
        )
        rows += f"<div class='ux-layout-section__row'>{cols}</div>"
    seller = FIRST[int(b.isbn[-2:]) % len(FIRST)] + " " + LAST[int(b.isbn[-4:-2]) % len(LAST)]
    return _page(
        "Bazaar",
        f"<div class='x-item-title'><h1 class='x-item-title__mainTitle'><span>{e(b.title)}</span></h1></div>"
        f"<div class='x-price-primary'><span>{e(b.price)}</span></div>"
        f"<div class='ux-labels-values--shipping'><span>+ {e(b.list_price)} shipping</span></div>"
        f"<div class='x-sellercard'><span class='name'>{seller}</span> (99.2% positive)</div>"
        f"<div class='ux-layout-section--features'>{rows}</div>",
    )


def cms_cards(b: Book) -> str:
    """A CMS template: a series prefix inside the title, icons inside the labels, <time>."""
    series = f"<span class='series'>{e(b.series)}:</span> " if b.series else ""
    facts = [("isbn", "ISBN", b.isbn), ("pub", "Publisher", e(b.publisher)), ("fmt", "Format", e(b.binding))]
    facts.append(("ref", "Reference", e(b.sku)))
    items = "".join(
        f"<dt><i class='icon icon-{k}'></i>{label}</dt><dd><span class='value'>{v}</span></dd>"
        for k, label, v in facts
    )
    authors = "".join(f"<li class='person'>{e(a)}</li>" for a in b.authors)
    return _page(
        "Pages & Co",
        f"<div class='card card--product'><h1>{series}{e(b.title)}</h1>"
        f"<ul class='people'>{authors}</ul>"
        f"<div class='card__price'>Our price <em>{e(b.price)}</em></div>"
        f"<p>Published on <time datetime='2000-01-01'>{e(b.published)}</time></p>"
        f"<dl class='meta'>{items}</dl></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 6: written after batch 5 had been used for tuning (the current HELD_OUT)


def bootstrap_table(b: Book) -> str:
    """A framework spec table: authors as a list inside a cell, a badge price, a hidden copy."""
    people = "".join(f"<li>{e(a)}</li>" for a in b.authors)
    rows = [("Author", f"<ul class='list-unstyled mb-0'>{people}</ul>"), ("Publisher", e(b.publisher))]
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("Published", e(b.published)), ("Binding", e(b.binding)), ("ISBN-13", b.isbn), ("SKU", e(b.sku))]
    body = "".join(f"<tr><th scope='row'>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return _page(
        "Stack & Spine",
        "<div class='container my-4'><div class='row'><div class='col-md-8'>"
        f"<div class='visually-hidden'>{e(b.title)} {b.isbn} {e(b.price)}</div>"
        f"<h1 class='display-6'>{e(b.title)}</h1>"
        f"<span class='badge bg-success fs-5'>{e(b.price)}</span>"
        f"<table class='table table-sm mt-3'><tbody>{body}</tbody></table></div></div></div>",
    )


def meta_line(b: Book) -> str:
    """Unlabelled spans joined by middots in a fixed order; authors written "A, B & C"."""
    if len(b.authors) == 1:
        by = e(b.authors[0])
    else:
        by = ", ".join(e(a) for a in b.authors[:-1]) + " &amp; " + e(b.authors[-1])
    return _page(
        "Folio",
        f"<article class='book'><h2 class='book__title'>{e(b.title)}</h2>"
        f"<span class='byline'>{by}</span>"
        f"<div class='product-meta'><span>{e(b.publisher)}</span> &middot; <span>{e(b.binding)}</span>"
        f" &middot; <span>{e(b.published)}</span></div>"
        f"<p class='cost'>{e(b.price)}</p><small>ISBN {b.isbn} &middot; Ref {e(b.sku)}</small></article>",
    )


def amp_specs(b: Book) -> str:
    """A mobile page: spec-name/spec-value pairs, contributors with a role inside their node."""
    people = "".join(
        f"<span class='contributor'>{e(a)}<span class='role'>, Author</span></span>" for a in b.authors
    )
    specs = [("Publisher", e(b.publisher)), ("Release date", e(b.published)), ("Format", e(b.binding))]
    if b.series:
        specs.insert(0, ("Series", e(b.series)))
    specs += [("ISBN", b.isbn), ("Article", e(b.sku))]
    rows = "".join(
        f"<div class='spec'><div class='spec-name'>{k}</div><div class='spec-value'>{v}</div></div>"
        for k, v in specs
    )
    cents = b.price.replace("$", "").replace(" £", "").replace(",", ".")
    return _page(
        "Pocket Books",
        f"<main class='amp'><h1 class='headline'>{e(b.title)}</h1><div class='contributors'>{people}</div>"
        f"<div class='price' data-price='{e(cents)}'>{e(b.price)}</div>"
        f"<section class='specs'>{rows}</section></main>",
    )


def long_date(y: int, m: int, d: int) -> str:
    return f"{d} {MONTHS[m - 1]} {y}"


# --------------------------------------------------------------------------------------------
# Held-out batch 7: written after batch 6 had been used for tuning (the current HELD_OUT)

MOIS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
        "novembre", "décembre"]  # fmt: skip
MONATE = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember"]  # fmt: skip


def french_date(y: int, m: int, d: int) -> str:
    return f"{'1er' if d == 1 else d} {MOIS[m - 1]} {y}"


def german_date(y: int, m: int, d: int) -> str:
    return f"{d}. {MONATE[m - 1]} {y}"


def slash_date(y: int, m: int, d: int) -> str:
    return f"{y}/{m:02d}/{d:02d}"


def _isbn10(isbn13: str) -> str:
    core = isbn13[3:12]
    check = (11 - sum((10 - i) * int(c) for i, c in enumerate(core)) % 11) % 11
    return core + ("X" if check == 10 else str(check))


def wide_table(b: Book) -> str:
    """A horizontal spec table: a header row of labels over one data row; optional columns shift
    the rest; authors one per line in a cell; a related-books table of the same shape below;
    the ISBN in a <noscript> tracking pixel first."""
    cols = [("Title", e(b.title)), ("Author", "<br>".join(e(a) for a in b.authors))]
    if b.series:
        cols.append(("Series", e(b.series)))
    cols += [("Publisher", e(b.publisher)), ("Released", e(b.published))]
    if b.edition:
        cols.append(("Edition", e(b.edition)))
    cols += [("Cover", e(b.binding)), ("ISBN", b.isbn), ("Our no.", e(b.sku)), ("Price", e(b.price))]
    head = "".join(f"<th scope='col'>{k}</th>" for k, _ in cols)
    row = "".join(f"<td>{v}</td>" for _, v in cols)
    rel = "".join(f"<tr><td>{e(t)}</td><td>{e(a)}</td><td>{e(p)}</td></tr>" for t, a, p in b.related)
    return _page(
        "Kiosk",
        f"<noscript><img src='/px.gif?isbn={b.isbn}&amp;p={e(b.price)}' alt=''></noscript>"
        f"<div class='wrap'><h1>{e(b.title)}</h1><p class='note'>Ships in 2-3 days</p>"
        f"<table class='spec'><thead><tr>{head}</tr></thead><tbody><tr>{row}</tr></tbody></table>"
        "<h2>Readers also liked</h2><table class='spec'><thead><tr><th scope='col'>Title</th>"
        f"<th scope='col'>Author</th><th scope='col'>Price</th></tr></thead><tbody>{rel}</tbody></table>"
        "</div>",
    )


def jsonld_details(b: Book) -> str:
    """A German shop: JSON-LD with every value first, a <template> copy, a dl whose dt/dd pairs
    sit in div groups with the text in nested spans, authors linked and joined by middots."""
    data = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "Book",
            "name": b.title,
            "isbn": b.isbn,
            "author": [{"@type": "Person", "name": a} for a in b.authors],
            "offers": {"@type": "Offer", "price": b.price},
            "datePublished": b.published,
            "publisher": b.publisher,
        },
        ensure_ascii=False,
    ).replace("</", "<\\/")
    groups = [
        ("Verlag", e(b.publisher)),
        ("Erscheinungsdatum", e(b.published)),
        ("Einband", e(b.binding)),
    ]
    if b.edition:
        groups.append(("Auflage", e(b.edition)))
    groups += [("Seitenzahl", str(b.pages)), ("ISBN", b.isbn), ("Artikelnummer", e(b.sku))]
    dl = "".join(
        f"<div class='detail'><dt><span class='lbl'>{k}</span></dt>"
        f"<dd><span class='val'>{v}</span></dd></div>"
        for k, v in groups
    )
    authors = " &middot; ".join(
        f"<a class='autor' href='/autor/{i}'>{e(a)}</a>" for i, a in enumerate(b.authors)
    )
    return _page(
        "Lesezeichen",
        f"<script type='application/ld+json'>{data}</script>"
        f"<template id='quickview'><b>{e(b.title)}</b> {b.isbn} {e(b.price)}</template>"
        f"<div class='produkt'><h1 class='produkt-titel'>{e(b.title)}</h1>"
        f"<div class='autoren'>von {authors}</div>"
        f"<div class='preis'><span class='preis-wert'>{e(b.price)}</span> <span>inkl. MwSt.</span></div>"
        f"<dl class='details'>{dl}</dl></div>",
    )


def icon_facts(b: Book) -> str:
    """Cards with icons instead of labels (the label only in a title attribute), author cards
    with avatars whose alt text repeats the name, optional facts shifting positions."""
    facts = [("building", "Publisher", e(b.publisher)), ("calendar", "Publication date", e(b.published))]
    if b.edition:
        facts.append(("star", "Edition", e(b.edition)))
    facts += [("book", "Format", e(b.binding)), ("file", "Length", f"{b.pages} pages")]
    facts += [("barcode", "ISBN", b.isbn), ("tag", "Item", e(b.sku))]
    items = "".join(
        f"<li class='fact'><i class='bi bi-{icon}' title='{t}' aria-hidden='true'></i> <span>{v}</span></li>"
        for icon, t, v in facts
    )
    people = "".join(
        f"<div class='person'><img src='/av/{i}.png' alt='{e(a)}'>"
        f"<span class='person-name'>{e(a)}</span></div>"
        for i, a in enumerate(b.authors)
    )
    return _page(
        "Inkwell",
        f"<div hidden class='tip'>{b.isbn}</div>"
        f"<div class='card'><div class='card-body'><h1 class='card-title'>{e(b.title)}</h1>"
        f"<div class='people'>{people}</div>"
        f"<div class='card-price'><i class='bi bi-cash'></i> <span>{e(b.price)}</span> "
        f"<span class='text-muted'>(was {e(b.list_price)})</span></div>"
        f"<ul class='list-unstyled facts'>{items}</ul></div></div>",
    )


def librairie(b: Book) -> str:
    """A French bookshop: "Label&nbsp;: value" in one text node per line, authors written
    "A, B et C", an ISBN-10 and a first-edition date beside the fields, an og:url copy first."""
    if len(b.authors) == 1:
        by = e(b.authors[0])
    else:
        by = ", ".join(e(a) for a in b.authors[:-1]) + " et " + e(b.authors[-1])
    lines = [
        f"Éditeur&nbsp;: {e(b.publisher)}",
        f"Date de parution&nbsp;: {e(b.published)}",
        f"Première édition&nbsp;: {e(b.first_published)}",
        f"Reliure&nbsp;: {e(b.binding)}",
        f"ISBN-10&nbsp;: {_isbn10(b.isbn)}",
        f"EAN&nbsp;: {b.isbn}",
        f"Référence&nbsp;: {e(b.sku)}",
    ]
    if b.series:
        lines.insert(0, f"Collection&nbsp;: {e(b.series)}")
    return _page(
        "La Page",
        f"<meta property='og:url' content='https://lapage.example/livre/{b.isbn}'>"
        f"<div id='fiche'><h1 class='titre'>{e(b.title)}</h1><p class='auteurs'>de {by}</p>"
        f"<div class='prix'>Prix&nbsp;: <span class='montant'>{e(b.price)}</span></div>"
        f"<ul class='caracteristiques'>{''.join(f'<li>{x}</li>' for x in lines)}</ul></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 8: written after batch 7 had been used for tuning (the current HELD_OUT)


def slash_dmy(y: int, m: int, d: int) -> str:
    return f"{d:02d}/{m:02d}/{y}"


def short_us_date(y: int, m: int, d: int) -> str:
    return f"{MONTHS[m - 1][:3]} {d}, {y}"


def cms_fields(b: Book) -> str:
    """A CMS node: one div per field with a label div and item divs (several items for authors),
    the field name only in a modifier class; an empty optional field rendered without items."""

    def fld(name: str, label: str, items: list[str]) -> str:
        inner = "".join(f"<div class='field__item'>{v}</div>" for v in items)
        many = f"<div class='field__items'>{inner}</div>" if len(items) > 1 else inner
        return (
            f"<div class='field field--name-field-{name} field--label-inline'>"
            f"<div class='field__label'>{label}</div>{many}</div>"
        )

    fields = [fld("author", "Author", [e(a) for a in b.authors])]
    if b.series:
        fields.append(fld("series", "Series", [e(b.series)]))
    fields += [
        fld("publisher", "Publisher", [e(b.publisher)]),
        fld("date", "Published", [e(b.published)]),
        fld("binding", "Binding", [e(b.binding)]),
        fld("isbn", "ISBN", [b.isbn]),
        fld("sku", "Stock number", [e(b.sku)]),
        fld("price", "Price", [e(b.price)]),
    ]
    return _page(
        "Reading Lamp",
        f"<article class='node node--type-book'><h1 class='page-title'><span>{e(b.title)}</span></h1>"
        f"<link rel='canonical' href='/node/{b.isbn}'>"
        f"<div class='node__content'>{''.join(fields)}</div></article>",
    )


def prose(b: Book) -> str:
    """Values inside sentences: only the words around them are stable; price inside a button."""
    if len(b.authors) == 1:
        by = e(b.authors[0])
    else:
        by = ", ".join(e(a) for a in b.authors[:-1]) + " and " + e(b.authors[-1])
    return _page(
        "Booknook",
        f"<div class='post'><h2 class='post-title'>{e(b.title)}</h2>"
        f"<p class='post-meta'>Written by {by}.</p>"
        f"<p>Published by {e(b.publisher)} on {e(b.published)}. This {e(b.binding)} edition "
        f"(ISBN {b.isbn}) runs to {b.pages} pages and is stock item {e(b.sku)}.</p>"
        f"<form><button type='submit'>Add to basket &ndash; {e(b.price)}</button></form></div>",
    )


def value_first(b: Book) -> str:
    """Each value before its label (``<b>Tor</b> <span>publisher</span>``); authors joined by
    slashes; a list price struck through before the price."""
    facts = [(e(b.publisher), "publisher"), (e(b.published), "released")]
    if b.edition:
        facts.append((e(b.edition), "edition"))
    facts += [(e(b.binding), "format"), (b.isbn, "ISBN-13"), (e(b.sku), "our code")]
    items = "".join(f"<li><b>{v}</b> <span class='what'>{k}</span></li>" for v, k in facts)
    authors = " / ".join(f"<a rel='author' href='/by/{i}'>{e(a)}</a>" for i, a in enumerate(b.authors))
    return _page(
        "Dog-Ear",
        f"<section class='book'><h1>{e(b.title)}</h1><p class='who'>{authors}</p>"
        f"<p class='money'><s>{e(b.list_price)}</s> <ins>{e(b.price)}</ins></p>"
        f"<ul class='facts'>{items}</ul></section>",
    )


def tabbed(b: Book) -> str:
    """A summary tab shown and a details tab present but ``hidden`` until clicked; a d-none copy
    of the ISBN link first. Details are only in the hidden panel."""
    people = "".join(f"<li><a href='/c/{i}'>{e(a)}</a></li>" for i, a in enumerate(b.authors))
    rows = [("Publisher", e(b.publisher)), ("On sale", e(b.published)), ("Format", e(b.binding))]
    if b.edition:
        rows.insert(1, ("Edition", e(b.edition)))
    rows += [("ISBN", b.isbn), ("Product ID", e(b.sku))]
    table = "".join(f"<tr><td class='k'>{k}</td><td class='v'>{v}</td></tr>" for k, v in rows)
    return _page(
        "Tabula",
        f"<div class='d-none'><a href='/p/{b.isbn}'>{b.isbn}</a></div>"
        f"<main><h1 class='product-name'>{e(b.title)}</h1><ul class='by'>{people}</ul>"
        f"<div class='buy-box'><span class='amount'>{e(b.price)}</span></div>"
        "<div role='tablist'><button role='tab' aria-selected='true'>Summary</button>"
        "<button role='tab' aria-selected='false'>Details</button></div>"
        f"<div role='tabpanel' id='summary'><p>{b.pages} pages of {e(b.title.lower())}.</p></div>"
        f"<div role='tabpanel' id='details' hidden><table>{table}</table></div></main>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 9: written after batch 8 had been used for tuning (the current HELD_OUT)


def month_year(y: int, m: int, d: int) -> str:
    return f"{MONTHS[m - 1]} {y}"


def us_numeric(y: int, m: int, d: int) -> str:
    return f"{m}/{d}/{y}"


def heading_sections(b: Book) -> str:
    """Each fact a <section> with an <h3> heading as its label and a <p> (or a list) below;
    optional sections; a <details> summary repeating the ISBN first."""
    secs = [("Authors", "<ul>" + "".join(f"<li>{e(a)}</li>" for a in b.authors) + "</ul>")]
    if b.series:
        secs.append(("Series", f"<p>{e(b.series)}</p>"))
    secs += [("Publisher", f"<p>{e(b.publisher)}</p>"), ("Publication", f"<p>{e(b.published)}</p>")]
    if b.edition:
        secs.append(("Edition", f"<p>{e(b.edition)}</p>"))
    secs += [
        ("Binding", f"<p>{e(b.binding)}</p>"),
        ("ISBN", f"<p>{b.isbn}</p>"),
        ("Code", f"<p>{e(b.sku)}</p>"),
    ]
    body = "".join(f"<section class='fact'><h3>{k}</h3>{v}</section>" for k, v in secs)
    return _page(
        "Marginalia",
        f"<details class='share'><summary>Share</summary><p>/b/{b.isbn}</p></details>"
        f"<div class='sheet'><h2>{e(b.title)}</h2><p class='cost'>{e(b.price)}</p>{body}</div>",
    )


def dot_leaders(b: Book) -> str:
    """A <pre> block of "Label ..... value" lines padded with dot leaders; authors on one line
    joined by "; "; the price in a <kbd>."""
    rows = [("Title", e(b.title)), ("Author(s)", "; ".join(e(a) for a in b.authors))]
    rows += [("Publisher", e(b.publisher)), ("Date", e(b.published)), ("Binding", e(b.binding))]
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("ISBN", b.isbn), ("Stock no", e(b.sku))]
    lines = "\n".join(f"{k} {'.' * (14 - len(k))} {v}" for k, v in rows)
    return _page(
        "Terminal Books",
        f"<div class='listing'><h1>{e(b.title)}</h1><pre class='record'>{lines}</pre>"
        f"<p>Price: <kbd>{e(b.price)}</kbd></p></div>",
    )


def paired_table(b: Book) -> str:
    """A table with two label/value pairs a row (th td th td); optional pairs shift the rest;
    authors in spans separated by "; "."""
    pairs = [
        ("Author", "; ".join(f"<span class='n'>{e(a)}</span>" for a in b.authors)),
        ("Publisher", e(b.publisher)),
    ]
    if b.series:
        pairs.append(("Series", e(b.series)))
    pairs += [("Date", e(b.published)), ("Binding", e(b.binding)), ("ISBN", b.isbn), ("Item", e(b.sku))]
    if len(pairs) % 2:
        pairs.append(("", ""))
    rows = "".join(
        f"<tr><th>{a}</th><td>{x}</td><th>{c}</th><td>{y}</td></tr>"
        for (a, x), (c, y) in zip(pairs[::2], pairs[1::2], strict=True)
    )
    return _page(
        "Bindery",
        f"<div id='item'><h1>{e(b.title)}</h1><div class='price'>{e(b.price)} "
        f"<small>RRP {e(b.list_price)}</small></div><table class='info'>{rows}</table></div>",
    )


def data_attributes(b: Book) -> str:
    """The shop id only in a data attribute of the buy button; other values visible, with data-*
    copies on the container; the price inside a sentence."""
    authors = (
        " &amp; ".join(f"<cite>{e(a)}</cite>" for a in b.authors)
        if len(b.authors) < 3
        else (", ".join(f"<cite>{e(a)}</cite>" for a in b.authors))
    )
    return _page(
        "Spine & Co",
        f"<div class='product' data-isbn='{b.isbn}' data-price='{e(b.price)}' data-title='{e(b.title)}'>"
        f"<h1>{e(b.title)}</h1><p class='by'>{authors}</p>"
        f"<p class='deal'>Now only <span class='p'>{e(b.price)}</span> while stocks last!</p>"
        f"<p class='info'><span>{e(b.publisher)}</span> | <span>{e(b.binding)}</span> | "
        f"<span>{e(b.published)}</span> | <span>ISBN {b.isbn}</span></p>"
        f"<button class='add' data-sku='{e(b.sku)}'>Add to cart</button></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 10: written after batch 9 had been used for tuning (the current HELD_OUT);
# page shapes of real shop and catalogue platforms.


def ja_date(y: int, m: int, d: int) -> str:
    return f"{y}/{m}/{d}"


def _on_sale(b: Book) -> bool:
    """Whether a page shows a sale (a struck compare-at price): about half the pages, fixed per book."""
    return int(b.isbn[-2]) % 2 == 0


def shopify_product(b: Book) -> str:
    """A hosted-shop theme: the product JSON in a <script type=application/json> first, the
    vendor (publisher) link under the title, a compare-at price struck before the sale price on
    sale pages only, the binding only as the selected option of a variant <select>, and the
    other facts typed by the shop owner into the description as "<strong>Label:</strong> value<br>"."""
    data = json.dumps(
        {
            "id": int(b.isbn[-7:]),
            "title": b.title,
            "vendor": b.publisher,
            "variants": [{"sku": b.sku, "barcode": b.isbn, "option1": b.binding, "price": b.price}],
        }
    ).replace("</", "<\\/")
    if _on_sale(b):
        price = (
            f"<s class='price-item price-item--regular'>{e(b.list_price)}</s> "
            f"<span class='price-item price-item--sale'>{e(b.price)}</span>"
        )
    else:
        price = f"<span class='price-item price-item--regular'>{e(b.price)}</span>"
    options = "".join(
        f"<option value='{e(x)}'{' selected' if x == b.binding else ''}>{e(x)}</option>" for x in BINDINGS
    )
    lines = [("Authors" if len(b.authors) > 1 else "Author", ", ".join(e(a) for a in b.authors))]
    lines += [("Publisher", e(b.publisher)), ("Publication date", e(b.published))]
    if b.edition:
        lines.append(("Edition", e(b.edition)))
    lines += [("ISBN", b.isbn), ("Pages", str(b.pages))]
    facts = "<br>".join(f"<strong>{k}:</strong> {v}" for k, v in lines)
    return _page(
        "Paper Moon Books",
        f"<script type='application/json' id='ProductJson-product-template'>{data}</script>"
        "<div class='product-single' data-section-type='product'><div class='product-single__meta'>"
        f"<h1 class='product-single__title'>{e(b.title)}</h1>"
        f"<p class='product-single__vendor'><a href='/collections/vendors?q={e(b.publisher)}'>"
        f"{e(b.publisher)}</a></p>"
        f"<div class='price'><span class='visually-hidden'>Price</span>{price}</div>"
        "<form action='/cart/add' class='product-form'><div class='selector-wrapper'>"
        f"<label for='SingleOptionSelector-0'>Format</label><select class='single-option-selector' "
        f"id='SingleOptionSelector-0'>{options}</select></div>"
        "<button type='submit' class='btn product-form__cart-submit'>Add to cart</button></form>"
        f"<p class='product-single__sku'>SKU: <span class='variant-sku'>{e(b.sku)}</span></p>"
        f"<div class='product-single__description rte'><p>A {b.pages}-page story.</p>"
        f"<p>{facts}</p></div></div></div>",
    )


def magento_product(b: Book) -> str:
    """A Magento 2 product page: the title in a span of the h1, a special price with a
    "Regular Price" old price after it on sale pages, the SKU in an attribute div beside the
    stock, a "More Information" table whose cells repeat their label in data-th (authors "A, B"
    in one cell, optional rows), and related products with their own names and prices."""
    pid = int(b.isbn[-5:])
    amount = "".join(c for c in b.price if c.isdigit() or c in ".,")
    if _on_sale(b):
        price = (
            "<span class='special-price'><span class='price-container price-final_price tax weee'>"
            "<span class='price-label'>Special Price</span>"
            f"<span id='product-price-{pid}' data-price-amount='{amount}' data-price-type='finalPrice' "
            f"class='price-wrapper'><span class='price'>{e(b.price)}</span></span></span></span>"
            "<span class='old-price'><span class='price-container price-final_price tax weee'>"
            "<span class='price-label'>Regular Price</span>"
            f"<span id='old-price-{pid}' data-price-type='oldPrice' class='price-wrapper'>"
            f"<span class='price'>{e(b.list_price)}</span></span></span></span>"
        )
    else:
        price = (
            "<span class='price-container price-final_price tax weee'>"
            f"<span id='product-price-{pid}' data-price-amount='{amount}' data-price-type='finalPrice' "
            f"class='price-wrapper'><span class='price'>{e(b.price)}</span></span></span>"
        )
    rows = [("Author", ", ".join(e(a) for a in b.authors))]
    if b.series:
        rows.append(("Series", e(b.series)))
    rows += [("Publisher", e(b.publisher)), ("Publication Date", e(b.published))]
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("Format", e(b.binding)), ("ISBN", b.isbn), ("Pages", str(b.pages))]
    table = "".join(
        f"<tr><th class='col label' scope='row'>{k}</th><td class='col data' data-th='{k}'>{v}</td></tr>"
        for k, v in rows
    )
    related = "".join(
        f"<li class='item product product-item'><div class='product-item-info'>"
        f"<strong class='product name product-item-name'><a class='product-item-link' href='/r/{i}'>"
        f"{e(t)}</a></strong><div class='price-box price-final_price'><span class='price-container'>"
        f"<span class='price-wrapper'><span class='price'>{e(p)}</span></span></span></div></div></li>"
        for i, (t, _a, p) in enumerate(b.related)
    )
    return _page(
        "Luma Books",
        "<main id='maincontent' class='page-main'><div class='columns'><div class='column main'>"
        "<div class='product-info-main'><div class='page-title-wrapper product'><h1 class='page-title'>"
        f"<span class='base' data-ui-id='page-title-wrapper' itemprop='name'>{e(b.title)}</span></h1></div>"
        "<div class='product-info-price'><div class='price-box price-final_price' data-role='priceBox' "
        f"data-product-id='{pid}'>{price}</div>"
        "<div class='product-info-stock-sku'><div class='stock available' title='Availability'>"
        "<span>In stock</span></div><div class='product attribute sku'><strong class='type'>SKU</strong>"
        f"<div class='value' itemprop='sku'>{e(b.sku)}</div></div></div></div></div>"
        "<div class='product info detailed'><div class='product data items' data-mage-init='{}'>"
        "<div class='data item title' data-role='collapsible' id='tab-label-additional'>"
        "<a class='data switch' href='#additional'>More Information</a></div>"
        "<div class='data item content' id='additional' data-role='content'>"
        "<div class='additional-attributes-wrapper table-wrapper'>"
        "<table class='data table additional-attributes' id='product-attribute-specs-table'>"
        f"<caption class='table-caption'>More Information</caption><tbody>{table}</tbody></table>"
        "</div></div></div></div>"
        "<div class='block related'><div class='block-title title'><strong>Related Products</strong></div>"
        f"<ol class='products list items product-items'>{related}</ol></div></div></div></main>",
    )


def amazon_jp(b: Book) -> str:
    """A Japanese marketplace page: byline names each followed by a "(著)"/"(翻訳)" role, the
    binding with the date beside the title ("Hardcover – 2019/5/15"), a yen price written twice
    (an off-screen copy, then symbol and amount in separate spans), and detail bullets whose
    labels carry invisible direction marks ("出版社 &rlm; : &lrm;"): the publisher packed with the
    edition and date, the binding as a label with the page count as its value, ISBN-10 beside
    ISBN-13, and the seller SKU."""
    roles = ["(著)"] + ["(翻訳)" if i % 2 else "(著)" for i in range(1, len(b.authors))]
    byline = "".join(
        f"<span class='author notFaded'><a class='a-link-normal' href='/e/{i}'>{e(a)}</a>"
        f"<span class='contribution'><span class='a-color-secondary'>{roles[i]}</span></span>"
        + ("<span class='a-color-secondary'>, </span>" if i < len(b.authors) - 1 else "")
        + "</span>"
        for i, a in enumerate(b.authors)
    )
    symbol, whole = b.price[0], b.price[1:]
    packed = e(b.publisher) + (f"; {e(b.edition)}" if b.edition else "") + f" ({e(b.published)})"

    def bullet(label: str, value: str) -> str:
        return (
            f"<li><span class='a-list-item'><span class='a-text-bold'>{label} &rlm; : &lrm;</span> "
            f"<span>{value}</span></span></li>"
        )

    bullets = [bullet("出版社", packed), bullet("発売日", e(b.published)), bullet("言語", "英語")]
    bullets += [bullet(e(b.binding), f"{b.pages}ページ"), bullet("ISBN-10", _isbn10(b.isbn))]
    bullets += [bullet("ISBN-13", b.isbn), bullet("出品者SKU", e(b.sku))]
    return _page(
        "Amazon.co.jp",
        "<div id='centerCol'><div id='title_feature_div'><h1 id='title' class='a-size-large'>"
        f"<span id='productTitle' class='a-size-extra-large'>{e(b.title)}</span></h1>"
        f"<span id='productSubtitle' class='a-size-large a-color-secondary'>{e(b.binding)} – "
        f"{e(b.published)}</span></div><div id='bylineInfo' class='a-section'>{byline}</div>"
        "<div id='corePrice_feature_div'><span class='a-price a-text-price'>"
        f"<span class='a-offscreen'>{e(b.price)}</span><span aria-hidden='true'>"
        f"<span class='a-price-symbol'>{e(symbol)}</span><span class='a-price-whole'>{e(whole)}</span>"
        "</span></span><span class='a-size-small'>(税込)</span></div></div>"
        "<div id='detailBullets_feature_div'><h2>登録情報</h2>"
        f"<ul class='a-unordered-list a-nostyle a-vertical detail-bullet-list'>{''.join(bullets)}</ul></div>",
    )


def goodreads_book(b: Book) -> str:
    """A book-community page: a series line over the title, contributors as name spans with a
    role span on some ("(Translator)"), a featured "N pages, Binding" line and a "First
    published" date of the first edition, then the expandable edition details: a dl of div rows
    with "Published <date> by <publisher>" packed, the ISBN with its ISBN-10 in brackets."""
    contributors = "".join(
        f"<span tabindex='-1'><a class='ContributorLink' href='/author/show/{i}'>"
        f"<span class='ContributorLink__name' data-testid='name'>{e(a)}</span>"
        + ("<span class='ContributorLink__role' data-testid='role'>(Translator)</span>" if i == 2 else "")
        + "</a>"
        + (", " if i < len(b.authors) - 1 else "")
        + "</span>"
        for i, a in enumerate(b.authors)
    )
    series = (
        f"<h3 class='Text Text__title3 Text__italic' aria-label='Book {e(b.series)}'>"
        f"<a href='/series/1'>{e(b.series)}</a></h3>"
        if b.series
        else ""
    )
    rows = [("Format", f"{b.pages} pages, {e(b.binding)}")]
    rows.append(("Published", f"{e(b.published)} by {e(b.publisher)}"))
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("ISBN", f"{b.isbn} (ISBN10: {_isbn10(b.isbn)})"), ("ASIN", e(b.sku)), ("Language", "English")]
    details = "".join(
        f"<div class='DescListItem'><dt>{k}</dt><dd><div class='TruncatedContent__text'>{v}</div></dd></div>"
        for k, v in rows
    )
    return _page(
        "Goodreads",
        "<div class='BookPage__mainContent'><div class='BookPageTitleSection'>"
        f"<div class='BookPageTitleSection__title'>{series}"
        f"<h1 class='Text Text__title1' data-testid='bookTitle' aria-label='Book title: {e(b.title)}'>"
        f"{e(b.title)}</h1></div></div><div class='BookPageMetadataSection'>"
        "<div class='BookPageMetadataSection__contributor'><h3 class='Text Text__title3' "
        f"aria-label='List of contributors'><div class='ContributorLinksList'>{contributors}</div></h3></div>"
        "<div class='BookActions'><button class='Button Button--buy'><span class='Button__labelItem'>"
        f"Buy on Amazon</span> <span class='Button__labelItem'>{e(b.price)}</span></button></div>"
        f"<div class='FeaturedDetails'><p data-testid='pagesFormat'>{b.pages} pages, {e(b.binding)}</p>"
        f"<p data-testid='publicationInfo'>First published {e(b.first_published)}</p></div>"
        "<div class='BookDetails'><button aria-expanded='false'>Book details &amp; editions</button>"
        f"<div class='EditionDetails'><dl>{details}</dl></div></div></div></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 11: written after batch 10 had been used for tuning (the current HELD_OUT);
# more page shapes of real platforms.


def year_only(y: int, m: int, d: int) -> str:
    return str(y)


def cn_date(y: int, m: int, d: int) -> str:
    return f"{y}-{m:02d}-{d:02d}"


def koha_record(b: Book) -> str:
    """A library OPAC's record: "By:" then linked names separated by " | " with a relator term
    in brackets, the ISBN with its binding as a qualifier ("9781... (Hardcover)"), the imprint
    as "Publication details: City : Publisher, 2019." with RDFa spans, the holdings table (a
    header row over one copy) holding the price and barcode, and a COinS span with every value."""
    names = " | ".join(
        f"<span property='author' typeof='Person'><a href='/cgi-bin/koha/opac-search.pl?q=au:{i}'>"
        f"<span property='name'>{e(a)}</span></a><span class='relatorcode'> "
        f"[{'author' if i == 0 else 'contributor'}]</span></span>"
        for i, a in enumerate(b.authors)
    )
    coins = (
        f"ctx_ver=Z39.88-2004&amp;rft.btitle={e(b.title)}&amp;rft.isbn={b.isbn}"
        f"&amp;rft.pub={e(b.publisher)}&amp;rft.date={e(b.published)}"
    )
    edition = (
        f"<span class='results_summary edition'><span class='label'>Edition: </span>{e(b.edition)}</span>"
        if b.edition
        else ""
    )
    series = (
        "<span class='results_summary series'><span class='label'>Series: </span>"
        f"<a href='/s'>{e(b.series)}</a></span>"
        if b.series
        else ""
    )
    return _page(
        "Public Library Catalog",
        f"<span class='Z3988' title='{coins}'></span><div id='catalogue_detail_biblio' class='record' "
        f"vocab='http://schema.org/' typeof='CreativeWork Product'><h1 class='title' property='name'>"
        f"{e(b.title)}</h1><h5 class='author'>By: {names}</h5>"
        "<span class='results_summary type'><span class='label'>Material type: </span>Text</span>"
        f"{series}{edition}"
        "<span class='results_summary publisher'><span class='label'>Publication details: </span>"
        f"<span property='publisher' typeof='Organization'><span property='location'>{r_city(b)}</span> : "
        f"<span property='name'>{e(b.publisher)}</span>, </span><span property='datePublished'>"
        f"{e(b.published)}</span>.</span>"
        f"<span class='results_summary isbn'><span class='label'>ISBN: </span><span property='isbn'>"
        f"{b.isbn} ({e(b.binding)})</span></span></div>"
        "<div id='holdings'><table class='holdingst'><thead><tr><th>Item type</th><th>Current library</th>"
        "<th>Status</th><th>Price</th><th>Barcode</th></tr></thead><tbody><tr><td class='itype'>Books</td>"
        "<td class='location'>Main branch</td><td class='status'>Available</td>"
        f"<td class='price'>{e(b.price)}</td><td class='barcode'>{e(b.sku)}</td></tr></tbody></table></div>",
    )


def r_city(b: Book) -> str:
    return CITIES[int(b.isbn[-3]) % len(CITIES)]


def ebay_item(b: Book) -> str:
    """An auction/marketplace listing: the title in a bold text span, "US $12.99/ea" price, the
    seller's item number in the description tab header, and "Item specifics" as rows of two
    label/value columns where labels and values are the same ``ux-textspans`` spans (rows of
    two, optional specifics shifting the rest), "Condition" first, authors in one value "A, B"."""
    specs = [("Condition", "Brand New"), ("Book Title", e(b.title))]
    specs += [("Author", ", ".join(e(a) for a in b.authors)), ("Publisher", e(b.publisher))]
    if b.edition:
        specs.append(("Edition", e(b.edition)))
    specs += [("Publication Date", e(b.published)), ("Format", e(b.binding)), ("ISBN", b.isbn)]
    specs.append(("Language", "English"))

    def col(k: str, v: str) -> str:
        return (
            "<div class='ux-layout-section-evo__col'><div class='ux-labels-values__labels'>"
            f"<div class='ux-labels-values__labels-content'><span class='ux-textspans'>{k}</span></div></div>"
            "<div class='ux-labels-values__values'><div class='ux-labels-values__values-content'>"
            f"<span class='ux-textspans'>{v}</span></div></div></div>"
        )

    if len(specs) % 2:
        specs.append(("", ""))
    rows = "".join(
        f"<div class='ux-layout-section-evo__row'>{col(*a)}{col(*c)}</div>"
        for a, c in zip(specs[::2], specs[1::2], strict=True)
    )
    return _page(
        "eBay",
        "<div class='x-item-title'><h1 class='x-item-title__mainTitle'><span class='ux-textspans "
        f"ux-textspans--BOLD'>{e(b.title)} by {e(b.authors[0])} ({e(b.binding)})</span></h1></div>"
        "<div class='x-price-primary'><span class='ux-textspans'>"
        f"{'US ' + e(b.price)}/ea</span></div>"
        "<div class='x-sellercard-atf'><span class='ux-textspans ux-textspans--BOLD'>bookbarn_2011</span> "
        "<span class='ux-textspans ux-textspans--SECONDARY'>(4521)</span></div>"
        "<div class='tabs__content'><div class='ux-layout-section__textual-display--itemId'>"
        "<span class='ux-textspans ux-textspans--SECONDARY'>eBay item number:</span>"
        f"<span class='ux-textspans ux-textspans--BOLD'>{e(b.sku)}</span></div>"
        "<div class='ux-layout-section-module-evo'><h2 class='section-title'>Item specifics</h2>"
        f"<div class='ux-layout-section-evo ux-layout-section--features'>{rows}</div></div></div>",
    )


def google_books(b: Book) -> str:
    """A book-search page: "Bibliographic information" as a table of label/value rows where the
    publisher and year share one value ("Tor, 2019"), both ISBNs one value ("1250..., 9781..."),
    authors one value "A, B"; the price in a "Buy eBook" link; the id only in the canonical URL
    and an "Export Citation" link."""
    rows = [("Title", e(b.title))]
    if b.series:
        rows.append(("Volume", e(b.series)))
    rows.append(("Author" if len(b.authors) == 1 else "Authors", ", ".join(e(a) for a in b.authors)))
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("Publisher", f"{e(b.publisher)}, {e(b.published)}"), ("ISBN", f"{_isbn10(b.isbn)}, {b.isbn}")]
    rows += [("Length", f"{b.pages} pages"), ("Binding", e(b.binding))]
    table = "".join(
        f"<tr class='metadata_row'><td class='metadata_label'><span dir='ltr'>{k}</span></td>"
        f"<td class='metadata_value'><span dir='ltr'>{v}</span></td></tr>"
        for k, v in rows
    )
    return _page(
        "Google Books",
        f"<link rel='canonical' href='https://books.example/books?id={e(b.sku)}'>"
        f"<div id='volume-center'><h1 class='booktitle'><span class='fn'><span dir='ltr'>{e(b.title)}</span>"
        "</span></h1><div class='bookinfo_sectionwrap'>"
        + "".join(
            f"<a class='secondary' href='/a/{i}'><span dir='ltr'>{e(a)}</span></a>, "
            for i, a in enumerate(b.authors)
        )
        + f"<span dir='ltr'>{e(b.publisher)}</span>, <span dir='ltr'>{e(b.published)}</span></div>"
        f"<div id='gb-get-book-container'><a class='gb-button' href='/buy'>Buy eBook - {e(b.price)}</a></div>"
        "<div id='metadata_content'><h3 class='about_title'>Bibliographic information</h3>"
        f"<table id='metadata_content_table'><tbody>{table}</tbody></table></div>"
        f"<a class='secondary' href='/books/download/{e(b.sku)}.bibtex'>Export Citation: BiBTeX</a></div>",
    )


def jd_item(b: Book) -> str:
    """A Chinese shop: the price split into a currency span and an amount span (a
    machine-updated class with the product number), authors as links followed by "著"/"译",
    and a parameter list of "出版社：<a>Tor</a>" items with a title attribute copying each value,
    in the order the seller typed them (it differs between pages)."""
    roles = ["著"] + ["译" if i % 2 else "著" for i in range(1, len(b.authors))]
    authors = "，".join(
        f"<a href='/a/{i}' target='_blank'>{e(a)}</a> {roles[i]}" for i, a in enumerate(b.authors)
    )
    items = [
        f"<li title='{e(b.publisher)}'>出版社：<a href='/p'>{e(b.publisher)}</a></li>",
        f"<li title='{b.isbn}'>ISBN：{b.isbn}</li>",
        f"<li title='{e(b.sku)}'>商品编码：{e(b.sku)}</li>",
        f"<li title='{e(b.binding)}'>包装：{e(b.binding)}</li>",
        f"<li title='{e(b.published)}'>出版时间：{e(b.published)}</li>",
        f"<li title='{b.pages}'>页数：{b.pages}</li>",
    ]
    if b.edition:
        items.append(f"<li title='{e(b.edition)}'>版次：{e(b.edition)}</li>")
    order = random.Random(b.isbn).sample(range(len(items)), len(items))
    symbol, amount = b.price[0], b.price[1:]
    num = b.isbn[-6:]
    return _page(
        "JD Books",
        f"<div class='w'><div class='itemInfo-wrap'><div class='sku-name'>{e(b.title)}</div>"
        f"<div class='p-author' id='p-author'>{authors}</div>"
        f"<div class='summary-price J-summary-price'><div class='dt'>京 东 价</div><div class='dd'>"
        f"<span class='p-price'><span>{e(symbol)}</span>"
        f"<span class='price J-p-{num}'>{e(amount)}</span></span>"
        f"<a class='notice J-notify-sale' data-type='1' data-sku='{num}' href='#none'>降价通知</a>"
        "</div></div></div>"
        "<div class='detail'><div class='tab-con'><div class='p-parameter'>"
        f"<ul id='parameter2' class='p-parameter-list'>{''.join(items[i] for i in order)}</ul>"
        "</div></div></div></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 12: written after batch 11 had been used for tuning;
# page shapes of real European, US and second-hand book platforms.

MOIS_RU = [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
]


def ru_date(y: int, m: int, d: int) -> str:
    return f"{d} {MOIS_RU[m - 1]} {y}"


def _other_price(b: Book, k: int) -> str:
    """Another price in the page's own currency format: the related book ``k``'s (wraps round)."""
    return b.related[k % len(b.related)][2]


def _discounted(price: str, factor: float) -> str:
    """A member or card price below ``price`` ("12,99 €" style: comma decimals, currency after)."""
    amount, currency = price.rsplit(" ", 1)
    return f"{float(amount.replace(',', '.')) * factor:.2f} {currency}".replace(".", ",")


def fnac_product(b: Book) -> str:
    """A French retailer's product page: contributors as links each followed by "(Auteur)",
    the price in a price box beside a member price and a "used from" offer, and "Caractéristiques"
    as groups of label/value items in nested lists (a heading per group; rows missing when the
    book has no such fact; the authors again in an "Auteur" row of links)."""
    byline = ", ".join(
        f"<a class='f-productHeader__authorLink' href='/ia{i}/{e(a)}'>{e(a)}</a> (Auteur)"
        for i, a in enumerate(b.authors)
    )

    def item(label: str, value: str) -> str:
        return (
            "<li class='f-productCharacteristics__item'>"
            f"<span class='f-productCharacteristics__label'>{label}</span>"
            f"<span class='f-productCharacteristics__value'>{value}</span></li>"
        )

    general = [item("Auteur", " ".join(f"<a href='/ia{i}'>{e(a)}</a>" for i, a in enumerate(b.authors)))]
    general.append(item("Editeur", f"<a href='/e/{e(b.publisher)}'>{e(b.publisher)}</a>"))
    if b.series:
        general.append(item("Collection", e(b.series)))
    general.append(item("Date de parution", e(b.published)))
    if b.edition:
        general.append(item("Edition", e(b.edition)))
    details = [item("Format", e(b.binding)), item("EAN", b.isbn), item("Nombre de pages", str(b.pages))]
    details.append(item("Référence", e(b.sku)))
    groups = "".join(
        "<li class='f-productCharacteristics__group'>"
        f"<h3 class='f-productCharacteristics__groupTitle'>{t}</h3>"
        f"<ul class='f-productCharacteristics__list'>{''.join(rows)}</ul></li>"
        for t, rows in (("Informations générales", general), ("Caractéristiques détaillées", details))
    )
    member = ""
    if _on_sale(b):  # a member price only on some pages
        member = f"<p class='f-faPriceBox__member'>Adhérents : {e(_discounted(b.price, 0.95))}</p>"
    return _page(
        "Fnac",
        "<div class='f-productPage'><div class='f-productHeader'>"
        f"<h1 class='f-productHeader-Title'>{e(b.title)}</h1>"
        f"<div class='f-productHeader__authors'>{byline}</div>"
        f"<p class='f-productHeader__format'>{e(b.binding)} - Anglais - {e(b.published)}</p></div>"
        "<div class='f-faPriceBox'><span class='f-faPriceBox__priceLabel'>Neuf</span>"
        f"<span class='f-faPriceBox__price userPrice'>{e(b.price)}</span>{member}"
        f"<a class='f-mpOffers' href='/offres'>Occasion dès {e(_other_price(b, 1))}</a></div>"
        "<section class='f-productCharacteristics' id='Characteristics'><h2>Caractéristiques</h2>"
        f"<ul class='f-productCharacteristics__groups'>{groups}</ul></section></div>",
    )


def barnes_noble(b: Book) -> str:
    """A US bookseller's product page: "by" then author links, a format switcher of buttons (one
    per binding with its own price; the current one marked ``aria-pressed``), the current price
    with a struck list price, and a "Product Details" table of "Label:" th/td rows ("ISBN-13:",
    "Publisher:" as a link, "Publication date:", "Series:"/"Edition description:" when there are
    such facts, "Pages:", "Sales rank:", "BN ID:")."""
    others = [x for x in BINDINGS if x != b.binding]
    prices = {b.binding: b.price, others[0]: _other_price(b, 0), others[1]: _other_price(b, 1)}
    buttons = "".join(
        "<li class='otherAvailFormats'>"
        f"<button class='btn-format' aria-pressed='{str(x == b.binding).lower()}'>"
        f"<span class='format'>{e(x)}</span><span class='price'>{e(prices[x])}</span></button></li>"
        for x in BINDINGS
    )
    rows = [("ISBN-13:", b.isbn), ("Publisher:", f"<a href='/b/{e(b.publisher)}'>{e(b.publisher)}</a>")]
    rows.append(("Publication date:", e(b.published)))
    if b.series:
        rows.append(("Series:", f"<a href='/s'>{e(b.series)}</a>"))
    if b.edition:
        rows.append(("Edition description:", e(b.edition)))
    rows += [("Pages:", str(b.pages)), ("Sales rank:", f"{int(b.isbn[-6:]):,}"), ("BN ID:", e(b.sku))]
    table = "".join(f"<tr><th scope='row'>{k}</th><td>{v}</td></tr>" for k, v in rows)
    authors = ", ".join(f"<a href='/s/{i}'>{e(a)}</a>" for i, a in enumerate(b.authors))
    return _page(
        "Barnes & Noble",
        "<div class='product-shelf-info'><h1 class='pdp-header-title'>"
        f"{e(b.title)}</h1><span class='contributors'>by {authors}</span>"
        f"<ul class='formatSwitcher'>{buttons}</ul>"
        "<div class='price-current'>"
        f"<span id='pdp-cur-price' class='price current-price'>{e(b.price)}</span> "
        f"<s class='old-price'>{e(b.list_price)}</s></div>"
        "<button class='add-to-cart-button'>Add to Cart</button></div>"
        "<div id='ProductDetailsTab'><h2>Product Details</h2>"
        f"<table class='plain centered'><tbody>{table}</tbody></table></div>"
        "<div class='related'><h2>Customers Who Bought This Item Also Bought</h2>"
        + "".join(
            f"<div class='product-info'><a href='/r/{i}'>{e(t)}</a>"
            f"<span class='contributors'>by {e(a)}</span>"
            f"<span class='price'>{e(p)}</span></div>"
            for i, (t, a, p) in enumerate(b.related)
        )
        + "</div>",
    )


def abebooks(b: Book) -> str:
    """A second-hand marketplace listing: the title, the authors joined by "; ", "Published by
    Tor, 2019" in one line, both ISBNs as links after their labels, the offers of several sellers
    (the item's own offer first, highlighted, then others with other prices and conditions), and
    "About this Item" prose with the binding and the seller's inventory number at its end."""
    offers = [("bookbarn", "New", b.price, "main-offer")]
    offers += [
        (s, "Used - Good", _other_price(b, i), "") for i, s in enumerate(["Better World", "Owl Books"])
    ]
    listing = "".join(
        f"<li class='result-item {cls}'><div class='seller'>Seller: <a href='/s/{e(s)}'>{e(s)}</a></div>"
        f"<div class='condition'>Condition: {c}</div><div class='item-price'>{e(p)}</div>"
        "<div class='shipping'>Shipping: FREE</div></li>"
        for s, c, p, cls in offers
    )
    about = (
        f"{e(b.binding)}. Condition: New. "
        + (f"{e(b.edition)}. " if b.edition else "")
        + f"{b.pages} pages. Brand new, never read. Ships from our warehouse. Seller Inventory # {e(b.sku)}"
    )
    return _page(
        "AbeBooks",
        "<div id='book-details'><h1 id='book-title'>"
        f"{e(b.title)}</h1><h2 id='book-author' class='author'>{'; '.join(e(a) for a in b.authors)}</h2>"
        f"<p id='book-publisher'>Published by {e(b.publisher)}, {e(b.published)}</p>"
        f"<p class='isbn'>ISBN 10: <a href='/{_isbn10(b.isbn)}'>{_isbn10(b.isbn)}</a> "
        f"ISBN 13: <a href='/{b.isbn}'>{b.isbn}</a></p></div>"
        f"<ul id='listing' class='result-list'>{listing}</ul>"
        f"<section id='about-this-item'><h2>About this Item</h2><p>{about}</p></section>",
    )


def ozon_product(b: Book) -> str:
    """A Russian marketplace: the title followed by " | " and the authors in the h1, a card
    price beside the regular price (the regular one is the truth) written as amount and currency
    in two spans, and "Характеристики" as one small dl per row (rows in the order the seller typed
    them, which differs between pages), the authors in an "Автор" row of links."""
    rows = [
        ("Автор", ", ".join(f"<a href='/a/{i}'>{e(a)}</a>" for i, a in enumerate(b.authors))),
        ("Издательство", f"<a href='/p'>{e(b.publisher)}</a>"),
        ("Дата выхода", e(b.published)),
        ("Тип обложки", e(b.binding)),
        ("ISBN", b.isbn),
        ("Артикул", e(b.sku)),
        ("Количество страниц", str(b.pages)),
        ("Язык издания", "Английский"),
    ]
    if b.series:
        rows.append(("Серия", e(b.series)))
    order = random.Random(b.sku + b.isbn).sample(range(len(rows)), len(rows))
    specs = "".join(
        f"<dl class='k3t'><dt class='t3k'><span>{rows[i][0]}</span></dt>"
        f"<dd class='kt4'>{rows[i][1]}</dd></dl>"
        for i in order
    )
    amount, currency = b.price.rsplit(" ", 1)
    card_amount, _ = _discounted(b.price, 0.93).rsplit(" ", 1)
    return _page(
        "OZON",
        f"<div class='webProductHeading'><h1 class='tsHeadline550Medium'>{e(b.title)} | "
        f"{', '.join(e(a) for a in b.authors)}</h1></div>"
        "<div class='webPrice'><div class='card-price'><span class='tsHeadline500Medium'>"
        f"{e(card_amount)}</span> <span>{e(currency)}</span> <span class='note'>c Ozon Картой</span></div>"
        f"<div class='regular-price'><span class='tsHeadline400'>{e(amount)}</span> "
        f"<span>{e(currency)}</span>"
        " <span class='note'>без Ozon Карты</span></div></div>"
        "<div id='section-characteristics'><h2>Характеристики</h2>"
        f"<div class='characteristics'>{specs}</div></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 13: written after batch 12 had been used for tuning (the current HELD_OUT),
# without reading the learner; page shapes of a book catalogue, a US indie-bookshop
# marketplace, a Dutch retailer and a Chinese bookshop.

MONTHS_SHORT = [m[:3] for m in MONTHS]


def ol_date(y: int, m: int, d: int) -> str:
    return f"{MONTHS_SHORT[m - 1]} {d:02d}, {y}"


def dash_dmy(y: int, m: int, d: int) -> str:
    return f"{d:02d}-{m:02d}-{y}"


def cn_month(y: int, m: int, d: int) -> str:
    return f"{y}年{m:02d}月"


def _ol_sort_key(date: str) -> tuple[int, int, int]:
    """``ol_date`` text back to (year, month, day), to list editions newest first."""
    return int(date[-4:]), MONTHS_SHORT.index(date[:3]) + 1, int(date[4:6])


def _people(r: random.Random, n: int) -> list[str]:
    """Names of other people on the page (reviewers, list owners) drawn from the authors' pools."""
    return [f"{r.choice(FIRST)} {r.choice(LAST)}" for _ in range(n)]


def open_library(b: Book) -> str:
    """A book catalogue's edition page: the cover column first with "Buy this book" (one shop's
    price, another shop priced on some pages only), "An edition of <work> (first year)", the
    byline of author links joined by ", ", an omniline of "Publish Date"/"Publisher"/"Language"/
    "Pages" items (label div, value span), a featured-editions table where every row repeats the
    title with "<date>, <publisher>" and a format (this edition among them, at a place that
    depends on the dates), reading lists with their owners' names, then "Book Details" as
    headed dl sections ("Edition Notes", "The Physical Object" with the format, "ID Numbers"
    with the catalogue id, ISBN 10 and ISBN 13). ``books:isbn`` and ``og:title`` metas first, and
    the title and byline also in a mobile copy hidden by the stylesheet before the cover column."""
    r = random.Random(b.isbn)
    n = int(b.isbn[-6:])
    byline = ", ".join(
        f"<a itemprop='author' href='/authors/OL{n + i}A/{e(a.replace(' ', '_'))}'>{e(a)}</a>"
        for i, a in enumerate(b.authors)
    )
    editions = [(b.published, b.publisher, b.binding)]
    editions.append((b.first_published, r.choice([p for p in PUBLISHERS if p != b.publisher]), "Hardcover"))
    if r.random() < 0.4:  # a reprint newer than this edition: this one is then not the first row
        date = ol_date(int(b.published[-4:]) + r.randint(1, 3), r.randint(1, 12), r.randint(1, 28))
        editions.append((date, r.choice(PUBLISHERS), r.choice(BINDINGS)))
    if r.random() < 0.5:
        date = ol_date(r.randint(1990, 2017), r.randint(1, 12), r.randint(1, 28))
        editions.append((date, r.choice(PUBLISHERS), r.choice(BINDINGS)))
    editions.sort(key=lambda x: _ol_sort_key(x[0]), reverse=True)
    rows = "".join(
        f"<tr><td class='book-cover'><a href='/books/OL{n + 7 * i}M'><img "
        f"src='https://covers.example/b/id/{n + i}-S.jpg' alt='Cover of: {e(b.title)}'></a></td>"
        f"<td class='title'><a href='/books/OL{n + 7 * i}M/{e(b.slug)}'><strong>{e(b.title)}</strong></a>"
        f"<br>{e(date)}, {e(pub)}<br>in English - {e(binding)}</td>"
        "<td class='borrow'><a class='cta-btn cta-btn--unavailable' href='#'>Not in Library</a></td></tr>"
        for i, (date, pub, binding) in enumerate(editions)
    )
    shops = (
        "<li class='prices-betterworldbooks'><a class='link-box' href='https://shop.example/detail/-"
        f"{b.isbn}'>Better World Books</a> <span class='price'>{e(b.price)}</span></li>"
        "<li class='prices-amazon'><a class='link-box' href='https://amazon.example/dp/"
        f"{_isbn10(b.isbn)}'>Amazon</a>"
        + (f" <span class='price'>{e(b.list_price)}</span>" if _on_sale(b) else "")
        + "</li><li class='prices-bookshop-org'><a class='link-box' href='/bookshop'>Bookshop.org</a></li>"
    )
    owners = _people(r, 2)
    lists = "".join(
        f"<li class='list-item'><a href='/people/u{i}/lists/OL{n + i}L'>{name}</a>"
        f"<span class='list-owner'>from <a href='/people/u{i}'>{e(owner)}</a></span></li>"
        for i, (name, owner) in enumerate(zip(["Want to Read", "Read in 2021"], owners, strict=True))
    )

    def section(heading: str, pairs: list[tuple[str, str]]) -> str:
        dl = "".join(f"<dt>{k}</dt><dd class='object'>{v}</dd>" for k, v in pairs)
        return f"<div class='section'><h3 class='list-heading'>{heading}</h3><dl class='meta'>{dl}</dl></div>"

    notes = [("Series", e(b.series))] if b.series else []
    if b.edition:
        notes.append(("Edition", e(b.edition)))
    notes.append(("Genre", "Fiction."))
    physical = [("Format", e(b.binding)), ("Pagination", f"x, {b.pages} p. ;")]
    physical.append(("Number of pages", f"<span itemprop='numberOfPages'>{b.pages}</span>"))
    ids = [("Open Library", e(b.sku)), ("ISBN 10", _isbn10(b.isbn)), ("ISBN 13", b.isbn)]
    ids += [("OCLC/WorldCat", str(n * 7 + 11)), ("LibraryThing", str(n // 3))]
    omni = [
        ("Publish Date", f"<span itemprop='datePublished'>{e(b.published)}</span>"),
        (
            "Publisher",
            f"<span><a itemprop='publisher' href='/publishers/{e(b.publisher)}'>{e(b.publisher)}</a></span>",
        ),
        ("Language", "<span><a href='/languages/eng'><span itemprop='inLanguage'>English</span></a></span>"),
        ("Pages", f"<span class='edition-pages'>{b.pages}</span>"),
    ]
    omniline = "".join(f"<div class='edition-omniline-item'><div>{k}</div>{v}</div>" for k, v in omni)
    heading = (
        f"<h1 class='work-title' itemprop='name'>{e(b.title)}</h1><h2 class='edition-byline'>by {byline}</h2>"
    )
    ratings = f"{3 + int(b.isbn[-1]) / 10:.1f}"
    return _page(
        "Open Library",
        f"<meta property='books:isbn' content='{b.isbn}'>"
        f"<meta property='og:title' content='{e(b.title)} by {e(', '.join(b.authors))}'>"
        f"<link rel='canonical' href='/books/{e(b.sku)}/{e(b.slug)}'>"
        "<style>.work-title-and-author.mobile{display:none}</style>"
        "<div id='contentBody' class='work' itemscope itemtype='https://schema.org/Book'>"
        f"<div class='work-title-and-author mobile'>{heading}</div>"
        "<div class='workDetails'><div class='editionCover'>"
        f"<img itemprop='image' src='https://covers.example/b/isbn/{b.isbn}-M.jpg' alt='Cover of: "
        f"{e(b.title)}'></div><div class='cta-button-group'><a class='cta-btn cta-btn--shell' "
        "href='#'>Want to Read</a></div><div class='cta-section'><h3 class='buy-options-header'>"
        f"Buy this book</h3><ul class='buy-options-table'>{shops}</ul></div>"
        f"<div class='editionAbout'><div class='work-title-and-author desktop'>{heading}</div>"
        f"<div class='work-line'>An edition of <a href='/works/OL{n}W/{e(b.slug)}'>{e(b.title)}</a> "
        f"({b.first_published[-4:]})</div>"
        "<ul class='readers-stats' itemprop='aggregateRating' itemscope>"
        f"<li class='avg-ratings'><span itemprop='ratingValue'>{ratings}</span> "
        f"(<span itemprop='ratingCount'>{n % 90 + 3}</span> ratings)</li>"
        f"<li>{n % 300 + 10} Want to read</li><li>{n % 17} Currently reading</li>"
        f"<li>{n % 60 + 1} Have read</li></ul>"
        f"<div class='edition-omniline'>{omniline}</div>"
        "<div class='book-description'><p class='workDescription'>This edition doesn't have a "
        "description yet. <a href='#edit'>Can you add one?</a></p></div>"
        "<div class='editions-table'><h2>Showing "
        f"{len(editions)} featured editions. <a href='#'>View all {len(editions)} editions?</a></h2>"
        "<table id='editions'><thead><tr><th>Edition</th><th>Availability</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></div>"
        "<div class='tab-section edition-info'><h2 class='details-title'>Book Details</h2>"
        "<div class='section'><h3 class='list-heading'>Published in</h3>"
        f"<div class='edition-publish-location'>{r_city(b)}</div></div>"
        + section("Edition Notes", notes)
        + section("Classifications", [("Dewey Decimal Class", f"813/.{n % 90 + 10}")])
        + section("The Physical Object", physical)
        + section("ID Numbers", ids)
        + "</div><div class='lists'><h2>Lists</h2>"
        f"<ul class='list-books'>{lists}</ul></div></div></div></div>",
    )


def bookshop_org(b: Book) -> str:
    """An indie-bookshop marketplace: utility-class markup (the same classes on many unrelated
    nodes), contributor links each followed by "(Author)", a row of format buttons (the
    current one only told apart by its classes), the discounted price with the list price
    struck on sale pages, then a "Product Details" dl whose "Price" row is the *list* price,
    "Publish Date", "Type" (the binding), "EAN/UPC"; "About the Author" prose and praise quotes
    naming other people, an "Also by <first author>" carousel and a "You may also like" carousel
    of the same card shape. og: metas with the ISBN and the price first."""
    r = random.Random(b.isbn + "bookshop")
    on_sale = _on_sale(b)
    amount = b.price.lstrip("$")
    contributors = ", ".join(
        f"<a class='text-gray-dark hover:underline' href='/contributors/{e(a.lower().replace(' ', '-'))}'>"
        f"{e(a)}</a> <span class='text-gray-dark'>(Author)</span>"
        for a in b.authors
    )
    formats = "".join(
        f"<a class='{'bg-black text-white' if x == b.binding else 'bg-white text-black'} border px-3 py-1 "
        f"mr-2 text-s' href='/p/books/{e(b.slug)}?format={i}'>{e(x)}</a>"
        for i, x in enumerate(BINDINGS)
    )
    struck = f"<div class='text-s text-gray-dark line-through'>{e(b.list_price)}</div>" if on_sale else ""
    details = [
        ("Price", e(b.list_price if on_sale else b.price)),
        ("Publisher", e(b.publisher)),
        ("Publish Date", e(b.published)),
        ("Pages", str(b.pages)),
        ("Dimensions", f"5.4 X 8.2 X {b.pages / 400:.1f} inches | {b.pages / 600:.2f} pounds"),
        ("Language", "English"),
        ("Type", e(b.binding)),
        ("EAN/UPC", b.isbn),
        ("Bookshop ID", e(b.sku)),
    ]
    dl = "".join(f"<dt class='font-sans-bold'>{k}</dt><dd class='col-span-2'>{v}</dd>" for k, v in details)
    cities = ", ".join(CITIES[(int(b.isbn[-3]) + i) % len(CITIES)] for i in range(2))
    about = "".join(
        f"<p class='mb-4'>{e(a)} is the author of <i>{e(b.related[i % len(b.related)][0])}</i>. "
        f"{e(a.split()[0])} lives in {CITIES[(i + int(b.isbn[-2])) % len(CITIES)]}.</p>"
        for i, a in enumerate(b.authors)
    )
    praise = "".join(
        f"<p class='mb-4'>&ldquo;{q}&rdquo;<br>--{e(who)}, author of <i>{e(t)}</i></p>"
        for q, who, (t, _a, _p) in zip(
            ["Gripping from the first page to the last.", "A quiet, luminous book."],
            _people(r, 2),
            b.related,
            strict=False,
        )
    )

    def card(i: int, t: str, a: str, p: str) -> str:
        return (
            "<div class='w-1/2 md:w-1/4 px-2 booklist-book'>"
            f"<a href='/p/books/r{i}'><img class='shadow' src='/img/r{i}.jpg' alt='{e(t)}'></a>"
            f"<h3 class='text-s font-sans-bold leading-tight'><a href='/p/books/r{i}'>{e(t)}</a></h3>"
            f"<p class='text-s text-gray-dark'>{e(a)}</p><p class='text-s font-sans-bold'>{e(p)}</p></div>"
        )

    also_by = "".join(
        card(i, t, b.authors[0], _other_price(b, i + 1)) for i, (t, _a, _p) in enumerate(b.related[:2])
    )
    like = "".join(card(10 + i, t, a, p) for i, (t, a, p) in enumerate(b.related))
    return _page(
        "Bookshop.org",
        f"<meta property='og:title' content='{e(b.title)} by {e(', '.join(b.authors))}'>"
        f"<meta property='og:url' content='https://bookshop.example/p/books/{e(b.slug)}/{_product_number(b)}"
        f"?ean={b.isbn}'><meta property='product:price:amount' content='{e(amount)}'>"
        "<nav class='text-s mb-4'><a href='/'>Home</a> / <a href='/categories/fiction'>Fiction</a> / "
        "<a href='/categories/fantasy'>Fantasy</a></nav>"
        "<div class='flex flex-wrap'><div class='w-full md:w-1/3 px-4'>"
        f"<img class='w-full shadow' src='/img/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='w-full md:w-2/3 px-4'>"
        f"<h1 class='mb-2 text-4xl leading-tight font-serif-bold'>{e(b.title)}</h1>"
        f"<h3 class='mb-4 text-l font-sans'>{contributors}</h3>"
        f"<div class='flex mb-4'>{formats}</div>"
        f"<div class='mb-4'><div class='pb-1 text-xl font-sans-bold'>{e(b.price)}</div>{struck}</div>"
        "<form action='/cart/add' method='post' class='mb-4'>"
        f"<input type='hidden' name='ean' value='{b.isbn}'>"
        "<button class='w-full bg-black text-white py-2 font-sans-bold'>Add to cart</button></form>"
        "<p class='text-s text-gray-dark mb-4'>Available</p>"
        "<p class='text-s mb-4'>This purchase supports independent bookstores near you.</p>"
        "<div class='mb-8'><h3 class='mb-2 text-lg font-sans-bold'>Description</h3>"
        f"<p class='mb-4'>From the author of <i>{e(b.related[0][0])}</i>, a novel set between {cities}."
        "</p></div>"
        "<div class='mb-8'><h3 class='mb-2 text-lg font-sans-bold'>Product Details</h3>"
        f"<dl class='grid grid-cols-3 gap-x-4 gap-y-1 text-s'>{dl}</dl>"
        "<p class='mt-2 text-s'>BISAC Categories: <a href='/b/fic009000'>Fiction - Fantasy - General</a></p>"
        "</div>"
        f"<div class='mb-8'><h3 class='mb-2 text-lg font-sans-bold'>About the Author</h3>{about}</div>"
        f"<div class='mb-8'><h3 class='mb-2 text-lg font-sans-bold'>Praise For&hellip;</h3>{praise}</div>"
        "</div></div>"
        f"<div class='mb-8'><h2 class='mb-4 text-2xl font-serif-bold'>Also by {e(b.authors[0])}</h2>"
        f"<div class='flex flex-wrap -mx-2'>{also_by}</div></div>"
        "<div class='mb-8'><h2 class='mb-4 text-2xl font-serif-bold'>You may also like</h2>"
        f"<div class='flex flex-wrap -mx-2'>{like}</div></div>",
    )


def _product_number(b: Book) -> int:
    """A number for a product URL, from the ISBN (the shop's own product number is not shown)."""
    return int(b.isbn[-8:]) + 17


AUTEUR_ROLLEN = ["Hoofdauteur", "Tweede Auteur", "Derde Auteur", "Vierde Auteur"]


def _bol_price(price: str, cls: str) -> str:
    """A "12,99" price drawn the retailer's way: the cents in a superscript after the comma."""
    whole, cents = price.split(",")
    return (
        f"<span class='{cls}' data-test='price'>{e(whole)},"
        f"<sup class='promo-price__fraction' data-test='price-fraction'>{e(cents)}</sup></span>"
    )


def bol_product(b: Book) -> str:
    """A Dutch retailer's product page: JSON-LD first, the title span in the h1, "Auteur:" with
    party links, an unlabelled small-specs list ("Engels", binding, ISBN, "320 pagina's"), a
    buy block with the price as "12,<sup>99</sup>" (no currency sign), a struck list price on sale
    pages, the seller and "Andere verkopers ... vanaf € x", then "Specificaties" as groups of
    dt/dd rows: "Productinformatie" (Bindwijze, Verschijningsdatum, Druk, Reeks...), "Betrokkenen"
    with one row per author labelled "Hoofdauteur"/"Tweede Auteur"/... followed by the
    "Hoofduitgever" row of the same shape, "Overige kenmerken", "EAN"; reviews with dates of the
    same format, and an "Anderen bekeken ook" carousel whose prices use the same price markup."""
    r = random.Random(b.isbn + "bol")
    pid = 9200000000000 + int(b.isbn[-9:])
    data = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "Book",
            "name": b.title,
            "isbn": b.isbn,
            "author": [{"@type": "Person", "name": a} for a in b.authors],
            "bookFormat": b.binding,
            "offers": {"@type": "Offer", "price": b.price.replace(",", "."), "priceCurrency": "EUR"},
        },
        ensure_ascii=False,
    ).replace("</", "<\\/")
    party = ", ".join(
        f"<a data-role='AUTHOR' data-test='party-link' href='/nl/nl/s/?searchtext={e(a)}'>{e(a)}</a>"
        for a in b.authors
    )
    small = [
        "Engels",
        e(b.binding),
        b.isbn,
        f"{b.pages} pagina's",
    ]
    small_specs = "".join(f"<li><span>{x}</span></li>" for x in small)
    struck = (
        f" <del class='buy-block__list-price' data-test='list-price'>{e(b.list_price)}</del>"
        if _on_sale(b)
        else ""
    )
    others = f"{float(b.price.replace(',', '.')) * 0.92:.2f}".replace(".", ",")

    def group(title: str, rows: list[tuple[str, str]]) -> str:
        body = "".join(
            f"<div class='specs__row'><dt class='specs__title'>{k}</dt>"
            f"<dd class='specs__value'>{v}</dd></div>"
            for k, v in rows
        )
        return f"<h3 class='specs__heading'>{title}</h3><dl class='specs__list'>{body}</dl>"

    info = [("Bindwijze", e(b.binding)), ("Verschijningsdatum", e(b.published))]
    if b.edition:
        info.append(("Druk", e(b.edition)))
    info += [("Illustraties", "Nee"), ("Aantal pagina's", str(b.pages)), ("Taal", "en")]
    if b.series:
        info.append(("Reeks", e(b.series)))
    people = [
        (AUTEUR_ROLLEN[i], f"<a href='/nl/nl/b/{i}/' data-role='AUTHOR'>{e(a)}</a>")
        for i, a in enumerate(b.authors)
    ]
    people.append(
        ("Hoofduitgever", f"<a href='/nl/nl/b/uitgever/' data-role='PUBLISHER'>{e(b.publisher)}</a>")
    )
    other = [("Extra groot lettertype", "Nee"), ("Product breedte", f"{120 + b.pages % 40} mm")]
    other += [
        ("Product hoogte", f"{10 + b.pages // 30} mm"),
        ("Artikelnummer", e(b.sku)),
        ("Studieboek", "Nee"),
    ]
    specs = (
        group("Productinformatie", info)
        + group("Betrokkenen", people)
        + group("Overige kenmerken", other)
        + group("EAN", [("EAN", b.isbn)])
    )
    reviews = "".join(
        f"<li class='review'><strong class='review__title'>{t}</strong><ul class='review-metadata'>"
        f"<li class='review-metadata__item'>{e(who)}</li><li class='review-metadata__item'>"
        f"{dash_dmy(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}</li></ul>"
        f"<p class='review__body'>{body}</p></li>"
        for t, who, body in zip(
            ["Prachtig boek", "Aanrader"],
            _people(r, 2),
            ["Heel mooi geschreven, in één adem uitgelezen.", "Snel geleverd en goed verpakt."],
            strict=True,
        )
    )
    carousel = "".join(
        f"<li class='product-item--column'><div class='product-item__content'><a class='product-title' "
        f"href='/nl/nl/p/{i}/'>{e(t)}</a><ul class='product-creator'><li><a href='/nl/nl/b/r{i}/'>{e(a)}</a>"
        f"</li></ul><div class='product-prices'>{_bol_price(p, 'promo-price')}</div></div></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "bol.",
        f"<script type='application/ld+json'>{data}</script>"
        "<div class='constrain constrain--contain'><ul class='breadcrumbs' data-test='breadcrumb'>"
        "<li><a href='/nl/nl/menu/categorieen/'>Boeken</a></li><li><a href='/nl/nl/l/engelse-boeken/'>"
        "Engelse boeken</a></li><li><a href='/nl/nl/l/fantasy/'>Fantasy</a></li></ul>"
        f"<div class='pdp-header' data-product-id='{pid}'><h1 class='page-heading'>"
        f"<span class='u-mr--xs' data-test='title'>{e(b.title)}</span></h1>"
        "<div class='pdp-header__meta'><div class='pdp-header__meta-item' data-test='rating'>"
        f"<div class='star-rating' title='Gemiddeld {3 + pid % 20 / 10:.1f} van de 5 sterren'></div>"
        f"<a href='#reviews'>{pid % 40 + 2} reviews</a></div>"
        f"<div class='pdp-header__meta-item'>Auteur: {party}</div></div>"
        f"<ul class='product-small-specs'>{small_specs}</ul></div>"
        f"<div class='buy-block'><input type='hidden' name='productId' value='{pid}'>"
        f"<div class='buy-block__prices'>{_bol_price(b.price, 'promo-price')}{struck}</div>"
        "<div class='buy-block__highlight' data-test='delivery-highlight'>Voor 23:59 uur besteld, "
        "morgen in huis</div><div class='buy-block__seller'><span>Verkoop door</span> "
        "<a class='buy-block__seller-name' href='/nl/nl/v/bol/'>bol</a></div>"
        "<button class='buy-block__cta' data-test='add-to-cart'>In winkelwagen</button>"
        f"<a class='buy-block__alternatives' href='/nl/nl/prijsoverzicht/{pid}/'>Andere verkopers (3) "
        f"vanaf € {e(others)}</a></div>"
        "<div class='product-description'><h2>Samenvatting</h2>"
        f"<p>Een roman over {e(b.title.lower())}.</p></div>"
        f"<div class='specs' data-test='specifications'><h2>Specificaties</h2>{specs}</div>"
        f"<div id='reviews' class='reviews'><h2>Reviews</h2><ul class='reviews-list'>{reviews}</ul></div>"
        "<div class='slot slot--recommendations'><h2>Anderen bekeken ook</h2>"
        f"<ul class='product-carousel'>{carousel}</ul></div></div>",
    )


def _yuan(price: str) -> float:
    return float(price.lstrip("¥"))


def dangdang_product(b: Book) -> str:
    """A Chinese bookshop: the product info in a script and hidden inputs first, the title in the
    h1 and again in its title attribute, one "messbox" line of spans "作者:<a>A</a>,<a>B</a> 著",
    "出版社:<a>",
    "出版时间:2019年05月" (year and month only), the 当当价 with a yen span before the amount,
    a discount and a 定价 list price, an e-book price; then a key list of "label：value" items
    with a 印刷时间 printing date that *starts with* the publication month ("2019年05月01日"),
    包 装 (the binding), the ISBN and the product code; author notes naming the authors again,
    reviews, and "customers also bought" cards whose prices are split into sign, digits and tail."""
    r = random.Random(b.isbn + "dangdang")
    pid = 29000000 + int(b.isbn[-6:])
    info = json.dumps(
        {
            "productId": str(pid),
            "productName": b.title,
            "author": ",".join(b.authors),
            "publisher": b.publisher,
            "isbn": b.isbn,
            "salePrice": b.price.lstrip("¥"),
        },
        ensure_ascii=False,
    ).replace("</", "<\\/")
    authors = ",".join(
        f"<a href='http://search.example/?key2={e(a)}&amp;medium=01' target='_blank' dd_name='作者'>"
        f"{e(a)}</a>"
        for a in b.authors
    )
    price, list_price = _yuan(b.price), _yuan(b.list_price)
    discount = f"{price / list_price * 10:.1f}折"
    ebook = f"{price * 0.6:.2f}"
    year, month = b.published[:4], b.published[5:7]
    keys = [
        ("版 次", "1" if not b.edition else e(b.edition)),
        ("页 数", str(b.pages)),
        ("印刷时间", f"{year}年{month}月{r.randint(1, 28):02d}日"),
        ("开 本", r.choice(["16开", "32开"])),
        ("纸 张", "胶版纸"),
        ("包 装", e(b.binding)),
        ("是否套装", "否"),
        ("国际标准书号ISBN", b.isbn),
        ("商品编码", e(b.sku)),
    ]
    if b.series:
        keys.append(("丛书名", e(b.series)))
    key_list = "".join(f"<li>{k}：{v}</li>" for k, v in keys)
    notes = "".join(
        f"<p>{e(a)}，著名作家，现居{CITIES[i % len(CITIES)]}。</p>" for i, a in enumerate(b.authors)
    )
    reviews = "".join(
        f"<div class='comment_items'><div class='items_left_pic'><span class='name'>{e(who)}</span></div>"
        f"<div class='items_right'><div class='describe_detail'><span>{text}</span></div>"
        f"<div class='starline'><span>{r.randint(2019, 2023)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d} "
        f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00</span></div></div></div>"
        for who, text in zip(_people(r, 2), ["包装很好，物流很快。", "内容精彩，值得一读。"], strict=True)
    )

    def split_price(p: str) -> str:
        whole, tail = p.lstrip("¥").split(".")
        return (
            "<p class='price'><span class='rob'><span class='sign'>¥</span>"
            f"<span class='num'>{whole}</span><span class='tail'>.{tail}</span></span></p>"
        )

    also = "".join(
        f"<li><p class='pic'><a href='/p/{pid + i + 1}.html' title='{e(t)}'><img alt='{e(t)}'></a></p>"
        f"<p class='name'><a href='/p/{pid + i + 1}.html' title='{e(t)}'>{e(t)}</a></p>"
        f"<p class='author'>{e(a)} 著</p>{split_price(p)}</li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "当当",
        f"<script type='text/javascript'>var prodSpuInfo = {info};</script>"
        f"<input type='hidden' id='pid' value='{pid}'><input type='hidden' id='isbn' value='{b.isbn}'>"
        "<div class='breadcrumb' id='breadcrumb'><a href='/book'>图书</a>&gt;<a href='/cp01.03'>小说</a>"
        "&gt;<a href='/cp01.03.30'>外国小说</a></div>"
        "<div class='product_main clearfix'><div class='show_info'>"
        f"<div class='name_info' ddt-pit='1' dd_name='顶部标题'><h1 title='{e(b.title)}'> {e(b.title)} </h1>"
        "<h2><span class='head_title_name'>（当当独家定制版）</span></h2></div>"
        "<div class='messbox_info'>"
        f"<span class='t1' id='author' dd_name='作者'>作者:{authors} 著</span>"
        f"<span class='t1' dd_name='出版社'>出版社:<a href='/pub/{e(b.publisher)}' target='_blank' "
        f"dd_name='出版社'>{e(b.publisher)}</a></span>"
        f"<span class='t1'>出版时间:{e(b.published)}&nbsp;</span></div>"
        f"<div class='pinglun'><span class='star'></span><a id='comm_num_down' dd_name='评论数'>"
        f"{pid % 5000 + 12}</a>条评论</div>"
        "<div class='price_info clearfix' id='product_info'><div class='price_pc' id='pc-price'>"
        "<div class='price_d'><p class='t' id='dd-price-text'>当当价</p>"
        f"<p id='dd-price'><span class='yen'>¥</span>{price:.2f}</p></div>"
        f"<div class='price_zhe' id='dd-zhe'>({discount})</div>"
        "<div class='price_m' id='original-price'><p class='t'>定价</p>"
        f"<span class='yen'>¥</span>{list_price:.2f}</div></div>"
        f"<div class='price_e' id='e-book-price'>电子书价 <span class='yen'>¥</span>{ebook}</div></div>"
        "<div class='buy_box'><a class='btn_cart' id='part_buy_button' href='#'>加入购物车</a></div>"
        "</div></div>"
        "<div id='detail_describe' class='pro_content'><ul class='key clearfix'>"
        f"{key_list}<li class='clearfix fenlei' dd_name='详情所属分类'><span class='lbl'>所属分类：</span>"
        "<span class='lie'><a href='/book'>图书</a>&gt;<a href='/cp01.03'>小说</a></span></li></ul></div>"
        f"<div id='authorIntroduction' class='section'><div class='title'>作者简介</div>{notes}</div>"
        f"<div id='comment_list' class='section'><div class='title'>商品评论</div>{reviews}</div>"
        "<div id='alsoBuy' class='section'><div class='title'>购买了该商品的顾客还购买了</div>"
        f"<ul class='list_alsoBuy'>{also}</ul></div>",
    )


@dataclass(frozen=True)
class SiteStyle:
    name: str
    render: Callable[[Book], str]
    date_format: DateFormat
    currency: str


TUNING = [
    SiteStyle("shelf", shelf, us_date, "$"),
    SiteStyle("catalog", catalog_table, iso_date, "$"),
    SiteStyle("microdata", microdata, uk_date, "EUR"),
    SiteStyle("inline", inline_text, iso_date, "€"),
    # Held-out batch 1; looked at, then healing was fixed on them: now tuning.
    SiteStyle("dl", definition_list, dot_date, "€"),
    SiteStyle("grid", label_grid, us_date, "$"),
    SiteStyle("modules", css_modules, uk_date, "£"),
    # Held-out batch 2; looked at, then learning and healing were fixed on them.
    SiteStyle("attributes", attribute_list, us_date, "$"),
    SiteStyle("article", semantic_article, uk_date, "€"),
    SiteStyle("columns", two_columns, iso_date, "$"),
    # Held-out batch 3; looked at, then learning and healing were fixed on them.
    SiteStyle("bullets", detail_bullets, us_date, "$"),
    SiteStyle("spa", styled_components, uk_date, "£"),
    SiteStyle("tables", table_layout, dot_date, "€"),
    # Held-out batch 4; looked at once, then one fix (regexes read <br> lines) made on them.
    SiteStyle("theme", shop_theme, us_date, "$"),
    SiteStyle("attrtable", attribute_table, iso_date, "$"),
    SiteStyle("arialist", aria_list, long_date, "£"),
    # Held-out batch 5; looked at once, then learning and healing were fixed on them.
    SiteStyle("library", library_record, us_date, "$"),
    SiteStyle("market", marketplace, uk_date, "£"),
    SiteStyle("cms", cms_cards, iso_date, "€"),
    # Held-out batch 6; scored once, then learning and healing were fixed on them.
    SiteStyle("bootstrap", bootstrap_table, uk_date, "$"),
    SiteStyle("metaline", meta_line, long_date, "€"),
    SiteStyle("amp", amp_specs, dot_date, "£"),
    # Held-out batch 7; scored once, then learning and healing were fixed on them.
    SiteStyle("wide", wide_table, slash_date, "CHF "),
    SiteStyle("jsonld", jsonld_details, german_date, "€"),
    SiteStyle("icons", icon_facts, us_date, "US$"),
    SiteStyle("librairie", librairie, french_date, "€"),
    # Held-out batch 8; scored once, then learning and healing were fixed on them.
    SiteStyle("cmsfields", cms_fields, slash_dmy, "£ "),
    SiteStyle("prose", prose, long_date, "$"),
    SiteStyle("valuefirst", value_first, iso_date, "EUR"),
    SiteStyle("tabbed", tabbed, short_us_date, "A$"),
    # Held-out batch 9; scored once (every field met the targets), then joined the tuning sites.
    SiteStyle("headings", heading_sections, month_year, "£"),
    SiteStyle("leaders", dot_leaders, iso_date, "USD "),
    SiteStyle("paired", paired_table, us_numeric, "$"),
    SiteStyle("dataattr", data_attributes, dot_date, "kr"),
    # Held-out batch 10; scored once, then learning and healing were fixed on them.
    SiteStyle("shopify", shopify_product, us_date, "$"),
    SiteStyle("magento", magento_product, short_us_date, "€"),
    SiteStyle("amazonjp", amazon_jp, ja_date, "￥"),
    SiteStyle("goodreads", goodreads_book, us_date, "$"),
    # Held-out batch 11; scored once, then learning was fixed on them.
    SiteStyle("koha", koha_record, year_only, "$"),
    SiteStyle("ebay", ebay_item, us_date, "$"),
    SiteStyle("googlebooks", google_books, uk_date, "£ "),
    SiteStyle("jd", jd_item, cn_date, "¥"),
    # Held-out batch 12; scored once, then looked at and one fix was made on them.
    SiteStyle("fnac", fnac_product, slash_dmy, "€"),
    SiteStyle("bn", barnes_noble, us_numeric, "$"),
    SiteStyle("abebooks", abebooks, year_only, "US$ "),
    SiteStyle("ozon", ozon_product, ru_date, "₽"),
]
# Held-out batch 13, written after all of the above were used for tuning, without reading the
# learner's code; only scored.
HELD_OUT = [
    SiteStyle("openlibrary", open_library, ol_date, "$"),
    SiteStyle("bookshop", bookshop_org, us_date, "$"),
    SiteStyle("bol", bol_product, dash_dmy, ","),
    SiteStyle("dangdang", dangdang_product, cn_month, "¥"),
]


@dataclass
class Site:
    style: SiteStyle
    pages: list[str]
    truth: list[dict[str, str | list[str]]]


def generate_site(style: SiteStyle, n_pages: int, seed: int) -> Site:
    """``n_pages`` pages of one style with their truth, reproducible from ``seed``."""
    r = random.Random(f"{style.name}:{seed}")
    books = [book(r, style.date_format, style.currency) for _ in range(n_pages)]
    return Site(style, [style.render(b) for b in books], [b.truth() for b in books])


def sample_values(truth: dict[str, str | list[str]]) -> dict[str, str | list[str]]:
    """What a user types for a sample: one author as a plain string, several as a list."""
    out = dict(truth)
    authors = truth["authors"]
    if isinstance(authors, list) and len(authors) == 1:
        out["authors"] = authors[0]
    return out


# --------------------------------------------------------------------------------------------
# Markup changes (a redesign of the site)

CHANGES = ("classes_renamed", "wrapper_div", "reordered", "tag_changed")
_TAG_CHANGES = {
    "span": "em",
    "h1": "h2",
    "h2": "h3",
    "h3": "h4",
    "p": "div",
    "li": "div",
    "b": "strong",
    "i": "em",
    "dd": "div",
}
_INLINE = {"a", "span", "em", "b", "i", "strong", "s", "time", "sup", "br", "small"}


def _renamed(token: str) -> str:
    return "x" + hashlib.md5(token.encode()).hexdigest()[:6]


def change_markup(html: str, kind: str, seed: int = 0) -> str:
    """The same page after a redesign of one ``kind`` (see ``CHANGES``); text is unchanged."""
    root = lxml.html.document_fromstring(html)
    body = root.find("body")
    if kind == "classes_renamed":
        for el in root.iter():
            if isinstance(el.tag, str) and el.get("class"):
                el.set("class", " ".join(_renamed(t) for t in el.get("class").split()))
    elif kind == "wrapper_div":
        for child in list(body):
            wrap = lxml.html.Element("div", {"class": "layout-wrap"})
            child.addprevious(wrap)
            wrap.append(child)
    elif kind == "reordered":
        for el in list(body.iter()):
            _shuffle_blocks(el, seed)
    elif kind == "tag_changed":
        for el in body.iter():
            if isinstance(el.tag, str) and el.tag in _TAG_CHANGES:
                el.tag = _TAG_CHANGES[el.tag]
    else:
        raise ValueError(f"unknown markup change {kind!r}")
    return lxml.html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")


def _is_label(el: lxml.html.HtmlElement) -> bool:
    text = (el.text_content() or "").strip()
    classes = (el.get("class") or "").lower()
    return len(el) == 0 and (text.endswith(":") or "label" in classes or "term" in classes)


def _shuffle_blocks(el: lxml.html.HtmlElement, seed: int) -> None:
    """Shuffle block children (a dt with its dd's moves as one unit); inline runs stay put."""
    kids = [c for c in el if isinstance(c.tag, str)]
    if len(kids) < 2 or (el.text or "").strip() or any((c.tail or "").strip() for c in kids):
        return
    if any(c.tag in _INLINE for c in kids) or el.tag in ("tr", "head", "html"):
        return
    units: list[list[lxml.html.HtmlElement]] = []
    for c in kids:
        if units and (c.tag == "dd" or _is_label(units[-1][-1])):
            units[-1].append(c)  # a value moves with its label
        else:
            units.append([c])
    if len(units) < 3:  # two blocks are a label and its value, not a sequence of fields
        return
    # One permutation per length: parallel columns (labels beside values) stay aligned.
    order = list(range(len(units)))
    random.Random(f"{seed}:{len(units)}").shuffle(order)
    units = [units[i] for i in order]
    for c in kids:
        el.remove(c)
    for unit in units:
        for c in unit:
            el.append(c)
