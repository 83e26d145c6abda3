"""HTML of the demo site's server-rendered pages (the client-rendered parts live in static/).

Plain string building with escaping: the markup is deliberately regular (repeated structures
with stable class names) so wrapper induction has something real to learn, and cheap enough
that the site can serve as a benchmark target. Class names and ids are part of the documented
contract (docs/demo-site.md); change them only together with that document.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from html import escape
from urllib.parse import quote, urlencode

from browsercrawl_demo.content import (
    HELP_TOPICS,
    LEGAL_DOCS,
    SITE_EPOCH,
    THREAD_SPAN,
    Board,
    Comment,
    Member,
    Thread,
    iso,
)

SITE_NAME = "Demo Community"
FIRST_ARCHIVE = SITE_EPOCH - THREAD_SPAN


QUICK_SEARCH = '<script src="/static/quicksearch.js" defer></script>'  # the header's search box


def e(value: object) -> str:
    return escape(str(value), quote=True)


def month_path(year: int, month: int) -> str:
    return f"/archive/{year}/{month:02d}"


def layout(title: str, body: str, *, user: str | None = None, csrf: str | None = None,
           kind: str = "page", canonical: str | None = None) -> str:
    """The frame every page shares: nav (different when logged in), main, footer."""
    if user:
        nav = (
            '<a href="/feed">Feed</a> <a href="/boards">Boards</a> '
            f'<a href="/u/{e(user)}">My profile</a> <a href="/search">Search</a> '
            '<a href="/help/faq">Help</a> <a id="logout" href="/logout">Log out</a> '
            f'<span class="who">Signed in as <span id="whoami">{e(user)}</span></span>'
        )
    else:
        nav = ('<a href="/">Home</a> <a href="/about">About</a> <a href="/rules">Rules</a> '
               '<a id="login-link" href="/login">Log in</a>')
    head_extra = ""
    if canonical:
        head_extra += f'<link rel="canonical" href="{e(canonical)}">'
    if csrf:
        head_extra += f'<meta name="csrf-token" content="{e(csrf)}">'
    archive = month_path(FIRST_ARCHIVE.year, FIRST_ARCHIVE.month)
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{e(title)} - {SITE_NAME}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="stylesheet" href="/static/site.css">{head_extra}'
        '<script src="/static/site.js" defer></script>'
        f'{QUICK_SEARCH if user else ""}</head>\n'
        f'<body data-page="{e(kind)}"><header class="site-header">'
        f'<a class="brand" href="/">{SITE_NAME}</a><nav id="nav">{nav}</nav></header>\n'
        f'<main id="main">{body}</main>\n<footer class="site-footer">'
        '<a href="/about">About</a> <a href="/rules">Rules</a> <a href="/help/faq">Help</a> '
        '<a href="/legal/terms">Terms</a> <a href="/legal/privacy">Privacy</a> '
        f'<a href="{archive}">Archive</a></footer></body></html>\n'
    )


def paragraphs(text: str | Iterable[str]) -> str:
    parts = text.split("\n\n") if isinstance(text, str) else list(text)
    return "".join(f"<p>{e(p)}</p>" for p in parts)


def pagination(base: str, page: int, pages: int, extra: dict[str, str] | None = None) -> str:
    """Plain ``<a href>`` paging links, so a crawler that does not scroll still reaches all."""
    def href(n: int) -> str:
        return f"{base}?{urlencode({**(extra or {}), 'page': n})}"

    links = []
    if page > 1:
        links.append(f'<a rel="prev" class="prev" href="{e(href(page - 1))}">Previous</a>')
    links.append(f'<span class="page-info">Page {page} of {pages}</span>')
    if page < pages:
        links.append(f'<a rel="next" class="next" href="{e(href(page + 1))}">Next</a>')
    return f'<nav class="pagination">{" ".join(links)}</nav>'


def thread_items(threads: Iterable[Thread]) -> str:
    """The same list-item structure the client-side renderer produces (static/site.js)."""
    return "".join(
        f'<li class="thread-item"><a class="thread-link" href="{e(t.path)}">{e(t.title)}</a> '
        f'by <a class="thread-author" href="/u/{e(t.author)}">{e(t.author)}</a> '
        f'<time datetime="{iso(t.posted)}">{iso(t.posted)}</time> '
        f'<span class="comment-count">{len(t.comments)} comments</span></li>'
        for t in threads
    )


# ----- public pages -----

def home(boards: list[Board], user: str | None) -> str:
    items = "".join(f'<li><a href="{b.path}">{e(b.name)}</a></li>' for b in boards)
    body = (
        f"<h1>Welcome to the {SITE_NAME}</h1>"
        "<p class=\"intro\">A friendly place to talk about hardware, software, hobbies and "
        "everything else. Read the <a href=\"/rules\">rules</a>, learn more <a href=\"/about\">"
        "about us</a>, or <a href=\"/login\">log in</a> to join the discussion.</p>"
        f'<h2>Boards</h2><ul class="board-list">{items}</ul>'
    )
    return layout("Home", body, user=user, kind="home")


ABOUT = (
    "The Demo Community is a small forum for people who like to tinker.",
    "Members post threads on twenty boards, follow each other and share short status updates.",
    "This site is generated: every member, thread and comment comes from a random seed.",
)
RULES = (
    "1. Be kind. Personal attacks are removed.",
    "2. Stay on topic for the board you post in; use Off Topic for everything else.",
    "3. No spam, no advertising outside the Marketplace board.",
    "4. Do not share other people's private information.",
    "5. Moderators' decisions are final; appeal by message, not in public threads.",
)


def static_page(kind: str, user: str | None) -> str:
    title, text = ("About", ABOUT) if kind == "about" else ("Rules", RULES)
    return layout(title, f"<h1>{title}</h1><div class=\"static-text\">{paragraphs(text)}</div>",
                  user=user, kind=kind)


def login_form(*, csrf: str, next_path: str, captcha_nonce: str | None, error: str = "",
               username: str = "") -> str:
    """The login form; ``captcha_nonce`` None means the CAPTCHA is switched off."""
    err = f'<p class="error" role="alert">{e(error)}</p>' if error else ""
    captcha = ""
    if captcha_nonce:
        captcha = (
            '<div class="captcha-row"><img id="captcha-img" '
            f'src="/captcha.png?r={e(captcha_nonce)}" width="160" height="60" '
            'alt="Type the characters in this image">'
            f'<a id="captcha-new" href="/login?{e(urlencode({"next": next_path}))}">new image</a>'
            '<label for="captcha">Characters in the image</label>'
            '<input id="captcha" name="captcha" type="text" autocomplete="off" required></div>'
        )
    body = (
        f"<h1>Log in</h1>{err}"
        f'<form id="login-form" method="post" action="/login?{e(urlencode({"next": next_path}))}">'
        f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
        f'<input type="hidden" name="next" value="{e(next_path)}">'
        '<label for="username">Username</label>'
        f'<input id="username" name="username" type="text" value="{e(username)}" required>'
        '<label for="password">Password</label>'
        '<input id="password" name="password" type="password" required>'
        f'{captcha}<button id="login-submit" type="submit">Log in</button></form>'
    )
    return layout("Log in", body, kind="login")


def otp_form(*, csrf: str, next_path: str, error: str = "") -> str:
    """The second login step of a member with two-factor login on: the authenticator app's code."""
    err = f'<p class="error" role="alert">{e(error)}</p>' if error else ""
    body = (
        f"<h1>Two-factor authentication</h1>{err}"
        f'<form id="otp-form" method="post" action="/login/otp?{e(urlencode({"next": next_path}))}">'
        f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
        f'<input type="hidden" name="next" value="{e(next_path)}">'
        '<label for="otp">Authentication code</label>'
        '<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" '
        'pattern="[0-9]{6}" required>'
        '<button id="otp-submit" type="submit">Verify</button></form>'
    )
    return layout("Two-factor authentication", body, kind="login")


