"""The adaptive router's decisions, step by step (the crawls in test_engine_crawl/test_ajax_demo use it)."""

from __future__ import annotations

import asyncio

from browsercrawl.engine.router import AdaptiveRouter, same_content, url_shape

U = "http://127.0.0.1:8000/item/{}"


def test_url_shapes_generalise_ids_and_names() -> None:
    assert url_shape("http://h/t/123-some-slug?page=2&b=1") == "h/t/{id}?b&page"
    assert url_shape("http://h/item/77") == url_shape("http://h/item/78") == "h/item/{id}"
    assert url_shape("http://h/u/alice") == url_shape("http://h/u/bob") == "h/u/{name}"
    assert url_shape("http://h/about") != url_shape("http://h/rules")


def test_same_content_needs_the_rendered_links_and_words() -> None:
    links = {"http://h/a", "http://h/b"}
    assert same_content("hello big world", links, "hello world", links)
    assert not same_content("hello", set(), "hello world", links)  # links only after JavaScript
    assert not same_content("", links, "many words the script wrote here", links)


async def test_pages_wait_for_the_samples_instead_of_rendering() -> None:
    router = AdaptiveRouter(sample_pages=2, recheck_every=50)
    first = [await router.choose(U.format(i)) for i in range(2)]
    assert first == ["compare", "compare"]
    waiting = [asyncio.ensure_future(router.choose(U.format(i))) for i in range(2, 6)]
    await asyncio.sleep(0.01)
    assert not any(w.done() for w in waiting)  # not rendered meanwhile: they wait for the verdict
    router.record(U.format(0), True)
    await asyncio.sleep(0.01)
    assert not any(w.done() for w in waiting)  # one sample is not a verdict
    router.record(U.format(1), True)
    assert await asyncio.gather(*waiting) == ["http"] * 4


async def test_a_failed_sample_is_taken_by_a_waiting_page() -> None:
    router = AdaptiveRouter(sample_pages=1, recheck_every=0)
    assert await router.choose(U.format(0)) == "compare"
    waiter = asyncio.ensure_future(router.choose(U.format(1)))
    await asyncio.sleep(0.01)
    router.abandon(U.format(0))
    assert await waiter == "compare"
    router.record(U.format(1), False)
    assert await router.choose(U.format(2)) == "browser"


async def test_rechecks_space_out_while_http_keeps_matching() -> None:
    router = AdaptiveRouter(sample_pages=1, recheck_every=5)
    assert await router.choose(U.format(0)) == "compare"
    router.record(U.format(0), True)
    rechecks, n = [], 1
    while len(rechecks) < 3:
        choice = await router.choose(U.format(n))
        if choice == "compare":
            rechecks.append(n)
            router.record(U.format(n), True)
        else:
            assert choice == "http"
        n += 1
    assert rechecks == [5, 15, 35]  # after 5, then 10, then 20 HTTP pages
    while (choice := await router.choose(U.format(n))) != "compare":
        n += 1
    assert n == 75
    router.record(U.format(n), False)  # the shape changed: render it from now on
    assert [await router.choose(U.format(n + i)) for i in range(1, 4)] == ["browser"] * 3
    assert router.summary() == {url_shape(U.format(0)): "browser"}


async def test_a_demoted_shape_wakes_its_waiters_to_render() -> None:
    router = AdaptiveRouter(sample_pages=1, recheck_every=50)
    assert await router.choose(U.format(0)) == "compare"
    waiter = asyncio.ensure_future(router.choose(U.format(1)))
    await asyncio.sleep(0.01)
    router.demote(U.format(0))  # an HTTP page showed a load-more control
    assert await waiter == "browser"


async def test_will_wait_only_while_every_sample_is_in_flight() -> None:
    router = AdaptiveRouter(sample_pages=2, recheck_every=50)
    assert not router.will_wait(U.format(0))  # unknown shape: this page becomes a sample
    await router.choose(U.format(0))
    assert not router.will_wait(U.format(1))  # one sample slot still free
    await router.choose(U.format(1))
    assert router.will_wait(U.format(2))  # the crawler fetches it over HTTP while it waits
    router.record(U.format(0), True)
    router.record(U.format(1), True)
    assert not router.will_wait(U.format(3))


async def test_one_recheck_in_flight_per_shape() -> None:
    router = AdaptiveRouter(sample_pages=1, recheck_every=3)
    await router.choose(U.format(0))
    router.record(U.format(0), True)
    choices = [await router.choose(U.format(i)) for i in range(1, 12)]
    # The re-check started on page 3 has not ended: pages past the interval stay on HTTP.
    assert choices.count("compare") == 1 and choices[2] == "compare"
    router.record(U.format(3), True)
    assert await router.choose(U.format(12)) == "http"  # the interval doubled to 6 ...
    assert [await router.choose(U.format(i)) for i in range(13, 18)] == ["http"] * 4 + ["compare"]
