"""``[traps]``: how the crawl bounds URL spaces that never end (calendars, offsets, session ids).

Every setting has a default that is on, so a job without the section is protected too; see
docs/traps.md for the rules and what a cut looks like in the summary and in ``stats``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class TrapsConfig(BaseModel):
    """Limits applied to each discovered link before it enters the frontier."""

    model_config = ConfigDict(extra="forbid")

    max_chain: int = Field(
        default=100, ge=0,
        description="same-shaped pages along one chain of parents, the first included (0: no cap)",
    )
    cut_repeated_segments: bool = Field(
        default=True, description="cut URLs whose path repeats a segment (or run of segments) 3 times",
    )
    strip_session_ids: bool = Field(
        default=True, description="drop session-id parameters (jsessionid, PHPSESSID, sid=<token>...)",
    )