def robots_txt() -> str:
    return "User-agent: *\nDisallow: /admin/\n"


# ----- community pages (login required) -----

def members_page(rows: list[list[str]], user: str, csrf: str) -> str:
    """The member directory: a virtual-scrolled list like large social sites use. The data is a
    JavaScript literal in the page; ``site.js`` keeps about a dozen ``a.member-row`` elements and
    reuses them as ``#member-scroller`` scrolls, so no moment's DOM holds every member."""
    data = json.dumps(rows).replace("</", "<\\/")
    body = (
        f"<h1>Members</h1><p class=\"count\">{len(rows)} members</p>"
        '<div id="member-scroller" class="vlist" style="height:300px;overflow-y:auto;position:relative">'
        '<div class="vinner" style="position:relative"></div></div>'
        f"<script>window.DEMO_MEMBERS = {data};</script>"
    )
    return layout("Members", body, user=user, csrf=csrf, kind="members")


def feed(user: str, csrf: str) -> str:
    body = (
        "<h1>Your feed</h1>"
        '<ul id="feed" class="post-list" data-endpoint="/api/feed"></ul>'
        '<div id="sentinel" class="sentinel">Loading...</div>'
        '<p id="list-end" class="list-end" hidden>End of feed: '
        '<span class="total"></span> posts</p>'
    )
    return layout("Feed", body, user=user, csrf=csrf, kind="feed")


