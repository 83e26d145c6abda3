"""Recorded login flows: a readable JSON list of steps, validated on load and replayed headless.

A flow holds no secret. A password step's value is a placeholder resolved at replay time:
``${env:NAME}`` (environment variable), ``${keyring:SERVICE:USER}`` (system keyring),
``${password}`` / ``${username}`` (the account being logged in, in a crawl). Fill steps tagged
``"field": "username"`` / ``"password"`` take the crawl account's values instead of the recorded
ones, so one recording logs in every account of a pool. A ``totp`` step types a fresh one-time
code made from a TOTP seed: ``${totp}`` (the crawl account's ``totp_env``/``totp_keyring``) or
``${env:NAME}`` / ``${keyring:SERVICE:USER}`` holding the seed; the code is made when the step
runs. Each element is described by several
locators (test id, id, name, label, role + accessible name, placeholder, text, CSS path); replay
uses the first that matches exactly one element, so a flow survives most page redesigns.
See docs/sessions.md for the format.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from browsercrawl.config.errors import format_validation_error
from browsercrawl.config.session import LoggedInSignal
from browsercrawl.config.values import check_http_url
from browsercrawl.engine.traces import register_secret
from browsercrawl.errors import LoginError, UserError
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
from browsercrawl.session.secrets import keyring_secret
from browsercrawl.session.state import write_private
from browsercrawl.session.totp import CodeSource, code_from_seed

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

FLOW_VERSION = 1
_PLACEHOLDER = re.compile(r"\$\{(env:[A-Za-z_][A-Za-z0-9_]*|keyring:[^:}]+:[^}]+|username|password|totp)\}")
Action = Literal["goto", "fill", "select", "check", "uncheck", "click", "press", "captcha", "wait", "totp"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Target(_Model):
    """Ways to find one element, most robust first; replay takes the first unique match."""

    testid: str | None = None
    id: str | None = None
    name: str | None = None
    label: str | None = None
    role: str | None = None
    role_name: str | None = None
    placeholder: str | None = None
    text: str | None = None
    css: str | None = None

    @model_validator(mode="after")
    def _something(self) -> Target:
        if not any(v for v in self.model_dump().values()):
            raise ValueError("a target needs at least one locator (id, name, label, role, text, css)")
        return self

    def describe(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self.model_dump().items() if v)

    def candidates(self, page: Page) -> list[Locator]:
        out = []
        if self.testid:
            out.append(page.get_by_test_id(self.testid))
        if self.id:
            out.append(page.locator(f"[id={json.dumps(self.id)}]"))
        if self.name:
            out.append(page.locator(f"[name={json.dumps(self.name)}]"))
        if self.label:
            out.append(page.get_by_label(self.label, exact=True))
        if self.role:
            kw = {"name": self.role_name, "exact": True} if self.role_name else {}
            out.append(page.get_by_role(self.role, **kw))  # type: ignore[arg-type]
        if self.placeholder:
            out.append(page.get_by_placeholder(self.placeholder, exact=True))
        if self.text:
            out.append(page.get_by_text(self.text, exact=True))
        if self.css:
            out.append(page.locator(self.css))
        return out


class Step(_Model):
    action: Action
    target: Target | None = None
    url: str | None = None
    value: str | None = None
    key: str | None = None
    field: Literal["username", "password"] | None = None
    image: Target | None = None
    input: Target | None = None
    refresh: Target | None = None
    seconds: float | None = Field(default=None, ge=0, le=300)
    navigates: bool | None = None  # a click/press that loads a new page (the recorder notes it)
    note: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> Step:
        need = {
            "goto": ("url",),
            "fill": ("target", "value"),
            "select": ("target", "value"),
            "check": ("target",),
            "uncheck": ("target",),
            "click": ("target",),
            "press": ("target", "key"),
            "captcha": ("image", "input"),
            "wait": ("seconds",),
            "totp": ("target", "value"),
        }[self.action]
        for key in need:
            if getattr(self, key) is None:
                raise ValueError(f"a {self.action!r} step needs {key!r}")
        if self.action == "goto" and self.url is not None:
            check_http_url(self.url, "goto URL")  # the same rule as the job's login_url
        if self.field == "password" and self.value is not None and not _PLACEHOLDER.fullmatch(self.value):
            raise ValueError("a password must be a placeholder like ${env:BC_PASSWORD}, never the password")
        if self.action == "totp" and not _PLACEHOLDER.fullmatch(self.value or ""):
            raise ValueError("a totp step's value must be ${totp} or a placeholder holding the seed, "
                             "like ${env:BC_TOTP_SEED}, never the seed")
        return self


class Flow(_Model):
    version: int = FLOW_VERSION
    name: str | None = None
    start_url: str
    steps: list[Step] = Field(min_length=1)
    logged_in: LoggedInSignal = Field(default_factory=LoggedInSignal)
    recorded_at: str | None = None

    @field_validator("start_url")
    @classmethod
    def _start_url_is_http(cls, url: str) -> str:
        return check_http_url(url, "start URL")  # the same rule as the job's login_url

    @model_validator(mode="after")
    def _starts_with_goto(self) -> Flow:
        if self.version != FLOW_VERSION:
            raise ValueError(f"unsupported flow version {self.version} (this browsercrawl reads 1)")
        if self.steps[0].action != "goto":
            raise ValueError("the first step must be a 'goto'")
        return self

    def has_captcha(self) -> bool:
        return any(s.action == "captcha" for s in self.steps)

    def username(self) -> str | None:
        return next((s.value for s in self.steps if s.field == "username"), None)


def load_flow(path: str | Path) -> Flow:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: flow file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read flow file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}") from None
    try:
        return Flow.model_validate(data)
    except ValidationError as exc:
        raise UserError(format_validation_error(path, exc)) from None


def save_flow(flow: Flow, path: str | Path) -> None:
    """Write the flow (it holds no secret, but it says how to log in: keep it private too)."""
    write_private(Path(path), json.dumps(flow.model_dump(exclude_none=True), indent=2) + "\n")


def resolve_value(value: str, where: str, username: str | None, password: str | None) -> str:
    """Replace placeholders; a missing secret is a one-line error naming the step."""

    def sub(m: re.Match[str]) -> str:
        key = m.group(1)
        if key == "username":
            if username is None:
                raise UserError(f"{where}: ${{username}} needs an account (--username)")
            return username
        if key == "totp":
            raise UserError(f"{where}: ${{totp}} is only for totp steps")
        if key == "password":
            if password is None:
                raise UserError(f"{where}: ${{password}} needs an account password (--password-env)")
            return password
        if key.startswith("env:"):
            name = key[4:]
            val = os.environ.get(name)
            if not val:
                raise UserError(f"{where}: environment variable {name} is not set")
            register_secret(val)  # a flow's ${env:...} is a password: keep it out of traces
            return val
        _, service, user = key.split(":", 2)
        return keyring_secret(service, user, where)

    return _PLACEHOLDER.sub(sub, value)


async def resolve_target(page: Page, target: Target, where: str, timeout_s: float) -> Locator:
    """The element ``target`` names: first locator with exactly one match, waiting for it to appear."""
    deadline = time.monotonic() + timeout_s
    while True:
        fallback = None
        for loc in target.candidates(page):
            try:
                n = await loc.count()
            except Exception:  # a bad CSS selector in a hand-edited flow: try the others
                continue
            if n == 1:
                return loc
            if n > 1 and fallback is None:
                fallback = loc.first
        if fallback is not None:
            return fallback
        if time.monotonic() > deadline:
            raise LoginError(f"{where}: no element matches ({target.describe()}) on {page.url}")
        await asyncio.sleep(0.2)


async def replay_flow(
    page: Page,
    flow: Flow,
    settings: LoginSettings,
    *,
    source: str,
    username: str | None = None,
    password: str | None = None,
    codes: CodeSource | None = None,
) -> LoginOutcome:
    """Replay ``flow`` in ``page`` until logged in; CAPTCHA steps are solved, failures retried.

    ``codes`` gives the account's current one-time code for ``totp`` steps whose value is ``${totp}``.
    """
    timeout_ms = settings.timeout_seconds * 1000
    step_timeout = min(settings.timeout_seconds, 10.0)
    # Secrets are resolved before the browser is touched, so a missing env var fails fast.
    values: dict[int, str] = {}
    code_sources: dict[int, CodeSource] = {}
    for i, step in enumerate(flow.steps):
        where = f"{source}: steps.{i}.value"
        if step.action == "totp":
            code_sources[i] = _step_codes(step.value or "", where, codes)
        elif step.field == "username" and username is not None:
            values[i] = username
        elif step.field == "password" and password is not None:
            values[i] = password
        elif step.value is not None:
            values[i] = resolve_value(step.value, where, username, password)
    who = username or flow.username() or "the recorded account"

    async def attempt(p: Page, n: int) -> CaptchaSeen | None:
        seen = None
        for i, step in enumerate(flow.steps):
            where = f"{source}: steps.{i} ({step.action})"
            if step.action == "goto":
                assert step.url is not None
                await goto_settled(p, step.url, timeout_ms)
            elif step.action == "wait":
                await asyncio.sleep(step.seconds or 0)
            elif step.action == "captcha":
                assert step.image is not None and step.input is not None
                img = await resolve_target(p, step.image, where, step_timeout)
                field = await resolve_target(p, step.input, where, step_timeout)
                await img.evaluate("e => e.setAttribute('data-bc-flow', 'captcha-image')")
                await field.evaluate("e => e.setAttribute('data-bc-flow', 'captcha')")
                seen = await solve_captcha(
                    p, settings, '[data-bc-flow="captcha-image"]', '[data-bc-flow="captcha"]'
                )
            else:
                assert step.target is not None
                loc = await resolve_target(p, step.target, where, step_timeout)
                if step.action == "fill":
                    await loc.fill(values[i])
                elif step.action == "totp":
                    await loc.fill(code_sources[i]())  # made now: a code lives 30 seconds
                    await _refuse_unsendable(loc, "Enter", seen)
                    await _navigating(p, loc.press("Enter"), timeout_ms, step.navigates)
                elif step.action == "select":
                    await loc.select_option(values[i])
                elif step.action == "check":
                    await loc.check()
                elif step.action == "uncheck":
                    await loc.uncheck()
                elif step.action == "press":
                    await _refuse_unsendable(loc, step.key or "Enter", seen)
                    await _navigating(p, loc.press(step.key or "Enter"), timeout_ms, step.navigates)
                elif step.action == "click":
                    await _refuse_unsendable(loc, None, seen)
                    await _navigating(p, loc.click(), timeout_ms, step.navigates)
        return seen

    return await run_login(page, attempt, settings, who=who, where=source, has_captcha=flow.has_captcha)


def _step_codes(value: str, where: str, codes: CodeSource | None) -> CodeSource:
    """Where a totp step's codes come from; a missing seed fails now, before the browser is used."""
    if value == "${totp}":
        if codes is None:
            raise UserError(f"{where}: ${{totp}} needs an account with totp_env or totp_keyring")
        return codes
    resolve_value(value, where, None, None)  # the seed is there (read again for each code)
    return lambda: code_from_seed(resolve_value(value, where, None, None), where)


async def _refuse_unsendable(target: Locator, key: str | None, seen: CaptchaSeen | None) -> None:
    """Fail this attempt now if the step would submit a form the browser refuses to send (an
    empty CAPTCHA answer in a required field): nothing would reach the site, and the step would
    wait out its whole timeout for a page that never comes."""
    if (reason := await form_refusal(target, key)) is not None:
        raise FormRefused(reason, seen)


async def _navigating(page: Page, action, timeout_ms: float, navigates: bool | None) -> None:
    """Do ``action``; when it navigates (recorded, or seen within a moment), wait for the new page."""
    wait_ms = timeout_ms if navigates else 1500
    try:
        async with page.expect_navigation(wait_until="load", timeout=wait_ms):
            await action
    except Exception as exc:
        if "Timeout" not in type(exc).__name__ and "Timeout" not in str(exc):
            raise


__all__ = ["Flow", "Step", "Target", "load_flow", "replay_flow", "save_flow"]
