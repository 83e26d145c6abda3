"""Scope rules: which URLs the crawl may follow, fetch, and let a navigation or redirect reach.

* ``mode``: ``same-host`` - the seeds' scheme, host and port (another port is another server);
  ``same-hostname`` - the seeds' host names on any scheme and port; ``same-domain`` - the seeds'
  registered domains; ``any``.
* ``ip_ranges``: the addresses a host name resolves to must all lie in one of these networks
  (checked on the resolved address, so a name pointing outside is refused, not only literal IPs).
* ``allow``/``deny``/``max_depth`` choose which links are followed; a redirect or a script's
  navigation is judged on the host rules only (a login redirect to a denied path is the session
  part's business, not a leak out of the crawl).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import re
import socket
from urllib.parse import urlsplit

from browsercrawl.config import ScopeConfig

_DEFAULT_PORTS = {"http": 80, "https": 443}
_MAX_VERDICTS = 16384


def _registered_domain(host: str) -> str:
    """The last two labels of a host (example.co.uk -> co.uk is wrong, but IPs and simple hosts are
    what same-domain scope is for here; a public-suffix list is not worth a dependency yet)."""
    if re.fullmatch(r"[0-9.]+", host) or ":" in host:
        return host
    labels = host.split(".")
    return ".".join(labels[-2:])


@functools.lru_cache(maxsize=8192)
def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host name, port with the scheme's default filled in) of a URL.

    Cached: every link of every page is scoped, and most links repeat from page to page."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port or _DEFAULT_PORTS.get(scheme)


class Scope:
    """Decides whether a URL belongs to the crawl, given the seeds and the job's scope section."""

    def __init__(self, config: ScopeConfig, seeds: list[str]) -> None:
        self.config = config
        self._seed_origins = {origin(s) for s in seeds}
        self._seed_hosts = {o[1] for o in self._seed_origins}
        self._seed_domains = {_registered_domain(h) for h in self._seed_hosts}
        self._allow = [re.compile(p) for p in config.allow]
        self._deny = [re.compile(p) for p in config.deny]
        self._networks = [ipaddress.ip_network(r, strict=False) for r in config.ip_ranges]
        self._addresses: dict[str, str | None] = {}  # host -> why its address is refused (None: fine)
        # URL -> the host, allow and deny rules' verdict. A page's links repeat from page to page
        # (menus, related items) and the regexes cost a few microseconds a link; emptied when full.
        self._verdicts: dict[str, bool] = {}

    def seed_origin_prefixes(self) -> list[str]:
        """The seeds' origins as canonical URL prefixes (``http://host:8080/``), sorted.

        Every URL that starts with one has that scheme, host and port, so the host rule allows it
        in every mode; the navigation guard lets documents there load without asking."""
        prefixes = set()
        for scheme, host, port in self._seed_origins:
            if scheme not in _DEFAULT_PORTS or not host:
                continue
            shown = f"[{host}]" if ":" in host else host
            default = port is None or port == _DEFAULT_PORTS[scheme]
            prefixes.add(f"{scheme}://{shown}{'' if default else f':{port}'}/")
        return sorted(prefixes)

    def host_allows(self, url: str) -> bool:
        """The scope's host rule (``mode``) alone: may the crawl go to this URL's server at all?"""
        if not url.startswith(("http://", "https://")):
            return False
        where = origin(url)
        mode = self.config.mode
        if mode == "same-host":
            return where in self._seed_origins
        if mode == "same-hostname":
            return where[1] in self._seed_hosts
        if mode == "same-domain":
            return _registered_domain(where[1]) in self._seed_domains
        return True

    def allows(self, url: str, depth: int) -> bool:
        """May a link to ``url`` found at ``depth`` be followed?"""
        if self.config.max_depth is not None and depth > self.config.max_depth:
            return False
        verdict = self._verdicts.get(url)
        if verdict is None:
            verdict = self._rules_allow(url)
            if len(self._verdicts) >= _MAX_VERDICTS:
                self._verdicts.clear()
            self._verdicts[url] = verdict
        return verdict

    def _rules_allow(self, url: str) -> bool:
        if not self.host_allows(url):
            return False
        if self._allow and not any(p.search(url) for p in self._allow):
            return False
        return not any(p.search(url) for p in self._deny)

    async def address_refusal(self, url: str) -> str | None:
        """Why ``url``'s host may not be fetched under ``ip_ranges`` (None: it may), resolved once."""
        if not self._networks:
            return None
        host = origin(url)[1]
        if host not in self._addresses:
            self._addresses[host] = await self._check_addresses(host)
        return self._addresses[host]

    async def _check_addresses(self, host: str) -> str | None:
        try:
            addresses = {ipaddress.ip_address(host)}
        except ValueError:
            try:
                infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
            except OSError as exc:
                return f"{host} does not resolve ({exc.strerror or exc})"
            addresses = {ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos}
        for address in sorted(addresses, key=str):
            mapped = getattr(address, "ipv4_mapped", None)
            if not any(address in net or (mapped is not None and mapped in net) for net in self._networks):
                return f"{host} resolves to {address}, outside scope.ip_ranges"
        return None

    async def navigation_refusal(self, url: str) -> str | None:
        """Why a redirect or a navigation to ``url`` leaves the scope (None: it stays inside)."""
        if url.startswith(("about:", "data:", "blob:", "chrome-error:")):
            return None  # no server is reached
        if not self.host_allows(url):
            return f"{url} is outside scope (mode {self.config.mode})"
        return await self.address_refusal(url)
