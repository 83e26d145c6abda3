"""The focused crawler's pieces without the engine: features, TF-IDF, target and path discriminators,
bootstrapping and its drift guard, and the best-first release of waiting links."""

from __future__ import annotations

from collections import Counter

import pytest

from browsercrawl.config import parse_job
from browsercrawl.errors import UserError
from browsercrawl.focus.core import FocusCore, FocusSettings, LinkWeights
from browsercrawl.focus.features import PageFeatures, structure_tokens, url_tokens, words
from browsercrawl.focus.path import PathModel
from browsercrawl.focus.target import TargetModel, TargetSettings
from browsercrawl.focus.tfidf import Vocabulary, cosine

SCORES = "Admission cutoff scores {y} {p}: lowest average highest score of students enrolled from {p}"
NEWS = "Campus news: the library garden and the lake bridge host a concert {y}"


def page(url: str, text: str, title: str = "", html: str | None = None) -> PageFeatures:
    return PageFeatures.of(url, title, text, html)


def test_tokens_of_text_urls_and_structure() -> None:
    assert words("The Cutoff-Scores of 2021, in Hebei!") == ["cutoff", "scores", "hebei"]
    assert words("河北省录取分数线 2021") == ["河北", "北省", "省录", "录取", "取分", "分数", "数线"]
    assert words("分 score分数") == ["分数", "score"]  # a lone character is too short to be a word
    assert url_tokens("http://a.test/index.php?id=123&cat=3") == [
        "index", "php", "id", "#", "cat", "#", "depth:1"]
    assert url_tokens("http://a.test/x/y/") == ["x", "y", "depth:2"]
    tokens = structure_tokens("<html><body><table class='data'><tr><td>1</td></tr></table></body></html>")
    assert "body>table" in tokens and "table.data" in tokens and "tr>td" in tokens
    assert structure_tokens("") == [] and structure_tokens("   ") == []


def test_tfidf_weighs_rare_words_over_common_ones() -> None:
    vocab = Vocabulary()
    for d in (["university", "cutoff"], ["university", "garden"], ["university", "lake"]):
        vocab.add(Counter(d))
    a = vocab.vector(Counter(["university", "cutoff"]))
    b = vocab.vector(Counter(["university", "garden"]))
    c = vocab.vector(Counter(["university", "cutoff", "score"]))
    assert cosine(a, a) == pytest.approx(1.0)
    assert cosine(a, c) > cosine(a, b)  # sharing the rare word counts more than sharing the common one
    assert vocab.vector(Counter()) == {}


def _model(texts: list[str]) -> TargetModel:
    model = TargetModel(TargetSettings(weights={"text": 1.0}, threshold_share=0.75, admit_per_round=2))
    for i, t in enumerate(texts):
        model.observe(page(f"http://s.test/{i}", t))
    return model


def test_threshold_comes_from_the_examples_leave_one_out() -> None:
    texts = [SCORES.format(y=y, p=p) for y, p in ((2020, "Hebei"), (2021, "Henan"))] + [
        NEWS.format(y=y) for y in range(2010, 2020)]
    model = _model(texts)
    model.add_given(page("http://a.test/1", texts[0]))
    model.add_given(page("http://b.test/1", texts[1]))
    threshold = model.settle_threshold()
    vocab = model.vocab["text"]
    loo = cosine(vocab.vector(Counter(words(texts[0]))), vocab.vector(Counter(words(texts[1]))))
    assert threshold == pytest.approx(0.75 * loo, rel=1e-6)
    assert model.is_target(model.similarity(page("http://c.test/9", SCORES.format(y=2019, p="Hunan"))))
    assert not model.is_target(model.similarity(page("http://c.test/8", NEWS.format(y=2030))))

    single = _model(texts)
    single.add_given(page("http://a.test/1", texts[0]))
    assert single.settle_threshold() == single.settings.default_threshold


def test_bootstrapping_admits_the_best_and_refuses_drift() -> None:
    texts = [SCORES.format(y=2020, p="Hebei"), SCORES.format(y=2021, p="Henan")] + [
        NEWS.format(y=y) for y in range(2010, 2020)]
    model = _model(texts)
    model.add_given(page("http://a.test/1", texts[0]))
    model.add_given(page("http://b.test/1", texts[1]))
    model.settle_threshold()
    close = page("http://c.test/1", SCORES.format(y=2022, p="Hunan"))
    closer = page("http://c.test/2", SCORES.format(y=2021, p="Hebei"))
    drifted = page("http://c.test/3", "library garden lake bridge concert news")
    cands = [(model.similarity(p), p) for p in (close, closer)] + [(0.99, drifted)]  # claims a high score
    admitted = model.admit(cands)
    assert [p.url for p in admitted] == [closer.url, close.url]  # best first, capped at 2 a round
    assert model.round == 1 and {e.round for e in model.examples} == {0, 1}
    assert model.admit([(0.99, drifted)]) == []  # the drift guard: unlike the given examples
    assert model.round == 1


