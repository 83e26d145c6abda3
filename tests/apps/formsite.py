"""A small site with every kind of form, for the search-forms crawl tests.

Three search interfaces reach the same 90 items: a GET form (``/search``, 5 results per page,
``rel=next`` paging), a POST form with a CSRF token (``/advanced`` -> ``POST /advanced/results``),
and a form-less box whose script fetches ``/api/find?q=`` (JSON, ``next_page``). No page links to an
item: they are reachable only through a search. Every topic page also holds a login, registration,
newsletter, comment, contact, upload, delete and jump form, each sending to its own endpoint, and
every request is recorded (``site.log``) so a test can prove none of them was ever submitted.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from dataclasses import dataclass, field
from html import escape

from aiohttp import web

TOPICS = {
    "orchard": "apple pear plum cherry quince apricot grafting pruning blossom harvest cider rootstock",
    "workshop": "chisel plane lathe dovetail mortise tenon walnut oak veneer clamp sawdust varnish",
    "pond": "heron frog newt dragonfly lily reed tadpole algae pump filter koi minnow",
}
COMMON = "garden weekend project notes season tools guide simple"
PAGE_SIZE = 5
FORBIDDEN = ("/login", "/register", "/newsletter", "/comment", "/contact", "/upload", "/account/delete",
             "/jump")


@dataclass
class Item:
    id: int
    topic: str
    title: str
    body: str


@dataclass
class FormSite:
    items: list[Item]
    csrf: str = field(default_factory=lambda: secrets.token_hex(8))
    log: list[tuple[float, str, str, str]] = field(default_factory=list)  # (time, method, path_qs, body)

    def search(self, query: str) -> list[Item]:
        words = query.lower().split()
        if not words:
            return []
        return [i for i in self.items if all(w in f"{i.title} {i.body}".lower().split() for w in words)]

    def forbidden_hits(self) -> list[tuple[str, str]]:
        return [(m, p) for _, m, p, _ in self.log if p.split("?")[0] in FORBIDDEN]


def make_items(n: int = 90, seed: int = 7) -> list[Item]:
    rng = random.Random(seed)
    items = []
    names = list(TOPICS)
    for i in range(1, n + 1):
        topic = names[i % len(names)]
        words = TOPICS[topic].split()
        title = " ".join(rng.sample(words, 3))
        body = " ".join(rng.choice(words) for _ in range(12)) + " " + " ".join(rng.sample(COMMON.split(), 3))
        items.append(Item(i, topic, title, body))
    return items


def _page(title: str, body: str, head: str = "") -> web.Response:
    html = (f"<!doctype html><html lang='en'><head><title>{escape(title)}</title>{head}</head><body>"
            "<header><a href='/'>Home</a> <a href='/topic/orchard'>Orchard</a> "
            "<a href='/topic/workshop'>Workshop</a> <a href='/topic/pond'>Pond</a> "
            "<a href='/advanced'>Advanced</a> <a href='/app'>App</a> <a href='/tools'>Tools</a>"
            "<form action='/search' method='get' role='search' class='site-search'>"
            "<input type='search' name='q' placeholder='Search the site'><button>Search</button></form>"
            f"</header><main>{body}</main></body></html>")
    return web.Response(text=html, content_type="text/html")


OTHER_FORMS = "\n".join((
    '<form action="/login" method="post"><input name="user"><input type="password" name="pass">'
    '<button>Log in</button></form>',
    '<form action="/register" method="post"><input type="email" name="email">'
    '<input type="password" name="p1"><input type="password" name="p2">'
    '<button>Create account</button></form>',
    '<form action="/newsletter" method="post"><input type="email" name="email" placeholder="Email">'
    '<button>Subscribe</button></form>',
    '<form action="/comment" method="post"><textarea name="text"></textarea><input name="name">'
    '<button>Post comment</button></form>',
    '<form action="/contact" method="post"><input name="name"><input type="email" name="email">'
    '<input name="subject"><textarea name="message"></textarea><button>Send message</button></form>',
    '<form action="/upload" method="post" enctype="multipart/form-data"><input type="file" name="f">'
    '<button>Upload</button></form>',
    '<form action="/account/delete" method="post"><input type="hidden" name="token" value="t">'
    '<button class="danger">Delete account</button></form>',
    '<form action="/jump" method="get"><select name="to"><option>orchard</option><option>pond</option>'
    '</select><button>Go</button></form>',
))


def _results(site: FormSite, hits: list[Item], page: int, base: str) -> str:
    chunk = hits[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    items = "".join(f"<li><a href='/item/{i.id}'>{escape(i.title)}</a> <span>{escape(i.body[:40])}</span>"
                    "</li>" for i in chunk)
    more = page * PAGE_SIZE < len(hits)
    nxt = f"<a rel='next' href='{escape(base)}&page={page + 1}'>Next</a>" if more else ""
    count = f"<p class='count'>{len(hits)} results</p>" if hits else "<p class='count'>No results.</p>"
    return f"{count}<ul class='results'>{items}</ul><nav>{nxt}</nav>"


def make_app(site: FormSite) -> web.Application:
    routes = web.RouteTableDef()

    @web.middleware
    async def record(request: web.Request, handler):
        body = (await request.text()) if request.method == "POST" else ""
        site.log.append((time.monotonic(), request.method, request.path_qs, body))
        return await handler(request)

    @routes.get("/")
    async def home(request: web.Request) -> web.Response:
        return _page("Home", "<h1>Welcome</h1><p>Notes from the orchard, the workshop and the pond.</p>"
                     + OTHER_FORMS)

    @routes.get("/topic/{name}")
    async def topic(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in TOPICS:
            raise web.HTTPNotFound()
        words = TOPICS[name].split()
        text = " ".join(words * 3)
        return _page(f"{name.title()} notes", f"<h1>{name.title()}</h1><p><b>{words[0]}</b> {text}</p>"
                     + OTHER_FORMS)

    @routes.get("/search")
    async def search(request: web.Request) -> web.Response:
        q = request.query.get("q", "")
        page = int(request.query.get("page", "1") or 1)
        hits = site.search(q)
        return _page(f"Search: {q}", f"<h1>Search</h1>{_results(site, hits, page, '/search?q=' + q)}")

    @routes.get("/advanced")
    async def advanced(request: web.Request) -> web.Response:
        return _page("Advanced search", "<h1>Advanced search</h1>"
                     "<form action='/advanced/results' method='post' id='adv'>"
                     f"<input type='hidden' name='csrf' value='{site.csrf}'>"
                     "<label for='words'>All these words</label><input id='words' name='words'>"
                     "<select name='topic'><option value=''>Any topic</option><option>orchard</option>"
                     "</select>"
                     "<button type='submit'>Search</button></form>" + OTHER_FORMS)

    @routes.post("/advanced/results")
    async def advanced_results(request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("csrf") != site.csrf:
            return web.Response(status=403, text="bad token")
        hits = site.search(str(form.get("words", "")))
        return _page("Results", f"<h1>Advanced results</h1>{_results(site, hits, 1, '/advanced')}")

    @routes.get("/app")
    async def app_page(request: web.Request) -> web.Response:
        script = """<script>
