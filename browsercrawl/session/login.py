"""What every way of logging in shares: attempts, CAPTCHA retries, verification, clear failures.

A login *attempt* (a recorded flow, or the automatic form filler) drives the page up to the
submit. This module then decides: logged in (the signal holds), or which failure it was. A wrong
password or a locked account stops at once - retrying would only lock the account - while a wrong
CAPTCHA (or an unexplained failure on a page with a CAPTCHA) retries with a fresh image. Failed
logins leave a Playwright trace when asked, and ``pause_on_error`` keeps a headed browser open at
the failing step so a person can look.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browsercrawl.config.session import (
    DEFAULT_CAPTCHA_TEXTS,
    DEFAULT_FAILURE_TEXTS,
    DEFAULT_LOCKED_TEXTS,
    CaptchaConfig,
    LoggedInSignal,
    LoggedOutSignal,
    SessionConfig,
)
from browsercrawl.engine.traces import save_trace
from browsercrawl.errors import LoginError
from browsercrawl.session.detect import Detector, logged_in

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Locator, Page

    from browsercrawl.captcha.solver import CaptchaSolver

log = logging.getLogger(__name__)

_ERROR_TEXT_JS = """() => {
  const els = document.querySelectorAll('[role=alert], .error, .errors, .alert, .flash, .notice, .message');
  return [...els].map(e => (e.innerText || '').trim()).filter(Boolean).join(' | ').slice(0, 300);
}"""


class AccountLocked(LoginError):
    """The site says the account is locked, banned or suspended: retire it, do not retry."""


class WrongCredentials(LoginError):
    """The site rejected the username or password: retrying would only lock the account."""


class FormRefused(Exception):
    """The browser would not send the login form (its own validation): nothing reached the site."""

    def __init__(self, reason: str, seen: CaptchaSeen | None) -> None:
        super().__init__(reason)
        self.reason, self.seen = reason, seen


# Would the browser refuse to send the form that this click (key null) or key press in ``e``
# submits? Its own validation says so before any request: a required field left empty (an
# unreadable CAPTCHA answered with nothing) would otherwise wait out the whole login timeout.
_FORM_REFUSED_JS = """(e, key) => {
  const form = e.form;
  if (!form || form.noValidate) return null;
  const isSubmit = (x) => (x.tagName === 'BUTTON' && (x.type || 'submit') === 'submit')
      || (x.tagName === 'INPUT' && (x.type === 'submit' || x.type === 'image'));
  let submitter;
  if (key === null) {
    if (!isSubmit(e)) return null;
    submitter = e;
  } else {
    if (key !== 'Enter' || e.tagName !== 'INPUT') return null;
    submitter = [...form.elements].find(isSubmit);
  }
  if ((submitter && submitter.formNoValidate) || form.checkValidity()) return null;
  const bad = [...form.elements].find((x) => x.willValidate && !x.checkValidity());
  return bad ? `${bad.name || bad.id || bad.type}: ${bad.validationMessage}` : 'the form is not valid';
}"""


async def form_refusal(target: Locator, key: str | None = None) -> str | None:
    """Why the browser would not send the form that clicking ``target`` (or pressing ``key`` in
    it) submits, in the browser's own words; None when it would, or when nothing is submitted."""
    with contextlib.suppress(PlaywrightError):
        refused = await target.evaluate(_FORM_REFUSED_JS, key, timeout=5000)
        return str(refused) if refused else None
    return None


@dataclass
class CaptchaSeen:
    """A CAPTCHA an attempt answered; kept so an accepted answer becomes a training sample."""

    image: bytes
    answer: str


@dataclass
class LoginSettings:
    """Everything a login needs besides the account: signals, texts, CAPTCHA, debugging."""

    logged_in: LoggedInSignal = field(default_factory=LoggedInSignal)
    logged_out: LoggedOutSignal = field(default_factory=LoggedOutSignal)
    login_url: str | None = None
    captcha: CaptchaConfig = field(default_factory=CaptchaConfig)
    failure_texts: list[str] = field(default_factory=lambda: list(DEFAULT_FAILURE_TEXTS))
    locked_texts: list[str] = field(default_factory=lambda: list(DEFAULT_LOCKED_TEXTS))
    timeout_seconds: float = 30.0
    trace_dir: Path | None = None
    pause_on_error: bool = False
    headed: bool = False  # a person can see the browser: an unsure CAPTCHA answer is asked of them
    captcha_base_dir: Path = Path(".")
    captchas_answered: int = 0  # CAPTCHA answers typed into login forms
    captchas_accepted: int = 0  # ... of which the site accepted (the solver's accuracy in the field)
    _solver: CaptchaSolver | None = None

    @classmethod
    def from_config(cls, cfg: SessionConfig, **kw) -> LoginSettings:
        return cls(
            logged_in=cfg.logged_in,
            logged_out=cfg.logged_out,
            login_url=cfg.login_url,
            captcha=cfg.captcha,
            failure_texts=cfg.failure_texts,
            locked_texts=cfg.locked_texts,
            timeout_seconds=cfg.login_timeout_seconds,
            captcha_base_dir=cfg.base_dir,
            **kw,
        )

    @property
    def detector(self) -> Detector:
        return Detector(self.logged_out, self.login_url)

    def solver(self) -> CaptchaSolver:
        """The CAPTCHA solver, built on first use (loading a model costs time)."""
        if self._solver is None:
            from browsercrawl.captcha.solver import CaptchaSolver

            profile = self.captcha.profile
            if profile and not Path(profile).is_absolute():
                profile = str(self.captcha_base_dir / profile)
            self._solver = CaptchaSolver.from_profile(profile)
        return self._solver

    def samples_dir(self) -> Path | None:
        d = self.captcha.samples_dir
        if not d:
            return None
        return Path(d) if Path(d).is_absolute() else self.captcha_base_dir / d


