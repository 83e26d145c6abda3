"""The induction part: a site profile (from ``browsercrawl induce``) steers the crawl, fills ``records``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from browsercrawl.config import JobConfig
from browsercrawl.config.induction import InductionConfig
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import Part, PartSpec
from browsercrawl.errors import UserError
from browsercrawl.induction.profile import SiteProfile
from browsercrawl.induction.settings import InductionSettings
from browsercrawl.induction.supervised import InductionHook, SupervisedLinks, create_tables, load_profile
from browsercrawl.storage.base import Store
from browsercrawl.wrappers.heal import Repair


class InductionPart(Part):
    """The weighing/extracting hook, the records tables and (supervised) the link filter."""

    name = "induction"

    def __init__(self, profile: SiteProfile, supervised: bool, profile_path: Path | None = None) -> None:
        self.profile = profile
        self.supervised = supervised
        self.profile_path = profile_path
        self.repairs: list[str] = []
        self.hook = InductionHook(profile, {}, self._repaired)
        if supervised:
            self.link_priority = SupervisedLinks(profile, self.hook).priority

    @property
    def labels(self) -> list[str]:
        return [r.label for r in self.profile.wrapper.rules] if self.profile.wrapper else []

    def hooks(self) -> Sequence[PageHook]:
        return (self.hook,)

    def create_tables(self, db: Store) -> None:
        create_tables(db, self.labels, self.hook.weights)

    def _repaired(self, repair: Repair) -> None:
        """A wrapper field healed mid-crawl: remember it and save the profile with the new path."""
        self.repairs.append(repair.line())
        if self.profile_path is not None:
            self.profile.save_atomic(self.profile_path)

    def summary(self) -> dict[str, Any]:
        return {"supervised": self.supervised, "wrapper_repairs": self.repairs}


def build(cfg: InductionConfig, job: JobConfig, options: CrawlOptions) -> InductionPart | None:
    """None until a profile exists, unless the job insists on a supervised crawl (an error then).

    Without ``supervised = true``, a missing profile just means an ordinary crawl.
    """
    settings = InductionSettings(job, cfg, job.source_path)
    path = settings.profile_path
    if not path.is_file():
        if cfg.supervised:
            raise UserError(
                f"{settings.source}: induction.profile: {path} does not exist; "
                "run `browsercrawl induce` first"
            )
        return None
    return InductionPart(load_profile(path), settings.supervised, path)


PART = PartSpec(name="induction", config=InductionConfig, build=build)
