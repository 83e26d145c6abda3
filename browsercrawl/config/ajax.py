"""The ``[ajax]`` job section: per-URL-pattern rules for waiting, expanding and exploring pages.

Problems read like every job-file error (``job.toml: ajax.rules.0.scroll: ...``).
Rules are tried in order; the first whose ``match`` regex finds the URL applies, so put specific
patterns before general ones. A page no rule matches is left as the engine loaded it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from browsercrawl.config.errors import check_regex, validate_section
from browsercrawl.config.values import check_selector

WAITS = ("load", "domcontentloaded", "networkidle", "selector", "dom-stable")

# Never clicked, whatever a rule says: words on buttons that change the site or the session.
DEFAULT_DENY_TEXTS = [
    "delete", "remove", "destroy", "erase", "log out", "logout", "sign out", "signout", "log off",
    "follow", "unfollow", "like", "unlike", "vote", "upvote", "downvote", "report", "flag",
    "block", "unblock", "ban", "mute", "buy", "pay", "purchase", "checkout", "order", "donate",
    "subscribe", "unsubscribe", "submit", "send", "reply", "post", "publish", "save", "share",
    "accept", "confirm", "approve", "reject", "archive", "join", "leave", "kick", "invite",
]
DEFAULT_DENY_SELECTORS = [
    "[type=submit]", "form[method=post i] *", ".danger", ".destructive", "[data-confirm]",
    "[data-method]", "[data-turbo-method]", "[download]", "input[type=file]",
]
DEFAULT_CANDIDATES = (
    "[role=tab], [aria-expanded], [aria-controls], summary, a[href='#'], a[href^='#'], "
    "a[href^='javascript:'], [role=button], button, [data-toggle], [data-bs-toggle]"
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExploreConfig(_Model):
    """Bounded clicking through URL-less states (tabs, toggles, ``href="#"`` links)."""

    max_clicks: int = Field(default=20, ge=1, le=1000)
    max_states: int = Field(default=10, ge=1, le=1000)
    candidates: str = DEFAULT_CANDIDATES
    settle_ms: int = Field(default=300, ge=0, le=60_000, description="DOM quiet time after a click")
    store_html: bool = True


class RecycledListConfig(_Model):
    """A list that recycles its rows (virtual scrolling): read while scrolling, merged by ``key``."""

    container: str = Field(default="window", description="the scrolling element's CSS, or 'window'")
    entries: str = Field(description="CSS of one row")
    fields: dict[str, str] = Field(default_factory=lambda: {"url": "@href", "text": ""},
                                   description="name -> 'css', 'css@attr' or '@attr' within a row")
    key: str | None = Field(default="url", description="the field that identifies a row (None: all)")
    max_entries: int = Field(default=10_000, ge=1)
    settle_ms: int = Field(default=800, ge=0, le=60_000, description="at the end: wait this long for more")

    @field_validator("entries")
    @classmethod
    def _entries_parse(cls, v: str) -> str:
        return check_selector(v)  # type: ignore[return-value]

    @field_validator("container")
    @classmethod
    def _container_parses(cls, v: str) -> str:
        return v if v == "window" else check_selector(v)  # type: ignore[return-value]

    @model_validator(mode="after")
    def _key_is_a_field(self) -> RecycledListConfig:
        if self.key is not None and self.key not in self.fields:
            raise ValueError(f"key {self.key!r} is not one of the fields ({', '.join(self.fields)})")
        return self


class AjaxRule(_Model):
    """What to do with the pages whose URL ``match`` finds."""

    match: str
    wait: Literal["load", "domcontentloaded", "networkidle", "selector", "dom-stable"] = "load"
    selector: str | None = Field(default=None, description="for wait = 'selector'")
    stable_ms: int = Field(default=500, ge=50, le=60_000, description="for wait = 'dom-stable'")
    wait_cap_seconds: float = Field(default=10.0, gt=0, le=600, description="cap on any wait")
    budget_seconds: float = Field(default=30.0, gt=0, le=3600, description="hard cap per page")
    scroll: int = Field(default=0, ge=0, le=10_000, description="max infinite-scroll rounds; 0 = off")
    load_more: str | None = Field(default=None, description="CSS selector or 'auto'")
    max_load_more: int = Field(default=200, ge=1, le=100_000, description="max load-more clicks")
    idle_ms: int = Field(default=1500, ge=50, le=60_000, description="no new content for this long = done")
    item_selector: str | None = Field(default=None, description="counts items before/after expansion")
    done_selector: str | None = Field(
        default=None, description="present = nothing more to scroll/load (saves the idle wait)"
    )
    explore: ExploreConfig | None = None
    recycled: RecycledListConfig | None = None

    _rx: re.Pattern[str] | None = None

    @field_validator("match")
    @classmethod
    def _match_compiles(cls, v: str) -> str:
        return check_regex(v)  # type: ignore[return-value]

    @field_validator("selector", "item_selector", "done_selector")
    @classmethod
    def _selectors_parse(cls, v: str | None) -> str | None:
        return check_selector(v)

    @field_validator("load_more")
    @classmethod
    def _load_more_parses(cls, v: str | None) -> str | None:
        return v if v is None or v == "auto" or not v.strip() else check_selector(v)

    @field_validator("explore", mode="before")
    @classmethod
    def _explore_shorthand(cls, v: object) -> object:
        if v is True:
            return {}
        if v is False:
            return None
        return v

    @model_validator(mode="after")
    def _selector_needed(self) -> AjaxRule:
        if self.wait == "selector" and not self.selector:
            raise ValueError("wait = 'selector' needs a selector")
        if self.load_more is not None and not self.load_more.strip():
            raise ValueError("load_more must be a CSS selector or 'auto'")
        self._rx = re.compile(self.match)
        return self

    def matches(self, url: str) -> bool:
        assert self._rx is not None
        return self._rx.search(url) is not None

    @property
    def expands(self) -> bool:
        return bool(self.scroll or self.load_more or self.explore or self.recycled)


class CaptureRule(_Model):
    """Which XHR/fetch JSON responses to store, and what in them feeds the frontier."""

    match: str
    methods: list[str] = Field(default_factory=lambda: ["GET", "POST"])
    follow_urls: bool = Field(default=True, description="enqueue URL-valued fields of the JSON")
    url_keys: list[str] = Field(
        default_factory=lambda: ["url", "href", "link", "permalink"],
        description="keys whose values are URLs (keys ending in _url always count)",
    )
    id_key: str = "id"
    id_url: str | None = Field(default=None, description="template like '/t/{id}': ids become URLs")
    max_body_bytes: int = Field(default=2_000_000, ge=1)

    _rx: re.Pattern[str] | None = None

    @field_validator("match")
    @classmethod
    def _match_compiles(cls, v: str) -> str:
        return check_regex(v)  # type: ignore[return-value]

    @field_validator("id_url")
    @classmethod
    def _template_has_id(cls, v: str | None) -> str | None:
        if v is not None and "{id}" not in v:
            raise ValueError(f"id_url {v!r} must contain {{id}}")
        return v

    @model_validator(mode="after")
    def _compile(self) -> CaptureRule:
        self.methods = [m.upper() for m in self.methods]
        self._rx = re.compile(self.match)
        return self

    def matches(self, url: str, method: str) -> bool:
        assert self._rx is not None
        return method.upper() in self.methods and self._rx.search(url) is not None


class AjaxConfig(_Model):
    rules: list[AjaxRule] = Field(default_factory=list)
    capture: list[CaptureRule] = Field(default_factory=list)
    # What is never clicked, by load-more or exploration (links that navigate never are either).
    deny_texts: list[str] = Field(default_factory=lambda: list(DEFAULT_DENY_TEXTS))
    deny_selectors: list[str] = Field(default_factory=lambda: list(DEFAULT_DENY_SELECTORS))
    extra_deny_texts: list[str] = Field(default_factory=list, description="added to deny_texts")
    extra_deny_selectors: list[str] = Field(default_factory=list, description="added to deny_selectors")
    block_mutations: bool = Field(
        default=True,
        description="while expanding/exploring, the page's own non-GET fetch/XHR/form submits are refused",
    )

    @property
    def all_deny_texts(self) -> list[str]:
        return [*self.deny_texts, *self.extra_deny_texts]

    @property
    def all_deny_selectors(self) -> list[str]:
        return [*self.deny_selectors, *self.extra_deny_selectors]

    def rule_for(self, url: str) -> AjaxRule | None:
        for rule in self.rules:
            if rule.matches(url):
                return rule
        return None

    def capture_for(self, url: str, method: str) -> CaptureRule | None:
        for rule in self.capture:
            if rule.matches(url, method):
                return rule
        return None


def parse_ajax(data: dict | None, path: str | Path = "job.toml") -> AjaxConfig:
    """Validate an ``[ajax]`` section on its own; errors read ``<path>: ajax.<key>: <problem>``."""
    return validate_section(AjaxConfig, data, path, "ajax")
