"""``[distributed]``: workers on several machines share one crawl through Redis (and PostgreSQL)."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator


class DistributedConfig(BaseModel):
    """Where the shared frontier lives and how workers keep their claims (docs/distributed.md)."""

    model_config = ConfigDict(extra="forbid")

    redis: str = Field(description="redis://[:password@]host:port/db of the shared frontier")
    crawl: str | None = Field(
        default=None, description="name of the crawl in Redis (default: the job's name, else its file name)"
    )
    lease_seconds: float = Field(
        default=30.0, gt=0, description="a worker silent this long is dead: its URLs go back to the queue"
    )
    balance_minutes: float = Field(
        default=2.0, gt=0, description="window over which a worker's finished pages weigh its claims"
    )
    seen_capacity: int = Field(
        default=10_000_000, ge=1000,
        description="URLs the shared seen-set is sized for (5.4 bytes each in Redis, 1e-9 false positives)",
    )

    @field_validator("redis")
    @classmethod
    def _redis_url(cls, url: str) -> str:
        if not re.match(r"^(redis|rediss|unix)://", url):
            raise ValueError(f"{url!r} is not a redis://, rediss:// or unix:// URL")
        return url

    @field_validator("crawl")
    @classmethod
    def _crawl_name(cls, name: str | None) -> str | None:
        if name is not None and not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", name):
            raise ValueError("use letters, digits, '.', '_' and '-' (at most 100)")
        return name