@dataclass
class LoginOutcome:
    attempts: int
    captchas_solved: int
    url: str


# attempt(page, attempt number) -> the CAPTCHA answered in it, if any
Attempt = Callable[["Page", int], Awaitable[CaptchaSeen | None]]


async def solve_captcha(page: Page, settings: LoginSettings, image_sel: str, input_sel: str) -> CaptchaSeen:
    """Screenshot the CAPTCHA, solve it with the real solver, type the answer."""
    from browsercrawl.captcha.browser import captcha_image_bytes

    img = page.locator(image_sel).first
    await img.wait_for(state="attached", timeout=10_000)
    loaded = await img.evaluate("e => e.tagName !== 'IMG' || (e.complete && e.naturalWidth > 0)")
    src = await img.evaluate("e => e.src || ''")
    if not loaded and src.startswith("http"):
        # The crawl's browser blocks images (a launch flag): fetch the same URL with the page's
        # cookies instead; sites re-serve the shown challenge for the same URL (the demo does).
        response = await page.context.request.get(src)
        image = await response.body()
    else:
        image = await captcha_image_bytes(page, image_sel)
    solution = await settings.solver().solve(image)
    cap = settings.captcha
    if settings.headed and (cap.ask_below >= 1 or solution.confidence < cap.ask_below):
        answer = await ask_person(page, input_sel, solution.text, solution.confidence,
                                  cap.ask_timeout_seconds)
        if answer is not None:
            return CaptchaSeen(image, answer)
    await page.locator(input_sel).first.fill(solution.text)
    log.info("CAPTCHA answered %r (confidence %.2f, %s)", solution.text, solution.confidence,
             solution.recogniser)
    return CaptchaSeen(image, solution.text)


# The person has typed something and left the field (Tab, or a click elsewhere).
_PERSON_DONE_JS = """sel => { const e = document.querySelector(sel);
  return !!e && e.value.trim().length > 0 && document.activeElement !== e; }"""


async def ask_person(
    page: Page, input_sel: str, guess: str, confidence: float, timeout_s: float
) -> str | None:
    """Let the person at the headed browser type the CAPTCHA answer; None if they do not.

    The field is emptied and focused and the solver's guess is said on stderr; the answer counts
    once the field holds text and the person has left it. Their accepted answer becomes a verified
    sample like any other, so asking also teaches the site's model.
    """
    field = page.locator(input_sel).first
    await field.fill("")
    await field.focus()
    click.echo(f"browsercrawl: the CAPTCHA solver is unsure (it reads {guess!r}, confidence "
               f"{confidence:.2f}); type the characters into the page's field and press Tab "
               f"(waiting {timeout_s:.0f} s)", err=True)
    try:
        await page.wait_for_function(_PERSON_DONE_JS, arg=input_sel, timeout=timeout_s * 1000, polling=200)
    except PlaywrightTimeoutError:
        log.warning("nobody answered the CAPTCHA in %.0f s; submitting the solver's %r", timeout_s, guess)
        return None
    answer = (await field.input_value()).strip()
    log.info("CAPTCHA answered %r by the person at the browser", answer)
    return answer


async def failure_kind(page: Page, settings: LoginSettings) -> tuple[str, str]:
    """('locked' | 'credentials' | 'captcha' | 'unknown', what the page says)."""
    try:
        shown = await page.evaluate(_ERROR_TEXT_JS)
        body = (await page.evaluate("() => document.body ? document.body.innerText : ''")).lower()
    except Exception:
        return "unknown", ""
    said = shown or ""
    low = said.lower() or body
    if any(t.lower() in low for t in settings.locked_texts):
        return "locked", said or "account locked"
    if any(t.lower() in low for t in settings.failure_texts):
        return "credentials", said or "wrong username or password"
    if any(t in low for t in DEFAULT_CAPTCHA_TEXTS) and said:
        return "captcha", said
    return "unknown", said


