"""The ``browsercrawl`` command: a root group whose subcommands live beside the code they drive.

Subcommands are imported lazily (see ``_SUBCOMMANDS``) so ``browsercrawl stats`` does not pay for
OpenCV or Playwright imports, and so each part of the package owns its own CLI module. Other
distributions add commands through the ``browsercrawl.commands`` entry-point group (the demo site
adds ``browsercrawl demo`` that way; the product never imports it).
"""

from __future__ import annotations

import importlib
import sys
from importlib.metadata import entry_points

import click

from browsercrawl.errors import EXIT_INTERRUPTED, UserError

# name -> ("module:attribute" of a click command or group, the first paragraph of its help).
# Each part of the package adds its line. The help's first paragraph is repeated here so that
# ``browsercrawl --help`` lists the commands without importing them (a test keeps the two equal).
_SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "crawl": (
        "browsercrawl.commands.crawl:crawl",
        "Crawl the site described by the JOB file into its database (SQLite file or PostgreSQL).",
    ),
    "urls": (
        "browsercrawl.induction.cli:urls",
        "Cluster URLs into classes and write a regex for each class.",
    ),
    "wrapper": (
        "browsercrawl.induction.cli:wrapper",
        "Learn a wrapper from sample pages, apply it to saved pages, heal it after a redesign.",
    ),
    "induce": (
        "browsercrawl.commands.induce:induce_cmd",
        "Learn a site profile for JOB: pre-crawl, URL classes, thresholds and a wrapper.",
    ),
    "captcha": (
        "browsercrawl.captcha.cli:captcha",
        "Solve image CAPTCHAs; train and tune a site's profile from labelled samples.",
    ),
    "export": (
        "browsercrawl.commands.data:export",
        "Export a table of a crawl DATABASE (a SQLite file or a postgresql:// URL) as JSON lines or"
        " CSV (or its people graph, --graph).",
    ),
    "stats": (
        "browsercrawl.commands.data:stats",
        "Summarise a crawl DATABASE (a SQLite file or a postgresql:// URL): frontier states, "
        "statuses, hosts, timings, table sizes.",
    ),
    "status": (
        "browsercrawl.commands.status:status",
        "Show the workers of the JOB's distributed crawl, its queue, rates and failures.",
    ),
    "search": (
        "browsercrawl.commands.search:search_cmd",
        "Search a crawl DATABASE (SQLite file or postgresql:// URL) for QUERY: BM25 ranking, FTS5 "
        "query syntax (quotes, AND/OR/NOT, NEAR, prefix*), snippets with the matches marked.",
    ),
    "browse": (
        "browsercrawl.commands.browse:browse",
        "Browse a crawl DATABASE (SQLite file) in Datasette on 127.0.0.1: search, facets, stored "
        "HTML, canned queries. Ctrl-C stops it.",
    ),
    "recrawl": (
        "browsercrawl.commands.recrawl:recrawl_cmd",
        "Revisit BUDGET people of a social crawl (JOB's database) and record what changed.",
    ),
    "discover": (
        "browsercrawl.commands.discover:discover_cmd",
        "Open the person page at URL, infer the community's people, relation lists and fields, and "
        "write a job whose [social] section crawls them (prints what it found and could not "
        "decide).",
    ),
    "login": (
        "browsercrawl.session.cli:login",
        "Record, replay and check logins; import and export browser state.",
    ),
}


def _plugin_commands() -> dict[str, str]:
    """Commands other installed distributions add (``browsercrawl.commands`` entry points)."""
    return {ep.name: ep.value for ep in entry_points(group="browsercrawl.commands")}


class _LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when that subcommand runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({**_plugin_commands(), **_SUBCOMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _SUBCOMMANDS[cmd_name][0] if cmd_name in _SUBCOMMANDS else _plugin_commands().get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Click's command list, with the built-in commands' help from ``_SUBCOMMANDS``: listing
        them must not import every part (OpenCV, Playwright) just to print a line each."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max((len(n) for n in names), default=0)
        rows = []
        for name in names:
            if name in _SUBCOMMANDS:
                summary = click.Command(name, help=_SUBCOMMANDS[name][1])  # click's own shortening
                rows.append((name, summary.get_short_help_str(limit)))
            elif (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="browsercrawl")
def cli() -> None:
    """Crawl JavaScript sites and logged-in communities with a real browser."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning user errors into one line and a documented exit code."""
    try:
        rc = cli.main(args=argv, prog_name="browsercrawl", standalone_mode=False)
    except UserError as exc:
        click.echo(f"browsercrawl: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("browsercrawl: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as exc:
        click.echo(f"browsercrawl: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("browsercrawl: interrupted; run the same command again to resume", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        sys.exit(0)
    sys.exit(rc if isinstance(rc, int) else 0)
