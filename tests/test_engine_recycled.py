"""Lists that recycle their DOM (virtual scrolling): collected while scrolling, merged by identity,
stopped at the end or at a cap; on the second fixture community's followers list."""

from __future__ import annotations

from playwright.async_api import Browser

from browsercrawl.engine.recycled import collect_recycled
from tests.apps.circle import make_app, make_circle
from tests.apps.server import serve_in_thread


async def test_a_virtual_list_is_collected_whole_although_its_dom_holds_a_dozen_rows(
        browser: Browser, port: int) -> None:
    circle = make_circle(40)
    popular = 1
    expected = {f"/people/view?uid={a}" for a in circle.followers(popular)}
    assert len(expected) > 30
    with serve_in_thread(make_app(circle), port) as url:
        page = await browser.new_page()
        await page.goto(f"{url}/people/view?uid={popular}")
        await page.click('a.tab[data-pane="followers"]')
        await page.wait_for_selector("div.vinner a.vrow")
        rows_in_dom = await page.eval_on_selector_all("div.vinner a.vrow", "rows => rows.length")
        assert rows_in_dom <= 12 < len(expected)  # the list really recycles its rows

        got = await collect_recycled(page, "div.vinner a.vrow", {"url": "@href", "name": ""},
                                     container="div.vlist", key="url")
        assert got["complete"] and got["error"] is None
        assert {e["url"] for e in got["entries"]} == expected
        assert len(got["entries"]) == len(expected)  # merged: each entry once

        capped = await collect_recycled(page, "div.vinner a.vrow", {"url": "@href"},
                                        container="div.vlist", key="url", cap=15)
        assert len(capped["entries"]) == 15 and not capped["complete"]
        assert {e["url"] for e in capped["entries"]} <= expected

        missing = await collect_recycled(page, "li", {"url": "@href"}, container="#nowhere")
        assert missing["entries"] == [] and "no element #nowhere" in missing["error"]
