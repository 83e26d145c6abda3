"""Deterministic content of the demo community: members, follows, boards, threads, posts.

Everything here is pure data derived from one integer seed, so a test, the served site and the
ground-truth dump (``truth.py``) agree without sharing state: they each call :func:`generate`
with the same seed and get identical objects. All randomness comes from ``random.Random``
instances seeded with strings (stable across processes, unlike ``hash()``), and Faker is fed
those instances so names and sentences are deterministic too.

Status posts are a Poisson process in *site time* (see :class:`DemoClock`): each member has a
posting rate spread over orders of magnitude, and the stream of a member's posts is generated
lazily from that member's own rng as the clock moves forward - extending it never changes
posts already generated, so a dump made at site time T lists exactly the posts served at T.
"""

from __future__ import annotations

import bisect
import random
import re
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from faker import Faker

# The site's clock starts here; threads and comments all predate it, status posts start
# POST_HISTORY before it and keep arriving as the clock is advanced.
SITE_EPOCH = datetime(2024, 6, 1, 12, 0, 0, tzinfo=UTC)
THREAD_SPAN = timedelta(days=730)
POST_HISTORY = timedelta(days=14)
BOARD_COUNT = 20
THREADS_PER_MEMBER = 2000 / 300  # ~2,000 threads for the default 300 members

BOARD_NAMES = (
    "Announcements", "Introductions", "General Chat", "Help Desk", "Hardware", "Software",
    "Programming", "Linux", "Networking", "Security", "Gaming", "Photography", "Music",
    "Books", "Cooking", "Travel", "Fitness", "Gardening", "Marketplace", "Off Topic",
)
TAG_WORDS = (
    "python", "javascript", "rust", "linux", "windows", "mac", "android", "ios", "router",
    "wifi", "gpu", "cpu", "ssd", "backup", "privacy", "vpn", "docker", "database", "guide",
    "question", "bug", "feature", "review", "deal", "recipe", "vegan", "hiking", "camera",
    "lens", "guitar", "synth", "novel", "poetry", "running", "yoga", "garden", "tomato",
    "meetup", "offtopic", "news",
)
ATTACHMENT_EXTS = ("pdf", "zip", "png", "txt", "csv", "log")
HELP_TOPICS = (
    "faq", "posting", "formatting", "notifications", "privacy-settings", "moderation",
    "badges", "search-tips", "accounts", "contact",
)
LEGAL_DOCS = (
    "terms", "privacy", "cookies", "copyright", "dmca", "guidelines", "imprint", "licenses",
    "accessibility", "security",
)


def iso(t: datetime) -> str:
    """The one timestamp format the site uses in HTML, JSON and the truth dump."""
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime:
    """Parse an ISO 8601 time; a time without zone is taken as UTC."""
    t = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def slugify(text: str, max_words: int = 6) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())[:max_words]
    return "-".join(words) or "thread"


def _whole_seconds(t: datetime) -> datetime:
    return t.replace(microsecond=0)


class DemoClock:
    """Site time: starts at :data:`SITE_EPOCH` and moves only when advanced (deterministic)."""

    def __init__(self, start: datetime = SITE_EPOCH) -> None:
        self._now = _whole_seconds(start)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> datetime:
        """Move site time forward (never back) and return the new now."""
        if seconds < 0:
            raise ValueError("the site clock only moves forward")
        self._now = _whole_seconds(self._now + timedelta(seconds=seconds))
        return self._now


@dataclass(slots=True)
class Member:
    id: int
    name: str  # login name and URL key: /u/<name>
    display_name: str
    joined: datetime
    location: str | None
    bio: str
    posting_rate: float  # status posts per site day

    @property
    def path(self) -> str:
        return f"/u/{self.name}"


@dataclass(slots=True)
class Board:
    id: int
    name: str
    description: str

    @property
    def path(self) -> str:
        return f"/board/{self.id}"


@dataclass(slots=True)
class Comment:
    author: str
    time: datetime
    text: str


@dataclass(slots=True)
class Attachment:
    name: str
    size: int  # bytes; the served file really has this size

    def path(self, thread_id: int) -> str:
        return f"/files/{thread_id}/{self.name}"


@dataclass(slots=True)
class Thread:
    id: int
    slug: str
    title: str
    author: str
    board_id: int
    posted: datetime
    tags: tuple[str, ...]
    solved: bool
    body: str  # paragraphs separated by blank lines
    comments: list[Comment]
    attachment: Attachment | None
    likes: int

    @property
    def path(self) -> str:
        return f"/t/{self.id}-{self.slug}"


@dataclass(slots=True)
class StatusPost:
    id: str  # "<member id>-<sequence>"
    member: str
    time: datetime
    text: str