const box = document.getElementById('finder');
box.addEventListener('keydown', async (e) => {
  if (e.key !== 'Enter') return;
  const r = await fetch('/api/find?q=' + encodeURIComponent(box.value));
  const data = await r.json();
  document.getElementById('out').innerHTML =
    data.items.map(i => `<li><a href="${i.url}">${i.title}</a></li>`).join('');
});
</script>"""
        body = ("<h1>Finder</h1><div class='finder'><input type='search' id='finder' "
                "placeholder='Find items' aria-label='Search items'></div><ul id='out'></ul>" + script)
        return _page("Finder", body)

    @routes.get("/tools")
    async def tools(request: web.Request) -> web.Response:
        # Two boxes that ignore Enter. The first has its own search button; the second has none,
        # and the nearest button to it deletes the account: it must never be pressed.
        script = """<script>
document.getElementById('go').addEventListener('click', async () => {
  const q = document.getElementById('lookup').value;
  const r = await fetch('/api/find?src=tools&q=' + encodeURIComponent(q));
  document.getElementById('found').textContent = (await r.json()).total + ' found';
});
document.getElementById('wipe').addEventListener('click', () => fetch('/account/delete', {method: 'POST'}));
</script>"""
        body = ("<h1>Tools</h1><div class='toolbar'><div class='finder2'>"
                "<input type='text' id='lookup' placeholder='Search items'>"
                "<button id='go' type='button' aria-label='Search'>&#128269;</button></div></div>"
                "<div class='account'><div class='box'><input type='search' id='filter' "
                "placeholder='Search your items'></div>"
                "<button id='wipe' type='button'>Delete account</button></div>"
                "<p id='found'></p>" + script)
        return _page("Tools", body)

    @routes.get("/api/find")
    async def api_find(request: web.Request) -> web.Response:
        q = request.query.get("q", "")
        page = int(request.query.get("page", "1") or 1)
        hits = site.search(q)
        chunk = hits[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
        return web.Response(text=json.dumps({
            "query": q, "page": page, "total": len(hits),
            "next_page": page + 1 if page * PAGE_SIZE < len(hits) else None,
            "items": [{"id": i.id, "url": f"/item/{i.id}", "title": i.title} for i in chunk]}),
            content_type="application/json")

    @routes.get("/item/{id}")
    async def item(request: web.Request) -> web.Response:
        i = int(request.match_info["id"])
        it = site.items[i - 1]
        return _page(it.title, f"<h1 class='item'>{escape(it.title)}</h1><p>{escape(it.body)}</p>")

    @routes.route("*", "/{path:(login|register|newsletter|comment|contact|upload|account/delete|jump)}")
    async def forbidden(request: web.Request) -> web.Response:
        return web.Response(text="submitted", content_type="text/plain")

    app = web.Application(middlewares=[record])
    app.add_routes(routes)
    return app
