"""Captured XHR/fetch JSON: many sites' data is cleaner in their API answers than in their DOM.

One ``response`` listener per tab, attached only when ``[[ajax.capture]]`` rules exist (each
listener costs an event per response). Each navigation starts a new generation, so a late answer
from the previous page is never filed under the next one. Bodies are read in tasks as they
arrive and collected after the snapshot; their URL-valued fields (and ids, through an ``id_url``
template) feed the frontier.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from browsercrawl.config.ajax import AjaxConfig, CaptureRule

if TYPE_CHECKING:
    from playwright.async_api import Page, Response

log = logging.getLogger(__name__)

_MAX_NODES = 50_000  # JSON nodes walked per body when looking for URLs


@dataclass
class Captured:
    """One stored JSON answer."""

    url: str
    method: str
    status: int
    content_type: str
    body: str
    data: Any
    rule: CaptureRule

    def row(self, page_url: str) -> dict[str, Any]:
        return {
            "url": self.url,
            "method": self.method,
            "status": self.status,
            "content_type": self.content_type,
            "page_url": page_url,
            "body": self.body,
            "bytes": len(self.body),
            "fetched_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }

    def urls(self) -> list[str]:
        """URLs named in the body (``url``-like keys), and ids turned into URLs by ``id_url``."""
        out: list[str] = []
        keys = set(self.rule.url_keys)
        stack: list[Any] = [self.data]
        walked = 0
        while stack and walked < _MAX_NODES:
            node = stack.pop()
            walked += 1
            if isinstance(node, dict):
                for k, v in node.items():
                    if isinstance(v, str) and (k in keys or k.endswith("_url")) and _looks_like_url(v):
                        out.append(urljoin(self.url, v))
                    elif isinstance(v, dict | list):
                        stack.append(v)
                if self.rule.id_url and isinstance(node.get(self.rule.id_key), str | int):
                    out.append(urljoin(self.url, self.rule.id_url.format(id=node[self.rule.id_key])))
            elif isinstance(node, list):
                stack.extend(node)
        return list(dict.fromkeys(out))


def _looks_like_url(v: str) -> bool:
    return v.startswith(("http://", "https://", "/")) and not v.startswith("//") and " " not in v


@dataclass
class _Tab:
    generation: int = 0
    tasks: list[asyncio.Task[Captured | None]] = field(default_factory=list)


class ResponseCapture:
    """Collects matching JSON answers per tab and per navigation."""

    def __init__(self, cfg: AjaxConfig) -> None:
        self.cfg = cfg
        self._tabs: dict[Page, _Tab] = {}
        self.seen = 0
        self.stored = 0

    def attach(self, page: Page) -> None:
        tab = self._tabs[page] = _Tab()

        def _on_response(response: Response) -> None:
            request = response.request
            if request.resource_type not in ("xhr", "fetch"):
                return
            rule = self.cfg.capture_for(response.url, request.method)
            if rule is None:
                return
            self.seen += 1
            tab.tasks.append(asyncio.ensure_future(self._read(response, request.method, rule)))

        page.on("response", _on_response)
        page.on("close", lambda _page: self._tabs.pop(page, None))

    def begin(self, page: Page) -> None:
        """A new navigation on ``page``: forget what the previous page captured."""
        tab = self._tabs.get(page)
        if tab is None:
            return
        for t in tab.tasks:
            t.cancel()
        tab.tasks = []
        tab.generation += 1

    async def collect(self, page: Page, timeout: float = 5.0) -> list[Captured]:
        """The JSON answers of ``page``'s current navigation (waits for bodies still being read)."""
        tab = self._tabs.get(page)
        if tab is None or not tab.tasks:
            return []
        tasks, tab.tasks = tab.tasks, []
        done, pending = await asyncio.wait(tasks, timeout=timeout)
        for t in pending:
            t.cancel()
        out = []
        for t in done:
            with contextlib.suppress(asyncio.CancelledError):
                if t.exception() is None and (c := t.result()) is not None:
                    out.append(c)
        self.stored += len(out)
        return out

    async def _read(self, response: Response, method: str, rule: CaptureRule) -> Captured | None:
        ctype = response.headers.get("content-type", "")
        try:
            raw = await response.body()
        except Exception as exc:  # the page navigated on, or the body was evicted
            log.debug("capture: no body for %s: %s", response.url, exc)
            return None
        if len(raw) > rule.max_body_bytes:
            return None
        try:
            text = raw.decode("utf-8")
            data = json.loads(text)
        except (UnicodeDecodeError, ValueError):
            return None  # not JSON (whatever the content type says)
        return Captured(response.url, method, response.status, ctype, text, data, rule)
