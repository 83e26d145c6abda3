"""The ``[focus]`` section: crawl many sites for more pages like a few examples.

    [focus]
    examples = ["https://uni-a.example/records/2021/hebei.html"]   # pages you want (on the seed sites)
    keywords = ["admission", "score"]   # optional: words that lead to such pages
    budget = 2000                       # pages; none: until nothing is left (scope.max_pages still caps)

The target discriminator scores each page by its similarity to the examples (TF-IDF per field,
``weights``); the threshold is ``threshold_share`` of the lowest leave-one-out similarity among the
examples (``default_threshold`` with a single example); bootstrapping adds up to
``admit_per_round`` pages per round (a round every ``round_every`` new targets) to the examples,
at most ``max_rounds`` rounds and ``max_examples`` examples, and only pages at least
``drift_share`` x threshold similar to the given examples. Links are released by
``R = anchor_weight*R(anchor) + page_weight*R(page) + predicted_weight*R(predicted target)``,
``batch_per_site`` per site at a time; links under ``link_threshold`` wait until a site has no
better one. See docs/focus.md for how the defaults were measured.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from browsercrawl.config.errors import validate_section

FIELDS = ("text", "title", "url", "structure")


class FocusConfig(BaseModel):
    """The validated ``[focus]`` section."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    examples: list[str] = Field(min_length=1)
    keywords: list[str] = Field(default_factory=list)
    budget: int | None = Field(default=None, ge=1, description="pages; checked between batches")
    # the target discriminator
    weights: dict[str, float] = Field(default_factory=lambda: {"text": 1.0})
    threshold_share: float = Field(default=0.85, gt=0, le=1)
    default_threshold: float = Field(default=0.45, gt=0, le=1)
    # bootstrapping
    round_every: int = Field(default=5, ge=1)
    admit_per_round: int = Field(default=3, ge=0)
    max_rounds: int = Field(default=10, ge=0)
    max_examples: int = Field(default=40, ge=1)
    drift_share: float = Field(default=0.8, ge=0, le=2)
    # link relevance and the frontier
    anchor_weight: float = Field(default=0.25, ge=0, le=1)
    page_weight: float = Field(default=0.75, ge=0, le=1)
    predicted_weight: float = Field(default=0.0, ge=0, le=1)
    path_weight: float = Field(default=0.6, ge=0, le=1, description="share of the path in R(anchor)")
    link_threshold: float = Field(default=0.2, ge=0, le=1)
    batch_per_site: int = Field(default=2, ge=1, le=1000)

    @field_validator("examples")
    @classmethod
    def _http(cls, urls: list[str]) -> list[str]:
        for u in urls:
            if not re.match(r"^https?://[^/\s]+", u):
                raise ValueError(f"example {u!r} is not an http(s) URL")
        return urls

    @field_validator("weights")
    @classmethod
    def _fields(cls, weights: dict[str, float]) -> dict[str, float]:
        for name, w in weights.items():
            if name not in FIELDS:
                raise ValueError(f"unknown field {name!r} (known: {', '.join(FIELDS)})")
            if w < 0:
                raise ValueError(f"weight of {name!r} is negative")
        if not any(w > 0 for w in weights.values()):
            raise ValueError("at least one field needs a positive weight")
        return weights

    @model_validator(mode="after")
    def _link_weights(self) -> FocusConfig:
        total = self.anchor_weight + self.page_weight + self.predicted_weight
        if abs(total - 1.0) > 1e-6:
            raise ValueError(f"anchor_weight + page_weight + predicted_weight must be 1 (is {total:g})")
        return self


def parse_focus(raw: dict | None, source: str | Path) -> FocusConfig:
    """Validate a ``[focus]`` section on its own (``<source>: focus.<key>: <problem>``)."""
    return validate_section(FocusConfig, raw, source, "focus")
