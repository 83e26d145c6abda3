"""Scope rules: which discovered URLs the crawl may follow."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from browsercrawl.config import ScopeConfig


def _registered_domain(host: str) -> str:
    """The last two labels of a host (example.co.uk -> co.uk is wrong, but IPs and simple hosts are
    what same-domain scope is for here; a public-suffix list is not worth a dependency yet)."""
    if re.fullmatch(r"[0-9.]+", host) or ":" in host:
        return host
    labels = host.split(".")
    return ".".join(labels[-2:])


class Scope:
    """Decides whether a URL belongs to the crawl, given the seeds and the job's scope section."""

    def __init__(self, config: ScopeConfig, seeds: list[str]) -> None:
        self.config = config
        self._seed_hosts = {(urlsplit(s).hostname or "").lower() for s in seeds}
        self._seed_domains = {_registered_domain(h) for h in self._seed_hosts}
        self._allow = [re.compile(p) for p in config.allow]
        self._deny = [re.compile(p) for p in config.deny]

    def allows(self, url: str, depth: int) -> bool:
        if not url.startswith(("http://", "https://")):
            return False
        if self.config.max_depth is not None and depth > self.config.max_depth:
            return False
        host = (urlsplit(url).hostname or "").lower()
        if self.config.mode == "same-host" and host not in self._seed_hosts:
            return False
        if self.config.mode == "same-domain" and _registered_domain(host) not in self._seed_domains:
            return False
        if self._allow and not any(p.search(url) for p in self._allow):
            return False
        return not any(p.search(url) for p in self._deny)
