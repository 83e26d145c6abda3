"""The benchmark site: N shop items, each as a JavaScript-rendered page and as plain server-rendered HTML.

Why this shape: the issue's reference numbers came from a site whose content is rendered from a
JSON endpoint, so a crawler must run the page's script, wait for the rendered item and read the
DOM; the links to other items are rendered too, so a crawler that does not render finds nothing.
The HTML variant carries exactly the same item and links in its markup, for the HTTP crawlers.

Layout under ``root/n{N}/`` (one tree per site size, so the 1,000- and 5,000-page memory runs
crawl different sites from the same server)::

    js/item/{i}      shell page: stylesheet, vendor.js + app.js, an image; #item is empty
    data/{i}.json    the item: title, price, sku, description, related item ids
    jsx/item/{i}     the same shell with app-opaque.js, which fetches the item from
                     blob/{hash}.json: a hash the script computes from the id, so the JSON's URL
                     does not follow from the page URL or its shell (the API shortcut's fallback)
    html/item/{i}    the same item rendered on the server
    tagged/item/{i}  the same server-rendered item with a tag-manager script that changes nothing on
                     the page (most static sites carry one: a crawler cannot tell from the HTML
                     alone that the page needs no rendering)
    /static/...      shared stylesheet, scripts and images (cacheable for an hour)

Item links form a tree plus cross links (i+1, 2i+1, 2i+2, 7i+3, i+N/2 modulo N), so every item is
reachable from item 0 within about log2(N) hops and the crawl fans out immediately.
"""

from __future__ import annotations

import html
import json
import random
from dataclasses import dataclass
from pathlib import Path

SITE_VERSION = "5"
READY_SELECTOR = "#item[data-ready]"

_ADJ = (
    "red",
    "blue",
    "vintage",
    "compact",
    "deluxe",
    "rugged",
    "silent",
    "smart",
    "folding",
    "wireless",
    "ceramic",
    "bamboo",
    "steel",
    "organic",
    "classic",
    "modular",
    "portable",
    "heavy-duty",
    "mini",
)
_NOUN = (
    "kettle",
    "lamp",
    "backpack",
    "chair",
    "keyboard",
    "speaker",
    "notebook",
    "blender",
    "drill",
    "tent",
    "jacket",
    "clock",
    "headphones",
    "mug",
    "skillet",
    "router",
    "monitor",
    "bicycle",
)
_WORDS = (
    "quality",
    "durable",
    "design",
    "comfort",
    "everyday",
    "materials",
    "tested",
    "warranty",
    "shipping",
    "compatible",
    "lightweight",
    "premium",
    "finish",
    "easy",
    "clean",
    "assembly",
    "included",
    "capacity",
    "battery",
    "performance",
    "reliable",
    "sturdy",
    "elegant",
    "versatile",
    "energy",
    "efficient",
    "modern",
    "storage",
    "travel",
    "home",
    "office",
)

# A 1x1 transparent PNG: the pages' images exist, so a crawler that does not block them pays for them.
_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


@dataclass(frozen=True)
class Item:
    """One item; the checks compare what each crawler extracted against these fields."""

    i: int
    title: str
    price: str
    sku: str
    description: str
    related: tuple[int, ...]