@dataclass
class PostStream:
    """One member's status posts, generated lazily in time order from the member's own rng."""

    member: Member
    rng: random.Random
    posts: list[StatusPost] = field(default_factory=list)
    times: list[datetime] = field(default_factory=list)
    _next_time: datetime | None = None

    def extend_to(self, until: datetime, faker: Faker, lock: threading.Lock) -> None:
        """Generate posts up to and including the first one after ``until``."""
        if self._next_time is not None and self._next_time > until:
            return
        with lock:
            if self._next_time is not None and self._next_time > until:  # another thread did it
                return
            faker.random = self.rng
            rate_per_second = self.member.posting_rate / 86400
            t = self._next_time or (SITE_EPOCH - POST_HISTORY)
            while True:
                t = _whole_seconds(t + timedelta(seconds=self.rng.expovariate(rate_per_second)))
                text = faker.sentence(nb_words=self.rng.randint(5, 20))
                post = StatusPost(f"{self.member.id}-{len(self.posts) + 1}", self.member.name, t, text)
                self.posts.append(post)
                self.times.append(t)
                if t > until:
                    self._next_time = t
                    return


class Content:
    """The whole generated community plus indexes the web app needs (built once at start)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.members: list[Member] = []
        self.by_name: dict[str, Member] = {}
        self.by_id: dict[int, Member] = {}
        self.follows: dict[str, list[str]] = {}  # name -> names followed, in follow order
        self.followers: dict[str, list[str]] = {}  # name -> follower names, by follower id
        self.boards: list[Board] = []
        self.threads: dict[int, Thread] = {}
        self.board_threads: dict[int, list[Thread]] = {}  # newest first
        self.tag_threads: dict[str, list[Thread]] = {}  # newest first
        self.month_threads: dict[tuple[int, int], list[Thread]] = {}  # oldest first
        self.help_pages: dict[str, list[str]] = {}  # topic -> paragraphs
        self.legal_pages: dict[str, list[str]] = {}
        self._faker = Faker("en_US")
        self._faker_lock = threading.Lock()
        self._streams: dict[str, PostStream] = {}
        self._search_text: dict[int, str] = {}
        self.unlisted: set[int] = set()  # threads only the search reaches (unlisted.py)

    # ----- status posts (lazy, site-time dependent) -----

    def posts_of(self, name: str, until: datetime) -> list[StatusPost]:
        """The member's status posts with time <= ``until``, oldest first."""
        stream = self._streams[name]
        stream.extend_to(until, self._faker, self._faker_lock)
        return stream.posts[: bisect.bisect_right(stream.times, until)]

    def all_posts(self, until: datetime) -> list[StatusPost]:
        """Every member's visible posts, newest first (ties broken by id)."""
        posts = [p for m in self.members for p in self.posts_of(m.name, until)]
        posts.sort(key=lambda p: (p.time, p.id), reverse=True)
        return posts

    # ----- search -----

    def search(self, query: str) -> list[Thread]:
        """Threads whose title or body contains every word of ``query`` (newest first)."""
        words = re.findall(r"\w+", query.lower())
        if not words:
            return []
        hits = [
            t for t in self.threads.values()
            if all(w in self._search_text[t.id] for w in words)
        ]
        hits.sort(key=lambda t: t.posted, reverse=True)
        return hits


def _zipf_weights(n: int, rng: random.Random, exponent: float) -> list[float]:
    """Skewed activity weights in a random order: a few very active members, a long tail."""
    ranks = list(range(1, n + 1))
    rng.shuffle(ranks)
    return [1.0 / r**exponent for r in ranks]


def _make_members(c: Content, count: int, rng: random.Random, fake: Faker) -> None:
    used: set[str] = set()
    for member_id in range(1, count + 1):
        first, last = fake.first_name(), fake.last_name()
        base = re.sub(r"[^a-z0-9]", "", first.lower())
        style = rng.random()
        if style < 0.4:
            name = f"{base}_{re.sub(r'[^a-z0-9]', '', last.lower())}"
        elif style < 0.7:
            name = f"{base}{rng.randint(1, 99)}"
        else:
            name = f"{base[:1]}{re.sub(r'[^a-z0-9]', '', last.lower())}"
        while name in used:
            name = f"{name}{rng.randint(0, 9)}"
        used.add(name)
        joined = _whole_seconds(
            SITE_EPOCH - THREAD_SPAN - timedelta(days=rng.uniform(1, 1500))
        )
        location = f"{fake.city()}, {fake.state_abbr()}" if rng.random() < 0.7 else None
        # posts/day spread over orders of magnitude, most members rare: 0.02/day .. ~24/day
        rate = round(10 ** (-1.7 + 3.08 * rng.random() ** 2.5), 4)
        member = Member(member_id, name, f"{first} {last}", joined, location,
                        fake.sentence(nb_words=rng.randint(6, 18)), rate)
        c.members.append(member)
        c.by_name[name] = member
        c.by_id[member_id] = member


