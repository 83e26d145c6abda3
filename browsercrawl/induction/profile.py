"""The site profile: what the initialisation learned and the supervised crawl obeys.

Saved as readable JSON (``browsercrawl-profile/1``) so a user can check and edit it: the target
regex, up to ten directory regexes, the tunneling weight threshold, the link-count threshold that
separated target from directory pages, the wrapper, and a short report of the clusters with
example URLs. Regexes match canonical URLs (``urlmodel.canonical``); the helpers here canonicalise.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browsercrawl.errors import UserError
from browsercrawl.induction.urlmodel import canonical
from browsercrawl.wrappers import Value, Wrapper

FORMAT = "browsercrawl-profile/1"


@dataclass
class ClusterReport:
    """One URL cluster as the report shows it."""

    regex: str
    size: int
    role: str  # "target", "directory" or "other"
    examples: list[str]
    target_candidates: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "size": self.size,
            "target_candidates": self.target_candidates,
            "regex": self.regex,
            "examples": self.examples,
        }


@dataclass
class SiteProfile:
    """Everything the supervised crawl needs for one site."""

    entry_urls: list[str]
    target_regex: str | None
    directory_regexes: list[str]
    weight_threshold: int = 1
    keywords: str | None = None
    link_threshold: float | None = None
    wrapper: Wrapper | None = None
    clusters: list[ClusterReport] = field(default_factory=list)
    _compiled: tuple[re.Pattern[str] | None, list[re.Pattern[str]]] | None = field(
        default=None, repr=False, compare=False
    )

    def _patterns(self) -> tuple[re.Pattern[str] | None, list[re.Pattern[str]]]:
        if self._compiled is None:
            target = re.compile(self.target_regex) if self.target_regex else None
            self._compiled = (target, [re.compile(r) for r in self.directory_regexes])
        return self._compiled

    def is_target(self, url: str) -> bool:
        target, _ = self._patterns()
        return bool(target and target.match(canonical(url)))

    def is_directory(self, url: str) -> bool:
        _, dirs = self._patterns()
        canon = canonical(url)
        return any(d.match(canon) for d in dirs)

    def should_follow(self, url: str) -> bool:
        """Supervised BFS: follow only URLs of the target or a directory class."""
        return self.is_target(url) or self.is_directory(url)

    def within_weight(self, weight: int) -> bool:
        """Expand a page's links only while its tunneling weight is within the threshold."""
        return weight <= self.weight_threshold

    def extract(self, html: str | bytes, base_url: str | None = None) -> dict[str, Value]:
        """One record (``label -> value or list``) from a target page; {} without a wrapper.

        ``base_url`` (the page URL) makes ``href``/``src`` values absolute.
        """
        return self.wrapper.apply(html, base_url) if self.wrapper else {}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "entry_urls": self.entry_urls,
            "keywords": self.keywords,
            "target_regex": self.target_regex,
            "directory_regexes": self.directory_regexes,
            "weight_threshold": self.weight_threshold,
            "link_threshold": self.link_threshold,
            "wrapper": self.wrapper.to_json() if self.wrapper else None,
            "clusters": [c.to_json() for c in self.clusters],
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n")

    def save_atomic(self, path: str | Path) -> None:
        """Replace ``path`` in one step (mode 644): a half-written profile must never steer a crawl."""
        path = Path(path)
        if not path.parent.is_dir():
            raise UserError(f"{path}: folder {path.parent} does not exist")
        fd, tmp = tempfile.mkstemp(prefix=".profile-", suffix=".json", dir=path.parent)
        os.close(fd)
        try:
            self.save(tmp)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise UserError(f"{path}: cannot write site profile ({exc.strerror})") from None

    @classmethod
    def from_json(cls, data: Any, source: str = "profile") -> SiteProfile:
        """Validate and build; a ``UserError`` names the source file and the key at fault."""
        if not isinstance(data, dict):
            raise UserError(f"{source}: expected a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise UserError(f"{source}: format {data.get('format')!r} is not {FORMAT!r}")

        def regex(key: str, value: Any) -> str:
            if not isinstance(value, str):
                raise UserError(f"{source}: {key} must be a string")
            try:
                re.compile(value)
            except re.error as exc:
                raise UserError(f"{source}: {key} is not a valid regex ({exc})") from None
            return value

        entries = data.get("entry_urls", [])
        if not isinstance(entries, list) or not all(isinstance(u, str) for u in entries):
            raise UserError(f"{source}: entry_urls must be a list of URLs")
        target = data.get("target_regex")
        target = regex("target_regex", target) if target is not None else None
        dirs = data.get("directory_regexes", [])
        if not isinstance(dirs, list):
            raise UserError(f"{source}: directory_regexes must be a list")
        dirs = [regex(f"directory_regexes[{i}]", r) for i, r in enumerate(dirs)]
        wt = data.get("weight_threshold", 1)
        if not isinstance(wt, int) or isinstance(wt, bool) or wt < 0:
            raise UserError(f"{source}: weight_threshold must be a whole number >= 0")
        lt = data.get("link_threshold")
        if lt is not None and (not isinstance(lt, int | float) or isinstance(lt, bool)):
            raise UserError(f"{source}: link_threshold must be a number")
        kw = data.get("keywords")
        if kw is not None and not isinstance(kw, str):
            raise UserError(f"{source}: keywords must be a string")
        wrapper = data.get("wrapper")
        wrapper = Wrapper.from_json(wrapper, f"{source}: wrapper") if wrapper is not None else None
        clusters = []
        for i, c in enumerate(data.get("clusters", [])):
            try:
                clusters.append(
                    ClusterReport(
                        c["regex"],
                        int(c["size"]),
                        c.get("role", "other"),
                        list(c.get("examples", [])),
                        int(c.get("target_candidates", 0)),
                    )
                )
            except (KeyError, TypeError, ValueError):
                raise UserError(f"{source}: clusters[{i}] needs regex and size") from None
        return cls(entries, target, dirs, wt, kw, lt, wrapper, clusters)

    @classmethod
    def load(cls, path: str | Path) -> SiteProfile:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{path}: cannot read site profile ({exc.strerror})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
        return cls.from_json(data, str(path))

    def report(self) -> str:
        """A short human report: thresholds, then clusters with example URLs."""
        lines = [
            f"target regex: {self.target_regex or '(none found)'}",
            f"directory regexes: {len(self.directory_regexes)}",
            f"weight threshold: {self.weight_threshold}"
            + (f"   link-count threshold: {self.link_threshold:.1f}" if self.link_threshold else ""),
        ]
        for c in self.clusters:
            lines.append(f"[{c.role}] {c.size} URLs ({c.target_candidates} target candidates)  {c.regex}")
            lines.extend(f"    {u}" for u in c.examples)
        return "\n".join(lines)
