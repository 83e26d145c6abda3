"""A third community, shaped like a Django REST + React forum, kept out of discover's tuning.

* People are ``/members/<username>/``; the page is rendered by script from JSON embedded in
  ``<script id="__DATA__" type="application/json">`` (``{"profile": {"pk": 17, ...}}``).
* Relations come from a REST API keyed by the *numeric* primary key, not the username:
  ``/api/users/<pk>/follows/?page=N`` and ``/api/users/<pk>/followers/?page=N``, each
  ``{"count", "next" (a URL or null), "previous", "results": [{"pk", "username", "url"}]}``,
  ten per page, opened by tab buttons and "Load more".
* ``/api/users/<pk>/activity/?page=N`` lists the person's posts (``created`` ISO times).
* A "Follow" button POSTs; every non-GET request is recorded in ``site.log``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from html import escape

from aiohttp import web

PAGE = 10
WORDS = ["river", "stone", "cedar", "lark", "ember", "moss", "quill", "fern", "slate", "wren", "birch",
         "dune", "flint", "heron", "iris", "juniper"]


@dataclass
class Forum:
    users: dict[int, dict[str, str]]  # pk -> username, full_name, bio, date_joined
    follows: set[tuple[int, int]]
    log: list[str] = field(default_factory=list)

    def by_name(self, username: str) -> int | None:
        return next((pk for pk, u in self.users.items() if u["username"] == username), None)


def make_forum(n: int = 35, seed: int = 11) -> Forum:
    rng = random.Random(seed)
    users = {}
    for k in range(n):
        pk = 100 + 7 * k
        name = f"{WORDS[k % len(WORDS)]}{k}"
        users[pk] = {"username": name,
                     "full_name": f"{WORDS[k % len(WORDS)].title()} {WORDS[(3 * k) % 16].title()}",
                     "bio": f"Writes about {WORDS[(5 * k) % 16]}s.",
                     "date_joined": f"2022-{1 + k % 12:02d}-0{1 + k % 9}"}
    pks = sorted(users)
    follows = {(a, b) for a in pks for b in rng.sample(pks, rng.randint(1, 14)) if a != b}
    return Forum(users, follows)


_APP_JS = """
(() => {
  const data = JSON.parse(document.getElementById('__DATA__').textContent);
  const p = data.profile;
  const root = document.getElementById('root');
  root.innerHTML = '<article class="profile"><h1 class="full-name"></h1><p class="handle"></p>' +
    '<p class="bio"></p><p>Joined <time class="joined"></time></p>' +
    '<button class="btn-follow">Follow</button></article>' +
    '<nav class="rel-tabs"><button class="rel-tab" data-list="follows">Follows</button>' +
    '<button class="rel-tab" data-list="followers">Followers</button>' +
    '<button class="rel-tab" data-list="activity">Activity</button></nav>' +
    '<ol class="rel-list"></ol><button class="load-more" hidden>Load more</button>';
  root.querySelector('.full-name').textContent = p.full_name;
  root.querySelector('.handle').textContent = '@' + p.username;
  root.querySelector('.bio').textContent = p.bio;
  root.querySelector('.joined').textContent = p.date_joined;
  root.querySelector('.joined').setAttribute('datetime', p.date_joined);
  root.querySelector('.btn-follow').addEventListener('click', () =>
    fetch('/api/users/' + p.pk + '/follow/', {method: 'POST'}));
  const list = root.querySelector('.rel-list');
  const more = root.querySelector('.load-more');
  let next = null;
  async function load(url) {
    const r = await fetch(url, {headers: {Accept: 'application/json'}});
    const d = await r.json();
    for (const x of d.results) {
      const li = document.createElement('li');
      if (x.url) {
        const a = document.createElement('a');
        a.href = x.url;
        a.textContent = x.username;
        li.append(a);
      } else li.textContent = x.text;
      list.append(li);
    }
    next = d.next;
    more.hidden = !next;
  }
  more.addEventListener('click', () => next && load(next));
  for (const b of root.querySelectorAll('.rel-tab')) {
    b.addEventListener('click', () => {
      list.innerHTML = '';
      load('/api/users/' + p.pk + '/' + b.dataset.list + '/?page=1');
    });
  }
})();
"""


def make_app(forum: Forum) -> web.Application:
    routes = web.RouteTableDef()

    def user_json(pk: int) -> dict:
        u = forum.users[pk]
        return {"pk": pk, "username": u["username"], "url": f"/members/{u['username']}/"}

    def paged(request: web.Request, items: list, to_json) -> web.Response:  # type: ignore[no-untyped-def]
        try:
            page = int(request.query.get("page", "1"))
        except ValueError:
            raise web.HTTPBadRequest() from None
        chunk = items[(page - 1) * PAGE: page * PAGE]
        if page > 1 and not chunk:
            raise web.HTTPNotFound()
        more = page * PAGE < len(items)
        base = f"{request.scheme}://{request.host}{request.path}"
        return web.json_response({"count": len(items), "next": f"{base}?page={page + 1}" if more else None,
                                  "previous": f"{base}?page={page - 1}" if page > 1 else None,
                                  "results": [to_json(x) for x in chunk]})

    def pk_of(request: web.Request) -> int:
        pk = int(request.match_info["pk"])
        if pk not in forum.users:
            raise web.HTTPNotFound()
        return pk

    @routes.get("/")
    async def home(request: web.Request) -> web.Response:
        return web.Response(text="<h1>Forum</h1>", content_type="text/html")

    @routes.get("/members/{username}/")
    async def member(request: web.Request) -> web.Response:
        pk = forum.by_name(request.match_info["username"])
        if pk is None:
            raise web.HTTPNotFound()
        data = json.dumps({"profile": {"pk": pk, **forum.users[pk]}}).replace("</", "<\\/")
        title = escape(forum.users[pk]["username"])
        html = (f"<!doctype html><html><head><title>{title}</title></head><body>"
                f'<div id="root"></div><script id="__DATA__" type="application/json">{data}</script>'
                f"<script>{_APP_JS}</script></body></html>")
        return web.Response(text=html, content_type="text/html")

    @routes.get("/members/{username}")
    async def member_slash(request: web.Request) -> web.Response:
        raise web.HTTPMovedPermanently(f"/members/{request.match_info['username']}/")

    @routes.get("/api/users/{pk:\\d+}/follows/")
    async def follows(request: web.Request) -> web.Response:
        pk = pk_of(request)
        return paged(request, sorted(b for a, b in forum.follows if a == pk), user_json)

    @routes.get("/api/users/{pk:\\d+}/followers/")
    async def followers(request: web.Request) -> web.Response:
        pk = pk_of(request)
        return paged(request, sorted(a for a, b in forum.follows if b == pk), user_json)

    @routes.get("/api/users/{pk:\\d+}/activity/")
    async def activity(request: web.Request) -> web.Response:
        pk = pk_of(request)
        posts = [{"id": f"{pk}-{i}", "created": f"2026-0{1 + i % 9}-1{i % 10}T10:00:00Z",
                  "text": f"post {i} by {forum.users[pk]['username']}"} for i in range(pk % 5)]
        return paged(request, posts, lambda x: x)

    app = web.Application()
    app.add_routes(routes)

    @web.middleware
    async def record(request: web.Request, handler):  # type: ignore[no-untyped-def]
        if request.method not in ("GET", "HEAD"):
            forum.log.append(f"{request.method} {request.path_qs}")
            return web.json_response({"ok": True})
        return await handler(request)

    app.middlewares.append(record)
    return app
