"""The composition root: a job file's sections become parts, and parts become a crawl.

The one module (with ``browsercrawl/commands/``) that knows every part; the engine knows only
the part protocol (``engine/parts.py``).
"""

from __future__ import annotations

from collections.abc import Collection

from browsercrawl.config import JobConfig
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import Part
from browsercrawl.parts import REGISTRY


def build_parts(job: JobConfig, options: CrawlOptions, *, skip: Collection[str] = ()) -> list[Part]:
    """The parts the job's sections switch on, in registry order (``skip`` names parts to leave out)."""
    parts: list[Part] = []
    for spec in REGISTRY:
        section = spec.section(job)
        if section is None or spec.name in skip:
            continue
        part = spec.build(section, job, options)
        if part is not None:
            parts.append(part)
    return parts


def build_crawler(job: JobConfig, options: CrawlOptions) -> Crawler:
    """A crawler for ``job`` with every part its sections switch on."""
    return Crawler(job, options, build_parts(job, options))
