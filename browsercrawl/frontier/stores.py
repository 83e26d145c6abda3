"""Which frontier a crawl uses: a table of its database, or Redis when ``[distributed]`` is set."""

from __future__ import annotations

from typing import Any

from browsercrawl.config import JobConfig
from browsercrawl.errors import UserError, error_line
from browsercrawl.frontier.base import Frontier
from browsercrawl.frontier.cluster import Cluster
from browsercrawl.storage.base import Store, StoreFailed


def redis_client(url: str) -> Any:
    import redis.asyncio

    return redis.asyncio.from_url(url, decode_responses=True, socket_connect_timeout=10,
                                  health_check_interval=30)


async def connect_redis(url: str) -> Any:
    """A client for the shared frontier; an unreachable server is one line naming it."""
    import redis

    client = redis_client(url)
    try:
        await client.ping()
    except (redis.RedisError, OSError) as exc:
        await client.aclose()
        raise UserError(f"[distributed] redis = {redact_redis(url)}: cannot connect ({exc})") from None
    return client


def redact_redis(url: str) -> str:
    from browsercrawl.storage.base import redact

    return redact(url)


def lost_server(exc: BaseException, job: JobConfig, store: Store) -> UserError | None:
    """One line for a crawl whose Redis or PostgreSQL server went away while it ran (exit 4), or
    None for any other error. The pages committed stay; the claims come back with the lease."""
    import redis

    if job.distributed is not None and isinstance(
            exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        where = f"[distributed] redis = {redact_redis(job.distributed.redis)}"
    elif store.kind == "postgresql" and _pg_conflict(exc):
        return StoreFailed(f"{store.location}: the server kept rolling a transaction back for conflicts "
                           f"with other workers ({error_line(exc)}); what was committed is kept: run "
                           "the same command again")
    elif store.kind == "postgresql" and _pg_connection_error(exc):
        where = store.location
    else:
        return None
    return StoreFailed(f"{where}: the connection was lost during the crawl ({error_line(exc)}); what "
                       "was committed is kept: run the same command again once the server is back")


def _pg_connection_error(exc: BaseException) -> bool:
    import psycopg

    return isinstance(exc, psycopg.OperationalError)


def _pg_conflict(exc: BaseException) -> bool:
    """A deadlock or serialization failure (SQLSTATE class 40), still there after the store's retries:
    psycopg counts it an ``OperationalError``, but the connection is fine."""
    import psycopg

    return isinstance(exc, psycopg.Error) and (exc.sqlstate or "").startswith("40")


def crawl_prefix(job: JobConfig) -> str:
    return f"bc:{job.crawl_name}:"


async def open_frontier(job: JobConfig, store: Store) -> Frontier:
    """The SQL frontier of the store, or a worker's membership of the shared Redis frontier."""
    if job.distributed is None:
        if store.kind == "postgresql":
            from browsercrawl.frontier.postgres import PostgresFrontier

            return PostgresFrontier(store)  # type: ignore[arg-type]
        from browsercrawl.frontier.sqlite import SqliteFrontier

        return SqliteFrontier(store)  # type: ignore[arg-type]
    if store.kind == "sqlite":
        raise UserError(
            f"{job.source_path}: output.database: workers on several machines need a shared store; "
            'set output.database = "postgresql://..." (see docs/distributed.md)'
        )
    from browsercrawl.frontier.redis_frontier import RedisFrontier

    cfg = job.distributed
    pol = job.politeness
    cluster = Cluster(
        await connect_redis(cfg.redis), crawl_prefix(job),
        lease_seconds=cfg.lease_seconds, balance_minutes=cfg.balance_minutes,
        concurrency=pol.concurrency,
        # a concurrency slot outlives the slowest page (timeouts of a render and a re-login)
        token_lease=max(cfg.lease_seconds, 3 * job.rendering.timeout_seconds),
    )
    cluster.host_concurrency = pol.per_host_concurrency
    await cluster.join()
    return RedisFrontier(cluster, cfg.seen_capacity)
