"""Logging in without a recording: find the login form on a page and fill it from an account.

The finder runs in the page: the visible password field is the anchor; its form gives the user
field (a text/email input named like a user, else the one before the password), the submit button,
the hidden fields (CSRF tokens are submitted untouched because the real form is submitted in the
browser) and a CAPTCHA (an ``<img>`` whose src/id/alt/class says captcha, plus the text field whose
name/label says so). Found elements are tagged ``data-bc-login=...`` so later steps address them
without guessing twice.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from browsercrawl.config.session import FormSelectors
from browsercrawl.errors import LoginError
from browsercrawl.session.login import (
    CaptchaSeen,
    FormRefused,
    LoginOutcome,
    LoginSettings,
    form_refusal,
    goto_settled,
    run_login,
    solve_captcha,
)
from browsercrawl.session.totp import CodeSource, answer_otp_prompt, fill_otp_if_asked

if TYPE_CHECKING:
    from playwright.async_api import Page

FIND_FORM_JS = """(over) => {
  const vis = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const q = s => { try { return s ? document.querySelector(s) : null; } catch (e) { return null; } };
  const pw = q(over.password) || [...document.querySelectorAll('input[type=password]')].find(vis);
  if (!pw) return null;
  const form = pw.form || pw.closest('form') || document.body;
  const label = e => (e.labels && e.labels.length ? e.labels[0].innerText : '') || '';
  const words = e => [e.name, e.id, e.getAttribute('autocomplete'), e.getAttribute('placeholder'),
                      e.getAttribute('aria-label'), label(e)].join(' ').toLowerCase();
  const textlike = e => e.tagName === 'INPUT' &&
      ['text', 'email', 'tel', ''].includes((e.getAttribute('type') || '').toLowerCase());
  const captchaWords = /captcha|security code|verification code|characters in|code in the image/;
  const inputs = [...form.querySelectorAll('input')].filter(e => vis(e) && textlike(e));
  const isCaptcha = e => captchaWords.test(words(e));
  let user = q(over.username);
  if (!user) {
    const cands = inputs.filter(e => !isCaptcha(e));
    user = cands.find(e => /user|e-?mail|login|account|name/.test(words(e))) ||
           cands.filter(e => e.compareDocumentPosition(pw) & Node.DOCUMENT_POSITION_FOLLOWING).pop() ||
           cands[0] || null;
  }
  const imgs = [...form.querySelectorAll('img, canvas'), ...document.querySelectorAll('img')];
  const cimg = imgs.find(e => vis(e) &&
      /captcha/i.test([e.getAttribute('src'), e.id, e.alt, e.className].join(' ')));
  const cin = inputs.find(e => e !== user && isCaptcha(e)) ||
              (cimg ? inputs.find(e => e !== user && e !== pw) : null);
  const submit = q(over.submit) || form.querySelector('button[type=submit], input[type=submit]') ||
      form.querySelector('button:not([type=button]):not([type=reset])') ||
      form.querySelector('button, [role=button], input[type=image]');
  document.querySelectorAll('[data-bc-login]').forEach(e => e.removeAttribute('data-bc-login'));
  pw.setAttribute('data-bc-login', 'password');
  if (user) user.setAttribute('data-bc-login', 'username');
  if (submit) submit.setAttribute('data-bc-login', 'submit');
  if (cimg && cin) {
    cimg.setAttribute('data-bc-login', 'captcha-image');
    cin.setAttribute('data-bc-login', 'captcha');
  }
  const hidden = [...form.querySelectorAll('input[type=hidden]')].map(e => e.name).filter(Boolean);
  return {user: !!user, submit: !!submit, captcha: !!(cimg && cin), hidden};
}"""

SEL = {k: f'[data-bc-login="{k}"]' for k in ("username", "password", "submit", "captcha", "captcha-image")}


async def find_login_form(page: Page, overrides: FormSelectors | None = None) -> dict[str, Any] | None:
    """Tag the login form's parts in the page; None when the page has no visible password field."""
    over = (overrides or FormSelectors()).model_dump()
    return await page.evaluate(FIND_FORM_JS, over)


async def submit_and_wait(page: Page, submit_selector: str | None, timeout_ms: float) -> str | None:
    """Click submit (or press Enter in the password field) and wait for the resulting page.

    Returns why the browser refused to send the form (nothing was sent, so the wait would run
    out its whole timeout), else None.
    """
    if submit_selector:
        refused = await form_refusal(page.locator(submit_selector).first)
    else:
        refused = await form_refusal(page.locator(SEL["password"]).first, "Enter")
    if refused:
        return refused
    try:
        async with page.expect_navigation(wait_until="load", timeout=timeout_ms):
            if submit_selector:
                await page.locator(submit_selector).first.click()
            else:
                await page.locator(SEL["password"]).press("Enter")
    except Exception:  # single-page apps log in without navigating: the signal check decides
        with contextlib.suppress(Exception):
            await page.wait_for_load_state("networkidle", timeout=min(timeout_ms, 5000))
    return None


async def form_login(
    page: Page,
    url: str,
    username: str,
    password: str,
    settings: LoginSettings,
    overrides: FormSelectors | None = None,
    codes: CodeSource | None = None,
) -> LoginOutcome:
    """Open ``url``, fill its login form with the account, solve the CAPTCHA, submit, verify.

    A page asking for a one-time code after the password gets one from ``codes`` (the account's
    TOTP seed); without ``codes`` that is a clear error.
    """
    timeout_ms = settings.timeout_seconds * 1000
    state = {"captcha": False}

    async def attempt(p: Page, n: int) -> CaptchaSeen | None:
        await goto_settled(p, url, timeout_ms)
        found = await find_login_form(p, overrides)
        if found is None:
            if settings.detector.url_is_login(p.url) or n > 1:
                raise LoginError(f"{url}: no login form found (no visible password field)")
            return None  # already logged in (the site redirected away from its login page)
        if not found["user"]:
            raise LoginError(f"{url}: login form has no username field (set session.form.username)")
        await p.locator(SEL["username"]).fill(username)
        await p.locator(SEL["password"]).fill(password)
        seen = None
        cap = settings.captcha
        if cap.image_selector and cap.input_selector:
            state["captcha"] = True
            seen = await solve_captcha(p, settings, cap.image_selector, cap.input_selector)
        elif found["captcha"]:
            state["captcha"] = True
            seen = await solve_captcha(p, settings, SEL["captcha-image"], SEL["captcha"])
        otp = overrides.otp if overrides else None
        in_form = await fill_otp_if_asked(p, codes, otp)
        refused = await submit_and_wait(p, SEL["submit"] if found["submit"] else None, timeout_ms)
        if refused:
            raise FormRefused(refused, seen)
        if not in_form:
            await answer_otp_prompt(p, codes, who=username, where=url, timeout_ms=timeout_ms, override=otp)
        return seen

    return await run_login(
        page, attempt, settings, who=username, where=url, has_captcha=lambda: state["captcha"]
    )
