"""Recording a login: a headed browser, a person, and a listener that writes down what they do.

A script injected into every document (``add_init_script``) listens in the capture phase for
change/click/Enter events and reports each as a step through ``expose_binding``, describing the
element by several locators (see :class:`browsercrawl.session.flow.Target`). What the person typed
into a password field never leaves the page: the listener reports only that a password was typed,
and the flow gets a placeholder. A text field next to a CAPTCHA image becomes a ``captcha`` step;
the image the person answered is copied through a canvas and, once the login is verified, saved
as a verified sample for the solver. The recording ends when the page looks logged in (or a
configured selector/URL appears); the signal is learned from what differed before and after.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Page

from browsercrawl.config.session import LoggedInSignal, LoggedOutSignal
from browsercrawl.engine.browser import LaunchOptions, open_browser
from browsercrawl.errors import LoginError
from browsercrawl.session.detect import Detector, learn_signal, logged_in, login_snapshot
from browsercrawl.session.flow import Flow, Step, Target
from browsercrawl.session.state import SessionState, capture_state

log = logging.getLogger(__name__)

LISTENER_JS = (Path(__file__).parent / "recorder_listener.js").read_text(encoding="utf-8")


@dataclass
class Recording:
    """What a recording produced: the flow (no secrets), the browser state, CAPTCHA samples seen."""

    flow: Flow
    state: SessionState
    captchas: list[tuple[bytes, str]]  # (image PNG, the answer the person typed); verified by the login


# The "person": a coroutine given the recording page (tests script one; normally None = a human).
Person = Callable[[Page], Awaitable[None]]


def _build_steps(events: list[dict[str, Any]], password_placeholder: str) -> tuple[list[Step], list]:
    steps: list[Step] = []
    captchas: list[tuple[bytes, str]] = []
    for ev in events:
        action = ev["action"]
        if action == "navigated":
            if steps and steps[-1].action in ("click", "press"):
                steps[-1].navigates = True
            continue
        if action == "captcha":
            data = ev.get("image_data") or ""
            if data.startswith("data:image/png;base64,") and ev.get("answer"):
                captchas.append((base64.b64decode(data.split(",", 1)[1]), ev["answer"]))
            step = Step(
                action="captcha",
                image=Target(**ev["image"]),
                input=Target(**ev["input"]),
                refresh=Target(**ev["refresh"]) if ev.get("refresh") else None,
            )
        elif action in ("fill", "select"):
            value = password_placeholder if ev.get("field") == "password" else ev.get("value", "")
            step = Step(action=action, target=Target(**ev["target"]), value=value, field=ev.get("field"))
        elif action == "totp":
            step = Step(action="totp", target=Target(**ev["target"]), value="${totp}")
        elif action in ("check", "uncheck", "click"):
            step = Step(action=action, target=Target(**ev["target"]))
        elif action == "press":
            step = Step(action="press", target=Target(**ev["target"]), key=ev.get("key", "Enter"))
        else:
            continue
        # Typing into the same field twice (or the click after a change) keeps only the last value.
        prev = steps[-1] if steps else None
        if (
            prev is not None
            and step.action == prev.action
            and step.action in ("fill", "select", "captcha", "totp")
            and (step.target or step.input) == (prev.target or prev.input)
        ):
            steps[-1] = step
            continue
        steps.append(step)
    return steps, captchas


async def record_flow(
    url: str,
    *,
    launch: LaunchOptions | None = None,
    person: Person | None = None,
    password_placeholder: str = "${env:BC_PASSWORD}",
    done_selector: str | None = None,
    done_url: str | None = None,
    timeout_seconds: float = 300.0,
    login_url: str | None = None,
    cdp_port: int | None = None,
    on_ready: Callable[[], None] | None = None,
) -> Recording:
    """Open ``url`` in a headed browser and record a login until the page looks logged in."""
    launch = launch or LaunchOptions(headless=False)
    launch.headless = False
    if cdp_port:
        launch.extra_args = [*launch.extra_args, f"--remote-debugging-port={cdp_port}"]
    events: list[dict[str, Any]] = []
    detector = Detector(LoggedOutSignal(), login_url or url)

    async with open_browser(launch) as browser:
        context = await browser.new_context()

        async def on_event(source: Any, step: dict[str, Any]) -> None:
            step = {k: v for k, v in step.items() if v is not None}
            step.pop("secret", None)
            events.append(step)
            log.info("recorded %s", step["action"])

        await context.expose_binding("__bcRecord", on_event)
        await context.add_init_script(script=LISTENER_JS)
        page = await context.new_page()

        def on_nav(frame: Any) -> None:
            if frame == page.main_frame and len(events) and events[-1]["action"] != "navigated":
                events.append({"action": "navigated", "url": frame.url})

        page.on("framenavigated", on_nav)
        await page.goto(url, wait_until="load")
        before = await login_snapshot(page)
        if on_ready is not None:
            on_ready()
        person_task = asyncio.create_task(person(page)) if person else None
        try:
            await _wait_until_done(
                page, events, detector, done_selector, done_url, timeout_seconds, person_task
            )
        finally:
            if person_task is not None and not person_task.done():
                person_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await person_task
        after = await login_snapshot(page)
        signal = LoggedInSignal(selector=done_selector, url_regex=done_url)
        if signal.is_empty():
            signal = learn_signal(before, after)
        if not await logged_in(page, signal, detector):
            raise LoginError(f"recording at {url}: the end page does not look logged in")
        state = await capture_state(context)
    steps, captchas = _build_steps(events, password_placeholder)
    flow = Flow(
        start_url=url,
        steps=[Step(action="goto", url=url), *steps],
        logged_in=signal,
        recorded_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    )
    return Recording(flow, state, captchas)


async def _wait_until_done(
    page: Page,
    events: list[dict[str, Any]],
    detector: Detector,
    done_selector: str | None,
    done_url: str | None,
    timeout_seconds: float,
    person_task: asyncio.Task | None = None,
) -> None:
    """Wait for the logged-in page: a configured selector/URL, else no password field after one was typed."""
    deadline = time.monotonic() + timeout_seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(0.25)
        if person_task is not None and person_task.done() and person_task.exception() is not None:
            raise person_task.exception()  # type: ignore[misc]
        if page.is_closed():
            raise LoginError("recording ended: the browser window was closed before the login finished")
        try:
            if done_url and re.search(done_url, page.url):
                return
            if done_selector:
                if await page.locator(done_selector).count():
                    return
                continue
            typed_password = any(e.get("field") == "password" for e in events)
            navigated = any(e["action"] == "navigated" for e in events)
            if typed_password and navigated and await detector.lost_reason(page, None) is None:
                await page.wait_for_load_state("load")
                return
        except Exception:  # the page is navigating: look again in a moment
            continue
    raise LoginError(f"recording stopped after {timeout_seconds:.0f}s without reaching a logged-in page")
