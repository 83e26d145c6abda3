"""Induction wired into the crawl, on the demo community: `browsercrawl induce`, then the supervised crawl.

A small demo site (10 members, 50 threads) is crawled to completion through the CLI, logged in
from a saved state through the job's ``[session]``; target precision/recall and field F1 are
scored against the truth dump (definitions in ``browsercrawl/induction/evaluate.py``). The
bad-input tests need no browser.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsercrawl_demo.app import DemoSite, demo_site_in_thread
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.content import SITE_EPOCH
from browsercrawl_demo.expected import score_records
from browsercrawl_demo.jobs import induction_job
from browsercrawl_demo.login import login_storage_state
from browsercrawl_demo.truth import build_truth

from browsercrawl.cli import main as cli_main
from browsercrawl.induction.evaluate import compare_value
from browsercrawl.induction.profile import SiteProfile
from browsercrawl.wrappers import Wrapper, learn_wrapper

SEED = 3


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        cli_main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.fixture(scope="module")
def small_site() -> Iterator[DemoSite]:
    with demo_site_in_thread(DemoConfig(seed=SEED, port=0, members=10, threads=50)) as s:
        yield s


@pytest.mark.browser
@pytest.mark.slow
def test_induce_then_supervised_crawl_on_demo(small_site: DemoSite, tmp_path: Path, capsys) -> None:
    site = small_site
    truth = build_truth(site.state.content, SITE_EPOCH)
    asyncio.run(login_storage_state(site, tmp_path / "state.json"))
    job = induction_job(tmp_path, site.url, truth, precrawl_pages=60)

    code, out, err = run_cli(["induce", str(job)], capsys)
    assert code == 0, err
    profile_path = tmp_path / "demo.profile.json"
    assert stat.S_IMODE(os.stat(profile_path).st_mode) == 0o644
    assert f"profile written to {profile_path}" in out
    assert "[target]" in out and "[directory]" in out and f"{site.url}/t/" in out
    profile = SiteProfile.load(profile_path)
    samples = json.loads((tmp_path / "samples.json").read_text())
    assert all(profile.is_target(s["url"]) for s in samples)
    assert not profile.is_target(f"{site.url}/u/{truth['members.json'][0]['name']}")
    assert {r.label for r in profile.wrapper.rules} == set(samples[0]["values"])

    code, out, err = run_cli(["crawl", "-q", str(job)], capsys)
    assert code == 0, err
    summary = json.loads(out)
    assert summary["failed"] == 0 and summary["queued_left"] == 0

    scores = score_records(tmp_path / "demo.db", site.url, truth, profile)
    figures = scores.as_dict()
    print("demo induction figures:", json.dumps(figures))
    assert scores.target_precision >= 0.95, figures
    assert scores.target_recall >= 0.95, figures
    assert scores.field_micro.f1 >= 0.95, figures
    assert all(c.f1 >= 0.95 for c in scores.fields.values()), figures

    conn = sqlite3.connect(tmp_path / "demo.db")
    try:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(records)")]
        assert cols[0] == "url" and cols[-1] == "extracted_at"
        assert set(cols[1:-1]) == set(samples[0]["values"])
        tags, author_url = conn.execute(
            "SELECT tags, author_url FROM records WHERE url = ?", (samples[0]["url"],)
        ).fetchone()
        assert json.loads(tags) == samples[0]["values"]["tags"]  # repeated field: a JSON list
        assert author_url == samples[0]["values"]["author_url"]  # absolute, resolved on the page URL
        # Supervision: only the seed and URLs of the target/directory classes were fetched, and
        # only from pages whose tunneling weight was within the threshold.
        weights = dict(conn.execute("SELECT url, weight FROM induction_weights"))
        rows = conn.execute("SELECT f.url, f.parent FROM frontier f WHERE f.parent IS NOT NULL").fetchall()
        assert rows
        for child, parent in rows:
            assert profile.should_follow(child), child
            assert weights[parent] <= profile.weight_threshold, (parent, weights[parent])
        left_out = {u for c in profile.clusters if c.role == "other" for u in c.examples}
        left_out -= {f"{site.url}/"}  # the seed is fetched whatever its class
        assert left_out, "the profile should leave some URL classes out"
        stored = {r[0] for r in conn.execute("SELECT url FROM pages")}
        assert not stored & left_out
    finally:
        conn.close()


def test_wrapper_link_fields_resolve_against_the_page_url() -> None:
    w = Wrapper.from_json({"fields": {"a#href": "p > a", "imgs#src[]": "img"}})
    html = '<html><body><p><a href="/u/x">x</a></p><img src="i.png"><img src="https://o.example/j.png"></body></html>'
    assert w.apply(html) == {"a": "/u/x", "imgs": ["i.png", "https://o.example/j.png"]}
    assert w.apply(html, "http://h.example:81/t/3-x") == {
        "a": "http://h.example:81/u/x",
        "imgs": ["http://h.example:81/t/i.png", "https://o.example/j.png"],
    }
    with_base = html.replace("<body>", '<head><base href="https://cdn.example/a/"></head><body>')
    assert w.apply(with_base, "http://h.example/t/1")["a"] == "https://cdn.example/u/x"


def _thread(title: str, author: str, date: str) -> str:
    return (
        '<html><body><header><nav id="nav"><a href="/u/kevin">Me</a> <span class="who">as '
        '<span id="whoami">kevin</span></span></nav></header><main><article id="thread">'
        f'<h1>{title}</h1><p class="meta">by <a class="author" href="/u/{author}">{author}</a> '
        f"<time>{date}</time></p></article></main></body></html>"
    )


def test_wrapper_value_equal_on_both_samples_takes_the_node_near_the_record() -> None:
    """Both samples by the logged-in user: the header's name must not become the author field."""
    a, b = _thread("First", "kevin", "2024-01-01"), _thread("Second", "kevin", "2024-02-02")
    values = [
        {"title": t, "author": "kevin", "author_url": "/u/kevin", "posted": d}
        for t, d in (("First", "2024-01-01"), ("Second", "2024-02-02"))
    ]
    learned = learn_wrapper((a, b), (values[0], values[1]))
    assert not learned.warnings
    got = learned.wrapper.apply(_thread("Third", "ann", "2024-03-03"), "https://f.example/t/3")
    assert got == {
        "title": "Third", "author": "ann", "author_url": "https://f.example/u/ann", "posted": "2024-03-03"
    }
    assert [r.label for r in learned.wrapper.rules] == ["title", "author", "author_url", "posted"]