def item(i: int, n: int) -> Item:
    """The deterministic item number ``i`` of an ``n``-item site."""
    rng = random.Random(i * 7919 + 17)
    title = f"{rng.choice(_ADJ).title()} {rng.choice(_NOUN)} model {i}"
    price = f"${rng.randint(1, 999)}.{rng.randint(0, 99):02d}"
    desc = " ".join(rng.choice(_WORDS) for _ in range(80)).capitalize() + "."
    related: list[int] = []
    for j in (i + 1, 2 * i + 1, 2 * i + 2, 7 * i + 3, i + n // 2):
        j %= n
        if j != i and j not in related:
            related.append(j)
    return Item(i, title, price, f"SKU-{i:05d}", desc, tuple(related))


_CSS = (
    "\n".join(
        f".c{k} {{ margin: {k % 7}px; padding: {k % 5}px; color: #{k * 2654435761 % 0xFFFFFF:06x}; }}"
        for k in range(600)
    )
    + """
body { font-family: sans-serif; max-width: 60em; margin: auto; }
#item h1.title { font-size: 1.6em; } .price { font-weight: bold; } .sku { color: #666; }
"""
)

# Stand-in for a front-end framework bundle: code the browser must parse and run on every page.
_VENDOR_JS = (
    "window.vendor = (function () {\n  const m = {};\n"
    + "\n".join(
        f"  m.f{k} = function (x) {{ let s = 0; for (let j = 0; j < {k % 13 + 3}; j++) "
        f"{{ s += (x * {k} + j) % 97; }} return s + '{'v' * (k % 11)}'; }};"
        for k in range(900)
    )
    + "\n  return m;\n})();\n"
)

# What an analytics tag does on a static page: queue an event, read a cookie; the DOM stays as is.
_TAGS_JS = """window.dataLayer = window.dataLayer || [];
window.dataLayer.push({event: 'page_view', path: location.pathname, ref: document.referrer});
document.cookie = 'seen=1; path=/';
"""

_APP_JS = """(function () {
  const body = document.body;
  const base = body.dataset.base, id = body.dataset.item;
  const ents = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ents[c]);
  let warm = 0;
  for (let k = 0; k < 50; k++) warm += window.vendor['f' + k](k).length;
  fetch(base + '/data/' + id + '.json').then((r) => r.json()).then((d) => {
    const el = document.getElementById('item');
    const links = d.related.map((j) =>
      '<li><a class="rel" href="' + base + '/js/item/' + j + '">Item ' + j + '</a></li>').join('');
    el.innerHTML = '<h1 class="title">' + esc(d.title) + '</h1>' +
      '<p><span class="price">' + esc(d.price) + '</span> <span class="sku">' + esc(d.sku) + '</span></p>' +
      '<img src="/static/img/' + (d.id % 20) + '.png" alt="">' +
      '<p class="desc">' + esc(d.description) + '</p>' +
      '<h2>Related</h2><ul class="related">' + links + '</ul>';
    el.dataset.warm = warm;
    el.setAttribute('data-ready', '1');
  });
})();
"""


# The JavaScript site whose JSON URLs do not follow from the page: the same page, fetched from a
# URL the script computes (a multiplicative hash of the id, as hex).
_APP_OPAQUE_JS = (
    _APP_JS.replace("fetch(base + '/data/' + id + '.json')",
                    "fetch(base + '/blob/' + ((Number(id) * 2654435761) >>> 0).toString(16) + '.json')")
    .replace("'/js/item/'", "'/jsx/item/'")
)


def opaque_name(i: int) -> str:
    """The JSON file of item ``i`` on the opaque variant (what app-opaque.js computes)."""
    return format((i * 2654435761) % 2**32, "x")


def _head(title: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="stylesheet" href="/static/site.css">'
    )


def _chrome_top() -> str:
    return (
        '<header><img src="/static/logo.png" alt="logo" width="40" height="40">'
        "<span>Bench shop</span></header>"
    )


def js_page(it: Item, base: str, app: str = "app.js") -> str:
    """The shell a JavaScript site serves: nothing about the item until app.js has run."""
    return (
        _head("Bench shop")
        + f'<script src="/static/vendor.js" defer></script><script src="/static/{app}" defer></script>'
        + f'</head><body data-base="{base}" data-item="{it.i}">'
        + _chrome_top()
        + '<main id="item">Loading...</main><footer>Bench shop footer</footer></body></html>'
    )


def html_page(it: Item, base: str, variant: str = "html") -> str:
    """The same item rendered on the server (what app.js produces), for the plain-HTML crawl;
    the ``tagged`` variant adds a script that changes nothing on the page."""
    links = "".join(
        f'<li><a class="rel" href="{base}/{variant}/item/{j}">Item {j}</a></li>' for j in it.related)
    tag = '<script src="/static/tags.js" defer></script>' if variant == "tagged" else ""
    return (
        _head(it.title)
        + tag
        + f'</head><body data-base="{base}" data-item="{it.i}">'
        + _chrome_top()
        + f'<main id="item" data-ready="1"><h1 class="title">{html.escape(it.title)}</h1>'
        + f'<p><span class="price">{html.escape(it.price)}</span> <span class="sku">{it.sku}</span></p>'
        + f'<img src="/static/img/{it.i % 20}.png" alt="">'
        + f'<p class="desc">{html.escape(it.description)}</p>'
        + f'<h2>Related</h2><ul class="related">{links}</ul></main>'
        + "<footer>Bench shop footer</footer></body></html>"
    )


def build(root: Path, sizes: list[int]) -> None:
    """Write the site for every size in ``sizes`` under ``root`` (skipping sizes already written)."""
    static = root / "static"
    (static / "img").mkdir(parents=True, exist_ok=True)
    (static / "site.css").write_text(_CSS)
    (static / "vendor.js").write_text(_VENDOR_JS)
    (static / "app.js").write_text(_APP_JS)
    (static / "app-opaque.js").write_text(_APP_OPAQUE_JS)
    (static / "tags.js").write_text(_TAGS_JS)
    (static / "logo.png").write_bytes(_PNG)
    for k in range(20):
        (static / "img" / f"{k}.png").write_bytes(_PNG)
    (root / "robots.txt").write_text("User-agent: *\nDisallow:\n")
    for n in sizes:
        top = root / f"n{n}"
        stamp = top / ".complete"
        if stamp.exists() and stamp.read_text() == SITE_VERSION:
            continue
        base = f"/n{n}"
        for sub in ("js/item", "jsx/item", "html/item", "tagged/item", "data", "blob"):
            (top / sub).mkdir(parents=True, exist_ok=True)
        for i in range(n):
            it = item(i, n)
            (top / "js" / "item" / str(i)).write_text(js_page(it, base))
            (top / "html" / "item" / str(i)).write_text(html_page(it, base))
            (top / "tagged" / "item" / str(i)).write_text(html_page(it, base, "tagged"))
            data = {
                "id": it.i,
                "title": it.title,
                "price": it.price,
                "sku": it.sku,
                "description": it.description,
                "related": list(it.related),
            }
            (top / "data" / f"{i}.json").write_text(json.dumps(data))
            (top / "jsx" / "item" / str(i)).write_text(js_page(it, base, "app-opaque.js"))
            (top / "blob" / f"{opaque_name(i)}.json").write_text(json.dumps(data))
        stamp.write_text(SITE_VERSION)
    # The server's workers may run as another user: make the tree world-readable.
    for p in [root, *root.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)


def seed(port: int, n: int, variant: str) -> str:
    """The start URL of a crawl of the ``variant`` ('js', 'jsx', 'html' or 'tagged') site of size ``n``."""
    return f"http://127.0.0.1:{port}/n{n}/{variant}/item/0"
