"""Query rounds, result pages and clustering of the search-forms part, without a crawl."""

from __future__ import annotations

import json
from collections import Counter

from browsercrawl.config.search_forms import SearchFormsConfig
from browsercrawl.forms.cluster import FormPage, kmeans, tfidf, top_terms
from browsercrawl.forms.lexicon import lexicon
from browsercrawl.forms.plan import PROBE_ROUND, Emit, Interface, Planner, candidate_terms
from browsercrawl.forms.results import ResultPage, html_result, json_result, url_shape
from browsercrawl.frontier.urls import canonical_url

EN = lexicon(["en"])
BASE = "http://site.test"


def cfg(**kw) -> SearchFormsConfig:
    return SearchFormsConfig(**{"form_pages_before_queries": 1, **kw})


def iface(method: str = "get") -> Interface:
    return Interface(id="f1", host="site.test", method=method, action=f"{BASE}/search", query_field="q",
                     fields=[("q", "", True), ("token", "secret", False)], form_page=f"{BASE}/",
                     depth=0)


def test_tfidf_is_formula_one() -> None:
    docs = [Counter({"apple": 2.0, "the": 1.0}), Counter({"pear": 1.0, "the": 1.0})]
    w = tfidf(docs)
    assert "the" not in w[0]  # in every page: log(N/n) = 0
    assert abs(w[0]["apple"] - 2.0 * 0.6931) < 1e-3


def test_template_and_noise_terms_are_dropped_unless_the_filter_is_off() -> None:
    docs = [Counter({"header": 1.0, "menu": 3.0, "apple": 2.0, "pear": 1.0}) for _ in range(19)]
    docs.append(Counter({"header": 1.0, "menu": 3.0, "rare": 5.0, "apple": 1.0}))
    docs += [Counter({"header": 1.0, "menu": 3.0, "plum": 1.0}) for _ in range(2)]
    docs += [Counter({"header": 1.0, "plum": 1.0}) for _ in range(2)]
    on = candidate_terms(docs, set(), cfg())
    # "menu" is on 22 of 24 result pages (template), "rare" on 1 (under 5%: noise)
    assert on == ["plum", "apple", "pear"]
    off = candidate_terms(docs, {"plum"}, cfg(term_filter=False))
    assert off == ["rare", "apple", "menu", "pear", "header"]  # queried terms never come back


def test_get_and_post_queries_never_put_hidden_fields_in_the_url() -> None:
    url, body = iface("get").request("miso soup")
    assert url == f"{BASE}/search?q=miso+soup&token=secret"  # what a browser's GET sends
    url, body = iface("post").request("miso")
    assert url == f"{BASE}/search?q=miso" and body == "q=miso&token=secret"


def _result(url: str, records: list[str], terms: dict[str, float], nxt: str | None = None) -> ResultPage:
    return ResultPage(records=records, next_url=nxt, terms=Counter(terms), valid=bool(records))


def test_rounds_follow_paging_and_stop_after_max_rounds() -> None:
    planner = Planner(cfg(max_rounds=2, min_candidates=1, terms_per_round=2))
    emit = Emit()
    i = iface()
    planner.add_interface(i, emit)
    (probe_url, kind), = emit.urls
    assert kind == "search-probe" and planner.queries[1].round == PROBE_ROUND
    planner.on_result(probe_url, _result(probe_url, [], {}), {f"{BASE}/about"}, 200, emit)
    assert i.ready and f"{BASE}/about" in i.template_links
    planner.add_form_page(FormPage(f"{BASE}/", "f1", Counter({"apple": 1.0}), Counter({"search": 1.0})))
    assert planner.want_seeding(crawl_idle=False) == ["f1"]
    emit = Emit()
    planner.seed(["f1"], list(planner.form_pages.values()), [0], {0: ["apple"]}, emit)
    (q1, _), = emit.urls
    assert q1.endswith("q=apple&token=secret")
    emit = Emit()
    planner.on_result(q1, _result(q1, [f"{BASE}/i/1"], {"pear": 2.0, "plum": 1.0}, f"{q1}&page=2"),
                      set(), 200, emit)
    page2 = canonical_url(f"{q1}&page=2")
    assert emit.urls == [(page2, "search-page")]  # the round waits for page 2
    emit = Emit()
    planner.on_result(page2, _result("", [f"{BASE}/i/2"], {"quince": 1.0}), set(), 200, emit)
    assert {u.split("q=")[1].split("&")[0] for u, _ in emit.urls} == {"pear", "plum"}  # round 2
    for url, _ in emit.urls:
        planner.on_result(url, _result(url, [f"{BASE}/i/1"], {"fig": 1.0}), set(), 200, Emit())
    campaign = planner.campaigns[("f1", 0)]
    assert campaign.round == 2 and campaign.finished == "2 rounds"
    q = planner.queries[2]
    assert (q.pages, q.results, q.new, q.valid) == (2, 2, 2, True)
    assert planner.queries[3].new == 0  # /i/1 was listed by an earlier query already