def test_field_scoring_counts() -> None:
    assert compare_value("A  b", "A b").tp == 1
    assert (compare_value("x", "y").fp, compare_value("x", "y").fn) == (1, 1)
    assert compare_value(None, None).__dict__ == {"tp": 0, "fp": 0, "fn": 0}
    c = compare_value('["a", "b", "b"]', ["b", "c"])  # JSON text from the records table, a multiset
    assert (c.tp, c.fp, c.fn) == (1, 2, 1)


# ---------------------------------------------------------------- bad input, through the CLI


def _job(tmp_path: Path, induction: str) -> Path:
    job = tmp_path / "site.toml"
    job.write_text(f'seeds = ["http://127.0.0.1:9/"]\n\n[output]\ndatabase = "x.db"\n\n{induction}\n')
    return job


SAMPLE = '{ url = "http://127.0.0.1:9/t/1-a", values = { title = "A" } }'


@pytest.mark.parametrize(
    ("command", "induction", "message"),
    [
        ("induce", "", "site.toml: no [induction] section"),
        ("induce", "[induction]\nprofile = 'p.json'", "site.toml: induction.samples: required for induce"),
        ("induce", f"[induction]\nsamples = [{SAMPLE}]", "induction.samples: give at least two sample"),
        ("induce", "[induction]\nsample = 'x.json'", "site.toml: induction.sample: unknown key"),
        ("induce", "[induction]\nkeywords = 'a && (b'", "site.toml: induction.keywords:"),
        ("induce", "[induction]\nprecrawl_pages = 1", "site.toml: induction.precrawl_pages:"),
        ("induce", "[induction]\nsamples = 'nope.json'", "nope.json: samples file not found"),
        ("induce", "[induction]\nentry = ['ftp://x/']", "site.toml: induction.entry:"),
        (
            "induce",
            f"[induction]\nsamples = [{SAMPLE.replace('title', 'url')}, {SAMPLE}]",
            "records table",
        ),
        ("crawl", "[induction]\nsupervised = true", "run `browsercrawl induce` first"),
        ("crawl", "[induction]\nprofile = 'bad.json'", "bad.json: not JSON"),
    ],
)
def test_bad_induction_input_is_one_line(command, induction, message, tmp_path, capsys) -> None:
    (tmp_path / "bad.json").write_text("{ nope")
    job = _job(tmp_path, induction)
    code, _, err = run_cli([command, str(job)], capsys)
    assert code == 2, err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_samples_file_names_file_and_key(tmp_path, capsys) -> None:
    (tmp_path / "s.json").write_text(json.dumps([{"url": "http://127.0.0.1:9/t/1", "values": {"a": "x"}}]))
    code, _, err = run_cli(["induce", str(_job(tmp_path, "[induction]\nsamples = 's.json'"))], capsys)
    assert code == 2 and "s.json: samples:" in err and err.count("\n") == 1
    (tmp_path / "s.json").write_text(json.dumps([{"url": "http://a/1"}, {"url": "http://a/2", "values": {}}]))
    code, _, err = run_cli(["induce", str(_job(tmp_path, "[induction]\nsamples = 's.json'"))], capsys)
    assert code == 2 and "s.json: samples.0.values: required key is missing" in err


@pytest.mark.browser
def test_induce_ignores_a_broken_old_profile_and_names_an_unreachable_entry(tmp_path, capsys) -> None:
    """Re-inducing must work over a broken profile; a dead entry page is a one-line error."""
    (tmp_path / "bad.json").write_text("{ nope")
    other = SAMPLE.replace("/t/1-a", "/t/2-b")
    induction = f"[induction]\nprofile = 'bad.json'\nsamples = [{SAMPLE}, {other}]"
    job = _job(tmp_path, induction + "\n\n[politeness]\nmax_retries = 0")
    code, _, err = run_cli(["induce", str(job)], capsys)
    assert code == 2, err
    assert "entry page http://127.0.0.1:9/ could not be fetched" in err and err.count("\n") == 1
    assert (tmp_path / "bad.json").read_text() == "{ nope"  # nothing written on failure
