"""The workers of a distributed crawl, as Redis sees them: registry, leases, shared politeness.

Every worker process (``browsercrawl crawl job.toml --worker``, on any machine) registers under an
id and keeps a key ``alive:{id}`` whose expiry (the *lease*, ``[distributed] lease_seconds``) a
heartbeat renews. The URLs a worker claimed sit in its ``claims:{id}`` hash; when its lease runs
out (``kill -9``, a machine that vanished, a network cut) any other worker's heartbeat puts them
back in the queue. Nothing is lost: a page is committed to the store before its claim is dropped,
and the store's unique keys make a second delivery write nothing.

Politeness is decided by Redis for all workers together, in one Lua script per request start
(``acquire``): the host's hold (a re-login in progress anywhere), its concurrency (tokens with an
expiry, so a dead worker's slots come back), and its minimum gap between request starts (the
job's delay, robots.txt Crawl-delay, or a Retry-After pause), all timed by the Redis server's
clock so machines with skewed clocks still space their requests.

Load balancing follows the distributed focused crawler of the source papers: a worker's weight
is the pages it finished in the last ``balance_minutes``; the claims a worker may hold are capped
in proportion to its share of all weights, so a slow or overloaded machine is not handed more than
it can do (a new worker starts with its own concurrency's worth).

Key layout (prefix ``bc:{crawl}:``): ``workers`` (zset id -> registration time), ``alive:{id}``,
``info:{id}`` (hash: machine, pid, pages, failed, recent, concurrency, state, seen),
``claims:{id}`` (hash url -> request), ``gate:{host}`` (hash: next start), ``active:{host}``
(zset token -> expiry), ``hold:{host}`` (zset worker id -> expiry), ``totals``, ``errors``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
import time
from collections import deque
from typing import Any

log = logging.getLogger(__name__)

_TIME = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
"""

# ARGV: prefix, host, token, delay, concurrency, token lease -> "0" (go) or seconds to wait
ACQUIRE = _TIME + """
local p, host = ARGV[1], ARGV[2]
redis.call('ZREMRANGEBYSCORE', p .. 'hold:' .. host, '-inf', now)
if redis.call('ZCARD', p .. 'hold:' .. host) > 0 then return '0.25' end
local active = p .. 'active:' .. host
redis.call('ZREMRANGEBYSCORE', active, '-inf', now)
if redis.call('ZCARD', active) >= tonumber(ARGV[5]) then return '0.05' end
local gate = p .. 'gate:' .. host
local next_at = tonumber(redis.call('HGET', gate, 'next') or '0')
if next_at > now then return tostring(next_at - now) end
redis.call('HSET', gate, 'next', tostring(now + tonumber(ARGV[4])))
redis.call('ZADD', active, now + tonumber(ARGV[6]), ARGV[3])
return '0'
"""

# ARGV: prefix, host, seconds -> no request starts on host before now + seconds
PAUSE = _TIME + """
local gate = ARGV[1] .. 'gate:' .. ARGV[2]
local until_at = now + tonumber(ARGV[3])
if tonumber(redis.call('HGET', gate, 'next') or '0') < until_at then
  redis.call('HSET', gate, 'next', tostring(until_at))
end
return 1
"""

# ARGV: prefix, worker id, lease seconds, host... -> hold (or renew the hold of) each host
HOLD = _TIME + """
for i = 4, #ARGV do
  redis.call('ZADD', ARGV[1] .. 'hold:' .. ARGV[i], now + tonumber(ARGV[3]), ARGV[2])
end
return 1
"""

# ARGV: prefix, worker id, lease seconds, info fields (k, v)... -> register/renew; 0 if it was reaped
HEARTBEAT = _TIME + """
local p, id = ARGV[1], ARGV[2]
local known = redis.call('ZSCORE', p .. 'workers', id)
if not known then redis.call('ZADD', p .. 'workers', now, id) end
redis.call('SET', p .. 'alive:' .. id, tostring(now), 'PX', math.floor(tonumber(ARGV[3]) * 1000))
local info = {}
for i = 4, #ARGV do info[#info + 1] = ARGV[i] end
info[#info + 1] = 'seen'
info[#info + 1] = tostring(now)
redis.call('HSET', p .. 'info:' .. id, unpack(info))
if known then return 1 end
return 0
"""

