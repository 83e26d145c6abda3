"""``browsercrawl demo``: crawl the bundled demo community end to end, serve it, dump its truth.

``demo`` is a group: without a subcommand it runs the whole demo (``run.py``) and prints what was
found against the ground truth; ``demo serve`` and ``demo truth`` are its subcommands.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import click

from browsercrawl.errors import UserError
from browsercrawl_demo.config import DemoConfig


@click.group(invoke_without_command=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="demo-out",
    show_default=True,
    help="Folder for the job files, databases, CAPTCHA model and summary.json.",
)
@click.option("--members", type=click.IntRange(min=20), default=60, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--captcha-samples",
    type=click.IntRange(min=50, max=300),
    default=300,
    show_default=True,
    help="Labelled CAPTCHA images to train on.",
)
@click.option(
    "--relogin-every",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="The site ends a session after this many requests (0 = never), to show re-login.",
)
@click.pass_context
def demo(
    ctx: click.Context, out: str, members: int, seed: int, captcha_samples: int, relogin_every: int
) -> None:
    """Crawl the bundled demo community end to end and score what was found (no subcommand),
    or serve the site / dump its ground truth (subcommands)."""
    if ctx.invoked_subcommand is not None:
        return
    from pathlib import Path

    from browsercrawl_demo.report import print_report
    from browsercrawl_demo.run import run_demo

    report = run_demo(
        Path(out), members, seed, captcha_samples, relogin_every, lambda msg: click.echo(msg, err=True)
    )
    print_report(report)


@demo.command()
@click.option("--port", type=int, default=8080, show_default=True, help="0 = any free port")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--members", type=int, default=300, show_default=True)
@click.option("--threads", type=int, default=None, help="default: about 2,000 per 300 members")
@click.option("--captcha-difficulty", type=int, default=2, show_default=True, help="0..3")
@click.option("--no-captcha", is_flag=True, help="log in without a CAPTCHA")
@click.option(
    "--session-ttl", type=float, default=3600.0, show_default=True, help="seconds a login lasts (wall time)"
)
@click.option(
    "--session-max-requests",
    type=int,
    default=0,
    show_default=True,
    help="requests a login lasts; 0 = unlimited",
)
@click.option(
    "--lock-after",
    type=int,
    default=5,
    show_default=True,
    help="wrong passwords in a row that lock an account; 0 = never",
)
@click.option(
    "--lock-seconds",
    type=float,
    default=900.0,
    show_default=True,
    help="how long a lock lasts; 0 = until restart",
)
@click.option(
    "--rate-limit",
    type=float,
    default=0.0,
    show_default=True,
    help="requests per second per client before 429; 0 = off",
)
@click.option("--admin-token", default=None, help="X-Demo-Admin token; default: random")
@click.option("--start-time", default=None, help="site time at start (ISO); default 2024-06-01")
@click.option("--log-requests", is_flag=True, help="log every request (off: benchmark target)")
def serve(
    port: int,
    seed: int,
    members: int,
    threads: int | None,
    captcha_difficulty: int,
    no_captcha: bool,
    session_ttl: float,
    session_max_requests: int,
    lock_after: int,
    lock_seconds: float,
    rate_limit: float,
    admin_token: str | None,
    start_time: str | None,
    log_requests: bool,
) -> None:
    """Serve the demo site on 127.0.0.1 until Ctrl-C or SIGTERM."""
    from browsercrawl_demo.truth import parse_site_time

    config = DemoConfig(
        seed=seed,
        port=port,
        members=members,
        threads=threads,
        captcha_difficulty=captcha_difficulty,
        require_captcha=not no_captcha,
        session_ttl_seconds=session_ttl,
        session_max_requests=session_max_requests,
        lock_after_failures=lock_after,
        lock_seconds=lock_seconds,
        rate_limit=rate_limit,
        start_time=parse_site_time(start_time, "--start-time") if start_time else None,
        log_requests=log_requests,
    )
    if admin_token is not None:
        config.admin_token = admin_token
    config.validate()
    asyncio.run(_serve(config))


async def _serve(config: DemoConfig) -> None:
    import logging

    from browsercrawl_demo.app import start_demo_site
    from browsercrawl_demo.content import iso

    if config.log_requests:
        logging.basicConfig(level=logging.INFO, format="%(message)s")
    site = await start_demo_site(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    click.echo(
        f"demo site: {site.url}/",
    )
    click.echo(
        f"seed {config.seed}, {len(site.state.content.members)} members, "
        f"{len(site.state.content.threads)} threads, site time {iso(site.clock.now())}"
    )
    click.echo(f"admin token (X-Demo-Admin): {config.admin_token}")
    click.echo("Ctrl-C to stop", nl=True)
    try:
        await stop.wait()
    finally:
        await site.stop()


@demo.command()
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path),
    required=True,
    help="directory to write the JSON files into",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--members", type=int, default=300, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--at", "at", default=None, help="site time of the dump: ISO time or +SECONDS after the start")
def truth(out: Path, seed: int, members: int, threads: int | None, at: str | None) -> None:
    """Write the ground truth (members, follows, threads, posts, targets, accounts) as JSON."""
    from browsercrawl_demo.content import iso
    from browsercrawl_demo.truth import parse_site_time, write_truth

    DemoConfig(seed=seed, members=members, threads=threads).validate()
    when = parse_site_time(at)
    try:
        data = write_truth(out, seed, members, threads, when)
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write: {exc.strerror}") from exc
    click.echo(
        f"wrote {len(data)} files to {out}: {len(data['members.json'])} members, "
        f"{len(data['threads.json'])} threads, {len(data['posts.json'])} posts "
        f"at {iso(when)}"
    )
