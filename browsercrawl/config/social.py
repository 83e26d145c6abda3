"""The ``[social]`` job section: how to recognise people, where their relation lists and items live.

A mistake is reported as one line naming the key, e.g. ``job.toml: social.person_url: bad regex ...``.
Every list (a relation list, a person's items, the clock probe) is described by the same
:class:`ListSource`, because real sites mix the three ways a list reaches the page: JSON embedded in
a script, a paged JSON endpoint the page's code calls, or DOM rendered behind tabs and "more" buttons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from browsercrawl.config.errors import check_regex, validate_section

RelationKind = Literal["follows", "followed_by", "friends"]
DAY = 86400.0


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ListSource(_Strict):
    """One way to read a list of entries (people or items) from a person's page.

    ``fields`` maps an output name to where it is in one entry: a dotted JSON path for the JSON
    sources (``"user.url"``), or ``"css@attr"`` / ``"css"`` (text) / ``"@attr"`` (the entry itself)
    for ``dom``. Relation entries need ``url`` (or ``name``/``id`` plus ``social.person_template``);
    items use ``id``, ``time`` and ``text`` (other names are kept as extra data).
    """

    source: Literal["json_api", "embedded_json", "dom"]
    fields: dict[str, str] = Field(default_factory=dict)
    # json_api: URL template relative to the page; {id}, {page} and any person field, e.g. {name}
    url: str | None = None
    first_page: int = Field(default=1, ge=0)
    next_path: str | None = Field(default=None, description="JSON path of the next page; null ends")
    max_pages: int = Field(default=50, ge=1, description="safety cap on pages read per list")
    # json_api and embedded_json: where the list is in the document ("" = the document itself)
    list_path: str = ""
    # embedded_json: the <script> element(s) holding JSON
    script: str | None = None
    # dom: click ``tab`` first, then ``more`` while it is visible, then read ``entries``
    tab: str | None = None
    more: str | None = None
    entries: str | None = None
    done: str | None = Field(default=None, description="selector present once the list is complete")
    # dom, a list that recycles its rows (virtual scrolling): its scrolling container ("window" for
    # the page itself); entries are then read while scrolling and merged, up to max_entries
    scroll: str | None = None
    max_entries: int = Field(default=10_000, ge=1)
    settle_ms: int = Field(default=800, ge=0, description="no change for this long = list loaded")
    timeout_ms: int = Field(default=20000, ge=100)

    @model_validator(mode="after")
    def _needs(self) -> ListSource:
        need = {"json_api": ("url",), "embedded_json": ("script",), "dom": ("entries",)}[self.source]
        for key in need:
            if not getattr(self, key):
                raise ValueError(f"source {self.source!r} needs {key!r}")
        return self


class RelationSource(ListSource):
    """A list of people related to the page's person; ``kind`` says which way the edge points."""

    kind: RelationKind

    @model_validator(mode="after")
    def _has_person(self) -> RelationSource:
        if not ({"url", "name", "id"} & set(self.fields)):
            raise ValueError("a relation source needs fields.url (or fields.name / fields.id)")
        return self


class ItemSource(ListSource):
    """A person's items (status posts): ``fields.time`` gives the timestamps the revisit rate uses."""

    @model_validator(mode="after")
    def _has_time(self) -> ItemSource:
        if "time" not in self.fields:
            raise ValueError("an item source needs fields.time")
        return self


class ProbeSource(ListSource):
    """Where the site's current time shows (``clock = "site"``): newest ``fields.time`` = now.

    ``page`` is the URL (relative to the first seed) opened before a recrawl to read it.
    """

    page: str = "/"

    @model_validator(mode="after")
    def _has_time(self) -> ProbeSource:
        if "time" not in self.fields:
            raise ValueError("the clock probe needs fields.time")
        return self


class SocialConfig(_Strict):
    """The validated ``[social]`` section."""

    person_url: str | None = Field(default=None, description="regex; group id_group = canonical id")
    profile: str | None = Field(default=None, description="induction profile; its target regex")
    id_group: int = Field(default=1, ge=0)
    person_template: str | None = Field(default=None, description="URL of a person from {id}")
    use_canonical_link: bool = True
    fields: dict[str, str] = Field(
        default_factory=dict, description="label -> css, css@attr, or css@json:path (JSON the page embeds)")
    wrapper: str | None = Field(default=None, description="induced wrapper JSON applied to the page")
    relations: list[RelationSource] = Field(default_factory=list)
    items: list[ItemSource] = Field(default_factory=list)
    max_depth: int | None = Field(default=None, ge=0)
    max_people: int | None = Field(default=None, ge=1)
    follow_links: Literal["none", "people", "all"] = "none"
    clock: Literal["wall", "site"] = "wall"
    clock_probe: list[ProbeSource] = Field(default_factory=list)
    prior_items: float = Field(default=1.0, gt=0)
    prior_days: float = Field(default=7.0, gt=0)

    @field_validator("person_url")
    @classmethod
    def _regex(cls, pattern: str | None) -> str | None:
        return check_regex(pattern)

    @field_validator("clock_probe", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, dict) else value

    @model_validator(mode="after")
    def _consistent(self) -> SocialConfig:
        if not self.person_url and not self.profile:
            raise ValueError("give person_url (a regex) or profile (an induced site profile)")
        if self.clock == "site" and not self.clock_probe:
            raise ValueError('clock = "site" needs [social.clock_probe] to read the site\'s time')
        if not self.relations:
            raise ValueError("no [[social.relations]]: nothing to traverse")
        return self


def parse_social(raw: dict | None, source: str | Path) -> SocialConfig:
    """Validate a ``[social]`` section on its own; errors read ``<source>: social.<key>: <problem>``."""
    return validate_section(SocialConfig, raw, source, "social")
