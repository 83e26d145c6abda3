"""In a real Chromium: log in to the demo site through its CAPTCHA, and label images by hand.

The demo site's ``captcha_answer_for`` oracle is used only to check answers, never to solve.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from browsercrawl.captcha.browser import captcha_image_bytes, solve_captcha_on_page
from browsercrawl.captcha.label import label_folder
from browsercrawl.captcha.samples import load_labelled_folder, record_verified_sample
from browsercrawl.captcha.solver import CaptchaSolver
from browsercrawl.captcha.train import load_samples, train_to_file
from scripts.bench import captcha_styles as styles

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def demo_model(tmp_path_factory) -> Path:
    """A per-character model of the demo CAPTCHA trained on 150 generated samples (seconds)."""
    base = tmp_path_factory.mktemp("demo-captcha")
    pairs = styles.generate("demo", base / "train", 150, seed=31)
    model = base / "demo.npz"
    from browsercrawl.captcha.train import CHAR_VARIANTS

    colour = next(steps for name, steps, _ in CHAR_VARIANTS if name == "colour-components")
    train_to_file(load_samples(pairs), model, "chars", 10, None, steps=colour)
    return model


async def _nonce(page) -> str:
    src = await page.get_attribute("#captcha-img", "src")
    return re.search(r"r=([0-9a-f]+)", src).group(1)


async def test_login_with_wrong_answer_then_solved_captcha(browser, demo_model, tmp_path) -> None:
    from browsercrawl_demo.app import run_demo_site
    from browsercrawl_demo.auth import password_for
    from browsercrawl_demo.config import DemoConfig

    solver = CaptchaSolver.from_profile(str(demo_model))
    async with run_demo_site(DemoConfig(port=0, members=12, seed=4)) as site:
        name = site.state.content.members[0].name
        page = await browser.new_page()
        await page.goto(site.url + "/login")

        # 1. a deliberately wrong answer is rejected, and the site shows a fresh image
        first = await _nonce(page)
        truth = site.state.captcha_answer_for(first)
        await page.fill("#username", name)
        await page.fill("#password", password_for(name, 4))
        await page.fill("#captcha", "22222" if truth != "22222" else "33333")
        await page.click("#login-submit")
        await page.wait_for_load_state()
        assert (await page.text_content(".error")).strip() == "wrong captcha"
        assert await _nonce(page) != first

        # 2. the "new image" link gives another challenge; solving reads the screenshot
        before = await _nonce(page)
        png = await captcha_image_bytes(page, "#captcha-img", refresh_selector="#captcha-new")
        assert png.startswith(b"\x89PNG") and await _nonce(page) != before

        # 3. solve and submit until the site accepts (the login code's retry loop, in small)
        attempts, right = 0, 0
        while attempts < 10:
            attempts += 1
            await page.fill("#username", name)
            await page.fill("#password", password_for(name, 4))
            nonce = await _nonce(page)
            shot = await captcha_image_bytes(page, "#captcha-img")
            sol = await solve_captcha_on_page(page, solver, "#captcha-img", "#captcha")
            truth = site.state.captcha_answer_for(nonce)
            assert await page.input_value("#captcha") == sol.text
            right += sol.text == truth
            await page.click("#login-submit")
            await page.wait_for_load_state()
            if page.url.endswith("/feed"):
                assert sol.text == truth
                saved = record_verified_sample(tmp_path / "verified", shot, sol.text)
                break
            assert (await page.text_content(".error")).strip() == "wrong captcha"
            assert sol.text != truth
        assert page.url.endswith("/feed"), f"not logged in after {attempts} attempts"
        assert load_labelled_folder(tmp_path / "verified") == [(saved, sol.text)]


async def test_label_command_saves_what_the_person_types(browser, tmp_path) -> None:
    import random

    for i, text in enumerate(["AB34", "XY78"]):
        (tmp_path / f"img{i}.png").write_bytes(styles.render_lined(text, random.Random(i)))
    page = await browser.new_page()
    task = asyncio.create_task(label_folder(page, tmp_path))
    for answer in ["AB34", ""]:  # type one, skip the other
        await page.wait_for_selector("#answer")
        await page.wait_for_function("document.querySelector('#captcha').complete")
        await page.fill("#answer", answer)
        await page.press("#answer", "Enter")
        await page.wait_for_timeout(100)
    assert await asyncio.wait_for(task, 10) == 1
    assert (tmp_path / "labels.csv").read_text().splitlines() == ["file,label", "img0.png,AB34"]
    assert [lab for _, lab in load_labelled_folder(tmp_path)] == ["AB34"]


async def test_headed_login_asks_the_person_when_the_solver_is_unsure(xvfb_display, tmp_path, capsys):
    """Headed, below `ask_below`: the field is handed to the person, their answer is submitted and,
    accepted, kept as a verified sample (asking teaches the site's model too)."""
    from browsercrawl_demo.app import run_demo_site
    from browsercrawl_demo.auth import password_for
    from browsercrawl_demo.config import DemoConfig

    from browsercrawl.config.session import CaptchaConfig, LoggedInSignal
    from browsercrawl.engine.browser import LaunchOptions, open_browser
    from browsercrawl.session.formlogin import form_login
    from browsercrawl.session.login import LoginSettings

    async with (run_demo_site(DemoConfig(port=0, members=12, seed=4)) as site,
                open_browser(LaunchOptions(headless=False)) as browser):
        page = await browser.new_page()
        name = site.state.content.members[0].name
        settings = LoginSettings(
            login_url=site.url + "/login", logged_in=LoggedInSignal(selector="#logout"), headed=True,
            captcha=CaptchaConfig(ask_below=1.0, samples_dir=str(tmp_path / "verified")),
        )

        async def person() -> str:
            """Waits for the emptied, focused field, reads the image as a human would, types, Tabs."""
            await page.wait_for_function("() => document.activeElement && document.activeElement.id"
                                         " === 'captcha' && !document.activeElement.value", timeout=60_000)
            answer = site.state.captcha_answer_for(await _nonce(page))
            await page.keyboard.type(answer, delay=20)
            await page.keyboard.press("Tab")
            return answer

        typed, outcome = await asyncio.gather(
            person(), form_login(page, site.url + "/login", name, password_for(name, 4), settings))
        assert outcome.attempts == 1 and outcome.captchas_solved == 1
        assert await page.locator("#logout").count() == 1
        assert "the CAPTCHA solver is unsure" in capsys.readouterr().err
        assert [label for _, label in load_labelled_folder(tmp_path / "verified")] == [typed]
        assert settings.captchas_answered == settings.captchas_accepted == 1


async def test_headless_failure_says_what_to_do(browser, tmp_path) -> None:
    """Headless, nobody to ask: the solver's answers go in, and when none is accepted the error
    says how to get past it (train a model, or log in headed)."""
    import json

    from browsercrawl_demo.app import run_demo_site
    from browsercrawl_demo.auth import password_for
    from browsercrawl_demo.config import DemoConfig

    from browsercrawl.config.session import CaptchaConfig, LoggedInSignal
    from browsercrawl.errors import LoginError
    from browsercrawl.session.formlogin import form_login
    from browsercrawl.session.login import LoginSettings

    wrong = tmp_path / "wrong.json"  # a solver that can only ever answer "QQQQQ"
    wrong.write_text(json.dumps({"charset": "Q", "min_len": 5, "max_len": 5,
                                 "recogniser": {"kind": "tesseract", "psm": 7}}))
    async with run_demo_site(DemoConfig(port=0, members=12, seed=4)) as site:
        page = await browser.new_page()
        name = site.state.content.members[0].name
        settings = LoginSettings(login_url=site.url + "/login", logged_in=LoggedInSignal(selector="#logout"),
                                 captcha=CaptchaConfig(profile=str(wrong), max_attempts=2, ask_below=1.0))
        with pytest.raises(LoginError) as err:
            await form_login(page, site.url + "/login", name, password_for(name, 4), settings)
        msg = str(err.value)
        assert "CAPTCHA not accepted after 2 attempts" in msg and "captcha train" in msg and "--headed" in msg
        assert "\n" not in msg and settings.captchas_answered == 2 and settings.captchas_accepted == 0


def _agree_form_app(posts: list):
    """A login form with a required box to tick; every POST it receives is noted in ``posts``."""
    from aiohttp import web

    async def form(request: web.Request) -> web.Response:
        return web.Response(content_type="text/html", text=(
            '<form method="post"><input name="user"><input type="password" name="pw">'
            '<label><input type="checkbox" name="agree" required> I agree</label>'
            '<button>Log in</button></form>'))

    async def post(request: web.Request) -> web.Response:
        posts.append(request.path)
        return web.Response(content_type="text/html", text='<a id="logout" href="/logout">out</a>')

    app = web.Application()
    app.add_routes([web.get("/login", form), web.post("/login", post)])
    return app


async def test_a_form_the_browser_will_not_send_fails_at_once_and_says_which_field(browser, port) -> None:
    """A required field left empty (an unreadable CAPTCHA answered with nothing, a box to tick):
    the click sends nothing, so the login must not wait out its timeout for a page that never
    comes, and the error names the field."""
    from browsercrawl.config.session import LoggedInSignal
    from browsercrawl.errors import LoginError
    from browsercrawl.session.formlogin import form_login
    from browsercrawl.session.login import LoginSettings
    from tests.apps.server import serve_in_thread

    posts: list[str] = []

    with serve_in_thread(_agree_form_app(posts), port) as base:
        page = await browser.new_page()
        settings = LoginSettings(login_url=f"{base}/login", logged_in=LoggedInSignal(selector="#logout"),
                                 timeout_seconds=600)
        with pytest.raises(LoginError) as err:
            await asyncio.wait_for(form_login(page, f"{base}/login", "ann", "pw", settings), 300)
    assert "the browser would not send the form (agree:" in str(err.value), err.value
    assert posts == []


@pytest.mark.parametrize("submit", ["click", "press"])
async def test_a_recorded_flow_whose_form_the_browser_will_not_send_fails_at_once(
        browser, port, submit) -> None:
    """A replayed flow clicks (or presses Enter in) its own submit: a required box left unticked
    fails the login at once with the field named, as the form filler does, and nothing is sent;
    ticked, the same flow logs in."""
    from browsercrawl.errors import LoginError
    from browsercrawl.session.flow import Flow, replay_flow
    from browsercrawl.session.login import LoginSettings
    from tests.apps.server import serve_in_thread

    posts: list[str] = []

    def flow(base: str, tick: bool) -> Flow:
        last = ({"action": "click", "target": {"role": "button", "role_name": "Log in"}, "navigates": True}
                if submit == "click" else
                {"action": "press", "target": {"name": "pw"}, "key": "Enter", "navigates": True})
        steps = [{"action": "goto", "url": f"{base}/login"},
                 {"action": "fill", "target": {"name": "user"}, "value": "ann"},
                 {"action": "fill", "target": {"name": "pw"}, "value": "${password}", "field": "password"}]
        steps += [{"action": "check", "target": {"name": "agree"}}] if tick else []
        return Flow.model_validate({"start_url": f"{base}/login", "steps": [*steps, last],
                                    "logged_in": {"selector": "#logout"}})

    with serve_in_thread(_agree_form_app(posts), port) as base:
        page = await browser.new_page()
        settings = LoginSettings(login_url=f"{base}/login", logged_in=flow(base, False).logged_in,
                                 timeout_seconds=600)
        with pytest.raises(LoginError) as err:
            await asyncio.wait_for(replay_flow(page, flow(base, False), settings, source="flow.json",
                                               password="pw"), 300)
        assert "the browser would not send the form (agree:" in str(err.value), err.value
        assert posts == []
        await asyncio.wait_for(replay_flow(page, flow(base, True), settings, source="flow.json",
                                           password="pw"), 300)
        assert posts == ["/login"]
