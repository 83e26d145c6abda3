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

``TUNING`` styles are the ones the learner was developed against (ninety-four: all
but the first four were written as held-out sets in batches, scored once as written,
then looked at and fixed on; batch 13 copied a book catalogue, a US indie-bookshop
marketplace, a Dutch retailer and a Chinese bookshop; batch 14 a WooCommerce shop, a
German bookseller, a Korean bookshop and an Indian marketplace; batch 15 a Spanish
PrestaShop shop, a Polish marketplace, an Australian bookshop and an OpenCart shop;
batch 16 a UK bookseller, a Swedish bookshop, a BigCommerce shop and an Italian
bookshop; batch 17, written by someone who had not read the learner's code, a
Canadian e-book store, a Spanish bookshop, a site builder's store and a Danish
bookshop; batch 18, also written by someone who had not read the learner's code,
copying page shapes of real platforms: a Japanese bookshop's imported-book page
(Rakuten Books) with "1,650円" prices, points and a struck "参考価格", each author link
followed by "（著）" and translators/illustrators in the same line marked
"（翻訳）"/"（イラスト）", and "商品基本情報" as ``category``/``categoryValue`` span pairs including
"初版発行日" in the same "2020年03月05日" format; a Brazilian VTEX IO store whose prices
exist only as the text of currency/integer/decimal/fraction spans ("R$ 49,90")
beside "De:", installment, savings and Pix amounts, whose product-name span has
class ``productBrand`` under the publisher's brand link, and whose "Ficha técnica"
label/value divs hold all authors in one "A, B" text; a Belgian Shopware 6 shop with
"€ 12,99*" prices (the footnote asterisk in the same text), every binding as a
configurator option, the publisher at the top only as the manufacturer logo's alt,
and a properties table sorted by its Dutch labels whose second and later values
carry the ", " inside their spans; a Chinese book catalogue (Douban) whose ``#info``
is label spans followed by bare text and ``<br>``, with authors separated by " / "
after a "[美]"-style mark on some pages, "出版年" in the unpadded "2020-3-5" form, the
list price as "定价: 59.00元" and the catalogue's own shop's price first among other
vendors' prices; batch 19, also written without reading the learner's code: a
Canadian bookseller on Salesforce Commerce Cloud (Indigo) whose "Details & Specs"
items are "Label: value" in one text node and whose byline puts
illustrators/translators after the authors in the same link shape; a Hungarian
bookshop (Libri) with "4 990 Ft" prices and a product-data table whose group and
role cells span their rows; an Argentine marketplace listing (Mercado Libre) whose
h1 is the seller's "Libro <title> - <authors> - <publisher>", whose prices are
``aria-hidden`` "$" and "24.990" spans, and whose description repeats the facts as
"Label: value" lines; and a Vietnamese Next.js marketplace (Tiki) with hashed
styled-components classes, a sticky copy hidden only by a hashed class rule,
"189.000₫" prices and a label/value grid; batch 20, also written without reading the
learner's code: a Turkish bookshop (Kitapyurdu) whose publisher and authors share
one producer-link shape and whose info table has "Label:" cells; a library catalogue
(VuFind) opened on its MARC staff view, with inverted author headings and the price
only in a 020 ``|c`` subfield; a marketplace listing (Etsy) with a keyword-stuffed
h1 and the facts as newline-separated lines of one text node; and a small press on
Squarespace Commerce with a selected binding in a ``<select>`` of all bindings, the
sale price before the struck original and "Label — value" paragraphs; batch 21, also
written without reading the learner's code: a UK bookseller (Blackwell's) whose
byline puts "(Author)" and "(Translator)" role spans after name links of one shape
and whose formats list prices every binding; a South African React marketplace
(Takealot) with CSS-module classes, "R 349" prices, an eBucks line and a "Product
Information" table; an Indonesian Bootstrap 3 bookshop (Periplus) with "Rp 249.000"
prices, no h1 and detail values that start with ": "; and an Austrian bookshop's
embedded Ecwid store (German UI) with every binding as a radio option and all
authors in one "Autor:" value; batch 22, also written without reading the learner's
code: a US independent bookstore (Powell's) with a "by A, B and C" byline, "New" and
"Used" prices and a "Product Details" table of one inverted "Author: Doe, Jane" row
per author, the binding in capitals and "March 5th, 2020" dates; a US marketplace on
Next.js (Walmart) with utility classes and ``data-testid`` attributes, the publisher
as the brand link, the h1 "<title> (<binding>)" (pre-owned listings add both ISBNs),
"Now $12.99" prices and "Specifications" with "March, 2020" dates; a Taiwanese
bookshop (博客來) whose "作者："/"出版社："/"出版日期：" list items carry follow links and whose
"442元" prices are bold number elements with "元" in the tail; and a French bookshop
(Decitre) with no sale price but a "-5%" store price and second-hand offers,
"Caractéristiques" label/value spans and "05/03/2020" dates in delivery windows too;
batch 23, also written without reading the learner's code: a US used-book shop
(ThriftBooks) with condition-priced copies, per-format "from" prices and "March
2020" release dates; a Korean bookshop's imported-book page (Aladin) with
role-grouped bylines ending "| publisher | 2020-03-05", "13,500원" prices and a
"기본정보" list; a Brazilian used-book marketplace (Estante Virtual, Nuxt ``data-v-``
attributes) with year-only dates and other sellers' offers carrying their own
"Editora:"/"Ano:" lines; and a Singapore bookshop (Kinokuniya) built with utility
CSS classes, "S$29.95" prices and a ``dl`` of product details; batch 24, also
written without reading the learner's code: a German bookseller chain (Hugendubel)
with "von A, B und C" bylines, other-edition tiles with their own dates and prices
and a details table; a UK online bookshop with schema.org microdata (Book
Depository), "RRP" beside the price and an "Imprint" row; a Mexican bookshop on
Magento 2 (Librería Gandhi) with "Precio especial" over "Precio regular" and an
attributes table; and the Slovak store of a Czech online bookshop (Libristo) with
"EAN" and "ISBN" rows, a "Bežná cena" struck price and other formats' prices).
``HELD_OUT`` styles (batch 25, written without reading the learner's code) are only
scored: a German academic bookseller (Lehmanns), a Portuguese bookshop chain
(Bertrand), a Korean bookshop's imported-book page (Kyobo) and a US used-book
marketplace listing (Biblio.com).
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
        if currency == "TWD":  # whole New Taiwan dollars, "元" straight after
            return f"{round(v * 30)}元"
        if currency == "ZAR":  # whole rand, a space as thousands separator, "R " before
            return f"R {round(v * 18):,}".replace(",", " ")
        if currency == "IDR":  # rupiah rounded to thousands, dot thousands, "Rp " before
            return f"Rp {round(v * 16) * 1000:,}".replace(",", ".")
        if currency == "HUF":  # whole forints rounded to tens, a space as thousands separator, "Ft" after
            return f"{round(v * 37) * 10:,} Ft".replace(",", " ")
        if currency == "ARS":  # whole pesos, dot thousands, "$ " before
            return f"$ {round(v * 1000):,}".replace(",", ".")
        if currency == "VND":  # whole dong in thousands, dot thousands, "₫" straight after
            return f"{round(v * 25) * 1000:,}₫".replace(",", ".")
        if currency == "￥":  # whole yen with thousands separators
            return f"￥{round(v * 150):,}"
        if currency == "¥":  # yuan with fen
            return f"¥{v * 7:.2f}"
        if currency == "원":  # whole won, rounded to tens, thousands separators, sign after
            return f"{round(v * 130) * 10:,}원"
        if currency == "₹":  # whole rupees with thousands separators
            return f"₹{round(v * 80):,}"
        if currency == "$":
            return f"${v:.2f}"
        if currency == "GBP":  # pounds with the symbol before and dot decimals
            return f"£{v:.2f}"
        if currency == "SEK":  # whole kronor, the unit after
            return f"{round(v * 11)} kr"
        if currency == "EUR-IT":  # the euro sign and a space before, comma decimals
            return f"€ {v:.2f}".replace(".", ",")
        if currency == "円":  # whole yen with thousands separators, the unit after
            return f"{round(v * 150):,}円"
        if currency == "BRL":  # reais: "R$ " before, comma decimals
            return f"R$ {v:.2f}".replace(".", ",")
        if currency == "EUR-NL":  # the euro sign and a space before, comma decimals (Dutch)
            return f"€ {v:.2f}".replace(".", ",")
        if currency == "DKK":  # Danish kroner with comma decimals and "kr." after
            return f"{v * 7:.2f}".replace(".", ",") + " kr."
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


# --------------------------------------------------------------------------------------------
# Held-out batch 14: written after batch 13 had been used for tuning (the current HELD_OUT),
# without reading the learner; page shapes of a WordPress shop theme, a German bookseller, a
# Korean bookshop and an Indian marketplace.


def ko_date(y: int, m: int, d: int) -> str:
    return f"{y}년 {m:02d}월 {d:02d}일"


def _others(r: random.Random, b: Book, n: int) -> list[str]:
    """``n`` people who are not the book's authors (translators, editors, reviewers)."""
    out: list[str] = []
    while len(out) < n:
        name = _people(r, 1)[0]
        if name not in b.authors and name not in out:
            out.append(name)
    return out


def _woo_amount(price: str) -> str:
    """A "$12.99" price drawn WooCommerce's way: the symbol in its own span inside a <bdi>."""
    return (
        "<span class='woocommerce-Price-amount amount'><bdi>"
        f"<span class='woocommerce-Price-currencySymbol'>{e(price[0])}</span>{e(price[1:])}</bdi></span>"
    )


def woocommerce_product(b: Book) -> str:
    """A WordPress shop on the WooCommerce "Storefront" theme: an SEO plugin's JSON-LD graph and
    the theme's sticky add-to-cart bar (hidden until the reader scrolls: "You're viewing:
    <strong>title</strong>" and the price) first; the breadcrumb ending in the title; a "Sale!"
    badge, the struck regular price before the sale price on sale pages with screen-reader
    copies ("Original price was: $x.") after each; a short description "by A &amp; B" with the
    first-publication date; "SKU:" and "Categories:" (a plural of the binding, "Paperbacks") in
    the product meta; then the "Additional information" tab's attribute table: Weight and
    Dimensions first, one row per taxonomy ("Author" with a link per author, optional
    "Translator"/"Illustrator" rows of the same shape naming other people, Publisher, Format),
    "Publication date", "ISBN-13", optional Series/Edition rows; "N reviews for <span>title</span>"
    with reviewers and review dates in the publication date's format; related products with their
    own titles, authors and prices in the same price markup, and previous/next product links."""
    r = random.Random(b.isbn + "woocommerce")
    pid = 1000 + int(b.isbn[-4:])
    on_sale = _on_sale(b)
    product_url = f"https://inkwell.example/product/{b.slug}/"
    schema = json.dumps(
        {
            "@context": "https://schema.org",
            "@graph": [
                {"@type": "WebPage", "@id": product_url, "name": f"{b.title} - Inkwell & Co."},
                {
                    "@type": "Product",
                    "@id": product_url + "#product",
                    "name": b.title,
                    "sku": b.sku,
                    "gtin13": b.isbn,
                    "offers": [
                        {
                            "@type": "Offer",
                            "price": b.price.lstrip("$"),
                            "priceCurrency": "USD",
                            "availability": "http://schema.org/InStock",
                        }
                    ],
                },
            ],
        }
    ).replace("</", "<\\/")
    if on_sale:
        price = (
            f"<del aria-hidden='true'>{_woo_amount(b.list_price)}</del> "
            f"<span class='screen-reader-text'>Original price was: {e(b.list_price)}.</span>"
            f"<ins aria-hidden='true'>{_woo_amount(b.price)}</ins>"
            f"<span class='screen-reader-text'>Current price is: {e(b.price)}.</span>"
        )
    else:
        price = _woo_amount(b.price)
    translators = _others(r, b, 1) if r.random() < 0.35 else []
    illustrators = _others(r, b, r.randint(1, 2)) if r.random() < 0.25 else []

    def links(taxonomy: str, names: list[str]) -> str:
        return ", ".join(
            f"<a href='/{taxonomy}/{e(n.lower().replace(' ', '-').replace('.', ''))}/' rel='tag'>{e(n)}</a>"
            for n in names
        )

    rows = [
        ("weight", "Weight", f"{b.pages / 1000 + 0.1:.2f} kg"),
        ("dimensions", "Dimensions", f"20 &times; 13 &times; {b.pages // 120 + 1} cm"),
        ("attribute_pa_book-author", "Author", f"<p>{links('book-author', b.authors)}</p>"),
    ]
    if translators:
        rows.append(("attribute_pa_translator", "Translator", f"<p>{links('translator', translators)}</p>"))
    if illustrators:
        rows.append(
            ("attribute_pa_illustrator", "Illustrator", f"<p>{links('illustrator', illustrators)}</p>")
        )
    rows += [
        ("attribute_pa_publisher", "Publisher", f"<p>{links('publisher', [b.publisher])}</p>"),
        ("attribute_pa_format", "Format", f"<p>{links('format', [b.binding])}</p>"),
        ("attribute_publication-date", "Publication date", f"<p>{e(b.published)}</p>"),
        ("attribute_isbn-13", "ISBN-13", f"<p>{b.isbn}</p>"),
        ("attribute_pages", "Pages", f"<p>{b.pages}</p>"),
    ]
    if b.series:
        rows.append(("attribute_series", "Series", f"<p>{e(b.series)}</p>"))
    if b.edition:
        rows.append(("attribute_edition", "Edition", f"<p>{e(b.edition)}</p>"))
    table = "".join(
        f"<tr class='woocommerce-product-attributes-item woocommerce-product-attributes-item--{slug}'>"
        f"<th class='woocommerce-product-attributes-item__label' scope='row'>{label}</th>"
        f"<td class='woocommerce-product-attributes-item__value'>{value}</td></tr>"
        for slug, label, value in rows
    )
    n_reviews = r.randint(1, 3)
    reviewers = _others(r, b, n_reviews)
    reviews = ""
    for i, who in enumerate(reviewers):
        y, m, d = r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28)
        stars = r.randint(3, 5)
        reviews += (
            f"<li class='review byuser even thread-even depth-1' id='li-comment-{pid * 10 + i}'>"
            f"<div id='comment-{pid * 10 + i}' class='comment_container'>"
            "<img alt='' src='/avatar/60.png' class='avatar avatar-60 photo' height='60' width='60'>"
            "<div class='comment-text'><div class='star-rating' role='img' "
            f"aria-label='Rated {stars} out of 5'>"
            f"<span style='width:{stars * 20}%'>Rated <strong class='rating'>{stars}</strong> out of 5</span>"
            f"</div><p class='meta'><strong class='woocommerce-review__author'>{e(who)} </strong>"
            + ("<em class='woocommerce-review__verified verified'>(verified owner)</em> " if i % 2 else "")
            + "<span class='woocommerce-review__dash'>&ndash;</span> "
            "<time class='woocommerce-review__published-date' "
            f"datetime='{iso_date(y, m, d)}T09:{10 + i}:00+00:00'>"
            f"{us_date(y, m, d)}</time></p><div class='description'><p>"
            f"{['Could not put it down.', 'Lovely edition, arrived fast.', 'A slow start, then great.'][i]}"
            "</p></div></div></div></li>"
        )
    related = "".join(
        f"<li class='product type-product post-{pid + 11 * (i + 1)} status-publish instock "
        f"product_cat-books'><a href='/product/related-{i}/' "
        "class='woocommerce-LoopProduct-link woocommerce-loop-product__link'>"
        f"<img src='/wp-content/uploads/r{i}-324x324.jpg' class='attachment-woocommerce_thumbnail' alt=''>"
        f"<h2 class='woocommerce-loop-product__title'>{e(t)}</h2>"
        f"<span class='book-author'>by {e(a)}</span><span class='price'>{_woo_amount(p)}</span></a>"
        f"<a href='?add-to-cart={pid + 11 * (i + 1)}' data-quantity='1' class='button product_type_simple "
        f"add_to_cart_button ajax_add_to_cart' data-product_id='{pid + 11 * (i + 1)}' "
        f"data-product_sku='BK-10{r.randint(100, 999)}' aria-label='Add to cart: &ldquo;{e(t)}&rdquo;' "
        "rel='nofollow'>Add to cart</a></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    prev_title, next_title = _title(r), _title(r)
    tags = ["staff picks"] + ([e(b.publisher)] if r.random() < 0.5 else [])
    return _page(
        "Inkwell & Co.",
        f"<script type='application/ld+json' class='yoast-schema-graph'>{schema}</script>"
        "<style>.screen-reader-text{display:none}.storefront-sticky-add-to-cart{display:none}</style>"
        "<section class='storefront-sticky-add-to-cart'><div class='col-full'>"
        "<div class='storefront-sticky-add-to-cart__content'>"
        f"<img src='/wp-content/uploads/{b.isbn}-324x324.jpg' alt=''>"
        "<div class='storefront-sticky-add-to-cart__content-product-info'>"
        f"<span class='storefront-sticky-add-to-cart__content-title'>You're viewing: <strong>{e(b.title)}"
        "</strong></span>"
        f"<span class='storefront-sticky-add-to-cart__content-price'>{_woo_amount(b.price)}</span></div>"
        f"<a href='#product-{pid}' class='storefront-sticky-add-to-cart__content-button button alt'>"
        "Add to cart</a></div></div></section>"
        "<div class='storefront-breadcrumb'><div class='col-full'>"
        "<nav class='woocommerce-breadcrumb' aria-label='breadcrumbs'><a href='/'>Home</a>"
        "<span class='breadcrumb-separator'> / </span><a href='/product-category/books/'>Books</a>"
        f"<span class='breadcrumb-separator'> / </span>{e(b.title)}</nav></div></div>"
        "<div id='primary' class='content-area'><main id='main' class='site-main' role='main'>"
        "<div class='woocommerce-notices-wrapper'></div>"
        f"<div id='product-{pid}' class='product type-product post-{pid} status-publish first instock "
        f"product_cat-books has-post-thumbnail{' sale' if on_sale else ''} shipping-taxable purchasable "
        "product-type-simple'>"
        + ("<span class='onsale'>Sale!</span>" if on_sale else "")
        + "<div class='woocommerce-product-gallery woocommerce-product-gallery--with-images images'>"
        "<div class='woocommerce-product-gallery__wrapper'>"
        f"<div data-thumb='/wp-content/uploads/{b.isbn}-100x100.jpg' "
        "class='woocommerce-product-gallery__image'>"
        f"<a href='/wp-content/uploads/{b.isbn}.jpg'><img width='416' height='624' "
        f"src='/wp-content/uploads/{b.isbn}-416x624.jpg' alt='' title='{e(b.slug)}'></a></div></div></div>"
        "<div class='summary entry-summary'>"
        f"<h1 class='product_title entry-title'>{e(b.title)}</h1>"
        "<div class='woocommerce-product-rating'><div class='star-rating' role='img' "
        f"aria-label='Rated 4.{n_reviews} out of 5'><span style='width:84%'>Rated <strong class='rating'>"
        f"4.{n_reviews}</strong> out of 5 based on <span class='rating'>{n_reviews}</span> customer "
        f"rating{'s' if n_reviews > 1 else ''}</span></div><a href='#reviews' "
        "class='woocommerce-review-link' "
        f"rel='nofollow'>(<span class='count'>{n_reviews}</span> customer review"
        f"{'s' if n_reviews > 1 else ''})</a></div>"
        f"<p class='price'>{price}</p>"
        "<div class='woocommerce-product-details__short-description'>"
        f"<p>by {' &amp; '.join(e(a) for a in b.authors)}. First published {e(b.first_published)}; "
        f"this {e(b.binding.lower())} edition comes from {e(b.publisher)}.</p></div>"
        f"<p class='stock in-stock'>{int(b.isbn[-2:]) % 9 + 2} in stock</p>"
        f"<form class='cart' action='/product/{e(b.slug)}/' method='post' enctype='multipart/form-data'>"
        f"<div class='quantity'><label class='screen-reader-text' for='quantity_{pid}'>{e(b.title)} quantity"
        f"</label><input type='number' id='quantity_{pid}' class='input-text qty text' name='quantity' "
        "value='1' min='1' step='1'></div>"
        f"<button type='submit' name='add-to-cart' value='{pid}' "
        "class='single_add_to_cart_button button alt'>"
        "Add to cart</button></form>"
        "<div class='product_meta'>"
        f"<span class='sku_wrapper'>SKU: <span class='sku'>{e(b.sku)}</span></span>"
        "<span class='posted_in'>Categories: <a href='/product-category/books/' rel='tag'>Books</a>, "
        f"<a href='/product-category/books/{e(b.binding.lower().replace(' ', '-'))}s/' rel='tag'>"
        f"{e(b.binding)}s</a></span>"
        f"<span class='tagged_as'>Tags: {', '.join(f'<a rel=tag>{t}</a>' for t in tags)}</span></div>"
        "</div>"
        "<div class='woocommerce-tabs wc-tabs-wrapper'><ul class='tabs wc-tabs' role='tablist'>"
        "<li class='description_tab active' id='tab-title-description' role='tab'>"
        "<a href='#tab-description'>Description</a></li>"
        "<li class='additional_information_tab' id='tab-title-additional_information' role='tab'>"
        "<a href='#tab-additional_information'>Additional information</a></li>"
        f"<li class='reviews_tab' id='tab-title-reviews' role='tab'><a href='#tab-reviews'>Reviews "
        f"({n_reviews})</a></li></ul>"
        "<div class='woocommerce-Tabs-panel woocommerce-Tabs-panel--description panel entry-content wc-tab' "
        "id='tab-description' role='tabpanel'><h2>Description</h2>"
        f"<p>From the author of <em>{e(b.related[0][0])}</em>: a {b.pages}-page novel about "
        f"{e(b.title.lower())}.</p></div>"
        "<div class='woocommerce-Tabs-panel woocommerce-Tabs-panel--additional_information panel "
        "entry-content wc-tab' id='tab-additional_information' role='tabpanel'>"
        "<h2>Additional information</h2>"
        "<table class='woocommerce-product-attributes shop_attributes' aria-label='Product Details'>"
        f"<tbody>{table}</tbody></table></div>"
        "<div class='woocommerce-Tabs-panel woocommerce-Tabs-panel--reviews panel entry-content wc-tab' "
        "id='tab-reviews' role='tabpanel'><div id='reviews' class='woocommerce-Reviews'><div id='comments'>"
        f"<h2 class='woocommerce-Reviews-title'>{n_reviews} review{'s' if n_reviews > 1 else ''} for "
        f"<span>{e(b.title)}</span></h2><ol class='commentlist'>{reviews}</ol></div></div></div></div>"
        "<section class='related products'><h2>Related products</h2>"
        f"<ul class='products columns-4'>{related}</ul></section>"
        "<nav class='storefront-product-pagination' aria-label='More products'>"
        f"<a href='/product/prev/' rel='prev'><span class='storefront-product-pagination__title'>"
        f"{e(prev_title)}</span></a><a href='/product/next/' rel='next'>"
        f"<span class='storefront-product-pagination__title'>{e(next_title)}</span></a></nav>"
        "</div></main></div>",
    )


def _euros(price: str) -> float:
    """A "12,99 €" price as a number."""
    return float(price.rsplit(" ", 1)[0].replace(",", "."))


def _euro_text(amount: float) -> str:
    return f"{amount:.2f} €".replace(".", ",")


def _hyphenated_isbn(isbn: str) -> str:
    """The ISBN-13 with group separators as printed on a German shop ("978-1-2345-6789-0")."""
    return f"{isbn[:3]}-{isbn[3]}-{isbn[4:8]}-{isbn[8:12]}-{isbn[12]}"


STAEDTE = ["Köln", "Hamburg", "München", "Leipzig", "Münster"]


def thalia_product(b: Book) -> str:
    """A German bookseller's product page: JSON-LD first; breadcrumbs; the title h1, an optional
    series link, "von" and the author links; a row of format tiles (one per binding plus eBook,
    each with its own price, the current one marked ``aria-current``); the price with "Statt
    <s>list</s>" and "Sie sparen" on sale pages, "inkl. gesetzl. MwSt.", a cart form with hidden
    article id and EAN inputs; a "Beschreibung" whose prose gives the original edition's date
    in the same format; "Details" as a list of heading/value pairs (Einband, Erscheinungsdatum,
    optional Auflage, Verlag, optional "Übersetzung"/"Illustrationen" rows naming other
    people, Seitenzahl, Maße, Sprache, the hyphenated ISBN, the plain EAN, "Artikel-Nr.");
    "Über den Autor" with one heading per author; reviews "von <name> aus <city> am <date>"
    saying which binding was rated ("Bewertet: Einband: Hardcover"); a carousel of other books
    whose author lines share the byline's class."""
    r = random.Random(b.isbn + "thalia")
    pid = 1040000000 + int(b.isbn[-7:])
    data = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "Book",
            "name": b.title,
            "isbn": b.isbn,
            "author": [{"@type": "Person", "name": a} for a in b.authors],
            "publisher": {"@type": "Organization", "name": b.publisher},
            "offers": {"@type": "Offer", "price": f"{_euros(b.price):.2f}", "priceCurrency": "EUR"},
        },
        ensure_ascii=False,
    ).replace("</", "<\\/")
    byline = ", ".join(
        f"<a class='element-link-primary autor' href='/autor/{e(a.lower().replace(' ', '-'))}-{i}' "
        f"data-test='autor-link'>{e(a)}</a>"
        for i, a in enumerate(b.authors)
    )
    series = (
        f"<p class='reihe'><a href='/reihe/{pid}' class='element-link-standard'>{e(b.series)}</a></p>"
        if b.series
        else ""
    )
    tile_prices = {b.binding: b.price}
    others = [x for x in BINDINGS if x != b.binding]
    tile_prices[others[0]] = _other_price(b, 0)
    tile_prices[others[1]] = _other_price(b, 1)
    formats = [*BINDINGS, "eBook"]
    tile_prices["eBook"] = _euro_text(_euros(b.price) * 0.75)
    current = "aria-current='true'"
    tiles = "".join(
        f"<li class='format-tile{' aktiv' if x == b.binding else ''}'>"
        f"<a href='/shop/home/artikeldetails/A{pid + j}' "
        f"{current if x == b.binding else ''} class='format-link'>"
        f"<span class='element-text-standard-strong format-name'>{e(x)}</span>"
        f"<span class='element-text-standard format-preis'>{e(tile_prices[x])}</span></a></li>"
        for j, x in enumerate(formats)
    )
    sale = ""
    if _on_sale(b):
        saved = _euros(b.list_price) - _euros(b.price)
        sale = (
            f"<p class='element-text-small streichpreis'>Statt <s>{e(b.list_price)}</s> "
            f"<span class='ersparnis'>Sie sparen {e(_euro_text(saved))}</span></p>"
        )
    translators = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    illustrators = _others(r, b, 1) if r.random() < 0.2 else []
    details = [("Einband", e(b.binding)), ("Erscheinungsdatum", e(b.published))]
    if b.edition:
        details.append(("Auflage", e(b.edition)))
    details.append(("Verlag", e(b.publisher)))
    if translators:
        details.append(("Übersetzung", ", ".join(e(t) for t in translators)))
    if illustrators:
        details.append(("Illustrationen", ", ".join(e(t) for t in illustrators)))
    details += [
        ("Seitenzahl", str(b.pages)),
        ("Maße (L/B/H)", f"19,6/12,8/{b.pages / 130:.1f} cm".replace(".", ",")),
        ("Gewicht", f"{b.pages + 40} g"),
        ("Sprache", "Englisch"),
        ("ISBN", _hyphenated_isbn(b.isbn)),
        ("EAN", b.isbn),
        ("Artikel-Nr.", e(b.sku)),
    ]
    detail_list = "".join(
        "<div class='artikeldetail'>"
        f"<h3 class='element-text-standard-strong detailbezeichnung'>{k}</h3>"
        f"<p class='element-text-standard single-value'>{v}</p></div>"
        for k, v in details
    )
    about = "".join(
        "<div class='autor-portrait'>"
        f"<h3 class='element-headline-small autor-name'>{e(a)}</h3>"
        f"<p class='element-text-standard'>{e(a)}, geboren {r.randint(1950, 1990)} in "
        f"{STAEDTE[(i + int(b.isbn[-3])) % len(STAEDTE)]}, schreibt Romane und Erzählungen.</p></div>"
        for i, a in enumerate(b.authors)
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        stars = r.randint(3, 5)
        rated = r.choice(BINDINGS)
        reviews += (
            "<li class='bewertung'><div class='bewertung-kopf'>"
            f"<span class='sterne' aria-label='{stars} von 5 Sternen'></span>"
            f"<h3 class='element-text-standard-strong bewertung-titel'>"
            f"{['Spannend bis zur letzten Seite', 'Schön erzählt', 'Nicht ganz meins'][i]}</h3></div>"
            f"<p class='element-text-small bewertung-autor'>von <span class='name'>{e(who)}</span> aus "
            f"{r.choice(STAEDTE)} am <span class='datum'>"
            f"{dot_date(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}</span></p>"
            f"<p class='element-text-standard bewertung-text'>Ich habe das Buch in {i + 2} Tagen gelesen.</p>"
            f"<p class='element-text-small bewertetes-format'>Bewertet: Einband: {e(rated)}</p></li>"
        )
    carousel = "".join(
        f"<li class='tile'><a href='/shop/home/artikeldetails/A{pid + 100 + i}' class='tile-link'>"
        f"<img src='/cover/{pid + 100 + i}.jpg' alt='{e(t)}'>"
        f"<p class='element-text-standard-strong tile-titel'>{e(t)}</p>"
        f"<p class='element-text-small autor'>{e(a)}</p>"
        f"<p class='element-text-small tile-format'>{e(r.choice(BINDINGS))}</p>"
        f"<p class='element-text-standard-strong tile-preis'>{e(p)}</p></a></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Thalia",
        f"<script type='application/ld+json'>{data}</script>"
        "<nav class='breadcrumb' aria-label='Brotkrumennavigation'><ul class='breadcrumb-list'>"
        "<li><a href='/buecher'>Bücher</a></li><li><a href='/buecher/englische-buecher'>Englische Bücher</a>"
        "</li><li><a href='/buecher/englische-buecher/romane'>Romane &amp; Erzählungen</a></li></ul></nav>"
        f"<section class='artikel-main' data-artikel-id='{pid}'>"
        f"<div class='produktbild'><img src='/cover/{pid}.jpg' alt='Cover'></div>"
        "<div class='artikel-info'>"
        f"<h1 class='element-headline-medium titel' data-test='produkt-titel'>{e(b.title)}</h1>{series}"
        f"<p class='element-text-standard autoren'>von {byline}</p>"
        "<div class='bewertung-kurz'><span class='sterne' aria-label='4,5 von 5 Sternen'></span>"
        f"<a href='#bewertungen'>({int(b.isbn[-3:]) % 50 + 1})</a></div>"
        "<div class='formatauswahl'><h2 class='element-text-standard-strong'>Format</h2>"
        f"<ul class='format-liste'>{tiles}</ul></div>"
        "<div class='preis-block'>"
        f"<p class='element-headline-large preis' data-test='preis'>{e(b.price)}</p>{sale}"
        "<p class='element-text-small preis-info'>inkl. gesetzl. MwSt.</p>"
        "<p class='element-text-small versand'>Versandkostenfrei</p></div>"
        "<div class='lieferbarkeit'><p class='element-text-standard-strong lieferstatus'>Sofort lieferbar</p>"
        "</div><form class='warenkorb-form' action='/warenkorb' method='post'>"
        f"<input type='hidden' name='artikelId' value='{pid}'>"
        f"<input type='hidden' name='ean' value='{b.isbn}'>"
        "<button class='element-button-primary' type='submit'>In den Warenkorb</button></form></div>"
        "</section>"
        "<section class='beschreibung'><h2 class='element-headline-medium'>Beschreibung</h2>"
        f"<p>Ein Roman über {e(b.title)}. Die Originalausgabe erschien am {e(b.first_published)}.</p>"
        "</section>"
        "<section class='artikeldetails' id='details'><h2 class='element-headline-medium'>Details</h2>"
        f"<div class='details-liste'>{detail_list}</div></section>"
        "<section class='autorenportraet'><h2 class='element-headline-medium'>"
        f"Über {'die Autoren' if len(b.authors) > 1 else 'den Autor'}</h2>{about}</section>"
        "<section class='kundenbewertungen' id='bewertungen'><h2 class='element-headline-medium'>Bewertungen"
        f"</h2><ul class='bewertungen'>{reviews}</ul></section>"
        "<section class='produktempfehlungen'><h2 class='element-headline-medium'>Das könnte Sie auch "
        f"interessieren</h2><ul class='artikel-slider'>{carousel}</ul></section>",
    )


def _won(price: str) -> int:
    return int(price.rstrip("원").replace(",", ""))


def yes24_goods(b: Book) -> str:
    """A Korean online bookshop's goods page: og metas and a script with the goods number and
    ISBN first; the title in an h2 (class ``gd_name``) beside "[ Paperback ]"; the byline "<a>A</a>,
    <a>B</a> 저/<a>T</a> 역" (translators as links of the same shape after the authors), then
    the publisher and a "2019년 05월 15일" date in sibling spans; a price table of 정가 (list) and
    판매가 (sale) amounts as "<em>13,500</em>원", the points as 원 too; other formats each with a
    price and a date span of the header date's class; a hidden textarea holding the description
    before its rendered copy; 품목정보 with 발행일, the page count packed with weight and size,
    ISBN13, ISBN10, 제본형태 and the goods code; author and translator profiles of one shape with
    "(저)"/"(역)" roles; reviews with masked ids and dates; a "bought together" list reusing
    the ``gd_name`` class for other titles."""
    r = random.Random(b.isbn + "yes24")
    goods_no = 90000000 + int(b.isbn[-7:])
    translators = _others(r, b, r.choice([0, 0, 1, 1, 2]))
    list_won, won = _won(b.list_price), _won(b.price)
    script = json.dumps(
        {"goodsNo": goods_no, "isbn13": b.isbn, "goodsNm": b.title, "salePrice": won}, ensure_ascii=False
    ).replace("</", "<\\/")

    def link(name: str) -> str:
        return f"<a href='/Product/Search?domain=ALL&amp;query={e(name)}'>{e(name)}</a>"

    auth = ", ".join(link(a) for a in b.authors) + " 저"
    if translators:
        auth += "/" + ", ".join(link(t) for t in translators) + " 역"
    series = (
        f"<span class='gd_series'><a href='/Product/Series/{goods_no}'>{e(b.series)}</a></span>"
        if b.series
        else ""
    )
    other_formats = [x for x in BINDINGS if x != b.binding]
    formats = "".join(
        f"<li><a href='/Product/Goods/{goods_no + j + 1}' class='gd_otherLink'>{e(x)}</a> "
        f"<span class='gd_otherPrice'><em class='yes_m'>{e(_other_price(b, j)[:-1])}</em>원</span> "
        f"<span class='gd_date'>{ko_date(r.randint(2010, 2022), r.randint(1, 12), r.randint(1, 28))}"
        "</span></li>"
        for j, x in enumerate(other_formats)
    )
    intro = (
        f"{e(b.authors[0])}의 대표작. {e(b.first_published)} 처음 출간된 이후 꾸준히 사랑받아 온 작품으로, "
        f"{e(b.publisher)}에서 새롭게 펴냈다."
    )
    info_rows = [
        ("발행일", e(b.published)),
        ("쪽수, 무게, 크기", f"{b.pages}쪽 | {b.pages + 60}g | 129*198*{b.pages // 25}mm"),
        ("ISBN13", b.isbn),
        ("ISBN10", _isbn10(b.isbn)),
        ("제본형태", e(b.binding)),
        ("상품코드", e(b.sku)),
    ]
    info = "".join(
        f"<tr><th class='txt' scope='row'>{k}</th><td class='txt lastCol'>{v}</td></tr>" for k, v in info_rows
    )
    people = [(a, "저") for a in b.authors] + [(t, "역") for t in translators]
    profiles = "".join(
        "<div class='author_info info_origin'><div class='author_name'><span class='name_wrap'>"
        f"{link(n)} <em class='role'>({role})</em></span></div>"
        f"<div class='author_txt'>{'작가' if role == '저' else '번역가'}. "
        f"{CITIES[(i + int(b.isbn[-4])) % len(CITIES)]}에서 활동하고 있다.</div></div>"
        for i, (n, role) in enumerate(people)
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        masked = who.split()[0].lower()[:3] + "***"
        date = f"{r.randint(2019, 2023)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        reviews += (
            "<div class='reviewInfoGrp'><div class='reviewInfoTop'>"
            f"<span class='review_rating'><span class='rating_grade'>평점{r.randint(3, 5)}점</span></span>"
            f"<em class='txt_id'><a href='/Member/{i}'>{masked}</a></em>"
            f"<em class='txt_date'>{date}</em></div>"
            "<div class='reviewInfoBot'><div class='review_cont'>"
            f"{['재미있게 읽었습니다.', '번역이 매끄러워요.', '선물용으로 샀어요.'][i]}</div></div></div>"
        )
    together = "".join(
        f"<li><div class='goods_img'><a href='/Product/Goods/{goods_no + 50 + i}'><img alt='{e(t)}'></a>"
        "</div>"
        f"<div class='goods_info'><a class='gd_name' href='/Product/Goods/{goods_no + 50 + i}'>{e(t)}</a>"
        f"<span class='goods_auth'>{e(a)} 저</span>"
        f"<span class='goods_price'><em class='yes_m'>{e(p[:-1])}</em>원</span></div></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "YES24",
        f"<meta property='og:title' content='{e(b.title)} - 예스24'>"
        f"<meta property='og:url' content='https://www.yes24.example/Product/Goods/{goods_no}'>"
        f"<script type='text/javascript'>var goodsInfo = {script};</script>"
        "<div id='yDetailTopWrap'><div class='topColLft'><div class='gd_imgArea'><span class='gd_img'>"
        f"<em class='imgBdr'><img class='gImg' src='/goods/{goods_no}/XL' alt='{e(b.title)}'></em></span>"
        "</div></div><div class='topColRgt'><div class='gd_infoTop'>"
        f"<div class='gd_titArea'><h2 class='gd_name'>{e(b.title)}</h2>"
        f"<span class='gd_feature'>[ {e(b.binding)} ]</span></div>{series}"
        f"<span class='gd_pubArea'><span class='gd_auth'>{auth}</span><em class='divi'>|</em>"
        f"<span class='gd_pub'><a href='/Product/Search?company={e(b.publisher)}'>{e(b.publisher)}</a></span>"
        f"<em class='divi'>|</em><span class='gd_date'>{e(b.published)}</span></span>"
        "<div class='gd_ratingArea'><span class='gd_rating'><em class='txt'>리뷰 총점</em>"
        f"<em class='yes_b'>{8 + int(b.isbn[-1]) / 5:.1f}</em></span>"
        f"<span class='gd_sellNum'>판매지수 {int(b.isbn[-5:]) % 9000 + 120:,}</span></div></div>"
        "<div class='gd_infoBot'><div class='gd_infoTbArea'><table class='gd_infoTb'><tbody>"
        f"<tr><th scope='row'>정가</th><td><span><em class='yes_m'>{list_won:,}</em>원</span></td></tr>"
        "<tr class='accentRow'><th scope='row'>판매가</th><td>"
        f"<span class='nor_price'><em class='yes_m'>{e(b.price[:-1])}</em>원</span> "
        f"<span class='gd_ratePr'>({round((list_won - won) / list_won * 100)}% 할인)</span></td></tr>"
        f"<tr><th scope='row'>YES포인트</th><td><em class='yes_b'>{round(won * 0.05):,}</em>원 (5% 적립)"
        "</td></tr><tr><th scope='row'>배송안내</th><td>무료배송 | 해외주문도서</td></tr></tbody></table>"
        "</div>"
        f"<div class='gd_otherFormat'><h4 class='tit_txt'>다른 형태</h4><ul>{formats}</ul></div>"
        "<div class='gd_btnArea'><a class='btn_cart' href='#'>카트에 넣기</a>"
        "<a class='btn_buy' href='#'>바로구매</a></div></div></div></div>"
        "<div id='infoset_introduce' class='gd_infoSet'><h4 class='tit_txt'>책소개</h4>"
        "<div class='infoWrap_txt'><div class='infoWrap_txtInner'>"
        f"<textarea class='txtContentText' style='display:none;'>{intro}</textarea>"
        f"<div class='infoWrap_txtInner'>{intro}</div></div></div></div>"
        "<div id='infoset_specific' class='gd_infoSet infoSet_noLine'><div class='tm_infoSet'>"
        "<h4 class='tit_txt'>품목정보</h4></div><div class='infoSetCont_wrap'><div class='infoSetCont'>"
        f"<table class='tb_nor tb_vertical'><tbody>{info}</tbody></table></div></div></div>"
        f"<div id='infoset_authorGrp' class='gd_infoSet'><h4 class='tit_txt'>저자 소개 ({len(people)}명)</h4>"
        f"<div class='infoSetCont_wrap'>{profiles}</div></div>"
        "<div id='infoset_reviewContentList' class='gd_infoSet'><h4 class='tit_txt'>회원리뷰 "
        f"({reviews.count('reviewInfoGrp')}건)</h4>{reviews}</div>"
        "<div id='infoset_together' class='gd_infoSet'><h4 class='tit_txt'>이 상품과 함께 구매한 상품</h4>"
        f"<ul class='goods_list'>{together}</ul></div>",
    )


def _joined(names: list[str]) -> str:
    """Names as prose: "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _rupees(price: str) -> int:
    return int(price.lstrip("₹").replace(",", ""))


SELLERS_IN = ["KitabGhar", "ReadMoreRetail", "BookStation India", "Pustak Mahal Online"]
MONTHS_SHORT_IN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def flipkart_product(b: Book) -> str:
    """An Indian marketplace's product page with generated class names: the initial state
    script first; breadcrumbs and the h1 span both holding the title followed by two no-break
    spaces and "(English, Paperback, Doe Jane)" (the authors surname first); the special price,
    the struck MRP as "₹<!-- -->499" and "% off" on sale pages; bank offers with other rupee
    amounts; "Highlights" lines "Label: value" with "ISBN: <isbn13>, <isbn10>"; the seller;
    "Specifications" as titled tables (Book Details with Title, an Imprint that is often another
    publisher, Publication Year, Publisher, Binding, ISBN, Item Code; Contributors with one li
    per author and optional "Translated By"/"Edited By" rows of the same shape); reviews whose
    name and "Mar, 2021" date share a class; similar products with their own price markup."""
    r = random.Random(b.isbn + "flipkart")
    pid = f"9781{int(b.isbn[-9:]):09d}"
    reversed_names = ", ".join(f"{a.split()[-1]} {' '.join(a.split()[:-1])}" for a in b.authors)
    long_title = f"{e(b.title)}&nbsp;&nbsp;(English, {e(b.binding)}, {e(reversed_names)})"
    state = json.dumps(
        {
            "pageDataV4": {
                "page": {
                    "pageData": {
                        "pageContext": {
                            "productId": pid,
                            "titles": {"title": b.title, "subtitle": f"English, {b.binding}"},
                            "pricing": {"finalPrice": {"value": _rupees(b.price)}},
                            "isbn": b.isbn,
                        }
                    }
                }
            }
        }
    ).replace("</", "<\\/")
    on_sale = _on_sale(b)
    price = f"<div class='_30jeq3 _16Jk6d'>{e(b.price)}</div>"
    if on_sale:
        mrp = _rupees(b.list_price)
        off = round((mrp - _rupees(b.price)) / mrp * 100)
        price = (
            "<div class='_1V_ZGU'><span>Special price</span></div><div class='_25b18c'>"
            f"{price}<div class='_3I9_wc _2p6lqe'>₹<!-- -->{mrp:,}</div>"
            f"<div class='_3Ay6Sb _31Dcoz'><span>{off}% off</span></div></div>"
        )
    else:
        price = f"<div class='_25b18c'>{price}</div>"
    offers = "".join(
        "<li class='_16eBzU col'><span class='u8dYXW'>"
        f"{kind}</span><span>{text}</span> <span class='_1Bsq8L'><span>T&amp;C</span></span></li>"
        for kind, text in [
            ("Bank Offer", "10% off on Axis Bank Credit Card, up to ₹1,250. On orders of ₹5,000 and above"),
            ("Bank Offer", "5% Cashback on Flipkart Axis Bank Card"),
            ("Special Price", f"Get extra {r.randint(5, 20)}% off (price inclusive of cashback/coupon)"),
        ]
    )
    highlights = [
        "Language: English",
        f"Binding: {e(b.binding)}",
        f"Publisher: {e(b.publisher)}",
        "Genre: Fiction",
        f"ISBN: {b.isbn}, {_isbn10(b.isbn)}",
        f"Edition: {e(b.edition) if b.edition else '1'}",
        f"Pages: {b.pages}",
    ]
    imprint = r.choice(PUBLISHERS)

    def spec_table(title: str, rows: list[tuple[str, list[str]]]) -> str:
        body = "".join(
            f"<tr class='_1s_Smc row'><td class='_1hKmbr col col-3-12'>{k}</td>"
            f"<td class='URwL2w col col-9-12'><ul>{''.join(f'<li class=_21lJbe>{v}</li>' for v in vs)}</ul>"
            "</td></tr>"
            for k, vs in rows
        )
        return (
            f"<div class='_3k-BhJ'><div class='flxcaE'>{title}</div>"
            f"<table class='_14cfVK'><tbody>{body}</tbody></table></div>"
        )

    book_rows = [("Title", [e(b.title)]), ("Imprint", [e(imprint)])]
    book_rows += [("Publication Year", [e(b.published)]), ("Book Type", ["Novel"]), ("Genre", ["Fiction"])]
    book_rows += [("ISBN", [b.isbn]), ("Edition", [e(b.edition) if b.edition else "1"])]
    if b.series:
        book_rows.append(("Series Name", [e(b.series)]))
    book_rows += [("Pages", [str(b.pages)]), ("Publisher", [e(b.publisher)]), ("Language", ["English"])]
    book_rows += [("Binding", [e(b.binding)]), ("Item Code", [e(b.sku)])]
    contributors = [("Author", [e(a) for a in b.authors])]
    if r.random() < 0.3:
        contributors.append(("Translated By", [e(x) for x in _others(r, b, r.randint(1, 2))]))
    if r.random() < 0.2:
        contributors.append(("Edited By", [e(x) for x in _others(r, b, 1)]))
    dimensions = [("Width", [f"{128 + b.pages % 7} mm"]), ("Height", ["198 mm"])]
    dimensions += [("Length", [f"{b.pages // 14} mm"]), ("Weight", [f"{b.pages + 50} gr"])]
    specs = (
        spec_table("Book Details", book_rows)
        + spec_table("Contributors", contributors)
        + spec_table("Dimensions", dimensions)
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        stars = r.randint(3, 5)
        reviews += (
            "<div class='col _2wzgFH'><div class='row'>"
            f"<div class='_3LWZlK _1BLPMq'>{stars}</div>"
            f"<p class='_2-N8zT'>{['Must buy!', 'Worth the money', 'Nice product'][i]}</p></div>"
            f"<div class='row'><div class='t-ZTKy'><div>{['Great read.', 'Good print quality.', 'Ok.'][i]}"
            "</div></div></div><div class='row _3n8db9'><div class='row'>"
            f"<p class='_2sc7ZR _2V5EHH'>{e(who)}</p>"
            f"<p class='_2mcZGG'><span>Certified Buyer</span><span>, {r.choice(['Mumbai', 'Pune', 'Delhi'])}"
            "</span></p>"
            f"<p class='_2sc7ZR'>{MONTHS_SHORT_IN[r.randint(0, 11)]}, {r.randint(2019, 2023)}</p>"
            "</div></div></div>"
        )
    similar = ""
    for i, (t, a, p) in enumerate(b.related):
        mrp = round(_rupees(p) * 1.25)
        similar += (
            f"<div class='_3YgSsQ'><a class='_2rpwqI' title='{e(t)}' href='/p/itm{pid[-6:]}{i}'>"
            f"<img class='_396cs4' alt='{e(t)}' src='/img/{i}.jpeg'></a>"
            f"<a class='s1Q9rs' title='{e(t)}' href='/p/itm{pid[-6:]}{i}'>{e(t)}</a>"
            f"<div class='_3Djpdu'>{e(a)}</div><div class='_25b18c'><div class='_30jeq3'>{e(p)}</div>"
            f"<div class='_3I9_wc'>₹<!-- -->{mrp:,}</div><div class='_3Ay6Sb'><span>20% off</span></div>"
            "</div></div>"
        )
    crumbs = "".join(
        f"<div class='_3GIHBu'><a class='_2whKao' href='/{i}'>{c}</a></div>"
        for i, c in enumerate(["Home", "Books", "Literature &amp; Fiction", long_title])
    )
    return _page(
        "Flipkart",
        f"<script id='is_script'>window.__INITIAL_STATE__ = {state};</script>"
        "<div class='_1YokD2 _2GoDe3'><div class='_1YokD2 _3Mn1Gg col-5-12 _78xt5Y'>"
        f"<div class='_3li7GG'><img class='_396cs4 _2amPTt _3qGmMb' alt='' src='/image/{pid}.jpeg'></div>"
        "<ul class='row'><li class='col col-6-12'><button class='_2KpZ6l _2U9uOA _3v1-ww'>ADD TO CART"
        "</button></li><li class='col col-6-12'><form><button class='_2KpZ6l _2U9uOA ihZ75k _3AWRsL'>"
        "BUY NOW</button></form></li></ul></div>"
        "<div class='_1YokD2 _3Mn1Gg col-8-12'>"
        f"<div class='_1MR4o5'>{crumbs}</div>"
        f"<div class='aMaAEs'><h1 class='yhB1nd'><span class='B_NuCI'>{long_title}</span></h1>"
        "<div class='_3_L3jD'><div class='gUuXy-'><span class='_1lRcqv'><div class='_3LWZlK'>"
        f"{4 + int(b.isbn[-1]) / 10:.1f}</div></span><span class='_2_R_DZ'><span><span>"
        f"{int(b.isbn[-4:]):,} Ratings&nbsp;</span><span class='_13vcmD'>&amp;</span>"
        f"<span>&nbsp;{int(b.isbn[-3:]):,} Reviews</span></span></span></div></div>"
        f"<div class='dyC4hf'><div class='CEmiEU'>{price}</div></div></div>"
        f"<div class='_3TT44I'><div class='_3D89xM'>Available offers</div><ul>{offers}</ul></div>"
        "<div class='_3XINqE'>Delivery</div><div class='_1ZlL5S'><span class='_1TPvTK'>Delivery by</span>"
        f"{r.randint(1, 28)} {MONTHS_SHORT_IN[r.randint(0, 11)]}, Wednesday | <span class='_3JfWG9'>Free"
        "</span> <span class='_1pLq4z'>₹40</span></div>"
        "<div class='_3wmLAA'><div class='_2cM9lP'>Highlights</div><div class='_2418kt'><ul>"
        + "".join(f"<li class='_21Ahn-'>{h}</li>" for h in highlights)
        + "</ul></div></div>"
        "<div class='_3wmLAA _2Hv60Z'><div class='_2cM9lP'>Seller</div><div class='_1RLviY'>"
        f"<div id='sellerName'><span><span>{r.choice(SELLERS_IN)}</span><div class='_3LWZlK _1D-8OL'>"
        f"{3.8 + r.randint(0, 9) / 10:.1f}</div></span></div><ul><li class='_2-Vfbs'>7 Days Replacement "
        "Policy</li><li class='_2-Vfbs'>GST invoice available</li></ul>"
        "<a class='_1HjIoq' href='/sellers'>See other sellers</a></div></div>"
        "<div class='_1mXcCf RmoJUa'><div class='_2cM9lP'>Description</div><div class='_1AN87F'>"
        f"{e(b.title)} by {e(_joined(b.authors))}, first published in {b.first_published[-4:]}, is "
        "a sweeping story of loss and return.</div></div>"
        "<div class='_1UhVsV'><div class='_3dtsli'><div class='_1JDhFS'>Specifications</div>"
        f"{specs}</div></div>"
        "<div class='col JOpGWq'><div class='_3UAT2v'>Ratings &amp; Reviews</div>"
        f"{reviews}</div></div></div>"
        "<div class='_2lDD-4'><div class='_1Ph8u6'>Similar products</div>"
        f"<div class='_2GosDf'>{similar}</div></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 15: written without reading the learner's code, copying real platforms' pages


def _dollars(price: str) -> float:
    """A "$12.99" price as a number."""
    return float(price.lstrip("$"))


def _comma_text(amount: float, currency: str) -> str:
    """An amount the way a continental shop prints it: "12,99 zł"."""
    return f"{amount:.2f} {currency}".replace(".", ",")


def prestashop_product(b: Book) -> str:
    """A Spanish shop on PrestaShop 1.7's "classic" theme: an SEO module's JSON-LD first; the
    BreadcrumbList microdata ending in the title; the cover's alt/title; the h1; on sale pages
    the struck ``regular-price`` before ``current-price`` (its ``content`` attribute holding the
    dot-decimal amount) and "Ahorra N%"; "Impuestos incluidos"; a short description "Por A y B"
    with the first edition's date; the cart form's hidden token/id inputs and a variant
    <select> listing every binding; reassurance lines with a free-shipping threshold price; the
    "Detalles del producto" tab whose ``data-product`` attribute holds the product JSON, then
    "Marca" (the publisher), "Referencia" (the SKU), stock count, the "Ficha técnica" data sheet
    (dt/dd pairs: "Autor" with several names joined by <br>, optional "Traductor"/"Ilustrador"
    pairs of the same shape, Editorial, Encuadernación, "Fecha de publicación", "Primera
    edición" in the same date format, Páginas, Idioma, optional Colección/Edición) and
    "Referencias específicas" (ean13: the ISBN, isbn: the hyphenated ISBN); productcomments
    reviews with dates in the publication date's format and "Por <name>"; "N otros productos en
    la misma categoría" miniatures with their own titles, authors and prices."""
    r = random.Random(b.isbn + "prestashop")
    pid = 200 + int(b.isbn[-3:])
    on_sale = _on_sale(b)
    amount = _euros(b.price)
    url = f"https://libreriamarea.example/libros-en-ingles/{pid}-{b.slug}.html"
    jsonld = json.dumps(
        {
            "@context": "https://schema.org/",
            "@type": "Product",
            "name": b.title,
            "sku": b.sku,
            "mpn": b.sku,
            "gtin13": b.isbn,
            "brand": {"@type": "Brand", "name": b.publisher},
            "offers": {
                "@type": "Offer",
                "priceCurrency": "EUR",
                "price": f"{amount:.2f}",
                "availability": "https://schema.org/InStock",
                "url": url,
            },
        },
        ensure_ascii=False,
    ).replace("</", "<\\/")
    product_json = json.dumps(
        {
            "id_product": str(pid),
            "name": b.title,
            "reference": b.sku,
            "ean13": b.isbn,
            "price_amount": round(amount, 2),
            "link_rewrite": b.slug,
        },
        ensure_ascii=False,
    )
    crumbs = [
        ("/", "Inicio"),
        ("/3-libros", "Libros"),
        ("/12-libros-en-ingles", "Libros en inglés"),
        (url, b.title),
    ]
    breadcrumb = "".join(
        "<li itemprop='itemListElement' itemscope itemtype='https://schema.org/ListItem'>"
        f"<a itemprop='item' href='{e(href)}'><span itemprop='name'>{e(name)}</span></a>"
        f"<meta itemprop='position' content='{i + 1}'></li>"
        for i, (href, name) in enumerate(crumbs)
    )
    pct = round(100 * (1 - amount / _euros(b.list_price)))
    prices = (
        "<div class='product-prices js-product-prices'>"
        + (
            f"<div class='product-discount'><span class='regular-price'>{e(b.list_price)}</span></div>"
            if on_sale
            else ""
        )
        + f"<div class='product-price h5{' has-discount' if on_sale else ''}' itemprop='offers' itemscope "
        "itemtype='https://schema.org/Offer'><link itemprop='availability' href='https://schema.org/InStock'>"
        "<meta itemprop='priceCurrency' content='EUR'>"
        f"<div class='current-price'><span itemprop='price' content='{amount:.2f}'>{e(b.price)}</span>"
        + (f" <span class='discount discount-percentage'>Ahorra {pct}%</span>" if on_sale else "")
        + "</div></div><div class='tax-shipping-delivery-label'>Impuestos incluidos</div></div>"
    )
    options = "".join(
        f"<option value='{20 + i}' title='{e(x)}'{' selected' if x == b.binding else ''}>{e(x)}</option>"
        for i, x in enumerate(BINDINGS)
    )
    translators = _others(r, b, r.randint(1, 2)) if r.random() < 0.35 else []
    illustrators = _others(r, b, 1) if r.random() < 0.25 else []
    features = [("Autor", "<br>".join(e(a) for a in b.authors))]
    if translators:
        features.append(("Traductor", "<br>".join(e(t) for t in translators)))
    if illustrators:
        features.append(("Ilustrador", "<br>".join(e(t) for t in illustrators)))
    features += [
        ("Editorial", e(b.publisher)),
        ("Encuadernación", e(b.binding)),
        ("Fecha de publicación", e(b.published)),
        ("Primera edición", e(b.first_published)),
        ("Páginas", str(b.pages)),
        ("Idioma", "Inglés"),
    ]
    if b.series:
        features.append(("Colección", e(b.series)))
    if b.edition:
        features.append(("Edición", e(b.edition)))
    sheet = "".join(f"<dt class='name'>{k}</dt><dd class='value'>{v}</dd>" for k, v in features)
    stock = int(b.isbn[-2:]) % 17 + 1
    comments = ""
    reviewers = _others(r, b, r.randint(1, 3))
    for i, who in enumerate(reviewers):
        grade = r.randint(3, 5)
        comments += (
            f"<div class='product-comment-list-item row' data-product-comment-id='{pid * 10 + i}' "
            f"data-product-id='{pid}'><div class='col-md-3 col-sm-3 comment-infos'>"
            f"<div class='grade-stars' data-grade='{grade}'></div>"
            "<div class='comment-date'>"
            f"{slash_dmy(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}</div>"
            f"<div class='comment-author'>Por {e(who)}</div></div>"
            "<div class='col-md-9 col-sm-9 comment-content'>"
            f"<p class='h4'>{['Muy recomendable', 'Llegó rápido', 'Esperaba más'][i]}</p>"
            f"<p>Lo leí en {i + 2} días, la edición en {e(r.choice(BINDINGS).lower())} está muy cuidada.</p>"
            "<div class='comment-buttons btn-group'><a class='useful-review'>"
            "<i class='material-icons thumb_up'>thumb_up</i>"
            f"<span class='useful-review-value'>{i + 1}</span></a>"
            "</div></div></div>"
        )
    minis = "".join(
        "<div class='js-product product col-xs-12 col-sm-6 col-lg-4 col-xl-3'>"
        f"<article class='product-miniature js-product-miniature' data-id-product='{pid + 7 * (i + 1)}' "
        "data-id-product-attribute='0'><div class='thumbnail-container'><div class='thumbnail-top'>"
        f"<a href='/libros-en-ingles/{pid + 7 * (i + 1)}-r.html' class='thumbnail product-thumbnail'>"
        f"<img src='/{pid + 7 * (i + 1)}-home_default/r.jpg' alt='{e(t)}' loading='lazy'></a></div>"
        f"<div class='product-description'><h3 class='h3 product-title'><a href='/libros-en-ingles/"
        f"{pid + 7 * (i + 1)}-r.html'>{e(t)}</a></h3><p class='product-author'>{e(a)}</p>"
        "<div class='product-price-and-shipping'><span class='sr-only'>Precio</span>"
        f"<span class='price' aria-label='Precio'>{e(p)}</span></div></div></div></article></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    token = hashlib.md5(b.isbn.encode()).hexdigest()
    por = b.authors[0] if len(b.authors) == 1 else f"{', '.join(b.authors[:-1])} y {b.authors[-1]}"
    return _page(
        "Librería Marea",
        f"<script type='application/ld+json'>{jsonld}</script>"
        "<nav data-depth='4' class='breadcrumb hidden-sm-down'><ol itemscope "
        f"itemtype='http://schema.org/BreadcrumbList'>{breadcrumb}</ol></nav>"
        "<div id='content-wrapper' class='js-content-wrapper'>"
        "<section id='main' itemscope itemtype='https://schema.org/Product'>"
        f"<meta itemprop='url' content='{e(url)}'>"
        "<div class='row product-container js-product-container'><div class='col-md-6'>"
        "<section class='page-content' id='content'><ul class='product-flags js-product-flags'>"
        + (f"<li class='product-flag discount'>-{pct}%</li>" if on_sale else "")
        + "</ul><div class='images-container js-images-container'><div class='product-cover'>"
        f"<img class='js-qv-product-cover img-fluid' src='/{pid}-large_default/{e(b.slug)}.jpg' "
        f"alt='{e(b.title)}' title='{e(b.title)}' loading='lazy' width='452' height='452'></div></div>"
        "</section></div><div class='col-md-6'>"
        f"<h1 class='h1' itemprop='name'>{e(b.title)}</h1>{prices}"
        "<div class='product-information'>"
        f"<div id='product-description-short-{pid}' class='product-description' itemprop='description'>"
        f"<p>Por {e(por)}. Primera edición: {e(b.first_published)}.</p>"
        "</div>"
        "<div class='product-actions js-product-actions'>"
        "<form action='/carrito' method='post' id='add-to-cart-or-refresh'>"
        f"<input type='hidden' name='token' value='{token}'>"
        f"<input type='hidden' name='id_product' value='{pid}' id='product_page_product_id'>"
        "<input type='hidden' name='id_customization' value='0' id='product_customization_id' "
        "class='js-product-customization-id'>"
        "<div class='product-variants js-product-variants'><div class='clearfix product-variants-item'>"
        "<span class='control-label'>Encuadernación: </span>"
        "<select class='form-control form-control-select' id='group_3' aria-label='Encuadernación' "
        f"data-product-attribute='3' name='group[3]'>{options}</select></div></div>"
        "<div class='product-add-to-cart js-product-add-to-cart'><span class='control-label'>Cantidad</span>"
        "<div class='product-quantity clearfix'><div class='qty'><input type='number' name='qty' "
        "id='quantity_wanted' value='1' class='input-group' min='1'></div><div class='add'>"
        "<button class='btn btn-primary add-to-cart' data-button-action='add-to-cart' type='submit'>"
        "<i class='material-icons shopping-cart'>&#xE547;</i>Añadir al carrito</button></div></div>"
        "<span id='product-availability' class='js-product-availability'>"
        "<i class='material-icons rtl-no-flip product-available'>&#xE5CA;</i>En stock</span></div>"
        "</form></div>"
        "<div class='blockreassurance_product'><div><span class='block-title'>Envío gratis a partir de "
        f"{e(_comma_text(19 + int(b.isbn[-1]), '€'))}</span></div><div><span class='block-title'>"
        "Devoluciones gratuitas en 14 días</span></div></div>"
        "<div class='tabs'><ul class='nav nav-tabs' role='tablist'>"
        "<li class='nav-item'><a class='nav-link' data-toggle='tab' href='#description' role='tab'>"
        "Descripción</a></li><li class='nav-item'><a class='nav-link active' data-toggle='tab' "
        "href='#product-details' role='tab'>Detalles del producto</a></li></ul>"
        "<div class='tab-content' id='tab-content'>"
        "<div class='tab-pane fade in' id='description' role='tabpanel'><div class='product-description'>"
        f"<p>Una novela de {b.pages} páginas. Del autor de <em>{e(b.related[0][0])}</em>.</p></div></div>"
        f"<div class='js-product-details tab-pane fade in active' id='product-details' "
        f"data-product='{e(product_json)}' role='tabpanel'>"
        "<div class='product-manufacturer'><label class='label'>Marca</label><span>"
        f"<a href='/brand/{PUBLISHERS.index(b.publisher) + 2}-marca'>{e(b.publisher)}</a></span></div>"
        f"<div class='product-reference'><label class='label'>Referencia </label>"
        f"<span itemprop='sku'>{e(b.sku)}</span></div>"
        "<div class='product-quantities'><label class='label'>En stock</label>"
        f"<span data-stock='{stock}' data-allow-oosp='0'>{stock} Artículos</span></div>"
        "<div class='product-out-of-stock'></div>"
        "<section class='product-features'><p class='h6'>Ficha técnica</p>"
        f"<dl class='data-sheet'>{sheet}</dl></section>"
        "<section class='product-features'><p class='h6'>Referencias específicas</p><dl class='data-sheet'>"
        f"<dt class='name'>ean13</dt><dd class='value'>{b.isbn}</dd>"
        f"<dt class='name'>isbn</dt><dd class='value'>{_hyphenated_isbn(b.isbn)}</dd></dl></section>"
        "</div></div></div></div></div></div>"
        "<div class='product-comments'><div id='product-comments-list-header'><div class='comments-nb'>"
        f"<i class='material-icons chat'>chat</i>Comentarios ({len(reviewers)})</div></div>"
        f"<div id='product-comments-list'>{comments}</div></div>"
        "<section class='featured-products clearfix mt-3'>"
        f"<h2>{len(b.related)} otros productos en la misma categoría:</h2>"
        f"<div class='products row'>{minis}</div></section></section></div>",
    )


MIESIACE = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
            "października", "listopada", "grudnia"]  # fmt: skip
SPRZEDAWCY = ["Empik", "Księgarnia Tania Książka", "Dom Książki Online", "Bookmaster.pl"]


def pl_date(y: int, m: int, d: int) -> str:
    return f"{d} {MIESIACE[m - 1]} {y}"


def empik_product(b: Book) -> str:
    """A Polish retailer's marketplace page (emotion-generated ``css-*`` classes beside
    ``data-ta`` test hooks): JSON-LD first; breadcrumbs of categories only; the title h1 and the
    author links; version tiles ("Książka" at the page's price, Ebook and Audiobook at others);
    the price, on sale pages a struck suggested price, a discount badge and the EU "lowest price
    in the 30 days before the reduction" line in the same currency; a free-delivery threshold;
    "Sprzedaje i wysyła" naming the seller; a cart form with hidden product/offer inputs;
    "Inne oferty" with other sellers' prices; the "Szczegóły" table (Tytuł, Autor with links,
    optional "Tłumacz"/"Ilustrator" rows of the same shape, Wydawnictwo, optional Seria, Język,
    "Data wydania", "Data pierwszego wydania" in the same Polish date format, Okładka, Liczba
    stron, Wymiary, Indeks, ISBN, EAN); reviews "<name> · <date>" in that date format and
    "Klienci kupili również" tiles with titles, authors and prices."""
    r = random.Random(b.isbn + "empik")
    pid = 1000000 + int(b.isbn[-6:])
    amount = _euros(b.price)
    on_sale = _on_sale(b)
    jsonld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": ["Product", "Book"],
            "name": b.title,
            "isbn": b.isbn,
            "author": [{"@type": "Person", "name": a} for a in b.authors],
            "publisher": b.publisher,
            "offers": {"@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "PLN"},
        },
        ensure_ascii=False,
    ).replace("</", "<\\/")
    authors = ", ".join(
        f"<a class='css-1l6ot9h e1y0jh7e0 smartAuthor' data-ta='author-link' "
        f"href='/szukaj/produkt?author={e(a.lower().replace(' ', '+'))}'>{e(a)}</a>"
        for a in b.authors
    )
    versions = [("Książka", b.price, True), ("Ebook", _comma_text(amount * 0.7, "zł"), False),
                ("Audiobook", _other_price(b, 0), False)]  # fmt: skip
    tiles = "".join(
        f"<li class='css-17m1ud4 e14v7bxm0'><a href='/ksiazki/p{pid + i}' data-ta='version-tile' "
        f"class='{'css-1okrusk selected' if cur else 'css-1okrusk'}'><span class='css-ls1mb0'>{name}</span>"
        f"<span class='css-f9iwok'>{e(price)}</span></a></li>"
        for i, (name, price, cur) in enumerate(versions)
    )
    sale = ""
    if on_sale:
        low = _comma_text((amount + _euros(b.list_price)) / 2, "zł")
        sale = (
            f"<div class='css-5nw7sd' data-ta='old-price'>Cena sugerowana: <s>{e(b.list_price)}</s> "
            f"<span class='css-discount'>-{round(100 * (1 - amount / _euros(b.list_price)))}%</span></div>"
            "<p class='css-omnibus' data-ta='omnibus-price'>"
            f"Najniższa cena z 30 dni przed obniżką: {e(low)}</p>"
        )
    offers = "".join(
        "<li class='css-offer' data-ta='other-offer'>"
        f"<span class='css-seller'>{e(seller)}</span><span class='css-condition'>Nowy</span>"
        f"<span class='css-offerPrice'>{e(_comma_text(amount + 1.5 + j, 'zł'))}</span>"
        f"<span class='css-offerDelivery'>Dostawa od {e(_comma_text(8.99 + j, 'zł'))}</span></li>"
        for j, seller in enumerate(SPRZEDAWCY[1 : 1 + r.randint(1, 3)])
    )
    translators = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    illustrators = _others(r, b, 1) if r.random() < 0.2 else []

    def links(names: list[str], kind: str) -> str:
        return ", ".join(
            f"<a class='css-1l6ot9h' href='/szukaj/produkt?{kind}={e(n.lower().replace(' ', '+'))}'>"
            f"{e(n)}</a>"
            for n in names
        )

    rows = [("Tytuł", e(b.title)), ("Autor", links(b.authors, "author"))]
    if translators:
        rows.append(("Tłumacz", links(translators, "translator")))
    if illustrators:
        rows.append(("Ilustrator", links(illustrators, "illustrator")))
    house = (
        f"<a class='css-1l6ot9h' href='/wydawnictwo/p{PUBLISHERS.index(b.publisher)}'>{e(b.publisher)}</a>"
    )
    rows.append(("Wydawnictwo", house))
    if b.series:
        rows.append(("Seria", e(b.series)))
    rows += [
        ("Język wydania", "angielski"),
        ("Data wydania", e(b.published)),
        ("Data pierwszego wydania", e(b.first_published)),
        ("Okładka", e(b.binding)),
        ("Liczba stron", str(b.pages)),
        ("Wymiary", "13,0 x 20,0 cm"),
        ("Indeks", e(b.sku)),
        ("ISBN", b.isbn),
        ("EAN", b.isbn),
    ]
    if b.edition:
        rows.insert(-3, ("Numer wydania", e(b.edition)))
    table = "".join(
        f"<tr class='css-1s4zyte'><td class='css-wkynvw' data-ta='details-label'>{k}</td>"
        f"<td class='css-1ay9vvl' data-ta='details-value'>{v}</td></tr>"
        for k, v in rows
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        stars = r.randint(3, 5)
        reviews += (
            "<div class='css-review' data-ta='review'><div class='css-reviewHeader'>"
            f"<span class='css-reviewAuthor'>{e(who)}</span> · <span class='css-reviewDate'>"
            f"{pl_date(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}</span></div>"
            f"<div class='css-stars' aria-label='Ocena: {stars} na 5'>{'★' * stars}</div>"
            "<p class='css-reviewText'>"
            f"{['Świetna lektura.', 'Szybka wysyłka, polecam.', 'Trochę nudna.'][i]}</p>"
            + ("<span class='css-verified'>Opinia potwierdzona zakupem</span>" if i % 2 == 0 else "")
            + f"<div class='css-helpful'>Czy ta opinia była pomocna? Tak ({i + 1}) Nie (0)</div></div>"
        )
    related = "".join(
        f"<li class='css-tile' data-ta='recommendation'><a href='/ksiazki/p{pid + 50 + i}'>"
        f"<img src='/img/p{pid + 50 + i}.jpg' alt='{e(t)}'>"
        f"<p class='css-tileTitle' data-ta='tile-title'>{e(t)}</p>"
        f"<p class='css-tileAuthor' data-ta='tile-author'>{e(a)}</p>"
        f"<p class='css-tilePrice' data-ta='tile-price'>{e(p)}</p></a></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Empik",
        f"<script type='application/ld+json'>{jsonld}</script>"
        "<nav class='css-breadcrumbs' aria-label='breadcrumb'><ol>"
        "<li><a href='/'>Strona główna</a></li><li><a href='/ksiazki'>Książki</a></li>"
        "<li><a href='/ksiazki/obcojezyczne'>Obcojęzyczne</a></li>"
        "<li><a href='/ksiazki/obcojezyczne/angielskie'>Literatura angielska</a></li></ol></nav>"
        f"<div class='css-productMain' data-product-id='p{pid}'>"
        f"<div class='css-gallery'><img src='/img/p{pid}.jpg' alt='okładka'></div>"
        "<div class='css-baseInfo'>"
        f"<h1 class='css-1kh1w6 e1n1h1zy0' data-ta='title'>{e(b.title)}</h1>"
        f"<div class='css-1ulmtz9 pDAuthorList' data-ta='product-author'>{authors}</div>"
        f"<div class='css-rating' data-ta='rating'><span>4,{int(b.isbn[-1])}</span> "
        f"<a href='#opinie'>({int(b.isbn[-3:]) % 60 + 1} ocen)</a></div>"
        f"<ul class='css-versions' data-ta='versions'>{tiles}</ul></div>"
        "<div class='css-buyBox' data-ta='buy-box'>"
        f"<div class='css-price' data-ta='price'>{e(b.price)}</div>{sale}"
        "<p class='css-delivery' data-ta='delivery'>Wysyłka w 24 godziny</p>"
        f"<p class='css-freeDelivery'>Darmowa dostawa od {e(_comma_text(49 + int(b.isbn[-1]), 'zł'))}</p>"
        "<p class='css-sellerInfo'>Sprzedaje i wysyła: <strong>Empik</strong></p>"
        "<form class='css-addToCart' action='/koszyk' method='post'>"
        f"<input type='hidden' name='productId' value='p{pid}'>"
        f"<input type='hidden' name='offerId' value='{pid}-{e(b.sku)}'>"
        "<button type='submit' data-ta='add-to-cart'>Dodaj do koszyka</button></form></div></div>"
        f"<section class='css-otherOffers'><h2>Inne oferty</h2><ul>{offers}</ul></section>"
        "<section class='css-description' id='opis'><h2>Opis</h2>"
        f"<p>{e(b.title)} to powieść, której pierwsze wydanie ukazało się {e(b.first_published)}.</p>"
        "</section>"
        "<section class='css-details' id='szczegoly'><h2>Szczegóły</h2>"
        f"<table class='css-detailsTable' data-ta='details-table'><tbody>{table}</tbody></table></section>"
        f"<section class='css-reviews' id='opinie'><h2>Opinie i recenzje</h2>{reviews}</section>"
        "<section class='css-recommendations'><h2>Klienci kupili również</h2>"
        f"<ul class='css-carousel'>{related}</ul></section>",
    )


def ordinal_date(y: int, m: int, d: int) -> str:
    suffix = "th" if 11 <= d <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
    return f"{d}{suffix} {MONTHS[m - 1]} {y}"


ROLES_AU = ["Illustrator", "Editor", "Narrator", "Translator"]


def booktopia_product(b: Book) -> str:
    """An Australian bookshop's product page: JSON-LD first (ISO date, schema.org format URL);
    a mobile buy bar (hidden on desktop) with the ISBN URL, title, price and binding;
    breadcrumbs ending in the title; the h1, an optional series h2; "By:" and one link per
    contributor, the authors' links followed by links of the same shape for an illustrator,
    editor or narrator told apart only by " (Illustrator)" after them; "<binding> | Published:
    <date>"; "RRP" struck before the price, "Save", an Afterpay quarter price, Qantas points and
    a free-shipping threshold; a cart form with the ISBN in a hidden input; "Other Editions"
    with other bindings, their dates and prices; "About the book" giving the first-published
    date in the same ordinal format; "About the Author" per author; the "Details" list of
    <strong>label:</strong> value items (ISBN, ISBN-10, Published, Publisher, an Imprint drawn from
    the same publisher pool, Format, Number of Pages, optional Series/Edition, Product Code);
    reviews "by <name> on <date>"; "Customers Also Bought" tiles with authors, RRPs and prices."""
    r = random.Random(b.isbn + "booktopia")
    amount = _dollars(b.price)
    rrp = _dollars(b.list_price)
    jsonld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "Book",
            "name": b.title,
            "isbn": b.isbn,
            "author": [{"@type": "Person", "name": a} for a in b.authors],
            "bookFormat": "https://schema.org/" + b.binding.replace(" ", ""),
            "numberOfPages": b.pages,
            "publisher": {"@type": "Organization", "name": b.publisher},
            "offers": {"@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "AUD"},
        }
    ).replace("</", "<\\/")
    extra = _others(r, b, 1) if r.random() < 0.4 else []
    role = r.choice(ROLES_AU)

    def person(n: str) -> str:
        return f"<a href='/search.ep?author={e(n.replace(' ', '+'))}' class='contributor'>{e(n)}</a>"

    byline = ", ".join(person(a) for a in b.authors) + "".join(
        f", {person(n)} <span class='role'>({role})</span>" for n in extra
    )
    others = [x for x in BINDINGS if x != b.binding]
    editions = "".join(
        f"<li class='edition'><a href='/{b.slug}/book/978{r.randint(1000000000, 9999999999)}.html'>{e(x)}</a>"
        f" <span class='edition-date'>Published: {date}</span>"
        f" <span class='edition-price'>{e(_other_price(b, k))}</span></li>"
        for k, (x, date) in enumerate(
            (x, ordinal_date(r.randint(2010, 2021), r.randint(1, 12), r.randint(1, 28))) for x in others
        )
    )
    about = "".join(
        f"<p class='author-bio'><strong>{e(a)}</strong> lives in "
        f"{['Melbourne', 'Sydney', 'Hobart', 'Perth'][(i + int(b.isbn[-2])) % 4]} and writes fiction.</p>"
        for i, a in enumerate(b.authors)
    )
    imprint = r.choice(PUBLISHERS)
    details = [
        ("ISBN", b.isbn),
        ("ISBN-10", _isbn10(b.isbn)),
        ("Published", e(b.published)),
        ("Publisher", e(b.publisher)),
        ("Imprint", e(imprint)),
        ("Format", e(b.binding)),
        ("Number of Pages", str(b.pages)),
    ]
    if b.series:
        details.append(("Series", e(b.series)))
    if b.edition:
        details.append(("Edition Type", e(b.edition)))
    details += [
        ("Dimensions (cm)", f"19.8 x 12.9 x {b.pages / 400:.1f}"),
        ("Country of Publication", "GB"),
        ("Product Code", e(b.sku)),
    ]
    detail_list = "".join(f"<li><strong>{k}:</strong> <span>{v}</span></li>" for k, v in details)
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        stars = r.randint(3, 5)
        reviews += (
            f"<div class='review' id='review-{i}'><div class='review-header'>"
            f"<span class='stars' title='{stars} out of 5'>{'★' * stars}</span> "
            f"<strong class='review-title'>{['Loved it', 'Great gift', 'Not for me'][i]}</strong></div>"
            f"<p class='review-meta'>by <span class='reviewer'>{e(who)}</span> on <span class='review-date'>"
            f"{ordinal_date(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}</span></p>"
            f"<p class='review-body'>Read it in {i + 2} days.</p></div>"
        )
    tiles = "".join(
        f"<li class='product-tile'><a class='tile-title' href='/r/book/{i}.html'>{e(t)}</a>"
        f"<div class='tile-author'>{e(a)}</div><div class='tile-format'>{e(r.choice(BINDINGS))}</div>"
        f"<div class='tile-prices'><span class='tile-rrp'>RRP ${_dollars(p) * 1.2:.2f}</span> "
        f"<span class='tile-price'>{e(p)}</span></div></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Booktopia",
        f"<script type='application/ld+json'>{jsonld}</script>"
        "<div class='mobile-buy-bar' style='display:none'>"
        f"<a href='/{e(b.slug)}/book/{b.isbn}.html' class='mobile-title'>{e(b.title)}</a>"
        f"<span class='mobile-price'>{e(b.price)}</span>"
        f"<span class='mobile-format'>{e(b.binding)}</span></div>"
        "<div id='breadcrumbs' class='breadcrumbs'><a href='/'>Home</a> &gt; <a href='/books/fiction'>Fiction"
        "</a> &gt; <a href='/books/fiction/modern-contemporary'>Modern &amp; Contemporary Fiction</a> &gt; "
        f"<span class='current'>{e(b.title)}</span></div>"
        "<div id='product-wrapper' class='product-page'>"
        f"<div id='image' class='product-image'><img src='/covers/200/{b.isbn}/0000/{e(b.slug)}.jpg' "
        f"alt='{e(b.title)}'></div>"
        f"<div id='product-title'><h1>{e(b.title)}</h1>"
        + (f"<h2 class='series'>{e(b.series)}</h2>" if b.series else "")
        + f"<div id='contributors'><span class='by'>By: </span>{byline}</div>"
        f"<p class='format-and-date'><span class='format'>{e(b.binding)}</span> | "
        f"<span class='date'>Published: {e(b.published)}</span></p>"
        f"<div class='rating'><span class='stars' title='4.{int(b.isbn[-1])} out of 5'></span> "
        f"<a href='#reviews'>{int(b.isbn[-3:]) % 80 + 1} Ratings</a></div></div>"
        "<div id='buy-box' class='buy-box'><div id='prices'>"
        f"<div class='rrp'>RRP <span class='strike'>{e(b.list_price)}</span></div>"
        f"<div class='sale-price'><span id='price'>{e(b.price)}</span></div>"
        f"<div class='save'>Save ${rrp - amount:.2f}</div></div>"
        f"<div class='afterpay'>or 4 interest-free payments of ${amount / 4:.2f} with Afterpay</div>"
        "<div id='shipping-info'><p class='in-stock'>In Stock</p><p>Ships in 1 to 2 business days</p>"
        "<p>Free shipping on orders over $59</p></div>"
        "<form action='/cart/add' method='post'>"
        f"<input type='hidden' name='isbn' value='{b.isbn}'>"
        "<button class='btn add-to-cart' type='submit'>Add to Cart</button></form>"
        f"<div class='qantas'>Earn {round(amount)} Qantas Points</div></div>"
        f"<div id='other-editions'><h3>Other Editions</h3><ul>{editions}</ul></div>"
        "<div id='description'><h2>About the book</h2>"
        f"<p>A {b.pages}-page novel. First published {e(b.first_published)}.</p></div>"
        f"<div id='about-author'><h3>About the Author{'s' if len(b.authors) > 1 else ''}</h3>{about}</div>"
        f"<div id='details'><h2>Details</h2><ul class='details-list'>{detail_list}</ul></div>"
        f"<div id='reviews'><h2>Ratings and Reviews</h2>{reviews}</div>"
        "<div id='customers-also-bought'><h2>Customers Also Bought</h2>"
        f"<ul class='product-carousel'>{tiles}</ul></div></div>",
    )


def opencart_product(b: Book) -> str:
    """A shop on OpenCart 3's default theme: an SEO extension's JSON-LD first; the breadcrumb
    ending in a link to the title; the thumbnail's href/title/alt holding the ISBN image name
    and the title; tabs Description / Specification / Reviews (N) all in the page; the
    Specification table of attribute groups whose values are free text ("Author" holding
    several names joined by ", ", optional "Translator"/"Illustrator" rows of the same shape,
    Format, "Publication Date", "First Published" in the same d/m/Y format, Pages, ISBN-13, a
    "Publisher Details" group with Imprint); reviews as tables of name and date (d/m/Y, the
    publication date's format); the right column's wish-list buttons, h1, "Brand:" (the
    publisher), "Product Code:", "Reward Points:", "Availability:", the struck old price on
    sale pages, the price in an h2, "Ex Tax:" and quantity discounts in the same currency; a
    hidden product_id input; Related Products with their own titles, "by" lines, prices and
    ex-tax prices; tags."""
    r = random.Random(b.isbn + "opencart")
    pid = 40 + int(b.isbn[-3:])
    amount = _dollars(b.price)
    on_sale = _on_sale(b)
    jsonld = json.dumps(
        {
            "@context": "http://schema.org",
            "@type": "Product",
            "name": b.title,
            "sku": b.sku,
            "gtin13": b.isbn,
            "brand": b.publisher,
            "offers": {"@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "USD"},
        }
    ).replace("</", "<\\/")
    href = f"index.php?route=product/product&amp;path=59_61&amp;product_id={pid}"
    translators = _others(r, b, 1) if r.random() < 0.35 else []
    illustrators = _others(r, b, r.randint(1, 2)) if r.random() < 0.25 else []
    rows = [("Author", ", ".join(e(a) for a in b.authors))]
    if translators:
        rows.append(("Translator", ", ".join(e(t) for t in translators)))
    if illustrators:
        rows.append(("Illustrator", ", ".join(e(t) for t in illustrators)))
    rows += [
        ("Format", e(b.binding)),
        ("Publication Date", e(b.published)),
        ("First Published", e(b.first_published)),
        ("Pages", str(b.pages)),
        ("ISBN-13", b.isbn),
    ]
    if b.series:
        rows.append(("Series", e(b.series)))
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    groups = [("Book Details", rows), ("Publisher Details", [("Imprint", e(r.choice(PUBLISHERS))),
                                                             ("Language", "English")])]  # fmt: skip
    spec = "".join(
        f"<thead><tr><td colspan='2'><strong>{g}</strong></td></tr></thead><tbody>"
        + "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in items)
        + "</tbody>"
        for g, items in groups
    )
    names = _others(r, b, r.randint(1, 3))
    reviews = "".join(
        "<table class='table table-striped table-bordered'><tr>"
        f"<td style='width: 50%;'><strong>{e(who)}</strong></td>"
        f"<td class='text-right'>{slash_dmy(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}</td>"
        f"</tr><tr><td colspan='2'><p>{['Great read.', 'Fast delivery.', 'Not my cup of tea.'][i]}</p>"
        + "<span class='fa fa-stack'><i class='fa fa-star fa-stack-2x'></i></span>" * r.randint(3, 5)
        + "</td></tr></table>"
        for i, who in enumerate(names)
    )
    price = (
        (f"<li><span style='text-decoration: line-through;'>{e(b.list_price)}</span></li>" if on_sale else "")
        + f"<li><h2>{e(b.price)}</h2></li><li>Ex Tax: ${amount / 1.2:.2f}</li>"
        + (
            f"<li><hr></li><li>5 or more ${amount * 0.9:.2f}</li><li>10 or more ${amount * 0.8:.2f}</li>"
            if int(b.isbn[-3]) % 3 == 0
            else ""
        )
    )
    related = "".join(
        "<div class='product-layout col-lg-3 col-md-3 col-sm-6 col-xs-12'>"
        "<div class='product-thumb transition'>"
        f"<div class='image'><a href='index.php?route=product/product&amp;product_id={pid + i + 1}'>"
        f"<img src='/image/cache/catalog/books/r{i}-200x200.jpg' alt='{e(t)}' title='{e(t)}' "
        "class='img-responsive'></a></div><div class='caption'>"
        f"<h4><a href='index.php?route=product/product&amp;product_id={pid + i + 1}'>{e(t)}</a></h4>"
        f"<p>by {e(a)}. A novel in paperback and hardcover..</p><p class='price'>{e(p)} "
        f"<span class='price-tax'>Ex Tax: ${_dollars(p) / 1.2:.2f}</span></p></div>"
        "<div class='button-group'><button type='button'><i class='fa fa-shopping-cart'></i> "
        "<span class='hidden-xs hidden-sm hidden-md'>Add to Cart</span></button></div></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    tags = ", ".join(
        f"<a href='index.php?route=product/search&amp;tag={e(t)}'>{e(t)}</a>"
        for t in ["fiction", b.binding.lower(), *(["bestseller"] if r.random() < 0.4 else [])]
    )
    return _page(
        "The Reading Room",
        f"<script type='application/ld+json'>{jsonld}</script>"
        "<div id='product-product' class='container'><ul class='breadcrumb'>"
        "<li><a href='index.php?route=common/home'><i class='fa fa-home'></i></a></li>"
        "<li><a href='index.php?route=product/category&amp;path=59'>Books</a></li>"
        "<li><a href='index.php?route=product/category&amp;path=59_61'>Fiction</a></li>"
        f"<li><a href='{href}'>{e(b.title)}</a></li></ul>"
        "<div class='row'><div id='content' class='col-sm-12'><div class='row'><div class='col-sm-8'>"
        "<ul class='thumbnails'><li><a class='thumbnail' "
        f"href='/image/cache/catalog/books/{b.isbn}-500x500.jpg' title='{e(b.title)}'>"
        f"<img src='/image/cache/catalog/books/{b.isbn}-228x228.jpg' "
        f"title='{e(b.title)}' alt='{e(b.title)}'></a></li></ul>"
        "<ul class='nav nav-tabs'><li class='active'><a href='#tab-description' data-toggle='tab'>Description"
        "</a></li><li><a href='#tab-specification' data-toggle='tab'>Specification</a></li>"
        f"<li><a href='#tab-review' data-toggle='tab'>Reviews ({len(names)})</a></li></ul>"
        "<div class='tab-content'><div class='tab-pane active' id='tab-description'>"
        f"<p>A {b.pages}-page novel, first published {e(b.first_published)}.</p></div>"
        "<div class='tab-pane' id='tab-specification'>"
        f"<table class='table table-bordered'>{spec}</table></div>"
        "<div class='tab-pane' id='tab-review'><form class='form-horizontal' id='form-review'>"
        f"<div id='review'>{reviews}<div class='row'><div class='col-sm-6 text-left'></div>"
        f"<div class='col-sm-6 text-right'>Showing 1 to {len(names)} of {len(names)} (1 Pages)</div>"
        "</div></div>"
        "<h2>Write a review</h2><div class='form-group required'><div class='col-sm-12'>"
        "<label class='control-label' for='input-name'>Your Name</label>"
        "<input type='text' name='name' value='' id='input-name' class='form-control'></div></div>"
        "</form></div></div></div>"
        "<div class='col-sm-4'><div class='btn-group'>"
        f"<button type='button' data-toggle='tooltip' class='btn btn-default' title='Add to Wish List' "
        f"onclick=\"wishlist.add('{pid}');\"><i class='fa fa-heart'></i></button>"
        f"<button type='button' data-toggle='tooltip' class='btn btn-default' title='Compare this Product' "
        f"onclick=\"compare.add('{pid}');\"><i class='fa fa-exchange'></i></button></div>"
        f"<h1>{e(b.title)}</h1><ul class='list-unstyled'>"
        f"<li>Brand: <a href='index.php?route=product/manufacturer/info&amp;manufacturer_id="
        f"{PUBLISHERS.index(b.publisher) + 5}'>{e(b.publisher)}</a></li>"
        f"<li>Product Code: {e(b.sku)}</li><li>Reward Points: {round(amount * 10)}</li>"
        f"<li>Availability: {'In Stock' if int(b.isbn[-1]) % 4 else '2-3 Days'}</li></ul>"
        f"<ul class='list-unstyled'>{price}</ul>"
        "<div id='product'><hr><div class='form-group'>"
        "<label class='control-label' for='input-quantity'>Qty</label>"
        "<input type='text' name='quantity' value='1' size='2' id='input-quantity' class='form-control'>"
        f"<input type='hidden' name='product_id' value='{pid}'><br>"
        "<button type='button' id='button-cart' data-loading-text='Loading...' "
        "class='btn btn-primary btn-lg btn-block'>Add to Cart</button></div></div>"
        "<div class='rating'><p>"
        + "<span class='fa fa-stack'><i class='fa fa-star fa-stack-1x'></i></span>"
        * 4
        + f" <a href=''>{len(names)} reviews</a> / <a href=''>Write a review</a></p></div></div></div>"
        "<h3>Related Products</h3>"
        f"<div class='row'>{related}</div><p>Tags: {tags}</p></div></div></div>",
    )


def _pounds(price: str) -> float:
    """A "£12.99" price as a number."""
    return float(price.lstrip("£"))


def waterstones_book(b: Book) -> str:
    """A UK bookseller's product page: an analytics ``dataLayer`` script with the title, ISBN,
    authors and price first, then <meta itemprop> copies; breadcrumbs ending in the title; a
    collapsed mobile basket bar (``display:none``) repeating title and price; the h1, "by" and
    one bold author link per author, then "Translated by"/"Edited by" spans of the same shape;
    the binding in a "format" span beside "Published: <date>"; the price, on sale pages a struck
    "RRP" price, "Earn N Plus Points"; "Also available as" other bindings with other prices;
    "Synopsis" prose giving the first edition's date in the same format; "Product Details" as
    name/value spans (ISBN, Number of pages, Weight, Dimensions, Publisher, Published,
    Language, optional Series/Edition, Product code); "Customer Reviews" with the reviewer,
    a date in the same format and stars; "Customers also bought" cards with title, author and
    price spans."""
    r = random.Random(b.isbn + "waterstones")
    amount = _pounds(b.price)
    on_sale = _on_sale(b)
    layer = json.dumps(
        {
            "event": "productView",
            "ecommerce": {
                "detail": {
                    "products": [
                        {
                            "name": b.title,
                            "id": b.isbn,
                            "price": f"{amount:.2f}",
                            "brand": " & ".join(b.authors),
                            "category": "Books/Fiction",
                            "variant": b.binding,
                        }
                    ]
                }
            },
        }
    ).replace("</", "<\\/")
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role = r.choice(["Translated by", "Edited by", "Illustrated by"])

    def person(n: str) -> str:
        slug = n.lower().replace(" ", "-").replace(".", "")
        return f"<b itemprop='author'><a class='text-gold' href='/author/{e(slug)}/4{len(n)}'>{e(n)}</a></b>"

    authors = ", ".join(person(a) for a in b.authors)
    extra = (
        f" <span class='book-contributors'>{role} "
        + ", ".join(
            f"<b><a class='text-gold' href='/author/x/{i}'>{e(n)}</a></b>" for i, n in enumerate(helpers)
        )
        + "</span>"
        if helpers
        else ""
    )
    formats = "".join(
        f"<li class='format-item'><a href='/book/{e(b.slug)}/x/978{r.randint(1000000000, 9999999999)}'>"
        f"<span class='format-name'>{e(x)}</span> <span class='format-price'>{e(_other_price(b, k))}"
        "</span></a></li>"
        for k, x in enumerate(x for x in BINDINGS if x != b.binding)
    )
    specs = [
        ("ISBN", f"<span itemprop='isbn'>{b.isbn}</span>"),
        ("Number of pages", f"<span itemprop='numberOfPages'>{b.pages}</span>"),
        ("Weight", f"{b.pages + 40} g"),
        ("Dimensions", f"198 x 129 x {b.pages // 15} mm"),
        ("Publisher", f"<span itemprop='publisher'>{e(b.publisher)}</span>"),
        ("Published", f"<span itemprop='datePublished'>{e(b.published)}</span>"),
        ("Language", "English"),
    ]
    if b.series:
        specs.insert(1, ("Series", e(b.series)))
    if b.edition:
        specs.append(("Edition", e(b.edition)))
    specs.append(("Product code", e(b.sku)))
    spec_html = "".join(
        f"<div class='spec'><span class='name'>{k}:</span> <span class='value'>{v}</span></div>"
        for k, v in specs
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        stars = r.randint(3, 5)
        reviews += (
            "<div class='review-item'><div class='review-head'>"
            f"<span class='review-title'>{['A gem', 'Gripping', 'Slow start'][i]}</span>"
            f"<span class='star-rating' title='{stars}/5'>{'&#9733;' * stars}</span></div>"
            f"<p class='review-meta'><span class='review-author'>{e(who)}</span>, "
            "<span class='review-date'>"
            f"{slash_dmy(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}"
            f"</span></p><div class='review-text'><p>Finished it in {i + 2} evenings.</p></div></div>"
        )
    cards = "".join(
        f"<div class='book-thumb'><a class='link-invert' href='/book/r/{i}'><img src='/images/r{i}.jpg' "
        f"alt='{e(t)}'></a><div class='info-wrap'><a class='title link-invert' href='/book/r/{i}'>{e(t)}</a>"
        f"<span class='author'><a href='/author/r/{i}'>{e(a)}</a></span>"
        f"<div class='book-price'><b class='price'>{e(p)}</b></div></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Waterstones",
        f"<script>window.dataLayer = window.dataLayer || []; dataLayer.push({layer});</script>"
        "<div class='row book-detail' itemscope itemtype='http://schema.org/Book'>"
        f"<meta itemprop='isbn' content='{b.isbn}'><meta itemprop='name' content='{e(b.title)}'>"
        "<ul class='breadcrumbs'><li><a href='/'>Home</a></li>"
        "<li><a href='/category/fiction'>Fiction</a></li>"
        "<li><a href='/category/fiction/modern-contemporary'>Modern &amp; Contemporary Fiction</a></li>"
        f"<li class='active'>{e(b.title)}</li></ul>"
        "<div class='mobile-basket-bar' style='display:none'>"
        f"<span class='mb-title'>{e(b.title)}</span><span class='mb-price'>{e(b.price)}</span></div>"
        "<div class='span5 book-image-wrapper'><div class='book-image-main'>"
        f"<img itemprop='image' id='scope_book_image' src='/images/{b.isbn}.jpg' alt='{e(b.title)}'>"
        "</div></div>"
        "<div class='span7 book-info'>"
        f"<h1 class='book-title' itemprop='name' id='scope_book_title'>{e(b.title)}</h1>"
        f"<span class='book-authors'>by {authors}</span>{extra}"
        f"<div class='book-format'><span class='format' id='scope_book_format'>{e(b.binding)}</span>"
        f" <span class='sep'>|</span> <span class='published'>Published: {e(b.published)}</span></div>"
        "<div class='book-actions'><div class='price'>"
        + (f"<span class='rrp'>RRP <s>{e(b.list_price)}</s></span> " if on_sale else "")
        + f"<b itemprop='price' class='price' id='scope_offer_price'>{e(b.price)}</b></div>"
        "<p class='stock-status'>In stock online</p>"
        "<p class='delivery'>Free UK delivery on orders over £25</p>"
        "<form action='/basket/add' method='post'>"
        f"<input type='hidden' name='isbn' value='{b.isbn}'>"
        "<button class='btn btn-gold btn-large' type='submit'>Add to basket</button></form>"
        f"<p class='plus-points'>Earn {round(amount * 3)} Plus Points</p>"
        "<p class='click-collect'>Click &amp; Collect from your local Waterstones</p></div>"
        f"<div class='also-available'><h3>Also available as</h3><ul>{formats}</ul></div></div>"
        "<div class='span12 book-synopsis'><h2 class='h-heading'>Synopsis</h2>"
        f"<div itemprop='description'><p>First published {e(b.first_published)}, now reissued. "
        f"From the author of <i>{e(b.related[0][0])}</i>.</p></div></div>"
        f"<div class='span12 product-details'><h2 class='h-heading'>Product Details</h2>{spec_html}</div>"
        f"<div class='span12 reviews'><h2 class='h-heading'>Customer Reviews</h2>{reviews}</div>"
        "<div class='span12 also-bought'><h2 class='h-heading'>Customers also bought</h2>"
        f"<div class='book-list'>{cards}</div></div></div>",
    )


def _kronor(price: str) -> int:
    """A "149 kr" price as a number."""
    return int(price.split()[0])


def adlibris_product(b: Book) -> str:
    """A Swedish online bookshop's product page: ``og:`` metas and a product JSON in a script
    first; breadcrumbs "Start / Böcker / Skönlitteratur" ending in the title; the h1 with the
    "undertitel" series line; "av" and author links, then "Översättare:" links of the same
    shape; a summary line "<binding>, Engelska, <year>" (the year also in the date); a struck
    "Ord. pris" on sale pages, the price in whole kronor, a "Medlemspris" below it and a free
    shipping threshold; a variant list of every binding with prices; "Produktinformation" as
    label/value list items (Författare with several links, optional Översättare/Illustratör
    items of the same shape, Format, Språk, Antal sidor, Utgiven, "Ursprungligen utgiven" in the
    same ISO format, Förlag, Serie, ISBN, Artikelnummer); "Recensioner" with names and ISO
    dates; "Andra har också köpt" tiles with their own titles, authors and prices."""
    r = random.Random(b.isbn + "adlibris")
    on_sale = _on_sale(b)
    kr = _kronor(b.price)
    state = json.dumps(
        {"product": {"title": b.title, "isbn": b.isbn, "price": kr, "currency": "SEK", "format": b.binding,
                     "authors": b.authors, "publisher": b.publisher}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    translators = _others(r, b, r.randint(1, 2)) if r.random() < 0.35 else []
    illustrators = _others(r, b, 1) if r.random() < 0.2 else []

    def links(names: list[str]) -> str:
        return ", ".join(
            f"<a class='product__author' href='/se/sok?filter=author%3A{e(n.replace(' ', '+'))}'>{e(n)}</a>"
            for n in names
        )

    byline = f"<div class='product__authors'>av {links(b.authors)}</div>" + (
        f"<div class='product__authors product__authors--translators'>Översättare: {links(translators)}</div>"
        if translators
        else ""
    )
    variants = "".join(
        f"<li class='variant{' variant--selected' if x == b.binding else ''}'><a href='/se/bok/"
        f"{e(b.slug)}-{978000 + k}'><span class='variant__format'>{e(x)}</span>"
        f"<span class='variant__price'>{e(b.price if x == b.binding else _other_price(b, k))}</span></a></li>"
        for k, x in enumerate(BINDINGS)
    )
    info = [("Författare", links(b.authors))]
    if translators:
        info.append(("Översättare", links(translators)))
    if illustrators:
        info.append(("Illustratör", links(illustrators)))
    info += [
        ("Format", e(b.binding)),
        ("Språk", "Engelska"),
        ("Antal sidor", str(b.pages)),
        ("Utgiven", e(b.published)),
        ("Ursprungligen utgiven", e(b.first_published)),
        ("Förlag", f"<a href='/se/sok?filter=publisher%3A{e(b.publisher.replace(' ', '+'))}'>"
                   f"{e(b.publisher)}</a>"),
    ]
    if b.series:
        info.append(("Serie", e(b.series)))
    if b.edition:
        info.append(("Upplaga", e(b.edition)))
    info += [("ISBN", b.isbn), ("Artikelnummer", e(b.sku))]
    info_html = "".join(
        f"<li class='product-info__item'><span class='product-info__label'>{k}</span>"
        f"<span class='product-info__value'>{v}</span></li>"
        for k, v in info
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<article class='review'><header class='review__header'>"
            f"<span class='review__author'>{e(who)}</span> "
            "<time class='review__date'>"
            f"{iso_date(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}"
            f"</time><span class='review__grade'>{r.randint(3, 5)}/5</span></header>"
            f"<p>{['Fantastisk bok!', 'Bra men lite lång.', 'Rekommenderas.'][i]}</p></article>"
        )
    tiles = "".join(
        f"<li class='product-tile'><a class='product-tile__title' href='/se/bok/r{i}'>{e(t)}</a>"
        f"<div class='product-tile__author'>{e(a)}</div><div class='product-tile__format'>"
        f"{e(r.choice(BINDINGS))}</div><div class='product-tile__price'>{e(p)}</div></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Adlibris",
        f"<meta property='og:title' content='{e(b.title)}'>"
        f"<meta property='og:url' content='https://www.adlibris.example/se/bok/{e(b.slug)}-{b.isbn}'>"
        f"<script id='product-state' type='application/json'>{state}</script>"
        "<nav class='breadcrumbs'><ol><li><a href='/se'>Start"
        "</a></li><li><a href='/se/bocker'>Böcker</a></li>"
        "<li><a href='/se/bocker/skonlitteratur'>Skönlitteratur</a></li>"
        f"<li aria-current='page'>{e(b.title)}</li></ol></nav>"
        "<div class='product-page' data-testid='product-page'><div class='product__image'>"
        f"<img src='/images/{b.isbn}/{e(b.slug)}.jpg' alt='{e(b.title)}'></div>"
        "<div class='product__main'>"
        f"<h1 class='product__title'>{e(b.title)}</h1>"
        + (f"<div class='product__subtitle'>{e(b.series)}</div>" if b.series else "")
        + byline
        + f"<div class='product__summary'>{e(b.binding)}, Engelska, {b.published[:4]}</div>"
        "<div class='purchase'><div class='purchase__price'>"
        + (f"<span class='price price--original'>Ord. pris <s>{e(b.list_price)}</s></span>"
           if on_sale else "")
        + f"<span class='price price--current'>{e(b.price)}</span></div>"
        f"<div class='purchase__member'>Medlemspris {round(kr * 0.9)} kr</div>"
        "<p class='purchase__delivery'>Skickas inom 1-2 vardagar. Fri frakt över 229 kr.</p>"
        "<form class='purchase__form' action='/se/varukorg' method='post'>"
        f"<input type='hidden' name='productId' value='{b.isbn}'>"
        "<button type='submit' class='btn btn--primary'>Köp</button></form></div>"
        f"<div class='product__variants'><h2>Finns även som</h2><ul>{variants}</ul></div></div>"
        "<section class='product-description'><h2>Beskrivning</h2>"
        f"<p>En roman på {b.pages} sidor, första gången utgiven {e(b.first_published)}.</p></section>"
        "<section class='product-info'><h2>Produktinformation</h2>"
        f"<ul class='product-info__list'>{info_html}</ul></section>"
        f"<section class='reviews'><h2>Recensioner</h2>{reviews}</section>"
        "<section class='recommendations'><h2>Andra har också köpt</h2>"
        f"<ul class='product-tiles'>{tiles}</ul></section></div>",
    )


def bigcommerce_product(b: Book) -> str:
    """A shop on BigCommerce's "Cornerstone" theme: JSON-LD first; the breadcrumbs; the
    ``productView`` with the title h1, the brand h2 (the publisher, as a link), the price
    block whose hidden "MSRP" and sale rows come before "Was:" (on sale pages) and the
    ``price--withoutTax`` price; ``productView-info`` dt/dd pairs: SKU, UPC (the ISBN), Weight,
    then custom fields where every author is its own "Author:" pair, followed by
    "Illustrator:"/"Narrator:" pairs of the same shape, "Format:", "Publication Date:", "Original
    Publication:" in the same format, "Pages:", optional "Series:"; the add-to-cart form with a
    hidden product_id and a "Format" radio of every binding; the description with the first
    edition; reviews "Posted by <name> on <date>"; "Related Products" cards each with a brand
    (a publisher), title and price."""
    r = random.Random(b.isbn + "bigcommerce")
    pid = 110 + int(b.isbn[-3:])
    amount = _dollars(b.price)
    on_sale = _on_sale(b)
    jsonld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "Product",
            "name": b.title,
            "sku": b.sku,
            "gtin13": b.isbn,
            "brand": {"@type": "Brand", "name": b.publisher},
            "offers": [{"@type": "Offer", "price": amount, "priceCurrency": "USD", "url": f"/{b.slug}/"}],
        }
    ).replace("</", "<\\/")
    extra = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role = r.choice(["Illustrator", "Narrator", "Editor"])
    info = [
        ("SKU", b.sku, " sku-label", " data-product-sku"),
        ("UPC", b.isbn, " upc-label", " data-product-upc"),
        ("Weight", f"{b.pages / 900:.2f} LBS", "", " data-product-weight"),
    ]
    info += [("Author", e(a), "", "") for a in b.authors]
    info += [(role, e(n), "", "") for n in extra]
    info += [
        ("Format", e(b.binding), "", ""),
        ("Publication Date", e(b.published), "", ""),
        ("Original Publication", e(b.first_published), "", ""),
        ("Pages", str(b.pages), "", ""),
    ]
    if b.series:
        info.append(("Series", e(b.series), "", ""))
    if b.edition:
        info.append(("Edition", e(b.edition), "", ""))
    info_html = "".join(
        f"<dt class='productView-info-name{c}'>{k}:</dt><dd class='productView-info-value'{a}>{v}</dd>"
        for k, v, c, a in info
    )
    radios = "".join(
        f"<input class='form-radio' type='radio' id='attribute_rectangle__{i}' name='attribute[{pid}]' "
        f"value='{i}'{' checked' if x == b.binding else ''}>"
        f"<label class='form-option' for='attribute_rectangle__{i}' data-product-attribute-value='{i}'>"
        f"<span class='form-option-variant'>{e(x)}</span></label>"
        for i, x in enumerate(BINDINGS)
    )
    hide = " style='display: none;'"
    prices = (
        "<div class='price-section price-section--withoutTax rrp-price--withoutTax' style='display: none;'>"
        "MSRP: <span data-product-rrp-price-without-tax class='price price--rrp'></span></div>"
        "<div class='price-section price-section--withoutTax non-sale-price--withoutTax'"
        + ("" if on_sale else " style='display: none;'")
        + f">Was: <span data-product-non-sale-price-without-tax class='price price--non-sale'>"
        f"{e(b.list_price) if on_sale else ''}</span></div>"
        "<div class='price-section price-section--withoutTax'><span class='price-label'></span>"
        f"<span class='price-now-label'{'' if on_sale else hide}>Now:</span>"
        f"<span data-product-price-without-tax class='price price--withoutTax'>{e(b.price)}</span></div>"
        "<div class='price-section price-section--saving price'"
        + ("" if on_sale else " style='display: none;'")
        + "><span class='price'>(You save</span> <span data-product-price-saved class='price price--saving'>"
        + (f"${_dollars(b.list_price) - amount:.2f}" if on_sale else "")
        + "</span> <span class='price'>)</span></div>"
    )
    reviewers = _others(r, b, r.randint(1, 3))
    reviews = ""
    for i, who in enumerate(reviewers):
        stars = r.randint(3, 5)
        reviews += (
            "<li class='productReview'><article class='productReview-body'>"
            f"<span class='productReview-rating rating--small'>{stars} stars</span>"
            f"<h5 class='productReview-title'>{['Wonderful', 'Solid read', 'Meh'][i]}</h5>"
            f"<p class='productReview-author'>Posted by {e(who)} on "
            f"{short_us_date(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}</p>"
            f"<p class='productReview-body'>Arrived in {i + 2} days, well packed.</p></article></li>"
        )
    cards = "".join(
        "<div class='productCarousel-slide'><article class='card' data-test='card-"
        f"{pid + i + 1}'><figure class='card-figure'><a href='/r{i}/' class='card-figure__link' "
        f"aria-label='{e(t)}, {e(p)}'><img src='/stencil/r{i}.jpg' alt='{e(t)}' class='card-image'></a>"
        "</figure><div class='card-body'>"
        f"<p class='card-text' data-test-info-type='brandName'>{e(r.choice(PUBLISHERS))}</p>"
        f"<h3 class='card-title'><a href='/r{i}/'>{e(t)}</a></h3>"
        f"<p class='card-text card-text--author'>{e(a)}</p>"
        "<div class='card-text' data-test-info-type='price'>"
        "<div class='price-section price-section--withoutTax'>"
        f"<span data-product-price-without-tax class='price price--withoutTax'>{e(p)}</span></div></div>"
        "</div></article></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Paper Lantern Books",
        f"<script type='application/ld+json'>{jsonld}</script>"
        "<nav aria-label='Breadcrumb'><ol class='breadcrumbs'>"
        "<li class='breadcrumb'><a href='/' class='breadcrumb-label'><span>Home</span></a></li>"
        "<li class='breadcrumb'><a href='/fiction/' class='breadcrumb-label'><span>Fiction</span></a></li>"
        "<li class='breadcrumb is-active'>"
        f"<a href='/{e(b.slug)}/' class='breadcrumb-label' aria-current='page'>"
        f"<span>{e(b.title)}</span></a></li></ol></nav>"
        "<div class='productView'><section class='productView-images' data-image-gallery>"
        f"<figure class='productView-image'><img src='/stencil/{b.isbn}.jpg' alt='{e(b.title)}' "
        f"title='{e(b.title)}'></figure></section>"
        "<section class='productView-details product-data'><div class='productView-product'>"
        f"<h1 class='productView-title'>{e(b.title)}</h1>"
        f"<h2 class='productView-brand'><a href='/brands/{e(b.publisher.lower().replace(' ', '-'))}/'>"
        f"<span>{e(b.publisher)}</span></a></h2>"
        f"<div class='productView-price'>{prices}</div>"
        "<div class='productView-rating'><span class='icon icon--ratingFull'></span>"
        f"<a href='#product-reviews' class='productView-reviewLink'>{len(reviewers)} "
        "reviews</a></div>"
        f"<dl class='productView-info'>{info_html}</dl></div></section>"
        "<section class='productView-details product-options'><div class='productView-options'>"
        "<form class='form' method='post' action='/cart.php' enctype='multipart/form-data' "
        "data-cart-item-add><input type='hidden' name='action' value='add'>"
        f"<input type='hidden' name='product_id' value='{pid}'>"
        "<div data-product-option-change><div class='form-field' data-product-attribute='set-rectangle'>"
        f"<label class='form-label form-label--alternate form-label--inlineSmall'>Format:</label>{radios}"
        "</div></div><div class='form-field form-field--increments'><label class='form-label'>Quantity:"
        "</label><input class='form-input form-input--incrementTotal' name='qty[]' type='tel' value='1'>"
        "</div><input id='form-action-addToCart' class='button button--primary' type='submit' "
        "value='Add to Cart'></form></div></section>"
        "<article class='productView-description'><ul class='tabs'><li class='tab is-active'>"
        "<a class='tab-title' href='#tab-description'>Description</a></li></ul>"
        "<div class='tab-content is-active' id='tab-description'>"
        f"<p>A {b.pages}-page novel, originally published {e(b.first_published)}.</p></div></article>"
        "<section class='toggle productView-reviews' id='product-reviews'>"
        "<h4 class='toggle-title'>Reviews</h4>"
        f"<ul class='productReviews-list'>{reviews}</ul></section></div>"
        "<div class='tabs-contents'><ul class='tabs'><li class='tab is-active'><a class='tab-title' "
        "href='#tab-related'>Related Products</a></li></ul>"
        "<div class='tab-content is-active' id='tab-related'>"
        f"<section class='productCarousel'>{cards}</section></div></div>",
    )


MESI = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
        "ottobre", "novembre", "dicembre"]  # fmt: skip


def it_date(y: int, m: int, d: int) -> str:
    return f"{d} {MESI[m - 1]} {y}"


def _euro_it(price: str) -> float:
    """A "€ 12,35" price as a number."""
    return float(price[2:].replace(",", "."))


def ibs_product(b: Book) -> str:
    """An Italian online bookshop's product page: a tag-manager script and ``og:`` metas with the
    title and EAN first; breadcrumbs "Libri / Libri in inglese" ending in the title; the h1;
    "di" and author links, then "Traduttore:"/"Curatore:" links of the same shape; "Editore",
    "Anno edizione" (the year of the date), "Formato" in a header line; on sale pages "Prezzo di
    listino" struck before the "€ 12,35" price with "-5%"; "Guadagna N punti"; "Tutti i formati"
    with every binding's price; "Dettagli" as label/value rows (Autore with several links,
    optional Traduttore/Curatore rows of the same shape, Editore, Collana, Anno edizione, "In
    commercio dal" as the date, "Prima edizione" in the same Italian format, Tipo, Lingua,
    Pagine, EAN, Codice articolo); "Recensioni" signed with a name and an Italian date;
    "Potrebbe piacerti anche" with titles, authors and prices."""
    r = random.Random(b.isbn + "ibs")
    on_sale = _on_sale(b)
    amount = _euro_it(b.price)
    tag = json.dumps(
        {"pageType": "product", "ean": b.isbn, "productName": b.title, "price": round(amount, 2),
         "editore": b.publisher}, ensure_ascii=False
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role = r.choice(["Traduttore", "Curatore"])

    def links(names: list[str]) -> str:
        return ", ".join(
            f"<a class='cc-author-link' href='/libri/autori/{e(n.replace(' ', '-').replace('.', ''))}'>"
            f"{e(n)}</a>"
            for n in names
        )

    year = b.published[-4:]
    formats = "".join(
        f"<li class='cc-format{' cc-format--active' if x == b.binding else ''}'><span class='cc-format-name'>"
        f"{e(x)}</span> <span class='cc-format-price'>{e(b.price if x == b.binding else _other_price(b, k))}"
        "</span></li>"
        for k, x in enumerate(BINDINGS)
    )
    details = [("Autore", links(b.authors))]
    if helpers:
        details.append((role, links(helpers)))
    editore = f"<a href='/libri/editori/{e(b.publisher.replace(' ', '-'))}'>{e(b.publisher)}</a>"
    details.append(("Editore", editore))
    if b.series:
        details.append(("Collana", e(b.series)))
    details += [
        ("Anno edizione", year),
        ("In commercio dal", e(b.published)),
        ("Prima edizione", e(b.first_published)),
        ("Tipo", e(b.binding)),
        ("Lingua", "Inglese"),
        ("Pagine", f"{b.pages} p."),
    ]
    if b.edition:
        details.append(("Edizione", e(b.edition)))
    details += [("EAN", b.isbn), ("Codice articolo", e(b.sku))]
    rows = "".join(
        f"<li class='cc-content-detail'><span class='cc-detail-label'>{k}</span>"
        f"<span class='cc-detail-value'>{v}</span></li>"
        for k, v in details
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<div class='cc-review'><div class='cc-review-stars'>"
            f"{r.randint(3, 5)}/5</div><p class='cc-review-title'>"
            f"{['Bellissimo', 'Consigliato', 'Così così'][i]}</p><p class='cc-review-text'>Letto in {i + 2} "
            f"giorni.</p><p class='cc-review-author'>Recensione di <strong>{e(who)}</strong> - "
            f"{it_date(r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28))}</p></div>"
        )
    cards = "".join(
        f"<div class='cc-product-list-item'><a class='cc-title' href='/r{i}'>{e(t)}</a>"
        f"<div class='cc-author'>{e(a)}</div><div class='cc-price-box'><span class='cc-price'>{e(p)}</span>"
        "</div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    pct = round(100 * (1 - amount / _euro_it(b.list_price)))
    return _page(
        "IBS",
        f"<script>var utag_data = {tag};</script>"
        f"<meta property='og:title' content='{e(b.title)}'>"
        f"<meta property='og:url' content='https://www.ibs.example/{e(b.slug)}-libro-inglese/e/{b.isbn}'>"
        "<div class='cc-breadcrumbs'><a href='/'>Home</a> / <a href='/libri'>Libri</a> / "
        f"<a href='/libri/inglese'>Libri in inglese</a> / <span>{e(b.title)}</span></div>"
        "<div class='cc-product-main'><div class='cc-product-img'>"
        f"<img src='/images/{b.isbn}_0_536_0_75.jpg' alt='{e(b.title)}'></div>"
        "<div class='cc-product-info'>"
        f"<h1 class='cc-title'>{e(b.title)}</h1>"
        f"<div class='cc-authors'><span class='cc-by'>di</span> {links(b.authors)}</div>"
        + (
            f"<div class='cc-authors cc-authors--others'><span class='cc-by'>{role}:"
            f"</span> {links(helpers)}</div>"
            if helpers
            else ""
        )
        + f"<div class='cc-product-header-info'><span>Editore: {e(b.publisher)}</span> "
        f"<span>Anno edizione: {year}</span> <span>Formato: {e(b.binding)}</span></div>"
        "<div class='cc-product-content-price'>"
        + (
            f"<span class='cc-listprice'>Prezzo di listino <s>{e(b.list_price)}</s></span> "
            f"<span class='cc-discount'>-{pct}%</span> "
            if on_sale
            else ""
        )
        + f"<span class='cc-price'>{e(b.price)}</span></div>"
        f"<p class='cc-points'>Guadagna {round(amount)} punti</p>"
        "<p class='cc-availability'>Disponibilità immediata. Venduto e spedito da IBS</p>"
        "<form action='/carrello' method='post'>"
        f"<input type='hidden' name='ean' value='{b.isbn}'>"
        "<button class='cc-button cc-add-to-cart'>Aggiungi al carrello</button></form>"
        f"<div class='cc-formats'><h3>Tutti i formati</h3><ul>{formats}</ul></div></div></div>"
        "<section class='cc-product-description'><h2>Descrizione</h2>"
        f"<p>Un romanzo di {b.pages} pagine, uscito per la prima volta il {e(b.first_published)}."
        "</p></section>"
        f"<section class='cc-product-details'><h2>Dettagli</h2><ul>{rows}</ul></section>"
        f"<section class='cc-reviews'><h2>Recensioni</h2>{reviews}</section>"
        "<section class='cc-carousel'><h2>Potrebbe piacerti anche</h2>"
        f"<div class='cc-product-list'>{cards}</div></section>",
    )


def _review_day(r: random.Random) -> tuple[int, int, int]:
    """A review's (year, month, day): after most publication dates, in the page's own format."""
    return r.randint(2019, 2023), r.randint(1, 12), r.randint(1, 28)


def _cad(price: str) -> float:
    """A "C$12.99" price as a number."""
    return float(price[2:])


def kobo_ebook(b: Book) -> str:
    """An e-book store's item page (Rakuten Kobo's shape): JSON-LD with title, ISBN, authors and
    price first, then a hidden "productId" input; breadcrumbs "Home > eBooks > Fiction &
    Literature"; the title h1, an optional series line, "By" and ``contributor-name`` author
    links, then on some pages "Narrated by"/"Translated by" lines of the same shape; the price
    with, on sale pages, the struck original price and "Save C$N"; "Also available as
    audiobook" with another price; a synopsis with the original edition's date in the same
    format; "eBook Details" whose first item is the bare publisher name (no label), then
    "Release Date:", "Imprint:" (another house on some pages), "Print edition:", "ISBN:",
    "Language:", "Kobo ID:"; "Ratings and Reviews" with names and short dates; "You May Also
    Like" items whose authors are ``contributor-name`` links too."""
    r = random.Random(b.isbn + "kobo")
    on_sale = _on_sale(b)
    amount = _cad(b.price)
    jsonld = json.dumps(
        {"@context": "http://schema.org", "@type": "Book", "name": b.title, "isbn": b.isbn,
         "author": [{"@type": "Person", "name": a} for a in b.authors], "publisher": b.publisher,
         "workExample": {"@type": "Book", "bookFormat": "EBook", "datePublished": b.published,
                         "potentialAction": {"@type": "ReadAction", "expectsAcceptanceOf": {
                             "@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "CAD"}}}}
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role = r.choice(["Narrated by", "Translated by"])

    def contributors(names: list[str]) -> str:
        return ", ".join(
            f"<a class='contributor-name' href='/ca/en/search?query={e(n.replace(' ', '+'))}"
            f"&amp;fcsearchfield=Author'>{e(n)}</a>"
            for n in names
        )

    imprint = b.publisher if r.random() < 0.5 else r.choice([p for p in PUBLISHERS if p != b.publisher])
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        stars = r.randint(3, 5)
        reviews += (
            "<li class='review-item'><div class='review-header'>"
            f"<span class='stars' aria-label='{stars} out of 5 stars'>{'&#9733;' * stars}</span>"
            f"<h4 class='review-title'>{['Loved it', 'Could not put it down', 'Fine'][i]}</h4></div>"
            f"<p class='review-attribution'>by <span class='reviewer-name'>{e(who)}</span> on "
            f"<span class='review-date'>{short_us_date(*_review_day(r))}</span></p>"
            f"<p class='review-text'>Read it in {i + 2} days.</p></li>"
        )
    items = "".join(
        f"<li class='item-detail'><div class='item-image'><img src='/images/r{i}.jpg' alt=''></div>"
        f"<p class='title product-field'><a href='/ca/en/ebook/r{i}'>{e(t)}</a></p>"
        "<p class='attribution product-field'>"
        f"<span class='visible-contributors'>{contributors([a])}</span></p>"
        f"<p class='product-field price'><span class='price-value'>{e(p)}</span></p></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    pages_est = b.pages
    return _page(
        "Rakuten Kobo",
        f"<script type='application/ld+json'>{jsonld}</script>"
        f"<input type='hidden' id='productId' value='{b.isbn}'>"
        "<ul class='breadcrumbs' aria-label='breadcrumb'><li><a href='/ca/en'>Home</a></li>"
        "<li><a href='/ca/en/ebooks'>eBooks</a></li>"
        "<li><a href='/ca/en/ebooks/fiction-literature'>Fiction &amp; Literature</a></li></ul>"
        "<div class='primary-left-container'><div class='item-image'>"
        f"<img class='cover-image' src='/book-images/{b.isbn}/353/569/90/False/{e(b.slug)}.jpg' alt=''></div>"
        "<div class='item-info'>"
        + (f"<span class='series product-field'><a class='product-sequence-field'>{e(b.series)}</a></span>"
           if b.series else "")
        + f"<h1 class='title product-field'>{e(b.title)}</h1>"
        "<h2 class='author product-field contributor-list'>By "
        f"<span class='visible-contributors'>{contributors(b.authors)}</span></h2>"
        + (
            f"<h2 class='author product-field contributor-list'>{role} "
            f"<span class='visible-contributors'>{contributors(helpers)}</span></h2>"
            if helpers
            else ""
        )
        + "<div class='rating-review-summary'>"
        f"<span class='rating-average'>{r.randint(35, 50) / 10}</span> "
        f"<span class='total-ratings'>({r.randint(3, 400)} Ratings)</span></div>"
        "<div class='stats'>"
        f"<div class='column'><strong>{pages_est}</strong> <span class='stat-desc'>Pages</span></div>"
        f"<div class='column'><strong>{pages_est // 40}-{pages_est // 30}</strong> "
        "<span class='stat-desc'>Hours to read</span></div></div></div></div>"
        "<div class='primary-right-container'><div class='pricing-details'>"
        + (
            f"<div class='original-price'><span class='sr-label'>Original price:</span> "
            f"<s>{e(b.list_price)}</s></div>"
            if on_sale
            else ""
        )
        + f"<div class='active-price'><span class='price'>{e(b.price)}</span></div>"
        + (
            f"<div class='saving'>Save C${_cad(b.list_price) - amount:.2f}</div>"
            if on_sale
            else ""
        )
        + "<p class='tax-note'>Taxes calculated at checkout</p></div>"
        "<div class='add-to-cart'><button class='buy-now'>Buy now</button>"
        "<button class='add-to-cart-button'>Add to cart</button></div>"
        "<div class='other-formats'><h3>Also available as audiobook</h3>"
        f"<a href='/ca/en/audiobook/{e(b.slug)}'>Audiobook <span class='price'>{e(_other_price(b, 0))}</span>"
        "</a></div></div>"
        "<div class='synopsis'><h2>Synopsis</h2><div class='synopsis-description'>"
        f"<p>Originally published on {e(b.first_published)}, this edition is now available as an eBook. "
        f"From the author of <i>{e(b.related[0][0])}</i>.</p></div></div>"
        "<div class='bookitem-secondary-metadata'><h2>eBook Details</h2><ul>"
        f"<li>{e(b.publisher)}</li>"
        f"<li>Release Date: <span>{e(b.published)}</span></li>"
        f"<li>Imprint: <span>{e(imprint)}</span></li>"
        f"<li>Print edition: <span>{e(b.binding)}</span></li>"
        f"<li>ISBN: <span>{b.isbn}</span></li>"
        "<li>Language: <span>English</span></li>"
        "<li>Download options: <span>EPUB 3 (Adobe DRM)</span></li>"
        f"<li>Kobo ID: <span>{e(b.sku)}</span></li></ul></div>"
        f"<div class='reviews-container'><h2>Ratings and Reviews</h2><ul class='reviews'>{reviews}</ul></div>"
        "<div class='recommendations'><h2>You May Also Like</h2>"
        f"<ul class='item-list'>{items}</ul></div>",
    )


def casadellibro_product(b: Book) -> str:
    """A Spanish bookshop's product page (Casa del Libro's shape): a ``dataLayer`` and JSON-LD
    Product with the title and ISBN first; breadcrumbs "Inicio > Libros > Literatura >
    Narrativa"; the h1, the author links, on some pages a "Traductor:" line of the same links;
    the price "12,99 €" with, on sale pages, the struck "PVP" and "-5%", then "Acumulas N € para
    tu próxima compra" (a smaller euro amount); "Otros formatos" with every binding's price; the
    summary "Resumen" with the first edition's date in the same d/m/Y format; "Ficha técnica"
    as label/value items (Nº de páginas, Editorial, Idioma, Encuadernación, Autor with several
    links, optional Traductor/Ilustrador items of the same shape, ISBN, Año edición, Plaza de
    edición, Fecha de lanzamiento, Primera edición, Colección, Referencia); "Opiniones" with
    names and d/m/Y dates; "También te puede interesar" with titles, authors and prices."""
    r = random.Random(b.isbn + "casadellibro")
    on_sale = _on_sale(b)
    amount = _euros(b.price)
    layer = json.dumps(
        {"event": "view_item", "ecommerce": {"items": [{"item_id": b.isbn, "item_name": b.title,
         "item_brand": b.publisher, "price": round(amount, 2), "item_category": "Libros"}]}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    jsonld = json.dumps(
        {"@context": "https://schema.org", "@type": "Product", "name": b.title, "gtin13": b.isbn,
         "brand": {"@type": "Brand", "name": b.publisher},
         "offers": {"@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "EUR"}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    translators = _others(r, b, r.randint(1, 2)) if r.random() < 0.35 else []
    illustrators = _others(r, b, 1) if r.random() < 0.2 else []

    def links(names: list[str]) -> str:
        return ", ".join(
            f"<a class='text-primary' href='/libros-ebooks/{e(n.lower().replace(' ', '-').replace('.', ''))}/"
            f"{1000 + len(n)}'>{e(n)}</a>"
            for n in names
        )

    pct = round(100 * (1 - amount / _euros(b.list_price)))
    formats = "".join(
        f"<div class='format-option{' selected' if x == b.binding else ''}'><span class='format-name'>{e(x)}"
        "</span><span class='format-price'>"
        f"{e(b.price if x == b.binding else _other_price(b, k))}</span></div>"
        for k, x in enumerate(BINDINGS)
    )
    ficha = [
        ("Nº de páginas", str(b.pages)),
        ("Editorial", e(b.publisher)),
        ("Idioma", "INGLÉS"),
        ("Encuadernación", e(b.binding)),
        ("Autor", links(b.authors)),
    ]
    if translators:
        ficha.append(("Traductor", links(translators)))
    if illustrators:
        ficha.append(("Ilustrador", links(illustrators)))
    ficha += [
        ("ISBN", b.isbn),
        ("Año edición", b.published[-4:]),
        ("Plaza de edición", "ES"),
        ("Fecha de lanzamiento", e(b.published)),
        ("Primera edición", e(b.first_published)),
    ]
    if b.series:
        ficha.append(("Colección", e(b.series)))
    if b.edition:
        ficha.append(("Edición", e(b.edition)))
    ficha.append(("Referencia", e(b.sku)))
    ficha_html = "".join(
        f"<li class='product-info-item'><span class='label'>{k}:</span> <span class='value'>{v}</span></li>"
        for k, v in ficha
    )
    opinions = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        opinions += (
            "<div class='opinion'><div class='opinion-header'>"
            f"<span class='opinion-user'>{e(who)}</span> "
            f"<span class='opinion-date'>{slash_dmy(*_review_day(r))}</span>"
            f" <span class='opinion-rating'>{r.randint(3, 5)}/5</span></div>"
            f"<p class='opinion-text'>{['Muy recomendable.', 'Me ha encantado.', 'Correcto.'][i]}</p></div>"
        )
    cards = "".join(
        f"<div class='product-card'><a class='product-card-title' href='/libro-r{i}/{i}'>{e(t)}</a>"
        "<div class='product-card-author'>"
        f"<a class='text-primary' href='/libros-ebooks/r{i}'>{e(a)}</a></div>"
        f"<div class='product-card-price'><span class='final-price'>{e(p)}</span></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Casa del Libro",
        f"<script>window.dataLayer = window.dataLayer || []; dataLayer.push({layer});</script>"
        f"<script type='application/ld+json'>{jsonld}</script>"
        "<nav class='breadcrumb'><a href='/'>Inicio</a> &gt; <a href='/libros'>Libros</a> &gt; "
        "<a href='/libros/literatura/121000000'>Literatura</a> &gt; "
        "<a href='/libros/literatura/narrativa/121001000'>Narrativa</a></nav>"
        "<div class='product-detail'><div class='product-image'>"
        f"<img src='/imagenes/{b.isbn[:5]}/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='product-info'>"
        f"<h1 class='title'>{e(b.title)}</h1>"
        f"<div class='author'>{links(b.authors)}</div>"
        + (f"<div class='author translator'>Traductor: {links(translators)}</div>" if translators else "")
        + "<div class='price-box'>"
        + (
            f"<span class='old-price'>PVP <s>{e(b.list_price)}</s></span> "
            f"<span class='discount'>-{pct}%</span> "
            if on_sale
            else ""
        )
        + f"<span class='final-price'>{e(b.price)}</span></div>"
        f"<p class='club-points'>Acumulas {_euro_text(amount * 0.05)} para tu próxima compra</p>"
        "<p class='shipping'>Envío gratis · Recogida gratis en librería</p>"
        "<form action='/cesta' method='post'>"
        f"<input type='hidden' name='ean' value='{b.isbn}'>"
        "<button class='btn-add-to-cart'>Comprar</button></form>"
        f"<div class='other-formats'><h3>Otros formatos</h3>{formats}</div></div></div>"
        "<section class='summary'><h2>Resumen</h2>"
        f"<p>Publicada por primera vez el {e(b.first_published)}, llega ahora en una nueva edición de "
        f"{b.pages} páginas.</p></section>"
        f"<section class='ficha-tecnica'><h2>Ficha técnica</h2><ul>{ficha_html}</ul></section>"
        f"<section class='opinions'><h2>Opiniones</h2>{opinions}</section>"
        "<section class='related'><h2>También te puede interesar</h2>"
        f"<div class='product-carousel'>{cards}</div></section>",
    )


def wix_product(b: Book) -> str:
    """A small bookshop built with a site builder's store (Wix Stores' product page): JSON-LD
    and ``og``/``product:`` metas first; ``data-hook`` attributes and hashed class names;
    breadcrumbs "Home / All Products / <title>"; the title h1; "SKU:"; the price block with
    ``sr-only`` "Regular Price"/"Sale Price" labels, the struck compare-at price before the price
    on sale pages; a "Format" dropdown listing every binding; the shop owner's description as
    plain paragraphs ("Author: A, B & C" with all names in one text, "Translated by: ..." on some
    pages, "Publisher:", "Published:", "First published:" in the same format, "Format: <binding>,
    N pages", "ISBN:"); collapsible "PRODUCT INFO"/"RETURN & REFUND POLICY" sections; reviews
    with names and dates; "You Might Also Like" items named "<title> by <author>" with prices."""
    r = random.Random(b.isbn + "wix")
    on_sale = _on_sale(b)
    amount = _dollars(b.price)
    jsonld = json.dumps(
        {"@context": "https://schema.org/", "@type": "Product", "name": b.title, "sku": b.sku,
         "description": f"ISBN {b.isbn}", "Offers": {"@type": "Offer", "price": f"{amount:.2f}",
                                                     "priceCurrency": "USD"}}
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.35 else []

    def joined(names: list[str]) -> str:
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]

    options = "".join(
        f"<li role='option' data-hook='dropdown-option' class='_3Oc-Q'>{e(x)}</li>" for x in BINDINGS
    )
    desc = [f"Author: {e(joined(b.authors))}"]
    if helpers:
        desc.append(f"Translated by: {e(joined(helpers))}")
    desc += [
        f"Publisher: {e(b.publisher)}",
        f"Published: {e(b.published)}",
        f"First published: {e(b.first_published)}",
        f"Format: {e(b.binding)}, {b.pages} pages",
        f"ISBN: {b.isbn}",
    ]
    if b.series:
        desc.insert(1, f"Series: {e(b.series)}")
    desc_html = "".join(f"<p class='_1Nh-W'><span style='font-size:16px'>{x}</span></p>" for x in desc)
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<li data-hook='review-item' class='_2rYcE'>"
            f"<div data-hook='review-author' class='_3mU8x'>{e(who)}</div>"
            f"<div data-hook='review-date' class='_1oUmQ'>{uk_date(*_review_day(r))}</div>"
            f"<div data-hook='review-rating' aria-label='Rated {r.randint(3, 5)} out of 5'></div>"
            "<p data-hook='review-body'>"
            f"{['Lovely copy, fast shipping.', 'As described.', 'Great read.'][i]}</p></li>"
        )
    gallery = "".join(
        f"<div data-hook='product-item-root' class='_3DNsL'><a data-hook='product-item-container' "
        f"href='/product-page/r{i}'><img src='/media/r{i}.jpg' alt=''></a>"
        f"<div data-hook='not-image-container' class='_2zTHN'>"
        f"<h3 data-hook='product-item-name' class='_2BULo'>{e(t)} by {e(a)}</h3>"
        f"<div data-hook='product-item-price-to-pay' class='_23ArP'><span class='sr-only'>Price</span>"
        f"<span data-hook='product-item-price-to-pay'>{e(p)}</span></div></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Wix Bookshop",
        f"<script type='application/ld+json'>{jsonld}</script>"
        f"<meta property='og:title' content='{e(b.title)} | The Little Bookshop'>"
        f"<meta property='product:price:amount' content='{amount:.2f}'>"
        "<div id='SITE_CONTAINER'><div data-hook='product-page' class='_1Vq8q'>"
        "<nav data-hook='breadcrumbs' class='_1hxHK'><a href='/'>Home</a> / "
        f"<a href='/shop'>All Products</a> / <span aria-current='page'>{e(b.title)}</span></nav>"
        "<div class='_3wUf3'><section data-hook='product-gallery' class='_3LZQW'>"
        f"<img data-hook='product-image' src='/media/{b.sku}.jpg' alt='{e(b.slug)}'></section>"
        "<section data-hook='details-placeholder' class='_3ZfxP'>"
        f"<h1 data-hook='product-title' class='_2qrJF igSrdq'>{e(b.title)}</h1>"
        f"<div data-hook='sku' class='_1rwRc'>SKU: {e(b.sku)}</div>"
        "<div data-hook='product-prices-wrapper' class='_26qxh'>"
        + (
            "<span class='sr-only'>Regular Price</span>"
            "<span data-hook='formatted-secondary-price' class='_2QGzC' "
            "style='text-decoration:line-through'>"
            f"{e(b.list_price)}</span><span class='sr-only'>Sale Price</span>"
            if on_sale
            else "<span class='sr-only'>Price</span>"
        )
        + f"<span data-hook='formatted-primary-price' class='_26qxh'>{e(b.price)}</span></div>"
        "<div data-hook='product-options'><span data-hook='options-dropdown-title'>Format</span>"
        "<div data-hook='dropdown' class='_2VRxT'><button data-hook='dropdown-base'>"
        "<span data-hook='dropdown-base-text'>Select</span></button>"
        f"<ul role='listbox' style='display:none'>{options}</ul></div></div>"
        "<div data-hook='number-input-spinner'><input type='number' value='1' aria-label='Quantity'></div>"
        "<button data-hook='add-to-cart' class='_1xcEE'>Add to Cart</button>"
        "<button data-hook='buy-now-button' class='_2tBvA'>Buy Now</button></section></div>"
        f"<section data-hook='description-wrapper'><div data-hook='description'>{desc_html}</div></section>"
        "<section data-hook='info-section-wrapper'>"
        "<div data-hook='info-section-title' class='_2HkIR'>PRODUCT INFO</div>"
        "<div data-hook='info-section-description'><p>Pre-loved and new books, carefully packed.</p></div>"
        "<div data-hook='info-section-title' class='_2HkIR'>RETURN &amp; REFUND POLICY</div>"
        "<div data-hook='info-section-description'><p>Returns accepted within 30 days.</p></div>"
        "</section>"
        f"<section data-hook='reviews-widget'><h2>Reviews</h2><ul>{reviews}</ul></section>"
        "<section data-hook='related-products'><h2 data-hook='title'>You Might Also Like</h2>"
        f"<div data-hook='slider-gallery-slider'>{gallery}</div></section></div></div>",
    )


MAANEDER = ["januar", "februar", "marts", "april", "maj", "juni", "juli", "august", "september",
            "oktober", "november", "december"]  # fmt: skip


def da_date(y: int, m: int, d: int) -> str:
    return f"{d}. {MAANEDER[m - 1]} {y}"


def _dkk(price: str) -> float:
    """A "129,95 kr." price as a number."""
    return float(price.split()[0].replace(",", "."))


def saxo_product(b: Book) -> str:
    """A Danish online bookshop's product page (Saxo's shape): a ``dataLayer`` with the title,
    ISBN and price first, then ``og:`` metas; breadcrumbs "Forside / Bøger / Skønlitteratur";
    the h1, "af" and author links, then "Oversat af"/"Oplæser" lines of the same shape; the
    price "129,95 kr." with "Premium-pris" (a lower price for members) beside it and, on sale
    pages, a struck "Vejl. pris"; "Fri fragt" threshold; other formats with their prices;
    "Beskrivelse" with the first edition's date in the same Danish format; "Detaljer" as
    dt/dd pairs (Forfatter with one dd per author, optional Oversætter/Illustrator pairs of the
    same shape, Forlag, Udgivet, Første udgave, Sprog, Sidetal, Indbinding, ISBN-13,
    Varenummer); "Anmeldelser" with names and Danish dates; "Andre købte også" tiles with
    titles, authors and prices."""
    r = random.Random(b.isbn + "saxo")
    on_sale = _on_sale(b)
    amount = _dkk(b.price)
    layer = json.dumps(
        {"event": "productDetail", "ecommerce": {"detail": {"products": [
            {"id": b.isbn, "name": b.title, "price": round(amount, 2), "brand": b.publisher,
             "variant": b.binding}]}}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role, role_dt = r.choice([("Oversat af", "Oversætter"), ("Illustreret af", "Illustrator")])

    def links(names: list[str]) -> str:
        return ", ".join(
            f"<a class='product-page-heading__author-link' href='/dk/forfatter/{e(n.replace(' ', '-'))}'>"
            f"{e(n)}</a>"
            for n in names
        )

    def dds(names: list[str]) -> str:
        return "".join(f"<dd><a href='/dk/forfatter/{e(n.replace(' ', '-'))}'>{e(n)}</a></dd>" for n in names)

    premium = f"{amount * 0.85:.2f}".replace(".", ",") + " kr."
    details = f"<dt>Forfatter{'e' if len(b.authors) > 1 else ''}</dt>{dds(b.authors)}"
    if helpers:
        details += f"<dt>{role_dt}</dt>{dds(helpers)}"
    details += (
        f"<dt>Forlag</dt><dd>{e(b.publisher)}</dd>"
        f"<dt>Udgivet</dt><dd>{e(b.published)}</dd>"
        f"<dt>Første udgave</dt><dd>{e(b.first_published)}</dd>"
        "<dt>Sprog</dt><dd>Engelsk</dd>"
        f"<dt>Sidetal</dt><dd>{b.pages}</dd>"
        f"<dt>Indbinding</dt><dd>{e(b.binding)}</dd>"
    )
    if b.series:
        details += f"<dt>Serie</dt><dd>{e(b.series)}</dd>"
    details += f"<dt>ISBN-13</dt><dd>{b.isbn}</dd><dt>Varenummer</dt><dd>{e(b.sku)}</dd>"
    formats = "".join(
        f"<li class='format-list__item{' format-list__item--active' if x == b.binding else ''}'>"
        f"<span class='format-list__name'>{e(x)}</span> "
        f"<span class='format-list__price'>{e(b.price if x == b.binding else _other_price(b, k))}</span></li>"
        for k, x in enumerate(BINDINGS)
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<div class='review'><div class='review__meta'>"
            f"<span class='review__name'>{e(who)}</span> "
            f"<span class='review__date'>{da_date(*_review_day(r))}</span>"
            f"</div><div class='review__stars'>{r.randint(3, 5)} ud af 5</div>"
            f"<p>{['Fantastisk læsning.', 'God, men lidt lang.', 'Kan anbefales.'][i]}</p></div>"
        )
    tiles = "".join(
        f"<div class='product-tile'><a class='product-tile__title' href='/dk/r{i}'>{e(t)}</a>"
        f"<span class='product-tile__author'>{e(a)}</span>"
        f"<span class='product-tile__price'>{e(p)}</span></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Saxo",
        f"<script>dataLayer = [{layer}];</script>"
        f"<meta property='og:title' content='{e(b.title)} af {e(b.authors[0])}'>"
        f"<meta property='og:url' content='https://www.saxo.example/dk/{e(b.slug)}_{b.isbn}'>"
        "<ol class='breadcrumb'><li><a href='/dk'>Forside</a></li><li><a href='/dk/boeger'>Bøger</a></li>"
        "<li><a href='/dk/boeger/skoenlitteratur'>Skønlitteratur</a></li></ol>"
        "<div class='product-page'><div class='product-page__image'>"
        f"<img src='/images/{b.isbn}.jpg' alt='{e(b.title)}'></div><div class='product-page-heading'>"
        f"<h1 class='product-page-heading__title'>{e(b.title)}</h1>"
        f"<div class='product-page-heading__authors'>af {links(b.authors)}</div>"
        + (
            f"<div class='product-page-heading__authors'>{role} {links(helpers)}</div>" if helpers else ""
        )
        + f"<div class='product-page-heading__format'>{e(b.binding)} · {b.published[-4:]}</div></div>"
        "<div class='buy-box'><div class='buy-box__prices'>"
        + (f"<span class='buy-box__before'>Vejl. pris <s>{e(b.list_price)}</s></span> " if on_sale else "")
        + f"<span class='buy-box__price'>{e(b.price)}</span>"
        f"<span class='buy-box__premium'>Premium-pris {premium}</span></div>"
        "<p class='buy-box__delivery'>Sendes inden for 1-2 hverdage. Fri fragt over 299 kr.</p>"
        "<form action='/dk/kurv' method='post'>"
        f"<input type='hidden' name='ean' value='{b.isbn}'>"
        "<button class='button button--primary'>Læg i kurv</button></form>"
        f"<div class='format-list'><h3>Andre formater</h3><ul>{formats}</ul></div></div></div>"
        "<section class='product-description'><h2>Beskrivelse</h2>"
        f"<p>Udkom første gang {e(b.first_published)} og er nu genudgivet i en ny udgave.</p></section>"
        f"<section class='product-details'><h2>Detaljer</h2><dl class='details-list'>{details}</dl></section>"
        f"<section class='reviews'><h2>Anmeldelser</h2>{reviews}</section>"
        "<section class='recommendations'><h2>Andre købte også</h2>"
        f"<div class='product-tiles'>{tiles}</div></section>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 18: written without reading the learner's code, copying the page shapes of a
# Japanese bookshop, a Brazilian VTEX store, a Belgian Shopware 6 shop and a Chinese book
# catalogue.


def jp_date(y: int, m: int, d: int) -> str:
    return f"{y}年{m:02d}月{d:02d}日"


MAANDEN = ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
           "oktober", "november", "december"]  # fmt: skip


def nl_date(y: int, m: int, d: int) -> str:
    return f"{d} {MAANDEN[m - 1]} {y}"


def dash_ymd(y: int, m: int, d: int) -> str:
    """A catalogue's unpadded "2020-3-5"."""
    return f"{y}-{m}-{d}"


def _yen(price: str) -> int:
    """A "1,650円" price as a number."""
    return int(price.rstrip("円").replace(",", ""))


RAKUTEN_REVIEWS = ["英語の勉強にちょうど良い。", "面白かったです。", "装丁がきれい。"]


def rakuten_books(b: Book) -> str:
    """A Japanese online bookshop's imported-book page (Rakuten Books' shape): JSON-LD and a
    hidden item input first, a ``data-ratCustomParameters`` attribute holding the price;
    breadcrumbs "楽天ブックス > 洋書 > FICTION & LITERATURE"; the h1, then "著者：" with each
    author link followed by "（著）" and, on some pages, translators/illustrators of the same
    shape marked "（翻訳）"/"（イラスト）" in the same line; "発売日：" and "出版社：" summary items;
    the price "1,650円" with "(税込)", on sale pages a struck "参考価格" and "(N%OFF)", "送料無料",
    points ("16ポイント", "5倍 80ポイント"); "商品説明" with the original edition's date in the
    same format; "商品基本情報" as a list of ``category``/``categoryValue`` spans (発売日, 著者/編集
    with the same role suffixes, 出版社, 発行形態, 言語, ページ数, ISBN, 初版発行日, シリーズ, 商品番号);
    "みんなのレビュー" with names and dates; "この商品を見た人は…" items with titles, authors and
    yen prices."""
    r = random.Random(b.isbn + "rakuten")
    on_sale = _on_sale(b)
    yen = _yen(b.price)
    item_id = 16000000 + int(b.isbn[-7:]) % 999999
    jsonld = json.dumps(
        {"@context": "https://schema.org", "@type": "Product", "name": b.title, "gtin13": b.isbn,
         "brand": {"@type": "Brand", "name": b.publisher},
         "offers": {"@type": "Offer", "price": yen, "priceCurrency": "JPY"}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role = r.choice(["翻訳", "イラスト"])

    def credited(names: list[str], mark: str) -> list[str]:
        return [
            f"<a href='https://books.rakuten.example/search?sitem={e(n.replace(' ', '+'))}&amp;g=005'>"
            f"{e(n)}</a>"
            f"（{mark}）"
            for n in names
        ]

    people = "／".join(credited(b.authors, "著") + credited(helpers, role))
    rows = [
        ("発売日", e(b.published)),
        ("著者/編集", people),
        ("出版社", e(b.publisher)),
        ("発行形態", e(b.binding)),
        ("言語", "英語"),
        ("ページ数", f"{b.pages}p"),
    ]
    if b.series:
        rows.append(("シリーズ", e(b.series)))
    if b.edition:
        rows.append(("版", e(b.edition)))
    rows += [("ISBN", b.isbn), ("初版発行日", e(b.first_published)), ("商品番号", e(b.sku))]
    info = "".join(
        f"<li class='productInfo__item'><span class='category'>{k}</span>"
        f"<span class='categoryValue'>{v}</span></li>"
        for k, v in rows
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<li class='review-item'><div class='review-item__head'>"
            f"<span class='review-item__stars' data-score='{r.randint(3, 5)}'></span>"
            f"<span class='review-item__name'>{e(who)}</span>さん "
            f"<span class='review-item__date'>{jp_date(*_review_day(r))}</span></div>"
            f"<p class='review-item__body'>{RAKUTEN_REVIEWS[i]}</p></li>"
        )
    related = "".join(
        f"<li class='rbcomp__item-list__item'><a class='rbcomp__item-list__item__image' href='/rb/{i + 1}/'>"
        "<img src='/img/noimage.gif' alt=''></a>"
        f"<a class='rbcomp__item-list__item__title' href='/rb/{i + 1}/'>{e(t)}</a>"
        f"<span class='rbcomp__item-list__item__author'>{e(a)}</span>"
        f"<span class='rbcomp__item-list__item__price'>{e(p)}</span></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    pct = round(100 * (1 - yen / _yen(b.list_price)))
    stars = r.randint(30, 50) / 10
    return _page(
        "楽天ブックス",
        f"<script type='application/ld+json'>{jsonld}</script>"
        f"<input type='hidden' id='itemId' name='itemId' value='{item_id}'>"
        f"<input type='hidden' name='isbnCode' value='{b.isbn}'>"
        f"<div id='ratData' data-ratCustomParameters='{{\"price\":{yen},\"shopid\":\"213310\"}}'></div>"
        "<div class='rbcomp__breadcrumb'><a href='/'>楽天ブックス</a> &gt; <a href='/foreign/'>洋書</a> &gt; "
        "<a href='/foreign/fiction/'>FICTION &amp; LITERATURE</a> &gt; <span>Literary</span></div>"
        "<div id='productTitle' class='productTitle'>"
        f"<h1><span class='productName__title'>{e(b.title)}</span></h1>"
        + (f"<p class='productName__series'>（{e(b.series)}）</p>" if b.series else "")
        + f"<div class='productAuthor'><span class='productAuthor__label'>著者：</span>{people}</div>"
        "<ul class='productSummary'>"
        f"<li><span class='productSummary__label'>発売日：</span>{e(b.published)}</li>"
        f"<li><span class='productSummary__label'>出版社：</span>{e(b.publisher)}</li></ul>"
        "<div class='productReviewSummary'>"
        f"<span class='productReviewSummary__stars'>{stars}</span> "
        f"<a href='#review'>（{r.randint(1, 80)}件）</a></div></div>"
        "<div class='productPrice' id='priceCalculationConfig'>"
        + (
            f"<div class='productPrice__reference'>参考価格：<s>{e(b.list_price)}</s>"
            f" <span class='productPrice__off'>({pct}%OFF)</span></div>"
            if on_sale
            else ""
        )
        + f"<div class='productPrice__main'><span class='price'>{e(b.price)}</span>"
        "<span class='tax'>(税込)</span></div>"
        "<div class='productPrice__shipping'>送料無料</div>"
        f"<div class='productPoint'><span class='point'>{yen // 100}ポイント</span>(1倍) "
        f"<span class='point-up'>楽天カード利用で5倍 {yen * 5 // 100}ポイント</span></div></div>"
        "<form class='productCart' action='/cart/add' method='post'>"
        f"<input type='hidden' name='isbn' value='{b.isbn}'>"
        "<p class='productCart__stock'>通常1～2週間で発送</p>"
        "<button class='rb-btn rb-btn--cart'>買い物かごに入れる</button></form>"
        "<div class='productDescription'><h2>商品説明</h2>"
        f"<p>原書は{e(b.first_published)}に刊行。洋書ペーパーバック・ハードカバーを多数取り揃えています。</p></div>"
        f"<div class='productInfo'><h2>商品基本情報</h2><ul>{info}</ul></div>"
        f"<div id='review' class='review'><h2>みんなのレビュー</h2><ul>{reviews}</ul></div>"
        "<div class='rbcomp__item-list'><h2>この商品を見た人はこんな商品も見ています</h2>"
        f"<ul>{related}</ul></div>",
    )


def _reais(price: str) -> float:
    """A "R$ 49,90" price as a number."""
    return float(price[3:].replace(",", "."))


def _vtex_price(amount: float, cls: str) -> str:
    """An amount drawn VTEX's way: currency code, literal, integer, decimal sign and fraction
    each in their own span, so the price is only whole in the container's text."""
    whole, cents = f"{amount:.2f}".split(".")
    p = "vtex-product-price-1-x-"
    return (
        f"<span class='{p}{cls}'><span class='{p}currencyContainer'>"
        f"<span class='{p}currencyCode'>R$</span><span class='{p}currencyLiteral'> </span>"
        f"<span class='{p}currencyInteger'>{whole}</span><span class='{p}currencyDecimal'>,</span>"
        f"<span class='{p}currencyFraction'>{cents}</span></span></span>"
    )


def vtex_livraria(b: Book) -> str:
    """A Brazilian bookshop on VTEX IO (the shape of Livraria Cultura's and Saraiva's stores):
    the ``__STATE__`` JSON in a <template> first, ``product:`` metas; breadcrumbs "Livros >
    Literatura Estrangeira > Romance > <title>"; the publisher as the brand link above the h1,
    whose name span has class ``productBrand``; every price split into currency/integer/decimal/
    fraction spans ("R$ 49,90"), with "De:" and a struck list price, "Economize R$ N" on sale
    pages, "ou 3x de R$ N sem juros" and "R$ N à vista no Pix"; the shipping calculator;
    "Sinopse" with the first edition's date in the same d/m/Y format; "Ficha técnica" as
    label/value divs (``specificationItemProperty``/``specificationItemSpecifications``) where
    "Autor" holds all names in one text "A, B" and "Tradutor"/"Ilustrador" hold theirs the
    same way; reviews with names and dates; "Quem viu, viu também" shelf cards with titles,
    authors and split prices."""
    r = random.Random(b.isbn + "vtex")
    on_sale = _on_sale(b)
    amount = _reais(b.price)
    list_amount = _reais(b.list_price)
    state = json.dumps(
        {f"Product:sp-{b.isbn[-6:]}": {"productName": b.title, "brand": b.publisher,
         "items": [{"ean": b.isbn, "referenceId": [{"Key": "RefId", "Value": b.sku}]}],
         "priceRange": {"sellingPrice": {"highPrice": amount, "lowPrice": amount}}}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.35 else []
    role = r.choice(["Tradutor", "Ilustrador"])
    s = "vtex-product-specifications-1-x-"
    specs = [("Autor", ", ".join(b.authors))]
    if helpers:
        specs.append((role, ", ".join(helpers)))
    specs += [("Editora", b.publisher), ("Idioma", "Inglês"), ("Acabamento", b.binding)]
    if b.edition:
        specs.append(("Edição", b.edition))
    specs += [
        ("Número de páginas", str(b.pages)),
        ("Data de lançamento", b.published),
        ("Ano", b.published[-4:]),
        ("Código de barras", b.isbn),
    ]
    if b.series:
        specs.append(("Coleção", b.series))
    specs.append(("Referência", b.sku))
    spec_html = "".join(
        f"<div class='{s}specificationItem'>"
        f"<div class='{s}specificationItemProperty' data-specification='{e(k)}'>{e(k)}</div>"
        f"<div class='{s}specificationItemSpecifications'><span class='{s}specificationValue'>{e(v)}</span>"
        "</div></div>"
        for k, v in specs
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<div class='yv-review'><div class='yv-review__header'>"
            f"<span class='yv-review__user'>{e(who)}</span> "
            f"<span class='yv-review__date'>{slash_dmy(*_review_day(r))}</span></div>"
            f"<div class='yv-review__stars'>{r.randint(3, 5)} de 5 estrelas</div>"
            f"<p>{['Chegou antes do prazo.', 'Ótima edição.', 'Recomendo muito.'][i]}</p></div>"
        )
    shelf_items = "".join(
        "<section class='vtex-product-summary-2-x-container'>"
        f"<a class='vtex-product-summary-2-x-clearLink' href='/r{i}/p'>"
        "<div class='vtex-product-summary-2-x-imageContainer'><img src='/arquivos/ids/0.jpg' alt=''></div>"
        f"<h3 class='vtex-product-summary-2-x-productNameContainer'><span class='vtex-product-summary-2-x-"
        f"productBrand vtex-product-summary-2-x-brandName'>{e(t)}</span></h3>"
        f"<div class='cultura-shelf-author'>{e(a)}</div>"
        "<div class='vtex-product-price-1-x-sellingPrice'>"
        f"{_vtex_price(_reais(p), 'sellingPriceValue')}</div>"
        "</a></section>"
        for i, (t, a, p) in enumerate(b.related)
    )
    n = 3 if amount < 30 else 4
    crumbs = " <span class='vtex-breadcrumb-1-x-caret'>›</span> ".join(
        f"<a class='vtex-breadcrumb-1-x-link' href='{href}'>{name}</a>"
        for href, name in [("/", "Início"), ("/livros", "Livros"),
                           ("/livros/literatura-estrangeira", "Literatura Estrangeira"),
                           ("/livros/literatura-estrangeira/romance", "Romance")]
    )  # fmt: skip
    return _page(
        "Livraria Cultura",
        "<template data-type='json' data-varname='__STATE__'>"
        f"<script>{state}</script></template>"
        f"<meta property='product:price:amount' content='{amount:.2f}'>"
        "<meta property='product:price:currency' content='BRL'>"
        "<div class='vtex-store__template'><div class='vtex-breadcrumb-1-x-container'>"
        f"{crumbs} <span class='vtex-breadcrumb-1-x-caret'>›</span> "
        f"<span class='vtex-breadcrumb-1-x-term'>{e(b.title)}</span>"
        "</div><div class='vtex-flex-layout-0-x-flexRow--product-main'>"
        "<div class='vtex-store-components-3-x-productImage'>"
        "<img class='vtex-store-components-3-x-productImageTag' "
        f"src='/arquivos/ids/{b.isbn}.jpg' alt='{e(b.title)}'>"
        "</div><div class='vtex-flex-layout-0-x-flexCol--product-info'>"
        "<a class='vtex-store-components-3-x-productBrandLink' "
        f"href='/{e(b.publisher.lower().replace(' ', '-'))}'>"
        f"<span class='vtex-store-components-3-x-productBrandName'>{e(b.publisher)}</span></a>"
        "<h1 class='vtex-store-components-3-x-productNameContainer mv0 t-heading-4'>"
        f"<span class='vtex-store-components-3-x-productBrand'>{e(b.title)}</span></h1>"
        "<div class='vtex-reviews-and-ratings-3-x-summary'>"
        f"<span class='vtex-reviews-and-ratings-3-x-stars'>{r.randint(35, 50) / 10}</span> "
        f"<span class='vtex-reviews-and-ratings-3-x-count'>({r.randint(1, 250)})</span></div>"
        "<div class='vtex-product-price-1-x-priceBox'>"
        + (
            "<div class='vtex-product-price-1-x-listPrice'>De: "
            f"<s>{_vtex_price(list_amount, 'listPriceValue strike')}</s></div>"
            if on_sale
            else ""
        )
        + "<div class='vtex-product-price-1-x-sellingPrice'>Por: "
        f"{_vtex_price(amount, 'sellingPriceValue')}</div>"
        + (
            "<div class='vtex-product-price-1-x-savings'>Economize "
            f"{_vtex_price(list_amount - amount, 'savingsValue')}</div>"
            if on_sale
            else ""
        )
        + f"<div class='vtex-product-price-1-x-installments'>ou {n}x de "
        f"{_vtex_price(amount / n, 'installmentValue')} sem juros</div>"
        f"<div class='cultura-pix-price'>{_vtex_price(amount * 0.95, 'pixValue')} à vista no Pix</div></div>"
        "<div class='vtex-store-components-3-x-shippingContainer'>"
        "<label>Calcular frete e prazo</label><input class='vtex-input' placeholder='CEP' name='postalCode'>"
        "<button>OK</button></div>"
        "<button class='vtex-add-to-cart-button-0-x-buttonText'>Adicionar à sacola</button>"
        "</div></div>"
        "<div class='vtex-store-components-3-x-productDescriptionContainer'><h2>Sinopse</h2>"
        f"<div class='vtex-store-components-3-x-productDescriptionText'><p>Publicado originalmente em "
        f"{e(b.first_published)}, este clássico chega em nova edição em inglês, com {b.pages} páginas.</p>"
        "</div></div>"
        f"<div class='{s}specificationGroup'><h2 class='{s}specificationGroupName'>Ficha técnica</h2>"
        f"<div class='{s}specificationItems'>{spec_html}</div></div>"
        f"<div class='yv-reviews'><h2>Avaliações</h2>{reviews}</div>"
        "<div class='vtex-shelf-1-x-container'><h2 class='vtex-shelf-1-x-title'>Quem viu, viu também</h2>"
        f"<div class='vtex-slider-layout-0-x-sliderTrack'>{shelf_items}</div></div></div>",
    )


def _euro_nl(price: str) -> float:
    """A "€ 12,99" price as a number."""
    return float(price[2:].replace(",", "."))


def shopware_product(b: Book) -> str:
    """A Belgian bookshop on Shopware 6's default storefront (Dutch): ``og:``/``itemprop``
    metas with the title and ISBN first; breadcrumbs "Home > Boeken > Fictie > Literaire
    roman"; above the h1 the publisher only as the manufacturer logo's alt/title; the h1
    ``product-detail-name``; "N beoordelingen"; the price "€ 12,99*" (the footnote asterisk in
    the same text) with, on sale pages, "Adviesprijs: € N*" struck and "(N% bespaard)";
    delivery time; the configurator listing every binding as a radio option (the page's
    checked); the buy form's hidden ``product-name`` input; "Artikelnummer:" beside the
    ``productID`` meta; tabs "Omschrijving"/"Beoordelingen"; the description with the first
    edition's date in the same Dutch format; the properties table sorted by label (Aantal
    pagina's, Auteur, Bindwijze, ..., Verschijningsdatum, Vertaler) whose multi-valued cells
    put the ", " separator inside the second and later values' spans; reviews with names and
    Dutch dates; "Klanten kochten ook" product boxes with titles, authors and prices."""
    r = random.Random(b.isbn + "shopware")
    on_sale = _on_sale(b)
    amount = _euro_nl(b.price)
    product_id = hashlib.md5(b.isbn.encode()).hexdigest()
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role = r.choice(["Vertaler", "Illustrator"])

    def options(names: list[str]) -> str:
        return "<span>" + "".join(
            f"<span>{', ' if i else ''}{e(n)}</span>" for i, n in enumerate(names)
        ) + "</span>"

    props = {
        "Aantal pagina's": options([str(b.pages)]),
        "Auteur": options(b.authors),
        "Bindwijze": options([b.binding]),
        "Eerste uitgave": options([b.first_published]),
        "ISBN": options([b.isbn]),
        "Taal": options(["Engels"]),
        "Uitgever": options([b.publisher]),
        "Verschijningsdatum": options([b.published]),
    }
    if helpers:
        props[role] = options(helpers)
    if b.series:
        props["Reeks"] = options([b.series])
    if b.edition:
        props["Editie"] = options([b.edition])
    table = "".join(
        f"<tr class='properties-row'><th class='properties-label'>{e(k)}:</th>"
        f"<td class='properties-value'>{v}</td></tr>"
        for k, v in sorted(props.items())
    )
    configurator = "".join(
        "<div class='product-detail-configurator-option'>"
        f"<input type='radio' class='product-detail-configurator-option-input is-combinable' "
        f"name='bindwijze' id='opt-{k}' value='{k}'{' checked' if x == b.binding else ''}>"
        f"<label class='product-detail-configurator-option-label is-display-text' for='opt-{k}' "
        f"title='{e(x)}'>{e(x)}</label></div>"
        for k, x in enumerate(BINDINGS)
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<div class='product-detail-review-item'><div class='product-detail-review-item-info'>"
            f"<p class='product-detail-review-item-date'><small>{nl_date(*_review_day(r))}</small></p>"
            f"<p class='h5 product-detail-review-item-title'>{['Aanrader', 'Mooi boek', 'Prima'][i]}</p>"
            f"<span class='product-detail-review-item-points'>{r.randint(3, 5)}/5</span></div>"
            f"<p class='product-detail-review-item-content'>Door {e(who)}</p></div>"
        )
    boxes = "".join(
        "<div class='cms-listing-col'><div class='card product-box box-standard'><div class='card-body'>"
        f"<div class='product-image-wrapper'><a href='/r{i}' title='{e(t)}'><img src='/media/r{i}.jpg' "
        f"alt='{e(t)}'></a></div><div class='product-info'>"
        f"<a href='/r{i}' class='product-name' title='{e(t)}'>{e(t)}</a>"
        f"<div class='product-description'>Door {e(a)}</div>"
        f"<div class='product-price-info'><p class='product-price'>{e(p)}*</p></div></div></div></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    pct = round(100 * (1 - amount / _euro_nl(b.list_price)))
    n_reviews = reviews.count("product-detail-review-item'")
    return _page(
        "Boekhandel Lier",
        f"<meta property='og:title' content='{e(b.title)}'>"
        f"<meta property='product:price:amount' content='{amount:.2f}'>"
        "<div class='cms-page' itemscope itemtype='https://schema.org/Product'>"
        f"<meta itemprop='gtin13' content='{b.isbn}'>"
        "<nav aria-label='breadcrumb'><ol class='breadcrumb' itemscope itemtype='https://schema.org/BreadcrumbList'>"
        "<li class='breadcrumb-item'><a href='/'>Home</a></li>"
        "<li class='breadcrumb-item'><a href='/boeken/'>Boeken</a></li>"
        "<li class='breadcrumb-item'><a href='/boeken/fictie/'>Fictie</a></li>"
        "<li class='breadcrumb-item active'>"
        "<a href='/boeken/fictie/literaire-roman/'>Literaire roman</a></li>"
        "</ol></nav>"
        "<div class='product-detail'><div class='product-detail-content'><div class='row'>"
        "<div class='col-lg-7 product-detail-media'>"
        f"<img class='gallery-slider-image' src='/media/{product_id[:2]}/{b.isbn}.jpg' "
        f"alt='{e(b.title)}'></div>"
        "<div class='col-lg-5 product-detail-buy'>"
        "<div class='product-detail-manufacturer'>"
        f"<a href='/uitgever/{e(b.publisher.lower().replace(' ', '-'))}' "
        "class='product-detail-manufacturer-link' "
        f"title='{e(b.publisher)}'><img src='/media/logo-{len(b.publisher)}.png' "
        f"class='product-detail-manufacturer-logo' alt='{e(b.publisher)}'></a></div>"
        f"<h1 class='product-detail-name' itemprop='name'>{e(b.title)}</h1>"
        "<div class='product-detail-reviews'>"
        f"<span class='product-review-rating'>{r.randint(35, 50) / 10}</span> "
        f"<a class='product-detail-reviews-link' href='#review-tab'>{n_reviews} beoordelingen</a></div>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer'>"
        f"<meta itemprop='price' content='{amount:.2f}'><meta itemprop='priceCurrency' content='EUR'>"
        "<div class='product-detail-price-container'>"
        f"<p class='product-detail-price{' with-list-price' if on_sale else ''}'>{e(b.price)}*</p>"
        + (
            "<span class='product-detail-list-price-wrapper'>"
            "<span class='list-price-label'>Adviesprijs:</span> "
            f"<span class='list-price-price' style='text-decoration:line-through'>{e(b.list_price)}*</span> "
            f"<span class='list-price-percentage'>({pct}% bespaard)</span></span>"
            if on_sale
            else ""
        )
        + "</div><p class='product-detail-tax'>Prijzen incl. btw, excl. "
        "<a href='/verzendkosten'>verzendkosten</a></p>"
        "<div class='product-detail-delivery-information'><p class='delivery-information delivery-available'>"
        "<span class='delivery-status-indicator bg-success'></span> Beschikbaar, levertijd 1-3 werkdagen</p>"
        "</div></div>"
        "<div class='product-detail-configurator'><div class='product-detail-configurator-group'>"
        "<div class='product-detail-configurator-group-title'>Bindwijze</div>"
        f"<div class='product-detail-configurator-options'>{configurator}</div></div></div>"
        "<form class='buy-widget' action='/checkout/line-item/add' method='post'>"
        f"<input type='hidden' name='lineItems[{product_id}][id]' value='{product_id}'>"
        f"<input type='hidden' name='product-name' value='{e(b.title)}'>"
        f"<input type='hidden' name='brand-name' value='{e(b.publisher)}'>"
        "<select class='custom-select product-detail-quantity-select'><option>1</option><option>2</option>"
        "</select><button class='btn btn-primary btn-block btn-buy'>In winkelmandje</button></form>"
        "<div class='product-detail-ordernumber-container'>"
        "<span class='product-detail-ordernumber-label'>Artikelnummer:</span> "
        f"<meta itemprop='productID' content='{product_id}'>"
        f"<span class='product-detail-ordernumber' itemprop='sku'>{e(b.sku)}</span></div>"
        "</div></div></div>"
        "<div class='product-detail-tabs'>"
        "<ul class='nav nav-tabs product-detail-tab-navigation-list' role='tablist'>"
        "<li class='nav-item'><a class='nav-link active' id='description-tab' data-bs-toggle='tab' "
        "href='#description-tab-pane'>Omschrijving</a></li><li class='nav-item'><a class='nav-link' "
        "id='review-tab' data-bs-toggle='tab' href='#review-tab-pane'>"
        f"Beoordelingen ({n_reviews})</a></li></ul>"
        "<div class='tab-content'><div class='tab-pane fade show active' id='description-tab-pane'>"
        "<div class='product-detail-description'><div class='product-detail-description-text' "
        "itemprop='description'>"
        f"<p>Verscheen oorspronkelijk op {e(b.first_published)}; nu in een nieuwe Engelstalige uitgave van "
        f"{b.pages} pagina's.</p></div>"
        "<div class='product-detail-properties'>"
        "<table class='table table-striped product-detail-properties-table'>"
        f"<tbody>{table}</tbody></table></div></div></div>"
        "<div class='tab-pane fade' id='review-tab-pane'><div class='product-detail-review'>"
        f"{reviews}</div></div></div></div></div>"
        "<div class='cms-element-cross-selling'><h2 class='cms-element-title'>Klanten kochten ook</h2>"
        f"<div class='product-slider-container'>{boxes}</div></div></div>",
    )


def _yuan_amount(price: str) -> float:
    """A "¥42.50" price as a number."""
    return float(price.lstrip("¥"))


NATIONS = ["[美]", "[英]", "[加]", "[澳]"]
VENDORS = ["京东商城", "当当网", "中国图书网"]
DOUBAN_COMMENTS = ["英文原版，读得很慢。", "好看！", "翻译腔很重的书评。"]


def douban_book(b: Book) -> str:
    """A Chinese book catalogue's subject page (Douban Books' shape): JSON-LD with the title,
    authors and ISBN first; the h1's ``v:itemreviewed`` span; ``#info`` as label spans
    followed by bare text and ``<br>`` ("出版社:" as a link on some pages, plain text on
    others), the authors as links separated by " / " with a nationality mark such as "[美]"
    before the first, "译者" in the same shape on some pages, "出版年:" in the unpadded
    "2020-3-5" form, "定价:" (the list price as "59.00元"), "装帧:", "丛书:", "ISBN:"; the rating
    and "N人评价"; "内容简介" with the original edition's date in the same form and "作者简介"
    naming the first author; "在哪儿买这本书" with the catalogue's own shop first (price and
    "商品编号"), then other vendors' prices; "这本书的其他版本" with other publishers and years;
    "短评" with names and padded dates; "喜欢读…的人也喜欢" with titles and authors."""
    r = random.Random(b.isbn + "douban")
    subject = 30000000 + int(b.isbn[-7:])
    jsonld = json.dumps(
        {"@context": "http://schema.org", "@type": "Book", "workExample": [], "name": b.title,
         "author": [{"@type": "Person", "name": a} for a in b.authors],
         "url": f"https://book.douban.example/subject/{subject}/", "isbn": b.isbn,
         "sameAs": f"https://book.douban.example/subject/{subject}/"},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.35 else []

    def people(names: list[str], nation: str = "") -> str:
        return " /\n".join(
            f"{nation + ' ' if i == 0 and nation else ''}<a class='' href='/search/{e(n)}'>{e(n)}</a>"
            for i, n in enumerate(names)
        )

    nation = r.choice(NATIONS) if r.random() < 0.6 else ""
    press = (
        f"<a href='https://book.douban.example/press/{2500 + len(b.publisher)}'>{e(b.publisher)}</a>"
        if r.random() < 0.5
        else e(b.publisher)
    )
    info = f"<span><span class='pl'> 作者</span>:\n{people(b.authors, nation)}\n</span><br>"
    info += f"<span class='pl'>出版社:</span> {press}<br>"
    if r.random() < 0.3:
        info += "<span class='pl'>副标题:</span> A Novel<br>"
    if helpers:
        info += f"<span><span class='pl'> 译者</span>:\n{people(helpers)}\n</span><br>"
    info += (
        f"<span class='pl'>出版年:</span> {e(b.published)}<br>"
        f"<span class='pl'>页数:</span> {b.pages}<br>"
        f"<span class='pl'>定价:</span> {_yuan_amount(b.list_price):.2f}元<br>"
        f"<span class='pl'>装帧:</span> {e(b.binding)}<br>"
    )
    if b.series:
        info += f"<span class='pl'>丛书:</span>&nbsp;<a href='/series/{len(b.series)}'>{e(b.series)}</a><br>"
    info += f"<span class='pl'>ISBN:</span> {b.isbn}<br>"
    votes = r.randint(12, 4000)
    vendors = "".join(
        f"<li><div class='cell vendor-name'><a href='/link2/?vendor={k}'><span>{v}</span></a></div>"
        f"<div class='cell price-wrapper'><a class='buylink-price' href='/link2/?vendor={k}'>"
        f"<span>{e(_other_price(b, k))}</span></a></div></li>"
        for k, v in enumerate(r.sample(VENDORS, r.randint(1, 3)))
    )
    editions = "".join(
        f"<li class='mb8 pl'><a href='/subject/{subject + k + 1}/'>{e(pub)}版</a> {year} / "
        f"{r.randint(60, 95) / 10}分</li>"
        for k, (pub, year) in enumerate(
            (r.choice(PUBLISHERS), r.randint(2005, 2021)) for _ in range(r.randint(1, 3))
        )
    )
    comments = ""
    for who in _others(r, b, r.randint(1, 4)):
        y, m, d = _review_day(r)
        comments += (
            "<li class='comment-item'><div class='comment'><h3><span class='comment-vote'>"
            f"<span class='vote-count'>{r.randint(0, 90)}</span> 有用</span>"
            f"<span class='comment-info'><a href='/people/{len(who)}/'>{e(who)}</a> "
            f"<span class='user-stars allstar{r.randint(3, 5)}0 rating' title='推荐'></span> "
            f"<span class='comment-time'>{y}-{m:02d}-{d:02d}</span></span></h3>"
            f"<p class='comment-content'><span class='short'>{r.choice(DOUBAN_COMMENTS)}"
            "</span></p></div></li>"
        )
    recs = "".join(
        f"<dl><dt><a href='/subject/{subject + 10 + i}/'>"
        f"<img class='m_sub_img' src='/s{i}.jpg' alt=''></a></dt>"
        f"<dd><a href='/subject/{subject + 10 + i}/'>{e(t)}</a><div class='pl2'>{e(a)}</div></dd></dl>"
        for i, (t, a, _p) in enumerate(b.related)
    )
    return _page(
        "豆瓣读书",
        f"<script type='application/ld+json'>{jsonld}</script>"
        "<div id='db-nav-book' class='nav'><div class='nav-items'><ul>"
        "<li><a href='/cart'>购书单</a></li><li><a href='/ebooks'>电子图书</a></li>"
        "<li><a href='/annual'>年度榜单</a></li></ul></div></div>"
        "<div id='wrapper'>"
        f"<h1><span property='v:itemreviewed'>{e(b.title)}</span></h1>"
        "<div id='content'><div class='grid-16-8 clearfix'><div class='article'>"
        "<div class='indent'><div class='subjectwrap clearfix'><div class='subject clearfix'>"
        f"<div id='mainpic'><a class='nbg' href='/view/subject/l/{subject}.jpg' title='{e(b.title)}'>"
        f"<img src='/view/subject/s/{subject}.jpg' title='点击看更多图片' alt='{e(b.title)}'></a></div>"
        f"<div id='info' class=''>{info}</div></div>"
        "<div id='interest_sectl'><div class='rating_wrap clearbox'>"
        "<div class='rating_logo'>豆瓣评分</div>"
        f"<strong class='ll rating_num' property='v:average'>{r.randint(60, 95) / 10}</strong>"
        f"<div class='rating_sum'><a href='/subject/{subject}/comments' class='rating_people'>"
        f"<span property='v:votes'>{votes}</span>人评价</a></div>"
        f"<span class='rating_per'>{r.randint(100, 600) / 10}%</span></div></div></div></div>"
        "<div class='related_info'><h2><span>内容简介</span> · · · · · ·</h2>"
        "<div class='indent' id='link-report'><div class='intro'>"
        f"<p>本书英文原版首次出版于{e(b.first_published)}，此为{e(b.publisher)}的新版本，共{b.pages}页。</p>"
        "</div></div>"
        "<h2><span>作者简介</span> · · · · · ·</h2><div class='indent'><div class='intro'>"
        f"<p>{e(b.authors[0])}，小说家，现居{r.choice(CITIES)}。</p></div></div>"
        + (
            f"<h2><span>丛书信息</span> · · · · · ·</h2><div class='indent'>{e(b.series)}</div>"
            if b.series
            else ""
        )
        + "<div id='comments' class='mod-bd'><h2><span>短评</span> · · · · · ·</h2>"
        f"<ul>{comments}</ul></div>"
        f"<div id='db-rec-section' class='block5 subject_show knnlike'><h2><i>喜欢读“{e(b.title)}”的人也喜欢"
        f"</i> · · · · · ·</h2><div class='content clearfix'>{recs}</div></div></div></div>"
        "<div class='aside'><div class='gray_ad buyinfo' id='buyinfo'><div class='bs noline more-after'>"
        "<h2><span>在哪儿买这本书</span> · · · · · ·</h2><ul class='bs current-version-list'>"
        "<li class='douban-store'><div class='cell vendor-name'>"
        "<a href='/store/'><span>豆瓣书店</span></a></div>"
        "<div class='cell price-wrapper'><a class='buylink-price' href='/store/'>"
        f"<span>{e(b.price)}</span></a></div>"
        f"<div class='cell store-sku'>商品编号：{e(b.sku)}</div>"
        "<a class='buy-btn' href='/store/'>购买</a></li>"
        f"{vendors}</ul></div></div>"
        "<div class='gray_ad version_works'><h2><span>这本书的其他版本</span> · · · · · ·</h2>"
        f"<ul>{editions}</ul></div></div></div></div></div>",
    )


# --------------------------------------------------------------------------------------------
# Spare held-out batch 19: written without reading the learner's code, copying the page shapes
# of a Canadian bookseller on Salesforce Commerce Cloud, a Hungarian bookshop, a Latin American
# marketplace and a Vietnamese marketplace built with Next.js.


def _cad_dollars(price: str) -> float:
    """A "$24.99" price as a number."""
    return float(price.lstrip("$"))


INDIGO_ROLES = ["illustrated by", "translated by", "edited by", "read by"]
INDIGO_REVIEWS = ["Couldn't put it down.", "Beautiful edition, great gift.", "Slow start but worth it."]


def indigo_product(b: Book) -> str:
    """A Canadian bookseller's product page on Salesforce Commerce Cloud (Indigo's shape): a
    ``dataLayer`` push with the title, ISBN, price and brand first, the ``pid`` hidden input and
    a ``d-none`` sticky add-to-cart bar with the title and price; breadcrumbs "Home > Books >
    Fiction > Literary Fiction"; the h1, then one "by A, B and C" line whose illustrators/
    translators/editors/narrators follow in the same link shape after "; illustrated by";
    prices as ``.value`` spans with a ``content`` attribute, on sale pages a struck list price
    before it (screen-reader "Price reduced from ... to") and "Save N%"; a member ("plum PLUS")
    price and points; format tiles with every binding's price; "Details & Specs" as an open
    accordion whose items are "Label: value" in one text node ("ISBN - 13:978..." without a
    space, an ISBN-10 look-alike, "Item #: BK-10..."); "About the book" with the first
    edition's date in the same format; PowerReviews with names and dates; "Customers also
    bought" tiles with titles, "by" authors and prices."""
    r = random.Random(b.isbn + "indigo")
    on_sale = _on_sale(b)
    amount = _cad_dollars(b.price)
    list_amount = _cad_dollars(b.list_price)
    layer = json.dumps(
        {"event": "productDetailView", "ecommerce": {"currencyCode": "CAD", "detail": {"products": [
            {"name": b.title, "id": b.isbn, "price": f"{amount:.2f}", "brand": b.publisher,
             "category": "Books/Fiction/Literary Fiction", "variant": b.binding}]}}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role = r.choice(INDIGO_ROLES)

    def links(names: list[str]) -> str:
        tags = [
            f"<a class='link contributor-link' href='/en-ca/search?q={e(n.replace(' ', '+'))}'>{e(n)}</a>"
            for n in names
        ]
        return tags[0] if len(tags) == 1 else f"{', '.join(tags[:-1])} and {tags[-1]}"

    byline = f"by {links(b.authors)}" + (f"; {role} {links(helpers)}" if helpers else "")
    pct = round(100 * (1 - amount / list_amount))
    plum = amount * 0.9
    specs = [f"Title: {b.title}", f"Format: {b.binding}",
             f"Product dimensions: {b.pages} pages, 8.25 X 5.5 X {r.randint(5, 20) / 10} in",
             f"Shipping dimensions: {b.pages} pages, 8.25 X 5.5 X {r.randint(5, 20) / 10} in",
             f"Published: {b.published}", f"Publisher: {b.publisher}", "Language: English"]  # fmt: skip
    if b.edition:
        specs.append(f"Edition: {b.edition}")
    if b.series:
        specs.append(f"Series: {b.series}")
    if r.random() < 0.5:
        specs.append(f"Appropriate for ages: {r.choice(['14 - 18', '18 and up'])}")
    specs += [f"ISBN - 10:{_isbn10(b.isbn)}", f"ISBN - 13:{b.isbn}", f"Item #: {b.sku}"]
    spec_html = "".join(f"<li>{e(x)}</li>" for x in specs)
    formats = ""
    for k, x in enumerate([*BINDINGS, "eBook"]):
        ebook = f"${amount * 0.6:.2f}"
        price = b.price if x == b.binding else (ebook if x == "eBook" else _other_price(b, k))
        selected = x == b.binding
        formats += (
            f"<button class='format-tile{' format-tile--selected' if selected else ''}' "
            f"data-format='{e(x.lower().replace(' ', '-'))}' "
            f"aria-pressed='{'true' if selected else 'false'}'>"
            f"<span class='format-tile__name'>{e(x)}</span>"
            f"<span class='format-tile__price'>{e(price)}</span></button>"
        )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<section class='pr-review'><div class='pr-rd-star-rating'>"
            f"<span class='pr-rd-rating-decimal'>{r.randint(3, 5)}.0</span></div>"
            f"<h3 class='pr-rd-review-headline'>{INDIGO_REVIEWS[i]}</h3>"
            "<div class='pr-rd-author-nickname'><span class='pr-rd-bold'>By</span> "
            f"<span>{e(who)}</span></div>"
            f"<div class='pr-rd-author-submission-date'><time>{us_numeric(*_review_day(r))}</time></div>"
            "</section>"
        )
    tiles = "".join(
        f"<div class='product-tile' data-pid='{b.isbn[:-3]}{i:03d}'><div class='tile-body'>"
        f"<div class='pdp-link'><a class='link' href='/en-ca/r{i}.html'>{e(t)}</a></div>"
        f"<div class='tile-contributor'>by {e(a)}</div>"
        f"<div class='price'><span class='sales'><span class='value'>{e(p)}</span></span></div>"
        "</div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Indigo",
        f"<script>window.dataLayer = window.dataLayer || []; window.dataLayer.push({layer});</script>"
        f"<input type='hidden' name='pid' value='{b.isbn}'>"
        f"<div class='sticky-add-to-cart d-none'><span class='sticky-add-to-cart__name'>{e(b.title)}</span>"
        f"<span class='sticky-add-to-cart__price'>{e(b.price)}</span><button>Add to Bag</button></div>"
        "<div class='promo-banner'>Free shipping on orders over $35</div>"
        "<nav aria-label='Breadcrumb'><ol class='breadcrumb'>"
        "<li class='breadcrumb-item'><a href='/en-ca/'>Home</a></li>"
        "<li class='breadcrumb-item'><a href='/en-ca/books/'>Books</a></li>"
        "<li class='breadcrumb-item'><a href='/en-ca/books/fiction/'>Fiction</a></li>"
        "<li class='breadcrumb-item'><a href='/en-ca/books/fiction/literary/'>Literary Fiction</a></li>"
        "</ol></nav>"
        f"<div class='container product-detail product-wrapper' data-pid='{b.isbn}'><div class='row'>"
        "<div class='col-12 col-md-6 primary-images'>"
        f"<img class='d-block img-fluid' src='/dw/image/v2/BBJK_PRD/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='col-12 col-md-6 product-details'>"
        f"<h1 class='product-name'>{e(b.title)}</h1>"
        f"<div class='product-contributors'>{byline}</div>"
        "<div class='ratings'>"
        f"<span class='pr-snippet-rating-decimal'>{r.randint(35, 50) / 10}</span> "
        f"<a class='pr-snippet-review-count' href='#reviews'>{reviews.count('pr-review')} Reviews</a></div>"
        "<div class='prices'><div class='price'>"
        + (
            "<span class='strike-through list'><span class='sr-only'>Price reduced from</span>"
            f"<del><span class='value' content='{list_amount:.2f}'>{e(b.list_price)}</span></del></span> "
            "<span class='sr-only'>to</span>"
            if on_sale
            else ""
        )
        + f"<span class='sales'><span class='value' content='{amount:.2f}'>{e(b.price)}</span></span>"
        + (f" <span class='badge badge-save'>Save {pct}%</span>" if on_sale else "")
        + "</div>"
        f"<div class='plum-plus-price'>plum<sup>PLUS</sup> price <strong>${plum:.2f}</strong></div>"
        f"<p class='plum-points'>Earn {round(amount * 10)} plum points</p></div>"
        f"<div class='product-formats'><span class='label'>Format</span>{formats}</div>"
        "<div class='availability'><p class='ship-to-home'>Ship to Home: In stock online</p>"
        "<p class='pick-up'>Pick Up In Store: check store availability</p></div>"
        "<button class='add-to-cart btn btn-primary'>Add to Bag</button>"
        "<button class='add-to-wish-list btn btn-link'>Add to Wish List</button></div></div>"
        "<div class='product-accordion'><div class='card'>"
        "<button class='card-header' aria-expanded='true' aria-controls='about-book'>About the book</button>"
        "<div id='about-book' class='card-body collapse show'>"
        f"<p>Originally published {e(b.first_published)}, this beloved novel returns in a new "
        f"{e(b.binding.lower())} edition from {e(b.publisher)}.</p></div></div>"
        "<div class='card'>"
        "<button class='card-header' aria-expanded='true' aria-controls='specs'>Details &amp; Specs</button>"
        f"<div id='specs' class='card-body collapse show'><ul class='details-specs'>{spec_html}</ul>"
        "</div></div>"
        "<div class='card'><button class='card-header' aria-expanded='true'>About the author</button>"
        f"<div class='card-body collapse show'><p>{e(b.authors[0])} lives in {r.choice(CITIES)}.</p>"
        "</div></div></div>"
        f"<div id='reviews' class='pr-review-display'><h2>Reviews</h2>{reviews}</div>"
        "<div class='recommendations'><h2>Customers also bought</h2>"
        f"<div class='product-carousel'>{tiles}</div></div></div>",
    )


HONAPOK = ["január", "február", "március", "április", "május", "június", "július", "augusztus",
           "szeptember", "október", "november", "december"]  # fmt: skip
LIBRI_ROLES = [("Fordító", "ford."), ("Illusztrátor", "ill."), ("Szerkesztő", "szerk.")]
LIBRI_REVIEWS = ["Nagyon tetszett, ajánlom!", "Gyors szállítás, szép kiadás.", "Kicsit lassan indul."]


def hu_date(y: int, m: int, d: int) -> str:
    return f"{y}. {HONAPOK[m - 1]} {d}."


def _forints(price: str) -> int:
    """A "4 990 Ft" price as a number."""
    return int(price[:-3].replace(" ", ""))


def _ft(amount: float) -> str:
    return f"{round(amount / 10) * 10:,} Ft".replace(",", " ")


def libri_product(b: Book) -> str:
    """A Hungarian bookshop's product page for an imported book (Libri's shape): JSON-LD and a
    ``gtag`` ``view_item`` event first; breadcrumbs "Főoldal > Könyv > Idegen nyelvű könyvek >
    Angol > Szépirodalom"; the h1 and a "Idegen nyelvű" tag; an author line of links where
    translators/illustrators/editors use the same link followed by "(ford.)"-style roles;
    "Bolti ár:" struck and "Online ár:" with "4 990 Ft" prices (a space as thousands
    separator), "-N%", loyalty points and a free-delivery threshold in forints; "Fülszöveg"
    with the first edition's date in the same "2020. március 5." format; "Termékadatok" as a
    three-column table whose group header cells span their rows (``rowspan``) and whose
    "Szerző" role cell spans one row per author, beside "Fordító"-style rows for the others;
    reviews with names and dates; "Akik ezt megvették" cards with titles, authors, prices."""
    r = random.Random(b.isbn + "libri")
    on_sale = _on_sale(b)
    amount = _forints(b.price)
    list_amount = _forints(b.list_price)
    jsonld = json.dumps(
        {"@context": "https://schema.org", "@type": "Book", "name": b.title, "isbn": b.isbn,
         "author": [{"@type": "Person", "name": n} for n in b.authors],
         "publisher": {"@type": "Organization", "name": b.publisher}, "bookFormat": b.binding,
         "offers": {"@type": "Offer", "price": amount, "priceCurrency": "HUF"}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    gtag = json.dumps(
        {"items": [{"item_id": b.sku, "item_name": b.title, "price": amount, "item_brand": b.publisher}]},
        ensure_ascii=False,
    ).replace("</", "<\\/")
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role, role_short = r.choice(LIBRI_ROLES)

    def author_link(n: str) -> str:
        slug = n.lower().replace(" ", "-").replace(".", "")
        return f"<a class='author' href='/szerzok/{e(slug)}.html'>{e(n)}</a>"

    line = ", ".join(author_link(n) for n in b.authors)
    if helpers:
        line += ", " + ", ".join(
            f"{author_link(n)} <span class='role'>({role_short})</span>" for n in helpers
        )
    # (group, [(role label, [values])]) -> rows; a role with several values spans their rows.
    groups: list[tuple[str, list[tuple[str, list[str]]]]] = [
        ("Közreműködők", [("Szerző", b.authors)] + ([(role, helpers)] if helpers else [])),
        ("Kiadási adatok", [("Kiadó", [b.publisher]), ("Megjelenés", [b.published]),
                    ("Eredeti megjelenés", [b.first_published])]
         + ([("Sorozat", [b.series])] if b.series else [])
         + ([("Kiadás", [b.edition])] if b.edition else [])),
        ("Kivitel", [("Kötés", [b.binding]), ("Oldalszám", [f"{b.pages} oldal"]), ("Nyelv", ["angol"]),
                     ("Méret", [f"{r.choice([129, 135, 152])} mm x {r.choice([198, 210, 229])} mm"])]),
        ("Azonosítók", [("ISBN", [b.isbn]), ("Cikkszám", [b.sku])]),
    ]  # fmt: skip
    table = ""
    for group, roles in groups:
        span = sum(len(values) for _, values in roles)
        first_in_group = True
        for label, values in roles:
            for i, value in enumerate(values):
                row = ""
                if first_in_group:
                    row += f"<th class='group' rowspan='{span}' scope='rowgroup'>{e(group)}</th>"
                    first_in_group = False
                if i == 0:
                    rowspan = f" rowspan='{len(values)}'" if len(values) > 1 else ""
                    row += f"<td class='label'{rowspan}>{e(label)}</td>"
                row += f"<td class='value'>{e(value)}</td>"
                table += f"<tr>{row}</tr>"
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<div class='review'><div class='review-head'>"
            f"<span class='review-name'>{e(who)}</span> "
            f"<span class='review-date'>{hu_date(*_review_day(r))}</span>"
            f"<span class='review-stars' title='{r.randint(3, 5)}/5'></span></div>"
            f"<p class='review-text'>{LIBRI_REVIEWS[i]}</p></div>"
        )
    cards = "".join(
        f"<div class='book-card'><a class='book-card-title' href='/konyv/r{i}.html'>{e(t)}</a>"
        f"<div class='book-card-author'>{e(a)}</div>"
        f"<div class='book-card-price'><span class='price'>{e(p)}</span></div>"
        "<button class='btn-cart'>Kosárba</button></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    pct = round(100 * (1 - amount / list_amount))
    return _page(
        "Libri",
        f"<script type='application/ld+json'>{jsonld}</script>"
        f"<script>gtag('event', 'view_item', {gtag});</script>"
        "<div class='breadcrumbs'><a href='/'>Főoldal</a> › <a href='/konyv/'>Könyv</a> › "
        "<a href='/konyv/idegen-nyelvu/'>Idegen nyelvű könyvek</a> › "
        "<a href='/konyv/idegen-nyelvu/angol/'>Angol</a> › "
        "<a href='/konyv/idegen-nyelvu/angol/szepirodalom/'>Szépirodalom</a></div>"
        "<div class='product-page'><div class='product-image'>"
        f"<img src='/images/termek/{b.isbn}.jpg' alt='{e(b.title)} - borító'></div>"
        "<div class='product-main'>"
        f"<h1 class='product-title'>{e(b.title)}</h1><span class='product-tag'>Idegen nyelvű</span>"
        f"<div class='product-authors'>{line}</div>"
        f"<div class='product-rating'><span class='stars'>{r.randint(35, 50) / 10}</span> "
        f"<span class='count'>({reviews.count('review-name')} értékelés)</span></div>"
        "<div class='price-box'>"
        + (
            "<div class='price-row price-row--store'><span class='price-label'>Bolti ár:</span> "
            "<span class='price price--old' style='text-decoration:line-through'>"
            f"{e(b.list_price)}</span></div>"
            if on_sale
            else ""
        )
        + "<div class='price-row price-row--online'><span class='price-label'>Online ár:</span> "
        f"<span class='price price--actual'>{e(b.price)}</span>"
        + (f" <span class='discount-badge'>-{pct}%</span>" if on_sale else "")
        + "</div>"
        f"<div class='loyalty'>Törzsvásárlóként: <b>{round(amount / 10)} pont</b></div>"
        "<p class='shipping-note'>Ingyenes kiszállítás 9 990 Ft feletti rendelés esetén</p></div>"
        "<div class='availability'>Raktáron, szállítás: 1-3 munkanap</div>"
        "<button class='btn btn-primary add-to-cart'>Kosárba</button>"
        "<button class='btn btn-secondary wishlist'>Kívánságlistára</button></div></div>"
        "<section class='product-description'><h2>Fülszöveg</h2>"
        f"<p>A regény először {e(b.first_published)} jelent meg, most angol nyelvű, "
        f"{b.pages} oldalas kiadásban kapható.</p></section>"
        "<section class='product-data'><h2>Termékadatok</h2>"
        f"<table class='product-data-table'><tbody>{table}</tbody></table></section>"
        f"<section class='reviews'><h2>Vélemények</h2>{reviews}</section>"
        "<section class='cross-sell'><h2>Akik ezt megvették, ezeket is vásárolták</h2>"
        f"<div class='book-carousel'>{cards}</div></section>",
    )


MESES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
         "octubre", "noviembre", "diciembre"]  # fmt: skip
ML_SELLERS = ["LIBRERIAPALERMO", "EL ATENEO DIGITAL", "LIBROSIMPORTADOS_BA", "CUSPIDE LIBROS"]
ML_REVIEWS = ["Excelente, llegó en perfecto estado.", "Muy buena edición.", "Tal cual la descripción."]


def es_date(y: int, m: int, d: int) -> str:
    return f"{d} de {MESES[m - 1]} de {y}"


def _pesos(price: str) -> int:
    """A "$ 24.990" price as a number."""
    return int(price[2:].replace(".", ""))


def _andes_money(amount: int, extra: str = "", label: str = "") -> str:
    """An amount drawn the andes design system's way: a ``role=img`` span whose ``aria-label``
    says "24990 pesos" around ``aria-hidden`` symbol and fraction spans ("$ 24.990")."""
    tag = "s" if "previous" in extra else "span"
    fraction = f"{amount:,}".replace(",", ".")
    return (
        f"<{tag} class='andes-money-amount {extra}' role='img' aria-label='{label}{amount} pesos' "
        "aria-roledescription='Precio'>"
        "<span class='andes-money-amount__currency-symbol' aria-hidden='true'>$</span> "
        f"<span class='andes-money-amount__fraction' aria-hidden='true'>{fraction}</span></{tag}>"
    )


def mercadolibre_item(b: Book) -> str:
    """An Argentine marketplace listing of an imported book (Mercado Libre's shape): the
    ``__PRELOADED_STATE__`` script with title, GTIN and price first; "Volver al listado" and
    category crumbs; "Nuevo | +N vendidos"; an h1 that is the seller's listing title "Libro
    <title> - <authors> - <publisher>"; prices as ``role=img`` spans with an ``aria-label``
    ("24990 pesos") around ``aria-hidden`` "$" and "24.990" spans, on sale pages a struck
    previous price first and "N% OFF", installments "en 6 cuotas de $ N"; the seller box;
    "Características del producto" as andes tables (Título del libro, Autor with all names in
    one ", " text, Traductor/Ilustrador the same way, Editorial del libro, "Tapa del libro:
    Blanda/Dura" in Spanish, Año de publicación); the seller's plain-text description of
    "Label: value" lines split by <br> (Formato, Fecha de publicación in "5 de marzo de 2020",
    Primera edición in the same format, SKU); questions mentioning other bindings; opinions;
    related polycards with titles, authors and prices."""
    r = random.Random(b.isbn + "mercadolibre")
    on_sale = _on_sale(b)
    amount = _pesos(b.price)
    list_amount = _pesos(b.list_price)
    item_id = f"MLA{1300000000 + int(b.isbn[-8:])}"
    state = json.dumps(
        {"initialState": {"id": item_id, "components": {"header": {"title": f"Libro {b.title}"},
         "price": {"price": {"value": amount, "currency_id": "ARS"}},
         "attributes": [{"id": "GTIN", "value_name": b.isbn}, {"id": "BOOK_TITLE", "value_name": b.title}]}}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.35 else []
    role, role_desc = r.choice([("Traductor", "Traducción"), ("Ilustrador", "Ilustraciones")])
    seller = r.choice(ML_SELLERS)
    cover = "Dura" if b.binding == "Hardcover" else "Blanda"
    year = b.published[-4:]
    listing = f"Libro {b.title} - {' - '.join(b.authors)} - {b.publisher}"

    def spec_table(rows: list[tuple[str, str]]) -> str:
        body = "".join(
            "<tr class='andes-table__row ui-vpp-striped-specs__row'>"
            "<th class='andes-table__header andes-table__header--left ui-vpp-striped-specs__row__column "
            f"ui-vpp-striped-specs__row__column--id' scope='row'><div class='andes-table__header__container'>"
            f"{e(k)}</div></th><td class='andes-table__column andes-table__column--left "
            "ui-vpp-striped-specs__row__column'>"
            f"<span class='andes-table__column--value'>{e(v)}</span></td></tr>"
            for k, v in rows
        )
        return f"<table class='andes-table'><tbody class='andes-table__body'>{body}</tbody></table>"

    main_rows = [("Título del libro", b.title), ("Autor", ", ".join(b.authors))]
    if helpers:
        main_rows.append((role, ", ".join(helpers)))
    main_rows += [("Idioma", "Inglés"), ("Editorial del libro", b.publisher), ("Tapa del libro", cover)]
    other_rows = [("Género del libro", "Literatura y ficción"), ("Año de publicación", year),
                  ("Cantidad de páginas", str(b.pages)), ("ISBN", b.isbn)]  # fmt: skip
    if b.series:
        other_rows.append(("Colección del libro", b.series))
    if b.edition:
        other_rows.append(("Edición del libro", b.edition))
    lines = ["LIBRO NUEVO - ORIGINAL - IMPORTADO", "", f"Título: {b.title}",
             f"Autor{'es' if len(b.authors) > 1 else ''}: {' / '.join(b.authors)}"]  # fmt: skip
    if helpers:
        lines.append(f"{role_desc}: {' / '.join(helpers)}")
    lines += [f"Editorial: {b.publisher}", f"Formato: {b.binding}", f"Fecha de publicación: {b.published}",
              f"Primera edición: {b.first_published}", f"Páginas: {b.pages}", "Idioma: Inglés",
              f"ISBN: {b.isbn}", f"SKU: {b.sku}", "",
              "Envíos a todo el país. Facturamos A y B. Retiro sin cargo por nuestro local."]  # fmt: skip
    description = "<br>".join(e(x) for x in lines)
    others = [x for x in BINDINGS if x != b.binding]
    questions = ""
    for other in r.sample(others, r.randint(1, 2)):
        questions += (
            "<div class='ui-pdp-qadb__questions-list__question'>"
            f"<span class='ui-pdp-color--BLACK'>Hola, ¿tienen la edición {e(other)}?</span>"
            f"<div class='ui-pdp-qadb__questions-list__answer'>Hola! Por el momento solo la edición "
            f"{e(b.binding)}. Saludos, {e(seller)} <span class='ui-pdp-color--GRAY'>"
            f"{slash_dmy(*_review_day(r))}</span></div></div>"
        )
    opinions = "".join(
        "<article class='ui-review-capability-comments__comment'>"
        "<div class='ui-review-capability-comments__comment__rating' "
        f"aria-label='Calificación {r.randint(3, 5)} de 5'></div>"
        f"<span class='ui-review-capability-comments__comment__date'>{slash_dmy(*_review_day(r))}</span>"
        f"<p class='ui-review-capability-comments__comment__content'>{ML_REVIEWS[i]}</p></article>"
        for i in range(r.randint(1, 3))
    )
    cards = "".join(
        "<div class='poly-card poly-card--grid-card'><div class='poly-card__content'>"
        f"<h3 class='poly-component__title-wrapper'><a class='poly-component__title' "
        f"href='https://articulo.mercadolibre.example/MLA-{i}'>Libro {e(t)} - {e(a)}</a></h3>"
        f"<div class='poly-component__price'>{_andes_money(_pesos(p))}</div>"
        "<div class='poly-component__shipping'>Envío gratis</div></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    n_cuotas = r.choice([3, 6])
    pct = round(100 * (1 - amount / list_amount))
    return _page(
        "Mercado Libre",
        f"<script id='__PRELOADED_STATE__' type='application/json'>{state}</script>"
        f"<meta name='twitter:title' content='{e(listing)}'>"
        "<div class='nav-menu'><ul class='nav-menu-list'><li><a href='/categorias'>Categorías</a></li>"
        "<li><a href='/ofertas'>Ofertas</a></li><li><a href='/historial'>Historial</a></li>"
        "<li><a href='/vender'>Vender</a></li><li><a href='/ayuda'>Ayuda</a></li></ul></div>"
        "<div class='ui-pdp-container ui-pdp-container--pdp'>"
        "<div class='ui-pdp-breadcrumb'>"
        "<a class='andes-breadcrumb__link' href='/listado'>Volver al listado</a>"
        "<ol class='andes-breadcrumb'><li class='andes-breadcrumb__item'>"
        "<a class='andes-breadcrumb__link' href='/libros-revistas-comics'>Libros, Revistas y Comics</a></li>"
        "<li class='andes-breadcrumb__item'><a class='andes-breadcrumb__link' href='/libros'>Libros</a></li>"
        "<li class='andes-breadcrumb__item'><a class='andes-breadcrumb__link' href='/libros/literatura'>"
        "Literatura y Ficción</a></li></ol></div>"
        "<div class='ui-pdp-container__row'><div class='ui-pdp-gallery'>"
        f"<img class='ui-pdp-image ui-pdp-gallery__figure__image' src='https://http2.mlstatic.example/"
        f"D_NQ_NP_{b.isbn}-O.webp' alt='{e(listing)}'></div>"
        "<div class='ui-pdp-container__col col-2 ui-pdp--relative'>"
        "<div class='ui-pdp-header'><div class='ui-pdp-header__subtitle'>"
        f"<span class='ui-pdp-subtitle'>Nuevo  |  +{r.choice([5, 25, 50, 100])} vendidos</span></div>"
        f"<h1 class='ui-pdp-title'>{e(listing)}</h1>"
        "<a class='ui-pdp-review__label' href='#reviews'>"
        f"<span class='ui-pdp-review__rating' aria-hidden='true'>{r.randint(40, 50) / 10}</span>"
        f"<span class='ui-pdp-review__amount' aria-hidden='true'>({r.randint(1, 80)})</span></a></div>"
        "<div class='ui-pdp-price'>"
        + (
            "<div class='ui-pdp-price__original-value'>"
            f"{_andes_money(list_amount, 'andes-money-amount--previous', 'Antes: ')}</div>"
            if on_sale
            else ""
        )
        + "<div class='ui-pdp-price__second-line'>"
        + _andes_money(amount, "andes-money-amount--cents-superscript", "Ahora: " if on_sale else "")
        + (f"<span class='andes-money-amount__discount'>{pct}% OFF</span>" if on_sale else "")
        + "</div><div class='ui-pdp-price__subtitles'><p class='ui-pdp-family--REGULAR'>"
        f"Mismo precio en {n_cuotas} cuotas de {_andes_money(round(amount / n_cuotas))}</p></div></div>"
        "<div class='ui-pdp-media ui-pdp-shipping'>"
        "<p class='ui-pdp-color--GREEN'>Envío gratis a todo el país</p>"
        "<p class='ui-pdp-media__text'>Conocé los tiempos y las formas de envío.</p></div>"
        "<div class='ui-pdp-stock-information'>"
        "<p class='ui-pdp-stock-information__title'>Stock disponible</p>"
        f"<span class='ui-pdp-buybox__quantity__available'>(+{r.randint(2, 50)} disponibles)</span></div>"
        "<div class='ui-pdp-actions'><button class='andes-button andes-button--loud'>Comprar ahora</button>"
        "<button class='andes-button andes-button--quiet'>Agregar al carrito</button></div>"
        f"<div class='ui-pdp-seller'><p>Vendido por <a class='ui-pdp-seller__link-trigger' href='/perfil/"
        f"{e(seller.replace(' ', '+'))}'>{e(seller)}</a></p>"
        f"<p class='ui-pdp-seller__sales-description'>+{r.choice([500, 1000, 5000])} ventas</p></div>"
        "</div></div>"
        "<div class='ui-pdp-container__row ui-vpp-highlighted-specs'>"
        "<h2 class='ui-vpp-highlighted-specs__title'>Características del producto</h2>"
        "<div class='ui-vpp-striped-specs'>"
        "<h3 class='ui-vpp-striped-specs__header'>Características principales</h3>"
        f"{spec_table(main_rows)}<h3 class='ui-vpp-striped-specs__header'>Otros</h3>"
        f"{spec_table(other_rows)}</div></div>"
        "<div class='ui-pdp-description'><h2 class='ui-pdp-description__title'>Descripción</h2>"
        f"<p class='ui-pdp-description__content'>{description}</p></div>"
        "<div class='ui-pdp-qadb'><h2>Preguntas y respuestas</h2>"
        f"<div class='ui-pdp-qadb__questions-list'>{questions}</div></div>"
        "<div id='reviews' class='ui-review-capability'><h2>Opiniones del producto</h2>"
        f"{opinions}</div>"
        "<div class='ui-recommendations-carousel'><h2 class='ui-recommendations-title'>"
        f"Productos relacionados</h2><div class='andes-carousel-snapped'>{cards}</div></div></div>",
    )


TIKI_ISSUERS = ["Tiki Trading", "Fahasa", "Phương Nam Book", "Nhã Nam"]
TIKI_REVIEWS = ["Sách đẹp, giao hàng nhanh.", "Giấy tốt, đóng gói cẩn thận.", "Nội dung hay, đáng mua."]


def _dong(price: str) -> int:
    """A "189.000₫" price as a number."""
    return int(price.rstrip("₫").replace(".", ""))


def _vnd(amount: float) -> str:
    return f"{round(amount / 1000) * 1000:,}".replace(",", ".")


def _sc(component: str, i: int = 0) -> str:
    """A styled-components class pair as a Next.js build emits it: "Name-sc-hash-i HASH"."""
    h = hashlib.md5(component.encode()).hexdigest()
    state = "".join(chr(ord("a") + int(c, 16) % 26) for c in h[8:14])
    return f"{component}-sc-{h[:6]}-{i} {state[:3]}{state[3:].upper()}"


def tiki_product(b: Book) -> str:
    """A Vietnamese marketplace's book page, a Next.js app with styled-components classes
    (Tiki's shape): the ``__NEXT_DATA__`` JSON with title, ISBN, SKU and prices first, then a
    ``data-styled`` style rule hiding (by its hashed class only) a sticky header holding the
    title and price; breadcrumbs ending in the title; "Tác giả:" followed by author links, and
    on some pages a "Dịch giả:"/"Minh họa:" line of the same shape; the h1; rating, review
    count and "Đã bán 1k+"; the price "189.000₫" with the ₫ in a <sup>, on sale pages "-N%"
    and the struck original; coupons and the delivery address; "Thông tin chi tiết" as a
    grid of label/value spans with hashed classes ("Công ty phát hành" naming a distributor
    beside "Nhà xuất bản", "Ngày xuất bản" in d/m/Y, "Loại bìa", "SKU"); "Mô tả sản phẩm" with
    the first edition's date in the same format and Tiki's tax boilerplate; reviews with
    names and dates; "Sản phẩm tương tự" cards with titles, authors and prices."""
    r = random.Random(b.isbn + "tiki")
    on_sale = _on_sale(b)
    amount = _dong(b.price)
    list_amount = _dong(b.list_price)
    product_id = 100000000 + int(b.isbn[-8:])
    attributes = [{"code": "isbn13", "value": b.isbn}, {"code": "publisher_vn", "value": b.publisher}]
    data = json.dumps(
        {"props": {"pageProps": {"product": {"id": product_id, "sku": b.sku, "name": b.title,
         "price": amount, "list_price": list_amount, "authors": [{"name": n} for n in b.authors],
         "specifications": [{"name": "Content", "attributes": attributes}]}}},
         "page": "/[slug]", "buildId": "k3lQ9x"},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role, role_row = r.choice([("Dịch giả", "Dịch Giả"), ("Minh họa", "Minh Họa")])
    issuer = r.choice(TIKI_ISSUERS)
    sticky = _sc("StickyHeader__Wrapper")
    hidden_class = sticky.split()[1]

    def people(label: str, names: list[str]) -> str:
        links = ", ".join(
            f"<a href='/author/{e(n.lower().replace(' ', '-').replace('.', ''))}'>{e(n)}</a>" for n in names
        )
        return f"<div class='{_sc('BrandAuthor__Row')}'><span>{label}: </span>{links}</div>"

    def dong(value: int, cls: str) -> str:
        return f"<div class='{cls}'>{_vnd(value)}<sup>₫</sup></div>"

    rows = [("Công ty phát hành", issuer), ("Ngày xuất bản", b.published),
            ("Kích thước", f"{r.choice([13, 14, 15])} x {r.choice([20, 21, 23])} cm")]  # fmt: skip
    if helpers:
        rows.append((role_row, ", ".join(helpers)))
    rows += [("Loại bìa", b.binding), ("Số trang", str(b.pages)), ("Nhà xuất bản", b.publisher)]
    if b.series:
        rows.append(("Bộ sách", b.series))
    if b.edition:
        rows.append(("Phiên bản", b.edition))
    rows += [("ISBN-13", b.isbn), ("SKU", b.sku)]
    grid = "".join(
        f"<div class='{_sc('WidgetContent__Row', 1)}'>"
        f"<span class='{_sc('WidgetContent__Key', 2)}'>{e(k)}</span>"
        f"<span class='{_sc('WidgetContent__Value', 3)}'>{e(v)}</span></div>"
        for k, v in rows
    )
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            f"<div class='{_sc('Review__Item')}'><div class='{_sc('Review__User')}'>"
            f"<div class='{_sc('Review__UserName', 1)}'>{e(who)}</div>"
            f"<div class='{_sc('Review__Joined', 2)}'>Đã tham gia {r.randint(1, 6)} năm</div></div>"
            f"<div class='{_sc('Review__Body', 3)}'>"
            f"<div class='review-comment__rating'>{r.randint(3, 5)}/5</div>"
            f"<div class='review-comment__content'>{TIKI_REVIEWS[i]}</div>"
            "<div class='review-comment__created-date'>"
            f"<span>Đánh giá vào {slash_dmy(*_review_day(r))}</span>"
            "</div><div class='review-comment__seller-name'>Đã mua hàng</div></div></div>"
        )
    cards = "".join(
        f"<a class='{_sc('ProductItem__Wrapper')}' href='/p{product_id + i + 1}.html'>"
        f"<div class='{_sc('ProductItem__Name', 1)}'><h3>{e(t)}</h3></div>"
        f"<div class='{_sc('ProductItem__Author', 2)}'>{e(a)}</div>"
        f"<div class='price-discount__price'>{_vnd(_dong(p))}<sup>₫</sup></div></a>"
        for i, (t, a, p) in enumerate(b.related)
    )
    pct = round(100 * (1 - amount / list_amount))
    sold = r.choice(["Đã bán 57", "Đã bán 312", "Đã bán 1k+", "Đã bán 5k+"])
    return _page(
        "Tiki",
        f"<script id='__NEXT_DATA__' type='application/json'>{data}</script>"
        f"<style data-styled='active'>.{hidden_class}{{display:none}}</style>"
        f"<div class='{sticky}'><span>{e(b.title)}</span>{dong(amount, 'sticky-price')}"
        "<button>Chọn mua</button></div>"
        f"<div class='{_sc('Breadcrumb__Wrapper')}'><a href='/'>Trang chủ</a> <span>›</span> "
        "<a href='/nha-sach-tiki/c8322'>Nhà Sách Tiki</a> <span>›</span> "
        "<a href='/sach-tieng-anh/c320'>Sách tiếng Anh</a> <span>›</span> "
        "<a href='/fiction/c9887'>Fiction</a> <span>›</span> "
        f"<span class='breadcrumb-item--active'>{e(b.title)}</span></div>"
        f"<div class='{_sc('Container__Main')}'><div class='{_sc('ProductImage__Gallery')}'>"
        f"<img src='https://salt.tikicdn.example/cache/750x750/ts/product/{b.isbn}.jpg' alt='{e(b.title)}'>"
        f"</div><div class='{_sc('ProductInfo__Wrapper')}'>"
        f"<div class='{_sc('BrandAuthor__Wrapper')}'>{people('Tác giả', b.authors)}"
        + (people(role, helpers) if helpers else "")
        + "</div>"
        f"<h1 class='{_sc('Title__Heading')}'>{e(b.title)}</h1>"
        f"<div class='{_sc('Rating__Wrapper')}'><span>{r.randint(40, 50) / 10}</span> "
        f"<a class='number' href='#reviews'>({reviews.count('Review__UserName')})</a>"
        f"<div class='quantity-sold'>{sold}</div></div>"
        f"<div class='{_sc('Price__Wrapper')} product-price'>"
        + dong(amount, "product-price__current-price")
        + (
            f"<div class='product-price__discount-rate'>-{pct}%</div>"
            f"<del class='product-price__original-price'>{_vnd(list_amount)}<sup>₫</sup></del>"
            if on_sale
            else ""
        )
        + "</div>"
        f"<div class='{_sc('Coupon__Wrapper')}'><span>Mã giảm giá</span> "
        "<span class='coupon'>Giảm 25K</span> "
        "<span class='coupon'>Giảm 10%</span></div>"
        f"<div class='{_sc('Delivery__Wrapper')}'><p>Giao đến <b>Q. 1, P. Bến Nghé, Hồ Chí Minh</b></p>"
        f"<p>Freeship 10k đơn từ 45k, Freeship 25k đơn từ 100k</p></div>"
        f"<div class='{_sc('Seller__Wrapper')}'><span class='seller-name'>Tiki Trading</span> "
        "<span class='badge'>Chính hãng</span></div>"
        "<button class='btn-add-to-cart'>Chọn mua</button></div></div>"
        f"<div class='{_sc('WidgetTitle__Wrapper')}'><h2 class='{_sc('WidgetTitle__Heading', 1)}'>"
        f"Thông tin chi tiết</h2><div class='{_sc('WidgetContent__Grid')}'>{grid}</div></div>"
        f"<div class='{_sc('Description__Wrapper')}'><h2>Mô tả sản phẩm</h2>"
        f"<div class='{_sc('Description__Content', 1)}'><p>Xuất bản lần đầu ngày {e(b.first_published)}, "
        f"ấn bản tiếng Anh gồm {b.pages} trang.</p>"
        "<p>Giá sản phẩm trên Tiki đã bao gồm thuế theo luật hiện hành. Bên cạnh đó, tuỳ vào loại sản phẩm, "
        "hình thức và địa chỉ giao hàng mà có thể phát sinh thêm chi phí khác như phí vận chuyển, "
        "phụ phí hàng cồng kềnh, thuế nhập khẩu (đối với đơn hàng giao từ nước ngoài có giá trị trên 1 "
        "triệu đồng).....</p></div></div>"
        f"<div id='reviews' class='{_sc('Reviews__Wrapper')}'><h2>Khách hàng đánh giá</h2>{reviews}</div>"
        f"<div class='{_sc('Similar__Wrapper')}'><h2>Sản phẩm tương tự</h2>"
        f"<div class='{_sc('Similar__Slider', 1)}'>{cards}</div></div>",
    )


KY_SELLERS = ["Kitapyurdu", "İthal Kitap Dünyası", "Pandora Kitabevi", "Remzi Kitabevi"]
KY_ROLES = ["Çevirmen", "Resimleyen", "Editör"]
KY_COMMENTS = ["Kağıt kalitesi çok iyi.", "Hızlı kargo, teşekkürler.", "İngilizce seviyesi orta üstü."]


def _lira(price: str) -> float:
    """A "189,50 TL" price as a number."""
    return float(price[:-3].replace(",", "."))


def _tl(amount: float) -> str:
    return f"{amount:.2f}".replace(".", ",") + " TL"


def kitapyurdu_product(b: Book) -> str:
    """A Turkish online bookshop's imported-book page (Kitapyurdu's shape): ``og:`` metas and a
    ``dataLayer`` with the title, ISBN and price first, a hidden ``product_id`` input; breadcrumbs
    "Anasayfa > Yabancı Dilde Kitaplar > İngilizce > Roman"; the h1; a "pr_producers" block where
    the publisher and every author (and on some pages a translator/illustrator) are the SAME
    ``pr_producers__manufacturer`` / ``pr_producers__link`` shape, told apart only by an icon
    class and a small role span; the price box "Liste Fiyatı" struck, "%N" badge, the shop's
    price "189,50 TL" and a "Kitapyurdu Puan" line in TL; installments "3 x 63,17 TL"; the
    other-sellers list with their own prices; "Kitap Hakkında Bilgiler" as a table whose label
    cells end in ":" ("Yayın Tarihi:" in dd.mm.yyyy, "İlk Baskı Yılı:", "Cilt Tipi:" with the
    distributor's English binding, "Stok Kodu:"); comments with names and dates; "Bu kitabı
    alanlar bunları da aldı" cards with titles, authors and prices."""
    r = random.Random(b.isbn + "kitapyurdu")
    on_sale = _on_sale(b)
    amount = _lira(b.price)
    list_amount = _lira(b.list_price) if on_sale else amount
    product_id = 500000 + int(b.isbn[-6:])
    layer = json.dumps(
        {"ecommerce": {"detail": {"products": [{"name": b.title, "id": b.isbn, "price": f"{amount:.2f}",
         "brand": b.publisher, "category": "Yabancı Dilde Kitaplar"}]}}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, 1) if r.random() < 0.35 else []
    role = r.choice(KY_ROLES)

    def producer(kind: str, name: str, label: str) -> str:
        slug = name.lower().replace(" ", "-").replace(".", "")
        return (
            "<div class='pr_producers__manufacturer'><div class='pr_producers__item'>"
            f"<i class='icon__{kind}'></i><span class='pr_producers__role'>{e(label)}</span> "
            f"<a class='pr_producers__link' href='/{kind}/{e(slug)}/{r.randint(1000, 99999)}.html'>"
            f"{e(name)}</a></div></div>"
        )

    producers = producer("yayinevi", b.publisher, "Yayınevi")
    producers += "".join(producer("yazar", n, "Yazar") for n in b.authors)
    producers += "".join(producer("cevirmen", n, role) for n in helpers)
    rows = [("Yayın Tarihi:", b.published), ("ISBN:", b.isbn), ("Dil:", "İNGİLİZCE"),
            ("Sayfa Sayısı:", str(b.pages)), ("Cilt Tipi:", b.binding),
            ("Kağıt Cinsi:", r.choice(["Kitap Kağıdı", "2. Hamur", "Enzo"])),
            ("Boyut:", f"{r.choice([13, 13.5, 15])} x {r.choice([19.5, 21])} cm")]  # fmt: skip
    if r.random() < 0.6:
        rows.insert(1, ("İlk Baskı Yılı:", b.first_published[-4:]))
    if b.series:
        rows.append(("Seri:", b.series))
    if b.edition:
        rows.append(("Baskı:", b.edition))
    rows.append(("Stok Kodu:", b.sku))
    table = "".join(f"<tr><td>{e(k)}</td><td>{e(v)}</td></tr>" for k, v in rows)
    sellers = ""
    for k, name in enumerate(r.sample(KY_SELLERS[1:], r.randint(1, 3))):
        sellers += (
            "<li class='seller-list__item'>"
            f"<span class='seller-list__name'>{e(name)}</span>"
            f"<span class='seller-list__price'>{_tl(amount * (1.04 + 0.05 * k))}</span>"
            "<button class='seller-list__button'>Sepete Ekle</button></li>"
        )
    comments = ""
    for i, who in enumerate(_others(r, b, r.randint(0, 3))):
        y, m, d = _review_day(r)
        comments += (
            "<div class='review'><div class='review__head'>"
            f"<span class='review__author'>{e(who)}</span>"
            f"<span class='review__date'>{dot_date(y, m, d)}</span></div>"
            f"<div class='review__text'>{KY_COMMENTS[i]}</div></div>"
        )
    cards = "".join(
        f"<div class='product-cr'><div class='image'><a href='/kitap/r{i}/{product_id + i + 1}.html'>"
        f"<img src='/cache/image/r{i}.jpg' alt='{e(t)}'></a></div>"
        f"<div class='name'><a href='/kitap/r{i}/{product_id + i + 1}.html'><span>{e(t)}</span></a></div>"
        f"<div class='author'><span>{e(a)}</span></div>"
        "<div class='price'><div class='price-new'>"
        f"<span class='value'>{e(p[:-3])}</span> TL</div></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    pct = round(100 * (1 - amount / list_amount))
    n_comments = comments.count("review__author")
    return _page(
        "Kitapyurdu",
        f"<meta property='og:title' content='{e(b.title)}'>"
        f"<meta property='og:url' content='https://www.kitapyurdu.example/kitap/{e(b.slug)}/{product_id}.html'>"
        f"<meta property='books:isbn' content='{b.isbn}'>"
        f"<script>dataLayer.push({layer});</script>"
        f"<input type='hidden' name='product_id' value='{product_id}'>"
        "<div class='menu'><ul><li><a href='/kitap'>Kitap</a></li>"
        "<li><a href='/yabanci'>Yabancı Dil</a></li><li><a href='/kampanya'>Kampanyalar</a></li>"
        "<li><a href='/cok-satan'>Çok Satanlar</a></li></ul></div>"
        "<div class='breadcrumb'><ul><li><a href='/'>Anasayfa</a></li>"
        "<li><a href='/yabanci-dilde-kitaplar'>Yabancı Dilde Kitaplar</a></li>"
        "<li><a href='/yabanci-dilde-kitaplar/ingilizce'>İngilizce</a></li>"
        "<li><a href='/yabanci-dilde-kitaplar/ingilizce/roman'>Roman</a></li></ul></div>"
        f"<div class='pr' id='product-{product_id}'><div class='pr_images'>"
        f"<img id='js-book-cover' src='/cache/image/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='pr_details'><div class='pr_header'>"
        f"<h1 class='pr_header__heading'>{e(b.title)}</h1>"
        "<span class='pr_header__badge'>İthal</span></div>"
        f"<div class='pr_producers'>{producers}</div>"
        "<div class='pr_rating'>"
        f"<span class='pr_rating__stars' data-rating='{r.randint(3, 5)}'></span> "
        f"<a href='#yorumlar'>{n_comments} Yorum</a> | "
        f"<span>{r.randint(10, 900)} Okunma</span></div>"
        "<div class='pr_price'>"
        + (
            "<div class='pr_price__list'><span class='pr_price__label'>Liste Fiyatı:</span> "
            f"<del class='price__item'>{e(b.list_price)}</del></div>"
            f"<div class='pr_price__discount'>%{pct}</div>"
            if on_sale
            else ""
        )
        + "<div class='pr_price__content'><span class='pr_price__label'>Kitapyurdu Fiyatı:</span> "
        f"<div class='price__item'>{e(b.price)}</div></div>"
        f"<div class='pr_price__points'>Kitapyurdu Puan: {_tl(amount * 0.01)}</div>"
        f"<div class='pr_price__installment'>Peşin fiyatına 3 x {_tl(amount / 3)} taksit</div></div>"
        "<div class='pr_stock'>Stokta var, 1-3 iş günü içinde kargoda</div>"
        "<button class='add-to-cart'>Sepete Ekle</button>"
        "<button class='add-to-favorite'>Listeme Ekle</button>"
        + (
            f"<div class='seller-list'><h3>Diğer Satıcılar</h3><ul>{sellers}</ul></div>"
            if r.random() < 0.6
            else ""
        )
        + "</div></div>"
        "<div class='pr_tabs'><ul class='pr_tabs__nav'><li class='active'><a href='#bilgi'>Kitap Hakkında "
        f"Bilgiler</a></li><li><a href='#yorumlar'>Yorumlar ({n_comments})</a></li></ul>"
        "<div id='bilgi' class='pr_tabs__content'><div class='product-info'>"
        f"<p>{e(b.title)}, ilk kez {e(b.first_published)} tarihinde yayımlanan romanın "
        f"{b.pages} sayfalık İngilizce baskısıdır.</p></div>"
        f"<div class='attributes'><table><tbody>{table}</tbody></table></div></div>"
        f"<div id='yorumlar' class='pr_tabs__content'>{comments or '<p>Henüz yorum yapılmamış.</p>'}</div>"
        "</div>"
        "<div class='pr_related'><h2>Bu kitabı alanlar bunları da aldı</h2>"
        f"<div class='product-grid'>{cards}</div></div>",
    )


VUFIND_LIBRARIES = ["Main Library", "Science Library", "Law Library"]
VUFIND_RELATORS = {"translator": "translated by", "illustrator": "illustrated by", "editor": "edited by"}
VUFIND_PLACES = {"Penguin Books": "London", "Vintage": "New York", "Harper Collins": "New York",
                 "Tor": "New York"}  # fmt: skip


def _inverted(name: str) -> str:
    """A heading form "Doe, Jane K." as a catalogue writes names."""
    first, _, last = name.rpartition(" ")
    return f"{last}, {first}"


def vufind_record(b: Book) -> str:
    """A university library catalogue's record in VuFind (Bootstrap 3 theme), opened on its
    "Staff View" tab: COinS ``Z3988`` span and a ``Book`` schema.org ``<meta>``/``<link>`` copy
    first; the search box and "Back to results" crumbs; the h1 title; a core table whose
    "Main Author"/"Other Authors" links hold inverted "Doe, Jane" headings with relator terms
    ("author.", "translator.") while the natural-order names are only in the "Statement of
    Responsibility" text ("Jane Doe, John Roe and Ana Berg ; translated by X."); "Published:
    New York : Tor, 2020."; ISBN rows "978... (Hardcover)" beside an e-book ISBN look-alike;
    tab links; the MARC staff view as a table of tag, two indicator cells and subfields each
    with a ``<strong>|a</strong>`` code (020 |q binding |c price, 245, 264 |c year, 500 note
    with the first edition's year, 365 list price); the holdings table with barcode BK-10...;
    "Similar Items" with titles, authors and years."""
    r = random.Random(b.isbn + "vufind")
    record_id = f"in{int(b.isbn[-7:]):08d}"
    place = VUFIND_PLACES[b.publisher]
    ebook_isbn = _isbn13(r)
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    relator = r.choice(sorted(VUFIND_RELATORS))
    names = b.authors[0] if len(b.authors) == 1 else f"{', '.join(b.authors[:-1])} and {b.authors[-1]}"
    statement = names + (f" ; {VUFIND_RELATORS[relator]} {', '.join(helpers)}" if helpers else "") + "."
    coins = (
        f"ctx_ver=Z39.88-2004&amp;rft.btitle={e(b.title.replace(' ', '+'))}&amp;rft.isbn={b.isbn}"
        f"&amp;rft.pub={e(b.publisher.replace(' ', '+'))}&amp;rft.date={b.published}"
    )

    def heading(name: str, role: str) -> str:
        return (
            f"<a href='/Author/Home?author={e(_inverted(name).replace(' ', '+'))}'>{e(_inverted(name))}</a>"
            f" <span class='author-data'>{role}.</span>"
        )

    other = [heading(n, "author") for n in b.authors[1:]] + [heading(n, relator) for n in helpers]
    core = [("Main Author:", heading(b.authors[0], "author"))]
    if other:
        core.append(("Other Authors:", "<br>".join(other)))
    core += [
        ("Format:", "<i class='fa fa-book'></i> Book"),
        ("Language:", "English"),
        ("Published:", f"{e(place)} : {e(b.publisher)}, {e(b.published)}."),
    ]
    if b.edition:
        core.append(("Edition:", e(b.edition.capitalize()) + "."))
    if b.series:
        core.append(("Series:", f"<a href='/Search/Results?lookfor={e(b.series)}&amp;type=Series'>"
                                f"{e(b.series)}</a>"))  # fmt: skip
    core += [
        ("Statement of Responsibility:", e(statement)),
        ("Physical Description:", f"{b.pages} pages ; {r.choice([18, 21, 24])} cm"),
        ("ISBN:", f"{b.isbn} ({e(b.binding)})<br>{ebook_isbn} (ebook)"),
    ]
    core_html = "".join(
        f"<tr><th>{label}</th><td>{value}</td></tr>" for label, value in core
    )

    def marc(tag: str, ind: str, subfields: list[tuple[str, str]]) -> str:
        subs = " ".join(f"<strong>|{code}</strong> {e(value)}" for code, value in subfields)
        return f"<tr><th>{tag}</th><th>{ind[0]}</th><th>{ind[1]}</th><td>{subs}</td></tr>"

    fields = [
        "<tr><th>LEADER</th><td colspan='3'>01234cam a2200301 i 4500</td></tr>",
        f"<tr><th>001</th><td colspan='3'>{record_id}</td></tr>",
        marc("020", "  ", [("a", b.isbn), ("q", b.binding), ("c", b.price)]),
        marc("020", "  ", [("a", ebook_isbn), ("q", "ebook")]),
        marc("100", "1 ", [("a", _inverted(b.authors[0]) + ","), ("e", "author.")]),
        marc("245", "14" if b.title.startswith("The ") else "10", [("a", b.title + " /"), ("c", statement)]),
    ]
    if b.edition:
        fields.append(marc("250", "  ", [("a", b.edition.capitalize() + ".")]))
    fields += [
        marc("264", " 1", [("a", place + " :"), ("b", b.publisher + ","), ("c", b.published + ".")]),
        marc("300", "  ", [("a", f"{b.pages} pages ;"), ("c", "21 cm")]),
        marc("365", "  ", [("a", "02"), ("b", b.list_price), ("d", "00")]),
    ]
    if b.series:
        fields.append(marc("490", "1 ", [("a", b.series)]))
    fields.append(marc("500", "  ", [("a", f"Originally published: {b.first_published}.")]))
    fields += [marc("700", "1 ", [("a", _inverted(n) + ","), ("e", "author.")]) for n in b.authors[1:]]
    fields += [marc("700", "1 ", [("a", _inverted(n) + ","), ("e", relator + ".")]) for n in helpers]
    fields.append(marc("952", "  ", [("a", "MAIN"), ("p", b.sku), ("y", "BK")]))
    holdings = ""
    for k, library in enumerate(r.sample(VUFIND_LIBRARIES, r.randint(1, 2))):
        status = r.choice(["Available", "Checked Out", "On Hold"])
        holdings += (
            f"<h3>{e(library)}</h3><table class='table table-striped holdings'>"
            "<tr><th>Call Number:</th><td>"
            f"<a href='/Alphabrowse/Home?source=lcc&amp;from=PR6{k}'>"
            f"PR60{r.randint(10, 99)}.A{r.randint(1, 9)} "
            f"{b.published[-4:]}</a></td></tr>"
            f"<tr><th>Barcode:</th><td>{e(b.sku) if k == 0 else f'BK-20{r.randint(100, 999)}'}</td></tr>"
            f"<tr><th>Status:</th><td><span class='text-{'success' if status == 'Available' else 'danger'}'>"
            f"{status}</span></td></tr></table>"
        )
    similar = "".join(
        "<li class='media'><div class='media-body'>"
        f"<a class='title' href='/Record/in{r.randint(10**7, 10**8 - 1)}'>"
        f"{e(t)}</a><div>by <a href='/Author/Home?author={e(_inverted(a))}'>{e(_inverted(a))}</a></div>"
        f"<div>Published {r.randint(1995, 2021)}</div></div></li>"
        for t, a, _ in b.related
    )
    return _page(
        "Library Catalog",
        f"<span class='Z3988' title='{coins}'></span>"
        f"<div vocab='http://schema.org/' typeof='Book' resource='#record'>"
        f"<meta property='name' content='{e(b.title)}'><meta property='isbn' content='{b.isbn}'>"
        f"<link property='url' href='/Record/{record_id}'></div>"
        "<div class='searchbox'><form action='/Search/Results'><input class='form-control' name='lookfor' "
        "placeholder='Search for...'><select name='type'><option>All Fields</option><option>Title</option>"
        "<option>Author</option></select><button>Find</button></form></div>"
        "<ul class='breadcrumb'><li><a href='/Search/Results?lookfor=fiction'>Search: fiction</a></li>"
        f"<li class='active'>{e(b.title)}</li></ul>"
        "<div class='record-nav'><a href='/Search/Results'>&laquo; Back to results</a> "
        f"<span>Result {r.randint(2, 40)} of {r.randint(41, 900)}</span> "
        "<a href='/Record/next'>Next &raquo;</a></div>"
        f"<div class='record source-Solr view-marc' id='record'><div class='media'>"
        f"<div class='media-left'><img class='recordcover' src='/Cover/Show?isbn={b.isbn}&amp;size=medium' "
        "alt='Cover Image'></div><div class='media-body'>"
        f"<h1 property='name'>{e(b.title)}</h1>"
        f"<table class='table table-striped' summary='Bibliographic Details'>{core_html}</table></div></div>"
        "<ul class='recordTabs nav nav-tabs'><li><a href='#holdings'>Holdings</a></li>"
        "<li><a href='#description'>Description</a></li><li><a href='#toc'>Table of Contents</a></li>"
        "<li class='active'><a href='#details'>Staff View</a></li></ul>"
        "<div class='tab-content'><div class='tab-pane active' id='details'>"
        f"<table class='citation table table-striped'>{''.join(fields)}</table></div></div>"
        f"<div id='holdings' class='holdings-tab'><h2>Holdings</h2>{holdings}</div></div>"
        f"<div class='sidebar'><h2>Similar Items</h2><ul class='list-unstyled'>{similar}</ul></div>",
    )


ETSY_SHOPS = ["DustyJacketBooks", "OwlAndQuillCo", "SecondChapterFinds", "ThePaperbackNook"]
ETSY_CONDITIONS = ["Like New", "Very Good", "Brand New"]
ETSY_REVIEWS = ["Arrived well packed and exactly as described!", "Lovely copy, thank you!",
                "Quick shipping, great seller."]  # fmt: skip


def etsy_listing(b: Book) -> str:
    """A marketplace listing of a book by a small seller (Etsy's shape): JSON-LD ``Product`` and
    ``og:`` metas first; category crumbs "Books, Movies & Music > Books > Fiction"; the h1 is the
    seller's long keyword title ("The Silent River by Jane Doe - Hardcover - Tor 2020 - Like
    New Book"); the price block with screen-reader "Price:" / "Original Price:" labels, the sale
    price first and the struck original after it with "(20% off)"; a "Format" variation
    ``<select>`` whose options are every binding with its own price; "Item details" highlights;
    the seller's description as ONE text node with newline-separated "Label: value" lines
    (``white-space: pre-line``), "Author(s): A, B & C", "Illustrated by"/"Translated by" lines
    in the same shape, "Published: March 5, 2020 (first published 1987)", "Shop ref: BK-10...";
    shop card, reviews with names and dates; "More from this shop" with titles, authors,
    prices."""
    r = random.Random(b.isbn + "etsy")
    on_sale = _on_sale(b)
    amount = float(b.price[3:])
    list_amount = float(b.list_price[3:])
    listing_id = 1000000000 + int(b.isbn[-9:])
    shop = r.choice(ETSY_SHOPS)
    condition = r.choice(ETSY_CONDITIONS)
    helpers = _others(r, b, 1) if r.random() < 0.35 else []
    helper_role = r.choice(["Illustrated by", "Translated by", "Edited by"])
    byline = b.authors[0] if len(b.authors) == 1 else f"{', '.join(b.authors[:-1])} & {b.authors[-1]}"
    seo = f"{b.title} by {b.authors[0]}{' et al.' if len(b.authors) > 1 else ''} - {b.binding} - " \
          f"{b.publisher} {b.published[-4:]} - {condition} Book"  # fmt: skip
    jsonld = json.dumps(
        {"@context": "https://schema.org", "@type": "Product", "name": seo, "sku": str(listing_id),
         "gtin13": b.isbn, "brand": {"@type": "Brand", "name": shop},
         "offers": {"@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "USD"}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    lines = [f"{b.title}", "", f"Author{'s' if len(b.authors) > 1 else ''}: {byline}"]
    if helpers:
        lines.append(f"{helper_role}: {helpers[0]}")
    lines += [f"Publisher: {b.publisher}", f"Published: {b.published} (first published {b.first_published})",
              f"Format: {b.binding}, {b.pages} pages", f"ISBN-13: {b.isbn}", f"ISBN-10: {_isbn10(b.isbn)}"]
    if b.series:
        lines.append(f"Series: {b.series}")
    if b.edition:
        lines.append(f"Edition: {b.edition}")
    lines += [f"Condition: {condition}. Clean pages, tight binding, no markings.", "",
              f"Shop ref: {b.sku}", "", "Ships within 1 business day in a padded mailer. "
              "Message me with any questions!"]  # fmt: skip
    description = "\n".join(lines)
    options = "<option value=''>Select an option</option>"
    for k, x in enumerate(BINDINGS):
        price = b.price if x == b.binding else _other_price(b, k)
        options += f"<option value='{1000 + k}'>{e(x)} ({e(price)})</option>"
    pct = round(100 * (1 - amount / list_amount))
    reviews = ""
    for i, who in enumerate(_others(r, b, r.randint(1, 3))):
        reviews += (
            "<div class='wt-grid__item-xs-12 review-card'>"
            "<div class='wt-display-flex-xs'>"
            f"<span class='wt-screen-reader-only'>{r.randint(4, 5)} out of 5 stars"
            f"</span><p class='wt-text-caption'><a href='/people/u{r.randint(1000, 9999)}'>{e(who)}</a> "
            f"{us_date(*_review_day(r))}</p></div>"
            f"<p class='wt-text-truncate--multi-line' id='review-preview-toggle-{i}'>"
            f"{ETSY_REVIEWS[i]}</p></div>"
        )
    cards = "".join(
        f"<li class='wt-list-unstyled'><a class='listing-link' href='/listing/{listing_id + i + 1}'>"
        f"<h3 class='wt-text-caption v2-listing-card__title'>{e(t)} by {e(a)} - Paperback</h3>"
        f"<p class='wt-text-title-01 lc-price'><span class='currency-symbol'>US$</span>"
        f"<span class='currency-value'>{e(p[3:])}</span></p></a></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Etsy",
        f"<script type='application/ld+json'>{jsonld}</script>"
        f"<meta property='og:title' content='{e(seo)}'>"
        f"<meta property='etsymarketplace:price_value' content='{amount:.2f}'>"
        "<div class='wt-tab-container'><a href='/c/gifts'>Gifts</a> <a href='/c/home'>Home Favorites</a> "
        "<a href='/c/books-movies-and-music'>Books, Movies &amp; Music</a></div>"
        f"<div class='listing-page' data-listing-id='{listing_id}'>"
        "<nav aria-label='Breadcrumb'><ol class='wt-action-group'>"
        "<li><a href='/c/books-movies-and-music'>Books, Movies &amp; Music</a></li>"
        "<li><a href='/c/books-movies-and-music/books'>Books</a></li>"
        "<li><a href='/c/books-movies-and-music/books/fiction'>Fiction</a></li></ol></nav>"
        "<div class='wt-grid'><div class='image-carousel-container'>"
        f"<img class='wt-max-width-full' src='https://i.etsystatic.example/{listing_id}/il_794xN.jpg' "
        f"alt='{e(seo)}'></div>"
        "<div class='listing-page-buy-box'>"
        + (
            f"<p class='wt-text-title-01 wt-text-brick'>Sale ends in {r.randint(2, 23)}:{r.randint(10, 59)}:"
            f"{r.randint(10, 59)}</p>"
            if on_sale
            else ""
        )
        + "<div data-buy-box-region='price'><p class='wt-text-title-larger'>"
        f"<span class='wt-screen-reader-only'>Price:</span>{e(b.price)}</p>"
        + (
            "<p class='wt-text-strikethrough'><span class='wt-screen-reader-only'>Original Price:</span>"
            f"{e(b.list_price)}</p><p class='wt-text-body-01'>({pct}% off)</p>"
            if on_sale
            else ""
        )
        + "<p class='wt-text-caption'>Local taxes included (where applicable)</p></div>"
        f"<h1 class='wt-text-body-01 wt-line-height-tight' data-buy-box-listing-title='true'>{e(seo)}</h1>"
        f"<div class='shop-name'><a href='/shop/{shop}'>{shop}</a> "
        f"<span class='wt-text-caption'>{r.randint(200, 9000):,} sales</span></div>"
        "<div data-selector='listing-page-variations'><label for='variation-selector-0' class='wt-label'>"
        f"Format</label><select id='variation-selector-0' class='wt-select__element'>{options}</select></div>"
        "<label class='wt-label' for='listing-page-quantity-select'>Quantity</label>"
        "<select id='listing-page-quantity-select'><option>1</option><option>2</option></select>"
        "<button class='wt-btn wt-btn--filled'>Add to cart</button>"
        f"<p class='wt-text-caption'>In {r.randint(2, 40)} carts</p></div></div>"
        "<div id='product-details-content-toggle'><h2>Item details</h2>"
        "<ul class='wt-block-grid'><li>Ships from a small business in United States</li>"
        f"<li>Vintage item from the {b.published[-4:-1]}0s</li><li>Material: Paper</li></ul>"
        "<p class='wt-text-body-01 wt-break-word' data-product-details-description-text-content "
        f"style='white-space: pre-line'>{e(description)}</p></div>"
        f"<div class='shop-info'><h2>Meet your seller</h2><p>{e(_people(r, 1)[0])}</p>"
        f"<p>Owner of <a href='/shop/{shop}'>{shop}</a></p><button>Message {e(shop)}</button></div>"
        f"<div id='reviews' class='reviews'><h2>Reviews for this item ({reviews.count('review-card')})</h2>"
        f"{reviews}</div>"
        "<div class='more-from-shop'><h2>More from this shop</h2>"
        f"<ul class='wt-grid'>{cards}</ul></div></div>",
    )


SQ_NOTES = ["Signed bookplate while stocks last.", "Ships in 2–3 business days.", ""]


def squarespace_product(b: Book) -> str:
    """A small press's store on Squarespace Commerce (7.1 product page): JSON-LD and ``og:`` /
    ``product:price`` metas first; the product-variants div whose ``data-variants`` JSON lists
    every binding's price; breadcrumbs "Shop / Fiction / <title>"; the h1 and the price where a
    sale shows the current price FIRST and the struck original AFTER it, each with a
    ``visually-hidden`` "Sale Price:"/"Original Price:" label; a "Format" ``<select>`` of all
    bindings with the page's one ``selected`` and repeated in the wrapper's ``data-text`` and a
    visible "Format: Hardcover" summary; the excerpt with "by" and each author in its own
    <strong> (an illustrator/translator the same way after "with"); accordion blocks of
    paragraphs "Label — value" in one text node ("Publication date — 5 March 2020", "SKU —
    BK-10..."); "You might also like" items with titles, authors and prices."""
    r = random.Random(b.isbn + "squarespace")
    on_sale = _on_sale(b)
    amount = float(b.price[1:])
    product_id = hashlib.md5(b.isbn.encode()).hexdigest()[:24]
    variants = json.dumps(
        [{"attributes": {"Format": x}, "sku": f"{b.sku}-{k}",
          "priceMoney": {"currency": "USD", "value": (b.price if x == b.binding else _other_price(b, k))[1:]}}
         for k, x in enumerate(BINDINGS)],
    )  # fmt: skip
    jsonld = json.dumps(
        {"@context": "http://schema.org", "@type": "Product", "name": b.title, "sku": b.sku,
         "gtin13": b.isbn, "offers": {"price": f"{amount:.2f}", "priceCurrency": "USD"}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, 1) if r.random() < 0.35 else []
    helper_role = r.choice(["illustrations by", "translated by", "a foreword by"])
    strongs = [f"<strong>{e(n)}</strong>" for n in b.authors]
    by = strongs[0] if len(strongs) == 1 else f"{', '.join(strongs[:-1])} &amp; {strongs[-1]}"
    if helpers:
        by += f", with {helper_role} <strong>{e(helpers[0])}</strong>"
    options = "<option value=''>Select Format</option>" + "".join(
        f"<option value='{e(x)}'{' selected' if x == b.binding else ''}>{e(x)}</option>" for x in BINDINGS
    )
    details = [("Publisher", b.publisher), ("Publication date", b.published), ("Binding", b.binding),
               ("Pages", str(b.pages)), ("ISBN", b.isbn)]  # fmt: skip
    if b.edition:
        details.insert(2, ("Edition", b.edition))
    if b.series:
        details.insert(0, ("Series", b.series))
    details.append(("SKU", b.sku))
    details_html = "".join(f"<p>{e(k)} — {e(v)}</p>" for k, v in details)
    note = r.choice(SQ_NOTES)
    related = "".join(
        f"<div class='ProductList-item' data-item-id='{hashlib.md5(t.encode()).hexdigest()[:24]}'>"
        f"<a class='ProductList-item-link' href='/shop/p/{e(t.lower().replace(' ', '-'))}'>"
        f"<h3 class='ProductList-title'>{e(t)}</h3></a>"
        f"<div class='ProductList-meta'><span class='ProductList-author'>{e(a)}</span>"
        f"<div class='product-price'>{e(p)}</div></div></div>"
        for t, a, p in b.related
    )
    return _page(
        "Marginalia Press",
        f"<script type='application/ld+json'>{jsonld}</script>"
        f"<meta property='og:title' content='{e(b.title)} &mdash; Marginalia Press'>"
        f"<meta property='product:price:amount' content='{amount:.2f}'>"
        "<div class='header-nav'><a href='/shop'>Shop</a> <a href='/events'>Events</a> "
        "<a href='/submissions'>Submissions</a> <a href='/about'>About</a></div>"
        f"<section class='ProductItem' data-item-id='{product_id}'>"
        "<div class='ProductItem-nav'><div class='ProductItem-nav-breadcrumb'>"
        "<a class='ProductItem-nav-breadcrumb-link' href='/shop'>Shop</a> "
        "<span class='ProductItem-nav-breadcrumb-separator'>/</span> "
        "<a class='ProductItem-nav-breadcrumb-link' href='/shop/fiction'>Fiction</a> "
        "<span class='ProductItem-nav-breadcrumb-separator'>/</span> "
        f"<span class='ProductItem-nav-breadcrumb-link'>{e(b.title)}</span></div>"
        "<div class='ProductItem-nav-pagination'><a href='/shop/p/prev'>Previous</a> "
        "<a href='/shop/p/next'>Next</a></div></div>"
        "<div class='ProductItem-gallery'>"
        f"<img class='ProductItem-gallery-slide' data-src='/s/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='ProductItem-details'>"
        f"<h1 class='ProductItem-details-title' data-content-field='title'>{e(b.title)}</h1>"
        "<div class='product-price'>"
        + (
            f"<span class='visually-hidden v6-visually-hidden'>Sale Price:</span>{e(b.price)} "
            "<span class='visually-hidden v6-visually-hidden'>Original Price:</span>"
            f"<span class='original-price'>{e(b.list_price)}</span>"
            if on_sale
            else e(b.price)
        )
        + "</div>"
        + ("<div class='product-mark sale'>sale</div>" if on_sale else "")
        + f"<div class='ProductItem-details-excerpt'><p>by {by}</p>"
        f"<p>A {b.pages}-page novel first published on {e(b.first_published)}, now back in print.</p>"
        + (f"<p><em>{e(note)}</em></p>" if note else "")
        + "</div>"
        f"<div class='product-variants' data-item-id='{product_id}' data-variants='{e(variants)}'>"
        "<div class='variant-option'><div class='variant-option-title'>Format: </div>"
        f"<div class='variant-select-wrapper' data-text='{e(b.binding)}'>"
        f"<select aria-label='Select Format' data-variant-option-name='Format'>{options}</select></div></div>"
        f"<div class='variant-summary'>Format: {e(b.binding)}</div></div>"
        "<div class='product-quantity-input'><div class='quantity-label'>Quantity:</div>"
        "<input aria-label='Quantity' size='4' max='9999' min='1' value='1' type='number'></div>"
        "<div class='sqs-add-to-cart-button-wrapper'>"
        "<div class='sqs-add-to-cart-button sqs-suppress-edit-mode'>"
        "<div class='sqs-add-to-cart-button-inner'>Add To Cart</div></div></div>"
        "<div class='ProductItem-details-accordion accordion-block'>"
        "<div class='accordion-item'><button class='accordion-item__click-target' aria-expanded='true'>"
        "<span class='accordion-item__title'>Details</span></button>"
        f"<div class='accordion-item__dropdown accordion-item__dropdown--open'>{details_html}</div></div>"
        "<div class='accordion-item'><button class='accordion-item__click-target' aria-expanded='true'>"
        "<span class='accordion-item__title'>About the author</span></button>"
        "<div class='accordion-item__dropdown accordion-item__dropdown--open'>"
        f"<p>{e(b.authors[0])} lives in {r.choice(CITIES)}. Their last book was "
        f"<em>{e(b.related[0][0])}</em>.</p></div></div></div></div></section>"
        "<section class='ProductItem-additional'><h2>You might also like</h2>"
        f"<div class='ProductList-grid'>{related}</div></section>",
    )


BW_ROLES = ["Translator", "Illustrator", "Editor"]
BW_DISPATCH = ["Usually dispatched within 2-4 working days", "In stock, dispatched next working day",
               "Available to order, dispatched within 7-10 working days"]  # fmt: skip


def blackwells_product(b: Book) -> str:
    """A UK academic bookseller's product page (Blackwell's shape): JSON-LD and a hidden
    ``data-isbn`` basket form first; the breadcrumb "Home > Fiction > Literary fiction"; the h1;
    the byline as name links each followed by a "(Author)" role span, with translators/illustrators
    in the same link shape marked "(Translator)"; the price list "£12.99" beside "RRP" with the
    struck "£15.99" and "Save £3.00"; a "Formats" list where every binding is a link with its own
    price (the shown one marked ``--current``); "Product information" as ``<li>`` rows of a label
    span and a value span ("Published" in "5 Mar 2020" form, "Product code"); a synopsis naming
    the first edition's date; "About the author"; two carousels of other books with authors and
    prices."""
    r = random.Random(b.isbn + "blackwells")
    on_sale = _on_sale(b)
    amount = _pounds(b.price)
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.4 else []
    role = r.choice(BW_ROLES)
    ld = json.dumps(
        {"@context": "https://schema.org", "@type": "Book", "name": b.title, "isbn": b.isbn,
         "author": [{"@type": "Person", "name": n} for n in b.authors], "publisher": b.publisher,
         "datePublished": b.published, "bookFormat": b.binding,
         "offers": {"@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "GBP"}},
    ).replace("</", "<\\/")  # fmt: skip

    def person(name: str, label: str) -> str:
        return (
            f"<a class='product__author' href='/bookshop/search/author/{e(name.replace(' ', '%20'))}'>"
            f"{e(name)}</a> <span class='product__author-role'>({label})</span>"
        )

    byline = ", ".join([person(n, "Author") for n in b.authors] + [person(n, role) for n in helpers])
    formats = ""
    for k, binding in enumerate(BINDINGS):
        current = binding == b.binding
        price = b.price if current else _other_price(b, k)
        formats += (
            f"<li class='formats__item{' formats__item--current' if current else ''}'>"
            f"<a href='/bookshop/product/{b.isbn if current else _isbn13(r)}'>"
            f"<span class='formats__name'>{e(binding)}</span> "
            f"<span class='formats__price'>{e(price)}</span></a></li>"
        )
    rows = [("Format", b.binding), ("Publisher", b.publisher), ("Published", b.published),
            ("ISBN", b.isbn), ("Pages", str(b.pages)),
            ("Dimensions", f"{r.choice([198, 216, 234])} x {r.choice([129, 135, 153])} mm")]  # fmt: skip
    if b.edition:
        rows.insert(3, ("Edition", b.edition))
    if b.series:
        rows.append(("Series", b.series))
    if r.random() < 0.5:
        rows.append(("Weight", f"{r.randint(180, 900)} g"))
    rows.append(("Product code", b.sku))
    info = "".join(
        f"<li class='product-info__item'><span class='product-info__label'>{e(k)}</span>"
        f"<span class='product-info__value'>{e(v)}</span></li>"
        for k, v in rows
    )

    def carousel(title: str, items: list[tuple[str, str, str]]) -> str:
        cards = "".join(
            "<li class='product-carousel__item'><div class='product-card'>"
            f"<a href='/bookshop/product/{_isbn13(r)}'><img src='/jacket/{i}.jpg' alt='{e(t)}'></a>"
            f"<h3 class='product-card__title'><a href='/bookshop/product/x{i}'>{e(t)}</a></h3>"
            f"<p class='product-card__author'>{e(a)}</p>"
            f"<p class='product-card__price'>{e(p)}</p></div></li>"
            for i, (t, a, p) in enumerate(items)
        )
        return f"<section class='product-carousel'><h2>{title}</h2><ul>{cards}</ul></section>"

    related = list(b.related)
    reviews = r.randint(0, 40)
    return _page(
        "Blackwell's",
        f"<script type='application/ld+json'>{ld}</script>"
        f"<form class='add-to-basket hidden' action='/bookshop/basket/add' data-isbn='{b.isbn}'>"
        f"<input type='hidden' name='isbn' value='{b.isbn}'><input type='hidden' name='title' "
        f"value='{e(b.title)}'></form>"
        "<nav class='main-nav'><a href='/bookshop/category/fiction'>Fiction</a> "
        "<a href='/bookshop/category/academic'>Academic</a> <a href='/bookshop/category/children'>"
        "Children's</a> <a href='/bookshop/offers'>Offers</a></nav>"
        "<ol class='breadcrumb'><li><a href='/bookshop/home'>Home</a></li>"
        "<li><a href='/bookshop/category/fiction'>Fiction</a></li>"
        "<li><a href='/bookshop/category/literary-fiction'>Literary fiction</a></li></ol>"
        "<div class='product container'><div class='product__image'>"
        f"<img src='/jacket/{b.isbn}.jpg' alt='Cover of {e(b.title)}'></div>"
        "<div class='product__detail'>"
        f"<h1 class='product__name'>{e(b.title)}</h1>"
        f"<p class='product__byline'>{byline}</p>"
        + (
            f"<p class='product__series'>Part of the {e(b.series)} series</p>"
            if b.series and r.random() < 0.5
            else ""
        )
        + "<div class='product__price'><ul class='list--inline'>"
        f"<li class='product-price--discounted'>{e(b.price)}</li>"
        + (
            f"<li class='product-price--full'>RRP <s>{e(b.list_price)}</s></li></ul>"
            f"<p class='product-price--saving'>Save £{_pounds(b.list_price) - amount:.2f}</p>"
            if on_sale
            else "</ul>"
        )
        + f"<p class='product__dispatch'>{r.choice(BW_DISPATCH)}</p>"
        "<p class='product__delivery'>Free delivery worldwide</p>"
        "<button class='btn btn--basket'>Add to basket</button>"
        "<button class='btn btn--wishlist'>Add to wishlist</button></div>"
        f"<div class='formats'><h2>Formats</h2><ul>{formats}</ul></div>"
        f"<p class='product__reviews'><a href='#reviews'>{reviews} reviews</a></p></div></div>"
        "<section class='product-synopsis'><h2>Synopsis</h2>"
        f"<p>First published on {e(b.first_published)}, {e(b.title)} returns in a new "
        f"{e(b.binding.lower())} of {b.pages} pages.</p></section>"
        "<section class='product-about'><h2>About the author</h2>"
        f"<p>{e(b.authors[0])} lives in {r.choice(CITIES)}. "
        f"Also by them: <em>{e(related[0][0])}</em>.</p></section>"
        f"<section class='product-information'><h2>Product information</h2><ul>{info}</ul></section>"
        + carousel("You may also be interested in...", related)
        + carousel("Customers also bought", related[::-1]),
    )


def _rand(price: str) -> int:
    """A "R 349" price as a number."""
    return int(price[2:].replace(" ", ""))


def _zar(amount: float) -> str:
    return f"R {round(amount):,}".replace(",", " ")


TAKEALOT_SELLERS = ["Takealot", "Bargain Books Online", "Loot Books", "Readers Warehouse"]


def takealot_product(b: Book) -> str:
    """A South African marketplace's product page, a React app with CSS-module classes
    ("pdp-module_title_1ZfqL"): the preloaded state script with the title, barcode and price
    first; the category crumbs; a sticky buy bar hidden by an inline style with the title and
    price; the h1 title and a subtitle "<binding> | <n> pages"; author
    links in a "By" line; the buy box "R 349" with the struck "List price R 399", an eBucks line
    "eB3 490" and "Save R 50"; "Sold by Takealot", "In stock" branches "JHB CPT DBN"; other offers
    with their own rand prices; "Product Information" as a table with "Authors" (all names as
    spans in one cell), "Illustrator"/"Translator" rows on some pages, "Release Date" in ISO
    form, "Barcode", "Merchant SKU"; "Frequently Bought Together" and "Customers Also Bought"
    cards with other books' authors and prices."""
    r = random.Random(b.isbn + "takealot")
    on_sale = _on_sale(b)
    amount = _rand(b.price)
    list_amount = _rand(b.list_price)
    plid = 40000000 + int(b.isbn[-7:])
    state = json.dumps(
        {"product": {"core": {"id": plid, "title": b.title, "subtitle": b.binding,
                              "authors": [{"name": n} for n in b.authors]},
                     "gallery": {"images": [f"/covers/{b.isbn}-{{size}}.jpg"]},
                     "buybox": {"prices": [amount], "listingPrice": list_amount},
                     "barcode": b.isbn}},
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, 1) if r.random() < 0.35 else []
    role = r.choice(["Illustrator", "Translator", "Editor"])
    by = ", ".join(
        f"<a class='pdp-module_author-link_2mWQy' href='/all?filter=Author:{e(n.replace(' ', '+'))}'>"
        f"{e(n)}</a>"
        for n in b.authors
    )
    rows = [("Categories", "<a href='/books'>Books</a> / <a href='/books/fiction'>Fiction</a> / "
                           "<a href='/books/fiction/general'>General Fiction</a>"),
            ("Authors", "".join(f"<span class='info-module_author_k3Ps2'>{e(n)}"
                                f"{', ' if i < len(b.authors) - 1 else ''}</span>"
                                for i, n in enumerate(b.authors)))]  # fmt: skip
    rows += [(role, e(n)) for n in helpers]
    rows += [("Publisher", e(b.publisher)), ("Format", e(b.binding)), ("Pages", str(b.pages)),
             ("Release Date", e(b.published)), ("Language", "English")]  # fmt: skip
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    if b.series:
        rows.append(("Series", e(b.series)))
    rows += [("Dimensions", f"{r.randint(18, 24)} x {r.randint(12, 16)} x {r.randint(1, 5)} cm"),
             ("Barcode", b.isbn), ("Merchant SKU", e(b.sku)),
             ("What's in the box", f"1 x {e(b.binding)} book")]  # fmt: skip
    table = "".join(
        f"<tr class='info-module_row_3OqXo'><td class='info-module_label_1rJCd'>{k}</td>"
        f"<td class='info-module_value_2pI9B'>{v}</td></tr>"
        for k, v in rows
    )
    offers = "".join(
        "<li class='other-offers-module_offer_2uYbB'>"
        f"<span class='currency plus currency-module_currency_29IIm'>{_zar(amount * (1.05 + 0.07 * k))}"
        "</span>"
        f"<span class='other-offers-module_seller_1xY0M'>{e(name)}</span>"
        f"<span>{r.choice(['New', 'New', 'Used - Like New'])}</span></li>"
        for k, name in enumerate(r.sample(TAKEALOT_SELLERS[1:], r.randint(1, 3)))
    )

    def cards(items: list[tuple[str, str, str]]) -> str:
        return "".join(
            "<div class='product-card-module_product-card_fdqa8'>"
            f"<a href='/{e(t.lower().replace(' ', '-'))}/PLID{plid + i + 3}'>"
            f"<img src='/covers/r{i}.jpg' alt='{e(t)}'></a>"
            f"<h3 class='product-card-module_title_3Sd7z'>{e(t)}</h3>"
            f"<p class='product-card-module_subtitle_2Wf8x'>{e(a)}</p>"
            f"<span class='currency plus currency-module_currency_29IIm'>{e(p)}</span>"
            f"<div class='rating-module_rating_3YZVR'>&#9733; {r.randint(30, 50) / 10} "
            f"({r.randint(1, 300)})</div></div>"
            for i, (t, a, p) in enumerate(items)
        )

    n_reviews = r.randint(0, 120)
    ebucks = f"{amount * 10:,}".replace(",", " ")
    return _page(
        "takealot.com",
        f"<script>window.__PRELOADED_STATE__ = {state};</script>"
        "<div class='top-nav-module_top-nav_1hUFj'><a href='/deals'>Daily Deals</a> "
        "<a href='/books'>Books</a> <a href='/account'>Login</a> <a href='/wishlist'>Lists</a></div>"
        "<ul class='breadcrumbs-module_breadcrumbs_3q2G6'><li><a href='/'>Home</a></li>"
        "<li><a href='/books'>Books</a></li><li><a href='/books/fiction'>Fiction</a></li></ul>"
        "<div class='sticky-buybox-module_sticky_2Tq8B' style='display: none'>"
        f"<span class='sticky-buybox-module_title_1aQ2x'>{e(b.title)}</span>"
        f"<span class='currency plus currency-module_currency_29IIm'>{e(b.price)}</span>"
        "<button class='button add-to-cart-button'>Add to Cart</button></div>"
        f"<div class='pdp-module_pdp_1Xtnt' data-ref='pdp-{plid}'><div class='pdp-module_main_2hGw-'>"
        f"<div class='pdp-module_gallery_3Xb0R'><img src='/covers/{b.isbn}-pdpxl.jpg' "
        f"alt='{e(b.title)}'></div>"
        "<div class='pdp-module_core_2w2Qc'>"
        f"<h1 class='pdp-module_title_1ZfqL'>{e(b.title)}</h1>"
        f"<p class='pdp-module_subtitle_3Q5B1'>{e(b.binding)} | {b.pages} pages</p>"
        f"<div class='pdp-module_byline_3Pcv8'>By {by}</div>"
        "<div class='rating-module_rating_3YZVR'>"
        f"<span class='score'>{r.randint(30, 50) / 10}</span> "
        f"<a href='#reviews'>{n_reviews} Reviews</a></div>"
        "<div class='pdp-module_description_3Jw2O'><p>"
        f"{e(b.title)} was first published on {e(b.first_published)}. This edition by {e(b.publisher)}."
        "</p></div></div></div>"
        "<aside class='pdp-module_sidebar-buybox_1hR5k'><div class='buybox-module_buybox_3Ag9K'>"
        "<div class='buybox-module_price_2YUFa'>"
        "<span class='currency plus currency-module_currency_29IIm' data-ref='buybox-price-main'>"
        f"{e(b.price)}</span>"
        + (
            "<span class='buybox-module_list-price_1p3p-'>List price "
            f"<span class='strike'><s>{e(b.list_price)}</s></span></span>"
            f"<span class='buybox-module_savings_2R7Aq'>Save {_zar(list_amount - amount)}</span>"
            if on_sale
            else ""
        )
        + "</div>"
        f"<div class='ebucks-module_ebucks_3Yk5V'>eB{ebucks} in eBucks</div>"
        "<div class='stock-availability-module_stock_1A3hN'>In stock "
        "<span class='dc'>JHB</span> <span class='dc'>CPT</span>"
        + (" <span class='dc'>DBN</span>" if r.random() < 0.5 else "")
        + "</div><div class='seller-module_seller_3B9fA'>Sold by "
        "<a href='/seller/takealot'>Takealot</a></div>"
        "<button class='button add-to-cart-button' data-ref='add-to-cart-button'>Add to Cart</button>"
        "<button class='button add-to-wishlist'>Add to List</button></div>"
        + (
            "<div class='other-offers-module_other-offers_3jMFn'><h3>Other Offers</h3>"
            f"<ul>{offers}</ul></div>"
            if r.random() < 0.6
            else ""
        )
        + "</aside></div>"
        "<div class='pdp-module_fbt_2cG2x'><h2>Frequently Bought Together</h2>"
        f"{cards(b.related[:2])}</div>"
        "<div class='product-info-module_product-info_3Gx0B'><h2>Product Information</h2>"
        f"<table><tbody>{table}</tbody></table></div>"
        "<div id='reviews' class='reviews-module_reviews_1eZzh'><h2>Reviews</h2>"
        f"<p>{n_reviews} reviews</p></div>"
        "<div class='pdp-module_recommendations_3Mn8A'><h2>Customers Also Bought</h2>"
        f"{cards(b.related[::-1])}</div>",
    )


def _rupiah(price: str) -> int:
    """A "Rp 249.000" price as a number."""
    return int(price[3:].replace(".", ""))


def _rp(amount: float) -> str:
    return f"Rp {round(amount / 100) * 100:,}".replace(",", ".")


PERIPLUS_ROLES = ["Illustrator", "Editor", "Translator"]
PERIPLUS_STORES = ["Plaza Indonesia", "Grand Indonesia", "Pondok Indah Mall", "Ngurah Rai Airport"]


def periplus_product(b: Book) -> str:
    """An Indonesian bookshop's product page (Periplus's shape, a jQuery/Bootstrap 3 site): a
    hidden ``product_id`` input and ``og:`` metas first; a category menu; the title in an h2 of
    "quickview-title" (the page has no h1); the author line as links separated by " , " with a
    "(Illustrator)" suffix on helpers of some pages; the price "Rp 249.000" beside a struck
    "Rp 279.000" and a "-11%" badge; "Get 2.490 Periplus Points"; "Ready Stock" or "Usually
    ships in 2-3 weeks"; the "Details" tab as rows of two Bootstrap columns where every value
    cell starts with ": " (the authors as links), "Publish Date" in "05-03-2020" form, "Item
    Code"; "Related Products" and "Bestsellers" with titles, authors and prices."""
    r = random.Random(b.isbn + "periplus")
    on_sale = _on_sale(b)
    amount = _rupiah(b.price)
    list_amount = _rupiah(b.list_price)
    product_id = 3000000 + int(b.isbn[-6:])
    helpers = _others(r, b, 1) if r.random() < 0.35 else []
    role = r.choice(PERIPLUS_ROLES)
    people = [f"<a href='/search?author={e(n.replace(' ', '+'))}'>{e(n)}</a>" for n in b.authors]
    people += [f"<a href='/search?author={e(n.replace(' ', '+'))}'>{e(n)}</a> ({role})" for n in helpers]
    author_line = " , ".join(people)
    details = [("Author", author_line), ("Publish Date", e(b.published)), ("Publisher", e(b.publisher)),
               ("Dimensions", f"{r.randint(18, 24)}.0 x {r.randint(12, 16)}.0 x {r.randint(1, 5)}.0 cm"),
               ("Language", "English"), ("Binding", e(b.binding)), ("ISBN", b.isbn)]  # fmt: skip
    if r.random() < 0.5:
        details.insert(6, ("Pages", str(b.pages)))
    if b.edition:
        details.insert(3, ("Edition", e(b.edition)))
    details.append(("Item Code", e(b.sku)))
    rows = "".join(
        f"<div class='row row-detail'><div class='col-xs-5 col-sm-4'><b>{k}</b></div>"
        f"<div class='col-xs-7 col-sm-8'>: {v}</div></div>"
        for k, v in details
    )

    def grid(items: list[tuple[str, str, str]], offset: int) -> str:
        return "".join(
            "<div class='col-md-3 single-product'><div class='product-img'>"
            f"<a href='/p/{_isbn13(r)}/{e(t.lower().replace(' ', '-'))}'>"
            f"<img src='/image/{offset + i}.jpg'></a>"
            f"</div><div class='product-content'><h3><a href='/p/x{i}'>{e(t)}</a></h3>"
            f"<div class='product-author'>{e(a)}</div>"
            f"<div class='product-price'>{e(p)}</div></div></div>"
            for i, (t, a, p) in enumerate(items)
        )

    points = f"{amount // 100:,}".replace(",", ".")
    stock = "Ready Stock" if r.random() < 0.5 else f"Usually ships in {r.choice(['2-3 weeks', '4-6 weeks'])}"
    return _page(
        "Periplus",
        f"<meta property='og:title' content='{e(b.title)}'>"
        f"<meta property='og:url' content='https://www.periplus.example/p/{b.isbn}/{e(b.slug)}'>"
        f"<input type='hidden' name='product_id' value='{product_id}'>"
        f"<input type='hidden' id='product-isbn' value='{b.isbn}'>"
        "<div class='category-menu'><ul><li><a href='/c/1/books'>Books</a></li>"
        "<li><a href='/c/2/magazines'>Magazines</a></li><li><a href='/c/3/gifts'>Gifts</a></li>"
        "<li><a href='/c/4/new-arrivals'>New Arrivals</a></li></ul></div>"
        "<ul class='breadcrumb'><li><a href='/'>Home</a></li><li><a href='/c/1/books'>Books</a></li>"
        "<li><a href='/c/101/fiction'>Fiction</a></li><li class='active'>Literary</li></ul>"
        "<div class='container'><div class='row'><div class='col-md-5'>"
        f"<div class='quickview-image'><img src='/image/{b.isbn}.jpg' alt='{e(b.title)}'></div></div>"
        "<div class='col-md-7'><div class='quickview-content'>"
        f"<h2 class='quickview-title'>{e(b.title)}</h2>"
        f"<div class='quickview-author'>{author_line}</div>"
        f"<div class='quickview-binding'>{e(b.binding)}</div>"
        "<div class='quickview-price'>"
        + (
            f"<span class='price-old'><s>{e(b.list_price)}</s></span> "
            f"<span class='label label-danger'>-{round(100 * (1 - amount / list_amount))}%</span><br>"
            if on_sale
            else ""
        )
        + f"<span class='price-new'>{e(b.price)}</span></div>"
        f"<div class='quickview-points'>Get {points} Periplus Points</div>"
        f"<div class='quickview-stock'>{stock}</div>"
        "<div class='quickview-qty'><input type='number' value='1' min='1'>"
        "<button class='btn btn-add-cart'>Add to Cart</button>"
        "<button class='btn btn-wishlist'>Add to Wishlist</button></div>"
        f"<div class='quickview-store'>Also available in store: {r.choice(PERIPLUS_STORES)}</div>"
        "</div></div></div>"
        "<ul class='nav nav-tabs'><li class='active'><a href='#details' data-toggle='tab'>Details</a></li>"
        "<li><a href='#desc' data-toggle='tab'>Description</a></li></ul>"
        "<div class='tab-content'>"
        f"<div class='tab-pane active' id='details'>{rows}</div>"
        "<div class='tab-pane active' id='desc'><p>"
        f"A new {e(b.binding.lower())} edition of the novel first published in {e(b.first_published[-4:])}. "
        f"{_rp(amount * 0.1)} off with Periplus Member card.</p></div></div></div>"
        f"<div class='related'><h3>Related Products</h3><div class='row'>{grid(b.related, 0)}</div></div>"
        "<div class='bestsellers'><h3>Bestsellers</h3>"
        f"<div class='row'>{grid(b.related[::-1][:3], 10)}</div></div>",
    )


EC_ROLES = ["Übersetzer", "Illustrator", "Herausgeber"]


def ecwid_product(b: Book) -> str:
    """A small Austrian bookshop's store embedded in its own web site with a hosted e-commerce
    widget (Ecwid's product browser, German UI): the host site's menu and a hero text; inside
    ``div.ec-store`` a hidden ``itemscope`` block with ``<meta>`` copies of name, SKU, price and
    GTIN first; breadcrumbs "Shop / Englische Bücher / Romane"; the h1 "product-details__product-title";
    "Artikelnummer BK-10..." in the SKU div; the price "12,99 €" in ``ec-price-item`` beside a
    struck compare-at price and "Sie sparen 18%"; "inkl. MwSt., zzgl. Versand"; the binding as a
    radio option group listing every binding (one checked); product attributes as title/value
    div pairs where "Autor:" holds every author in one "A, B" text and an "Übersetzer:" row on
    some pages, "Erscheinungsdatum:" in "5. März 2020" form; a German description naming the
    first edition's date; "Das könnte Ihnen auch gefallen" cards with prices and authors."""
    r = random.Random(b.isbn + "ecwid")
    on_sale = _on_sale(b)
    amount = _euros(b.price)
    list_amount = _euros(b.list_price)
    product_id = 500000000 + int(b.isbn[-8:])
    helpers = _others(r, b, r.randint(1, 2)) if r.random() < 0.35 else []
    role = r.choice(EC_ROLES)
    hidden = (
        "<div itemscope itemtype='http://schema.org/Product' style='display:none'>"
        f"<meta itemprop='name' content='{e(b.title)}'><meta itemprop='sku' content='{e(b.sku)}'>"
        f"<meta itemprop='gtin13' content='{b.isbn}'>"
        f"<div itemprop='offers' itemscope itemtype='http://schema.org/Offer'>"
        f"<meta itemprop='price' content='{amount:.2f}'>"
        "<meta itemprop='priceCurrency' content='EUR'></div></div>"
    )
    options = "".join(
        "<div class='form-control form-control--radio'>"
        f"<input type='radio' name='Einband' id='opt-{k}' value='{e(x)}'"
        f"{' checked' if x == b.binding else ''}>"
        f"<label for='opt-{k}' class='form-control__inline-label'>{e(x)}</label></div>"
        for k, x in enumerate(BINDINGS)
    )
    attrs = [("Autor:", ", ".join(b.authors))]
    if helpers:
        attrs.append((f"{role}:", ", ".join(helpers)))
    attrs += [("Verlag:", b.publisher), ("Erscheinungsdatum:", b.published), ("ISBN:", b.isbn),
              ("Einband:", b.binding), ("Seiten:", str(b.pages)), ("Sprache:", "Englisch")]  # fmt: skip
    if b.edition:
        attrs.append(("Auflage:", b.edition))
    if b.series:
        attrs.insert(1, ("Reihe:", b.series))
    if r.random() < 0.5:
        attrs.append(("Gewicht:", f"{r.randint(2, 9) / 10:.1f} kg".replace(".", ",")))
    attr_html = "".join(
        "<div class='details-product-attribute'>"
        f"<div class='details-product-attribute__title'>{e(k)}</div>"
        f"<div class='details-product-attribute__value'>{e(v)}</div></div>"
        for k, v in attrs
    )
    cards = "".join(
        "<div class='grid-product'><div class='grid-product__wrap'>"
        f"<a class='grid-product__image' href='/shop/{e(t.replace(' ', '-'))}-p{product_id + i + 1}'>"
        f"<img src='/images/{i}.jpg' alt='{e(t)}'></a>"
        f"<div class='grid-product__title'><div class='grid-product__title-inner'>{e(t)}</div></div>"
        f"<div class='grid-product__subtitle'>{e(a)}</div>"
        "<div class='grid-product__price'>"
        f"<div class='grid-product__price-value ec-price-item'>{e(p)}</div></div>"
        "<button class='form-control__button'>In den Warenkorb</button></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Buchhandlung am Spittelberg",
        "<nav class='site-menu'><a href='/'>Start</a> <a href='/veranstaltungen'>Veranstaltungen</a> "
        "<a href='/shop'>Shop</a> <a href='/kontakt'>Kontakt</a></nav>"
        "<div class='hero'><p>Ihre Buchhandlung im 7. Bezirk – englische Bücher seit 1998.</p></div>"
        f"<div class='ec-store ec-store__product-page ec-store__product-page--{product_id}'>"
        f"{hidden}"
        "<div class='ec-breadcrumbs'><a class='breadcrumbs__link' href='/shop'>Shop</a>"
        "<span class='breadcrumbs__delimiter'> / </span><a class='breadcrumbs__link' "
        "href='/shop/Englische-Buecher-c1'>Englische Bücher</a>"
        "<span class='breadcrumbs__delimiter'> / </span>"
        "<a class='breadcrumbs__link' href='/shop/Romane-c2'>Romane</a></div>"
        "<div class='product-details'><div class='product-details__gallery'>"
        f"<img class='details-gallery__picture' src='/images/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='product-details__sidebar'>"
        f"<h1 class='product-details__product-title ec-header-h3'>{e(b.title)}</h1>"
        f"<div class='product-details__product-sku ec-text-muted'>Artikelnummer {e(b.sku)}</div>"
        "<div class='product-details__product-price ec-price-item'>"
        f"<span class='details-product-price__value ec-price-item notranslate'>{e(b.price)}</span>"
        + (
            "<div class='product-details__product-price-compare'>"
            f"<span class='ec-price-item--compare'><s>{e(b.list_price)}</s></span> "
            "<span class='product-details__label--sale'>"
            f"Sie sparen {round(100 * (1 - amount / list_amount))}%</span></div>"
            if on_sale
            else ""
        )
        + "</div><div class='product-details__product-price-note'>inkl. MwSt., zzgl. "
        f"<a href='/versand'>Versand</a> (ab {_euro_text(r.choice([4.5, 5.9]))})</div>"
        "<div class='product-details-module product-details__product-options'>"
        "<div class='product-details-module__title details-product-option__title'>Einband</div>"
        f"<div class='form-control--flexible'>{options}</div></div>"
        "<div class='details-product-purchase'><div class='form-control form-control--select'>"
        "<label>Menge</label><input type='number' value='1'></div>"
        "<button class='form-control__button form-control__button--icon-center'>In den Warenkorb</button>"
        "<div class='product-details__product-stock ec-label'>Auf Lager</div></div>"
        "<div class='product-details-module product-details__product-attributes'>"
        f"<div class='product-details-module__title'>Produktdetails</div>{attr_html}</div>"
        "<div class='product-details__product-description'>"
        f"<p>Die englische Originalausgabe erschien erstmals am {e(b.first_published)}. "
        f"Diese Ausgabe von {e(b.publisher)} hat {b.pages} Seiten.</p>"
        f"<p>Unser Tipp: dazu passt <em>{e(b.related[0][0])}</em> von {e(b.related[0][1])}.</p></div>"
        "<div class='product-details__product-share'>Teilen: <a href='#'>Facebook</a> "
        "<a href='#'>Pinterest</a></div></div></div>"
        "<div class='product-details__related-products'><div class='ec-related-products__title'>"
        f"Das könnte Ihnen auch gefallen</div><div class='grid__products'>{cards}</div></div></div>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 22: written without reading the learner's code.


def us_ordinal_date(y: int, m: int, d: int) -> str:
    """A US shop's "March 5th, 2020"."""
    suffix = "th" if 11 <= d <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
    return f"{MONTHS[m - 1]} {d}{suffix}, {y}"


def month_comma_year(y: int, m: int, d: int) -> str:
    """A marketplace's specification "March, 2020" (the day dropped)."""
    return f"{MONTHS[m - 1]}, {y}"


def _inverted_name(name: str) -> str:
    """ "Jane A. Doe" as a catalogue heading "Doe, Jane A."."""
    first, _, last = name.rpartition(" ")
    return f"{last}, {first}"


POWELLS_ROOMS = ["Blue Room", "Gold Room", "Rose Room", "Orange Room", "Pearl Room"]
POWELLS_STAFF = ["A gripping, tender novel I keep pressing on friends.",
                 "Quietly devastating. One of my favorites this year.",
                 "Smart, funny and impossible to put down."]  # fmt: skip
POWELLS_ROLES = [("Translated by", "Translator:"), ("Illustrated by", "Illustrator:"),
                 ("Introduction by", "Introduction:")]  # fmt: skip


def powells_product(b: Book) -> str:
    """A US independent bookstore's book page (Powell's shape, an older server-rendered site
    with ids): a hidden ISBN input, ``og:`` metas and a mobile title block hidden by a class rule
    first; the h1 with the series as a subtitle on some pages; the byline "by A, B and C" as
    search links, a "Translated by" line on some pages; a purchase box with a "New" tab
    ("$18.00", "New Paperback", "Ships in 1 to 3 days", the struck "List price" on sale pages)
    and a "Used" tab with its own lower price and a shelf location; "Other editions" with every
    binding's price; "Synopses & Reviews" with a staff pick signed by another person and the
    first edition's date; "Product Details" as a th/td table with one inverted "Author:" row per
    author ("Doe, Jane"), "Publication Date:" in "March 5th, 2020" form, "Binding:" in capitals,
    "ISBN:"/"ISBN10:" and "Powell's SKU:"; "Recommended for You" cards with authors and prices."""
    r = random.Random(b.isbn + "powells")
    on_sale = _on_sale(b)
    amount = _dollars(b.price)
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    role, role_label = r.choice(POWELLS_ROLES)
    links = [f"<a href='/searchresults?keyword={e(n.replace(' ', '%20'))}'>{e(n)}</a>" for n in b.authors]
    byline = links[0] if len(links) == 1 else ", ".join(links[:-1]) + " and " + links[-1]
    used = amount * r.choice([0.55, 0.6, 0.65])
    editions = "".join(
        f"<li class='edition{' edition-current' if x == b.binding else ''}'>"
        f"<a href='/book/{e(b.slug)}-{b.isbn if x == b.binding else _isbn13(r)}'>{e(x)}</a> "
        f"<span class='edition-price'>{e(b.price if x == b.binding else _other_price(b, k))}</span></li>"
        for k, x in enumerate(BINDINGS)
    )
    rows = [("ISBN:", b.isbn), ("ISBN10:", _isbn10(b.isbn)), ("Publisher:", e(b.publisher))]
    rows += [("Author:", e(_inverted_name(n))) for n in b.authors]
    rows += [(role_label, e(_inverted_name(n))) for n in helpers]
    rows += [("Subject:", r.choice(["Literature-A to Z", "Fiction and Poetry-Literature",
                                    "Literature-Literary fiction"])),
             ("Publication Date:", e(b.published)), ("Binding:", e(b.binding.upper())),
             ("Language:", "English"), ("Pages:", str(b.pages))]  # fmt: skip
    if b.series:
        rows.append(("Series:", e(b.series)))
    rows += [("Dimensions:", f"{r.choice([8, 9])}.{r.randint(0, 9)} x {r.choice([5, 6])}.{r.randint(0, 9)}"
                             f" in {r.randint(6, 30)}.{r.randint(0, 9)} oz"),
             ("Powell's SKU:", e(b.sku))]  # fmt: skip
    details = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    cards = "".join(
        "<div class='book-card'>"
        f"<a href='/book/{e(t.lower().replace(' ', '-'))}-{_isbn13(r)}'><img src='/cgi-bin/imageDB.cgi?"
        f"isbn={i}' alt='{e(t)}'></a><div class='book-card-title'><a href='/book/x{i}'>{e(t)}</a></div>"
        f"<div class='book-card-author'>by {e(a)}</div>"
        f"<div class='book-card-price'><span class='new'>New {e(p)}</span>"
        + (f" <span class='used'>Used ${_dollars(p) * 0.6:.2f}</span>" if i % 2 else "")
        + "</div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    staff = _others(r, b, 1)[0]
    return _page(
        "Powell's Books",
        "<style>.mobile-only{display:none}</style>"
        f"<meta property='og:title' content='{e(b.title)}'>"
        f"<meta property='og:url' content='https://www.powells.example/book/{e(b.slug)}-{b.isbn}'>"
        f"<input type='hidden' id='hdnISBN' value='{b.isbn}'>"
        "<div id='top-nav'><a href='/books'>Books</a> <a href='/staff-picks'>Staff Picks</a> "
        "<a href='/indiespensable'>Indiespensable</a> <a href='/sell-books'>Sell Books</a></div>"
        "<div class='mobile-only book-title-mobile'>"
        f"<span>{e(b.title)}</span> <span>{e(b.authors[0])}</span> <span>{e(b.price)}</span></div>"
        "<div id='seemore' class='container'><div class='row'><div class='col-sm-4 book-image'>"
        f"<img src='/cgi-bin/imageDB.cgi?isbn={b.isbn}' alt='{e(b.title)}'></div>"
        "<div class='col-sm-8 book-info'><div class='book-title'>"
        f"<h1>{e(b.title)}</h1>"
        + (f"<h2 class='book-subtitle'>{e(b.series)}</h2>" if b.series else "")
        + f"<p class='book-author'>by {byline}</p>"
        + (
            f"<p class='book-contributor'>{role} <a href='/searchresults?keyword="
            f"{e(helpers[0].replace(' ', '%20'))}'>{e(helpers[0])}</a></p>"
            if helpers
            else ""
        )
        + "</div><div class='book-rating'>"
        f"<span class='stars' title='{r.randint(30, 50) / 10} out of 5'></span> "
        "<a href='#comments'>Comment on this title</a></div>"
        "<div class='purchase-box'><ul class='nav-tabs'><li class='active'><a href='#new'>New</a></li>"
        "<li><a href='#used'>Used</a></li></ul><div class='tab-content'>"
        "<div class='tab-pane active' id='new'>"
        f"<div class='price'>{e(b.price)}</div>"
        + (f"<div class='list-price'>List price <s>{e(b.list_price)}</s></div>" if on_sale else "")
        + f"<div class='condition'>New {e(b.binding)}</div>"
        "<p class='availability'>Ships in 1 to 3 days</p>"
        "<button class='btn add-to-cart'>Add to Cart</button>"
        "<button class='btn add-to-wishlist'>Add to Wishlist</button></div>"
        "<div class='tab-pane' id='used'>"
        f"<div class='price'>${used:.2f}</div>"
        f"<div class='condition'>Used {e(b.binding)}</div>"
        f"<p class='location'>Available at Burnside, {r.choice(POWELLS_ROOMS)}</p></div></div>"
        "<p class='shipping-note'>Free shipping on orders over $20</p></div>"
        f"<div class='other-editions'><h3>Other editions</h3><ul>{editions}</ul></div></div></div>"
        "<section id='synopses'><h2>Synopses &amp; Reviews</h2>"
        "<h3>Publisher Comments:</h3>"
        f"<p>First published on {e(b.first_published)}, {e(b.title)} is now available as a "
        f"{e(b.binding.lower())} from {e(b.publisher)}.</p>"
        f"<h3>Staff Pick</h3><blockquote>{r.choice(POWELLS_STAFF)}<footer>&mdash; {e(staff)}, "
        "Powell's Books</footer></blockquote></section>"
        "<section id='about-author'><h2>About the Author</h2>"
        f"<p>{e(b.authors[0])} lives in {r.choice(CITIES)}.</p></section>"
        "<section id='product-details'><h2>Product Details</h2>"
        f"<table class='attributes'><tbody>{details}</tbody></table></section>"
        f"<section id='recommended'><h2>Recommended for You</h2><div class='book-grid'>{cards}</div>"
        "</section></div>",
    )


WM_SELLERS = ["Walmart.com", "Book Outlet Direct", "GreatBookPrices", "Alibris Books"]
WM_REVIEWERS = ["Jessica", "Mike", "Tanya", "Robert", "Kim"]


def walmart_item(b: Book) -> str:
    """A US marketplace's item page (Walmart's shape, Next.js with utility classes and
    ``data-testid`` attributes): a sticky header copy of title and price hidden by a ``.dn`` class
    rule first; the publisher as the brand link above the h1; the h1 "<title> (<binding>)", or on
    pre-owned listings "Pre-Owned <title> (<binding>) <isbn10> <isbn13>"; the price "Now $12.99"
    (or "$12.99") in an ``itemprop=price`` span with a screen-reader "current price" copy, the
    struck was-price and "You save"; "Price when purchased online"; a "Format:" variant group
    with each binding's tile and price; "Arrives <weekday>, <month> <day>" delivery dates;
    "Sold and shipped by"; "About this item" naming the first publication month; a
    "Specifications" list of h3/div pairs: "Author" (all names in one "A, B" text),
    "Publication Date" in "March, 2020" form, "Book Format", "ISBN-13", "ISBN-10",
    "Walmart Item #"; "Similar items" cards titled "<title> - by <author> (<binding>)" with
    prices; reviews with dates; the ``__NEXT_DATA__`` script last."""
    r = random.Random(b.isbn + "walmart")
    on_sale = _on_sale(b)
    amount = _dollars(b.price)
    list_amount = _dollars(b.list_price)
    item_id = 400000000 + int(b.isbn[-8:])
    pre_owned = r.random() < 0.25
    seller = r.choice(WM_SELLERS[1:]) if pre_owned or r.random() < 0.3 else WM_SELLERS[0]
    h1 = (
        f"Pre-Owned {b.title} ({b.binding}) {_isbn10(b.isbn)} {b.isbn}"
        if pre_owned
        else f"{b.title} ({b.binding})"
    )
    now = "Now " if on_sale else ""
    next_data = json.dumps(
        {"props": {"pageProps": {"initialData": {"data": {"product": {
            "usItemId": str(item_id), "name": h1, "brand": b.publisher,
            "priceInfo": {"currentPrice": {"price": amount, "priceString": b.price}},
            "sellerName": seller}}}}}, "page": "/ip/[...itemId]"},
    ).replace("</", "<\\/")  # fmt: skip
    tiles = "".join(
        f"<a data-testid='variant-tile' class='w_VbBP ba b--gray{' b--blue' if x == b.binding else ''} "
        f"pa2 br2 mr2' aria-current='{'true' if x == b.binding else 'false'}' "
        f"href='/ip/{e(b.slug)}/{item_id if x == b.binding else item_id + k + 11}'>"
        f"<span class='db f6 b'>{e(x)}</span>"
        f"<span class='db f6'>{e(b.price if x == b.binding else _other_price(b, k))}</span></a>"
        for k, x in enumerate(BINDINGS)
    )
    specs = [("Book Format", e(b.binding)), ("Publisher", e(b.publisher)),
             ("Author", e(", ".join(b.authors))), ("Publication Date", e(b.published)),
             ("Number of Pages", str(b.pages)), ("Original Languages", "English"),
             ("Genre", r.choice(["Literary Fiction", "General Fiction", "Fiction"]))]  # fmt: skip
    if b.series:
        specs.append(("Series Title", e(b.series)))
    if b.edition:
        specs.append(("Edition", e(b.edition)))
    specs += [("ISBN-13", b.isbn), ("ISBN-10", _isbn10(b.isbn)), ("Walmart Item #", e(b.sku))]
    spec_html = "".join(
        f"<div class='pb2'><h3 class='flex items-center mv0 lh-copy f5 pb1 dark-gray'>{k}</h3>"
        f"<div class='mv0 lh-copy f6 mid-gray'><span>{v}</span></div></div>"
        for k, v in specs
    )
    days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    arrive = f"{r.choice(days)}, {r.choice(MONTHS_SHORT)} {r.randint(1, 28)}"
    cards = "".join(
        f"<div data-testid='item-stack-tile' class='mb1 ph1 pa0-xl bb b--near-white w-25'>"
        f"<a link-identifier='{item_id + 100 + i}' href='/ip/{e(t.lower().replace(' ', '-'))}/"
        f"{item_id + 100 + i}'><img src='/i/{i}.jpg' alt='{e(t)}'>"
        f"<span data-automation-id='product-title' class='normal dark-gray f6 lh-title'>"
        f"{e(t)} - by {e(a)} ({e(BINDINGS[i % 3])})</span></a>"
        "<div data-automation-id='product-price' class='flex flex-wrap items-baseline'>"
        f"<span class='w_iUH7'>current price {e(p)}</span>"
        f"<div class='mr1 mr2-xl b black lh-copy f5 f4-l' aria-hidden='true'>{e(p)}</div></div>"
        f"<span class='w_iUH7'>{r.randint(30, 50) / 10} out of 5 Stars. {r.randint(1, 900)} reviews</span>"
        "<button class='w_hhLG w_8nsR w_jDfj'>+ Add</button></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    reviews = "".join(
        f"<li class='dib w-100 mb3'><div class='f7 gray'>{r.randint(1, 12)}/{r.randint(1, 28)}/"
        f"{r.randint(2021, 2025)}</div><span class='f6 b'>{r.choice(WM_REVIEWERS)}</span>"
        f"<p class='f6'>{r.choice(['Great read!', 'Arrived quickly.', 'Cover was bent.'])}</p></li>"
        for _ in range(r.randint(1, 3))
    )
    return _page(
        "Walmart.com",
        "<style>.dn{display:none}.w_iUH7{position:absolute;clip:rect(0 0 0 0);width:1px;height:1px}"
        "</style>"
        "<div id='__next'><div class='sticky-header dn' data-testid='sticky-atc'>"
        f"<span class='f5 b'>{e(h1)}</span><span class='f5'>{e(b.price)}</span>"
        "<button>Add to cart</button></div>"
        "<header class='bg-primary'><a href='/'>Walmart</a> <a href='/all-departments'>Departments</a> "
        "<a href='/cp/services/1164413'>Services</a> <a href='/cart'>Cart $0.00</a></header>"
        "<nav aria-label='breadcrumb' class='ph3 pt3'><ol class='w_4HBV'>"
        "<li class='dib'><a href='/cp/books/3920'>Books</a></li>"
        "<li class='dib'><a href='/cp/fiction-books/582349'>Fiction Books</a></li>"
        "<li class='dib'><a href='/browse/books/literary-fiction/3920_582349_1056049'>Literary Fiction"
        "</a></li></ol></nav>"
        "<section data-testid='product-hero' class='flex flex-column flex-row-l'>"
        f"<div data-testid='media-thumbnail' class='w-60-l'><img src='/i/{b.isbn}.jpeg' alt='{e(h1)}'>"
        "</div><div class='w-40-l ph3'>"
        f"<a link-identifier='brandName' class='prod-brandName f6 mid-gray underline' href='/browse/"
        f"?facet=brand%3A{e(b.publisher.replace(' ', '+'))}'>{e(b.publisher)}</a>"
        f"<h1 id='main-title' itemprop='name' class='lh-copy dark-gray mv1 f3 b'>{e(h1)}</h1>"
        "<div class='flex items-center mt1' data-testid='reviews-and-ratings'>"
        f"<span class='f7 ml1'>({r.randint(30, 50) / 10})</span> "
        f"<a class='f7 ml1 underline' href='#item-review-section'>{r.randint(1, 400)} reviews</a></div>"
        "<div data-testid='add-to-cart-section' class='mt3'>"
        "<div class='flex flex-wrap items-baseline'>"
        f"<span class='w_iUH7'>current price {now}{e(b.price)}</span>"
        f"<span itemprop='price' data-seo-id='hero-price' aria-hidden='true' "
        f"class='inline-flex flex-column b f3'>{now}{e(b.price)}</span>"
        + (
            f"<span class='mr2 f6 gray strike' data-testid='was-price'>{e(b.list_price)}</span>"
            f"<span class='w_VbBP w_mFV6 w_awtk f7 green b'>You save ${list_amount - amount:.2f}</span>"
            if on_sale
            else ""
        )
        + "</div><div class='f7 gray'>Price when purchased online</div>"
        "<div data-testid='variant-group-0' class='mt3'><span class='b f6'>Format: </span>"
        f"<span class='f6'>{e(b.binding)}</span><div class='flex mt2'>{tiles}</div></div>"
        "<div data-testid='fulfillment-options' class='mt3 flex'>"
        f"<div class='f7 ba br2 pa2 w-33'>Shipping<br>Arrives {arrive}</div>"
        "<div class='f7 ba br2 pa2 w-33'>Pickup<br>Not available</div>"
        f"<div class='f7 ba br2 pa2 w-33'>Delivery<br>{'Not available' if pre_owned else 'Today'}</div>"
        "</div>"
        f"<div class='mt2 f6' data-testid='seller-info'>Sold and shipped by <a href='/seller/"
        f"{e(seller.replace(' ', '-').lower())}'>{e(seller)}</a>"
        + (" <span class='f7 b blue'>Pro Seller</span>" if seller != WM_SELLERS[0] else "")
        + "</div>"
        + (
            f"<div class='mt2 f6'>Condition: <span class='b'>{r.choice(['Good', 'Very good', 'Acceptable'])}"
            "</span></div>"
            if pre_owned
            else ""
        )
        + "<button class='w_hhLG w_8nsR w_jDfj' data-automation-id='atc'>Add to cart</button></div>"
        "</div></section>"
        "<section class='mt4' data-testid='about-this-item'><h2 class='f4 b'>About this item</h2>"
        "<div class='dangerous-html mb3'><p>"
        f"{e(b.title)} was first published in {e(b.first_published)}. This {e(b.binding.lower())} "
        f"edition has {b.pages} pages.</p></div></section>"
        "<section class='mt4' data-testid='specifications'><h2 class='f4 b'>Specifications</h2>"
        f"{spec_html}</section>"
        "<section class='mt4' data-testid='similar-items'><h2 class='f4 b'>Similar items you might like"
        f"</h2><div class='flex'>{cards}</div></section>"
        "<section id='item-review-section' class='mt4'><h2 class='f4 b'>Customer reviews &amp; ratings"
        f"</h2><ul class='list pl0'>{reviews}</ul></section></div>"
        f"<script id='__NEXT_DATA__' type='application/json'>{next_data}</script>",
    )


def _twd(price: str) -> int:
    """A "442元" price as a number."""
    return int(price.rstrip("元"))


BTW_ROLES = ["譯者", "繪者"]
BTW_PLACES = {"Penguin Books": "英國", "Vintage": "美國", "Harper Collins": "美國", "Tor": "美國"}


def bookscomtw_product(b: Book) -> str:
    """A Taiwanese bookshop's imported-book page (博客來's shape, traditional Chinese): ``og:``
    metas, JSON-LD and a hidden floating mini bar with title and price first; the breadcrumb
    "博客來 > 外文書 > 文學小說 > 小說"; the h1 and the series as an h2 on some pages; a list of
    "作者：" (author links separated by ", " and followed by "追蹤作者" / "新功能介紹" links),
    "譯者："/"繪者：" on some pages, "出版社：" (link with the same follow links) and "出版日期："
    in "2020/03/05" form; prices "定價：<em>560</em>元" and on sale pages "優惠價：79折442元"
    as bold number elements with "元" in the tail, a "優惠期限" date in the same format and
    a bulk price; "內容簡介" naming the first edition's date; "詳細資料" lines "ISBN：",
    "規格：Paperback / 320頁 / ..." and "商品編號："; "買了此商品的人，也買了..." with authors and
    prices."""
    r = random.Random(b.isbn + "bookscomtw")
    on_sale = _on_sale(b)
    amount = _twd(b.price)
    list_amount = _twd(b.list_price)
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    role = r.choice(BTW_ROLES)
    product_id = f"F01{int(b.isbn[-7:]):07d}"
    ld = json.dumps(
        {"@context": "https://schema.org", "@type": "Book", "name": b.title, "isbn": b.isbn,
         "author": [{"@type": "Person", "name": n} for n in b.authors],
         "offers": {"@type": "Offer", "price": amount, "priceCurrency": "TWD"}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    trace = (
        "<a href='#' class='type02_btn02'><span><span class='trace_box'>&nbsp;</span>追蹤作者</span></a>"
        " <a href='//www.books.com.tw/activity/2015/06/trace_author/' target='_blank'>新功能介紹</a>"
    )

    def people(names: list[str]) -> str:
        return ", ".join(
            f"<a href='//search.books.com.tw/search/query/key/{e(n.replace(' ', '+'))}/adv_author/1/'>"
            f"{e(n)}</a>"
            for n in names
        )

    info = f"<li>作者： {people(b.authors)} {trace}</li>"
    if helpers:
        info += f"<li>{role}： {people(helpers)}</li>"
    info += (
        f"<li>出版社：<a href='//search.books.com.tw/search/query/key/{e(b.publisher.replace(' ', '+'))}"
        f"/adv_pub/1/'><span>{e(b.publisher)}</span></a> "
        "<a href='#' class='type02_btn02'><span><span class='trace_box'>&nbsp;</span>追蹤出版社</span></a>"
        " <a href='//www.books.com.tw/activity/2015/06/trace_author/' target='_blank'>新功能介紹</a></li>"
        f"<li>出版日期：{e(b.published)}</li><li>語言：英文</li>"
    )
    if on_sale:
        pct = round(100 * amount / list_amount)
        off = str(pct // 10) if pct % 10 == 0 else str(pct)
        prices = (
            f"<li>定價：<em>{list_amount}</em>元</li>"
            f"<li>優惠價：<strong><b>{off}</b></strong>折"
            f"<strong class='price01'><b>{amount}</b></strong>元</li>"
            f"<li>優惠期限：{b.published[:4]}/12/31止</li>"
        )
    else:
        prices = f"<li>定價：<em>{amount}</em>元</li>"
    bulk = round(amount * 0.85)
    prices += f"<li class='bulk'>本商品單次購買10本85折<strong><b>{bulk}</b></strong>元</li>"
    details = [f"ISBN：{b.isbn}"]
    if b.series:
        details.append(f"叢書系列：{e(b.series)}")
    details += [
        f"規格：{e(b.binding)} / {b.pages}頁 / {r.randint(18, 24)}.{r.randint(0, 9)} x "
        f"{r.randint(12, 16)}.{r.randint(0, 9)} x {r.randint(1, 4)}.{r.randint(0, 9)} cm / 普通級 / 單色印刷",
        f"出版地：{BTW_PLACES[b.publisher]}",
        f"商品編號：{e(b.sku)}",
    ]
    if b.edition:
        details.insert(1, f"版次：{e(b.edition)}")
    cards = "".join(
        "<li class='item'>"
        f"<a href='/products/F01{r.randint(1000000, 9999999)}'><img src='/img/{i}.jpg' alt='{e(t)}'></a>"
        f"<h4><a href='/products/x{i}'>{e(t)}</a></h4><ul class='msg'><li class='author'>{e(a)}</li>"
        f"<li class='price_a'>優惠價：<strong><b>{_twd(p)}</b></strong>元</li></ul></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    points = amount // 33
    return _page(
        "博客來",
        f"<meta property='og:title' content='{e(b.title)}'>"
        f"<meta property='og:url' content='https://www.books.com.tw/products/{product_id}'>"
        f"<script type='application/ld+json'>{ld}</script>"
        "<div id='fix_nav' class='fixed_nav' style='display:none'>"
        f"<h2>{e(b.title)}</h2><span class='price'>{amount}元</span>"
        "<a class='type02_btn09'>放入購物車</a></div>"
        "<ul class='nav_main'><li><a href='/web/books'>中文書</a></li>"
        "<li><a href='/web/books_topm_F1'>外文書</a></li><li><a href='/web/ebook'>電子書</a></li>"
        "<li><a href='/web/magazine'>雜誌</a></li></ul>"
        "<ul class='container_24 type04_breadcrumb'><li><a href='/'>博客來</a></li>"
        "<li><a href='/web/books_topm_F1'>外文書</a></li>"
        "<li><a href='/web/books_bmidm_F101'>文學小說</a></li>"
        "<li><a href='/web/books_bsubm_F10101'>小說</a></li></ul>"
        "<div class='container_24 main_wrap clearfix'><div class='grid_19 alpha'>"
        "<div class='mod type02_p002 clearfix'>"
        f"<h1>{e(b.title)}</h1>"
        + (
            f"<h2><a href='/web/sys_puballb/books/?series={e(b.series)}'>{e(b.series)}</a></h2>"
            if b.series
            else ""
        )
        + "</div><div class='cnt_mod002 cover_img'>"
        f"<img class='cover M201106_0_getTakelook_P00a400020052_image_wrap' src='/img/{product_id}.jpg' "
        f"alt='{e(b.title)}'></div>"
        f"<div class='type02_p003 clearfix'><ul>{info}</ul></div>"
        f"<div class='cnt_prod002 clearfix'><ul class='price'>{prices}</ul>"
        f"<ul class='type02_p004'><li>可得紅利積點：{points} 點</li><li>庫存 &gt; 10</li>"
        "<li>可配送點：台灣、蘭嶼、綠島、澎湖、金門、馬祖</li>"
        "<li>可取貨點：台灣、蘭嶼、綠島、澎湖、金門、馬祖</li></ul>"
        "<a class='type02_btn09' href='#'>放入購物車</a></div>"
        "<div class='mod_b type02_m057 clearfix'><h3>內容簡介</h3><div class='bd'><div class='content'>"
        f"<p>本書首次出版於{e(b.first_published)}，{e(b.publisher)}推出全新{e(b.binding)}版本，"
        f"共{b.pages}頁。</p></div></div></div>"
        "<div class='mod_b type02_m057 clearfix'><h3>作者介紹</h3><div class='bd'><div class='content'>"
        f"<p>作者簡介 {e(b.authors[0])}，現居{r.choice(CITIES)}。</p></div></div></div>"
        "<div class='mod_b type02_m058 clearfix'><h3>詳細資料</h3><div class='bd'><ul>"
        + "".join(f"<li>{x}</li>" for x in details)
        + "</ul></div></div>"
        "<div class='mod type02_m035 clearfix'><h3>買了此商品的人，也買了...</h3>"
        f"<ul class='table-td'>{cards}</ul></div></div></div>",
    )


DECITRE_ROLES = [("Traducteur", "Traduit par"), ("Illustrateur", "Illustré par")]
DECITRE_STORES = ["Lyon Bellecour", "Grenoble Grand'Place", "Annecy Courier", "Saint-Étienne"]
DECITRE_REVIEWERS = ["Claire L.", "Julien M.", "Sophie B.", "Thomas D."]
DECITRE_COMMENTS = ["Très bon roman, en anglais facile.", "Livraison rapide.", "Un peu long."]


def decitre_product(b: Book) -> str:
    """A French bookshop's page for an English book (Decitre's shape): a ``dataLayer`` script and
    a hidden ``itemscope`` block with meta copies first; breadcrumbs "Accueil > Livres en VO >
    Fiction > Romans"; the h1 holding an ``itemprop=name`` span; "de A, B" author links, a
    "Traduit par"/"Illustré par" line on some pages; format tabs with every binding's price and
    an "Ebook" tab; the price "12,99 €" (French law allows no sale on new books) with "-5% en
    retrait magasin" at 95% of it and "Occasion dès" a lower price; a delivery window as two dates
    in the page's own "05/03/2020" form; the "Résumé" naming the first edition's date;
    "Caractéristiques" as label/value span pairs with "Date de parution", "Editeur", "ISBN"
    hyphenated, "EAN" plain, "Format" ("Poche"/"Grand format"), "Présentation" (the binding),
    "Référence"; "Les clients ont également aimé" cards with authors and prices; reader reviews
    dated in the same form."""
    r = random.Random(b.isbn + "decitre")
    amount = _euros(b.price)
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    role, role_line = r.choice(DECITRE_ROLES)
    data_layer = json.dumps(
        {"event": "productDetail", "ecommerce": {"detail": {"products": [
            {"name": b.title, "id": b.isbn, "price": f"{amount:.2f}", "brand": b.publisher,
             "category": "Livres en VO"}]}}},
    ).replace("</", "<\\/")  # fmt: skip
    links = [
        f"<a class='author-link' href='/auteur/{1000 + i * 7 + int(b.isbn[-3:])}/{e(n.replace(' ', '+'))}'>"
        f"{e(n)}</a>"
        for i, n in enumerate(b.authors)
    ]
    tabs = "".join(
        f"<li class='fp-format{' fp-format--active' if x == b.binding else ''}'>"
        f"<a href='/livres/{e(b.slug)}-{b.isbn if x == b.binding else _isbn13(r)}.html'>"
        f"<span class='fp-format__name'>{e(x)}</span>"
        f"<span class='fp-format__price'>{e(b.price if x == b.binding else _other_price(b, k))}</span>"
        "</a></li>"
        for k, x in enumerate(BINDINGS)
    )
    tabs += (
        "<li class='fp-format'><a href='/ebooks/x.html'><span class='fp-format__name'>Ebook</span>"
        f"<span class='fp-format__price'>{_euro_text(amount * 0.7)}</span></a></li>"
    )
    year = int(b.published[-4:])
    start = r.randint(1, 20)
    window = (slash_dmy(year + 5, r.randint(1, 12), start), slash_dmy(year + 5, r.randint(1, 12), start + 3))
    caract = [
        ("Date de parution", e(b.published)),
        ("Editeur", f"<a href='/editeur/{e(b.publisher.replace(' ', '+'))}'>{e(b.publisher)}</a>"),
    ]
    if b.series:
        caract.append(("Collection", e(b.series)))
    caract += [("ISBN", _hyphenated_isbn(b.isbn)), ("EAN", b.isbn),
               ("Format", "Poche" if "Mass" in b.binding else "Grand format"),
               ("Présentation", e(b.binding)), ("Nb. de pages", f"{b.pages} pages"),
               ("Poids", f"{r.randint(150, 900) / 1000:.3f} Kg".replace(".", ",")),
               ("Dimensions", f"{r.randint(11, 16)},0 cm × {r.randint(17, 24)},0 cm × "
                              f"{r.randint(1, 4)},{r.randint(0, 9)} cm"),
               ("Référence", e(b.sku))]  # fmt: skip
    caract_html = "".join(
        f"<li class='fp-caract'><span class='fp-caract__label'>{k}</span>"
        f"<span class='fp-caract__value'>{v}</span></li>"
        for k, v in caract
    )
    cards = "".join(
        "<div class='product-card'>"
        f"<a class='product-card__img' href='/livres/{e(t.lower().replace(' ', '-'))}-{_isbn13(r)}.html'>"
        f"<img src='/media/{i}.jpg' alt='{e(t)}'></a>"
        f"<div class='product-card__title'>{e(t)}</div>"
        f"<div class='product-card__author'>{e(a)}</div>"
        f"<div class='product-card__price'>{e(p)}</div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    reviews = "".join(
        f"<div class='review'><span class='review__author'>{r.choice(DECITRE_REVIEWERS)}</span> "
        f"<span class='review__date'>le "
        f"{slash_dmy(year + r.randint(0, 3), r.randint(1, 12), r.randint(1, 28))}</span>"
        f"<p>{r.choice(DECITRE_COMMENTS)}</p></div>"
        for _ in range(r.randint(0, 3))
    )
    return _page(
        "Decitre",
        f"<script>window.dataLayer = window.dataLayer || []; dataLayer.push({data_layer});</script>"
        "<div itemscope itemtype='https://schema.org/Book' hidden>"
        f"<meta itemprop='name' content='{e(b.title)}'><meta itemprop='isbn' content='{b.isbn}'>"
        f"<meta itemprop='author' content='{e(', '.join(b.authors))}'>"
        f"<meta itemprop='datePublished' content='{e(b.published)}'></div>"
        "<nav class='main-menu'><a href='/livres.html'>Livres</a> <a href='/ebooks.html'>Ebooks</a> "
        "<a href='/livres-en-vo.html'>Livres en VO</a> <a href='/librairies.html'>Nos librairies</a></nav>"
        "<ol class='breadcrumbs'><li><a href='/'>Accueil</a></li>"
        "<li><a href='/livres-en-vo.html'>Livres en VO</a></li>"
        "<li><a href='/livres-en-vo/fiction.html'>Fiction</a></li>"
        "<li><a href='/livres-en-vo/fiction/romans.html'>Romans</a></li></ol>"
        "<div class='fp-top'><div class='fp-top__cover'>"
        f"<img src='/media/catalog/product/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='fp-top__infos'>"
        f"<h1 class='product-title'><span itemprop='name'>{e(b.title)}</span></h1>"
        + (f"<div class='product-subtitle'>{e(b.series)}</div>" if b.series and r.random() < 0.5 else "")
        + f"<div class='authors'>de {', '.join(links)}</div>"
        + (
            f"<div class='authors authors--secondary'>{role_line} <a class='author-link' "
            f"href='/auteur/9{int(b.isbn[-4:])}/{e(helpers[0].replace(' ', '+'))}' title='{role}'>"
            f"{e(helpers[0])}</a></div>"
            if helpers
            else ""
        )
        + "<div class='fp-rating'>"
        f"<span class='fp-rating__stars' data-rating='{r.randint(30, 50) / 10}'></span> "
        f"<a href='#avis'>{r.randint(0, 12)} avis</a></div>"
        f"<ul class='fp-formats'>{tabs}</ul></div>"
        "<div class='fp-top__buy'><div class='fp-price'>"
        f"<span class='fp-price__final'>{e(b.price)}</span></div>"
        "<div class='fp-price__store'>-5% en retrait magasin : "
        f"<strong>{_euro_text(amount * 0.95)}</strong></div>"
        "<div class='fp-availability fp-availability--instock'>En stock en ligne</div>"
        f"<div class='fp-delivery'>Livré chez vous entre le {window[0]} et le {window[1]}</div>"
        f"<div class='fp-store'>Retrait gratuit à la librairie {r.choice(DECITRE_STORES)}</div>"
        "<button class='btn btn--primary fp-add-to-cart'>Ajouter au panier</button>"
        + (
            f"<a class='fp-second-hand' href='/occasion/{b.isbn}'>Occasion dès "
            f"{_euro_text(amount * r.choice([0.5, 0.6, 0.7]))}</a>"
            if r.random() < 0.5
            else ""
        )
        + "</div></div>"
        "<section class='fp-resume'><h2>Résumé</h2>"
        f"<p>Paru pour la première fois le {e(b.first_published)}, {e(b.title)} est disponible en "
        f"version originale chez {e(b.publisher)}.</p></section>"
        "<section class='fp-biography'><h2>Biographie</h2>"
        f"<p>{e(b.authors[0])} vit à {r.choice(['Londres', 'New York', 'Toronto', 'Dublin'])}.</p></section>"
        "<section class='fp-caracteristiques'><h2>Caractéristiques</h2>"
        f"<ul>{caract_html}</ul></section>"
        "<section class='fp-crosssell'><h2>Les clients ont également aimé</h2>"
        f"<div class='product-list'>{cards}</div></section>"
        f"<section id='avis' class='fp-reviews'><h2>Avis des lecteurs</h2>{reviews}</section>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 23: written without reading the learner's code, copying the page shapes of a US used-book
# shop, a Korean bookshop's imported-book page, a Brazilian used-book marketplace and a Singapore
# bookshop built with utility CSS classes.

TB_CONDITIONS = ["Acceptable", "Good", "Very Good", "Like New", "New"]
TB_SUBJECTS = ["Fiction", "Literature", "Literary Fiction", "Contemporary Fiction", "Family Life"]
TB_REVIEWS = ["Arrived quickly and in better shape than described.", "A wonderful read, highly recommend.",
              "The ending was a little rushed but I loved it."]  # fmt: skip


def thriftbooks_work(b: Book) -> str:
    """A US used-book shop's work page (ThriftBooks' shape, a React app with "Block-element"
    classes): a hidden mobile header with the title and byline first; the crumbs "Books >
    Literature & Fiction > ..."; the h1 and "by" author links (an "Illustrated by" or "Edited by"
    line on some pages); a format selector listing every binding with its own "from $x.xx" (the
    shown binding's from-price is its cheapest copy); condition buttons "Acceptable" to "New"
    each with its own price or "Out of stock", the chosen one's price as the big price beside
    a struck "List Price" and "Save $x (y%)"; "Details" as "Label:" spans and values ("Release
    Date" in "March 2020" form, "ISBN" the ten-digit one, "ISBN13"); an overview naming the
    first edition's month; "More by" and "Customers Also Bought" cards with authors and prices."""
    r = random.Random(b.isbn + "thriftbooks")
    amount = _dollars(b.price)
    list_amount = _dollars(b.list_price)
    chosen = r.randint(0, 3)
    prices: list[str | None] = []
    for k in range(len(TB_CONDITIONS)):
        if k == chosen:
            prices.append(b.price)
        elif r.random() < 0.25:
            prices.append(None)  # out of stock in that condition
        else:
            prices.append(f"${max(amount + (k - chosen) * r.uniform(0.6, 1.4), 0.99):.2f}")
    cheapest = min((p for p in prices if p), key=_dollars)
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    helper_role = r.choice(["Illustrated by", "Edited by", "Foreword by"])

    def people(names: list[str]) -> str:
        return ", ".join(
            f"<a class='WorkMeta-authorLink' href='/a/{e(n.lower().replace(' ', '-'))}/{300000 + len(n)}/'>"
            f"{e(n)}</a>"
            for n in names
        )

    formats = ""
    for k, binding in enumerate(BINDINGS):
        current = binding == b.binding
        formats += (
            f"<button class='WorkSelector-format{' is-selected' if current else ''}' type='button'>"
            f"<span class='WorkSelector-formatName'>{e(binding)}</span>"
            f"<span class='WorkSelector-formatPrice'>from {e(cheapest if current else _other_price(b, k))}"
            "</span></button>"
        )
    conditions = "".join(
        f"<button class='WorkSelector-condition{' is-selected' if k == chosen else ''}"
        f"{' is-disabled' if p is None else ''}' type='button'>"
        f"<span class='WorkSelector-conditionName'>{c}</span>"
        f"<span class='WorkSelector-conditionPrice'>{e(p) if p else 'Out of stock'}</span></button>"
        for k, (c, p) in enumerate(zip(TB_CONDITIONS, prices, strict=True))
    )
    rows = [("Format", b.binding), ("Language", "English"), ("ISBN", _isbn10(b.isbn)), ("ISBN13", b.isbn),
            ("Release Date", b.published), ("Publisher", b.publisher), ("Length", f"{b.pages} Pages"),
            ("Weight", f"{r.randint(25, 190) / 100:.2f} lbs."),
            ("Dimensions", f"{r.randint(5, 7)}.{r.randint(0, 9)} x {r.randint(1, 2)}.{r.randint(0, 9)} x "
                           f"{r.randint(8, 9)}.{r.randint(0, 9)}")]  # fmt: skip
    if b.edition:
        rows.insert(5, ("Edition", b.edition))
    if b.series:
        rows.append(("Series", b.series))
    rows.append(("Item Number", b.sku))
    details = "".join(
        f"<div class='WorkMeta-detail'><span class='WorkMeta-detailTitle'>{e(k)}:</span> "
        f"<span class='WorkMeta-detailValue'>{e(v)}</span></div>"
        for k, v in rows
    )

    def cards(items: list[tuple[str, str, str]], with_author: bool) -> str:
        return "".join(
            "<div class='AllEditionsItem-tile'>"
            f"<a href='/w/{e(t.lower().replace(' ', '-'))}_{a.split()[-1].lower()}/{1000000 + i}/'>"
            f"<img class='AllEditionsItem-image' src='/covers/{i}.jpg' alt='{e(t)}'></a>"
            f"<div class='AllEditionsItem-title'>{e(t)}</div>"
            + (f"<div class='AllEditionsItem-author'>{e(a)}</div>" if with_author else "")
            + f"<div class='AllEditionsItem-price'>{e(p)}</div></div>"
            for i, (t, a, p) in enumerate(items)
        )

    more_by = [(t, b.authors[0], f"${_dollars(p) * 0.6:.2f}") for t, _, p in b.related[:2]]
    n_reviews = r.randint(0, 60)
    reviewer = _people(r, 1)[0]
    saving = list_amount - amount
    return _page(
        "ThriftBooks",
        "<div class='Header-promo'>Free shipping on U.S. orders over $15</div>"
        "<div class='WorkMeta-mobileHeader' hidden>"
        f"<h2 class='WorkMeta-mobileTitle'>{e(b.title)}</h2>"
        f"<div class='WorkMeta-mobileAuthors'>by {e(', '.join(b.authors))}</div></div>"
        "<div class='Breadcrumbs'><a href='/browse/'>Books</a> &gt; "
        "<a href='/browse/?b.search=literature-fiction'>Literature &amp; Fiction</a> &gt; "
        f"<a href='/browse/?b.search=contemporary'>{r.choice(['Contemporary', 'Literary', 'Family Life'])}"
        "</a></div>"
        "<div class='WorkPage-container'><div class='WorkPage-image'>"
        f"<img src='/covers/{b.isbn}.jpg' alt='{e(b.title)} book by {e(b.authors[0])}'></div>"
        "<div class='WorkMeta'>"
        f"<h1 class='WorkMeta-title Alternative-title'>{e(b.title)}</h1>"
        + (f"<div class='WorkMeta-series'>({e(b.series)})</div>" if b.series else "")
        + f"<div class='WorkMeta-authors'>by {people(b.authors)}</div>"
        + (f"<div class='WorkMeta-authors'>{helper_role} {people(helpers)}</div>" if helpers else "")
        + "<div class='WorkMeta-rating'>"
        f"<span class='Stars'>{r.randint(30, 50) / 10}</span> <a href='#reviews'>{n_reviews} ratings</a>"
        "</div></div>"
        "<div class='WorkSelector'><div class='WorkSelector-formats'>"
        f"<div class='WorkSelector-label'>Select Format</div>{formats}</div>"
        "<div class='WorkSelector-conditions'><div class='WorkSelector-label'>Select Condition "
        "<a href='/help/condition-guidelines/'>Condition guidelines</a></div>"
        f"{conditions}</div>"
        "<div class='WorkSelector-priceRow'>"
        f"<span class='WorkSelector-price'>{e(b.price)}</span>"
        + (
            f"<span class='WorkSelector-listPrice'>List Price: <s>{e(b.list_price)}</s></span>"
            f"<span class='WorkSelector-savings'>Save ${saving:.2f} ({round(100 * saving / list_amount)}%)"
            "</span>"
            if _on_sale(b)
            else ""
        )
        + "</div>"
        f"<div class='WorkSelector-stock'>{TB_CONDITIONS[chosen]} condition, "
        f"{r.choice(['Only 1 left', 'Only 2 left', 'In stock'])}</div>"
        "<button class='NewButton NewButton--primary'>Add to Cart</button>"
        "<button class='NewButton'>Add to Wish List</button>"
        f"<div class='WorkSelector-points'>Earn {round(amount * 10)} ReadingRewards points</div>"
        "</div></div>"
        "<div class='WorkMeta-overview'><h2>Book Overview</h2>"
        f"<p>Originally published in {e(b.first_published)}, {e(b.title)} is now back in a "
        f"{e(b.binding.lower())} edition from {e(b.publisher)}.</p>"
        "<p class='WorkMeta-overviewNote'>This description may be from another edition of this "
        "product.</p></div>"
        f"<div class='WorkMeta-details'><h2>Edition Details</h2>{details}</div>"
        "<div class='WorkMeta-subjects'><h2>Related Subjects</h2>"
        + " ".join(f"<a href='/browse/?b.search={e(s)}'>{e(s)}</a>" for s in r.sample(TB_SUBJECTS, 3))
        + "</div>"
        f"<div class='AllEditions'><h2>More by {e(b.authors[0])}</h2>{cards(more_by, False)}</div>"
        f"<div class='AllEditions'><h2>Customers Also Bought</h2>{cards(b.related, True)}</div>"
        "<div id='reviews' class='Reviews'><h2>Customer Reviews</h2>"
        f"<div class='Review'><div class='Review-title'>{r.choice(['Great read', 'Loved it', 'Solid'])}</div>"
        f"<div class='Review-meta'>Published by {e(reviewer)}, {r.randint(2021, 2025)}</div>"
        f"<p class='Review-text'>{r.choice(TB_REVIEWS)}</p></div></div>",
    )


ALADIN_ROLES = ["옮긴이", "그림", "엮은이"]
ALADIN_SHOPS = ["광활한 우주점", "책방 온다", "헌책방 기담", "북스토리"]


def _won_text(amount: float) -> str:
    """Whole won rounded to tens, the way Korean shops print them: "13,500원"."""
    return f"{round(amount / 10) * 10:,}원"


def aladin_product(b: Book) -> str:
    """A Korean bookshop's imported-book page (Aladin's shape, an old ASP.NET site with
    "Ere_" classes): ``og:`` metas, a hidden item-id input and a hidden floating buy bar with
    the title and price first; the category path "국내도서 > 외국도서 > 소설/시/희곡"; the title
    span followed by "(Paperback, 미국판)"; one author line with links grouped by role ("A, B
    (지은이), C (옮긴이)") then "| publisher link | 2020-03-05" in the same text; a price list
    of "정가 15,000원", "판매가 13,500원 (10%, 1,500원 할인)", mileage and an e-book price; other
    bindings with their own prices; used copies with won prices; "기본정보" as list items
    ("Paperback", "320쪽", "ISBN : 978...", "상품코드 : BK-10..."); a description naming the
    first edition's ISO date; "이 책을 구입하신 분들이 산 책" with authors and prices."""
    r = random.Random(b.isbn + "aladin")
    won = _won(b.price)
    list_won = _won(b.list_price)
    item_id = 200000000 + int(b.isbn[-8:])
    helpers = _others(r, b, 1) if r.random() < 0.4 else []
    role = r.choice(ALADIN_ROLES)

    def group(names: list[str], label: str) -> str:
        links = ", ".join(
            f"<a class='Ere_sub2_title' href='/Search/wSearchResult.aspx?AuthorSearch=@"
            f"{700000 + len(n) * 13}'>"
            f"{e(n)}</a>"
            for n in names
        )
        return f"{links} ({label})"

    byline = group(b.authors, "지은이") + (", " + group(helpers, role) if helpers else "")
    edition = r.choice(["미국판", "영국판"])
    sale = _on_sale(b)
    price_rows = []
    if sale:
        price_rows.append(("정가", f"<span class='Ritem_p'>{e(b.list_price)}</span>"))
    price_rows.append(
        (
            "판매가",
            f"<span class='Ere_fs24 Ere_ht18'><b>{e(b.price)}</b></span>"
            + (
                f" ({round(100 * (list_won - won) / list_won)}%, {_won_text(list_won - won)} 할인)"
                if sale
                else ""
            ),
        )
    )
    price_rows.append(("마일리지", f"{_won_text(won * 0.05)}(5%) + 멤버십(3~1%)"))
    price_rows.append(("배송료", "무료" if won >= 15000 else "2,500원 (15,000원 이상 무료)"))
    prices = "".join(
        f"<li><div class='Litem'>{k}</div><div class='Ritem'>{v}</div></li>" for k, v in price_rows
    )
    others = "".join(
        f"<li><a href='/shop/wproduct.aspx?ItemId={item_id + k + 1}'>{e(x)}</a> "
        f"<span class='ss_p2'>{e(_other_price(b, k))}</span></li>"
        for k, x in enumerate(BINDINGS)
        if x != b.binding
    )
    used = "".join(
        f"<tr><td class='used_shop'>{e(shop)}</td>"
        f"<td class='used_grade'>{r.choice(['최상', '상', '중'])}</td>"
        f"<td class='used_price'>{_won_text(won * r.uniform(0.35, 0.8))}</td></tr>"
        for shop in r.sample(ALADIN_SHOPS, r.randint(1, 3))
    )
    info = [e(b.binding), f"{b.pages}쪽", f"{r.choice([129, 133, 152])}*{r.choice([198, 203, 229])}mm",
            f"{r.randint(180, 750)}g", "영어", f"ISBN : {b.isbn}"]  # fmt: skip
    if b.edition:
        info.insert(1, e(b.edition))
    info.append(f"상품코드 : {e(b.sku)}")
    info_html = "".join(f"<li>{x}</li>" for x in info)
    recs = "".join(
        f"<li><div class='cover'><img src='https://image.aladin.example/product/{i}/cover150.jpg'></div>"
        f"<a class='bo3' href='/shop/wproduct.aspx?ItemId={item_id + 10 + i}'><b>{e(t)}</b></a><br>"
        f"<span class='ss_f1'>{e(a)} (지은이)</span><br><span class='ss_p2'>{e(p)}</span></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "알라딘",
        f"<meta property='og:title' content='{e(b.title)}'>"
        f"<meta property='og:description' content='{e(', '.join(b.authors))} | {e(b.publisher)}'>"
        f"<meta property='og:url' content='https://www.aladin.example/shop/wproduct.aspx?ItemId={item_id}'>"
        f"<input type='hidden' id='hdnItemId' value='{item_id}'>"
        f"<input type='hidden' id='hdnISBN' value='{b.isbn}'>"
        "<div class='floating_buy' style='display:none'>"
        f"<span class='floating_title'>{e(b.title)}</span><span class='floating_price'>{e(b.price)}</span>"
        "<a href='#' class='btn_cart'>장바구니 담기</a></div>"
        "<div class='gnb'><a href='/shop/wbook.aspx'>국내도서</a> <a href='/shop/wforeign.aspx'>외국도서</a> "
        "<a href='/shop/used.aspx'>중고샵</a> <a href='/ebook'>전자책</a></div>"
        "<div class='Ere_prod_topwrap'><div class='Ere_location'>"
        "<a href='/'>국내도서</a> &gt; <a href='/shop/wforeign.aspx'>외국도서</a> &gt; "
        "<a href='/shop/wbrowse.aspx?CID=90842'>소설/시/희곡</a> &gt; "
        f"<a href='/shop/wbrowse.aspx?CID=90843'>{r.choice(['영미소설', '장르소설'])}</a></div>"
        "<div class='Ere_prod_titlewrap'><div class='left'>"
        f"<span class='Ere_bo_title'>{e(b.title)}</span> "
        f"<span class='Ere_sub1_title'>({e(b.binding)}, {edition})</span></div>"
        "<ul><li class='Ere_sub2_title'>"
        f"{byline} | <a class='Ere_sub2_title' href='/Search/wSearchResult.aspx?PublisherSearch="
        f"{e(b.publisher.replace(' ', '%20'))}'>{e(b.publisher)}</a> | {e(b.published)}</li>"
        + (f"<li class='Ere_sub_gray'>시리즈 : {e(b.series)}</li>" if b.series else "")
        + "<li class='Ere_sub_gray'>"
        f"<span class='star_score'>{r.randint(60, 100) / 10}</span> "
        f"<a href='#review'>100자평({r.randint(0, 20)})</a> "
        f"<a href='#review'>리뷰({r.randint(0, 8)})</a></li></ul></div></div>"
        "<div class='Ere_prod_mconts_box'><div class='cover'>"
        f"<img src='https://image.aladin.example/product/{item_id}/cover500.jpg' alt='{e(b.title)}'></div>"
        f"<div class='info_list'><ul>{prices}</ul></div>"
        "<div class='Ere_prod_delivery'>"
        f"<span>{r.choice(['양탄자배송', '지금 주문하면'])}</span> "
        f"{r.choice(['내일', '모레'])} 출고 예상 "
        f"(해외 주문도서, {r.randint(2, 5)}~{r.randint(6, 9)}일 소요)</div>"
        "<div class='Ere_prod_ebook'>전자책 "
        f"<span class='ss_p2'>{_won_text(won * 0.7)}</span></div>"
        f"<div class='Ere_prod_other'><h4>이 상품의 다른 판형</h4><ul>{others}</ul></div>"
        "<div class='Ere_btn_wrap'><a class='btn_cart'>장바구니 담기</a> "
        "<a class='btn_buy'>바로구매</a></div>"
        "</div>"
        + (
            f"<div class='Ere_used'><h4>중고상품</h4><table>{used}</table>"
            "<a href='/shop/UsedShop/wuseditemall.aspx'>중고 모두보기</a></div>"
            if used and r.random() < 0.6
            else ""
        )
        + "<div class='Ere_prod_mconts_box'><div class='Ere_prod_mconts_LS'>기본정보</div>"
        f"<div class='conts_info_list1'><ul>{info_html}</ul></div></div>"
        "<div class='Ere_prod_mconts_box'><div class='Ere_prod_mconts_LS'>책소개</div>"
        f"<div class='Ere_prod_mconts_R'>{e(b.first_published)}에 처음 출간된 작품으로, "
        f"{e(b.publisher)}에서 새 {e(b.binding)} 판으로 나왔다. 총 {b.pages}쪽.</div></div>"
        "<div class='Ere_prod_mconts_box'><div class='Ere_prod_mconts_LS'>이 책을 구입하신 분들이 산 책</div>"
        f"<ul class='Ere_rec'>{recs}</ul></div>"
        "<div id='review' class='Ere_prod_mconts_box'><div class='Ere_prod_mconts_LS'>100자평</div>"
        f"<p>{r.choice(['원서로 읽기 좋아요.', '배송 빨라요.', '종이 질이 좋습니다.'])} "
        f"- {r.randint(2021, 2025)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}</p></div>",
    )


EV_SELLERS = [("Sebo Capitu", "São Paulo - SP"), ("Livraria Traça", "Rio de Janeiro - RJ"),
              ("Sebo do Messias", "São Paulo - SP"), ("Sebo Beco dos Livros", "Curitiba - PR"),
              ("Livros & Cia Usados", "Porto Alegre - RS"),
              ("Sebo Alfarrábio", "Belo Horizonte - MG")]  # fmt: skip
EV_STATES = ["Ótimo", "Bom", "Regular"]
EV_NOTES = ["livro em bom estado, capa com leves marcas de uso", "exemplar sem grifos, páginas amareladas",
            "lacrado, importado", "pequeno amassado na lombada"]  # fmt: skip


def _dv(component: str) -> str:
    """A Vue scoped-style attribute, one per component ("data-v-3f2a1c9e")."""
    return f"data-v-{hashlib.md5(component.encode()).hexdigest()[:8]}"


def _brl(amount: float) -> str:
    return f"R$ {amount:.2f}".replace(".", ",")


def estantevirtual_book(b: Book) -> str:
    """A Brazilian used-book marketplace's book page (Estante Virtual's shape, a Nuxt app with
    Vue scoped ``data-v-`` attributes and BEM classes): JSON-LD with an aggregate offer and a
    hidden sticky buy bar first; crumbs ending in the title; the h1 and author links; the best
    offer's "R$ 25,90" with "Usado"/"Novo", installments "ou 3x de R$ 8,63 sem juros", the seller
    and city; "Características" rows of label and value divs with "Ano" just the year
    ("2020"), "Autor" holding all names in one "A, B" text and "Cód. do anúncio"; "Mais ofertas"
    cards of other sellers, some for other editions, with their own "Editora:" and "Ano:" lines,
    UPPERCASE seller notes and prices; "Quem viu também viu" cards with authors and prices."""
    r = random.Random(b.isbn + "estantevirtual")
    amount = _reais(b.price)
    seller, city = r.choice(EV_SELLERS)
    condition = "Novo" if r.random() < 0.25 else "Usado"
    state = r.choice(EV_STATES)
    offers_n = r.randint(2, 5)
    offer_prices = sorted(amount + r.uniform(1, 60) for _ in range(offers_n))
    ld = json.dumps(
        {"@context": "https://schema.org", "@type": "Book", "name": b.title, "isbn": b.isbn,
         "author": [{"@type": "Person", "name": n} for n in b.authors],
         "publisher": {"@type": "Organization", "name": b.publisher},
         "offers": {"@type": "AggregateOffer", "lowPrice": f"{amount:.2f}",
                    "highPrice": f"{offer_prices[-1]:.2f}", "priceCurrency": "BRL",
                    "offerCount": offers_n + 1}},
    ).replace("</", "<\\/")  # fmt: skip
    pv = _dv("ProductView")
    authors = ", ".join(
        f"<a {pv} class='product-header__author-link' href='/autor/{e(n.lower().replace(' ', '-'))}'>"
        f"{e(n)}</a>"
        for n in b.authors
    )
    feats = [("Autor", ", ".join(b.authors)), ("Editora", b.publisher), ("Ano", b.published)]
    if b.edition:
        feats.append(("Edição", b.edition))
    feats += [("ISBN", b.isbn), ("Idioma", "Inglês"), ("Acabamento", b.binding), ("Páginas", str(b.pages))]
    if r.random() < 0.5:
        feats.append(("Peso", f"{r.randint(180, 900)} g"))
    feats.append(("Cód. do anúncio", b.sku))
    fv = _dv("BookFeatures")
    feats_html = "".join(
        f"<div {fv} class='book-features__item' data-testid='feature-{k.lower()[:6]}'>"
        f"<div {fv} class='book-features__label'>{e(k)}</div>"
        f"<div {fv} class='book-features__value'>{e(v)}</div></div>"
        for k, v in feats
    )
    ov = _dv("OfferCard")
    offers = ""
    for k, p in enumerate(offer_prices):
        o_seller, o_city = r.choice(EV_SELLERS)
        same = r.random() < 0.6
        o_pub = b.publisher if same else r.choice(PUBLISHERS)
        o_year = b.published if same else str(r.randint(1995, 2017))
        offers += (
            f"<div {ov} class='offer-card' data-testid='offer-card-{k}'>"
            f"<span {ov} class='offer-card__badge'>{r.choice(['Usado', 'Usado', 'Novo'])}</span>"
            f"<div {ov} class='offer-card__info'><p {ov}>Editora: {e(o_pub)}</p><p {ov}>Ano: {o_year}</p>"
            f"<p {ov} class='offer-card__note'>{e(r.choice(EV_NOTES).upper())}</p></div>"
            f"<div {ov} class='offer-card__seller'><a href='/livreiro/{k}'>{e(o_seller)}</a> "
            f"<span>{e(o_city)}</span></div>"
            f"<div {ov} class='offer-card__price'>{_brl(p)}</div>"
            f"<button {ov} class='offer-card__buy'>Comprar</button></div>"
        )
    cv = _dv("ProductCarousel")
    recs = "".join(
        f"<div {cv} class='product-card'><a href='/livros/{e(t.lower().replace(' ', '-'))}'>"
        f"<img src='/img/{i}.jpg' alt='{e(t)}'></a>"
        f"<p {cv} class='product-card__title'>{e(t)}</p><p {cv} class='product-card__author'>{e(a)}</p>"
        f"<p {cv} class='product-card__price'>a partir de {e(p)}</p></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    installments = r.choice([2, 3, 4]) if amount > 30 else 1
    bv = _dv("BuyBox")
    return _page(
        "Estante Virtual",
        f"<script type='application/ld+json'>{ld}</script>"
        f"<div {bv} class='sticky-buy-bar' style='display:none'>"
        f"<span {bv}>{e(b.title)}</span><span {bv}>{e(b.price)}</span>"
        f"<button {bv}>Comprar</button></div>"
        "<div class='header__menu'><a href='/'>Início</a> <a href='/livros'>Livros</a> "
        "<a href='/livreiros'>Livreiros</a> <a href='/vender'>Venda seus livros</a></div>"
        f"<nav {pv} class='breadcrumb'><a href='/'>Início</a> › <a href='/livros'>Livros</a> › "
        "<a href='/livros/literatura-estrangeira'>Literatura Estrangeira</a> › "
        f"<span {pv} class='breadcrumb__current'>{e(b.title)}</span></nav>"
        f"<section {pv} class='product-view'><div {pv} class='product-view__image'>"
        f"<img src='/img/capa/{b.isbn}.jpg' alt='Capa do livro {e(b.title)}'></div>"
        f"<div {pv} class='product-header'>"
        f"<h1 {pv} class='product-header__title'>{e(b.title)}</h1>"
        f"<p {pv} class='product-header__author'>{authors}</p>"
        f"<p {pv} class='product-header__offers'>{offers_n + 1} ofertas a partir de {e(b.price)}</p></div>"
        f"<div {bv} class='buy-box' data-testid='buy-box'>"
        f"<span {bv} class='buy-box__condition'>{condition}</span>"
        + (f"<span {bv} class='buy-box__state'>Estado: {state}</span>" if condition == "Usado" else "")
        + f"<p {bv} class='buy-box__price'>{e(b.price)}</p>"
        + (
            f"<p {bv} class='buy-box__installments'>ou {installments}x de "
            f"{_brl(amount / installments)} sem juros</p>"
            if installments > 1
            else ""
        )
        + f"<p {bv} class='buy-box__seller'>Vendido por <a href='/livreiro/principal'>{e(seller)}</a> "
        f"<span>{e(city)}</span></p>"
        f"<p {bv} class='buy-box__shipping'>Frete a partir de {_brl(r.choice([9.9, 12.5, 15.0]))}</p>"
        f"<button {bv} class='buy-box__button'>Comprar</button></div></section>"
        f"<section {fv} class='book-features'><h2 {fv}>Características</h2>{feats_html}</section>"
        "<section class='book-description'><h2>Sinopse</h2>"
        f"<p>Publicado originalmente em {e(b.first_published)}, {e(b.title)} chega em nova edição "
        f"{e(b.publisher)} com {b.pages} páginas.</p></section>"
        f"<section {ov} class='more-offers'><h2 {ov}>Mais ofertas deste livro ({offers_n})</h2>{offers}"
        "</section>"
        f"<section {cv} class='product-carousel'><h2 {cv}>Quem viu este livro também viu</h2>{recs}"
        "</section>",
    )


KINO_STORES = ["Main Store (Takashimaya S.C.)", "Bugis Junction", "Liang Court", "JEM"]


def kinokuniya_product(b: Book) -> str:
    """A Singapore bookshop's product page (Kinokuniya's web store shape) built with utility CSS
    classes ("text-sm font-medium text-gray-500"): JSON-LD and a hidden quick-view dialog with the
    title, price and ISBN first; crumbs "Home / Books / English Books / Fiction"; the h1; authors
    as links joined by " / "; a summary line "Paperback | Vintage | 05/03/2020"; the price
    "S$29.95" beside a struck one on some pages and a "Privilege Card member price"; a store
    availability table with shelf codes; "Product Details" as a ``dl`` grid with "Publication
    Date", "ISBN-10" and "ISBN-13", "Product Code"; a description naming the first edition's date;
    "Customers who bought this also bought" cards with authors and prices."""
    r = random.Random(b.isbn + "kinokuniya")
    amount = _dollars(b.price.removeprefix("S"))
    ld = json.dumps(
        {"@context": "https://schema.org/", "@type": "Product", "name": b.title, "sku": b.sku,
         "gtin13": b.isbn, "brand": {"@type": "Brand", "name": b.publisher},
         "offers": {"@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "SGD",
                    "availability": "https://schema.org/InStock"}},
    ).replace("</", "<\\/")  # fmt: skip
    link = "text-sky-700 hover:underline"
    authors = " / ".join(
        f"<a class='{link}' href='/search?author={e(n.replace(' ', '+'))}'>{e(n)}</a>" for n in b.authors
    )
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    details = [("Author", " / ".join(b.authors))]
    if helpers:
        details.append((r.choice(["Translator", "Illustrator", "Editor"]), helpers[0]))
    details += [("Publisher", b.publisher), ("Publication Date", b.published), ("Format", b.binding),
                ("Pages", str(b.pages)), ("Language", "English"), ("ISBN-10", _isbn10(b.isbn)),
                ("ISBN-13", b.isbn)]  # fmt: skip
    if b.edition:
        details.insert(3, ("Edition", b.edition))
    if b.series:
        details.append(("Series", b.series))
    if r.random() < 0.6:
        details.append(("Dimensions", f"{r.randint(18, 24)}.{r.randint(0, 9)} x {r.randint(11, 16)}.0 cm"))
    details.append(("Product Code", b.sku))
    dl = "".join(
        f"<dt class='col-span-1 font-medium text-gray-500'>{e(k)}</dt>"
        f"<dd class='col-span-2 text-gray-900'>{e(v)}</dd>"
        for k, v in details
    )
    stores = "".join(
        "<tr class='border-b border-gray-100'>"
        f"<td class='py-1 pr-4'>{e(s)}</td>"
        f"<td class='py-1 pr-4 {'text-green-700' if ok else 'text-amber-600'}'>"
        f"{'In stock' if ok else 'Low stock'}</td>"
        f"<td class='py-1 text-gray-500'>L{r.randint(1, 4)}-ENG-FIC-{r.randint(1, 40):02d}</td></tr>"
        for s, ok in ((s, r.random() < 0.7) for s in r.sample(KINO_STORES, r.randint(1, 4)))
    )
    cards = "".join(
        "<div class='flex flex-col gap-1 rounded-lg border border-gray-200 p-3'>"
        f"<a href='/products/{_isbn13(r)}'><img class='aspect-[2/3] w-full object-cover' "
        f"src='/covers/{i}.jpg' alt='{e(t)}'></a>"
        f"<p class='line-clamp-2 text-sm font-medium'>{e(t)}</p>"
        f"<p class='text-xs text-gray-500'>{e(a)}</p>"
        f"<p class='text-sm font-semibold text-red-700'>{e(p)}</p></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    sale = _on_sale(b)
    return _page(
        "Kinokuniya Singapore",
        f"<script type='application/ld+json'>{ld}</script>"
        "<div id='quick-view' class='fixed inset-0 z-50 hidden' role='dialog' aria-modal='true'>"
        f"<div class='rounded bg-white p-6'><h2 class='text-lg font-semibold'>{e(b.title)}</h2>"
        f"<p class='text-xl font-bold'>{e(b.price)}</p><p class='text-xs'>ISBN {b.isbn}</p></div></div>"
        "<div class='bg-gray-900 py-1 text-center text-xs text-white'>Free delivery for orders above S$60"
        "</div>"
        "<main class='container mx-auto px-4 py-6'>"
        "<nav aria-label='Breadcrumb' class='mb-4 text-sm text-gray-500'><ol class='flex flex-wrap gap-1'>"
        "<li><a href='/'>Home</a> /</li><li><a href='/books'>Books</a> /</li>"
        "<li><a href='/books/english'>English Books</a> /</li>"
        "<li><a href='/books/english/fiction'>Fiction</a></li></ol></nav>"
        "<div class='grid grid-cols-1 gap-8 md:grid-cols-12'>"
        "<div class='md:col-span-4'>"
        f"<img class='w-full rounded shadow' src='/covers/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='md:col-span-8'>"
        f"<h1 class='text-2xl font-semibold leading-tight text-gray-900'>{e(b.title)}</h1>"
        + (f"<p class='mt-1 text-sm italic text-gray-600'>{e(b.series)}</p>" if b.series else "")
        + f"<p class='mt-2 text-sm text-gray-700'>by {authors}</p>"
        "<p class='mt-1 text-xs uppercase tracking-wide text-gray-500'>"
        f"{e(b.binding)} | {e(b.publisher)} | {e(b.published)}</p>"
        "<div class='mt-4 flex items-baseline gap-3'>"
        f"<span class='text-3xl font-bold text-red-700'>{e(b.price)}</span>"
        + (f"<span class='text-base text-gray-400 line-through'>{e(b.list_price)}</span>" if sale else "")
        + "</div>"
        "<p class='mt-1 text-sm text-gray-600'>Privilege Card member price: "
        f"<span class='font-semibold'>S${amount * 0.9:.2f}</span></p>"
        "<p class='text-xs text-gray-400'>Prices include GST</p>"
        "<div class='mt-4 flex gap-2'>"
        "<button class='rounded bg-red-700 px-6 py-2 font-semibold text-white'>Add to Cart</button>"
        "<button class='rounded border px-4 py-2' data-open='quick-view'>Quick view</button></div>"
        "<div class='mt-6'><h2 class='mb-2 text-sm font-semibold uppercase text-gray-500'>Store availability"
        f"</h2><table class='w-full text-sm'><tbody>{stores}</tbody></table></div></div></div>"
        "<section class='mt-10'><h2 class='mb-3 text-lg font-semibold'>Product Details</h2>"
        f"<dl class='grid grid-cols-3 gap-x-4 gap-y-2 text-sm'>{dl}</dl></section>"
        "<section class='mt-8'><h2 class='mb-3 text-lg font-semibold'>Description</h2>"
        f"<p class='text-sm leading-relaxed'>First published on {e(b.first_published)}, this "
        f"{e(b.binding.lower())} edition runs to {b.pages} pages.</p></section>"
        "<section class='mt-10'><h2 class='mb-3 text-lg font-semibold'>Customers who bought this also bought"
        f"</h2><div class='grid grid-cols-2 gap-4 md:grid-cols-4'>{cards}</div></section></main>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 24: written without reading the learner's code, copying the page shapes of a German
# bookseller chain, a UK online bookshop with schema.org microdata, a Mexican bookshop on
# Magento 2 and the Slovak store of a Czech online bookshop.

HUGENDUBEL_STORES = ["München Marienplatz", "Frankfurt Steinweg", "Berlin Tauentzienstraße",
                     "Hamburg Jungfernstieg", "Nürnberg Ludwigsplatz"]  # fmt: skip
HUGENDUBEL_REVIEWERS = ["Leserin aus Köln", "Bücherwurm73", "Kundin aus Nürnberg", "M. Schneider"]
HUGENDUBEL_COMMENTS = ["Spannend bis zur letzten Seite.", "Schönes Englisch, gut lesbar.",
                       "Hat mich leider nicht gepackt."]  # fmt: skip
HUGENDUBEL_ROLES = [("Übersetzt von", "Übersetzer"), ("Illustriert von", "Illustrator"),
                    ("Herausgegeben von", "Herausgeber")]  # fmt: skip
WEEKDAYS_DE = ["Mo", "Di", "Mi", "Do", "Fr", "Sa"]


def hugendubel_product(b: Book) -> str:
    """A German bookseller chain's page for an English book (Hugendubel's shape, BEM classes and
    ``data-qa`` attributes): JSON-LD and a mobile price box hidden by a class rule first; crumbs
    "Startseite > Bücher > Englische Bücher > ..."; the h1, the series on some pages, "Buch
    (Paperback)" and "Englisch"; the byline "von A, B und C" as links, an "Übersetzt von" or
    "Illustriert von" line on some pages; "Weitere Ausgaben" tiles of every binding with its own
    date in the page's "05.03.2020" form and price, plus eBook and audiobook; the price "12,99 €"
    beside a struck "statt" price and "-12%" on sale pages, "inkl. MwSt.", a delivery date in the
    same form and a store's stock; "Beschreibung" naming the first edition's date; "Produktdetails"
    as a th/td table ("Autor" all names in one "A, B" text, "Einband", "Erscheinungsdatum",
    "Verlag" link, "ISBN/EAN", "ISBN-10", "Artikelnummer"); reviews dated in the same form naming
    the binding they rated; "Weitere Titel von" and "Kunden kauften auch" carousels."""
    r = random.Random(b.isbn + "hugendubel")
    amount = _euros(b.price)
    sale = _on_sale(b)
    ld = json.dumps(
        {"@context": "https://schema.org", "@type": "Product", "name": b.title, "gtin13": b.isbn,
         "sku": b.sku, "brand": {"@type": "Brand", "name": b.publisher},
         "offers": {"@type": "Offer", "price": f"{amount:.2f}", "priceCurrency": "EUR",
                    "availability": "https://schema.org/InStock"}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    role_line, role_label = r.choice(HUGENDUBEL_ROLES)

    def person(n: str) -> str:
        return (
            f"<a class='product-header__author-link' data-qa='author-link' "
            f"href='/de/autor/{e(n.lower().replace(' ', '-').replace('.', ''))}'>{e(n)}</a>"
        )

    links = [person(n) for n in b.authors]
    byline = links[0] if len(links) == 1 else ", ".join(links[:-1]) + " und " + links[-1]
    year = int(b.published[-4:])
    editions = ""
    for k, x in enumerate(BINDINGS):
        current = x == b.binding
        date = b.published if current else dot_date(r.randint(2015, 2022), r.randint(1, 12), r.randint(1, 28))
        editions += (
            f"<li class='edition-tile{' edition-tile--active' if current else ''}' data-qa='edition-tile'>"
            f"<a href='/de/buch_kartoniert/{e(b.slug)}/{30000000 + int(b.isbn[-6:]) + k}"
            "-produkt-details.html'>"
            f"<span class='edition-tile__format'>{e(x)}</span>"
            f"<span class='edition-tile__date'>{date}</span>"
            f"<span class='edition-tile__price'>{e(b.price if current else _other_price(b, k))}</span>"
            "</a></li>"
        )
    editions += (
        "<li class='edition-tile' data-qa='edition-tile'><a href='/de/ebook_epub/x.html'>"
        "<span class='edition-tile__format'>eBook (ePUB)</span>"
        f"<span class='edition-tile__price'>{_euro_text(amount * 0.72)}</span></a></li>"
        "<li class='edition-tile' data-qa='edition-tile'><a href='/de/hoerbuch_download/x.html'>"
        "<span class='edition-tile__format'>Hörbuch-Download (MP3)</span>"
        f"<span class='edition-tile__price'>{_euro_text(amount * 1.3)}</span></a></li>"
    )
    pct = round(100 * (1 - amount / _euros(b.list_price)))
    price_box = (
        f"<span class='price-box__price' data-qa='price'>{e(b.price)}</span>"
        + (
            f"<span class='price-box__old'>statt <del>{e(b.list_price)}</del></span>"
            f"<span class='price-box__badge'>-{pct}%</span>"
            if sale
            else ""
        )
    )
    delivery = dot_date(year + 5, r.randint(1, 12), r.randint(1, 28))
    rows = [("Autor", e(", ".join(b.authors)))]
    if helpers:
        rows.append((role_label, e(helpers[0])))
    rows += [("Einband", e(b.binding)), ("Erscheinungsdatum", e(b.published))]
    if b.edition:
        rows.append(("Auflage", e(b.edition)))
    rows.append(("Verlag", f"<a href='/de/verlag/{e(b.publisher.replace(' ', '-'))}'>{e(b.publisher)}</a>"))
    if b.series:
        rows.append(("Reihe", e(b.series)))
    rows += [("Seitenzahl", str(b.pages)),
             ("Maße", f"Höhe {r.randint(178, 240)} mm, Breite {r.randint(108, 160)} mm, Dicke "
                      f"{r.randint(12, 45)} mm"),
             ("Gewicht", f"{r.randint(150, 900)} g"), ("Sprache", "Englisch"),
             ("ISBN-10", _isbn10(b.isbn)), ("ISBN/EAN", b.isbn), ("Artikelnummer", e(b.sku))]  # fmt: skip
    details = "".join(
        f"<tr class='product-details__row'><th class='product-details__label'>{k}</th>"
        f"<td class='product-details__value'>{v}</td></tr>"
        for k, v in rows
    )
    more_by = "".join(
        "<div class='product-tile' data-qa='product-tile'>"
        f"<a href='/de/buch/{e(t.lower().replace(' ', '-'))}'><img src='/media/{i}.jpg' alt='{e(t)}'></a>"
        f"<p class='product-tile__title'>{e(t)}</p><p class='product-tile__author'>{e(b.authors[0])}</p>"
        f"<p class='product-tile__format'>Buch ({e(BINDINGS[(i + 1) % 3])})</p>"
        f"<p class='product-tile__price'>{e(_euro_text(_euros(p) * 0.9))}</p></div>"
        for i, (t, p) in enumerate((_title(r), p) for _, _, p in b.related[:2])
    )
    cards = "".join(
        "<div class='product-tile' data-qa='product-tile'>"
        f"<a href='/de/buch/{e(t.lower().replace(' ', '-'))}'><img src='/media/r{i}.jpg' alt='{e(t)}'></a>"
        f"<p class='product-tile__title'>{e(t)}</p><p class='product-tile__author'>{e(a)}</p>"
        f"<p class='product-tile__format'>Buch ({e(BINDINGS[i % 3])})</p>"
        f"<p class='product-tile__price'>{e(p)}</p></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    reviews = "".join(
        "<li class='review'>"
        f"<span class='review__stars' data-rating='{r.randint(2, 5)}'></span>"
        f"<span class='review__author'>{r.choice(HUGENDUBEL_REVIEWERS)}</span> "
        f"<span class='review__date'>am "
        f"{dot_date(year + r.randint(1, 4), r.randint(1, 12), r.randint(1, 28))}</span>"
        f"<p class='review__text'>{r.choice(HUGENDUBEL_COMMENTS)}</p>"
        f"<p class='review__edition'>Bewertete Ausgabe: {e(r.choice(BINDINGS))}</p></li>"
        for _ in range(r.randint(0, 3))
    )
    store = r.choice(HUGENDUBEL_STORES)
    return _page(
        "Hugendubel",
        "<style>.price-box--mobile{display:none}</style>"
        f"<script type='application/ld+json'>{ld}</script>"
        "<div class='service-bar'>Versandkostenfrei nach Deutschland &middot; Click &amp; Collect in "
        "über 100 Filialen</div>"
        "<nav class='main-nav'><a href='/de/buecher'>Bücher</a> <a href='/de/ebooks'>eBooks</a> "
        "<a href='/de/hoerbuecher'>Hörbücher</a> <a href='/de/englische-buecher'>Englische Bücher</a> "
        "<a href='/de/filialen'>Filialen</a></nav>"
        "<div class='price-box price-box--mobile' data-qa='price-box-mobile'>"
        f"<span class='price-box__price'>{e(b.price)}</span><span class='price-box__title'>{e(b.title)}"
        "</span><button>In den Warenkorb</button></div>"
        "<ol class='breadcrumb' itemscope itemtype='https://schema.org/BreadcrumbList'>"
        "<li class='breadcrumb__item'><a href='/de/'>Startseite</a></li>"
        "<li class='breadcrumb__item'><a href='/de/buecher'>Bücher</a></li>"
        "<li class='breadcrumb__item'><a href='/de/englische-buecher'>Englische Bücher</a></li>"
        f"<li class='breadcrumb__item'><a href='/de/englische-buecher/fiction'>"
        f"{r.choice(['Fiction & Literature', 'Contemporary Fiction', 'Romane & Erzählungen'])}</a></li></ol>"
        "<div class='product-detail'><div class='product-detail__gallery'>"
        f"<img src='/media/cover/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='product-detail__main'><div class='product-header'>"
        f"<h1 class='product-header__title' data-qa='product-title'>{e(b.title)}</h1>"
        + (f"<p class='product-header__series'>{e(b.series)}</p>" if b.series else "")
        + "<p class='product-header__type'>"
        f"<span class='product-header__format'>Buch ({e(b.binding)})</span> "
        "<span class='product-header__language'>Englisch</span></p>"
        f"<p class='product-header__authors'>von {byline}</p>"
        + (f"<p class='product-header__contributors'>{role_line} {person(helpers[0])}</p>" if helpers else "")
        + "<div class='product-header__rating'>"
        f"<span class='stars' data-rating='{r.randint(30, 50) / 10}'></span> "
        f"<a href='#bewertungen'>({r.randint(0, 40)})</a></div></div>"
        f"<div class='editions'><h2 class='editions__title'>Weitere Ausgaben</h2><ul>{editions}</ul></div>"
        "</div><div class='product-detail__buy'>"
        f"<div class='price-box' data-qa='price-box'>{price_box}"
        "<p class='price-box__tax'>inkl. MwSt., <a href='/de/versandkosten'>versandkostenfrei</a></p></div>"
        f"<p class='delivery' data-qa='delivery'>{r.choice(['Sofort lieferbar', 'Lieferbar in 2-3 Tagen'])}"
        f" &middot; Lieferung bis {r.choice(WEEKDAYS_DE)}, {delivery}</p>"
        "<button class='button button--primary' data-qa='add-to-cart'>In den Warenkorb</button>"
        "<button class='button button--secondary'>Auf den Merkzettel</button>"
        f"<div class='store-stock'>In Ihrer Filiale <strong>{e(store)}</strong>: "
        f"{r.choice(['vorrätig', 'bestellbar, abholbereit in 2 Tagen'])}</div></div></div>"
        "<section class='product-description'><h2>Beschreibung</h2>"
        f"<p>Erstmals erschienen am {e(b.first_published)}. Diese Ausgabe ({e(b.binding)}) erscheint bei "
        f"{e(b.publisher)} und umfasst {b.pages} Seiten.</p></section>"
        "<section class='product-details'><h2>Produktdetails</h2>"
        f"<table class='product-details__table'><tbody>{details}</tbody></table></section>"
        "<section class='author-info'><h2>Autoren-Porträt</h2>"
        f"<p>{e(b.authors[0])} lebt und schreibt in {r.choice(CITIES)}.</p></section>"
        f"<section id='bewertungen' class='reviews'><h2>Kundenbewertungen</h2><ul>{reviews}</ul></section>"
        f"<section class='carousel'><h2>Weitere Titel von {e(b.authors[0])}</h2>"
        f"<div class='carousel__track'>{more_by}</div></section>"
        f"<section class='carousel'><h2>Kunden kauften auch</h2><div class='carousel__track'>{cards}</div>"
        "</section>",
    )


def dmy_short_date(y: int, m: int, d: int) -> str:
    """A UK bookshop's "05 Mar 2020" (the day always two digits)."""
    return f"{d:02d} {MONTHS_SHORT[m - 1]} {y}"


BD_IMPRINTS = {"Penguin Books": "Penguin Classics", "Vintage": "Vintage Classics",
               "Harper Collins": "HarperCollins Publishers", "Tor": "Tor Books"}  # fmt: skip
BD_PLACES = ["London, United Kingdom", "New York, United States", "Toronto, Canada"]
BD_QUOTES = ["A dazzling, big-hearted novel.", "Utterly gripping from first page to last.",
             "Wise, funny and quietly devastating."]  # fmt: skip
BD_PAPERS = ["Guardian", "The Times", "Observer", "Sunday Telegraph", "Financial Times"]


def bookdepository_item(b: Book) -> str:
    """A UK online bookshop's item page (Book Depository's shape, server-rendered with schema.org
    microdata and Bootstrap ``hidden-*`` classes): a ``dataLayer`` script and a mobile price block
    hidden by the page's ``.hidden-md`` rule first; the h1 ``itemprop=name``, "Part of the ...
    series" on some pages; "By (author) A , By (author) B" with each name in an ``itemprop=author``
    Person, "Illustrated by"/"Translated by" contributors on some pages; the format and language
    under it; a Goodreads rating count; the price "£12.99" beside "RRP £15.99" and "Save £3.00" on
    sale pages; "Free delivery worldwide" and dispatch text; a description naming the first
    edition's date; "Product details" as label/span items: "Format" as "Paperback | 320 pages",
    "Publication date" in "05 Mar 2020" form, "Publisher" as a linked Organization, a look-alike
    "Imprint", "ISBN10", "ISBN13", "Bestsellers rank", "Product code"; review quotes signed by
    other people; "People who bought this also bought" cards with the same Book microdata, each
    with its own author, publication date, format and prices."""
    r = random.Random(b.isbn + "bookdepository")
    amount = _pounds(b.price)
    list_amount = _pounds(b.list_price)
    sale = _on_sale(b)
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    role = r.choice(["Illustrated by", "Translated by", "Edited by"])
    layer = json.dumps(
        {"pageType": "product", "productIsbn": b.isbn, "productTitle": b.title,
         "productPrice": f"{amount:.2f}", "currencyCode": "GBP"},
    ).replace("</", "<\\/")  # fmt: skip

    def person(n: str, label: str, prop: str) -> str:
        return (
            f"{label} <span itemprop='{prop}' itemscope itemtype='http://schema.org/Person'>"
            f"<a itemprop='name' href='/author/{e(n.replace(' ', '-'))}'>{e(n)}</a></span>"
        )

    schema_format = "Hardcover" if "Hard" in b.binding else "Paperback"
    byline = " , ".join(
        [person(n, "By (author)", "author") for n in b.authors]
        + [person(h, role, "contributor") for h in helpers]
    )
    price_block = (
        f"<span class='sale-price'>{e(b.price)}</span>"
        + (
            f" <span class='rrp-title'>RRP</span> <span class='list-price'>{e(b.list_price)}</span>"
            f"<p class='price-save'>Save <span>£{list_amount - amount:.2f}</span></p>"
            if sale
            else ""
        )
    )
    year = int(b.published[-4:])
    items = [("Format", f"{e(b.binding)} | {b.pages} pages"),
             ("Dimensions", f"{r.randint(108, 160)} x {r.randint(178, 240)} x {r.randint(12, 45)}mm | "
                            f"{r.randint(150, 900)}g"),
             ("Publication date", f"<span itemprop='datePublished'>{e(b.published)}</span>"),
             ("Publisher", f"<a href='/publishers/{e(b.publisher.replace(' ', '-'))}' "
                           "itemprop='publisher' itemscope itemtype='http://schema.org/Organization'>"
                           f"<span itemprop='name'>{e(b.publisher)}</span></a>"),
             ("Imprint", e(BD_IMPRINTS[b.publisher])),
             ("Publication City/Country", r.choice(BD_PLACES)), ("Language", "English")]  # fmt: skip
    if b.edition:
        items.append(("Edition Statement", e(b.edition)))
    items += [("ISBN10", _isbn10(b.isbn)), ("ISBN13", f"<span itemprop='isbn'>{b.isbn}</span>"),
              ("Bestsellers rank", f"{r.randint(1000, 999999):,}"), ("Product code", e(b.sku))]  # fmt: skip
    biblio = "".join(f"<li><label>{k}</label> <span>{v}</span></li>" for k, v in items)
    quotes = "".join(
        f"<p class='review-quote'>'{r.choice(BD_QUOTES)}' <span class='quote-source'>{e(n)}, "
        f"{r.choice(BD_PAPERS)}</span></p>"
        for n in _others(r, b, r.randint(1, 2))
    )
    cards = "".join(
        "<div class='book-item' itemscope itemtype='http://schema.org/Book'>"
        f"<meta itemprop='isbn' content='{_isbn13(r)}'>"
        f"<div class='item-img'><a href='/{e(t.replace(' ', '-'))}/{_isbn13(r)}'>"
        f"<img src='/assets/covers/{i}.jpg' alt='{e(t)}'></a></div>"
        f"<div class='item-info'><h3 class='title'><a itemprop='name' href='/x/{i}'>{e(t)}</a></h3>"
        f"<p class='author'><span itemprop='author' itemscope itemtype='http://schema.org/Person'>"
        f"<a itemprop='name' href='/author/{e(a.replace(' ', '-'))}'>{e(a)}</a></span></p>"
        f"<p class='published' itemprop='datePublished'>"
        f"{dmy_short_date(r.randint(2010, 2022), r.randint(1, 12), r.randint(1, 28))}</p>"
        f"<p class='format'>{e(BINDINGS[(i + 2) % 3])}</p>"
        f"<div class='price-wrap'><span class='sale-price'>{e(p)}</span>"
        + (f" <span class='rrp'>£{_pounds(p) + r.randint(1, 5):.2f}</span>" if i % 2 == 0 else "")
        + "</div></div><div class='item-actions'><a class='btn btn-sm btn-primary add-to-basket' "
        "href='#'>Add to basket</a></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Book Depository",
        "<style>.hidden-md,.hidden-lg{display:none}</style>"
        f"<script>var dataLayer = [{layer}];</script>"
        "<div class='top-banner'>Free delivery worldwide on all books</div>"
        "<div class='currency-select'>Change currency: <a href='?selectCurrency=GBP'>£ GBP</a> "
        "<a href='?selectCurrency=EUR'>€ EUR</a> <a href='?selectCurrency=USD'>$ USD</a></div>"
        "<div class='page-slide'><div class='content-wrap'>"
        "<div class='item-wrap' itemscope itemtype='http://schema.org/Book'>"
        f"<meta itemprop='bookFormat' content='http://schema.org/{schema_format}'>"
        "<div class='item-block'><div class='item-img'><div class='item-img-content'>"
        f"<img itemprop='image' src='/assets/jackets/lrg/{b.isbn}.jpg' alt='{e(b.title)}'></div></div>"
        "<div class='item-info'>"
        "<div class='price item-price-wrap hidden-md hidden-lg'>"
        f"<span class='sale-price'>{e(b.price)}</span></div>"
        f"<h1 itemprop='name'>{e(b.title)}</h1>"
        + (
            f"<div class='series'>Part of the <a href='/series/x'>{e(b.series)}</a> series</div>"
            if b.series
            else ""
        )
        + f"<div class='author-info'>{byline}</div>"
        "<div class='rating-wrap'><div class='stars'></div> "
        f"<span class='rating-count'>{r.randint(300, 500) / 100:.2f} ({r.randint(20, 90000):,} ratings by "
        "Goodreads)</span></div>"
        f"<ul class='meta-info'><li><span>{e(b.binding)}</span></li><li>English</li></ul>"
        "<div class='item-excerpt trunc' itemprop='description' data-height='230'>"
        f"<p>First published {e(b.first_published)}. This {e(b.binding.lower())} edition from "
        f"{e(b.publisher)} runs to {b.pages} pages.</p><a href='#description'>show more</a></div></div>"
        "<div class='item-tools'><div class='price-info-wrap'>"
        f"<div class='price item-price-wrap hidden-xs hidden-sm'>{price_block}</div>"
        "<div class='delivery-text'>Free delivery worldwide</div>"
        f"<div class='availability-text'><p class='stock'>Available. Dispatched from the UK in "
        f"{r.randint(1, 4)} business days</p><p class='delivery-date'>When will my order arrive?</p></div>"
        "<div class='btn-wrap'><a class='btn btn-lg btn-primary add-to-basket' href='#'>Add to basket</a>"
        "<a class='btn btn-link add-to-wishlist' href='#'>Add to wishlist</a></div></div></div></div>"
        "<div class='biblio-wrap'><div class='biblio-info-wrap'><h2 class='biblio-title'>Product details</h2>"
        f"<ul class='biblio-info'>{biblio}</ul></div></div>"
        "<div class='item-description' id='description'><h2>Review quote</h2>"
        f"{quotes}<h2>About {e(b.authors[0])}</h2>"
        f"<p>{e(b.authors[0])} was born in {r.choice(CITIES)} in {year - r.randint(30, 60)}.</p></div>"
        "</div>"
        "<div class='block-wrap'><h2 class='block-title'>People who bought this also bought</h2>"
        f"<div class='block-slider'>{cards}</div></div>"
        "<div class='sidebar'><h3>Bestsellers in Contemporary Fiction</h3><ol class='bestsellers'>"
        + "".join(f"<li><a href='/bestsellers/{k}'>{e(_title(r))}</a></li>" for k in range(3))
        + "</ol></div></div></div>",
    )


GANDHI_STORES = ["Gandhi Miguel Ángel de Quevedo", "Gandhi Madero", "Gandhi Guadalajara Chapultepec",
                 "Gandhi Satélite", "Gandhi Monterrey Valle"]  # fmt: skip
GANDHI_ROLES = ["Traductor", "Ilustrador", "Prólogo"]


def _magento_price(pid: str, amount: float, text: str, kind: str, label: str = "") -> str:
    """A Magento 2 price: the amount in ``data-price-amount``, the text in a ``price`` span."""
    return (
        "<span class='price-container price-final_price tax weee'>"
        + (f"<span class='price-label'>{label}</span>" if label else "")
        + f"<span id='{'old-price' if kind == 'oldPrice' else 'product-price'}-{pid}' "
        f"data-price-amount='{amount:g}' data-price-type='{kind}' class='price-wrapper '>"
        f"<span class='price'>{e(text)}</span></span></span>"
    )


def gandhi_product(b: Book) -> str:
    """A Mexican bookshop's page for an imported English book (Librería Gandhi's shape, Magento 2
    Luma markup): a ``text/x-magento-init`` script with the price and a sticky add-to-cart bar
    hidden by an inline style first; crumbs "Inicio > Libros > Libros en inglés > ..."; the h1
    ``page-title`` span and author links below it; the Magento price box ("Precio especial"
    "$12.99" over a struck "Precio regular" on sale pages) with ``data-price-amount`` numbers;
    "Hasta 3 meses sin intereses de $x.xx"; the Monedero Gandhi amount; stock and the "SKU" block;
    "Envío gratis en compras mayores a $499.00"; stock per store; tabs "Detalles" (prose naming the
    first edition's date, "5 de marzo de 2020" form) and "Más información" (the additional-
    attributes table: "Autor" all names in one "A, B" text, "Editorial", "Fecha de publicación",
    "ISBN", "Encuadernación", ...); "Productos relacionados" cards in the same price-box markup
    with their own authors and prices."""
    r = random.Random(b.isbn + "gandhi")
    amount = _dollars(b.price)
    list_amount = _dollars(b.list_price)
    sale = _on_sale(b)
    pid = str(400000 + int(b.isbn[-5:]))
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    role = r.choice(GANDHI_ROLES)
    init = json.dumps(
        {"[data-role=priceBox][data-price-box=product-id-" + pid + "]": {"priceBox": {"priceConfig": {
            "productId": pid, "priceFormat": {"pattern": "$%s", "precision": 2},
            "prices": {"finalPrice": {"amount": amount},
                       "oldPrice": {"amount": list_amount if sale else amount}}}}},
         "*": {"Magento_GoogleTagManager/js/actions/product-detail": {"sku": b.sku, "name": b.title}}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    authors = ", ".join(
        f"<a class='product-autor__link' href='/catalogsearch/result/?q={e(n.replace(' ', '+'))}'>{e(n)}</a>"
        for n in b.authors
    )
    if sale:
        prices = (
            "<span class='special-price'>"
            + _magento_price(pid, amount, b.price, "finalPrice", "Precio especial")
            + "</span><span class='old-price'>"
            + _magento_price(pid, list_amount, b.list_price, "oldPrice", "Precio regular")
            + "</span>"
        )
    else:
        prices = _magento_price(pid, amount, b.price, "finalPrice")
    installments = (
        f"<div class='msi-banner'>Hasta 3 meses sin intereses de ${amount / 3:.2f}</div>"
        if amount >= 10
        else ""
    )
    rows = [("Autor", e(", ".join(b.authors)))]
    if helpers:
        rows.append((role, e(helpers[0])))
    rows += [("Editorial", e(b.publisher)), ("Fecha de publicación", e(b.published)), ("ISBN", b.isbn),
             ("Encuadernación", e(b.binding)), ("Número de páginas", str(b.pages)),
             ("Idioma", "Inglés")]  # fmt: skip
    if b.series:
        rows.append(("Colección", e(b.series)))
    if b.edition:
        rows.append(("Edición", e(b.edition)))
    rows.append(("Dimensiones", f"{r.randint(11, 16)} x {r.randint(18, 24)} cm"))
    table = "".join(
        f"<tr><th class='col label' scope='row'>{k}</th><td class='col data' data-th='{k}'>{v}</td></tr>"
        for k, v in rows
    )
    stores = "".join(
        f"<tr><td class='tienda'>{e(s)}</td><td class='existencia'>{r.randint(0, 6)}</td></tr>"
        for s in r.sample(GANDHI_STORES, r.randint(2, 4))
    )
    cards = "".join(
        "<li class='item product product-item'><div class='product-item-info'>"
        f"<a class='product photo product-item-photo' href='/{e(t.lower().replace(' ', '-'))}-{i}'>"
        f"<img class='product-image-photo' src='/media/catalog/product/r{i}.jpg' alt='{e(t)}'></a>"
        "<div class='product details product-item-details'><strong class='product name product-item-name'>"
        f"<a class='product-item-link' href='/{e(t.lower().replace(' ', '-'))}-{i}'>{e(t)}</a></strong>"
        f"<div class='product-item-autor'>{e(a)}</div>"
        f"<div class='price-box price-final_price' data-role='priceBox' data-product-id='{int(pid) + 7 + i}'>"
        f"{_magento_price(str(int(pid) + 7 + i), _dollars(p), p, 'finalPrice')}</div>"
        "<div class='product-item-actions'><button class='action tocart primary'>Agregar al carrito</button>"
        "</div></div></div></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Librería Gandhi",
        f"<script type='text/x-magento-init'>{init}</script>"
        "<div class='sticky-addtocart' style='display: none;'>"
        f"<span class='sticky-addtocart__name'>{e(b.title)}</span>"
        f"<span class='sticky-addtocart__price'>{e(b.price)}</span>"
        "<button class='action tocart primary'>Agregar al carrito</button></div>"
        "<div class='panel header'><ul class='header links'><li><a href='/customer/account/login/'>Iniciar "
        "sesión</a></li><li><a href='/customer/account/create/'>Crear una cuenta</a></li></ul></div>"
        "<div class='promo-bar'>Envío gratis en compras mayores a $499.00</div>"
        "<div class='breadcrumbs'><ul class='items'>"
        "<li class='item home'><a href='/' title='Ir a la página de inicio'>Inicio</a></li>"
        "<li class='item category'><a href='/libros'>Libros</a></li>"
        "<li class='item category'><a href='/libros/libros-en-ingles'>Libros en inglés</a></li>"
        f"<li class='item product'><strong>{e(b.title)}</strong></li></ul></div>"
        "<main id='maincontent' class='page-main'><div class='columns'><div class='column main'>"
        "<div class='product media'>"
        "<img class='gallery-placeholder__image' "
        f"src='/media/catalog/product/{b.isbn}.jpg' alt='{e(b.title)}'>"
        "</div><div class='product-info-main'><div class='page-title-wrapper product'>"
        "<h1 class='page-title'><span class='base' data-ui-id='page-title-wrapper' itemprop='name'>"
        f"{e(b.title)}</span></h1></div>"
        f"<div class='product-autor'>{authors}</div>"
        "<div class='product-reviews-summary empty'><div class='reviews-actions'>"
        "<a class='action add' href='#review-form'>Sé el primero en escribir una reseña</a></div></div>"
        "<div class='product-info-price'>"
        f"<div class='price-box price-final_price' data-role='priceBox' data-product-id='{pid}' "
        f"data-price-box='product-id-{pid}'>{prices}</div>"
        "<div class='product-info-stock-sku'><div class='stock available' title='Disponibilidad'>"
        f"<span>{r.choice(['En existencia', 'Disponible en 3 a 5 días hábiles'])}</span></div>"
        "<div class='product attribute sku'><strong class='type'>SKU</strong>"
        f"<div class='value' itemprop='sku'>{e(b.sku)}</div></div></div></div>"
        f"{installments}"
        f"<div class='monedero'>Con esta compra acumulas <strong>${amount * 0.05:.2f}</strong> en tu "
        "Monedero Gandhi</div>"
        f"<div class='product-add-form'><form data-product-sku='{e(b.sku)}' action='/checkout/cart/add/' "
        f"method='post' id='product_addtocart_form'><input type='hidden' name='product' value='{pid}'>"
        f"<input type='hidden' name='item' value='{pid}'>"
        "<div class='field qty'><label class='label' for='qty'><span>Cant.</span></label>"
        "<input type='number' name='qty' id='qty' value='1'></div>"
        "<button type='submit' class='action primary tocart' id='product-addtocart-button'>"
        "<span>Agregar al carrito</span></button></form></div>"
        "<div class='product-social-links'><a class='action towishlist' href='#'>Agregar a mis deseos</a>"
        "</div>"
        "<div class='disponibilidad-tiendas'><h3>Disponibilidad en tiendas</h3><table><thead><tr>"
        f"<th>Tienda</th><th>Existencias</th></tr></thead><tbody>{stores}</tbody></table></div></div>"
        "<div class='product info detailed'><div class='product data items' data-mage-init='{\"tabs\":{}}'>"
        "<div class='data item title' id='tab-label-description'><a class='data switch' "
        "href='#description'>Detalles</a></div>"
        "<div class='data item content' id='description'><div class='product attribute description'>"
        f"<div class='value'><p>Publicado originalmente el {e(b.first_published)}, {e(b.title)} llega en "
        f"edición {e(b.binding)} de {e(b.publisher)}, con {b.pages} páginas.</p></div></div></div>"
        "<div class='data item title' id='tab-label-additional'><a class='data switch' "
        "href='#additional'>Más información</a></div>"
        "<div class='data item content' id='additional'><div class='additional-attributes-wrapper "
        "table-wrapper'><table class='data table additional-attributes' id='product-attribute-specs-table'>"
        f"<caption class='table-caption'>Más información</caption><tbody>{table}</tbody></table></div></div>"
        "<div class='data item title' id='tab-label-reviews'><a class='data switch' href='#reviews'>"
        "Reseñas</a></div><div class='data item content' id='reviews'><p>Sólo los usuarios registrados "
        "pueden escribir reseñas.</p></div></div></div>"
        "<div class='block related'><div class='block-title title'><strong>Productos relacionados</strong>"
        "</div><div class='block-content content'><ol class='products list items product-items'>"
        f"{cards}</ol></div></div></div></div></main>",
    )


def sk_date(y: int, m: int, d: int) -> str:
    """A Czech or Slovak shop's "5. 3. 2020" (day, month, year, each followed by a dot and a space)."""
    return f"{d}. {m}. {y}"


LIBRISTO_REVIEWERS = ["Zuzana K.", "Martin H.", "Lucia P.", "Peter V."]
LIBRISTO_COMMENTS = ["Kniha prišla rýchlo a v poriadku.", "Výborné čítanie v origináli.",
                     "Obálka bola trochu poškodená."]  # fmt: skip
LIBRISTO_CATEGORIES = ["Súčasná beletria", "Klasická beletria", "Fantasy", "Historická beletria"]


def libristo_product(b: Book) -> str:
    """The Slovak store of a Czech online bookshop (Libristo's shape): a ``dataLayer`` push and a
    closed ``<dialog>`` (the price watchdog, naming the title and price) first; crumbs "Knihy >
    Knihy v angličtine > Beletria > ..."; the h1, author links "A, B", an "Ilustrácie:" line on
    some pages; tags "Kniha", the binding and "Angličtina"; "4,3 z 5"; the price "12,99 €" with a
    struck "Bežná cena" and "Ušetríte" on sale pages, points and a delivery date in the page's own
    "5. 3. 2020" form; other formats with their prices; "Anotácia" naming the first edition's date;
    "Kompletné informácie o knihe" as a th/td table repeating the title, "Autor" all names in one
    "A, B" text, "Väzba", "Dátum vydania", "EAN" (the ISBN-13), "ISBN" (the ten-digit one),
    "Libristo kód", "Vydavateľstvo"; reader reviews in the same date form; "Ďalšie knihy autora" and
    "Mohlo by vás zaujímať" cards with authors, formats and prices."""
    r = random.Random(b.isbn + "libristo")
    amount = _euros(b.price)
    list_amount = _euros(b.list_price)
    sale = _on_sale(b)
    code = 10000000 + int(b.isbn[-7:])
    helpers = _others(r, b, 1) if r.random() < 0.25 else []
    layer = json.dumps(
        {"event": "view_item", "ecommerce": {"currency": "EUR", "value": amount, "items": [
            {"item_id": str(code), "item_name": b.title, "item_brand": b.publisher, "price": amount}]}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    authors = ", ".join(
        f"<a class='detail-authors__link' href='/sk/autor/{e(n.lower().replace(' ', '-').replace('.', ''))}'>"
        f"{e(n)}</a>"
        for n in b.authors
    )
    year = int(b.published[-4:])
    delivery = sk_date(year + 5, r.randint(1, 12), r.randint(1, 28))
    formats = "".join(
        f"<li class='detail-formats__item'><a href='/sk/kniha/{e(b.slug)}_{code + k + 1}'>"
        f"<span class='detail-formats__name'>{e(x)}</span> "
        f"<span class='detail-formats__price'>{e(_other_price(b, k))}</span></a></li>"
        for k, x in enumerate(BINDINGS)
        if x != b.binding
    )
    formats += (
        "<li class='detail-formats__item'><a href='/sk/e-kniha/x'><span class='detail-formats__name'>E-kniha"
        f"</span> <span class='detail-formats__price'>{_euro_text(amount * 0.65)}</span></a></li>"
    )
    rows = [("Názov", e(b.title)), ("Autor", e(", ".join(b.authors)))]
    if helpers:
        rows.append(("Ilustrácie", e(helpers[0])))
    rows += [("Jazyk", "Angličtina"), ("Väzba", e(b.binding)), ("Dátum vydania", e(b.published)),
             ("Počet strán", str(b.pages)), ("EAN", b.isbn), ("ISBN", _isbn10(b.isbn)),
             ("Libristo kód", e(b.sku)), ("Vydavateľstvo", e(b.publisher))]  # fmt: skip
    if b.series:
        rows.append(("Edícia", e(b.series)))
    if b.edition:
        rows.append(("Vydanie", e(b.edition)))
    rows += [("Hmotnosť", f"{r.randint(150, 900)} g"),
             ("Rozmery", f"{r.randint(108, 160)} × {r.randint(178, 240)} × "
                         f"{r.randint(12, 45)} mm")]  # fmt: skip
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    reviews = "".join(
        "<div class='review'>"
        f"<div class='review__head'><strong>{r.choice(LIBRISTO_REVIEWERS)}</strong> "
        "<span class='review__date'>"
        f"{sk_date(year + r.randint(1, 4), r.randint(1, 12), r.randint(1, 28))}</span>"
        f"<span class='review__stars'>{r.randint(2, 5)}/5</span></div>"
        f"<p>{r.choice(LIBRISTO_COMMENTS)}</p></div>"
        for _ in range(r.randint(0, 3))
    )

    def cards(items: list[tuple[str, str, str]], prefix: str) -> str:
        return "".join(
            "<div class='product-card'>"
            f"<a class='product-card__img' href='/sk/kniha/{e(t.lower().replace(' ', '-'))}_{code + 50 + i}'>"
            f"<img src='/img/{prefix}{i}.jpg' alt='{e(t)}'></a>"
            f"<a class='product-card__title' href='/sk/kniha/x{i}'>{e(t)}</a>"
            f"<span class='product-card__author'>{e(a)}</span>"
            f"<span class='product-card__format'>{e(BINDINGS[(i + len(prefix)) % 3])}</span>"
            f"<span class='product-card__price'>{e(p)}</span></div>"
            for i, (t, a, p) in enumerate(items)
        )

    more_by = [(_title(r), b.authors[0], _euro_text(_euros(p) * 1.1)) for _, _, p in b.related[1:3]]
    score = r.randint(30, 50) / 10
    return _page(
        "Libristo",
        f"<script>window.dataLayer = window.dataLayer || []; dataLayer.push({layer});</script>"
        "<dialog id='watchdog' class='modal'><form method='dialog'>"
        f"<h2>Strážny pes</h2><p>Upozorníme vás, keď cena knihy {e(b.title)} klesne pod {e(b.price)}.</p>"
        "<input type='email' name='email' placeholder='Váš e-mail'><button>Nastaviť</button></form></dialog>"
        "<div class='topbar'>Doprava zadarmo od 39 € &middot; Viac ako 13 miliónov kníh</div>"
        "<ol class='breadcrumbs'><li><a href='/sk/'>Libristo</a></li>"
        "<li><a href='/sk/knihy'>Knihy</a></li>"
        "<li><a href='/sk/knihy-v-anglictine'>Knihy v angličtine</a></li>"
        "<li><a href='/sk/knihy-v-anglictine/beletria'>Beletria</a></li>"
        f"<li><a href='/sk/knihy-v-anglictine/beletria/x'>{r.choice(LIBRISTO_CATEGORIES)}</a></li></ol>"
        "<div class='detail'><div class='detail__cover'>"
        f"<img src='/img/pre/big/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='detail__info'>"
        f"<h1 class='detail-title'>{e(b.title)}</h1>"
        f"<p class='detail-authors'>{authors}</p>"
        + (f"<p class='detail-contributors'>Ilustrácie: {e(helpers[0])}</p>" if helpers else "")
        + "<ul class='detail-tags'><li>Kniha</li>"
        f"<li>{e(b.binding)}</li><li>Angličtina</li></ul>"
        f"<div class='detail-rating'><span class='stars' style='width:{round(score * 20)}%'></span> "
        f"{str(score).replace('.', ',')} z 5 ({r.randint(1, 60)} hodnotení)</div>"
        "<div class='detail-formats'><h3>Dostupné aj v týchto formátoch</h3>"
        f"<ul class='detail-formats__list'>{formats}</ul></div></div>"
        "<div class='detail__buy'><div class='detail-price'>"
        f"<strong class='detail-price__current'>{e(b.price)}</strong>"
        + (
            f"<span class='detail-price__before'>Bežná cena <s>{e(b.list_price)}</s></span>"
            f"<span class='detail-price__save'>Ušetríte {_euro_text(list_amount - amount)}</span>"
            if sale
            else ""
        )
        + "</div>"
        f"<p class='detail-stock'>{r.choice(['Na sklade', 'Na objednávku, odosielame do 14 dní'])}</p>"
        f"<p class='detail-delivery'>Doručíme najneskôr {delivery}</p>"
        f"<p class='detail-points'>Za nákup získate {round(amount * 10)} bodov</p>"
        "<button class='btn btn--cart'>Do košíka</button>"
        "<button class='btn btn--ghost' data-dialog='watchdog'>Strážny pes</button></div></div>"
        "<section class='detail-annotation'><h2>Anotácia</h2>"
        f"<p>Kniha prvýkrát vyšla {e(b.first_published)}. Vydanie vo väzbe {e(b.binding)} prináša "
        f"{e(b.publisher)}, {b.pages} strán.</p></section>"
        "<section class='detail-params'><h2>Kompletné informácie o knihe</h2>"
        f"<table class='detail-params__table'><tbody>{table}</tbody></table></section>"
        f"<section class='detail-reviews'><h2>Hodnotenia čitateľov</h2>{reviews or '<p>Zatiaľ žiadne.</p>'}"
        "</section>"
        f"<section class='carousel'><h2>Ďalšie knihy autora</h2>{cards(more_by, 'a')}</section>"
        f"<section class='carousel'><h2>Mohlo by vás zaujímať</h2>{cards(b.related, 'rel')}</section>",
    )


# --------------------------------------------------------------------------------------------
# Held-out batch 25


def de_numeric_date(y: int, m: int, d: int) -> str:
    """A German academic bookshop's "5.3.2020" (day and month without leading zeros)."""
    return f"{d}.{m}.{y}"


def pt_month_year(y: int, m: int, d: int) -> str:
    """A Portuguese bookshop's "Edição ou reimpressão" form: "03-2020" (the day is not shown)."""
    return f"{m:02d}-{y}"


LEHMANNS_TOPICS = ["Literatur › Romane / Erzählungen", "Literatur › Krimi / Thriller",
                   "Sachbuch/Ratgeber › Geschichte", "Literatur › Fantasy / Science Fiction"]  # fmt: skip
LEHMANNS_PLACES = {"Penguin Books": "London", "Vintage": "New York", "Harper Collins": "New York",
                   "Tor": "New York"}  # fmt: skip
LEHMANNS_ROLES = [("Übersetzer", "Übers."), ("Herausgeber", "Hrsg."), ("Illustrator", "Illustr.")]
LEHMANNS_BRANCHES = ["Berlin Hardenbergstraße", "Hamburg Kurze Mühren", "Leipzig Grimmaische Straße",
                     "München Nymphenburger Straße"]  # fmt: skip
LEHMANNS_CARRIERS = {"Mass Market Paperback": "Taschenbuch", "Hardcover": "Gebunden",
                     "Paperback": "Softcover"}  # fmt: skip


def lehmanns_product(b: Book) -> str:
    """A German academic bookseller's page for an English book (Lehmanns' shape, server-rendered
    markup with short class names): a hidden "merkliste" form whose inputs hold the title and
    price first; crumbs "Startseite › Shop › Englische Bücher › ..."; the h1 and "Jane Doe
    (Autor)" role lines (an "(Übersetzer)"/"(Herausgeber)" line on some pages); an info block of
    bare lines ("Buch | Softcover", "320 Seiten", the year, "Penguin Books (Verlag)", the
    hyphenated ISBN); the price "12,99 €" with "inkl. MwSt", the Austrian and Swiss prices
    beside it, a struck "Listenpreis" on some pages; "Weitere Informationen" as a th/td table
    ("Erscheint lt. Verlag" in "5.3.2020" form, "Verlagsort", "Sprache englisch", "Einbandart",
    "Themenwelt", "ISBN-10", "ISBN-13", "Artikel-Nr."); a blurb naming the first edition's
    date; branch stock; "Weitere Bücher" and "Kunden kauften auch" lists with their own authors
    and prices."""
    r = random.Random(b.isbn + "lehmanns")
    amount = _euros(b.price)
    sale = _on_sale(b)
    year = b.published.rsplit(".", 1)[1]
    helpers = _others(r, b, 1) if r.random() < 0.35 else []
    role, role_short = r.choice(LEHMANNS_ROLES)

    def person(n: str, what: str) -> str:
        return (
            f"<div class='author'><a href='/search/quick?mode=quick&amp;q={e(n.replace(' ', '+'))}'>"
            f"{e(n)}</a> <span class='role'>({what})</span></div>"
        )

    persons = "".join(person(n, "Autor") for n in b.authors) + "".join(person(n, role) for n in helpers)
    hyph = _hyphenated_isbn(b.isbn)
    at_price = _euro_text(amount * 1.03)
    ch_price = f"CHF {amount * 1.55:.2f}".replace(".", ",")
    rows = [("Erscheint lt. Verlag", e(b.published))]
    if b.series:
        rows.append(("Reihe/Serie", e(b.series)))
    if helpers:
        rows.append((f"{role_short}", e(helpers[0])))
    if b.edition:
        rows.append(("Auflage", e(b.edition)))
    rows += [("Verlagsort", LEHMANNS_PLACES[b.publisher]), ("Sprache", "englisch"),
             ("Maße", f"{r.randint(108, 160)} x {r.randint(178, 240)} mm"),
             ("Gewicht", f"{r.randint(150, 900)} g"), ("Einbandart", e(b.binding)),
             ("Themenwelt", e(r.choice(LEHMANNS_TOPICS))), ("ISBN-10", _isbn10(b.isbn)),
             ("ISBN-13", b.isbn), ("Artikel-Nr.", e(b.sku))]  # fmt: skip
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    more = "".join(
        "<li class='item'>"
        f"<a class='title' href='/shop/literatur/{40000000 + i}-{e(t.lower().replace(' ', '-'))}'>{e(t)}</a>"
        f"<div class='author'>{e(b.authors[0])}</div>"
        f"<div class='info'>Buch | {LEHMANNS_CARRIERS[BINDINGS[(i + 1) % 3]]}</div>"
        f"<div class='price'>{_euro_text(_euros(p) * 1.1)}</div></li>"
        for i, (t, p) in enumerate((_title(r), p) for _, _, p in b.related[:2])
    )
    also = "".join(
        "<li class='item'>"
        f"<a class='title' href='/shop/literatur/{41000000 + i}-{e(t.lower().replace(' ', '-'))}'>{e(t)}</a>"
        f"<div class='author'>{e(a)}</div><div class='info'>Buch | {LEHMANNS_CARRIERS[BINDINGS[i % 3]]}</div>"
        f"<div class='price'>{e(p)}</div></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    stock = "".join(
        f"<li>{e(x)}: <span class='{c}'>{w}</span></li>"
        for x, (c, w) in zip(
            r.sample(LEHMANNS_BRANCHES, 2),
            [r.choice([("green", "vorrätig"), ("yellow", "bestellbar")]) for _ in range(2)],
            strict=True,
        )
    )
    return _page(
        "Lehmanns Media",
        "<form class='merkliste' style='display:none' action='/merkliste/add' method='post'>"
        f"<input type='hidden' name='ean' value='{b.isbn}'>"
        f"<input type='hidden' name='titel' value='{e(b.title)}'>"
        f"<input type='hidden' name='preis' value='{amount:.2f}'></form>"
        "<div id='topbar'>Fachbuchhandlung seit 1838 &middot; Versandkostenfrei ab 20 € in DE</div>"
        "<ul class='breadcrumb'><li><a href='/'>Startseite</a> › </li><li><a href='/shop'>Shop</a> › </li>"
        "<li><a href='/shop/englische-buecher'>Englische Bücher</a> › </li>"
        f"<li><a href='/shop/englische-buecher/fiction'>{e(r.choice(['Fiction', 'Literature', 'Novels']))}"
        "</a></li></ul>"
        "<div id='product' class='product'><div class='cover'>"
        f"<img src='/media/cover/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        f"<div class='main'><div class='authors'>{persons}</div>"
        f"<h1 class='title'>{e(b.title)}</h1>"
        + (f"<div class='subtitle'>{e(b.series)}</div>" if b.series else "")
        + "<div class='info'>"
        f"Buch | {LEHMANNS_CARRIERS[b.binding]}<br><span class='bold'>{b.pages} Seiten</span><br>{year}"
        + (f"<br>{e(b.edition)}" if b.edition else "")
        + f"<br>{e(b.publisher)} (Verlag)<br>{hyph}</div>"
        "<div class='price-box'>"
        + (f"<div class='listprice'>Listenpreis <s>{e(b.list_price)}</s></div>" if sale else "")
        + f"<div class='price'><span class='value'>{e(b.price)}</span> "
        "<span class='tax'>inkl. MwSt</span></div>"
        f"<div class='foreign-prices'>Preis für Österreich: {at_price}<br>({ch_price})</div>"
        "<div class='availability'>"
        f"{r.choice(['lieferbar', 'lieferbar in 3-4 Tagen', 'Titel wird beschafft'])}</div>"
        "<button class='btn btn-cart'>In den Warenkorb</button>"
        "<a class='merk' href='#'>Auf die Merkliste</a></div>"
        f"<div class='branch-stock'><h3>Verfügbarkeit in den Filialen</h3><ul>{stock}</ul></div>"
        "</div></div>"
        "<div class='description'><h2>Beschreibung</h2>"
        f"<p>Erstmals veröffentlicht am {e(b.first_published)}; diese Ausgabe ({e(b.binding)}) bei "
        f"{e(b.publisher)}, {b.pages} Seiten.</p></div>"
        f"<div class='details'><h2>Weitere Informationen</h2><table class='table'>{table}</table></div>"
        f"<div class='list'><h2>Weitere Bücher von {e(b.authors[0])}</h2><ul>{more}</ul></div>"
        f"<div class='list'><h2>Kunden kauften auch</h2><ul>{also}</ul></div>",
    )


BERTRAND_COVERS = {"Mass Market Paperback": "Livro de bolso", "Hardcover": "Capa dura",
                   "Paperback": "Capa mole"}  # fmt: skip
BERTRAND_THEMES = ["Livros em Inglês › Ficção", "Livros em Inglês › Romance",
                   "Livros em Inglês › Policial e Thriller"]  # fmt: skip
BERTRAND_SHOPS = ["Bertrand Chiado", "Bertrand Colombo", "Bertrand Norte Shopping", "Bertrand Braga"]
BERTRAND_COMMENTS = ["Gostei muito, recomendo.", "Chegou rapidamente e em bom estado.",
                     "Leitura agradável em inglês."]  # fmt: skip


def bertrand_product(b: Book) -> str:
    """A Portuguese bookshop chain's page for an English book (Bertrand's shape, ids and
    "portlet" classes of a Liferay portal): an analytics ``<script>`` with the ISBN and price and
    a collapsed mini-cart hidden by an inline style first; crumbs "Livros › Livros em Inglês ›
    ..."; the h1, "de" author links separated by ", "; the price "12,99 €" with "-10%" and a
    struck "PVP" on sale pages, "10% em CARTÃO" with its own amount; "Portes grátis"; "Outras
    edições" with every binding and its own price; the synopsis naming the first edition's
    "03-2020"-form date; "Detalhes do Produto" as label/value divs ("ISBN", "Edição ou
    reimpressão", "Editor", "Idioma", "Dimensões", "Encadernação", "Páginas", "Tipo de
    Produto", "Referência"); readers' opinions; "Também poderá gostar" cards with their own
    authors and prices."""
    r = random.Random(b.isbn + "bertrand")
    amount = _euros(b.price)
    sale = _on_sale(b)
    pct = round(100 * (1 - amount / _euros(b.list_price)))
    links = ", ".join(
        f"<a class='authors-link' href='/autor/{e(n.lower().replace(' ', '-').replace('.', ''))}/"
        f"{r.randint(10000, 99999)}'>{e(n)}</a>"
        for n in b.authors
    )
    analytics = json.dumps(
        {"event": "view_item", "ecommerce": {"items": [
            {"item_id": b.isbn, "item_name": b.title, "price": round(amount, 2),
             "item_brand": b.publisher}]}},
        ensure_ascii=False,
    ).replace("</", "<\\/")  # fmt: skip
    rest = [x for x in BINDINGS if x != b.binding]
    editions = "".join(
        "<div class='edition'>"
        f"<a href='/livro/{e(b.slug)}/{20000000 + int(b.isbn[-5:]) + k}'>"
        f"<span class='edition-type'>{e(x)}</span> "
        f"<span class='edition-price'>{e(b.price if x == b.binding else _other_price(b, rest.index(x)))}"
        "</span></a></div>"
        for k, x in enumerate(BINDINGS)
    ) + (
        "<div class='edition'><a href='/ebook/x'><span class='edition-type'>eBook</span> "
        f"<span class='edition-price'>{_euro_text(amount * 0.7)}</span></a></div>"
    )
    rows = [("ISBN", b.isbn), ("Edição ou reimpressão", e(b.published)), ("Editor", e(b.publisher)),
            ("Idioma", "Inglês"),
            ("Dimensões", f"{r.randint(108, 160)} x {r.randint(178, 240)} x {r.randint(12, 45)} mm"),
            ("Encadernação", e(b.binding)), ("Páginas", str(b.pages)), ("Tipo de Produto", "Livro"),
            ("Classificação Temática", e(r.choice(BERTRAND_THEMES)))]  # fmt: skip
    if b.series:
        rows.insert(3, ("Coleção", e(b.series)))
    rows.append(("Referência", e(b.sku)))
    details = "".join(
        f"<div class='info'><div class='info-label'>{k}:</div><div class='info-value'>{v}</div></div>"
        for k, v in rows
    )
    opinions = "".join(
        f"<div class='opinion'><span class='opinion-author'>{e(n)}</span> "
        f"<span class='opinion-rating'>{r.randint(3, 5)}/5</span><p>{r.choice(BERTRAND_COMMENTS)}</p></div>"
        for n in _people(r, r.randint(0, 2))
    )
    cards = "".join(
        "<div class='product-card'>"
        f"<a class='card-title' href='/livro/{e(t.lower().replace(' ', '-'))}/{21000000 + i}'>{e(t)}</a>"
        f"<div class='card-author'>de {e(a)}</div>"
        f"<div class='card-price'><span class='active-price'>{e(p)}</span></div>"
        "<button class='card-cart'>Adicionar ao carrinho</button></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    shop = r.choice(BERTRAND_SHOPS)
    return _page(
        "Bertrand Livreiros",
        f"<script>window.dataLayer=window.dataLayer||[];dataLayer.push({analytics});</script>"
        "<div id='mini-cart' style='display:none'><p class='mini-cart-item'>"
        f"{e(b.title)} &middot; {e(b.price)}</p></div>"
        "<div class='top-promo'>Portes grátis em encomendas para Portugal Continental</div>"
        "<div class='breadcrumbs portlet'><a href='/'>Início</a> › <a href='/livros'>Livros</a> › "
        "<a href='/livros/ingles'>Livros em Inglês</a> › "
        f"<a href='/livros/ingles/ficcao'>{e(r.choice(['Ficção', 'Romance', 'Literatura']))}</a></div>"
        "<div id='productPageSectionTop' class='portlet product-top'>"
        f"<div class='product-cover'><img src='/imagens/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='product-info'>"
        f"<h1 id='productPageRightSectionTop-title-h1' class='product-title'>{e(b.title)}</h1>"
        + (f"<div class='product-subtitle'>{e(b.series)}</div>" if b.series else "")
        + f"<div id='productPageRightSectionTop-authors' class='authors'>de {links}</div>"
        f"<div class='product-type'>{BERTRAND_COVERS[b.binding]} &middot; {b.pages} páginas</div>"
        f"<div class='rating'><span class='stars'>{r.randint(30, 50) / 10}</span> "
        f"({r.randint(0, 25)} opiniões)</div></div>"
        "<div class='product-buy'>"
        + (
            f"<div class='discount-badge'>-{pct}%</div>"
            f"<div class='old-price'>PVP <s>{e(b.list_price)}</s></div>"
            if sale
            else ""
        )
        + f"<div id='productPageRightSectionTop-saleAction-price' class='active-price'>{e(b.price)}</div>"
        f"<div class='card-discount'>10% em CARTÃO: {_euro_text(amount * 0.1)}</div>"
        f"<div class='availability'>{r.choice(['Em stock', 'Envio até 5 dias úteis', 'Disponível'])}</div>"
        "<button class='add-to-cart'>Comprar</button>"
        f"<div class='shop-stock'>Disponível na loja {e(shop)}</div></div></div>"
        f"<div class='portlet editions'><h2>Outras edições</h2>{editions}</div>"
        "<div class='portlet synopsis'><h2>Sinopse</h2>"
        f"<p>Publicado pela primeira vez em {e(b.first_published)}. Esta edição em {e(b.binding)} da "
        f"{e(b.publisher)} tem {b.pages} páginas.</p></div>"
        f"<div class='portlet product-details'><h2>Detalhes do Produto</h2>{details}</div>"
        f"<div class='portlet opinions'><h2>Opiniões dos leitores</h2>{opinions or '<p>Seja o primeiro.</p>'}"
        "</div>"
        f"<div class='portlet recommendations'><h2>Também poderá gostar</h2>{cards}</div>",
    )


KYOBO_ROLES = ["역자", "그림", "편저"]
KYOBO_COMMENTS = ["원서 읽기에 좋아요.", "배송이 빨라요.", "표지가 예뻐요.", "내용이 알찹니다."]
KYOBO_CATEGORIES = ["외국도서 > 문학 > 소설", "외국도서 > 문학 > 판타지", "외국도서 > 문학 > 고전"]


def kyobo_product(b: Book) -> str:
    """A Korean bookshop's imported-book page (Kyobo's shape, "prod_"-prefixed classes and
    ``data-kbbfn`` attributes): a hidden sticky purchase bar with the title and sale price first;
    the category path; the h1 ``prod_title`` (the binding in brackets after it), the author box
    ("A, B 저자(글)" links, a "역자"/"그림" person on some pages, then "Penguin Books ·
    2020년 03월 05일"); the price box ("13,500원" sale price and "10%" beside the struck "정가"),
    point and card-benefit amounts, delivery date; "기본정보" th/td table ("ISBN", "발행(출시)일자",
    "쪽수", "크기", "언어", "제본형태", "판매자 상품번호"); a book introduction naming the first
    edition's date; reviews; "이 책의 다른 판" formats and "함께 구매한 책" with other authors and
    prices."""
    r = random.Random(b.isbn + "kyobo")
    won = _won(b.price)
    sale = _on_sale(b)
    list_won = _won(b.list_price)
    pct = round(100 * (1 - won / list_won))
    helpers = _others(r, b, 1) if r.random() < 0.3 else []
    role = r.choice(KYOBO_ROLES)

    def link(n: str) -> str:
        return (
            f"<a class='author' href='/author/{r.randint(1000000, 9999999)}' data-kbbfn='author'>{e(n)}</a>"
        )

    authors = ", ".join(link(n) for n in b.authors) + " <span class='auth_role'>저자(글)</span>"
    if helpers:
        authors += f" &middot; {link(helpers[0])} <span class='auth_role'>{role}</span>"
    year = int(b.published[:4])
    others = "".join(
        "<li class='prod_item'>"
        f"<a href='/detail/E{62000000 + k + int(b.isbn[-4:])}'><span class='prod_format'>{e(x)}</span></a> "
        f"<span class='prod_date'>"
        f"{ko_date(r.randint(2015, 2022), r.randint(1, 12), r.randint(1, 28))}</span> "
        f"<span class='prod_price'><span class='val'>{e(_other_price(b, k))}</span></span></li>"
        for k, x in enumerate(x for x in BINDINGS if x != b.binding)
    )
    rows = [("ISBN", b.isbn), ("발행(출시)일자", e(b.published)), ("쪽수", f"{b.pages}쪽"),
            ("크기", f"{r.randint(108, 160)} * {r.randint(178, 240)} * {r.randint(12, 45)} mm / "
                   f"{r.randint(150, 900)} g"),
            ("언어", "English"), ("제본형태", e(b.binding))]  # fmt: skip
    if b.series:
        rows.append(("시리즈", e(b.series)))
    rows.append(("판매자 상품번호", e(b.sku)))
    table = "".join(f"<tr><th scope='row'>{k}</th><td>{v}</td></tr>" for k, v in rows)
    reviews = "".join(
        f"<li class='comment_item'><span class='user_id'>{e(n.split()[0].lower())}***</span> "
        f"<span class='date'>"
        f"{iso_date(year + 1, r.randint(1, 12), r.randint(1, 28)).replace('-', '.')}</span>"
        f"<p class='comment_text'>{r.choice(KYOBO_COMMENTS)}</p></li>"
        for n in _people(r, r.randint(0, 3))
    )
    together = "".join(
        "<li class='prod_item'>"
        f"<a class='prod_link' href='/detail/S{70000000 + i}'><span class='prod_name'>{e(t)}</span></a>"
        f"<span class='prod_author'>{e(a)}</span>"
        f"<span class='prod_price'><span class='percent'>10%</span> "
        f"<span class='val'>{e(p)}</span></span></li>"
        for i, (t, a, p) in enumerate(b.related)
    )
    delivery_month, delivery_day = r.randint(1, 12), r.randint(1, 28)
    crumbs = "".join(
        f"<li class='breadcrumb_item'><a href='#'>{p}</a></li>"
        for p in ["홈", *r.choice(KYOBO_CATEGORIES).split(" > ")]
    )
    return _page(
        "교보문고",
        "<style>.sps_inner.is_hidden{display:none}</style>"
        "<div class='sps_inner is_hidden' data-kbbfn='sticky-buy'>"
        f"<span class='prod_name'>{e(b.title)}</span> <span class='val'>{e(b.price)}</span>"
        "<button class='btn_primary'>바로구매</button></div>"
        "<div class='gnb_wrap'><a href='/'>국내도서</a> <a href='/foreign'>외국도서</a> "
        "<a href='/ebook'>eBook</a> <a href='/sam'>sam</a></div>"
        f"<div class='breadcrumb_wrap'><ol class='breadcrumb_list'>"
        + crumbs
        + "</ol></div>"
        "<div class='prod_detail_header'><div class='prod_title_box'>"
        "<span class='prod_label'>외국도서</span>"
        f"<h1 class='prod_title'>{e(b.title)}</h1>"
        f"<span class='prod_desc'>({e(b.binding)})</span>"
        + (f"<p class='prod_series'>{e(b.series)}</p>" if b.series else "")
        + "</div></div>"
        "<div class='prod_detail_contents'><div class='prod_img_box'>"
        f"<img src='/pdt/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        f"<div class='prod_info_box'><div class='prod_author_box'><div class='author'>{authors}</div>"
        f"<div class='prod_info_text publish_date'><a class='btn_publish_link' href='/publisher/x'>"
        f"{e(b.publisher)}</a> &middot; {e(b.published)}</div></div>"
        "<div class='prod_review_box'>"
        f"<span class='review_klover_text'>{r.randint(80, 100) / 10}</span> "
        f"<span class='review_desc'>({r.randint(0, 40)}개의 리뷰)</span></div>"
        "<div class='prod_price_box'>"
        + (
            f"<div class='prod_price'><span class='percent'>{pct}%</span> "
            f"<span class='price'><span class='val'>{e(b.price)}</span></span> "
            f"<span class='sale_price'><s class='val'>{e(b.list_price)}</s></span></div>"
            if sale
            else f"<div class='prod_price'><span class='price'><span class='val'>{e(b.price)}</span></span>"
            "</div>"
        )
        + f"<div class='point_text'>적립 {_won_text(won * 0.05)} (5% 적립)</div>"
        f"<div class='benefit'>카드 혜택가 {_won_text(won * 0.9)}</div>"
        f"<div class='delivery'>{delivery_month}월 {delivery_day}일 도착 예정</div>"
        "<button class='btn_primary' data-kbbfn='buy-now'>바로구매</button>"
        "<button class='btn_line_gray'>장바구니</button></div></div></div>"
        "<div class='prod_other_format'><h2 class='title_heading'>이 책의 다른 판</h2>"
        f"<ul>{others}</ul></div>"
        "<div class='product_detail_area basic_info'><h2 class='title_heading'>기본정보</h2>"
        f"<table class='tbl_row'><tbody>{table}</tbody></table></div>"
        "<div class='product_detail_area book_intro'><h2 class='title_heading'>책소개</h2>"
        f"<p class='info_text'>{e(b.publisher)}에서 펴낸 {e(b.binding)} 판. "
        f"초판 {e(b.first_published)} 출간.</p></div>"
        "<div class='product_detail_area klover_review'><h2 class='title_heading'>Klover 리뷰</h2>"
        f"<ul>{reviews}</ul></div>"
        "<div class='product_detail_area together'><h2 class='title_heading'>함께 구매한 책</h2>"
        f"<ul>{together}</ul></div>",
    )


BIBLIO_SELLERS = [("Better World Books", "Mishawaka, Indiana"), ("Ergodebooks", "Houston, Texas"),
                  ("Powell's Books", "Portland, Oregon"), ("Book Depot Hub", "Sparks, Nevada"),
                  ("Owl Books", "Boston, Massachusetts")]  # fmt: skip
BIBLIO_CONDITIONS = ["New", "Used - Like New", "Used - Very Good", "Used - Good"]
BIBLIO_NOTES = ["Brand new, never read. Ships within 1 business day.",
                "Clean copy with minimal shelf wear. Pages unmarked.",
                "Light wear to cover; binding tight. Ships in a sturdy box."]  # fmt: skip


def biblio_listing(b: Book) -> str:
    """A US used-book marketplace listing (Biblio's shape, Bootstrap markup with ``data-*``
    hooks): a hidden ``#cartModal`` with the title and price and Open Graph metas first; crumbs
    "Home › Books › Fiction › ..."; the h1 with the authors after "by" as a semicolon-separated
    link list; the seller's price "$12.99" with "+ $3.99 shipping", a strike-through "List
    price" on some pages; the seller block with rating and city; "About this item" (the
    seller's note); "Item Details" as a ``dl`` ("Bookseller", "Bookseller's Inventory #",
    "Condition", "Binding", "Publisher", "Date published" in "March 5, 2020" form, "ISBN 13",
    "ISBN 10", "Quantity available"); "Other copies" from other sellers with their own binding,
    date, condition and price; "About the book" naming the first edition's date; "Readers also
    bought" with their own authors and prices."""
    r = random.Random(b.isbn + "biblio")
    amount = _dollars(b.price)
    sale = _on_sale(b)
    seller, city = r.choice(BIBLIO_SELLERS)
    condition = r.choice(BIBLIO_CONDITIONS)
    shipping = r.choice(["3.99", "4.50", "5.95"])
    byline = "; ".join(
        f"<a href='/search.php?author={e(n.replace(' ', '+'))}' data-author='{e(n)}'>{e(n)}</a>"
        for n in b.authors
    )
    rows = [("Bookseller", f"<a href='/bookseller_info.php?s={r.randint(100000, 999999)}'>{e(seller)}</a>"),
            ("Bookseller's Inventory #", e(b.sku)), ("Condition", e(condition)),
            ("Binding", e(b.binding)), ("Publisher", e(b.publisher)),
            ("Date published", e(b.published))]  # fmt: skip
    if b.edition:
        rows.append(("Edition", e(b.edition)))
    rows += [("ISBN 13", b.isbn), ("ISBN 10", _isbn10(b.isbn)), ("Pages", str(b.pages)),
             ("Quantity available", str(r.randint(1, 4)))]  # fmt: skip
    details = "".join(f"<dt>{k}:</dt><dd>{v}</dd>" for k, v in rows)
    copies = ""
    for k in range(r.randint(2, 4)):
        s, c = r.choice([x for x in BIBLIO_SELLERS if x[0] != seller])
        copies += (
            "<div class='copy row' data-listing>"
            f"<div class='col-md-7'><span class='copy-binding'>{e(r.choice(BINDINGS))}</span>, "
            f"<span class='copy-publisher'>{e(r.choice(PUBLISHERS))}</span>, "
            "<span class='copy-date'>"
            f"{us_date(r.randint(2005, 2022), r.randint(1, 12), r.randint(1, 28))}</span>"
            f"<br><span class='copy-condition'>{e(r.choice(BIBLIO_CONDITIONS))}</span> &middot; "
            f"<span class='copy-seller'>{e(s)} ({e(c)})</span></div>"
            f"<div class='col-md-3 price'>{e(_other_price(b, k))}</div>"
            "<div class='col-md-2'><a class='btn btn-sm btn-outline-primary' href='#'>View</a></div></div>"
        )
    cards = "".join(
        "<div class='col-6 col-md-3 card book-card'>"
        f"<a href='/book/{e(t.lower().replace(' ', '-'))}/d/{1500000000 + i}'>"
        f"<img class='card-img-top' src='/covers/r{i}.jpg' alt='{e(t)}'></a>"
        f"<div class='card-body'><h5 class='card-title'>{e(t)}</h5><p class='card-text'>by {e(a)}</p>"
        f"<p class='card-text price'>{e(p)}</p></div></div>"
        for i, (t, a, p) in enumerate(b.related)
    )
    return _page(
        "Biblio.com",
        f"<meta property='og:title' content='{e(b.title)} by {e(', '.join(b.authors))}'>"
        f"<meta property='book:isbn' content='{b.isbn}'>"
        "<div class='modal fade' id='cartModal' tabindex='-1' aria-hidden='true' style='display:none'>"
        f"<div class='modal-body'><p>{e(b.title)} was added to your cart: {e(b.price)}</p></div></div>"
        "<div class='alert alert-info promo'>Free shipping on orders over $50 from participating "
        "booksellers</div>"
        "<nav aria-label='breadcrumb'><ol class='breadcrumb'>"
        "<li class='breadcrumb-item'><a href='/'>Home</a></li>"
        "<li class='breadcrumb-item'><a href='/books'>Books</a></li>"
        "<li class='breadcrumb-item'><a href='/fiction'>Fiction</a></li>"
        "<li class='breadcrumb-item active' aria-current='page'>"
        f"{e(r.choice(['Literary', 'General', 'Classics']))}</li></ol></nav>"
        "<div class='container item-page'><div class='row'>"
        f"<div class='col-md-3'><img class='img-fluid' src='/covers/{b.isbn}.jpg' alt='{e(b.title)}'></div>"
        "<div class='col-md-6'>"
        f"<h1 class='item-title'>{e(b.title)}</h1>"
        f"<h2 class='item-author h5'>by {byline}</h2>"
        + (f"<p class='item-series'>{e(b.series)}</p>" if b.series else "")
        + f"<p class='item-summary'>{e(b.binding)} &middot; {e(condition)}</p>"
        "<h3 class='h6'>About this item</h3>"
        f"<p class='seller-notes'>{r.choice(BIBLIO_NOTES)}</p></div>"
        "<div class='col-md-3'><div class='card buy-box'><div class='card-body'>"
        + (f"<p class='list-price text-muted'>List price: <del>{e(b.list_price)}</del></p>" if sale else "")
        + f"<p class='price h3' data-price='{amount:.2f}'>{e(b.price)}</p>"
        f"<p class='shipping small'>+ ${shipping} shipping</p>"
        "<button class='btn btn-primary btn-block'>Add to cart</button>"
        f"<p class='seller small'>Sold by <strong>{e(seller)}</strong><br>{e(city)}<br>"
        f"Rating: {r.randint(40, 50) / 10} / 5</p></div></div></div></div>"
        f"<div class='item-details'><h3>Item Details</h3><dl class='row-dl'>{details}</dl></div>"
        f"<div class='other-copies'><h3>Other copies of this book</h3>{copies}</div>"
        "<div class='about-book'><h3>About the book</h3>"
        f"<p>First published {e(b.first_published)}. This {e(b.binding)} edition from {e(b.publisher)} runs "
        f"to {b.pages} pages.</p></div>"
        f"<div class='also-bought'><h3>Readers also bought</h3><div class='row'>{cards}</div></div></div>",
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
    # Held-out batch 13; scored once, then looked at.
    SiteStyle("openlibrary", open_library, ol_date, "$"),
    SiteStyle("bookshop", bookshop_org, us_date, "$"),
    SiteStyle("bol", bol_product, dash_dmy, ","),
    SiteStyle("dangdang", dangdang_product, cn_month, "¥"),
    # Held-out batch 14; scored once, then looked at.
    SiteStyle("woocommerce", woocommerce_product, us_date, "$"),
    SiteStyle("thalia", thalia_product, dot_date, "€"),
    SiteStyle("yes24", yes24_goods, ko_date, "원"),
    SiteStyle("flipkart", flipkart_product, year_only, "₹"),
    # Held-out batch 15; scored once, then looked at.
    SiteStyle("prestashop", prestashop_product, slash_dmy, "€"),
    SiteStyle("empik", empik_product, pl_date, "zł"),
    SiteStyle("booktopia", booktopia_product, ordinal_date, "$"),
    SiteStyle("opencart", opencart_product, slash_dmy, "$"),
    # Held-out batch 16; scored once, then looked at.
    SiteStyle("waterstones", waterstones_book, slash_dmy, "GBP"),
    SiteStyle("adlibris", adlibris_product, iso_date, "SEK"),
    SiteStyle("bigcommerce", bigcommerce_product, short_us_date, "$"),
    SiteStyle("ibs", ibs_product, it_date, "EUR-IT"),
    # Held-out batch 17; scored once, then looked at.
    SiteStyle("kobo", kobo_ebook, us_date, "C$"),
    SiteStyle("casadellibro", casadellibro_product, slash_dmy, "€"),
    SiteStyle("wix", wix_product, uk_date, "$"),
    SiteStyle("saxo", saxo_product, da_date, "DKK"),
    # Held-out batch 18; scored once, then looked at and fixed on.
    SiteStyle("rakuten", rakuten_books, jp_date, "円"),
    SiteStyle("vtex", vtex_livraria, slash_dmy, "BRL"),
    SiteStyle("shopware", shopware_product, nl_date, "EUR-NL"),
    SiteStyle("douban", douban_book, dash_ymd, "¥"),
    # Held-out batch 19; scored once, then looked at and fixed on.
    SiteStyle("indigo", indigo_product, short_us_date, "$"),
    SiteStyle("libri", libri_product, hu_date, "HUF"),
    SiteStyle("mercadolibre", mercadolibre_item, es_date, "ARS"),
    SiteStyle("tiki", tiki_product, slash_dmy, "VND"),
    # Held-out batch 20; scored once, then looked at and fixed on.
    SiteStyle("kitapyurdu", kitapyurdu_product, dot_date, "TL"),
    SiteStyle("vufind", vufind_record, year_only, "$"),
    SiteStyle("etsy", etsy_listing, us_date, "US$"),
    SiteStyle("squarespace", squarespace_product, long_date, "$"),
    # Held-out batch 21; scored once, then looked at and fixed on.
    SiteStyle("blackwells", blackwells_product, uk_date, "GBP"),
    SiteStyle("takealot", takealot_product, iso_date, "ZAR"),
    SiteStyle("periplus", periplus_product, dash_dmy, "IDR"),
    SiteStyle("ecwid", ecwid_product, german_date, "€"),
    # Held-out batch 22; scored once, then looked at and fixed on.
    SiteStyle("powells", powells_product, us_ordinal_date, "$"),
    SiteStyle("walmart", walmart_item, month_comma_year, "$"),
    SiteStyle("bookscomtw", bookscomtw_product, slash_date, "TWD"),
    SiteStyle("decitre", decitre_product, slash_dmy, "€"),
    # Held-out batch 23; scored once, then looked at and fixed on.
    SiteStyle("thriftbooks", thriftbooks_work, month_year, "$"),
    SiteStyle("aladin", aladin_product, iso_date, "원"),
    SiteStyle("estantevirtual", estantevirtual_book, year_only, "BRL"),
    SiteStyle("kinokuniya", kinokuniya_product, slash_dmy, "S$"),
    # Held-out batch 24; scored once, then looked at and fixed on.
    SiteStyle("hugendubel", hugendubel_product, dot_date, "€"),
    SiteStyle("bookdepository", bookdepository_item, dmy_short_date, "GBP"),
    SiteStyle("gandhi", gandhi_product, es_date, "$"),
    SiteStyle("libristo", libristo_product, sk_date, "€"),
]
# Held-out batch 25, written after all of the above were used for tuning, without reading the
# learner's code; only scored.
HELD_OUT = [
    SiteStyle("lehmanns", lehmanns_product, de_numeric_date, "€"),
    SiteStyle("bertrand", bertrand_product, pt_month_year, "€"),
    SiteStyle("kyobo", kyobo_product, ko_date, "원"),
    SiteStyle("biblio", biblio_listing, us_date, "$"),
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
