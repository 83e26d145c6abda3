"""The ``[induction]`` section with its paths resolved against the job file and its samples loaded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from browsercrawl.config import JobConfig
from browsercrawl.config.errors import format_validation_error
from browsercrawl.config.induction import InductionConfig, SamplesFile
from browsercrawl.errors import UserError
from browsercrawl.induction.pages import KeywordExpr


class InductionSettings:
    """What the induction part and ``induce`` need from the job: entry URLs, profile path, samples."""

    def __init__(self, job: JobConfig, config: InductionConfig, source: Path) -> None:
        self.job = job
        self.config = config
        self.source = source  # the job file, for error messages
        if config.keywords is not None:
            try:
                KeywordExpr(config.keywords)
            except UserError as exc:
                raise UserError(f"{source}: induction.keywords: {exc}") from None

    @property
    def entry_urls(self) -> list[str]:
        return list(self.config.entry or self.job.seeds)

    @property
    def profile_path(self) -> Path:
        return self.job.resolve(self.config.profile)

    @property
    def supervised(self) -> bool:
        """Explicit setting, else on exactly when a profile has been written."""
        if self.config.supervised is not None:
            return self.config.supervised
        return self.profile_path.is_file()

    def samples(self) -> list[tuple[str, dict[str, Any]]]:
        """The ``(url, values)`` pairs (two or more); a ``UserError`` names the job or samples file."""
        raw = self.config.samples
        if raw is None:
            raise UserError(
                f"{self.source}: induction.samples: required for induce"
                " (two or more target pages and their values)"
            )
        if isinstance(raw, str):
            return _load_samples_file(self.job.resolve(raw))
        return [(s.url, dict(s.values)) for s in raw]


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
        raise UserError(f"{path}: expected a list of two or more objects {{url, values}}")
    try:
        parsed = SamplesFile.model_validate({"samples": data})
    except ValidationError as exc:
        raise UserError(format_validation_error(path, exc)) from None
    return [(s.url, dict(s.values)) for s in parsed.samples]


def induction_settings(job: JobConfig, source: Path | None = None) -> InductionSettings | None:
    """The job's ``[induction]`` settings; None when the job has no such section."""
    if job.induction is None:
        return None
    return InductionSettings(job, job.induction, source or job.source_path)
