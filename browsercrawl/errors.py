"""Errors a user can act on, and the exit codes the CLI documents.

Every failure caused by bad input (a job file, a URL, an image folder, a flow file) is raised as a
:class:`UserError` whose message is one line naming the file, key or URL at fault. The CLI prints it
as ``browsercrawl: error: <message>`` and exits with the error's code, never with a traceback.
"""

from __future__ import annotations

# Exit codes (documented in README.md, relied on by scripts and CI).
EXIT_OK = 0
EXIT_CRAWL_FAILURES = 1  # the crawl finished but some pages failed after all retries
EXIT_USAGE = 2  # bad input: job file, options, files given on the command line
EXIT_LOGIN = 3  # login failed: wrong credentials, locked account, CAPTCHA unsolved
EXIT_ENVIRONMENT = 4  # the machine lacks something (Chromium, Tesseract, a display, Redis) or a server left
EXIT_INTERRUPTED = 130  # stopped by Ctrl-C / SIGTERM; the crawl resumes on the next run


def error_line(exc: BaseException) -> str:
    """An exception's first line of text (its class name if it has none): what a one-line message
    quotes of an error raised by a library."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class UserError(Exception):
    """Bad input from the user; the message names what is wrong in one line."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class LoginError(UserError):
    """A login could not be completed (credentials, lock, CAPTCHA)."""

    exit_code = EXIT_LOGIN


class EnvironmentProblem(UserError):
    """Something the machine must provide is missing (browser, OCR engine, display, Redis)."""

    exit_code = EXIT_ENVIRONMENT
