"""Social part without a browser: [social] validation, the rate estimate, the choice of people to
revisit, and the recrawl command's one-line errors."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from browsercrawl_demo.social_job import demo_social_section

from browsercrawl.config.social import DAY, parse_social
from browsercrawl.errors import UserError
from browsercrawl.social.rate import estimate_rate, p_change
from browsercrawl.social.recrawl import Candidate, choose


def test_demo_section_is_valid_and_mixes_all_sources() -> None:
    cfg = parse_social(demo_social_section(), "job.toml")
    assert {r.source for r in cfg.relations} == {"embedded_json", "json_api", "dom"}
    assert {r.kind for r in cfg.relations} == {"follows", "followed_by"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"person_url": "/u/(["}, "job.toml: social.person_url: bad regex"),
        ({"person_url": None}, "job.toml: social: give person_url"),
        ({"colour": "red"}, "job.toml: social.colour: unknown key"),
        ({"relations": [{"kind": "likes", "source": "dom", "entries": "a", "fields": {"url": "@href"}}]},
         "job.toml: social.relations.0.kind:"),
        ({"relations": [{"kind": "follows", "source": "json_api", "fields": {"url": "url"}}]},
         "source 'json_api' needs 'url'"),
        ({"relations": [{"kind": "follows", "source": "dom", "entries": "a"}]}, "needs fields.url"),
        ({"clock_probe": []}, 'clock = "site" needs [social.clock_probe]'),
        ({"max_people": 0}, "job.toml: social.max_people: Input should be greater than or equal to 1"),
    ],
)
def test_bad_sections_give_one_line_naming_the_key(change: dict, message: str) -> None:
    section = {**demo_social_section(), **change}
    with pytest.raises(UserError) as err:
        parse_social(section, "job.toml")
    text = str(err.value)
    assert message in text and "\n" not in text and text.startswith("job.toml: social")


def test_rate_uses_prior_for_few_items_and_tends_to_count_over_window() -> None:
    now = 1_000 * DAY
    unknown = estimate_rate(0, None, now, now)  # nothing seen yet: prior mean, one item per week
    assert unknown == pytest.approx(1 / (7 * DAY))
    one_old = estimate_rate(1, now - 30 * DAY, now, now)
    one_new = estimate_rate(1, now - 1 * DAY, now, now)
    assert one_old < unknown < one_new  # a long silence lowers the rate, a fresh item raises it
    busy = estimate_rate(500, now - 50 * DAY, now - 50 * DAY, now)
    assert busy * DAY == pytest.approx(10, rel=0.15)  # ~ n / T for many items
    assert p_change(busy, 0) == 0.0
    assert p_change(1 / DAY, DAY) == pytest.approx(1 - math.exp(-1))


def test_policy_picks_highest_change_probability_random_is_seeded() -> None:
    now = 100 * DAY
    people = [Candidate(f"p{i}", f"http://x/u/p{i}", rate=i / DAY, last_visit=now - DAY, depth=1)
              for i in range(10)]
    stale = Candidate("stale", "http://x/u/stale", rate=0.5 / DAY, last_visit=now - 30 * DAY, depth=1)
    chosen = choose([*people, stale], 3, "policy", now)
    assert [c.id for c in chosen] == ["stale", "p9", "p8"]  # 30 quiet days at 0.5/day beat 1 day at 8/day
    a = [c.id for c in choose(list(reversed(people)), 4, "random", now, seed=3)]
    b = [c.id for c in choose(people, 4, "random", now, seed=3)]
    assert a == b and len(set(a)) == 4


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "browsercrawl", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60)


def test_recrawl_cli_bad_input(tmp_path: Path) -> None:
    job = tmp_path / "job.toml"
    job.write_text('seeds = ["http://127.0.0.1:9/u/a"]\n[output]\ndatabase = "c.db"\n'
                   '[social]\nperson_url = "/u/(["\n')
    r = _run("recrawl", str(job), "--budget", "3", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert f"{job}: social.person_url: bad regex" in r.stderr

    job.write_text('seeds = ["http://127.0.0.1:9/u/a"]\n[output]\ndatabase = "c.db"\n')
    r = _run("recrawl", str(job), "--budget", "3", cwd=tmp_path)
    assert r.returncode == 2 and "no [social] section" in r.stderr

    job.write_text('seeds = ["http://127.0.0.1:9/u/a"]\n[output]\ndatabase = "c.db"\n[social]\n'
                   'person_url = "/u/([^/]+)"\n[[social.relations]]\nkind = "follows"\nsource = "dom"\n'
                   'entries = "a.member"\nfields = {url = "@href"}\n')
    r = _run("recrawl", str(job), "--budget", "0", cwd=tmp_path)
    assert r.returncode == 2 and "--budget must be >= 1" in r.stderr
    r = _run("recrawl", str(job), "--budget", "2", cwd=tmp_path)
    assert r.returncode == 2 and "c.db: database not found" in r.stderr and "Traceback" not in r.stderr

    r = _run("export", str(tmp_path / "missing.db"), "--graph", "g.graphml", cwd=tmp_path)
    assert r.returncode == 2 and "database not found" in r.stderr
