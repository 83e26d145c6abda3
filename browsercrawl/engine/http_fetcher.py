"""The plain-HTTP path: for non-HTML resources and for pages that need no rendering.

:class:`HttpClient` is the aiohttp session (shared with robots.txt); :class:`HttpFetcher` is the
page fetcher the crawl uses, which runs the page hooks like the browser path does and carries the
browser's cookies, so a logged-in crawl can skip the browser where the server already sends the
content.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from email.utils import parsedate_to_datetime
from pathlib import Path

import aiohttp
from yarl import URL

from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.parse import parse_inline, parse_page
from browsercrawl.engine.result import FetchError, FetchResult, LeftScope
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.pacing import paced

# How often the HTTP path takes the browser's cookies again (sites rotate session cookies).
COOKIE_SYNC_SECONDS = 5.0

# A page a hook refused and mended (a new login) is fetched again this many times at most before
# the refusal costs one of its retries.
FETCH_AGAIN_ROUNDS = 3
MAX_BODY_BYTES = 20 * 1024 * 1024
MAX_REDIRECTS = 10
_REDIRECTS = (301, 302, 303, 307, 308)
DEFAULT_UA = "Mozilla/5.0 (X11; Linux x86_64) browsercrawl/0.1"


def retry_after_seconds(value: str | None) -> float | None:
    """Parse a Retry-After header (seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def is_html(content_type: str) -> bool:
    ct = content_type.lower()
    return "html" in ct or "xml+xhtml" in ct


class HttpClient:
    """Fetches with aiohttp; HTML is parsed in a worker thread unless it is small (``parse_inline``)."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        timeout_seconds: float,
        redirect_check: Callable[[str], Awaitable[str | None]] | None = None,
        *,
        judge_scripts: bool = True,
    ) -> None:
        self.session = session
        # Whether pages are read for code a browser would run (``FetchResult.scripted``): only
        # auto mode's choice between HTTP and the browser needs it.
        self._judge_scripts = judge_scripts
        self._timeout = aiohttp.ClientTimeout(total=timeout_seconds)
        # Why a redirect target leaves the crawl's scope (None: follow it); None: follow all.
        self._redirect_check = redirect_check

    @staticmethod
    def new_session(user_agent: str | None, concurrency: int) -> aiohttp.ClientSession:
        return aiohttp.ClientSession(
            headers={"User-Agent": user_agent or DEFAULT_UA},
            connector=aiohttp.TCPConnector(limit=max(concurrency * 2, 10), limit_per_host=0),
            cookie_jar=aiohttp.CookieJar(unsafe=True),  # unsafe: also keep cookies of IP hosts
        )

    def set_cookies(self, cookies: list[dict]) -> None:
        """Load cookies exported by a browser context (Playwright's cookie dicts)."""
        jar = self.session.cookie_jar
        for c in cookies:
            domain = c.get("domain", "").lstrip(".")
            scheme = "https" if c.get("secure") else "http"
            jar.update_cookies({c["name"]: c["value"]}, URL(f"{scheme}://{domain}{c.get('path', '/')}"))

    async def fetch(self, url: str, *, parse: bool = True) -> FetchResult:
        t0 = time.perf_counter()
        try:
            target = url
            for _hop in range(MAX_REDIRECTS + 1):
                # Redirects are followed here, one hop at a time, so a hop out of scope is
                # refused before the other server is asked anything; each hop is a request of
                # its own at the server, so each waits for the host's pace.
                async with paced() as turn, self.session.get(
                        target, timeout=self._timeout, allow_redirects=False) as resp:
                    turn.reached()
                    location = resp.headers.get("Location")
                    if resp.status in _REDIRECTS and location:
                        target = str(resp.url.join(URL(location)))
                        if self._redirect_check is not None and (why := await self._redirect_check(target)):
                            raise LeftScope(target, why)
                        continue
                    body = await resp.content.read(MAX_BODY_BYTES)
                    status = resp.status
                    final = str(resp.url)
                    ctype = resp.headers.get("Content-Type", "")
                    headers = {k.lower(): v for k, v in resp.headers.items()}
                    break
            else:
                raise FetchError(f"more than {MAX_REDIRECTS} redirects", retryable=False)
        except TimeoutError:
            raise FetchError(f"timeout after {self._timeout.total:.0f}s", retryable=True) from None
        except aiohttp.ClientError as exc:
            raise FetchError(f"{type(exc).__name__}: {exc}", retryable=True) from None
        fetch_ms = (time.perf_counter() - t0) * 1000
        check_status(status, headers)
        result = FetchResult(
            requested_url=url,
            final_url=final,
            status=status,
            content_type=ctype,
            via="http",
            fetch_ms=fetch_ms,
            headers=headers,
        )
        if is_html(ctype):
            html = body.decode(_charset(ctype), errors="replace")
            result.html = html
            if parse:
                judge = self._judge_scripts
                parsed = parse_page(html, final, judge_scripts=judge) if parse_inline(html) else \
                    await asyncio.to_thread(parse_page, html, final, judge_scripts=judge)
                result.title, result.text, result.links, result.scripted = parsed
        elif ctype.startswith("text/") or "json" in ctype:
            result.text = body.decode(_charset(ctype), errors="replace")
        return result


def _charset(content_type: str) -> str:
    for part in content_type.split(";")[1:]:
        k, _, v = part.strip().partition("=")
        if k.lower() == "charset" and v:
            return v.strip('"')
    return "utf-8"


def check_status(status: int, headers: dict[str, str]) -> None:
    """Raise a retryable FetchError for statuses that mean 'try again later'."""
    if status == 429 or status == 503:
        raise FetchError(
            f"HTTP {status}",
            retryable=True,
            status=status,
            retry_after=retry_after_seconds(headers.get("retry-after")),
        )
    if status >= 500:
        raise FetchError(f"HTTP {status}", retryable=True, status=status)


class HttpFetcher:
    """The crawl's HTTP page fetcher: the browser's cookies in, the hooks' checks out.

    ``cookie_source`` (the browser runtime's cookies) is read before the first fetch and then every
    few seconds; every fetch waits for the first read, because a fetch without the browser's
    cookies would be served logged out.
    """

    via = "http"

    def __init__(
        self,
        client: HttpClient,
        hooks: Sequence[PageHook],
        cookie_source: Callable[[], Awaitable[list[dict]]] | None = None,
    ) -> None:
        self.client = client
        self.hooks = list(hooks)
        self._cookie_source = cookie_source
        self._cookies_at = -1e9
        self._cookie_lock = asyncio.Lock()
        self.fetched = 0

    def resync_cookies(self) -> None:
        """Take the browser's cookies again before the next fetch (e.g. it just closed)."""
        self._cookies_at = -1e9

    async def fetch(self, request: Request, *, trace_dir: Path | None = None) -> FetchResult:
        """Fetch and let the hooks judge the page, like a rendered one (no trace on this path)."""
        return await self.finish(request, await self.get(request))

    async def get(self, request: Request) -> FetchResult:
        """Fetch without running the hooks (auto mode fetches speculatively, then decides)."""
        if self._cookie_source is not None and time.monotonic() - self._cookies_at > COOKIE_SYNC_SECONDS:
            async with self._cookie_lock:
                if time.monotonic() - self._cookies_at > COOKIE_SYNC_SECONDS:
                    self.client.set_cookies(await self._cookie_source())
                    self._cookies_at = time.monotonic()
        result = await self.client.fetch(request.url)
        self.fetched += 1
        return result

    async def finish(self, request: Request, result: FetchResult) -> FetchResult:
        """Run the ``after_snapshot`` hooks on a fetched result; fetch it again while a hook asks
        to (``PageContext.fetch_again``), at most ``FETCH_AGAIN_ROUNDS`` times."""
        for round_ in range(FETCH_AGAIN_ROUNDS + 1):
            ctx = PageContext(request=request, page=None, response=None, result=result)
            for hook in self.hooks:
                await hook.after_snapshot(ctx)
            if not ctx.fetch_again or round_ == FETCH_AGAIN_ROUNDS:
                break
            result = await self.get(request)
        return result