def test_budget_and_few_candidates_stop_a_campaign() -> None:
    planner = Planner(cfg(max_queries_per_site=3, min_candidates=5))
    emit = Emit()
    i = iface()
    i.ready = True  # no probe
    planner.add_interface(i, emit)
    planner.seed(["f1"], [], [], {}, emit)
    assert planner.campaigns[("f1", -1)].finished  # no form page, no seed terms: nothing to ask
    planner = Planner(cfg(max_queries_per_site=2, seed_terms=["a1", "b2", "c3"]))
    emit = Emit()
    i = iface()
    i.ready = True
    planner.add_interface(i, emit)
    planner.seed(["f1"], [], [], {}, emit)
    assert len(emit.urls) == 2  # the site's budget, whatever the terms
    url = emit.urls[0][0]
    emit2 = Emit()
    planner.on_result(url, _result(url, ["x"], {"only": 1.0}), set(), 200, emit2)
    planner.on_result(emit.urls[1][0], _result("", ["y"], {"two": 1.0}), set(), 200, emit2)
    assert planner.campaigns[("f1", -1)].finished == "2 candidate terms left after round 1"


def test_pages_that_never_arrive_are_queued_again_once_and_the_round_moves_on() -> None:
    planner = Planner(cfg(min_candidates=1, terms_per_round=1, seed_terms=["a1", "b2"]))
    emit = Emit()
    i = iface()
    i.ready = True
    planner.add_interface(i, emit)
    planner.seed(["f1"], [], [], {}, emit)
    first, second = (u for u, _ in emit.urls)
    planner.on_result(first, _result(first, ["r"], {"next": 1.0}), set(), 200, Emit())
    idle = Emit()
    planner.idle(idle)
    assert (second, "search-page") in idle.urls  # queued once more
    assert any("q=next" in u for u, _ in idle.urls)  # and round 2 started without it
    again = Emit()
    planner.idle(again)
    assert second not in [u for u, _ in again.urls]


def test_records_are_the_repeated_link_shape_not_the_template() -> None:
    links = [(f"{BASE}/about", "About", ""), (f"{BASE}/search?q=x&page=2", "Next", "next")]
    links += [(f"{BASE}/t/{n}-some-title", f"Thread {n} title", "") for n in range(5)]
    links += [(f"{BASE}/u/alice", "alice", ""), (f"{BASE}/u/bob", "bob", "")]
    page = html_result(links, 200, f"{BASE}/search?q=x", f"{BASE}/search", {f"{BASE}/about"}, Counter(), EN)
    assert page.records == [f"{BASE}/t/{n}-some-title" for n in range(5)] and page.valid
    assert page.next_url == f"{BASE}/search?q=x&page=2"
    assert not html_result(links, 404, f"{BASE}/search?q=x", f"{BASE}/search", set(), Counter(), EN).valid
    assert url_shape(f"{BASE}/t/5-a") == url_shape(f"{BASE}/t/77-b") != url_shape(f"{BASE}/u/bob")


def test_json_results_and_their_next_page() -> None:
    text = json.dumps({"page": 1, "next_page": 2, "items": [
        {"url": f"/t/{n}", "author_url": "/u/alice", "title": "Miso soup"} for n in range(3)]})
    page = json_result(text, 200, f"{BASE}/api/search?q=miso", set(), EN)
    assert page.records == [f"{BASE}/t/{n}" for n in range(3)]
    assert page.next_url == f"{BASE}/api/search?q=miso&page=2"
    assert page.terms["miso"] == 3
    last = json_result(json.dumps({"next_offset": None, "items": []}), 200, f"{BASE}/api/s?q=x", set(), EN)
    assert last.next_url is None and not last.valid


def test_kmeans_separates_topics_and_seeds_from_each() -> None:
    def page(url: str, words: str, form: str = "search threads") -> FormPage:
        return FormPage(url, "f1", Counter(words.split()), Counter(form.split()))

    pages = [page(f"/a{i}", "apple pear orchard blossom harvest") for i in range(4)]
    pages += [page(f"/b{i}", "chisel lathe plane walnut veneer") for i in range(4)]
    assign = kmeans(pages, 2)
    assert len(set(assign[:4])) == 1 and len(set(assign[4:])) == 1 and assign[0] != assign[4]
    tops = top_terms(pages, assign, 3)
    assert set(tops[assign[0]]) <= {"apple", "pear", "orchard", "blossom", "harvest"}
    assert kmeans(pages[:1]) == [0] and top_terms(pages[:1], [0], 2)[0]  # one page: tf alone
