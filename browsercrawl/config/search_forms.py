"""The ``[search_forms]`` section: find search forms, query them, crawl what only a search reaches.

    [search_forms]
    enabled = true                 # false: the section stays in the file, the part is off
    max_queries_per_site = 100     # every submitted query counts, the first probe included
    seed_terms = ["tofu", "miso"]  # added to each form's first round
    languages = ["en"]             # cue words (search, login...), stop words, CJK bigrams

The query rounds follow the deep-web crawler of the source papers: the pages holding a search
form are clustered, each cluster's top terms are the first queries, the top terms of a round's
result pages are the next ones; terms found on more than ``template_share`` of a round's result
pages (the site's template) or fewer than ``noise_share`` (noise) are dropped; a form's queries
stop after ``max_rounds`` rounds or when fewer than ``min_candidates`` terms are left.
Errors read like the rest of the job file's: ``job.toml: search_forms.languages.0: ...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from browsercrawl.config.errors import validate_section

Language = Literal["en", "de", "fr", "es", "it", "pt", "nl", "ru", "zh", "ja"]


class SearchFormsConfig(BaseModel):
    """The validated ``[search_forms]`` section."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    max_queries_per_site: int = Field(default=100, ge=1, le=1_000_000)
    seed_terms: list[str] = Field(default_factory=list)
    languages: list[Language] = Field(default_factory=lambda: ["en"], min_length=1)
    # the iteration
    max_rounds: int = Field(default=5, ge=1, le=100)
    min_candidates: int = Field(default=5, ge=1, description="fewer candidate terms left: stop")
    terms_per_round: int = Field(default=10, ge=1, description="queries per form and cluster per round")
    seed_terms_per_cluster: int = Field(default=5, ge=0)
    clusters: int | None = Field(
        default=None, ge=1, le=100, description="k of K-means; none: from the page count"
    )
    term_filter: bool = Field(default=True, description="drop template and noise terms")
    template_share: float = Field(default=0.9, gt=0, le=1)
    noise_share: float = Field(default=0.05, ge=0, lt=1)
    min_term_length: int = Field(default=3, ge=1, le=20)
    # where forms are taken from and when the first round starts
    max_form_depth: int = Field(default=3, ge=0, description="forms on deeper pages are not used")
    form_pages_before_queries: int = Field(
        default=30, ge=1, description="form pages seen before the first round (or when the crawl runs dry)"
    )
    # result pages
    max_result_pages: int = Field(default=10, ge=1, le=1000, description="pages followed per query")
    # what may be submitted, besides GET forms
    submit_post: bool = Field(default=True, description="POST search forms, in the browser")
    probe_script_boxes: bool = Field(
        default=True, description="learn what a search box without a form requests, by typing in it once"
    )

    @field_validator("seed_terms")
    @classmethod
    def _terms(cls, terms: list[str]) -> list[str]:
        out = []
        for t in terms:
            t = " ".join(t.split())
            if not t:
                raise ValueError("a seed term is empty")
            out.append(t)
        return out

    @model_validator(mode="after")
    def _shares(self) -> SearchFormsConfig:
        if self.noise_share >= self.template_share:
            raise ValueError("noise_share must be below template_share")
        return self


def parse_search_forms(raw: dict | None, source: str | Path) -> SearchFormsConfig:
    """Validate a ``[search_forms]`` section on its own (``<source>: search_forms.<key>: <problem>``)."""
    return validate_section(SearchFormsConfig, raw, source, "search_forms")