def test_path_model_learns_misleading_anchors_from_where_targets_were_found() -> None:
    path = PathModel()
    for hop in (("services",), ("archive",), ("news",), ("news",), ("about",)):
        path.fetched(hop)
    before = path.hop_score(("archive",))
    path.led_to_target(("archive",))
    assert path.hop_score(("archive",)) > before
    assert path.hop_score(("archive",)) > path.hop_score(("news",))
    # the path that reached a page counts for its links
    assert path.score(("minutes",), [("archive",)]) > path.score(("minutes",), [("news",)])


def _core(link_threshold: float = 0.2) -> FocusCore:
    settings = FocusSettings(TargetSettings(weights={"text": 1.0}), LinkWeights(1.0, 0.0, 0.0),
                             link_threshold=link_threshold)
    return FocusCore(settings, ["http://s.test/example"])


def test_examples_first_then_best_links_and_weak_links_wait() -> None:
    core = _core(link_threshold=0.6)
    core.observe("http://s.test/", "Home", NEWS.format(y=1), None)
    core.offer("http://s.test/", "http://s.test/archive", "Archive")
    core.offer("http://s.test/", "http://s.test/news", "News")
    assert [n.url for n in core.take(2)] == ["http://s.test/example"]  # the examples come first
    core.observe("http://s.test/example", "Cutoff scores 2020", SCORES.format(y=2020, p="Hebei"), None)
    assert core.ready
    # an example's words lead: a link whose anchor carries them is above the threshold
    core.offer("http://s.test/", "http://s.test/cutoff", "Cutoff scores 2021")
    first = core.take(2)
    assert [n.url for n in first] == ["http://s.test/cutoff"]  # weak links wait while a better one is left
    rest = core.take(2)
    assert {n.url for n in rest} == {"http://s.test/archive", "http://s.test/news"}  # then they are taken
    assert core.take(2) == []


def test_a_new_target_teaches_its_whole_path() -> None:
    core = _core()
    core.observe("http://s.test/example", "Cutoff scores", SCORES.format(y=2020, p="Hebei"), None)
    core.examples_asked = True
    core.observe("http://s.test/", "Home", NEWS.format(y=1), None)
    core.offer("http://s.test/", "http://s.test/records", "Records")
    core.take(5)
    core.observe("http://s.test/records", "Records", NEWS.format(y=2), None)
    core.offer("http://s.test/records", "http://s.test/records/2021", "2021 Hunan")
    core.take(5)
    verdict, _ = core.observe("http://s.test/records/2021", "Hunan", SCORES.format(y=2021, p="Hunan"), None)
    assert verdict.kind == "target" and verdict.depth == 2 and verdict.seq == 4  # the example was the first
    assert verdict.path.startswith("http://s.test/ > records > ")
    assert core.path.led["records"] >= 1  # the misleading directory anchor now counts
    assert core.nodes["http://s.test/records"].child_targets == 1


def test_focus_section_errors_are_one_line(tmp_path) -> None:
    base = {"seeds": ["http://127.0.0.1:1/"], "output": {"database": "c.db"}}
    ok = parse_job({**base, "focus": {"examples": ["http://127.0.0.1:1/a"]}}, tmp_path / "job.toml")
    assert ok.focus is not None and ok.focus.weights == {"text": 1.0}
    bad = [({"examples": []}, "focus.examples"),
           ({"examples": ["ftp://x/a"]}, "is not an http(s) URL"),
           ({"examples": ["http://x/a"], "weights": {"colour": 1.0}}, "unknown field 'colour'"),
           ({"examples": ["http://x/a"], "anchor_weight": 0.9}, "must be 1"),
           ({"examples": ["http://x/a"], "speed": 3}, "focus.speed")]
    for section, message in bad:
        with pytest.raises(UserError) as err:
            parse_job({**base, "focus": section}, tmp_path / "job.toml")
        text = str(err.value)
        assert "\n" not in text and "job.toml" in text and message in text, text


def test_a_page_fetched_twice_is_learned_once() -> None:
    core = _core()
    core.observe("http://s.test/example", "Cutoff scores", SCORES.format(y=2020, p="Hebei"), None)
    first, _ = core.observe("http://s.test/a", "A", NEWS.format(y=1), None)
    again, _ = core.observe("http://s.test/a", "A", NEWS.format(y=1), None)  # auto mode: both ways
    assert again is first and core.seq["s.test"] == 2 and core.model.vocab["text"].docs == 2


def test_a_focused_crawl_refuses_distributed_workers(tmp_path) -> None:
    from browsercrawl.assemble import build_parts
    from browsercrawl.engine.options import CrawlOptions

    job = parse_job({"seeds": ["http://127.0.0.1:1/"], "output": {"database": "c.db"},
                     "distributed": {"redis": "redis://127.0.0.1:1/0"},
                     "focus": {"examples": ["http://127.0.0.1:1/a"]}}, tmp_path / "job.toml")
    with pytest.raises(UserError, match="focused crawl runs in one process") as err:
        build_parts(job, CrawlOptions())
    assert "\n" not in str(err.value)
