"""The ``[induction]`` section of a job file.

Errors read like the rest of the job file's, e.g. ``job.toml: induction.samples.1.url: required
key is missing``. Paths (the profile, a samples file) are relative to the job file's folder, like
the database path. The keyword expression is checked by the induction part, which parses it.

    [induction]
    entry = ["https://forum.example/"]        # default: the job's seeds
    keywords = "tofu && !sponsored"           # optional topic expression for tunneling
    precrawl_pages = 300                      # pages the initialisation visits
    profile = "forum.profile.json"            # written by `induce`, read by `crawl`
    supervised = true                         # default: true when the profile exists
    samples = [                               # two or more target pages and the values wanted on them
      { url = "https://forum.example/t/1-a", values = { title = "A", tags = ["x", "y"] } },
      { url = "https://forum.example/t/2-b", values = { title = "B", tags = [] } },
    ]
    # or: samples = "samples.json"  (the same list of {url, values} objects, as JSON)
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

# Columns of the records table that a label must not shadow.
RESERVED_COLUMNS = ("url", "extracted_at")
ValueSpec = str | int | float | list[str | int | float] | None


class Sample(BaseModel):
    """One sample target page and ``label -> value | [values] | null`` (null: absent there)."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(pattern=r"^https?://[^/\s]+")
    values: dict[str, ValueSpec] = Field(min_length=1)

    @field_validator("values")
    @classmethod
    def _labels(cls, values: dict[str, Any]) -> dict[str, Any]:
        for label in values:
            if not label.strip() or "#" in label:
                raise ValueError(f"label {label!r} must be non-empty and without '#'")
            if label in RESERVED_COLUMNS:
                raise ValueError(f"label {label!r} is a column of the records table; rename it")
        return values


class InductionConfig(BaseModel):
    """The validated ``[induction]`` section."""

    model_config = ConfigDict(extra="forbid")

    entry: list[str] | None = None
    keywords: str | None = None
    samples: list[Sample] | str | None = None
    precrawl_pages: int = Field(default=300, ge=2, le=1_000_000)
    profile: str = "site-profile.json"
    supervised: bool | None = None

    @field_validator("entry")
    @classmethod
    def _entry_urls(cls, urls: list[str] | None) -> list[str] | None:
        if urls is not None:
            if not urls:
                raise ValueError("give at least one entry URL (or leave the key out to use the seeds)")
            for u in urls:
                if not u.startswith(("http://", "https://")):
                    raise ValueError(f"entry {u!r} is not an http(s) URL")
        return urls

    @field_validator("keywords")
    @classmethod
    def _keywords_blank_is_none(cls, expr: str | None) -> str | None:
        return expr if expr and expr.strip() else None

    @field_validator("samples")
    @classmethod
    def _two_or_more_samples(cls, samples: list[Sample] | str | None) -> list[Sample] | str | None:
        # Two pages are the least the learner can tell stable context from coincidence with;
        # every further page only removes coincidences, so there is no upper bound.
        if isinstance(samples, list):
            _check_samples(samples)
        return samples


def _check_samples(samples: list[Sample]) -> None:
    """At least two samples, each URL once (a repeated page adds nothing and hides a typo)."""
    if len(samples) < 2:
        raise ValueError(f"give at least two sample target pages, got {len(samples)}")
    seen: set[str] = set()
    for s in samples:
        if s.url in seen:
            raise ValueError(f"sample URL {s.url} is given twice")
        seen.add(s.url)


class SamplesFile(BaseModel):
    """A samples file (``samples = "samples.json"``): the same list of ``{url, values}`` objects."""

    samples: list[Sample]

    @field_validator("samples")
    @classmethod
    def _two_or_more_samples(cls, samples: list[Sample]) -> list[Sample]:
        _check_samples(samples)
        return samples
