"""The job file: one TOML document that says what to crawl and how, validated before anything runs.

Validation errors become one line naming the file, the key and the problem, e.g.
``job.toml: politeness.delay_seconds: Input should be greater than or equal to 0``.
The smallest valid job is ``seeds = [...]`` plus ``[output] database = "crawl.db"``.
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from browsercrawl.config.ajax import AjaxConfig
from browsercrawl.config.distributed import DistributedConfig
from browsercrawl.config.errors import check_regex, format_validation_error
from browsercrawl.config.focus import FocusConfig
from browsercrawl.config.induction import InductionConfig
from browsercrawl.config.search_forms import SearchFormsConfig
from browsercrawl.config.session import SessionConfig
from browsercrawl.config.social import SocialConfig
from browsercrawl.config.traps import TrapsConfig
from browsercrawl.config.values import check_http_url, check_selector
from browsercrawl.errors import UserError

RESOURCE_TYPES = ("image", "font", "media", "stylesheet", "script", "xhr", "fetch", "websocket")
WAIT_UNTIL = ("load", "domcontentloaded", "networkidle", "commit")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScopeConfig(_Section):
    """Which URLs the crawl may follow."""

    mode: Literal["same-host", "same-hostname", "same-domain", "any"] = Field(
        default="same-host",
        description="same-host: the seeds' scheme, host and port; same-hostname: any port",
    )
    allow: list[str] = Field(
        default_factory=list, description="regexes; if given, a URL must match one"
    )
    deny: list[str] = Field(
        default_factory=list, description="regexes; a URL matching one is skipped"
    )
    max_depth: int | None = Field(default=None, ge=0)
    max_pages: int | None = Field(default=None, ge=1)
    ip_ranges: list[str] = Field(
        default_factory=list, description="CIDR networks; a host must resolve inside one of them"
    )
    languages: list[str] = Field(
        default_factory=list, description="ISO 639-1 codes; pages in other languages are skipped"
    )
    stop_navigations: bool = Field(
        default=True,
        description="rendered pages: stop a redirect or script navigation out of the scope before "
        "the other server gets a request (true), or only refuse to store where it landed (false: "
        "no request interception, a few % more pages/s; not with ip_ranges)",
    )

    @model_validator(mode="after")
    def _ip_ranges_need_the_stop(self) -> ScopeConfig:
        if self.ip_ranges and not self.stop_navigations:
            raise ValueError("stop_navigations = false cannot hold with ip_ranges: a redirect would "
                             "reach an address outside them before it could be refused")
        return self

    @field_validator("ip_ranges")
    @classmethod
    def _networks_parse(cls, ranges: list[str]) -> list[str]:
        for r in ranges:
            try:
                ipaddress.ip_network(r, strict=False)
            except ValueError:
                raise ValueError(f"{r!r} is not an IP network (e.g. 127.0.0.0/8 or ::1/128)") from None
        return ranges

    @field_validator("languages")
    @classmethod
    def _language_codes(cls, codes: list[str]) -> list[str]:
        for c in codes:
            if not re.fullmatch(r"[a-zA-Z]{2,3}", c):
                raise ValueError(f"{c!r} is not a language code (ISO 639-1, e.g. 'en', 'de')")
        return [c.lower() for c in codes]

    @field_validator("allow", "deny")
    @classmethod
    def _regexes_compile(cls, patterns: list[str]) -> list[str]:
        for p in patterns:
            check_regex(p)
        return patterns


class PolitenessConfig(_Section):
    """How hard each host is hit."""

    concurrency: int = Field(default=8, ge=1, le=256, description="pages in flight over all hosts")
    per_host_concurrency: int = Field(default=4, ge=1, le=256)
    delay_seconds: float = Field(
        default=0.0, ge=0, description="minimum gap between requests to a host"
    )
    obey_robots: bool = True
    robots_user_agent: str = "browsercrawl"
    max_retries: int = Field(default=3, ge=0, le=20)
    retry_backoff_seconds: float = Field(default=1.0, ge=0)
    max_retry_after_seconds: float = Field(default=300.0, ge=0)


class RenderingConfig(_Section):
    """How pages are fetched: in the browser, over plain HTTP, or chosen per URL shape."""

    mode: Literal["browser", "http", "auto"] = "browser"
    wait_until: Literal["load", "domcontentloaded", "networkidle", "commit"] | None = Field(
        default=None, description="goto's wait; unset: wait until the page is done (engine/settle.py)"
    )
    wait_for_selector: str | None = None
    timeout_seconds: float = Field(default=30.0, gt=0)
    settle_cap_seconds: float = Field(
        default=10.0, gt=0, le=600, description="the default wait's cap (within timeout_seconds)"
    )
    settle_quiet_ms: int = Field(
        default=300, ge=50, le=10_000, description="no request, timer or DOM change for this long = done"
    )
    settle_learn_pages: int = Field(
        default=3, ge=1, le=100, description="finished pages of a URL shape before its wait is learned"
    )
    block: list[str] = Field(default_factory=lambda: ["image", "font", "media"])
    pages_per_context: int = Field(
        default=1000, ge=1, description="recycle a context after this many pages"
    )
    uses_per_page: int = Field(default=200, ge=1, description="reopen a tab after this many pages")
    gc_every_pages: int = Field(
        default=10,
        ge=0,
        description="force a full garbage collection in a tab's renderer after this many pages (0: never)",
    )
    contexts: int = Field(default=1, ge=1, le=32)
    user_agent: str | None = None
    auto_sample_pages: int = Field(
        default=3, ge=1, description="pages per URL shape compared in auto mode"
    )
    auto_recheck_every: int = Field(
        default=50, ge=0, description="re-render the Nth static page, then at doubling intervals (0 = never)"
    )
    api_shortcut: bool = Field(
        default=True,
        description="auto mode: build the pages of a JavaScript URL shape from its JSON over HTTP "
        "once learned from renders (engine/api_shortcut.py)",
    )
    api_shortcut_samples: int = Field(
        default=5, ge=2, le=20, description="most renders of a URL shape the API shortcut learns from "
        "(it stops at 3 when the first two predict the third)"
    )

    @field_validator("wait_for_selector")
    @classmethod
    def _selector_parses(cls, selector: str | None) -> str | None:
        return check_selector(selector)
    @property
    def settles(self) -> bool:
        """Does the default wait (until the page is done) apply? Not when the job names a wait."""
        return self.wait_until is None and not self.wait_for_selector

    @property
    def goto_wait(self) -> Literal["load", "domcontentloaded", "networkidle", "commit"]:
        """What ``goto`` waits for: the job's ``wait_until``, else DOMContentLoaded (the rest is
        the snapshot's wait, which also waits for the load event when it settles)."""
        return self.wait_until or ("domcontentloaded" if self.wait_for_selector is None else "load")

    @field_validator("block")
    @classmethod
    def _known_types(cls, types: list[str]) -> list[str]:
        for t in types:
            if t not in RESOURCE_TYPES:
                raise ValueError(
                    f"unknown resource type {t!r} (known: {', '.join(RESOURCE_TYPES)})"
                )
        return types