# ARGV: prefix -> put the claims of every worker whose lease ran out back in the queue
REAP = """
local p = ARGV[1]
local back = 0
for _, id in ipairs(redis.call('ZRANGE', p .. 'workers', 0, -1)) do
  if redis.call('EXISTS', p .. 'alive:' .. id) == 0 then
    local claims = redis.call('HVALS', p .. 'claims:' .. id)
    for _, packed in ipairs(claims) do
      local r = cjson.decode(packed)
      redis.call('ZADD', p .. 'queue:' .. r[2], r[4], packed)
      redis.call('SADD', p .. 'hosts', r[2])
      back = back + 1
    end
    redis.call('DEL', p .. 'claims:' .. id)
    redis.call('ZREM', p .. 'workers', id)
    redis.call('HSET', p .. 'info:' .. id, 'state', 'lost', 'claims_returned', #claims)
  end
end
if back > 0 then
  redis.call('HINCRBY', p .. 'totals', 'queued', back)
  redis.call('HINCRBY', p .. 'totals', 'reclaimed', back)
end
return back
"""


def new_worker_id() -> str:
    """Machine, process and a random suffix: readable in ``status``, unique across restarts."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"


class Cluster:
    """This worker's membership of a distributed crawl (see the module docstring)."""

    def __init__(
        self,
        redis: Any,
        prefix: str,
        *,
        lease_seconds: float,
        balance_minutes: float,
        concurrency: int,
        token_lease: float,
        worker_id: str | None = None,
    ) -> None:
        self.r = redis
        self.prefix = prefix
        self.id = worker_id or new_worker_id()
        self.lease = lease_seconds
        self.window = balance_minutes * 60
        self.concurrency = concurrency
        self.token_lease = token_lease
        self.claim_cap = concurrency * 4
        self.finished: deque[float] = deque()  # when this worker's pages finished (the window)
        self.pages = 0
        self.failed = 0
        self.redis_seconds = 0.0  # time spent waiting on Redis (claims, gate, acknowledgements)
        self.redis_calls = 0
        self.clock_offset = 0.0  # Redis server time minus local time
        self.state = "running"
        self._held: set[str] = set()
        self.holds = 0  # times this worker held a host for every worker (re-logins)
        self._tokens = 0
        self._acquire = redis.register_script(ACQUIRE)
        self._pause = redis.register_script(PAUSE)
        self._hold = redis.register_script(HOLD)
        self._heartbeat = redis.register_script(HEARTBEAT)
        self._reap = redis.register_script(REAP)
        self._hb_task: asyncio.Task[None] | None = None
        self._hold_chain: asyncio.Future[Any] | None = None
        self.on_beat: list[Any] = []  # callables run after each heartbeat (e.g. wake the scheduler)
        self.unsettled: Any = lambda: 0  # fetched requests not yet committed and acknowledged

    def key(self, name: str) -> str:
        return self.prefix + name

    async def call(self, script: Any, args: list[Any]) -> Any:
        """Run one of the Lua scripts, counting the time spent on Redis."""
        t0 = time.perf_counter()
        try:
            return await script(args=[self.prefix, *args])
        finally:
            self.redis_seconds += time.perf_counter() - t0
            self.redis_calls += 1

    # -- registry and heartbeat ------------------------------------------------------------------
    async def join(self) -> None:
        """Register, measure the clock offset to the server, reclaim dead workers' URLs, beat."""
        t0 = time.time()
        secs, micros = await self.r.time()
        self.clock_offset = secs + micros / 1e6 - (t0 + time.time()) / 2
        await self.beat()
        await self.reap()
        self._hb_task = asyncio.create_task(self._beat_loop())

    def recent(self) -> int:
        """Pages this worker finished in the balancing window (its weight)."""
        horizon = time.monotonic() - self.window
        while self.finished and self.finished[0] < horizon:
            self.finished.popleft()
        return len(self.finished)

    def page_done(self, failed: bool = False) -> None:
        self.finished.append(time.monotonic())
        self.pages += 1
        if failed:
            self.failed += 1

    async def beat(self) -> None:
        info = {"machine": socket.gethostname(), "pid": os.getpid(), "pages": self.pages,
                "failed": self.failed, "recent": self.recent(), "window_s": self.window,
                "concurrency": self.concurrency, "state": self.state, "claim_cap": self.claim_cap,
                "redis_ms": round(self.redis_seconds * 1000, 1)}
        args: list[Any] = [self.id, self.lease]
        for k, v in info.items():
            args += [k, v]
        known = await self.call(self._heartbeat, args)
        if not known:
            log.info("worker %s registered", self.id)
        if self._held:
            await self.call(self._hold, [self.id, self.lease, *sorted(self._held)])
        await self._rebalance()

    async def _rebalance(self) -> None:
        """Cap this worker's claims in proportion to its weight among the live workers."""
        ids = await self.r.zrange(self.key("workers"), 0, -1)
        pipe = self.r.pipeline(transaction=False)
        for wid in ids:
            pipe.hmget(self.key(f"info:{wid}"), "recent", "concurrency")
        rows = await pipe.execute()
        weights = {wid: int(r[0] or 0) for wid, r in zip(ids, rows, strict=True)}
        base = sum(4 * int(r[1] or 1) for r in rows) or 4 * self.concurrency
        self.claim_cap = claim_cap(weights.get(self.id, self.recent()), sum(weights.values()),
                                   base, self.concurrency)

    async def _beat_loop(self) -> None:
        period = max(0.2, self.lease / 3)
        while True:
            await asyncio.sleep(period)
            try:
                await self.beat()
                await self.reap()
                for fn in self.on_beat:
                    fn()
            except Exception as exc:  # Redis away for a moment: the lease covers a few misses
                log.warning("heartbeat to Redis failed: %s", exc)

    async def reap(self) -> int:
        """Return the claims of workers whose lease ran out to the queue; how many came back."""
        back = int(await self.call(self._reap, []))
        if back:
            log.warning("%d URLs of lost workers are back in the queue", back)
        return back

    async def leave(self, state: str) -> None:
        """Deregister (the claims must have been returned or finished first)."""
        self.state = state
        if self._hb_task is not None:
            self._hb_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._hb_task
        if self._hold_chain is not None:
            with contextlib.suppress(Exception):
                await self._hold_chain
        with contextlib.suppress(Exception):
            for host in list(self._held):
                await self.r.zrem(self.key(f"hold:{host}"), self.id)
            await self.r.hset(self.key(f"info:{self.id}"), mapping={
                "state": state, "pages": self.pages, "failed": self.failed, "recent": self.recent(),
                "redis_ms": round(self.redis_seconds * 1000, 1)})
            await self.r.zrem(self.key("workers"), self.id)
            await self.r.delete(self.key(f"alive:{self.id}"))

    # -- shared politeness -----------------------------------------------------------------------
    async def acquire(self, host: str, delay: float) -> tuple[float, str]:
        """May a request to ``host`` start now? (0, token) if so, else (seconds to wait, '')."""
        self._tokens += 1
        token = f"{self.id}:{self._tokens}"
        wait = float(await self.call(self._acquire, [host, token, delay, self.host_concurrency,
                                                     self.token_lease]))
        return (0.0, token) if wait <= 0 else (wait, "")

    host_concurrency = 4

    async def release(self, host: str, token: str) -> None:
        t0 = time.perf_counter()
        await self.r.zrem(self.key(f"active:{host}"), token)
        self.redis_seconds += time.perf_counter() - t0
        self.redis_calls += 1

    async def pause(self, host: str, seconds: float) -> None:
        """Retry-After / back-off: no worker starts a request on ``host`` for ``seconds``."""
        await self.call(self._pause, [host, seconds])

    def hold(self, host: str) -> None:
        """Hold ``host`` for every worker (a re-login here); kept until :meth:`unhold` or the lease."""
        self._held.add(host)
        self.holds += 1
        self._chain(self.call(self._hold, [self.id, self.lease, host]))

    def unhold(self, host: str) -> None:
        self._held.discard(host)
        self._chain(self.r.zrem(self.key(f"hold:{host}"), self.id))

    def _chain(self, coro: Any) -> None:
        """Run Redis updates of holds in the order they were asked for, without blocking the caller."""
        prev = self._hold_chain

        async def _run() -> None:
            if prev is not None:
                with contextlib.suppress(Exception):
                    await prev
            await coro

        self._hold_chain = asyncio.ensure_future(_run())

    # -- sessions ----------------------------------------------------------------------------------
    async def share(self, size: int) -> list[int]:
        """This worker's share of a pool of ``size`` (accounts): every W-th item from its rank.

        With more workers than items, workers share items (rank modulo size).
        """
        ids = await self.r.zrange(self.key("workers"), 0, -1)
        if self.id not in ids or size <= 0:
            return list(range(size))
        rank, count = ids.index(self.id), len(ids)
        mine = [i for i in range(size) if i % count == rank % count]
        return mine or [rank % size]


