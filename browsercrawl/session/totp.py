"""Two-factor logins: the one-time code (TOTP, RFC 6238) a site asks for after the password.

The seed is read from an environment variable or the keyring only when a code is needed and is
never stored, logged or put in an error message; a code is made from it with ``pyotp`` right
before it is typed. The code field is found like the login form: a visible input with
``autocomplete="one-time-code"``, else one whose name, id, label or placeholder says code / OTP /
two-factor / authenticator (never a CAPTCHA field).
"""

from __future__ import annotations

import binascii
import contextlib
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

import pyotp

from browsercrawl.config.session import Account
from browsercrawl.errors import LoginError, UserError
from browsercrawl.session.secrets import keyring_secret

if TYPE_CHECKING:
    from playwright.async_api import Page

# A function giving the current one-time code (it reads the seed each time it is called).
CodeSource = Callable[[], str]

FIND_OTP_JS = """(override) => {
  const vis = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  document.querySelectorAll('[data-bc-otp]').forEach(e => e.removeAttribute('data-bc-otp'));
  let field = null;
  try { field = override ? document.querySelector(override) : null; } catch (e) { field = null; }
  if (!field) {
    const inputs = [...document.querySelectorAll('input')].filter(e => vis(e) &&
        ['text', 'tel', 'number', 'password', ''].includes((e.getAttribute('type') || '').toLowerCase()));
    const label = e => (e.labels && e.labels.length ? e.labels[0].innerText : '') || '';
    const words = e => [e.name, e.id, e.getAttribute('placeholder'), e.getAttribute('aria-label'),
                        label(e)].join(' ').toLowerCase();
    field = inputs.find(e => (e.getAttribute('autocomplete') || '').includes('one-time-code')) ||
        inputs.find(e => !/captcha|image/.test(words(e)) &&
            /\\botp\\b|totp|one.?time|2fa|two.?factor|authenticat|verification code|security code|\\bmfa\\b/
              .test(words(e)));
  }
  if (!field) return null;
  field.setAttribute('data-bc-otp', 'code');
  const form = field.form || field.closest('form') || document.body;
  const submit = form.querySelector('button[type=submit], input[type=submit]') ||
      form.querySelector('button:not([type=button]):not([type=reset])');
  if (submit) submit.setAttribute('data-bc-otp', 'submit');
  return {submit: !!submit};
}"""

OTP_SEL = {k: f'[data-bc-otp="{k}"]' for k in ("code", "submit")}


def code_from_seed(seed: str, where: str) -> str:
    """The current TOTP code of a base32 seed; a malformed seed is a one-line error (seed not shown)."""
    try:
        return pyotp.TOTP(seed.replace(" ", "").upper()).now()
    except (binascii.Error, ValueError, TypeError) as exc:  # pyotp's reasons never quote the seed
        raise UserError(f"{where}: the TOTP seed is not valid base32 ({exc})") from None


def account_code_source(account: Account, where: str) -> CodeSource | None:
    """The account's code source (``totp_env`` / ``totp_keyring``), None if it has no second factor."""
    if account.totp_env is not None:
        return env_code_source(account.totp_env, f"{where}.totp_env")
    if account.totp_keyring is not None:
        service = account.totp_keyring
        return lambda: code_from_seed(
            keyring_secret(service, account.username, f"{where}.totp_keyring"), f"{where}.totp_keyring"
        )
    return None


def env_code_source(name: str, where: str) -> CodeSource:
    """Codes from the seed in environment variable ``name``, read when each code is made."""

    def from_env() -> str:
        seed = os.environ.get(name)
        if not seed:
            raise UserError(f"{where}: environment variable {name} is not set")
        return code_from_seed(seed, where)

    return from_env


async def find_otp_field(page: Page, override: str | None = None) -> dict | None:
    """Tag the one-time-code field (and its submit button); None when the page asks for no code."""
    with contextlib.suppress(Exception):  # the page may be navigating still
        return await page.evaluate(FIND_OTP_JS, override)
    return None


async def fill_otp_if_asked(page: Page, codes: CodeSource | None, override: str | None = None) -> bool:
    """A login form that asks for the code with the password (one step): type it, do not submit."""
    if codes is None or await find_otp_field(page, override) is None:
        return False
    await page.locator(OTP_SEL["code"]).fill(codes())
    return True


async def answer_otp_prompt(
    page: Page, codes: CodeSource | None, *, who: str, where: str, timeout_ms: float,
    override: str | None = None,
) -> bool:
    """If the page asks for a one-time code, type the current one and submit; True if it asked.

    A page asking for a code with no seed configured is a clear error naming the keys to set.
    """
    if await find_otp_field(page, override) is None:
        return False
    if codes is None:
        raise LoginError(
            f"login as {who} at {where} asks for a one-time code: set the account's totp_env "
            "(an environment variable holding the TOTP seed) or totp_keyring"
        )
    await page.locator(OTP_SEL["code"]).fill(codes())
    has_submit = bool(await page.locator(OTP_SEL["submit"]).count())
    try:
        async with page.expect_navigation(wait_until="load", timeout=timeout_ms):
            if has_submit:
                await page.locator(OTP_SEL["submit"]).first.click()
            else:
                await page.locator(OTP_SEL["code"]).press("Enter")
    except Exception:  # a code checked without a navigation: the logged-in signal decides
        with contextlib.suppress(Exception):
            await page.wait_for_load_state("networkidle", timeout=min(timeout_ms, 5000))
    return True
