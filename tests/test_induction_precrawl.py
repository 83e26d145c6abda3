"""Pre-crawl, target/directory induction and the wrapper end to end on a generated recipe site.

The site is real HTML served by ``HtmlPageSource`` (the same pages a browser would render): an
entry page, category listings with query-string paging, recipe pages (the targets), user and tag
pages, static pages. Ground truth is known, so target precision/recall and field F1 are measured.
"""

from __future__ import annotations

import random
import re
from html import escape

import pytest

from browsercrawl.errors import UserError
from browsercrawl.induction.pages import TunnelingScorer
from browsercrawl.induction.precrawl import HtmlPageSource, derive_profile, induce, precrawl
from browsercrawl.induction.profile import SiteProfile

H = "https://recipes.example.com"
WORDS = [
    "spicy",
    "garlic",
    "tofu",
    "pork",
    "chicken",
    "noodle",
    "rice",
    "beans",
    "chili",
    "pepper",
    "ginger",
    "sesame",
    "broth",
    "dumpling",
    "cabbage",
    "mushroom",
    "eggplant",
    "duck",
    "beef",
    "scallion",
    "vinegar",
    "honey",
    "lotus",
]
CATS = ["sichuan", "cantonese", "hunan", "street-food", "soups", "desserts"]
USERS = ["chen-li", "mei-wong", "tom-b", "ann-k", "bo-z", "cy-r", "dai-m", "eve-q"]
TAGS = ["quick", "vegan", "party", "winter", "budget", "classic"]
NAV = (
    "".join(f'<a href="/c/{c}/">{c}</a> ' for c in CATS)
    + '<a href="/about">About</a> <a href="/help/faq">FAQ</a>'
)


def page(title: str, body: str) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{escape(title)} - Recipes</title></head><body>"
        f'<header id="top"><nav class="menu"><a href="/">Home</a> {NAV}</nav></header>'
        f'<main id="content">{body}</main><footer><p>© Recipes</p></footer></body></html>'
    )


def build_site(seed: int = 3, n_recipes: int = 150):
    """Pages by URL and, per recipe URL, the record a perfect extractor returns."""
    rnd = random.Random(seed)
    pages, truth = {}, {}
    recipes = []
    for i in range(n_recipes):
        rid = rnd.randint(1000, 99999)
        name = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(2, 4))).title()
        url = f"{H}/recipe/{rid}-{name.lower().replace(' ', '-')}.html"
        cat, user = CATS[i % len(CATS)], rnd.choice(USERS)
        tags = rnd.sample(TAGS, rnd.randint(0, 2))
        comments = [
            (rnd.choice(USERS), f"Comment {j} on {name}: {rnd.choice(WORDS)}!")
            for j in range(rnd.randint(0, 4))
        ]
        rec = {
            "title": name,
            "author": user,
            "rating": f"{rnd.randint(30, 50) / 10:.1f}",
            "cook_time": f"{rnd.randint(5, 90)} min",
            "comments": [c for _, c in comments],
        }
        promo = '<aside class="ad"><p>Sponsored</p></aside>' if rnd.random() < 0.3 else ""
        body = (
            f'{promo}<article class="recipe"><h1 class="title">{escape(name)}</h1>'
            f'<div class="byline">by <a class="author" href="/u/{user}">{user}</a></div>'
            f'<div class="stats"><span class="rating" data-rating="{rec["rating"]}">*</span>'
            f'<span class="cook-time">Cook time: {rec["cook_time"]}</span></div>'
            f'<div class="body"><p>A {cat} dish with {escape(name.lower())}.</p></div>'
            + "".join(f'<a class="tag" href="/tag/{t}/">{t}</a>' for t in tags)
            + '</article><section class="comments"><ol>'
            + "".join(
                f'<li class="comment"><span class="who">{u}</span><p class="text">{escape(c)}</p></li>'
                for u, c in comments
            )
            + "</ol></section>"
        )
        pages[url] = page(name, body)
        truth[url] = rec
        recipes.append((url, name, cat, user, tags))

    def listing(title: str, items, extra: str = "") -> str:
        links = "".join(f'<li><a href="{u}">{escape(n)}</a></li>' for u, n, *_ in items)
        return page(title, f"<h1>{escape(title)}</h1><ul class='list'>{links}</ul>{extra}")

    for cat in CATS:
        items = [r for r in recipes if r[2] == cat]
        chunks = [items[i : i + 10] for i in range(0, len(items), 10)]
        for n, chunk in enumerate(chunks, 1):
            pager = "".join(
                f'<a href="/c/{cat}/{f"?page={k}" if k > 1 else ""}">{k}</a> '
                for k in range(1, len(chunks) + 1)
            )
            url = f"{H}/c/{cat}/" + (f"?page={n}" if n > 1 else "")
            pages[url] = listing(f"{cat} recipes", chunk, f"<div class='pager'>{pager}</div>")
    for user in USERS:
        pages[f"{H}/u/{user}"] = listing(f"Recipes by {user}", [r for r in recipes if r[3] == user][:12])
    for t in TAGS:
        pages[f"{H}/tag/{t}/"] = listing(f"Tagged {t}", [r for r in recipes if t in r[4]][:12])
    for s in ["about", "help/faq", "help/contact", "help/privacy"]:
        pages[f"{H}/{s}"] = page(s, f"<p>Static page {s} about our spicy recipes.</p>")
    newest = recipes[-12:]
    pages[f"{H}/"] = listing(
        "Welcome",
        newest,
        "".join(f'<a href="/u/{u}">{u}</a> ' for u in USERS)
        + "".join(f'<a href="/tag/{t}/">{t}</a> ' for t in TAGS),
    )
    return pages, truth


