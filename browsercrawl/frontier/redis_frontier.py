"""The frontier of a crawl that spans machines, in Redis: shared queue, shared seen-set, leased claims.

* **Queue.** One sorted set per host (``queue:{host}``, score = priority, lower first) of packed
  requests ``[url, host, depth, priority, parent, kind, attempts]``; ``hosts`` lists the hosts
  with queued URLs; retries wait in ``delayed`` (score = when, by the Redis clock).
* **Seen-set.** A Bloom filter in Redis bitmaps (``seen:{shard}``), sized by
  ``[distributed] seen_capacity`` at a false-positive rate of 1e-9: 43.1 bits (5.4 bytes) per URL,
  30 bits set per URL, so **100 million URLs take 539 MB** whatever their length (two 270 MB
  shards: one Redis string holds at most 512 MB). Checking and setting a URL's bits is one
  atomic step in a Lua script, so two workers finding the same link queue it once.
* **Claims.** A claim moves requests from the host's queue into the worker's ``claims:{id}``
  hash, atomically; they stay there until the worker has committed their pages to the store and
  acknowledged them (:meth:`settle`), or until its lease runs out and they go back to the queue
  (:mod:`browsercrawl.frontier.cluster`). Done URLs leave Redis: only what is queued or in flight
  costs memory there (about 200 bytes per queued URL of 80 characters), the record of what was
  fetched is the store.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import time
from typing import Any

import redis

from browsercrawl.frontier.base import Completion, NewUrl, Request
from browsercrawl.frontier.cluster import _TIME, Cluster
from browsercrawl.frontier.sqlite import SeenFilter
from browsercrawl.storage.base import PageTx

log = logging.getLogger(__name__)

ERROR_RATE = 1e-9
_SHARD_BITS = 2**32 - 1  # the largest Redis string, in bits

# ARGV: prefix, k, then per URL: shard, host, priority, packed, k bit positions -> hosts that gained
ADD = """
local p, k = ARGV[1], tonumber(ARGV[2])
local out, added, i = {}, 0, 3
while i <= #ARGV do
  local key, host = p .. 'seen:' .. ARGV[i], ARGV[i + 1]
  local new = false
  for j = 1, k do
    if redis.call('SETBIT', key, ARGV[i + 3 + j], 1) == 0 then new = true end
  end
  if new then
    redis.call('ZADD', p .. 'queue:' .. host, ARGV[i + 2], ARGV[i + 3])
    redis.call('SADD', p .. 'hosts', host)
    out[#out + 1] = host
    added = added + 1
  end
  i = i + 4 + k
end
if added > 0 then
  redis.call('HINCRBY', p .. 'totals', 'queued', added)
  redis.call('HINCRBY', p .. 'totals', 'discovered', added)
end
return out
"""

# ARGV: prefix, worker id, host, limit, cap -> packed requests claimed (lowest priority first)
CLAIM = _TIME + """
local p, id, host = ARGV[1], ARGV[2], ARGV[3]
if redis.call('EXISTS', p .. 'alive:' .. id) == 0 then return redis.error_reply('NOLEASE') end
local due = redis.call('ZRANGEBYSCORE', p .. 'delayed', '-inf', now, 'LIMIT', 0, 200)
for _, d in ipairs(due) do
  local r = cjson.decode(d)
  redis.call('ZREM', p .. 'delayed', d)
  redis.call('ZADD', p .. 'queue:' .. r[2], r[4], d)
  redis.call('SADD', p .. 'hosts', r[2])
end
local claims = p .. 'claims:' .. id
local n = math.min(tonumber(ARGV[4]), tonumber(ARGV[5]) - redis.call('HLEN', claims))
if n <= 0 then return {} end
local q = p .. 'queue:' .. host
local items = redis.call('ZRANGE', q, 0, n - 1)
if #items > 0 then
  redis.call('ZREM', q, unpack(items))
  for _, it in ipairs(items) do redis.call('HSET', claims, cjson.decode(it)[1], it) end
  redis.call('HINCRBY', p .. 'totals', 'queued', -#items)
end
if redis.call('ZCARD', q) == 0 then redis.call('SREM', p .. 'hosts', host) end
return items
"""

# ARGV: prefix, worker id, then per request: url, state, error, retry delay, packed retry
FINISH = _TIME + """
local p, claims = ARGV[1], ARGV[1] .. 'claims:' .. ARGV[2]
local i = 3
while i <= #ARGV do
  local url, state, err = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local held = redis.call('HDEL', claims, url)
  if state == 'retry' then
    if held == 1 then
      redis.call('ZADD', p .. 'delayed', now + tonumber(ARGV[i + 3]), ARGV[i + 4])
      redis.call('HINCRBY', p .. 'totals', 'queued', 1)
    end
    redis.call('HINCRBY', p .. 'totals', 'retried', 1)
  else
    redis.call('HINCRBY', p .. 'totals', state, 1)
    if state == 'failed' and err ~= '' then redis.call('HINCRBY', p .. 'errors', err, 1) end
  end
  i = i + 5
end
return 1
"""

# ARGV: prefix, worker id, url... -> claimed but never fetched: back to the queue
UNCLAIM = """
local p, claims = ARGV[1], ARGV[1] .. 'claims:' .. ARGV[2]
local back = 0
for i = 3, #ARGV do
  local packed = redis.call('HGET', claims, ARGV[i])
  if packed then
    local r = cjson.decode(packed)
    redis.call('HDEL', claims, ARGV[i])
    redis.call('ZADD', p .. 'queue:' .. r[2], r[4], packed)
    redis.call('SADD', p .. 'hosts', r[2])
    back = back + 1
  end
end
redis.call('HINCRBY', p .. 'totals', 'queued', back)
return back
"""

# ARGV: prefix, then per URL: host, priority, packed -> hosts that gained (finished URLs queued again)
REQUEUE = """
local p, out, added = ARGV[1], {}, 0
for i = 2, #ARGV, 3 do
  if redis.call('ZADD', p .. 'queue:' .. ARGV[i], ARGV[i + 1], ARGV[i + 2]) == 1 then
    redis.call('SADD', p .. 'hosts', ARGV[i])
    out[#out + 1] = ARGV[i]
    added = added + 1
  end
end
if added > 0 then
  redis.call('HINCRBY', p .. 'totals', 'queued', added)
  redis.call('HINCRBY', p .. 'totals', 'done', -added)
end
return out
"""

# ARGV: prefix, worker id -> flat [host, earliest start (server time, 0 = now), ...]
HOSTS = _TIME + """
local p, me = ARGV[1], ARGV[2]
local out = {}
for _, h in ipairs(redis.call('SRANDMEMBER', p .. 'hosts', 1000)) do
  out[#out + 1] = h
  out[#out + 1] = '0'
end
local delayed = redis.call('ZRANGE', p .. 'delayed', 0, 99, 'WITHSCORES')
for i = 1, #delayed, 2 do
  out[#out + 1] = cjson.decode(delayed[i])[2]
  out[#out + 1] = delayed[i + 1]
end
-- Claims held elsewhere (live, or dead and not reaped yet) may still bring URLs: look again soon.
for _, id in ipairs(redis.call('ZRANGE', p .. 'workers', 0, -1)) do
  if id ~= me then
    local one = redis.call('HRANDFIELD', p .. 'claims:' .. id, 1, 'WITHVALUES')
    if #one > 0 then
      out[#out + 1] = cjson.decode(one[2])[2]
      out[#out + 1] = tostring(now + 1)
    end
  end
end
return out
"""


def bloom_params(capacity: int, error_rate: float = ERROR_RATE) -> tuple[int, int, int]:
    """(shards, bits per shard, bits set per URL) of a Bloom filter for ``capacity`` URLs."""
    bits = math.ceil(-capacity * math.log(error_rate) / math.log(2) ** 2)
    k = max(1, round(bits / capacity * math.log(2)))
    shards = max(1, math.ceil(bits / _SHARD_BITS))
    return shards, math.ceil(bits / shards), k


def bloom_positions(url: str, shards: int, shard_bits: int, k: int) -> tuple[int, list[int]]:
    """The shard and the ``k`` bit positions of ``url`` (double hashing of one 128-bit digest)."""
    digest = hashlib.blake2b(url.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    h1 = int.from_bytes(digest[:8], "little")
    h2 = int.from_bytes(digest[8:], "little") | 1
    shard = h1 % shards
    return shard, [(h1 + j * h2) % shard_bits for j in range(k)]


def pack(r: Request | NewUrl, attempts: int = 0) -> str:
    return json.dumps([r.url, r.host, r.depth, r.priority, r.parent, r.kind, attempts],
                      separators=(",", ":"), ensure_ascii=False)


def unpack(packed: str) -> Request:
    url, host, depth, priority, parent, kind, attempts = json.loads(packed)
    return Request(url=url, host=host, depth=depth, priority=priority, parent=parent, kind=kind,
                   attempts=attempts)


class RedisFrontier:
    """The shared frontier (see the module docstring); one per worker process."""

    def __init__(self, cluster: Cluster, seen_capacity: int) -> None:
        self.cluster = cluster
        self.r = cluster.r
        self.prefix = cluster.prefix
        self.seen = SeenFilter()  # this worker's own cache in front of the shared filter
        self.seen_capacity = seen_capacity
        self.shards, self.shard_bits, self.k = bloom_params(seen_capacity)
        self._add = self.r.register_script(ADD)
        self._claim = self.r.register_script(CLAIM)
        self._finish = self.r.register_script(FINISH)
        self._unclaim = self.r.register_script(UNCLAIM)
        self._hosts = self.r.register_script(HOSTS)
        self._requeue = self.r.register_script(REQUEUE)
        self._to_requeue: list[NewUrl] = []  # from the store's transaction, queued after its commit

    async def prepare(self, seeds: list[NewUrl]) -> None:
        """Fix the filter's size for the whole crawl (the first worker's), then add the seeds."""
        meta = self.prefix + "meta"
        for name, value in (("seen_capacity", self.seen_capacity), ("created", time.time())):
            await self.r.hsetnx(meta, name, value)
        capacity = int(await self.r.hget(meta, "seen_capacity"))
        if capacity != self.seen_capacity:
            self.seen_capacity = capacity
            self.shards, self.shard_bits, self.k = bloom_params(capacity)
        await self._push(seeds)

    async def _push(self, urls: list[NewUrl]) -> set[str]:
        if not urls:
            return set()
        args: list[Any] = [self.k]
        for u in urls:
            shard, positions = bloom_positions(u.url, self.shards, self.shard_bits, self.k)
            args += [shard, u.host, u.priority, pack(u), *positions]
        return set(await self.cluster.call(self._add, args))

    async def add(self, urls: list[NewUrl]) -> set[str]:
        """Queue URLs outside a page's transaction (a part's follow-up work); known ones are skipped."""
        return await self._push(urls)

    async def claim(self, host: str, limit: int, now: float) -> list[Request]:
        # The cap bounds work handed to this worker and not done yet: requests already fetched and
        # waiting for the store's commit (then the acknowledgement) do not count against it.
        args = [self.cluster.id, host, limit, self.cluster.claim_cap + self.cluster.unsettled()]
        try:
            items = await self.cluster.call(self._claim, args)
        except Exception as exc:
            if "NOLEASE" not in str(exc):
                raise
            # Our lease ran out (a long pause): our claims went back already; register again.
            await self.cluster.beat()
            items = await self.cluster.call(self._claim, args)
        return [unpack(i) for i in items]

    async def hosts_with_work(self, now: float) -> dict[str, float]:
        flat = await self.cluster.call(self._hosts, [self.cluster.id])
        out: dict[str, float] = {}
        for host, at in zip(flat[::2], flat[1::2], strict=True):
            local = float(at) - self.cluster.clock_offset if float(at) else 0.0
            out[host] = min(out.get(host, local), local)
        return out

    async def unclaim(self, requests: list[Request]) -> None:
        if requests:
            await self.cluster.call(self._unclaim, [self.cluster.id, *(r.url for r in requests)])

    async def counts(self) -> dict[str, int]:
        totals = await self.r.hgetall(self.prefix + "totals")
        ids = await self.r.zrange(self.prefix + "workers", 0, -1)
        inflight = 0
        for wid in ids:
            inflight += await self.r.hlen(self.prefix + f"claims:{wid}")
        out = {k: int(v) for k, v in totals.items() if k in ("queued", "done", "failed", "skipped")}
        out["inflight"] = inflight
        return out

    def record(self, tx: PageTx, new_urls: list[NewUrl], completions: list[Completion]) -> None:
        return None  # the shared frontier is told after the store has committed (settle)

    def requeue(self, tx: PageTx, urls: list[NewUrl]) -> None:
        """Queued after the store's commit (:meth:`settle`): until then the stored pages stand, and a
        crawl killed in between finds them to replace again on resume (the store says which)."""
        self._to_requeue.extend(urls)

    async def settle(self, new_urls: list[NewUrl], completions: list[Completion]) -> set[str]:
        """After the store's commit; retried while Redis is briefly away (the pages are safe, and
        until the claims are acknowledged they come back to the queue at worst)."""
        for wait in (0.5, 1, 2, 4, 8):
            try:
                return await self._settle(new_urls, completions)
            except (OSError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
                log.warning("Redis: acknowledging %d requests failed (%s); again in %ss",
                            len(completions), exc, wait)
                await asyncio.sleep(wait)
        return await self._settle(new_urls, completions)

    async def _settle(self, new_urls: list[NewUrl], completions: list[Completion]) -> set[str]:
        """New URLs first, then the claims: a worker dying in between only causes a re-fetch."""
        hosts = await self._push(new_urls)
        if self._to_requeue:
            again: list[Any] = []
            for u in self._to_requeue:  # packed as the URL was first queued: a second requeue is a no-op
                again += [u.host, u.priority, pack(u)]
            hosts |= set(await self.cluster.call(self._requeue, again))
            self._to_requeue = []
        args: list[Any] = [self.cluster.id]
        now = time.time()
        for c in completions:
            retry = pack(c.request, c.request.attempts + 1) if c.state == "retry" else ""
            args += [c.request.url, c.state, (c.error or "")[:200], max(0.0, c.not_before - now), retry]
        await self.cluster.call(self._finish, args)
        for c in completions:
            if c.state != "retry":
                self.cluster.page_done(failed=c.state == "failed")
        return hosts
