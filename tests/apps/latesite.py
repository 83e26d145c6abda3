"""A site whose pages get their content at different moments after they load, for the default wait.

Every page is a shell (title, a "loading" placeholder) whose content - a marker sentence and the
links to the next pages of its kind - comes from a script, so a crawler that snapshots too early
stores an empty page AND never finds the pages it links to:

- ``/fetch/<i>``: fetched after the ``load`` event, the server answering 150-450 ms later;
- ``/timer/<i>``: written by a timer 600-1000 ms after DOMContentLoaded, no request at all;
- ``/two/<i>``: two rounds of requests (a list of part ids, then every part), rendered after both;
- ``/never/<i>``: fetched from an endpoint that never answers: the content never arrives;
- ``/poll/<i>``: fetched, then polled every 150 ms forever, the page's counter changing each time.
- ``/chrome/<i>`` (only when asked for): a header widget the page's script adds at
  DOMContentLoaded, beside content that pages 0-2 carry inline (drawn in the same moment) and the
  later pages fetch, their first request refused with 429 and retried after a timer: a wait that
  learned the widget from the first pages would snapshot the later ones as shells.

``marker(kind, i)`` is the sentence a finished page shows.
"""

from __future__ import annotations

import asyncio
import json

from aiohttp import web

KINDS = ("fetch", "timer", "two", "never", "poll")

_SHELL = """<!doctype html><html><head><title>{kind} {i}</title></head><body>
<nav><a href="/">home</a></nav><main id="content">loading</main>
<script>
const render = (d) => {{
  document.getElementById('content').innerHTML =
    '<article class="item"><h1 class="name">' + d.text + '</h1><ul class="next">' +
    d.links.map((u) => '<li><a class="more" href="' + u + '">' + u + '</a></li>').join('') +
    '</ul></article>';
}};
{script}
</script></body></html>"""

_SCRIPTS = {
    "fetch": """window.addEventListener('load', () =>
  fetch('/api/fetch/{i}').then((r) => r.json()).then(render));""",
    "timer": "setTimeout(() => render({data}), {delay});",
    "two": """fetch('/api/parts/{i}').then((r) => r.json()).then((ids) =>
  Promise.all(ids.map((k) => fetch('/api/part/{i}/' + k).then((r) => r.json())))).then((parts) =>
  render({{text: parts.map((p) => p.text).join(' '), links: parts[0].links}}));""",
    "never": "fetch('/api/hang/{i}').then((r) => r.json()).then(render);",
    "poll": """let ticks = 0;
setInterval(() => fetch('/api/poll/{i}').then((r) => r.json()).then((d) => {{
  if (!ticks) render(d);
  ticks++;
  document.getElementById('content').dataset.ticks = ticks;
  document.title = '{kind} {i} (' + ticks + ')';
}}), 150);""",
    "chrome": """document.addEventListener('DOMContentLoaded', () => {{
  const widget = document.createElement('ul');
  widget.id = 'widget';
  document.querySelector('nav').append(widget);
  const get = () => fetch('/api/chrome/{i}').then((r) => r.status === 429
    ? new Promise((ok) => setTimeout(ok, 400)).then(get) : r.json());
  const inline = {inline};
  if (inline) render(inline); else get().then(render);
}});""",
}
INLINE_CHROME_PAGES = 3  # /chrome/<i> below this carry their content inline


def marker(kind: str, i: int) -> str:
    """The sentence a finished page of this kind shows."""
    return f"Content of {kind} page {i} has arrived."


class LateSite:
    """``pages`` pages of each kind in ``kinds``; page i links to pages i+1 and i+2 of its kind."""

    def __init__(self, pages: int = 6, kinds: tuple[str, ...] = KINDS, unfinished_pages: int = 2,
                 slow_once: dict[int, float] | None = None) -> None:
        self.pages = pages
        self.kinds = kinds
        self.unfinished_pages = unfinished_pages  # of the kinds that never finish (never, poll)
        # fetch page -> seconds its JSON's first answer takes (a server or machine slow for a moment)
        self.slow_once = dict(slow_once or {})
        self.answers: dict[int, int] = {}  # fetch page -> JSON answers given
        self.refused: dict[int, int] = {}  # chrome page -> requests refused with 429
        self.closing = False

    def count(self, kind: str) -> int:
        return self.unfinished_pages if kind in ("never", "poll") else self.pages

    def links_of(self, kind: str, i: int) -> list[str]:
        n = self.count(kind)
        return [f"/{kind}/{j}" for j in (i + 1, i + 2) if j < n]

    def data(self, kind: str, i: int) -> dict:
        return {"text": marker(kind, i), "links": self.links_of(kind, i)}

    async def index(self, request: web.Request) -> web.Response:
        links = " ".join(f'<a href="/{k}/0">{k}</a>' for k in self.kinds)
        return web.Response(text=f"<html><head><title>home</title></head><body>{links}</body></html>",
                            content_type="text/html")

    async def page(self, request: web.Request) -> web.Response:
        kind, i = request.match_info["kind"], int(request.match_info["i"])
        if kind not in self.kinds or not 0 <= i < self.count(kind):
            raise web.HTTPNotFound()
        inline = self.data(kind, i) if kind == "chrome" and i < INLINE_CHROME_PAGES else None
        script = _SCRIPTS[kind].format(i=i, kind=kind, data=json.dumps(self.data(kind, i)),
                                        delay=600 + 200 * (i % 3), inline=json.dumps(inline))
        return web.Response(text=_SHELL.format(kind=kind, i=i, script=script), content_type="text/html")

    async def api_fetch(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        await asyncio.sleep(self.slow_once.pop(i, 0.15 + 0.1 * (i % 4)))
        self.answers[i] = self.answers.get(i, 0) + 1
        return web.json_response(self.data("fetch", i))

    async def api_parts(self, request: web.Request) -> web.Response:
        await asyncio.sleep(0.1)
        return web.json_response([0, 1, 2])

    async def api_part(self, request: web.Request) -> web.Response:
        i, k = int(request.match_info["i"]), int(request.match_info["k"])
        await asyncio.sleep(0.1 + 0.1 * k)
        words = marker("two", i).split(" ")
        third = (len(words) + 2) // 3
        return web.json_response({"text": " ".join(words[k * third:(k + 1) * third]),
                                  "links": self.links_of("two", i)})

    async def api_hang(self, request: web.Request) -> web.Response:
        while not self.closing:  # never answers while the site is up
            await asyncio.sleep(0.1)
        raise web.HTTPServiceUnavailable()

    async def api_chrome(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        self.refused.setdefault(i, 0)
        if not self.refused[i]:  # every page's first request: "too many, try again"
            self.refused[i] += 1
            return web.json_response({}, status=429, headers={"Retry-After": "1"})
        return web.json_response(self.data("chrome", i))

    async def api_poll(self, request: web.Request) -> web.Response:
        return web.json_response(self.data("poll", int(request.match_info["i"])))

    async def _on_shutdown(self, app: web.Application) -> None:
        self.closing = True

    def app(self) -> web.Application:
        app = web.Application()
        app.on_shutdown.append(self._on_shutdown)
        app.add_routes([
            web.get("/", self.index),
            web.get("/api/fetch/{i}", self.api_fetch),
            web.get("/api/parts/{i}", self.api_parts),
            web.get("/api/part/{i}/{k}", self.api_part),
            web.get("/api/hang/{i}", self.api_hang),
            web.get("/api/poll/{i}", self.api_poll),
            web.get("/api/chrome/{i}", self.api_chrome),
            web.get("/{kind}/{i}", self.page),
        ])
        return app
