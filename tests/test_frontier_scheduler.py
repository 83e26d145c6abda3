"""The scheduler tops a host's buffer up in the background, before the workers find it empty."""

from __future__ import annotations

import asyncio

import pytest

from browsercrawl.config.job import PolitenessConfig
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.scheduler import Scheduler

HOST = "h:1"


class GatedFrontier:
    """Queued URLs of one host; each claim waits until the test lets it answer."""

    def __init__(self, urls: int) -> None:
        self.queued = [Request(url=f"http://h:1/{i}", host=HOST, id=i) for i in range(urls)]
        self.claims: list[int] = []  # the limit of every claim asked
        self.gate = asyncio.Event()
        self.gate.set()
        self.asked = asyncio.Event()

    async def claim(self, host: str, limit: int, now: float) -> list[Request]:
        self.claims.append(limit)
        self.asked.set()
        await self.gate.wait()
        out, self.queued = self.queued[:limit], self.queued[limit:]
        return out

    async def hosts_with_work(self, now: float) -> dict[str, float]:
        return {HOST: 0.0} if self.queued else {}


async def _no_delay(host: str) -> float:
    return 0.0


def _scheduler(frontier: GatedFrontier, budget: int | None = None, shared: bool = False,
               delay: float = 0) -> Scheduler:
    pol = PolitenessConfig(concurrency=2, per_host_concurrency=2, delay_seconds=delay)
    return Scheduler(frontier, pol, budget, _no_delay, lambda: 0, shared=shared)  # type: ignore[arg-type]


async def _take(sched: Scheduler, n: int) -> list[Request]:
    out = []
    for _ in range(n):
        req = await sched.next()
        assert req is not None
        sched.finished(req)
        out.append(req)
    return out


@pytest.mark.parametrize(("shared", "claim", "low"), [(False, 32, 16), (True, 16, 4)])
async def test_a_low_buffer_is_claimed_for_while_it_still_has_requests(
    shared: bool, claim: int, low: int
) -> None:
    frontier = GatedFrontier(100)
    sched = _scheduler(frontier, shared=shared)
    # Per-host concurrency 2: a crawl of its own claims 16 URLs per slot and tops up below 8 per
    # slot; one sharing the frontier with other workers 8 and 2 (the others get their share).
    first = await _take(sched, 1)
    assert frontier.claims == [claim]
    buffered = len(sched.slots[HOST].buffer)
    assert buffered == claim - 1
    frontier.gate.clear()
    frontier.asked.clear()
    # Below the low mark a background claim starts; the workers keep taking the buffer meanwhile.
    got = await _take(sched, buffered - (low - 1))
    await asyncio.wait_for(frontier.asked.wait(), 30)
    assert len(frontier.claims) == 2
    assert len(sched.slots[HOST].buffer) == low - 1
    got += await _take(sched, low - 1)  # all of it while the claim is still unanswered
    frontier.gate.set()
    got += await _take(sched, 100 - len(first) - len(got))
    urls = [r.url for r in first + got]
    assert sorted(urls) == sorted(f"http://h:1/{i}" for i in range(100))  # each once, none lost
    assert await sched.next() is None


@pytest.mark.parametrize(("shared", "delay", "claims"),
                         [(True, 0.25, [4]), (True, 2.0, [1, 1]), (False, 0.25, [32])])
async def test_a_shared_frontier_claims_a_delayed_host_one_second_ahead(
    shared: bool, delay: float, claims: list[int]
) -> None:
    """Sharing the frontier, a worker takes of a host with a delay only what the delay lets it
    start within about a second: the rest stays queued for the other workers. A crawl of its own
    claims as deep as ever (nobody else wants the URLs)."""
    frontier = GatedFrontier(100)
    sched = _scheduler(frontier, shared=shared, delay=delay)
    await _take(sched, 1)  # with one second's worth gone, a one-URL claim tops the buffer up
    await sched.settle_claims()
    assert frontier.claims == claims
    assert len(frontier.queued) == 100 - sum(claims)


async def test_a_background_claim_respects_the_page_budget_and_returns_on_shutdown() -> None:
    frontier = GatedFrontier(100)
    sched = _scheduler(frontier, budget=20)
    got = await _take(sched, 10)
    await sched.settle_claims()
    # Never more claimed than the budget allows: handed out plus buffered stays within 20.
    assert len(got) + len(sched.buffered()) <= 20
    assert sum(frontier.claims) <= 20



async def test_nothing_more_is_handed_out_while_the_store_is_behind() -> None:
    """Fetched pages waiting for their commit hold claims and memory: past ``max_unwritten`` of
    them the workers wait for the store (told by a commit's notify), and are told to hurry it."""
    frontier = GatedFrontier(10)
    unwritten = [0]
    hurried: list[int] = []
    pol = PolitenessConfig(concurrency=2, per_host_concurrency=2, delay_seconds=0)
    sched = Scheduler(frontier, pol, None, _no_delay, lambda: unwritten[0],  # type: ignore[arg-type]
                      hurry_writes=lambda: hurried.append(unwritten[0]), max_unwritten=3)
    await _take(sched, 2)
    unwritten[0] = 3
    waiting = asyncio.create_task(sched.next())
    await asyncio.sleep(0.3)
    assert not waiting.done() and hurried  # held back, and the writer asked to commit now
    unwritten[0] = 2
    sched.notify({HOST})  # what a commit does
    req = await asyncio.wait_for(waiting, 30)
    assert req is not None and req.url == "http://h:1/2"


async def test_a_buffered_request_is_handed_out_while_another_worker_waits_for_work() -> None:
    """A worker waiting in the scheduler (here on a claim) must not make the others queue behind
    it: once requests are buffered, every worker takes one at once, not one per loop turn."""
    frontier = GatedFrontier(3)
    frontier.gate.clear()
    pol = PolitenessConfig(concurrency=8, per_host_concurrency=8, delay_seconds=0)
    sched = Scheduler(frontier, pol, None, _no_delay, lambda: 0)  # type: ignore[arg-type]
    first = asyncio.create_task(sched.next())  # claims, and waits for the answer
    await asyncio.wait_for(frontier.asked.wait(), 30)
    slot = sched.slots[HOST]
    slot.buffer.extend(Request(url=f"http://h:1/b{i}", host=HOST, id=100 + i) for i in range(5))
    others = [asyncio.ensure_future(sched.next()) for _ in range(5)]
    await asyncio.sleep(0)  # one turn of the loop
    assert all(t.done() for t in others)
    assert sorted(t.result().url for t in others) == [f"http://h:1/b{i}" for i in range(5)]
    assert sched.active == 5 and slot.active == 5
    frontier.gate.set()
    req = await asyncio.wait_for(first, 30)
    assert req is not None and req.url == "http://h:1/0"
