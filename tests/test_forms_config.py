"""The ``[search_forms]`` section: validated like every section, switched off without being removed."""

from __future__ import annotations

from pathlib import Path

import pytest

from browsercrawl.assemble import build_parts
from browsercrawl.config import parse_job
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.errors import UserError


def job(section: dict) -> object:
    return parse_job({"seeds": ["http://127.0.0.1:9/"], "search_forms": section}, Path("job.toml"))


def test_defaults_follow_the_paper() -> None:
    cfg = job({}).search_forms
    assert (cfg.max_rounds, cfg.min_candidates, cfg.template_share, cfg.noise_share) == (5, 5, 0.9, 0.05)
    assert cfg.max_form_depth == 3 and cfg.languages == ["en"]


@pytest.mark.parametrize("section, message", [
    ({"languages": ["xx"]}, "job.toml: search_forms.languages.0: Input should be"),
    ({"max_queries_per_site": 0}, "job.toml: search_forms.max_queries_per_site: Input should be greater"),
    ({"seed_terms": ["  "]}, "job.toml: search_forms.seed_terms: a seed term is empty"),
    ({"noise_share": 0.5, "template_share": 0.4}, "job.toml: search_forms: noise_share must be below"),
    ({"max_pages": 3}, "job.toml: search_forms.max_pages: unknown key"),
])
def test_bad_keys_are_one_line(section: dict, message: str) -> None:
    with pytest.raises(UserError) as err:
        job(section)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_enabled_false_leaves_the_part_out() -> None:
    assert [p.name for p in build_parts(job({}), CrawlOptions())] == ["search_forms"]
    assert build_parts(job({"enabled": False}), CrawlOptions()) == []