def boards_page(boards: list[Board], counts: dict[int, int], user: str, csrf: str) -> str:
    items = "".join(
        f'<li class="board-item"><a class="board-link" href="{b.path}">{e(b.name)}</a> '
        f'<span class="board-desc">{e(b.description)}</span> '
        f'<span class="thread-count">{counts[b.id]} threads</span></li>'
        for b in boards
    )
    return layout("Boards", f'<h1>Boards</h1><ul id="boards" class="board-list">{items}</ul>',
                  user=user, csrf=csrf, kind="boards")


def board_cards_page(boards: list[Board], user: str, csrf: str) -> str:
    """``/boards/cards``: a link to every board's card. No other page links here, so only a crawl
    seeded with it reaches the cards (the other crawls' figures do not move)."""
    items = "".join(f'<li><a class="card-link" href="{b.path}/card">{e(b.name)}</a></li>' for b in boards)
    return layout("Board cards", f'<h1>Board cards</h1><ul id="cards">{items}</ul>',
                  user=user, csrf=csrf, kind="cards")


def board_card_page(board: Board, user: str, csrf: str) -> str:
    """``/board/<id>/card``: a shell that site.js fills from ``/api/board/<id>`` (name, description,
    thread count and the latest threads): the shape of page the API shortcut builds from its JSON."""
    body = f'<article id="board-card" class="board-card" data-board="{board.id}"></article>'
    return layout("Board card", body, user=user, csrf=csrf, kind="card")


def board_page(board: Board, page: int, pages: int, total: int, user: str, csrf: str) -> str:
    body = (
        f'<h1 class="board-name">{e(board.name)}</h1><p class="board-desc">'
        f'{e(board.description)}</p><p class="board-total">{total} threads</p>'
        f'<ul id="thread-list" class="thread-list" data-board="{board.id}" data-page="{page}" '
        f'data-pages="{pages}"></ul><div id="sentinel" class="sentinel">Loading...</div>'
        '<p id="list-end" class="list-end" hidden>No more threads.</p>'
        + pagination(board.path, page, pages)
    )
    return layout(f"{board.name} (page {page})", body, user=user, csrf=csrf, kind="board",
                  canonical=f"{board.path}?page={page}")


def comment_items(comments: Iterable[Comment]) -> str:
    return "".join(
        f'<li class="comment"><a class="comment-author" href="/u/{e(c.author)}">{e(c.author)}'
        f'</a> <time datetime="{iso(c.time)}">{iso(c.time)}</time>'
        f'<div class="comment-text">{e(c.text)}</div></li>'
        for c in comments
    )


