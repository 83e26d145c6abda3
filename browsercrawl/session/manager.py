"""Keeping a crawl logged in: contexts per account, detection of a lost session, one re-login, retry.

:class:`SessionManager` plugs into the engine twice. As the ``ContextFactory`` it gives every new
browser context an account (spread evenly over the pool) and logs it in - or, when the engine
recycles a context, carries the old one's cookies, localStorage and sessionStorage over so no new
login is needed. As a :class:`PageHook` it paces each account (``before_navigation``), and after
each navigation asks the :class:`Detector` whether the page was served logged out (with no
``[session.logged_out]`` settings: 401/403, a redirect to the login URL, a login form or sign-in
control, a missing logged-in signal - learned from the first login's landing page); if so it holds
the host in the scheduler, logs that context in again (one login per context at a time: other tabs
that saw the same loss wait and then only re-navigate), re-navigates, and releases the host. A
page that still looks logged out is refused (``result.store = False``: the engine re-queues it),
so a login page is never stored as content. A page that only lacks the learned signal is checked
against the landing page first: if that still shows the signal, the session is alive and pages of
that shape are unsigned: each later page of such a shape is kept only if a probe that started
after it still finds the session alive. Other hooks whose own requests (JSON lists) were refused call
``ctx.renew_session`` to get a fresh login and repeat them. Locked or rejected accounts are
retired and reported; with no account left the crawl stops and ``browsercrawl crawl`` exits 3 with the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browsercrawl.config import JobConfig
from browsercrawl.config.session import Account, SessionConfig
from browsercrawl.engine.browser_fetcher import wait_until_done
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.parts import CrawlHandle, StandaloneHandle
from browsercrawl.engine.tabs import TAB_INIT_JS
from browsercrawl.errors import LoginError, UserError, error_line
from browsercrawl.session.detect import (
    GONE_AFTER_UNSIGNED,
    MISSING_SIGNAL,
    PROBE_FAILED,
    learn_signal,
    login_snapshot,
    reason_kind,
)
from browsercrawl.session.flow import load_flow, replay_flow
from browsercrawl.session.formlogin import form_login
from browsercrawl.session.login import AccountLocked, LoginSettings, WrongCredentials, traced_login
from browsercrawl.session.secrets import resolve_password
from browsercrawl.session.state import (
    SessionState,
    capture_state,
    load_state,
    restore_session_storage,
    save_state,
)
from browsercrawl.session.totp import account_code_source

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page

log = logging.getLogger(__name__)

# Log-in-and-reload rounds one fetch of a page may take before the page is refused (and re-queued
# as a failed attempt). Bounded so a page that looks logged out for another reason cannot loop.
RELOGINS_PER_PAGE = 3
# A probe of the landing page waits at most this long for it to be done (then judges by the signal).
_PROBE_CAP_MS = 3000


@dataclass(eq=False)
class AccountSlot:
    """One account of the pool and what the crawl knows about it (never its password)."""

    account: Account | None  # None: a saved state with no account to log in again with
    index: int
    retired: str | None = None
    state: SessionState | None = None
    contexts: int = 0
    logins: int = 0
    next_at: float = 0.0
    pace_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def name(self) -> str:
        return self.account.username if self.account else "(saved state)"


@dataclass
class _PageNote:
    """What the session hook remembers during one page's fetch."""

    generation: int | None = None  # the context's login generation when navigation started
    refused: str | None = None  # why the page must not be stored (it was served logged out)
    renewals: int = 0  # re-logins asked for by other hooks' requests during this fetch


@dataclass(eq=False)
class ContextInfo:
    """The account a browser context is logged in as; ``generation`` counts its logins."""

    slot: AccountSlot
    generation: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The last probe of the landing page: (when it started, under which login, alive?).
    probe: tuple[float, int, bool] | None = None
    logged_in_at: float = 0.0  # monotonic time of its last login (0: none in this crawl)


