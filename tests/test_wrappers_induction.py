"""The pre-crawl's target pages reach the learner; the crawl heals its wrapper and saves it."""

from __future__ import annotations

from browsercrawl.induction.part import InductionPart
from browsercrawl.induction.precrawl import HtmlPageSource, induce
from browsercrawl.induction.profile import SiteProfile
from scripts.bench.wrapper_score import value_recall
from scripts.bench.wrapper_sites import TUNING, change_markup, generate_site, sample_values

H = "http://books.test"
STYLE = next(s for s in TUNING if s.name == "shelf")


def book_site(n: int = 40):
    site = generate_site(STYLE, n, 11)
    pages = {f"{H}/book/{i + 100}": html for i, html in enumerate(site.pages)}
    links = "".join(f"<li><a href='/book/{i + 100}'>book {i}</a></li>" for i in range(n))
    pages[f"{H}/"] = f"<html><body><h1>All books</h1><ul>{links}</ul></body></html>"
    truth = {f"{H}/book/{i + 100}": t for i, t in enumerate(site.truth)}
    return pages, truth


async def test_induce_checks_the_wrapper_on_the_pre_crawled_target_pages():
    pages, truth = book_site()
    single = [u for u, t in truth.items() if len(t["authors"]) == 1][:2]
    samples = [(u, sample_values(truth[u])) for u in single]
    profile, result, warnings = await induce(HtmlPageSource(pages), [f"{H}/"], samples, max_pages=60)
    assert len(result.target_html) >= 20  # the samples among them are left out of the check
    rules = {r.label: r for r in profile.wrapper.rules}
    assert rules["authors"].many  # both samples had one author; the other pages show lists
    got = [profile.extract(pages[u]) for u in truth]
    assert value_recall(got, list(truth.values())) >= 0.99
    assert not [w for w in warnings if "weak" in w]


async def test_the_crawl_heals_the_wrapper_and_rewrites_the_profile(tmp_path):
    pages, truth = book_site()
    samples = [(u, sample_values(truth[u])) for u in list(truth)[:2]]
    profile, _, _ = await induce(HtmlPageSource(pages), [f"{H}/"], samples, max_pages=60)
    path = tmp_path / "profile.json"
    profile.save(path)
    part = InductionPart(SiteProfile.load(path), supervised=False, profile_path=path)
    url = list(truth)[5]
    facts = part.hook._analyse(url, change_markup(pages[url], "tag_changed"), [], None)
    record = facts.record
    assert record["title"] == truth[url]["title"] and record["isbn"] == truth[url]["isbn"]
    assert part.summary()["wrapper_repairs"]
    saved = SiteProfile.load(path)
    assert {r.css for r in saved.wrapper.rules} == {r.css for r in part.profile.wrapper.rules}
    assert any(r.alternates for r in saved.wrapper.rules)
