"""``browsercrawl login ...``: record a login, replay it, log in by form, check and convert states.

Every command that opens a browser takes ``--headed`` and ``--slow-mo MS`` (``record`` is always
headed: a person does the login); the ones that log in also take ``--pause-on-error`` (keep the
headed browser open at the failing step) and ``--trace DIR`` (a Playwright trace of a failed
login). Results are one JSON line on stdout; errors one line on stderr with exit 2 (bad input),
3 (login failed) or 4 (no Chromium / display). Full reference: docs/sessions.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import click

from browsercrawl.config.session import CaptchaConfig, LoggedInSignal, LoggedOutSignal
from browsercrawl.engine.browser import LaunchOptions, open_browser
from browsercrawl.engine.traces import register_secret
from browsercrawl.errors import LoginError, UserError
from browsercrawl.session.detect import Detector, logged_in
from browsercrawl.session.flow import load_flow, replay_flow, save_flow
from browsercrawl.session.formlogin import form_login
from browsercrawl.session.login import LoginSettings, traced_login
from browsercrawl.session.recorder import record_flow
from browsercrawl.session.secrets import keyring_secret
from browsercrawl.session.state import capture_state, load_state, restore_session_storage, save_state
from browsercrawl.session.totp import env_code_source

_PLACEHOLDER_ENV = "BC_PASSWORD"


def _logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        stream=sys.stderr,
        format="browsercrawl: %(levelname)s %(message)s",
    )


def _browser_options(f: Callable) -> Callable:
    f = click.option("--verbose", "-v", is_flag=True, help="Log each step.")(f)
    f = click.option("--slow-mo", "slow_mo", type=click.FloatRange(min=0), default=0, metavar="MS",
                     help="Slow every browser operation by MS milliseconds.")(f)
    f = click.option("--headed", is_flag=True, help="Show the browser (needs a display).")(f)
    return f


def _login_options(f: Callable) -> Callable:
    f = click.option("--trace", "trace_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                     metavar="DIR", help="Save a Playwright trace of a failed login here.")(f)
    f = click.option("--pause-on-error", is_flag=True,
                     help="With --headed: stop at the failing step with the browser open.")(f)
    f = click.option("--state-out", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Save the logged-in state here (mode 600).")(f)
    f = click.option("--captcha-profile", default=None, help="CAPTCHA solver profile or model.")(f)
    f = click.option("--samples", "samples_dir", default=None, type=click.Path(file_okay=False),
                     help="Save CAPTCHA images the site accepted here (training samples).")(f)
    f = click.option("--max-attempts", type=click.IntRange(1, 50), default=5, show_default=True,
                     help="Login attempts (a wrong CAPTCHA gets a fresh image).")(f)
    f = click.option("--logged-in-selector", default=None, help="CSS that only a logged-in page has.")(f)
    f = click.option("--totp-env", default=None, metavar="NAME",
                     help="Env var holding the TOTP seed of a two-factor login (never stored).")(f)
    return _browser_options(f)


def _codes(kw: dict[str, Any], username: str | None) -> Any:
    """The one-time codes of ``--totp-env`` (None without it)."""
    if not kw.get("totp_env"):
        return None
    return env_code_source(kw["totp_env"], "--totp-env")


def _settings(kw: dict[str, Any], login_url: str | None) -> Any:

    if kw.get("pause_on_error") and not kw.get("headed"):
        raise UserError("--pause-on-error needs --headed (there is no browser window to pause in)")
    return LoginSettings(
        login_url=login_url,
        logged_in=LoggedInSignal(selector=kw.get("logged_in_selector")),
        captcha=CaptchaConfig(profile=kw.get("captcha_profile"), max_attempts=kw.get("max_attempts", 5),
                              samples_dir=kw.get("samples_dir")),
        trace_dir=kw.get("trace_dir"),
        pause_on_error=bool(kw.get("pause_on_error") and kw.get("headed")),
        headed=bool(kw.get("headed")),
        captcha_base_dir=Path.cwd(),
    )


def _password(env: str | None, keyring_service: str | None, username: str, option: str) -> str:

    if keyring_service:
        return keyring_secret(keyring_service, username, "--password-keyring")
    name = env or _PLACEHOLDER_ENV
    value = os.environ.get(name)
    if not value:
        raise UserError(f"{option}: environment variable {name} is not set")
    register_secret(value)  # scrubbed from any trace this process writes
    return value


def _run_in_browser(kw: dict[str, Any], body: Callable[[Any], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
    """Launch Chromium (headless unless --headed), run ``body(context)``, close everything."""
    launch = LaunchOptions(headless=not kw.get("headed"), slow_mo_ms=kw.get("slow_mo") or 0)
    launch.as_kwargs()  # a missing display or Chromium fails here, before Playwright starts

    async def main() -> dict[str, Any]:
        async with open_browser(launch) as browser:
            return await body(await browser.new_context())

    return asyncio.run(main())


async def _finish_login(context: Any, kw: dict[str, Any], outcome: Any) -> dict[str, Any]:

    state = await capture_state(context)
    out: dict[str, Any] = {"logged_in": True, "attempts": outcome.attempts,
                           "captchas_solved": outcome.captchas_solved, "url": outcome.url}
    if kw.get("state_out"):
        save_state(state, kw["state_out"])
        out["state"] = str(kw["state_out"])
    return out


@click.group()
def login() -> None:
    """Record, replay and check logins; import and export browser state."""


@login.command()
@click.argument("url")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the flow JSON.")
@click.option("--state-out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Save the logged-in state here (mode 600).")
@click.option("--password-env", default=_PLACEHOLDER_ENV, show_default=True,
              help="Environment variable the flow will read the password from.")
@click.option("--password-keyring", default=None, metavar="SERVICE:USER",
              help="Read the password from this keyring entry instead.")
@click.option("--samples", "samples_dir", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="Save the CAPTCHA images the person answered (verified by the login) here.")
@click.option("--done-selector", default=None, help="CSS that appears once logged in (default: learned).")
@click.option("--done-url", default=None, help="Regex of the URL once logged in (default: learned).")
@click.option("--timeout", type=click.FloatRange(min=1), default=300, show_default=True,
              help="Seconds to wait for the person to finish logging in.")
@click.option("--cdp-port", type=click.IntRange(1, 65535), default=None,
              help="Also open a DevTools port (lets a script act as the person).")
@click.option("--slow-mo", "slow_mo", type=click.FloatRange(min=0), default=0, metavar="MS")
@click.option("--headed", is_flag=True, help="Accepted for symmetry: recording is always headed.")
@click.option("--verbose", "-v", is_flag=True)
def record(url: str, out: Path, state_out: Path | None, password_env: str, password_keyring: str | None,
           samples_dir: Path | None, done_selector: str | None, done_url: str | None, timeout: float,
           cdp_port: int | None, slow_mo: float, headed: bool, verbose: bool) -> None:
    """Open URL in a headed browser and record the login a person does there as a flow file."""


    _logging(verbose)
    if not re.match(r"^https?://[^/\s]+", url):
        raise UserError(f"{url!r} is not an http(s) URL")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", password_env):
        raise UserError(f"--password-env: {password_env!r} is not an environment variable name")
    if password_keyring and password_keyring.count(":") != 1:
        raise UserError("--password-keyring: expected SERVICE:USER")
    placeholder = f"${{keyring:{password_keyring}}}" if password_keyring else f"${{env:{password_env}}}"
    launch = LaunchOptions(headless=False, slow_mo_ms=slow_mo)
    launch.as_kwargs()
    if done_url:
        try:
            re.compile(done_url)
        except re.error as exc:
            raise UserError(f"--done-url: bad regex {done_url!r}: {exc}") from None
    rec = asyncio.run(record_flow(
        url, launch=launch, password_placeholder=placeholder, done_selector=done_selector,
        done_url=done_url, timeout_seconds=timeout, cdp_port=cdp_port,
        on_ready=lambda: click.echo("browsercrawl: recording; log in in the browser window", err=True),
    ))
    save_flow(rec.flow, out)
    result: dict[str, Any] = {"flow": str(out), "steps": len(rec.flow.steps),
                              "logged_in": rec.flow.logged_in.model_dump(exclude_none=True)}
    if state_out:
        save_state(rec.state, state_out)
        result["state"] = str(state_out)
    if samples_dir:
        from browsercrawl.captcha.samples import record_verified_sample

        for image, answer in rec.captchas:
            record_verified_sample(samples_dir, image, answer)
        result["captcha_samples"] = len(rec.captchas)
    click.echo(json.dumps(result))


@login.command()
@click.argument("flow_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--username", default=None, help="Log in as this account (default: the recorded one).")
@click.option("--password-env", default=None, help="Env var with this account's password.")
@_login_options
def replay(flow_file: Path, username: str | None, password_env: str | None, **kw: Any) -> None:
    """Replay a recorded login flow headless: fill secrets, solve the CAPTCHA, verify, save state."""

    _logging(kw["verbose"])
    flow = load_flow(flow_file)
    password = _password(password_env, None, username or "", "--password-env") if password_env else None
    settings = _settings(kw, flow.start_url)
    if settings.logged_in.is_empty():
        settings.logged_in = flow.logged_in

    async def body(context: Any) -> dict[str, Any]:
        async def run(tab: Any) -> Any:
            return await replay_flow(tab, flow, settings, source=str(flow_file), username=username,
                                     password=password, codes=_codes(kw, username))

        outcome = await traced_login(context, settings, run)
        return await _finish_login(context, kw, outcome)

    click.echo(json.dumps(_run_in_browser(kw, body)))


@login.command()
@click.argument("url")
@click.option("--username", required=True)
@click.option("--password-env", default=_PLACEHOLDER_ENV, show_default=True,
              help="Env var holding the password.")
@click.option("--password-keyring", default=None, metavar="SERVICE", help="Keyring service instead.")
@_login_options
def form(url: str, username: str, password_env: str, password_keyring: str | None, **kw: Any) -> None:
    """Find the login form at URL and log in with it (no recording needed)."""

    _logging(kw["verbose"])
    password = _password(password_env, password_keyring, username, "--password-env")
    settings = _settings(kw, url)

    async def body(context: Any) -> dict[str, Any]:
        async def run(tab: Any) -> Any:
            return await form_login(tab, url, username, password, settings, codes=_codes(kw, username))

        outcome = await traced_login(context, settings, run)
        return await _finish_login(context, kw, outcome)

    click.echo(json.dumps(_run_in_browser(kw, body)))


@login.command()
@click.argument("url")
@click.option("--state", "state_file", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["auto", "playwright", "netscape", "extension"]),
              default="auto", show_default=True)
@click.option("--logged-in-selector", default=None, help="CSS that only a logged-in page has.")
@click.option("--login-url", default=None, help="The site's login URL (a redirect there = logged out).")
@_browser_options
def check(url: str, state_file: Path, fmt: str, logged_in_selector: str | None, login_url: str | None,
          **kw: Any) -> None:
    """Open URL with a saved state and say whether it is still logged in (exit 3 if not)."""

    _logging(kw["verbose"])
    state = load_state(state_file, fmt)
    detector = Detector(LoggedOutSignal(), login_url)

    async def body(context: Any) -> dict[str, Any]:
        browser = context.browser

        ctx = await browser.new_context(storage_state=state.storage_state())
        await restore_session_storage(ctx, state)
        page = await ctx.new_page()
        response = await page.goto(url, wait_until="load")
        reason = await detector.lost_reason(page, response)
        ok = reason is None and await logged_in(page, LoggedInSignal(selector=logged_in_selector), detector)
        return {"logged_in": ok, "url": page.url, "reason": reason}

    result = _run_in_browser(kw, body)
    click.echo(json.dumps(result))
    if not result["logged_in"]:
        raise LoginError(f"{state_file}: not logged in at {url} ({result['reason'] or 'signal missing'})")


@login.group()
def state() -> None:
    """Convert browser state between Playwright JSON, Netscape cookies.txt and extension JSON."""


@state.command("import")
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["auto", "playwright", "netscape", "extension"]),
              default="auto", show_default=True, help="Format of SOURCE.")
def state_import(source: Path, out: Path, fmt: str) -> None:
    """Read SOURCE (cookies.txt, extension JSON, storage state) into a state file (mode 600)."""

    st = load_state(source, fmt)
    save_state(st, out, "playwright")
    click.echo(json.dumps({"state": str(out), "cookies": len(st.cookies)}))


@state.command("export")
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["playwright", "netscape", "extension"]),
              required=True, help="Format to write.")
def state_export(source: Path, out: Path, fmt: str) -> None:
    """Write a state file as FORMAT (mode 600); cookie-only formats drop local/sessionStorage."""

    st = load_state(source)
    save_state(st, out, fmt)
    click.echo(json.dumps({"out": str(out), "format": fmt, "cookies": len(st.cookies)}))