class SessionManager(PageHook):
    """The session part of a crawl: a context factory plus a page hook (see module docstring)."""

    def __init__(
        self,
        cfg: SessionConfig,
        job: JobConfig,
        *,
        job_path: Path | None = None,
        trace_dir: Path | None = None,
        pause_on_error: bool = False,
        headed: bool = False,
    ) -> None:
        self.cfg = cfg
        self.job = job
        self.where = str(job_path or "job.toml")
        self.settings = LoginSettings.from_config(cfg, trace_dir=trace_dir, pause_on_error=pause_on_error,
                                                  headed=headed)
        self.detector = self.settings.detector
        self.detector.signal_selector = cfg.logged_in.selector
        self._probe_lock = asyncio.Lock()
        self.probes = 0
        self.flow = load_flow(cfg.path(cfg.flow)) if cfg.flow else None
        if self.flow is not None and self.settings.logged_in.is_empty():
            self.settings.logged_in = self.flow.logged_in
        self.slots = [AccountSlot(a, i) for i, a in enumerate(cfg.accounts)] or [AccountSlot(None, 0)]
        self.contexts: dict[BrowserContext, ContextInfo] = {}
        self.handle: CrawlHandle = StandaloneHandle()
        self.mine: set[int] | None = None  # this worker's share of the accounts (all, on one machine)
        self.fatal: LoginError | None = None
        self.logins = 0
        self.relogins = 0
        self.pages_refused = 0
        self.lost_reasons: Counter[str] = Counter()
        self.retired: list[dict[str, str]] = []
        if cfg.method == "state":
            self._load_saved_states()

    # -- wiring ------------------------------------------------------------------------------
    def bind(self, handle: CrawlHandle) -> None:
        """The crawl this session serves: it holds hosts during re-logins and stops on a fatal one."""
        self.handle = handle

    def _load_saved_states(self) -> None:
        for slot in self.slots:
            path = self.cfg.state_path(slot.account.username if slot.account else None)
            if path is not None:
                slot.state = load_state(path)

    def can_log_in(self) -> bool:
        return bool(self.cfg.accounts) and (self.flow is not None or bool(self.cfg.login_url))

    def summary(self) -> dict[str, Any]:
        """Counters for the crawl summary (no secrets: usernames and reasons only)."""
        return {
            "logins": self.logins,
            "relogins": self.relogins,
            "login_pages_refused": self.pages_refused,
            "accounts_retired": list(self.retired),
            "logins_per_account": {s.name: s.logins for s in self.slots},
            "sessions_lost": dict(self.lost_reasons),
            "signal": self.detector.signal,
            "unsigned_shapes": sorted(self.detector.unsigned_shapes),
            "captchas_answered": self.settings.captchas_answered,
            "captchas_accepted": self.settings.captchas_accepted,
            "fatal": str(self.fatal) if self.fatal else None,
        }

    # -- contexts ----------------------------------------------------------------------------
    async def new_context(self, browser: Browser, previous: BrowserContext | None) -> BrowserContext:
        """The ContextFactory: a logged-in context (state carried over when recycling)."""
        if previous is not None and previous in self.contexts:
            info = self.contexts[previous]
            if info.slot.retired is None:
                with contextlib.suppress(Exception):
                    info.slot.state = await capture_state(previous)
                ctx = await self._open(browser, info.slot.state)
                self._register(ctx, info.slot, info.generation)
                return ctx
        if self.mine is None:
            self.mine = set(await self.handle.pool_share(len(self.slots)))
        slot = self._pick_slot()
        ctx = await self._open(browser, slot.state if slot else None)
        if slot is None:
            return ctx  # fatal already recorded: pages will be refused and the crawl stops
        info = self._register(ctx, slot, 0)
        if slot.state is None:
            async with info.lock:
                await self._login_with_fallback(ctx, info)
        return ctx

    async def _open(self, browser: Browser, state: SessionState | None) -> BrowserContext:
        ctx = await browser.new_context(
            user_agent=self.job.rendering.user_agent,
            storage_state=state.storage_state() if state else None,
            service_workers="block",
        )
        if state is not None:
            await restore_session_storage(ctx, state)
        return ctx

    def _register(self, ctx: BrowserContext, slot: AccountSlot, generation: int) -> ContextInfo:
        info = ContextInfo(slot, generation)
        self.contexts[ctx] = info
        slot.contexts += 1

        def _closed(_: Any) -> None:
            gone = self.contexts.pop(ctx, None)
            if gone is not None:
                gone.slot.contexts -= 1

        ctx.on("close", _closed)
        return info

    def _pick_slot(self) -> AccountSlot | None:
        live = [s for s in self.slots if s.retired is None]
        if not live:
            self._fail(LoginError(f"{self.where}: every account is retired ({self._retired_text()})"))
            return None
        # Workers on several machines each log in with their own share of the pool, and take
        # another's account only when all of theirs are retired.
        ours = [s for s in live if self.mine is None or s.index in self.mine]
        return min(ours or live, key=lambda s: (s.contexts, s.index))

    def _retired_text(self) -> str:
        return "; ".join(f"{r['username']}: {r['reason']}" for r in self.retired) or "none usable"

    # -- logging in --------------------------------------------------------------------------
    async def _login(self, ctx: BrowserContext, info: ContextInfo) -> None:
        """Log ``ctx`` in as its account, in a tab of its own, and keep the new state.

        Never in the crawl's tab: after a session ends mid-page, the scripts of the documents
        that tab showed may still be navigating (to the login page, with user activation from a
        load-more click), and each such navigation cancels the login's own; a re-login of the
        crawl failed that way. The context's cookies make the crawl's tabs logged in too.
        """
        slot = info.slot
        account = slot.account
        if account is None or not self.can_log_in():
            state_file = self.cfg.state_path(None)
            raise LoginError(
                f"{state_file}: the saved session is no longer logged in and [session] has no account "
                "to log in again with; replay the login (browsercrawl login replay) to refresh it"
            )
        password = resolve_password(account, f"{self.where}: session.accounts.{slot.index}")
        codes = account_code_source(account, f"{self.where}: session.accounts.{slot.index}")
        if self.flow is not None:
            flow, source = self.flow, str(self.cfg.path(self.cfg.flow or ""))

            async def body(tab: Page) -> Any:
                return await replay_flow(
                    tab, flow, self.settings, source=source, username=account.username, password=password,
                    codes=codes,
                )
        else:
            url = self.cfg.login_url or ""

            async def body(tab: Page) -> Any:
                return await form_login(tab, url, account.username, password, self.settings, self.cfg.form,
                                        codes)

        async def body_then_learn(tab: Page) -> Any:
            outcome = await body(tab)
            if self.detector.learned.landing_url is None:
                await self._learn(tab)
            return outcome

        started = time.monotonic()
        await traced_login(ctx, self.settings, body_then_learn)
        info.generation += 1
        info.logged_in_at = time.monotonic()
        slot.logins += 1
        self.logins += 1
        slot.state = await capture_state(ctx)
        path = self.cfg.state_path(account.username)
        if path is not None:
            save_state(slot.state, path)
        log.info("logged in as %s in %.1fs", account.username, time.monotonic() - started)

    async def _learn(self, tab: Page) -> None:
        """What a logged-in page looks like here: its logout control, whether it shows a sign-in one."""
        with contextlib.suppress(Exception):
            after = await login_snapshot(tab)
            selector = learn_signal({"selectors": [], "cookies": set()}, after).selector
            sign_in_shown = await self.detector.shows_sign_in(tab)
            self.detector.learn(selector, sign_in_shown, tab.url)
            log.info("logged-in signal learned at %s: %s%s", tab.url, selector or "none",
                     "" if not sign_in_shown else " (the page shows a sign-in control: that rule is off)")

    async def _session_alive(self, context: BrowserContext) -> bool | None:
        """Does the login's landing page still show the logged-in signal (one extra page load)?
        None when the landing page could not be loaded: that proves nothing either way."""
        url = self.detector.learned.landing_url
        signal = self.detector.signal
        if not url or not signal:
            return False
        self.probes += 1
        tab = await context.new_page()
        try:
            # Counted requests let the wait below end when the page is done, not after a blind
            # timeout: a lost session is the common answer, and would pay that timeout whole.
            await tab.add_init_script(TAB_INIT_JS)
            try:
                await tab.goto(url, wait_until="load", timeout=self.job.rendering.timeout_seconds * 1000)
            except Exception:
                return None
            if await tab.locator(signal).count():
                return True
            # Not there yet, or not coming: a landing page built by script shows it once done.
            await wait_until_done(tab, _PROBE_CAP_MS, self.job.rendering.settle_quiet_ms)
            return await tab.locator(signal).count() > 0
        except Exception:
            return None
        finally:
            with contextlib.suppress(Exception):
                await tab.close()

    async def _probe(self, info: ContextInfo, context: BrowserContext, generation: int) -> bool | None:
        """Probe under the login ``generation`` (the caller holds the probe lock); a re-login in
        between means the page must be fetched again (False).

        The probe waits for a login under way: that login has set its cookie long before it counts
        as done, so a probe run meanwhile would vouch with the new login for a page the old one
        was refused."""
        async with info.lock:
            if info.generation != generation:
                return False
            started = time.monotonic()
            alive = await self._session_alive(context)  # no login can run meanwhile: the lock
            if alive is None:
                return None
            info.probe = (started, generation, alive)
            return alive

    async def _login_with_fallback(self, ctx: BrowserContext, info: ContextInfo) -> bool:
        """Log in; a locked/rejected account is retired and the next one tried. False if fatal."""
        while self.fatal is None:
            try:
                await self._login(ctx, info)
                return True
            except (AccountLocked, WrongCredentials) as exc:
                self._retire(info.slot, exc)
                slot = self._pick_slot()
                if slot is None:
                    return False
                info.slot.contexts -= 1
                info.slot, info.generation = slot, info.generation + 1
                slot.contexts += 1
                with contextlib.suppress(Exception):
                    await ctx.clear_cookies()
            except UserError as exc:  # LoginError (CAPTCHA never solved...) or a missing secret
                self._fail(exc if isinstance(exc, LoginError) else LoginError(str(exc)))
                return False
            except Exception as exc:  # the browser failed mid-login (timeout, crash): say so, stop
                first = error_line(exc)
                log.debug("login failed", exc_info=True)
                self._fail(LoginError(f"login as {info.slot.name} failed: {first}"))
                return False
        return False

    def _retire(self, slot: AccountSlot, exc: LoginError) -> None:
        if slot.retired is None:
            slot.retired = str(exc)
            slot.state = None
            self.retired.append({"username": slot.name, "reason": str(exc)})
            log.warning("account %s retired: %s", slot.name, exc)

    def _fail(self, exc: LoginError) -> None:
        if self.fatal is None:
            self.fatal = exc
            self.handle.fail(exc)

    # -- the page hook -----------------------------------------------------------------------
    async def before_navigation(self, ctx: PageContext) -> None:
        assert ctx.page is not None
        info = self.contexts.get(ctx.page.context)
        if info is None:
            return
        ctx.note(_PageNote).generation = info.generation
        ctx.renew_session = lambda reason: self._renew(ctx, reason)
        delay = self.cfg.delay_for(info.slot.account)
        if delay > 0:
            slot = info.slot
            async with slot.pace_lock:
                wait = slot.next_at - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                slot.next_at = time.monotonic() + delay

    async def after_navigation(self, ctx: PageContext) -> None:
        page = ctx.page
        assert page is not None
        note = ctx.note(_PageNote)
        if self.fatal is not None:
            note.refused = "login impossible"
            return
        reason = await self._judge(page, ctx.response, note.generation)
        if reason is None:
            return
        if reason == PROBE_FAILED:  # no evidence of a loss: no re-login, the page comes again later
            note.refused = reason
            return
        self.lost_reasons[reason_kind(reason)] += 1
        info = self.contexts.get(page.context)
        if info is None:
            note.refused = reason
            return
        host = ctx.request.host
        seen = note.generation if note.generation is not None else info.generation
        timeout_ms = self.job.rendering.timeout_seconds * 1000
        self.handle.hold_host(host)
        try:
            # A session can die again before this tab's re-navigation lands (other tabs spent it,
            # or the site allows few requests per login). That is not the page's fault, so it
            # does not cost one of the page's retries: log in again and re-navigate, a bounded
            # number of times; only a page still logged out after all of them is refused.
            for _ in range(RELOGINS_PER_PAGE):
                async with info.lock:
                    if info.generation == seen:
                        log.info("session of %s lost on %s (%s); logging in again", info.slot.name,
                                 ctx.request.url, reason)
                        if not await self._login_with_fallback(page.context, info):
                            note.refused = reason
                            return
                        self.relogins += 1
                    seen = info.generation
                ctx.response = await page.goto(
                    ctx.request.url, wait_until=self.job.rendering.goto_wait, timeout=timeout_ms
                )
                reason = await self._judge(page, ctx.response, seen)
                if reason is None or reason == PROBE_FAILED:
                    note.refused = reason
                    return
            note.refused = reason
        finally:
            self.handle.release_host(host)

    async def _judge(self, page: Page, response: Any, generation: int | None) -> str | None:
        """Why the page just loaded looks logged out, or None; see the module docstring."""
        reason = await self.detector.lost_reason(page, response)
        if reason == MISSING_SIGNAL:
            unsigned = await self._unsigned_page(page, generation)
            return None if unsigned else (PROBE_FAILED if unsigned is None else reason)
        status = response.status if response is not None else 200
        if reason is None and self.detector.unsigned(page.url, status):
            # Nothing on a page of an unsigned shape shows a loss: it is kept only if the session
            # outlived it.
            alive = await self._alive_since(page, generation, time.monotonic())
            if alive is None:
                return PROBE_FAILED
            if not alive:
                return GONE_AFTER_UNSIGNED
        return reason

    async def _alive_since(self, page: Page, generation: int | None, since: float) -> bool | None:
        """Was the session ``page`` was served under still alive at ``since`` or later? One probe
        answers for every page loaded before it started (a session that ended does not revive)."""
        info = self.contexts.get(page.context)
        if info is None or generation is None:
            return True  # not a context this part logged in: nothing to vouch for
        async with self._probe_lock:
            last = info.probe
            if last is not None and last[0] >= since and last[1] == generation and last[2]:
                return True
            return await self._probe(info, page.context, generation)

    async def _unsigned_page(self, page: Page, generation: int | None) -> bool | None:
        """A page without the signal: if the session it was served under is still alive (the login
        it was fetched with is the context's current one, before and after the probe), pages of
        its shape carry no signal. A re-login in between proves nothing: the page is fetched again.
        None: the probe could not tell."""
        info = self.contexts.get(page.context)
        if info is None or generation is None:
            return False
        async with self._probe_lock:  # tabs that hit the same shape at once probe once
            if await self.detector.lost_reason(page, None) != MISSING_SIGNAL:
                return True  # another tab's probe exempted this shape meanwhile
            alive = await self._probe(info, page.context, generation)
            if not alive:
                return alive
            self.detector.exempt(page.url)
            log.info("pages shaped like %s do not show the logged-in signal %s; not expected there",
                     page.url, self.detector.signal)
            return True

    async def _renew(self, ctx: PageContext, reason: str) -> bool:
        """Another hook's request from this page was refused (see ``PageContext.renew_session``)."""
        page = ctx.page
        info = self.contexts.get(page.context) if page is not None else None
        note = ctx.note(_PageNote)
        if info is None or self.fatal is not None or note.renewals >= RELOGINS_PER_PAGE:
            return False
        note.renewals += 1
        self.lost_reasons[reason_kind("a sub-request " + reason)] += 1
        host = ctx.request.host
        self.handle.hold_host(host)
        try:
            async with info.lock:
                if info.generation == note.generation:
                    log.info("session of %s lost during %s (%s); logging in again", info.slot.name,
                             ctx.request.url, reason)
                    if not await self._login_with_fallback(page.context, info):
                        return False
                    self.relogins += 1
                note.generation = info.generation
            return True
        finally:
            self.handle.release_host(host)

    async def _renew_for_http(self, ctx: PageContext, reason: str) -> bool:
        """A page fetched over plain HTTP came back logged out. No browser page would notice (in
        auto mode, once the pages are judged static, the HTTP path may be all that runs), so the
        context whose cookies that path sends logs in again here. True when it has a login newer
        than the page's fetch: the page is fetched again at once, as a tab re-navigates.

        Pages fetched with the same dead cookies log in once between them: a page fetched before
        the context's last login only waits for it."""
        if self.fatal is not None or ctx.result is None:
            return False
        fetched_from = time.monotonic() - ctx.result.fetch_ms / 1000
        self.lost_reasons[reason_kind(reason)] += 1
        host = ctx.request.host
        self.handle.hold_host(host)
        try:
            async with self.handle.http_context() as context:
                info = self.contexts.get(context) if context is not None else None
                if info is None or context is None:
                    return False
                async with info.lock:
                    if info.logged_in_at > fetched_from:
                        return True
                    log.info("session of %s lost on %s, fetched without the browser (%s); logging in "
                             "again", info.slot.name, ctx.request.url, reason)
                    if not await self._login_with_fallback(context, info):
                        return False
                    self.relogins += 1
                    return True
        finally:
            self.handle.release_host(host)

    async def after_snapshot(self, ctx: PageContext) -> None:
        result = ctx.result
        if result is None:
            return
        reason = ctx.note(_PageNote).refused
        if reason is None:
            reason = self.detector.lost_reason_http(result, form_in_html=ctx.page is None)
            if reason is not None and ctx.page is None:
                ctx.fetch_again = await self._renew_for_http(ctx, reason)
        if reason is not None:
            result.store = False
            result.title = f"session lost ({reason})"
            result.extra_rows.clear()
            self.pages_refused += 1
