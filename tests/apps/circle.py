"""A second community, built unlike the demo site, for ``discover`` and DOM-only relation lists.

* People are ``/people/view?uid=N`` (the id in the query string; ``&tab=`` variants canonicalise
  to it with ``<link rel=canonical>``).
* Relations exist only in the DOM, behind tabs (``a.tab`` links to ``#``): *Following* loads HTML
  fragments (``/people/pane?uid=N&page=P``, no JSON anywhere) five at a time behind a "Show more"
  button; *Followers* is a virtual-scrolled list: its data sits in a plain script as a JavaScript
  literal, and only about a dozen rows exist at any time, recycled as the list scrolls.
* ``/people`` lists every member in a virtual-scrolled list shown on load (the same recycling).
* A "Follow" button posts to ``/people/follow``; every non-GET request is recorded in ``site.log``
  so a test can prove none was sent.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from html import escape

from aiohttp import web

PAGE = 5
ROW_PX = 28
FIRST = ["Ada", "Bo", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max", "Nia",
         "Oz", "Pia", "Quin", "Rex", "Sol", "Tess", "Uma", "Vic", "Wes", "Xan", "Yan", "Zoe"]
LAST = ["Stone", "Reed", "Marsh", "Vale", "Frost", "Hale", "Moss", "Brook", "Ash", "Wren"]


@dataclass
class Circle:
    """The community: people (uid -> name, since, about) and who follows whom."""

    people: dict[int, tuple[str, str, str]]
    follows: set[tuple[int, int]]
    log: list[str] = field(default_factory=list)  # non-GET requests received

    def following(self, uid: int) -> list[int]:
        return sorted(b for a, b in self.follows if a == uid)

    def followers(self, uid: int) -> list[int]:
        return sorted(a for a, b in self.follows if b == uid)


def make_circle(n: int = 30, seed: int = 7) -> Circle:
    rng = random.Random(seed)
    people = {}
    for uid in range(1, n + 1):
        name = f"{FIRST[(uid - 1) % len(FIRST)]} {LAST[(uid * 7) % len(LAST)]}"
        since = f"20{10 + uid % 14:02d}-{1 + uid % 12:02d}-{1 + uid % 27:02d}"
        people[uid] = (name, since, f"Member {uid} of the circle; likes {rng.choice(LAST).lower()}s.")
    follows = set()
    for a in people:
        for b in rng.sample(sorted(people), rng.randint(2, 8)):
            if a != b:
                follows.add((a, b))
    for b in list(people)[:3]:  # a few popular people: long follower lists that need scrolling
        for a in people:
            if a != b:
                follows.add((a, b))
    return Circle(people, follows)


def _layout(title: str, body: str, canonical: str = "") -> str:
    link = f'<link rel="canonical" href="{escape(canonical)}">' if canonical else ""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title>{link}"
            "<style>.vlist{height:180px;overflow-y:auto;position:relative;border:1px solid #ccc}"
            ".vrow{position:absolute;left:0;right:0;height:" + str(ROW_PX) + "px}"
            ".pane[hidden]{display:none}</style></head><body>"
            "<nav><a href='/'>Circle</a> <a href='/about'>About</a></nav><main>"
            + body + "</main></body></html>")


_PROFILE_JS = """
(() => {
  const uid = document.querySelector('.card').dataset.uid;
  const panes = {following: document.getElementById('pane-following'),
                 followers: document.getElementById('pane-followers')};
  let followingPage = 0;
  async function moreFollowing() {
    const r = await fetch('/people/pane?uid=' + uid + '&page=' + (followingPage + 1));
    const html = await r.text();
    followingPage += 1;
    const box = panes.following.querySelector('ul.plist');
    box.insertAdjacentHTML('beforeend', html);
    const more = panes.following.querySelector('button.more-people');
    more.hidden = box.querySelectorAll('li').length >= Number(panes.following.dataset.total);
  }
  panes.following.querySelector('button.more-people').addEventListener('click', moreFollowing);
  function virtualList() {  // only the rows near the viewport exist; they are reused when scrolling
    const data = window.CIRCLE_FOLLOWERS;
    const box = panes.followers.querySelector('.vlist');
    const inner = box.querySelector('.vinner');
    inner.style.height = (data.length * ROW) + 'px';
    const pool = [];
    for (let i = 0; i < Math.min(12, data.length); i++) {
      const a = document.createElement('a');
      a.className = 'vrow';
      inner.appendChild(a);
      pool.push(a);
    }
    function render() {
      const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 2);
      pool.forEach((a, i) => {
        const k = first + i;
        if (k >= data.length) { a.hidden = true; return; }
        a.hidden = false;
        a.style.top = (k * ROW) + 'px';
        a.href = '/people/view?uid=' + data[k][0];
        a.textContent = data[k][1];
      });
    }
    box.addEventListener('scroll', () => requestAnimationFrame(render));
    render();
  }
  let built = false;
  for (const tab of document.querySelectorAll('a.tab')) {
    tab.addEventListener('click', (ev) => {
      ev.preventDefault();
      for (const p of Object.values(panes)) p.hidden = true;
      const which = tab.dataset.pane;
      panes[which].hidden = false;
      if (which === 'following' && followingPage === 0) moreFollowing();
      if (which === 'followers' && !built) { built = true; virtualList(); }
    });
  }
  document.querySelector('button.follow').addEventListener('click', () =>
    fetch('/people/follow?uid=' + uid, {method: 'POST'}));
})();
""".replace("ROW", str(ROW_PX))


_DIRECTORY_JS = """
(() => {  // every member in one virtual-scrolled list, shown on load; about a dozen rows exist
  const data = window.CIRCLE_MEMBERS;
  const box = document.querySelector('.vlist');
  const inner = box.querySelector('.vinner');
  inner.style.height = (data.length * ROW) + 'px';
  const pool = [];
  for (let i = 0; i < Math.min(12, data.length); i++) {
    const a = document.createElement('a');
    a.className = 'vrow';
    inner.appendChild(a);
    pool.push(a);
  }
  function render() {
    const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 2);
    pool.forEach((a, i) => {
      const k = Math.min(first + i, data.length - 1);
      a.style.top = (k * ROW) + 'px';
      a.href = '/people/view?uid=' + data[k][0];
      a.textContent = data[k][1];
    });
  }
  box.addEventListener('scroll', () => requestAnimationFrame(render));
  render();
})();
""".replace("ROW", str(ROW_PX))


def directory_page(circle: Circle) -> str:
    members = [[uid, person[0]] for uid, person in sorted(circle.people.items())]
    body = ("<h1>Members</h1><div class='vlist'><div class='vinner'></div></div>"
            f"<script>window.CIRCLE_MEMBERS = {json.dumps(members)};</script>"
            f"<script>{_DIRECTORY_JS}</script>")
    return _layout("Members", body)


def profile_page(circle: Circle, uid: int) -> str:
    name, since, about = circle.people[uid]
    followers = [[a, circle.people[a][0]] for a in circle.followers(uid)]
    body = (
        f'<div class="card" data-uid="{uid}"><h2 class="pname">{escape(name)}</h2>'
        f'<p>Member since <span class="since">{since}</span></p><p class="about">{escape(about)}</p>'
        '<button class="follow" type="button">Follow</button></div>'
        '<div class="tabbar">'
        f'<a href="#" class="tab" data-pane="following">Following ({len(circle.following(uid))})</a> '
        f'<a href="#" class="tab" data-pane="followers">Followers ({len(followers)})</a></div>'
        f'<section class="pane" id="pane-following" data-total="{len(circle.following(uid))}" hidden>'
        '<ul class="plist"></ul><button class="more-people" type="button" hidden>Show more</button></section>'
        '<section class="pane" id="pane-followers" hidden><div class="vlist"><div class="vinner"></div>'
        '</div></section>'
        f"<script>window.CIRCLE_FOLLOWERS = {json.dumps(followers)};</script>"
        f"<script>{_PROFILE_JS}</script>"
    )
    return _layout(name, body, canonical=f"/people/view?uid={uid}")


def make_app(circle: Circle) -> web.Application:
    routes = web.RouteTableDef()

    def html(text: str, status: int = 200) -> web.Response:
        return web.Response(text=text, status=status, content_type="text/html")

    def uid_of(request: web.Request) -> int:
        try:
            uid = int(request.query.get("uid", ""))
        except ValueError:
            raise web.HTTPNotFound() from None
        if uid not in circle.people:
            raise web.HTTPNotFound()
        return uid

    @routes.get("/")
    async def home(request: web.Request) -> web.Response:
        return html(_layout("Circle", "<h1>Circle</h1><p>A small community.</p>"))

    @routes.get("/about")
    async def about(request: web.Request) -> web.Response:
        return html(_layout("About", "<h1>About</h1><p>Nothing to see.</p>"))

    @routes.get("/people")
    async def directory(request: web.Request) -> web.Response:
        return html(directory_page(circle))

    @routes.get("/people/view")
    async def view(request: web.Request) -> web.Response:
        return html(profile_page(circle, uid_of(request)))

    @routes.get("/people/pane")
    async def pane(request: web.Request) -> web.Response:
        uid = uid_of(request)
        page = max(1, int(request.query.get("page", "1") or 1))
        chunk = circle.following(uid)[(page - 1) * PAGE: page * PAGE]
        return html("".join(f'<li><a class="who" href="/people/view?uid={b}">'
                            f"{escape(circle.people[b][0])}</a></li>" for b in chunk))

    @routes.route("*", "/people/follow")
    async def follow(request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    app = web.Application()
    app.add_routes(routes)

    @web.middleware
    async def record(request: web.Request, handler):  # type: ignore[no-untyped-def]
        if request.method not in ("GET", "HEAD"):
            circle.log.append(f"{request.method} {request.path_qs}")
        return await handler(request)

    app.middlewares.append(record)
    return app
