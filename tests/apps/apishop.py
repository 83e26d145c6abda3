"""A JavaScript shop whose pages are shells filled from JSON, in the ways the API shortcut must tell apart.

- ``/item/<i>``: the script fetches ``/api/items/<i>`` (the JSON URL follows from the page URL);
  it writes the name (with an ``&``), the price, the related items as a list of links and a text.
- ``/page/<slug>``: the same item under a slug; the script fetches ``/api/items/<id>`` with the id
  from the shell's ``data-id`` (the JSON URL follows from the shell, not from the URL).
- ``/opaque/<i>``: the script fetches ``/api/blob/<hash>``, a hash it computes from the id: the
  JSON URL follows from nothing the crawler can see without running the script.
- ``/drift/<i>``: like ``/item/``, but after ``drift_after`` JSON answers the shells carry a new
  script that adds a line (the site changed under the crawler: a check must notice).
- ``/stock/<i>``: like ``/item/``, plus a stock line the script writes as ``N in stock`` or, when
  the count is 0 (items ``sold_out_from`` on), as ``sold out``: samples of early items fit the
  template ``{stock} in stock``, which writes later items wrong (a check must notice, and the
  pages built wrong before it must be rendered again).
"""

from __future__ import annotations

from collections import Counter

from aiohttp import web

SCRIPT = """<script>
const id = {id_expr};
fetch({json_expr}).then(r => r.json()).then(d => {{
  const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const rel = d.related.map(r =>
    `<li><a href="/{kind}/${{{link_expr}}}">${{esc(r.name)}}</a></li>`).join('');
  document.getElementById('c').innerHTML = `<h1>${{esc(d.name)}}</h1><p class="price">${{d.price}}</p>` +
    `<ul class="related">${{rel}}</ul><p class="about">${{esc(d.about)}}</p>{extra}` +
    (d.stock === undefined ? '' :
     `<p class="stock">${{d.stock > 0 ? d.stock + ' in stock' : 'sold out'}}</p>`);
}});
</script>"""

SHELL = """<!doctype html><html><head><title>Shop</title></head>
<body data-id="{i}"><nav><a href="/">home</a></nav><main id="c">loading</main>
<footer>Shop footer</footer>{script}</body></html>"""


def opaque_hash(i: int) -> str:
    return format((i * 2654435761) % 2**32, "x")


class ApiShop:
    def __init__(self, pages: int = 30, drift_after: int | None = None, sold_out_from: int = 20) -> None:
        self.pages = pages
        self.sold_out_from = sold_out_from
        self.drift_after = drift_after
        self.counts: Counter[str] = Counter()
        self.json_answers = 0

    def related(self, i: int) -> list[int]:
        """One to three related items (lists of different lengths)."""
        return [(i * 3 + k) % self.pages for k in range(1, 2 + i % 3)]

    def slug(self, i: int) -> str:
        return f"w{i}-widget"

    def name(self, i: int) -> str:
        return f"Widget {i} & co"

    def data(self, i: int) -> dict:
        return {
            "id": i,
            "name": self.name(i),
            "slug": self.slug(i),
            "price": f"{i * 7 % 100}.{i % 10}0 EUR",
            "about": f"Widget number {i} is sturdy and {['red', 'blue', 'green'][i % 3]}.",
            "related": [{"id": j, "name": self.name(j), "slug": self.slug(j)} for j in self.related(i)],
        }

    @web.middleware
    async def _count(self, request: web.Request, handler):
        self.counts[request.path] += 1
        return await handler(request)

    async def index(self, request: web.Request) -> web.Response:
        body = ('<html><head><title>home</title></head><body><a href="/item/0">items</a> '
                f'<a href="/page/{self.slug(0)}">pages</a> <a href="/opaque/0">opaque</a> '
                '<a href="/drift/0">drift</a></body></html>')
        return web.Response(text=body, content_type="text/html")

    def _shell(self, i: int, kind: str, extra: str = "") -> web.Response:
        if not 0 <= i < self.pages:
            raise web.HTTPNotFound()
        if kind == "page":
            script = SCRIPT.format(id_expr="document.body.dataset.id", json_expr="'/api/items/' + id",
                                   kind="page", link_expr="r.slug", extra=extra)
        elif kind == "opaque":
            script = SCRIPT.format(
                id_expr=str(i), json_expr="'/api/blob/' + ((id * 2654435761) >>> 0).toString(16)",
                kind="opaque", link_expr="r.id", extra=extra)
        else:
            script = SCRIPT.format(id_expr=str(i), json_expr=f"'/api/{kind}s/' + id", kind=kind,
                                   link_expr="r.id", extra=extra)
        return web.Response(text=SHELL.format(i=i, script=script), content_type="text/html")

    async def item(self, request: web.Request) -> web.Response:
        return self._shell(int(request.match_info["i"]), "item")

    async def page(self, request: web.Request) -> web.Response:
        slug = request.match_info["slug"]
        i = int(slug[1:].split("-", 1)[0])
        return self._shell(i, "page")

    async def opaque(self, request: web.Request) -> web.Response:
        return self._shell(int(request.match_info["i"]), "opaque")

    async def stock(self, request: web.Request) -> web.Response:
        return self._shell(int(request.match_info["i"]), "stock")

    async def stock_api(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        return web.json_response({**self.data(i), "stock": 0 if i >= self.sold_out_from else 3 + i % 5})

    async def drift(self, request: web.Request) -> web.Response:
        changed = self.drift_after is not None and self.json_answers >= self.drift_after
        return self._shell(int(request.match_info["i"]), "drift", "<p>Now on sale</p>" if changed else "")

    async def api(self, request: web.Request) -> web.Response:
        self.json_answers += 1
        return web.json_response(self.data(int(request.match_info["i"])))

    async def blob(self, request: web.Request) -> web.Response:
        want = request.match_info["h"]
        i = next((i for i in range(self.pages) if opaque_hash(i) == want), None)
        if i is None:
            raise web.HTTPNotFound()
        return web.json_response(self.data(i))

    async def robots(self, request: web.Request) -> web.Response:
        return web.Response(text="User-agent: *\nDisallow:\n")

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._count])
        app.add_routes([
            web.get("/", self.index),
            web.get("/item/{i}", self.item),
            web.get("/page/{slug}", self.page),
            web.get("/opaque/{i}", self.opaque),
            web.get("/drift/{i}", self.drift),
            web.get("/api/items/{i}", self.api),
            web.get("/api/drifts/{i}", self.api),
            web.get("/stock/{i}", self.stock),
            web.get("/api/stocks/{i}", self.stock_api),
            web.get("/api/blob/{h}", self.blob),
            web.get("/robots.txt", self.robots),
        ])
        return app
