"""The ``[induction]`` section of a job file, validated here because the induction part owns it.

The engine hands the section over as a raw dict (``job.induction``); errors read like the rest of
the job file's, e.g. ``job.toml: induction.samples.1.url: required key is missing``. Paths (the
profile, a samples file) are relative to the job file's folder, like the database path.

    [induction]
    entry = ["https://forum.example/"]        # default: the job's seeds
    keywords = "tofu && !sponsored"           # optional topic expression for tunneling
    precrawl_pages = 300                      # pages the initialisation visits
    profile = "forum.profile.json"            # written by `induce`, read by `crawl`
    supervised = true                         # default: true when the profile exists
    samples = [                               # two target pages and the values wanted on them
      { url = "https://forum.example/t/1-a", values = { title = "A", tags = ["x", "y"] } },
      { url = "https://forum.example/t/2-b", values = { title = "B", tags = [] } },
    ]
    # or: samples = "samples.json"  (the same list of two {url, values} objects, as JSON)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from browsercrawl.config import JobConfig, _format_validation_error
from browsercrawl.errors import UserError
from browsercrawl.induction.pages import KeywordExpr

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
    def _keywords_parse(cls, expr: str | None) -> str | None:
        if expr is not None and expr.strip():
            try:
                KeywordExpr(expr)
            except UserError as exc:
                raise ValueError(str(exc)) from None
        return expr or None

    @field_validator("samples")
    @classmethod
    def _two_samples(cls, samples: list[Sample] | str | None) -> list[Sample] | str | None:
        if isinstance(samples, list) and len(samples) != 2:
            raise ValueError(f"give exactly two sample target pages, got {len(samples)}")
        return samples


class InductionJob:
    """The section with paths resolved against the job file and the samples loaded."""

    def __init__(self, job: JobConfig, config: InductionConfig, source: Path) -> None:
        self.job = job
        self.config = config
        self.source = source  # the job file, for error messages

    @property
    def entry_urls(self) -> list[str]:
        return list(self.config.entry or self.job.seeds)

    @property
    def profile_path(self) -> Path:
        p = Path(self.config.profile)
        return p if p.is_absolute() else self.job.base_dir / p

    @property
    def supervised(self) -> bool:
        """Explicit setting, else on exactly when a profile has been written."""
        if self.config.supervised is not None:
            return self.config.supervised
        return self.profile_path.is_file()

    def samples(self) -> list[tuple[str, dict[str, Any]]]:
        """The two ``(url, values)`` pairs; a ``UserError`` names the job or samples file."""
        raw = self.config.samples
        if raw is None:
            raise UserError(
                f"{self.source}: induction.samples: required for induce (two target pages and their values)"
            )
        if isinstance(raw, str):
            return _load_samples_file(self.job.base_dir / raw)
        return [(s.url, dict(s.values)) for s in raw]


class _SamplesFile(BaseModel):
    samples: list[Sample] = Field(min_length=2, max_length=2)


def _load_samples_file(path: Path) -> list[tuple[str, dict[str, Any]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: samples file not found") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read samples file ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: samples file is not JSON ({exc})") from None
    if not isinstance(data, list):
        raise UserError(f"{path}: expected a list of two objects {{url, values}}")
    try:
        parsed = _SamplesFile.model_validate({"samples": data})
    except ValidationError as exc:
        raise UserError(_format_validation_error(path, exc)) from None
    return [(s.url, dict(s.values)) for s in parsed.samples]


def induction_config(job: JobConfig, source: Path | None = None) -> InductionJob | None:
    """Validate ``job.induction``; None when the job has no ``[induction]`` section."""
    if job.induction is None:
        return None
    where = source or job.source_path
    try:
        config = InductionConfig.model_validate(job.induction)
    except ValidationError as exc:
        msg = _format_validation_error(where, exc)
        # Locations are relative to the section: name it like the rest of the job file does.
        raise UserError(msg.replace(f"{where}: ", f"{where}: induction.", 1)) from None
    return InductionJob(job, config, where)