def _size(n: int) -> str:
    return f"{n} B" if n < 1000 else f"{n / 1000:.1f} kB"


def thread_page(t: Thread, board: Board, likes: int, inline: int, user: str, csrf: str) -> str:
    """The target page type: every optional field is present on some threads, absent on others."""
    solved = ' <span class="badge solved">Solved</span>' if t.solved else ""
    tags = ""
    if t.tags:
        tags = '<ul class="tags">' + "".join(
            f'<li><a class="tag" href="/tag/{e(w)}">{e(w)}</a></li>' for w in t.tags) + "</ul>"
    attachment = ""
    if t.attachment:
        a = t.attachment
        attachment = (
            f'<p class="attachment-line">Attachment: <a class="attachment" '
            f'href="{e(a.path(t.id))}" data-size="{a.size}">{e(a.name)}</a> ({_size(a.size)})</p>'
        )
    total = len(t.comments)
    more = ""
    if total > inline:
        more = (f'<button class="load-more" type="button" data-thread-id="{t.id}" '
                f'data-offset="{inline}">Load more comments</button>')
    body = (
        f'<article id="thread" class="thread" data-thread-id="{t.id}">'
        f'<h1 class="thread-title">{e(t.title)}</h1>'
        f'<p class="thread-meta">by <a class="author" rel="author" href="/u/{e(t.author)}">'
        f'{e(t.author)}</a> in <a class="board" href="{board.path}">{e(board.name)}</a> '
        f'<time class="posted" datetime="{iso(t.posted)}">{iso(t.posted)}</time>{solved} '
        f'<span class="likes" data-likes="{likes}">{likes} likes</span> '
        f'<button class="like" type="button" data-thread-id="{t.id}">Like</button></p>'
        f'{tags}<div class="thread-body">{paragraphs(t.body)}</div>{attachment}</article>'
        f'<section id="comments-section"><h2>Comments (<span class="comment-total">{total}'
        f'</span>)</h2><ol id="comments" class="comments" data-total="{total}">'
        f'{comment_items(t.comments[:inline])}</ol>{more}</section>'
    )
    return layout(t.title, body, user=user, csrf=csrf, kind="thread", canonical=t.path)


def profile_page(m: Member, *, counts: dict[str, int], initial_following: list[dict],
                 viewer: str, csrf: str, follows_already: bool, deleted: bool) -> str:
    location = (f'<dt>Location</dt><dd class="location">{e(m.location)}</dd>'
                if m.location else "")
    if viewer == m.name:
        action = (
            '<form class="danger-zone" method="post" action="/account/delete">'
            f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
            '<button class="danger" type="submit">Delete account</button></form>'
        )
    else:
        label = "Following" if follows_already else "Follow"
        action = f'<button class="follow" type="button" data-member="{e(m.name)}">{label}</button>'
    notice = '<p class="deleted">This account has been deleted.</p>' if deleted else ""
    tabs = "".join(
        f'<button role="tab" id="tab-{k}" aria-controls="panel-{k}" data-tab="{k}" '
        f'aria-selected="{"true" if k == "posts" else "false"}" type="button">{label}</button>'
        for k, label in (("posts", "Posts"), ("following", "Following"),
                         ("followers", "Followers"))
    )
    panels = "".join(
        f'<div role="tabpanel" id="panel-{k}" aria-labelledby="tab-{k}" '
        f'data-endpoint="/api/user/{e(quote(m.name))}/{k}"{"" if k == "posts" else " hidden"}>'
        '<ul class="tab-list"></ul><button class="more" type="button" hidden>More</button>'
        '<p class="tab-end" hidden>That is all.</p></div>'
        for k in ("posts", "following", "followers")
    )
    # "</" cannot appear inside the JSON (names are [a-z0-9_]) but escape it anyway
    embedded = json.dumps(initial_following).replace("</", "<\\/")
    body = (
        f'<section class="profile" data-member="{e(m.name)}" data-member-id="{m.id}">'
        f'<h1 class="display-name">{e(m.display_name)}</h1>'
        f'<p class="username">@{e(m.name)}</p>{notice}<dl class="profile-fields">'
        f'<dt>Joined</dt><dd><time class="joined" datetime="{iso(m.joined)}">'
        f'{m.joined:%B %d, %Y}</time></dd>{location}</dl>'
        f'<p class="bio">{e(m.bio)}</p><ul class="counts">'
        f'<li><span class="count-posts">{counts["posts"]}</span> posts</li>'
        f'<li><span class="count-following">{counts["following"]}</span> following</li>'
        f'<li><span class="count-followers">{counts["followers"]}</span> followers</li></ul>'
        f'{action}</section><div class="tabs" role="tablist">{tabs}</div>{panels}'
        f'<script type="application/json" id="initial-following">{embedded}</script>'
    )
    return layout(m.display_name, body, user=viewer, csrf=csrf, kind="profile",
                  canonical=m.path)