SITE, TRUTH = build_site()
SAMPLES = sorted(TRUTH)[:2]


def field_f1(profile: SiteProfile) -> float:
    """Micro F1 over all fields (list items count one each) of every recipe page."""
    tp = fp = fn = 0
    for url, rec in TRUTH.items():
        got = profile.extract(SITE[url])
        for label, want in rec.items():
            have = got.get(label)
            wants = want if isinstance(want, list) else [want]
            haves = (have if isinstance(have, list) else [have]) if have is not None else []
            tp += sum(1 for w in wants if w in haves)
            fn += sum(1 for w in wants if w not in haves)
            fp += sum(1 for h in haves if h not in wants)
    return 2 * tp / (2 * tp + fp + fn)


async def test_induce_finds_targets_directories_and_fields(tmp_path):
    source = HtmlPageSource(SITE)
    samples = [(u, TRUTH[u]) for u in SAMPLES]
    profile, result, warnings = await induce(
        source, [f"{H}/"], samples, keywords="spicy||chili", max_pages=120
    )
    assert warnings == []
    assert len(result.pages) == 120 and not result.errors
    predicted = {u for u in SITE if profile.is_target(u)}
    truth = set(TRUTH)
    precision = len(predicted & truth) / len(predicted)
    recall = len(predicted & truth) / len(truth)
    assert precision >= 0.95 and recall >= 0.95, (profile.target_regex, precision, recall)
    # Every category listing (with its ?page=n) is followed; recipes are not directories.
    assert all(profile.should_follow(u) for u in SITE if "/c/" in u)
    assert not any(profile.is_directory(u) for u in TRUTH)
    assert profile.weight_threshold >= 0
    assert field_f1(profile) >= 0.95
    # The profile survives a save/load round trip and still extracts the same records.
    path = tmp_path / "profile.json"
    profile.save(path)
    again = SiteProfile.load(path)
    assert again.target_regex == profile.target_regex
    assert again.extract(SITE[SAMPLES[0]]) == profile.extract(SITE[SAMPLES[0]])
    assert "[target]" in again.report()


async def test_precrawl_visits_lowest_weight_first():
    # No keywords and no target regex: every page but the entry is one heavier than its parent,
    # so the pre-crawl is breadth-first and weights equal link depth.
    scorer = TunnelingScorer(None, None)
    result = await precrawl(HtmlPageSource(SITE), [f"{H}/"], scorer, max_pages=40, concurrency=1)
    order = list(result.pages.values())
    assert order[0].url == f"{H}/" and order[0].weight == 0
    weights = [p.weight for p in order]
    assert weights == sorted(weights)
    # With the target regex known, pages linking to recipes get weight 0.
    tunnel = TunnelingScorer(None, r"^https?://recipes\.example\.com/recipe/")
    result = await precrawl(HtmlPageSource(SITE), [f"{H}/"], tunnel, max_pages=40)
    listing = [p for u, p in result.pages.items() if "/c/" in u]
    static = [p for u, p in result.pages.items() if "/help/" in u or u.endswith("/about")]
    assert listing and all(p.weight == 0 for p in listing)
    assert static and all(p.weight >= 1 for p in static)


async def test_precrawl_records_failures_and_keeps_going():
    pages = dict(SITE)
    broken = next(u for u in pages if "/c/sichuan/" in u)
    del pages[broken]
    result = await precrawl(HtmlPageSource(pages), [f"{H}/"], TunnelingScorer(None, None), max_pages=30)
    assert broken in result.errors and len(result.pages) >= 20


async def test_unreachable_entry_is_a_user_error():
    with pytest.raises(UserError, match="could not be fetched"):
        await precrawl(HtmlPageSource(SITE), [f"{H}/missing"], TunnelingScorer(None, None))


async def test_derive_profile_without_samples_uses_link_counts():
    result = await precrawl(HtmlPageSource(SITE), [f"{H}/"], TunnelingScorer("spicy", None), max_pages=150)
    profile = derive_profile(result, entry_urls=[f"{H}/"])
    assert profile.target_regex and re.match(profile.target_regex, SAMPLES[0])
    assert len(profile.directory_regexes) <= 10