class BrowserConfig(_Section):
    """Which Chromium and how it is shown."""

    executable: str | None = None
    headless: bool = True
    slow_mo_ms: float = Field(default=0, ge=0)
    extra_args: list[str] = Field(default_factory=list)
    user_agent: str | None = Field(
        default=None, description="every context's user agent; default: the installed Chromium's headed one"
    )


class OutputConfig(_Section):
    database: str = "crawl.db"
    store_html: bool = True
    search_index: bool = True  # full-text index kept in each page's transaction (docs/search.md)


class JobConfig(BaseModel):
    """A whole job file. Paths inside it are relative to the file's folder."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    seeds: list[str] = Field(min_length=1)
    scope: ScopeConfig = Field(default_factory=ScopeConfig)
    politeness: PolitenessConfig = Field(default_factory=PolitenessConfig)
    rendering: RenderingConfig = Field(default_factory=RenderingConfig)
    browser: BrowserConfig = Field(default_factory=BrowserConfig)
    output: OutputConfig = Field(default_factory=OutputConfig)
    traps: TrapsConfig = Field(default_factory=TrapsConfig)
    distributed: DistributedConfig | None = None
    # The optional parts' sections; a part is switched on by its section being present.
    session: SessionConfig | None = None
    ajax: AjaxConfig | None = None
    induction: InductionConfig | None = None
    social: SocialConfig | None = None
    search_forms: SearchFormsConfig | None = None
    focus: FocusConfig | None = None

    base_dir: Path = Field(default=Path("."), exclude=True)
    source_path: Path = Field(default=Path("job.toml"), exclude=True)  # named in later errors

    @field_validator("seeds")
    @classmethod
    def _seeds_are_http(cls, seeds: list[str]) -> list[str]:
        for s in seeds:
            check_http_url(s, "seed")
        return seeds

    @property
    def database_path(self) -> Path:
        return self.resolve(self.output.database)

    @property
    def crawl_name(self) -> str:
        """The crawl's name in a shared frontier: ``[distributed] crawl``, the job's name, its file."""
        if self.distributed is not None and self.distributed.crawl:
            return self.distributed.crawl
        return re.sub(r"[^A-Za-z0-9_.-]", "_", self.name or self.source_path.stem)[:100]

    def resolve(self, path: str | Path) -> Path:
        """A path written in the job file, relative to the job file's folder."""
        p = Path(path)
        return p if p.is_absolute() else self.base_dir / p


def parse_job(data: dict, path: Path) -> JobConfig:
    """Validate an already-parsed job document; errors name ``path`` and the key."""
    try:
        job = JobConfig.model_validate(data)
    except ValidationError as exc:
        raise UserError(format_validation_error(path, exc)) from None
    job.base_dir = path.parent
    job.source_path = path
    if job.session is not None:
        job.session.base_dir = path.parent
    return job


def load_job(path: str | Path) -> JobConfig:
    """Read and validate a TOML job file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{path}: job file not found") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read job file: {exc.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UserError(f"{path}: job file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML: {exc}") from None
    return parse_job(data, path)
