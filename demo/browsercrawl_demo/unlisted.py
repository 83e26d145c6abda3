"""Threads that only the site's search reaches: the old forum's archive, imported without listings.

About one thread in ten more than the listed ones (``UNLISTED_SHARE``). They are served like every
thread (``/t/<id>-<slug>``, their comments API, their attachments) and the search finds them
(``/search``, ``/api/search``), but no board, tag, archive month, feed or profile lists them and no
page links to them. The truth dump lists them in ``search_only.json`` and keeps them out of
``threads.json`` and ``targets.json``, so a crawl that follows links is scored as before and a
crawl that queries the search is scored on them. They come from their own random stream, so the
listed content of a seed is the same with or without them.
"""

from __future__ import annotations

import random
from datetime import timedelta

from faker import Faker

from browsercrawl_demo.content import (
    SITE_EPOCH,
    TAG_WORDS,
    THREAD_SPAN,
    Comment,
    Content,
    Thread,
    slugify,
)

UNLISTED_SHARE = 0.1


def add_unlisted(c: Content, listed: int) -> None:
    """Add ``round(listed * UNLISTED_SHARE)`` unlisted threads after the listed ones (ids go on)."""
    count = round(listed * UNLISTED_SHARE)
    if count == 0 or not c.members:
        return
    rng = random.Random(f"browsercrawl-demo:{c.seed}:unlisted")
    fake = Faker("en_US")
    fake.random = rng
    names = [m.name for m in c.members]
    first = max(c.threads, default=0) + 1
    span = THREAD_SPAN.total_seconds()
    for tid in range(first, first + count):
        posted = (SITE_EPOCH - THREAD_SPAN + timedelta(seconds=rng.uniform(0, span - 86400))).replace(
            microsecond=0)
        title = fake.sentence(nb_words=rng.randint(4, 9)).rstrip(".")
        body = "\n\n".join(fake.paragraph(nb_sentences=rng.randint(2, 5)) for _ in range(rng.randint(1, 3)))
        window = min(timedelta(days=30), SITE_EPOCH - posted).total_seconds()
        comments = []
        for _ in range(rng.randint(0, 6)):
            when = (posted + timedelta(seconds=rng.uniform(60, window))).replace(microsecond=0)
            comments.append(Comment(rng.choice(names), when, fake.paragraph(nb_sentences=rng.randint(1, 3))))
        comments.sort(key=lambda x: x.time)
        t = Thread(id=tid, slug=slugify(title), title=title, author=rng.choice(names),
                   board_id=rng.choice(c.boards).id, posted=posted,
                   tags=tuple(rng.sample(TAG_WORDS, rng.randint(0, 2))), solved=rng.random() < 0.25,
                   body=body, comments=comments, attachment=None, likes=0)
        c.threads[tid] = t
        c._search_text[tid] = f"{t.title}\n{t.body}".lower()
        c.unlisted.add(tid)