def claim_cap(weight: int, total_weight: int, base: int, concurrency: int) -> int:
    """Claims a worker may hold: its share of all workers' buffers, by its weight (seeds/002).

    ``base`` is the sum over live workers of what each would buffer alone (4 x its concurrency).
    Before any worker has a weight, each keeps its own 4 x concurrency; a worker never drops
    below its own concurrency, so a slow machine still makes progress.
    """
    if total_weight <= 0:
        return 4 * concurrency
    return max(concurrency, math.ceil(base * weight / total_weight))


async def crawl_status(r: Any, prefix: str) -> dict[str, Any]:
    """Workers, queue, rates and failures of a distributed crawl, as Redis knows them now."""
    secs, micros = await r.time()
    now = secs + micros / 1e6
    live = await r.zrange(prefix + "workers", 0, -1)
    ids = set(live)
    async for key in r.scan_iter(match=prefix + "info:*", count=1000):
        ids.add(key[len(prefix) + len("info:"):])
    workers = []
    rate = 0.0
    inflight = 0
    for wid in sorted(ids):
        info = await r.hgetall(prefix + f"info:{wid}")
        claims = await r.hlen(prefix + f"claims:{wid}")
        alive = bool(await r.exists(prefix + f"alive:{wid}"))
        window = float(info.get("window_s") or 120)
        recent = int(info.get("recent") or 0)
        state = info.get("state", "?")
        if state == "running" and not alive:
            state = "lost (lease ran out)"
        per_min = recent * 60 / window if state == "running" else 0.0
        rate += per_min
        inflight += claims
        workers.append({
            "id": wid, "machine": info.get("machine"), "pid": int(info.get("pid") or 0), "state": state,
            "pages": int(info.get("pages") or 0), "failed": int(info.get("failed") or 0),
            "pages_per_min": round(per_min, 1), "claims": claims,
            "claim_cap": int(info.get("claim_cap") or 0),
            "last_seen_s": round(now - float(info["seen"]), 1) if info.get("seen") else None,
        })
    totals = {k: int(v) for k, v in (await r.hgetall(prefix + "totals")).items()}
    errors = sorted(((int(n), e) for e, n in (await r.hgetall(prefix + "errors")).items()), reverse=True)
    meta = await r.hgetall(prefix + "meta")
    seen_bytes = 0
    async for key in r.scan_iter(match=prefix + "seen:*", count=1000):
        seen_bytes += int(await r.strlen(key))
    return {
        "crawl": prefix.removeprefix("bc:").rstrip(":"),
        "workers": workers,
        "live_workers": len(live),
        "queue": {"queued": totals.get("queued", 0), "in_flight": inflight,
                  "hosts_with_work": await r.scard(prefix + "hosts"),
                  "waiting_retries": await r.zcard(prefix + "delayed")},
        "totals": {k: totals.get(k, 0) for k in ("discovered", "done", "failed", "skipped", "retried",
                                                 "reclaimed")},
        "rates": {"pages_per_min": round(rate, 1), "pages_per_s": round(rate / 60, 2)},
        "failures": {e: n for n, e in errors[:10]},
        "seen_set": {"capacity": int(meta.get("seen_capacity") or 0), "bytes": seen_bytes},
        "redis_used_memory": int((await r.info("memory"))["used_memory"]),
    }