async def run_login(
    page: Page,
    attempt: Attempt,
    settings: LoginSettings,
    *,
    who: str,
    where: str,
    has_captcha: Callable[[], bool] = lambda: True,
) -> LoginOutcome:
    """Run ``attempt`` until the logged-in signal holds; raise a one-line :class:`LoginError` if not.

    ``who`` names the account and ``where`` the login URL or flow file in error messages (never
    the password).
    """
    detector = settings.detector
    captchas = 0
    max_attempts = settings.captcha.max_attempts
    last = ""
    for n in range(1, max_attempts + 1):
        try:
            seen = await attempt(page, n)
        except FormRefused as refused:
            # An unreadable CAPTCHA answered with nothing, say: the next attempt gets a new one.
            captchas += refused.seen is not None
            settings.captchas_answered += refused.seen is not None
            if refused.seen is None and not has_captcha():
                why = f"the browser would not send the form ({refused.reason})"
                raise LoginError(f"login as {who} at {where} failed: {why}") from None
            last = f"the browser would not send the form: {refused.reason}"
            log.info("login attempt %d as %s failed (%s); retrying with a fresh CAPTCHA", n, who, last)
            continue
        captchas += seen is not None
        settings.captchas_answered += seen is not None
        with contextlib.suppress(Exception):
            await page.wait_for_load_state("load", timeout=settings.timeout_seconds * 1000)
        if await logged_in(page, settings.logged_in, detector):
            settings.captchas_accepted += seen is not None
            if seen is not None and (folder := settings.samples_dir()) is not None:
                from browsercrawl.captcha.samples import record_verified_sample

                with contextlib.suppress(Exception):
                    record_verified_sample(folder, seen.image, seen.answer)
            return LoginOutcome(n, captchas, page.url)
        kind, said = await failure_kind(page, settings)
        detail = f" (the site says: {said})" if said else ""
        if kind == "locked":
            raise AccountLocked(f"login as {who} at {where} failed: account locked or banned{detail}")
        if kind == "credentials":
            raise WrongCredentials(f"login as {who} at {where} failed: wrong username or password{detail}")
        if seen is None and not has_captcha():
            raise LoginError(
                f"login as {who} at {where} did not reach the logged-in state{detail or ' (no error shown)'}"
            )
        last = said or "the logged-in signal did not appear"
        log.info("login attempt %d as %s failed (%s); retrying with a fresh CAPTCHA", n, who, last)
    hint = "" if settings.headed else (
        "; train a model on this site's CAPTCHAs (browsercrawl captcha train on the accepted samples "
        "in [session.captcha] samples_dir, or labelled ones) or log in with --headed to answer them yourself"
    )
    raise LoginError(
        f"login as {who} at {where} failed: CAPTCHA not accepted after {max_attempts} attempts ({last}){hint}"
    )


async def goto_settled(page: Page, url: str, timeout_ms: float) -> None:
    """``page.goto(url)`` that the page's own script cannot cancel.

    A re-login runs in the crawl's tab, whose script may still be leaving for the login page
    when the session ended mid-page. If the page had user activation (the load-more hook clicked
    in it), that navigation cancels the goto ("interrupted by another navigation" or
    net::ERR_ABORTED). Waiting for it to land does not help: the cancelled goto may still commit
    later and cancel the next one. So the old document is unloaded first (``about:blank`` commits
    at once and runs no script), then the goto runs alone; a race in that first step is retried.
    """
    for attempt in range(3):
        try:
            if page.url != "about:blank":
                await page.goto("about:blank", timeout=timeout_ms)
            await page.goto(url, wait_until="load", timeout=timeout_ms)
            return
        except PlaywrightError as exc:
            lost_race = any(s in str(exc) for s in ("interrupted by another navigation", "net::ERR_ABORTED"))
            if not lost_race or attempt == 2:
                raise


async def traced_login(
    context: BrowserContext,
    settings: LoginSettings,
    body: Callable[[Page], Awaitable[LoginOutcome]],
) -> LoginOutcome:
    """Run a login in a new tab of ``context``; on failure save a trace and maybe pause."""
    if settings.trace_dir is not None:
        await context.tracing.start(screenshots=True, snapshots=True)
    tab = await context.new_page()
    try:
        outcome = await body(tab)
    except Exception as exc:
        if settings.trace_dir is not None:
            settings.trace_dir.mkdir(parents=True, exist_ok=True)
            path = settings.trace_dir / f"login-failed-{int(time.time() * 1000)}.zip"
            with contextlib.suppress(Exception):
                await save_trace(context, path)  # no password, cookie or storage value; mode 600
                log.warning("trace of the failed login saved to %s (playwright show-trace %s)", path, path)
        if settings.pause_on_error and not tab.is_closed():
            click.echo(f"browsercrawl: paused at the failing step ({exc}); close the browser to go on",
                       err=True)
            with contextlib.suppress(Exception):
                await tab.wait_for_event("close", timeout=0)
        raise
    else:
        if settings.trace_dir is not None:
            with contextlib.suppress(Exception):
                await context.tracing.stop()
        return outcome
    finally:
        if not tab.is_closed():
            with contextlib.suppress(Exception):
                await tab.close()
