"""The one formatter of validation errors: every bad key of every file reads the same way.

``job.toml: politeness.delay_seconds: Input should be greater than or equal to 0`` - the file,
the dotted key (section first) and the problem, on one line, so a user can find it in the file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from browsercrawl.errors import UserError

M = TypeVar("M", bound=BaseModel)


def format_validation_error(source: str | Path, exc: ValidationError, prefix: str = "") -> str:
    """One line for the first problem of ``exc``; ``prefix`` names the section the model is."""
    errors = exc.errors()
    err = errors[0]
    where = ".".join(str(x) for x in (*([prefix] if prefix else []), *err["loc"])) or "(top level)"
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "extra_forbidden":
        msg = "unknown key"
    elif err["type"] == "missing":
        msg = "required key is missing"
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"{source}: {where}: {msg}{more}"


def validate_section(model: type[M], data: object, source: str | Path, section: str = "") -> M:
    """Validate ``data`` as ``model``; a problem is a :class:`UserError` naming file and key."""
    try:
        return model.model_validate(data if data is not None else {})
    except ValidationError as exc:
        raise UserError(format_validation_error(source, exc, section)) from None


def check_regex(pattern: str | None) -> str | None:
    """A field validator body: the pattern must compile (the message names it)."""
    if pattern is not None:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"bad regex {pattern!r}: {exc}") from None
    return pattern