def thread_list_page(title: str, heading: str, threads: list[Thread], page: int, pages: int,
                     base: str, user: str, csrf: str, kind: str,
                     extra: dict[str, str] | None = None, intro: str = "") -> str:
    """Server-rendered thread lists: tag pages and search results."""
    body = (
        f"<h1>{heading}</h1>{intro}"
        f'<ul class="thread-list results">{thread_items(threads)}</ul>'
        + pagination(base, page, pages, extra)
    )
    return layout(title, body, user=user, csrf=csrf, kind=kind)


def search_form(query: str) -> str:
    return (
        '<form id="search-form" method="get" action="/search">'
        f'<input id="q" name="q" type="search" value="{e(query)}" placeholder="Search threads">'
        '<button type="submit">Search</button></form>'
    )


def noise_page(kind: str, name: str, text: list[str], user: str, csrf: str) -> str:
    """Help and legal pages: boilerplate that links to its siblings (a cluster to skip)."""
    names = HELP_TOPICS if kind == "help" else LEGAL_DOCS
    siblings = "".join(f'<li><a href="/{kind}/{n}">{e(n.replace("-", " ").title())}</a></li>'
                       for n in names)
    title = name.replace("-", " ").title()
    body = (f'<h1>{e(title)}</h1><div class="doc-text">{paragraphs(text)}</div>'
            f'<aside><h2>{"Help topics" if kind == "help" else "Legal"}</h2>'
            f'<ul class="doc-list">{siblings}</ul></aside>')
    return layout(title, body, user=user, csrf=csrf, kind=kind)


def archive_page(year: int, month: int, threads: list[Thread], user: str, csrf: str) -> str:
    """One month of the archive; it always links to the next month, forever (a crawler trap)."""
    ny, nm = (year + 1, 1) if month == 12 else (year, month + 1)
    prev = ""
    if (year, month) > (FIRST_ARCHIVE.year, FIRST_ARCHIVE.month):
        py, pm = (year - 1, 12) if month == 1 else (year, month - 1)
        prev = f'<a rel="prev" class="prev-month" href="{month_path(py, pm)}">Previous month</a> '
    name = datetime(2000, month, 1).strftime("%B")
    items = thread_items(threads) if threads else '<li class="empty">No threads this month.</li>'
    body = (f'<h1>Archive: {name} {year}</h1><ul class="thread-list archive">{items}</ul>'
            f'<nav class="pagination">{prev}<a rel="next" class="next-month" '
            f'href="{month_path(ny, nm)}">Next month</a></nav>')
    return layout(f"Archive {name} {year}", body, user=user, csrf=csrf, kind="archive")


def error_page(status: int, message: str, user: str | None = None) -> str:
    return layout(f"Error {status}", f'<h1>Error {status}</h1><p class="error">{e(message)}</p>',
                  user=user, kind="error")
