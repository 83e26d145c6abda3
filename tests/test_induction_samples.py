"""The job file's ``[induction] samples``: two or more pages, inline or in a JSON file.

Every further sample only removes coincidences from the learned context, so the job file takes
as many as the user has; one sample, or one URL given twice, is a one-line error naming the key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browsercrawl.config.job import load_job
from browsercrawl.errors import UserError
from browsercrawl.induction.precrawl import HtmlPageSource, induce
from browsercrawl.induction.settings import induction_settings
from tests.test_induction_precrawl import SITE, TRUTH, H, field_f1


def _job(tmp_path: Path, induction: str) -> Path:
    job = tmp_path / "site.toml"
    job.write_text(
        f'seeds = ["http://127.0.0.1:9/"]\n\n[output]\ndatabase = "x.db"\n\n[induction]\n{induction}\n'
    )
    return job


def _inline(n: int) -> str:
    rows = ", ".join(
        f'{{ url = "http://127.0.0.1:9/t/{i}-a", values = {{ title = "T{i}" }} }}' for i in range(n)
    )
    return f"samples = [{rows}]"


def _samples(job: Path) -> list[tuple[str, dict]]:
    settings = induction_settings(load_job(job), job)
    assert settings is not None
    return settings.samples()


@pytest.mark.parametrize("n", [2, 3, 5])
def test_inline_samples_take_two_or_more(tmp_path: Path, n: int) -> None:
    got = _samples(_job(tmp_path, _inline(n)))
    assert [u for u, _ in got] == [f"http://127.0.0.1:9/t/{i}-a" for i in range(n)]
    assert got[-1][1] == {"title": f"T{n - 1}"}


def test_samples_file_takes_more_than_two(tmp_path: Path) -> None:
    rows = [
        {"url": f"http://127.0.0.1:9/t/{i}", "values": {"title": f"T{i}", "tags": ["a"]}} for i in range(4)
    ]
    (tmp_path / "s.json").write_text(json.dumps(rows))
    got = _samples(_job(tmp_path, "samples = 's.json'"))
    assert len(got) == 4 and got[3] == ("http://127.0.0.1:9/t/3", {"title": "T3", "tags": ["a"]})


def test_one_sample_or_a_repeated_url_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(
        UserError, match=r"induction\.samples: .*give at least two sample target pages, got 1"
    ):
        load_job(_job(tmp_path, _inline(1)))
    twice = _inline(2).replace("t/1-a", "t/0-a")
    with pytest.raises(UserError, match=r"sample URL http://127\.0\.0\.1:9/t/0-a is given twice") as exc:
        load_job(_job(tmp_path, twice))
    assert "\n" not in str(exc.value)
    (tmp_path / "s.json").write_text(json.dumps([{"url": "http://a/1", "values": {"t": "x"}}] * 2))
    with pytest.raises(UserError, match=r"s.json: samples: .*given twice"):
        _samples(_job(tmp_path, "samples = 's.json'"))


async def test_induce_learns_from_three_samples() -> None:
    """Three sample pages reach the learner and give a wrapper as good as two do."""
    urls = sorted(TRUTH)[:3]
    profile, _, warnings = await induce(
        HtmlPageSource(SITE), [f"{H}/"], [(u, TRUTH[u]) for u in urls], max_pages=120
    )
    assert warnings == []
    assert profile.wrapper is not None and field_f1(profile) >= 0.95
