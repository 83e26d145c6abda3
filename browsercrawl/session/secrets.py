"""Where passwords come from: an environment variable or the system keyring, read only when needed.

They are never stored by browsercrawl (not in the job file, the database, a state file or a log).
"""

from __future__ import annotations

import os

from browsercrawl.config.session import Account
from browsercrawl.engine.traces import register_secret
from browsercrawl.errors import UserError


def resolve_password(account: Account, where: str) -> str:
    """The account's password, read now (never stored); ``where`` names the job key for errors."""
    if account.password_env is not None:
        value = os.environ.get(account.password_env)
        if not value:
            raise UserError(
                f"{where}.password_env: environment variable {account.password_env} is not set"
            )
        register_secret(value)  # scrubbed from any trace this process writes
        return value
    return keyring_secret(account.password_keyring or "", account.username, f"{where}.password_keyring")


def keyring_secret(service: str, user: str, where: str) -> str:
    """A secret from the system keyring (the optional ``keyring`` package)."""
    try:
        import keyring  # type: ignore[import-not-found]  # optional: only users of a keyring install it
    except ImportError:
        raise UserError(f"{where}: the keyring package is not installed (pip install keyring)") from None
    try:
        value = keyring.get_password(service, user)
    except Exception as exc:  # keyring backends raise their own types
        raise UserError(f"{where}: keyring lookup failed: {exc}") from None
    if not value:
        raise UserError(f"{where}: no keyring entry for service {service!r}, user {user!r}")
    register_secret(value)
    return value
