"""Per-host scheduling on top of the persistent frontier.

Each host has its own small in-memory buffer of claimed URLs, its own concurrency cap and its own
minimum gap between requests (the job's delay or robots.txt Crawl-delay, whichever is larger), so a
slow or rate-limiting host never stalls the others. The gap is kept twice: here when requests are
handed out, and in the host's :class:`~browsercrawl.frontier.pacing.HostPacer` when they are sent,
which measures from the moment the previous request reached the server. Hosts can be held (e.g.
while the session part logs in again) and pushed back (after a 429 with Retry-After).

A host's buffer is topped up in the background once it runs low, not when it is empty: a claim
waits for the database thread, often behind a batch being committed, and every worker would wait
with it (on a fast site the workers spent a fifth of the crawl blocked on claims).

Fetching waits while the store is behind (:attr:`Scheduler.max_unwritten` fetched pages not yet
committed): pages fetched faster than they can be stored would only pile up in memory, all lost
if the process is killed, and in a crawl shared by several workers each of them is a claim the
other workers cannot take (one fast worker once held half a crawl's URLs while another idled).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from browsercrawl.config import PolitenessConfig
from browsercrawl.frontier.base import Frontier, Request
from browsercrawl.frontier.pacing import HostPacer

# Seconds of a delayed host's requests one worker claims ahead in a shared frontier.
_PACED_HORIZON = 1.0


@dataclass(eq=False)
class HostSlot:
    host: str
    delay: float
    concurrency: int
    buffer: deque[Request] = field(default_factory=deque)
    active: int = 0
    next_at: float = 0.0
    may_have_work: bool = True
    held: bool = False
    last_start: float = 0.0
    starts: list[float] = field(default_factory=list)  # request start times, for politeness checks
    pacer: HostPacer | None = None  # where the delay is kept at the moment of sending
    claiming: int = 0  # URLs asked for by a background claim not answered yet
    notified: int = 0  # times told of new URLs: a claim older than the last one proves nothing dry

    def __post_init__(self) -> None:
        if self.pacer is None:
            self.pacer = HostPacer(self.delay)


class Scheduler:
    """Hands the engine the next request that politeness allows, or None when the crawl is over."""

    def __init__(
        self,
        frontier: Frontier,
        politeness: PolitenessConfig,
        budget: int | None,
        crawl_delay: Callable[[str], Awaitable[float]],
        pending_writes: Callable[[], int],
        on_idle: Callable[[], Awaitable[bool]] | None = None,
        hurry_writes: Callable[[], None] | None = None,
        shared: bool = False,
        max_unwritten: int = 256,
    ) -> None:
        self.frontier = frontier
        self.max_unwritten = max_unwritten
        # A frontier other workers claim from too gets small claims, so the hosts' URLs spread
        # over the workers; a crawl's own frontier gets deep ones (see ``_low``).
        self._depth = 1 if shared else 4
        # Told when a worker finds nothing to do while outcomes wait to be committed: their new
        # URLs are the work (at the start of a crawl every page waits on its parent's commit).
        self._hurry_writes = hurry_writes
        self.cfg = politeness
        self.budget = budget  # pages still allowed by --max-pages / scope.max_pages; None = no cap
        self._crawl_delay = crawl_delay
        self._pending_writes = pending_writes
        # Asked once the crawl has nothing left; True if it queued more work (e.g. search queries).
        self._on_idle = on_idle
        self.slots: dict[str, HostSlot] = {}
        self._wake = asyncio.Event()
        self._rr: deque[str] = deque()
        self.active = 0
        self._lock = asyncio.Lock()
        self._stopped = False
        self._claims: set[asyncio.Task[None]] = set()  # background top-ups (see module docstring)
        self._claim_error: BaseException | None = None

    # -- notifications ------------------------------------------------------------------------
    def notify(self, hosts: set[str] | None = None) -> None:
        """New URLs were committed for ``hosts`` (None: something changed, look again)."""
        for h in hosts or ():
            slot = self.slots.get(h)
            if slot is not None:
                slot.may_have_work = True
                slot.notified += 1
        self._wake.set()

    def finished(
        self, request: Request, *, retry: bool = False, host_pause: float | None = None
    ) -> None:
        """A dispatched request ended (its outcome is with the writer)."""
        slot = self.slots[request.host]
        slot.active -= 1
        self.active -= 1
        if retry:
            slot.may_have_work = True
            if self.budget is not None:
                self.budget += 1
        if host_pause:
            slot.next_at = max(slot.next_at, time.time() + host_pause)
        self._wake.set()

    def defer(self, request: Request, wait: float) -> None:
        """A dispatched request may not start yet after all (the politeness that workers on
        other machines share said so): back to the head of its host's buffer for ``wait`` seconds."""
        slot = self.slots[request.host]
        slot.active -= 1
        self.active -= 1
        if slot.delay and slot.starts:
            slot.starts.pop()
        slot.buffer.appendleft(request)
        slot.next_at = max(slot.next_at, time.time() + wait)
        if self.budget is not None:
            self.budget += 1
        self._wake.set()

    def refund(self, requests: int) -> None:
        """Requests that ended without storing a page (failed, skipped, a duplicate) give their
        place under --max-pages back: the cap counts stored pages."""
        if self.budget is not None and requests > 0:
            self.budget += requests
            self._wake.set()

    def hold(self, host: str) -> None:
        self.slots[host].held = True

    def release(self, host: str) -> None:
        self.slots[host].held = False
        self._wake.set()

    def stop(self) -> None:
        """Dispatch nothing more (graceful shutdown); in-flight requests finish."""
        self._stopped = True
        self._wake.set()

    # -- dispatch ------------------------------------------------------------------------------
    async def _slot(self, host: str) -> HostSlot:
        slot = self.slots.get(host)
        if slot is None:
            delay = max(self.cfg.delay_seconds, await self._crawl_delay(host))
            slot = HostSlot(host=host, delay=delay, concurrency=self.cfg.per_host_concurrency)
            self.slots[host] = slot
            self._rr.append(host)
        return slot

    def _pick(self, now: float) -> tuple[Request | None, float]:
        """A ready request by round robin over hosts, or the earliest time one could be ready."""
        earliest = float("inf")
        for _ in range(len(self._rr)):
            host = self._rr[0]
            self._rr.rotate(-1)
            slot = self.slots[host]
            if not slot.buffer or slot.held or slot.active >= slot.concurrency:
                continue
            if slot.next_at > now:
                earliest = min(earliest, slot.next_at)
                continue
            req = slot.buffer.popleft()
            slot.active += 1
            slot.next_at = now + slot.delay
            slot.last_start = now
            if slot.delay:
                slot.starts.append(now)
            return req, now
        return None, earliest

    def _low(self, slot: HostSlot) -> int:
        """Below this many buffered requests a host's buffer is topped up. In a crawl of its own,
        a claim can wait behind a commit for a few hundred ms on a loaded machine; 8 requests per
        worker cover that at several hundred pages/s."""
        low = max(2, slot.concurrency * 2 * self._depth)
        if paced := self._paced_claim(slot):
            low = min(low, math.ceil(paced / 2))
        return low

    def _paced_claim(self, slot: HostSlot) -> int:
        """In a shared frontier, the most a claim for a host with a delay should take (0: no cap).

        Such a host gives this worker at most one request per delay, whatever it holds, so URLs
        beyond the next second's are only kept from the other workers: on a small site one worker
        once held every URL while two others, as fast and sharing the same host delay, fetched
        nothing. A second's worth is still far longer than a claim takes on a loaded machine.
        """
        if self._depth != 1 or slot.delay <= 0:
            return 0
        return max(1, math.ceil(_PACED_HORIZON / slot.delay))

    def _want(self, slot: HostSlot) -> int:
        """How many URLs a claim for ``slot`` asks for (0: the page budget is spoken for)."""
        want = max(16, slot.concurrency * 4 * self._depth)
        if paced := self._paced_claim(slot):
            want = min(want, paced)
        if self.budget is not None:
            want = min(want, self.budget - self._claimed())
        return max(0, want)

    def _claimed(self) -> int:
        """Requests claimed and not handed out yet: buffered, or asked for by a background claim."""
        return sum(len(s.buffer) + s.claiming for s in self.slots.values())

    def _top_up(self, slot: HostSlot, now: float) -> None:
        """Start a background claim when ``slot``'s buffer runs low (one at a time per host)."""
        if (slot.claiming or slot.held or not slot.may_have_work or self._stopped
                or len(slot.buffer) >= self._low(slot)):
            return
        want = self._want(slot)
        if want <= 0:
            return
        slot.claiming = want
        task = asyncio.create_task(self._claim_into(slot, want, now))
        self._claims.add(task)
        task.add_done_callback(self._claim_done)

    async def _claim_into(self, slot: HostSlot, want: int, now: float) -> None:
        told = slot.notified
        try:
            claimed = await self.frontier.claim(slot.host, want, now)
        finally:
            slot.claiming = 0
        if len(claimed) < want and slot.notified == told:
            slot.may_have_work = False
        slot.buffer.extend(claimed)
        self._wake.set()

    def _claim_done(self, task: asyncio.Task[None]) -> None:
        self._claims.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None and self._claim_error is None:
            self._claim_error = exc  # raised to a worker by next(), like a claim it made itself
            self._wake.set()

    async def settle_claims(self) -> None:
        """Wait for the background claims, so that ``buffered`` holds every claimed request."""
        while self._claims:
            await asyncio.gather(*self._claims, return_exceptions=True)

    async def _refill(self, now: float) -> bool:
        """Claim more URLs for hosts whose buffers run low; True if anything was claimed."""
        got = False
        if self.budget is not None and self.budget <= self._claimed():
            return False
        for slot in list(self.slots.values()):
            if slot.held or not slot.may_have_work or slot.claiming or len(slot.buffer) >= self._low(slot):
                continue
            want = self._want(slot)
            if want <= 0:
                break
            told = slot.notified
            claimed = await self.frontier.claim(slot.host, want, now)
            if len(claimed) < want and slot.notified == told:
                slot.may_have_work = False
            if claimed:
                slot.buffer.extend(claimed)
                got = True
        return got

    async def _discover_hosts(self, now: float) -> float | None:
        """Load hosts that have queued work; return the earliest not_before in the future, if any."""
        hosts = await self.frontier.hosts_with_work(now)
        future = None
        for host, not_before in hosts.items():
            slot = await self._slot(host)
            slot.may_have_work = True
            if not_before > now:
                future = not_before if future is None else min(future, not_before)
        return future

    async def next(self) -> Request | None:
        # A request ready now is handed out without the lock. Through the lock each hand-over
        # costs an event-loop iteration (the waiter's future is woken on the next one), so once a
        # few workers queue behind one that sleeps in ``_next``, every worker that finishes joins
        # the queue: at the start of a fast crawl five of eight workers stood at the lock for a
        # quarter of a second with a hundred requests buffered.
        req = self._ready()
        if req is not None:
            return req
        async with self._lock:
            return await self._next()

    def _ready(self) -> Request | None:
        """A request that may start now, if one is buffered and nothing holds dispatch back."""
        if (self._stopped or self._claim_error is not None
                or (self.budget is not None and self.budget <= 0)
                or self._pending_writes() >= self.max_unwritten):
            return None
        now = time.time()
        req, _ = self._pick(now)
        if req is not None:
            self._hand_out(req, now)
        return req

    def _hand_out(self, req: Request, now: float) -> None:
        if self.budget is not None:
            self.budget -= 1
        self.active += 1
        self._top_up(self.slots[req.host], now)

    async def _next(self) -> Request | None:
        discovered = False
        while True:
            # Cleared before looking, not before sleeping: a commit that lands while this looks
            # (claims await the database) must cut the sleep short, not be lost (a 1 s stall).
            self._wake.clear()
            if self._stopped or (self.budget is not None and self.budget <= 0):
                if self.active == 0 and self._pending_writes() == 0:
                    return None
                await self._sleep(1.0)
                continue
            if self._claim_error is not None:
                error, self._claim_error = self._claim_error, None
                raise error
            if self._pending_writes() >= self.max_unwritten:  # the store is behind: let it catch up
                if self._hurry_writes is not None:
                    self._hurry_writes()
                await self._sleep(1.0)  # a commit wakes it (notify)
                continue
            now = time.time()
            req, earliest = self._pick(now)
            if req is not None:
                self._hand_out(req, now)
                return req
            if self._claims:  # a top-up is on its way: wait for it rather than claim beside it
                await asyncio.wait(set(self._claims))
                continue
            if await self._refill(now):
                continue
            if not discovered or not self.slots:
                future = await self._discover_hosts(now)
                discovered = True
                if await self._refill(now):
                    continue
                if future is not None:
                    earliest = min(earliest, future)
            idle = self.active == 0 and self._pending_writes() == 0
            if idle and earliest == float("inf") and not any(s.buffer for s in self.slots.values()):
                # Nothing buffered, nothing in flight, nothing left to write: check once more.
                if not await self.frontier.hosts_with_work(now) and (
                    self._on_idle is None or not await self._on_idle()
                ):
                    return None
                discovered = False
                continue
            timeout = 1.0 if earliest == float("inf") else max(0.0, min(1.0, earliest - now))
            if self._hurry_writes is not None and self._pending_writes():
                self._hurry_writes()
            await self._sleep(timeout)
            discovered = False

    async def _sleep(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)

    def buffered(self) -> list[Request]:
        """Claimed requests not dispatched yet (returned to the queue at shutdown)."""
        out: list[Request] = []
        for slot in self.slots.values():
            out.extend(slot.buffer)
            slot.buffer.clear()
        return out