def _make_follows(c: Content, rng: random.Random) -> None:
    names = [m.name for m in c.members]
    popularity = _zipf_weights(len(names), rng, 0.8)
    for m in c.members:
        want = min(rng.randint(3, 30), len(names) - 1)
        chosen: list[str] = []
        seen = {m.name}
        while len(chosen) < want:
            other = rng.choices(names, popularity)[0]
            if other not in seen:
                seen.add(other)
                chosen.append(other)
        c.follows[m.name] = chosen
    c.followers = {n: [] for n in names}
    for m in c.members:  # members in id order, so follower lists are ordered by follower id
        for other in c.follows[m.name]:
            c.followers[other].append(m.name)


def _comment_count(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.65:
        return rng.randint(0, 4)
    if r < 0.92:
        return rng.randint(5, 12)
    return rng.randint(13, 35)


def _make_threads(c: Content, count: int, rng: random.Random, fake: Faker) -> None:
    names = [m.name for m in c.members]
    activity = _zipf_weights(len(names), rng, 0.9)
    board_weights = [rng.uniform(0.3, 3.0) for _ in c.boards]
    span = THREAD_SPAN.total_seconds()
    times = sorted(
        _whole_seconds(SITE_EPOCH - THREAD_SPAN + timedelta(seconds=rng.uniform(0, span - 86400)))
        for _ in range(count)
    )
    for thread_id, posted in enumerate(times, start=1):  # ids grow with time, like real sites
        title = fake.sentence(nb_words=rng.randint(4, 9)).rstrip(".")
        tags = () if rng.random() < 0.2 else tuple(rng.sample(TAG_WORDS, rng.randint(1, 3)))
        body = "\n\n".join(fake.paragraph(nb_sentences=rng.randint(2, 5))
                           for _ in range(rng.randint(1, 4)))
        attachment = None
        if rng.random() < 0.15:
            attachment = Attachment(f"{fake.word()}-{thread_id}.{rng.choice(ATTACHMENT_EXTS)}",
                                    rng.randint(200, 250_000))
        n_comments = _comment_count(rng)
        window = min(timedelta(days=30), SITE_EPOCH - posted).total_seconds()
        comment_times = sorted(
            _whole_seconds(posted + timedelta(seconds=rng.uniform(60, window)))
            for _ in range(n_comments)
        )
        comments = [
            Comment(rng.choices(names, activity)[0], t,
                    fake.paragraph(nb_sentences=rng.randint(1, 3)))
            for t in comment_times
        ]
        thread = Thread(
            id=thread_id, slug=slugify(title), title=title,
            author=rng.choices(names, activity)[0],
            board_id=rng.choices(c.boards, board_weights)[0].id,
            posted=posted, tags=tags, solved=rng.random() < 0.25, body=body,
            comments=comments, attachment=attachment,
            likes=int(rng.paretovariate(1.3)) - 1 if rng.random() < 0.7 else 0,
        )
        c.threads[thread_id] = thread


def _index(c: Content) -> None:
    c.board_threads = {b.id: [] for b in c.boards}
    c.tag_threads = {w: [] for w in TAG_WORDS}
    for t in sorted(c.threads.values(), key=lambda t: t.posted, reverse=True):
        c.board_threads[t.board_id].append(t)
        for tag in t.tags:
            c.tag_threads[tag].append(t)
    for t in c.threads.values():
        c.month_threads.setdefault((t.posted.year, t.posted.month), []).append(t)
        c._search_text[t.id] = f"{t.title}\n{t.body}".lower()


def generate(seed: int = 0, members: int = 300, threads: int | None = None) -> Content:
    """Build the community for ``seed``: same arguments, same content, in every process."""
    if members < 5:
        raise ValueError("the demo site needs at least 5 members")
    c = Content(seed)
    rng = random.Random(f"browsercrawl-demo:{seed}")
    fake = c._faker
    fake.random = rng
    _make_members(c, members, rng, fake)
    _make_follows(c, rng)
    c.boards = [Board(i, name, fake.sentence(nb_words=rng.randint(6, 12)))
                for i, name in enumerate(BOARD_NAMES[:BOARD_COUNT], start=1)]
    _make_threads(c, threads if threads is not None else round(members * THREADS_PER_MEMBER),
                  rng, fake)
    for topic in HELP_TOPICS:
        c.help_pages[topic] = [fake.paragraph(nb_sentences=4) for _ in range(rng.randint(2, 4))]
    for doc in LEGAL_DOCS:
        c.legal_pages[doc] = [fake.paragraph(nb_sentences=6) for _ in range(rng.randint(3, 6))]
    _index(c)
    from browsercrawl_demo.unlisted import add_unlisted  # it builds on this module's classes

    add_unlisted(c, len(c.threads))
    for m in c.members:
        c._streams[m.name] = PostStream(m, random.Random(f"browsercrawl-demo:{seed}:posts:{m.id}"))
    return c
