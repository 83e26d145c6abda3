"""Ground truth of the demo site: exactly what it serves for a seed at a site time, as JSON files.

Tests and evaluation scripts compare a crawl against these files, so they are computed from the
same generator the site uses (``content.generate``) and never from a running site - i.e. before
any follow/like/delete a crawler might have done. Files written (see docs/demo-site.md):

* ``members.json`` - name, id, url, display_name, joined, location (or null), bio, follows and
  followers counts, posting_rate (status posts per site day)
* ``follows.json`` - ``[from, to]`` pairs
* ``threads.json`` - id, url, title, author, board, posted, tags, solved, likes, attachment (or
  null), body, comments ``[{author, time, text}]``
* ``posts.json`` - status posts visible at the dump's site time: id, member, time, text
* ``targets.json`` - ``targets`` (every listed thread URL path) and URL paths per page kind
* ``search_only.json`` - threads no page links to, reachable only through the search, listed like
  ``threads.json`` (they are in neither ``threads.json`` nor ``targets``)
* ``accounts.json`` - name -> password (test data for logging in; never crawled; mode 600)
* ``meta.json`` - seed, members, site_time
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from browsercrawl.errors import UserError
from browsercrawl_demo.auth import password_for
from browsercrawl_demo.content import (
    HELP_TOPICS,
    LEGAL_DOCS,
    SITE_EPOCH,
    Content,
    Thread,
    generate,
    iso,
    parse_iso,
)
from browsercrawl_demo.pages import month_path
from browsercrawl_demo.state import page_count


def parse_site_time(text: str | None, flag: str = "--at") -> datetime:
    """``None`` -> the site's start; ``+N`` -> N seconds after it; else an ISO 8601 time."""
    if not text:
        return SITE_EPOCH
    try:
        if text.startswith("+"):
            return SITE_EPOCH + timedelta(seconds=float(text[1:]))
        t = parse_iso(text)
    except (ValueError, OverflowError):
        raise UserError(
            f"{flag} {text!r}: expected an ISO time like 2024-06-02T00:00:00Z or +SECONDS"
        ) from None
    if t < SITE_EPOCH:
        raise UserError(f"{flag} {text!r} is before the site's start {iso(SITE_EPOCH)}")
    return t


def thread_record(t: Thread) -> dict[str, Any]:
    """One thread as ``threads.json`` (and ``search_only.json``) lists it."""
    return {
        "id": t.id, "url": t.path, "title": t.title, "author": t.author, "board": t.board_id,
        "posted": iso(t.posted), "tags": list(t.tags), "solved": t.solved, "likes": t.likes,
        "attachment": ({"name": t.attachment.name, "size": t.attachment.size,
                        "url": t.attachment.path(t.id)} if t.attachment else None),
        "body": t.body,
        "comments": [{"author": x.author, "time": iso(x.time), "text": x.text} for x in t.comments],
    }


def build_truth(content: Content, at: datetime = SITE_EPOCH) -> dict[str, Any]:
    """The truth dump as ``{file name: JSON-able data}``."""
    c = content
    members = [
        {"name": m.name, "id": m.id, "url": m.path, "display_name": m.display_name,
         "joined": iso(m.joined), "location": m.location, "bio": m.bio,
         "follows": len(c.follows[m.name]), "followers": len(c.followers[m.name]),
         "posting_rate": m.posting_rate}
        for m in c.members
    ]
    follows = [[m.name, other] for m in c.members for other in c.follows[m.name]]
    threads = [thread_record(t) for t in c.threads.values() if t.id not in c.unlisted]
    search_only = [thread_record(t) for t in c.threads.values() if t.id in c.unlisted]
    posts = [{"id": p.id, "member": p.member, "time": iso(p.time), "text": p.text}
             for p in c.all_posts(at)]
    targets = {
        "targets": [t.path for t in c.threads.values() if t.id not in c.unlisted],
        "member": [m.path for m in c.members],
        "board": [b.path for b in c.boards],
        "board_pages": [f"{b.path}?page={n}" for b in c.boards
                        for n in range(1, page_count(len(c.board_threads[b.id])) + 1)],
        "tag": [f"/tag/{w}" for w in c.tag_threads],
        "help": [f"/help/{h}" for h in HELP_TOPICS],
        "legal": [f"/legal/{d}" for d in LEGAL_DOCS],
        "static": ["/about", "/rules"],
        "archive": [month_path(y, m) for y, m in sorted(c.month_threads)],
    }
    return {
        "meta.json": {"seed": c.seed, "members": len(c.members),
                      "threads": len(c.threads) - len(c.unlisted), "search_only": len(c.unlisted),
                      "site_time": iso(at)},
        "members.json": members,
        "follows.json": follows,
        "threads.json": threads,
        "search_only.json": search_only,
        "posts.json": posts,
        "targets.json": targets,
        "accounts.json": {m.name: password_for(m.name, c.seed) for m in c.members},
    }


def write_truth(out: Path, seed: int = 0, members: int = 300, threads: int | None = None,
                at: datetime = SITE_EPOCH) -> dict[str, Any]:
    """Generate and write the dump into ``out``; returns what was written."""
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    truth = build_truth(generate(seed, members, threads), at)
    for name, data in truth.items():
        path = out / name
        text = json.dumps(data, indent=1, ensure_ascii=False)
        if name == "accounts.json":  # passwords: owner-only, even though they are test data
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            path.write_text(text, encoding="utf-8")
    return truth
