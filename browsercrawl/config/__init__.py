"""The job file: one TOML document that says what to crawl and how, validated before anything runs.

One module per section: the engine's own (``job.py``: seeds, scope, politeness, rendering, browser,
output) and each optional part's (``session.py``, ``ajax.py``, ``induction.py``, ``social.py``).
Every validation error is one line from :func:`browsercrawl.config.errors.format_validation_error`.
"""

from browsercrawl.config.job import (
    BrowserConfig,
    JobConfig,
    OutputConfig,
    PolitenessConfig,
    RenderingConfig,
    ScopeConfig,
    load_job,
    parse_job,
)

__all__ = [
    "BrowserConfig",
    "JobConfig",
    "OutputConfig",
    "PolitenessConfig",
    "RenderingConfig",
    "ScopeConfig",
    "load_job",
    "parse_job",
]
