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

# name -> "module:attribute" of a click command or group. Each part of the package adds its line.
_SUBCOMMANDS: dict[str, str] = {
    "crawl": "browsercrawl.commands.crawl:crawl",
    "urls": "browsercrawl.induction.cli:urls",
    "wrapper": "browsercrawl.induction.cli:wrapper",
    "induce": "browsercrawl.commands.induce:induce_cmd",
    "captcha": "browsercrawl.captcha.cli:captcha",
    "export": "browsercrawl.commands.data:export",
    "stats": "browsercrawl.commands.data:stats",
    "status": "browsercrawl.commands.status:status",
    "search": "browsercrawl.commands.search:search_cmd",
    "browse": "browsercrawl.commands.browse:browse",
    "recrawl": "browsercrawl.commands.recrawl:recrawl_cmd",
    "discover": "browsercrawl.commands.discover:discover_cmd",
    "login": "browsercrawl.session.cli:login",
}


def _plugin_commands() -> dict[str, str]:
    """Commands other installed distributions add (``browsercrawl.commands`` entry points)."""
    return {ep.name: ep.value for ep in entry_points(group="browsercrawl.commands")}


class _LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when that subcommand runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({**_plugin_commands(), **_SUBCOMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _SUBCOMMANDS.get(cmd_name) or _plugin_commands().get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)


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
