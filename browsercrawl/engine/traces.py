"""Playwright traces without secrets: every trace browsercrawl writes goes through :func:`save_trace`.

A raw trace holds what a login typed and what the server set: the password in the form post
(``trace.network``, ``resources/``) and in the DOM snapshots (``__playwright_value_`` of a password
field), cookie values in ``Cookie``/``Set-Cookie`` headers, storage values. Before the file is
closed under its name, the zip is rewritten with:

* every known secret (passwords read from the environment or the keyring in this process, every
  cookie value and storage value of the traced context, every cookie value and credential the
  trace's own headers carry) replaced by ``***`` wherever it appears, also URL-encoded and
  JSON-escaped;
* the values of ``Cookie``, ``Set-Cookie``, ``Authorization`` and ``Proxy-Authorization`` headers,
  and of every password field in the snapshots, replaced whatever they are.

The raw trace only ever exists in a private temporary folder (mode 700), and the scrubbed file is
created mode 600. What a trace still holds: page URLs, the HTML and screenshots of the pages,
request and response headers other than those above, response bodies, typed text that is not a
password (a username), console messages. docs/sessions.md says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import shutil
import tempfile
import zipfile
from pathlib import Path
from urllib.parse import quote, quote_plus

from playwright.async_api import BrowserContext

log = logging.getLogger(__name__)

MASK = "***"
_KNOWN_SECRETS: set[str] = set()
# A cookie or storage value this short is replaced in headers and name/value pairs only: replacing
# "1" or "en" everywhere would wreck the trace without protecting anything.
_MIN_GLOBAL_LENGTH = 6
_SECRET_HEADERS = ("cookie", "set-cookie", "authorization", "proxy-authorization")
_JSON_STRING = r'((?:[^"\\]|\\.)*)'
_HEADER = re.compile(r'(\{\s*"name"\s*:\s*"(?i:' + "|".join(_SECRET_HEADERS) + r')"\s*,\s*"value"\s*:\s*")'
                     + _JSON_STRING + '(")')
_NAME = re.compile(r'"name"\s*:\s*"' + _JSON_STRING + '"')
_VALUE = re.compile(r'("value"\s*:\s*")' + _JSON_STRING + '(")')
_FLAT_OBJECT = re.compile(r"\{[^{}\[\]]*\}")
_PASSWORD_TYPE = re.compile(r'"type"\s*:\s*"password"', re.IGNORECASE)
_FIELD_VALUE = re.compile(r'("__playwright_value_"\s*:\s*")' + _JSON_STRING + '(")')


def register_secret(value: str | None) -> None:
    """A password or token this process read: scrubbed from every trace it writes from now on."""
    if value:
        _KNOWN_SECRETS.add(value)


def _forms(secret: str) -> set[bytes]:
    """The spellings a secret takes inside a trace: raw, JSON-escaped, URL-encoded."""
    forms = {secret, json.dumps(secret)[1:-1], quote_plus(secret), quote(secret, safe="")}
    return {f.encode("utf-8") for f in forms if f}


def _masked(m: re.Match[str]) -> str:
    """A (prefix, value, suffix) match with the value replaced."""
    return m.group(1) + MASK + m.group(3)


def _scrub_text(data: bytes, secrets: list[bytes], names: set[str]) -> bytes:
    for secret in secrets:
        data = data.replace(secret, MASK.encode())
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # an image or other binary resource: the known strings are gone already
    text = _HEADER.sub(_masked, text)

    def flat(m: re.Match[str]) -> str:
        obj = m.group(0)
        if _PASSWORD_TYPE.search(obj):  # a password field's typed value in a DOM snapshot
            obj = _FIELD_VALUE.sub(_masked, obj)
        name = _NAME.search(obj) if names else None
        if name and name.group(1) in names:  # a cookie or storage item, however short its value
            obj = _VALUE.sub(_masked, obj)
        return obj

    return _FLAT_OBJECT.sub(flat, text).encode("utf-8")


def _header_secrets(data: bytes) -> set[str]:
    """Cookie values and credentials the trace's own headers carry (to replace them everywhere:
    a token sent in ``Authorization`` is often written in the page's script too)."""
    found: set[str] = set()
    for m in _HEADER.finditer(data.decode("utf-8", "replace")):
        name = m.group(0).split('"')[3].lower()
        value = json.loads(f'"{m.group(2)}"')
        if name == "authorization" or name == "proxy-authorization":
            found |= {value, value.split(" ", 1)[-1]}
        elif name == "cookie":
            found |= {pair.partition("=")[2] for pair in value.split(";")}
        else:  # set-cookie: the first pair is the cookie, the rest its attributes
            found.add(value.split(";", 1)[0].partition("=")[2])
    return {v.strip() for v in found if len(v.strip()) >= _MIN_GLOBAL_LENGTH}


def scrub_trace(src: Path, dst: Path, secrets: set[str], names: set[str]) -> None:
    """Copy the trace zip ``src`` to ``dst`` (created mode 600) with the secrets replaced."""
    with zipfile.ZipFile(src) as zin:
        entries = [(item.filename, zin.read(item)) for item in zin.infolist()]
    logs = [data for name, data in entries if name.endswith((".trace", ".network"))]
    seen = {v for data in logs for v in _header_secrets(data)}
    spelled = sorted({f for s in secrets | seen | _KNOWN_SECRETS for f in _forms(s)}, key=len, reverse=True)
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # also when the file existed with wider rights
    with os.fdopen(fd, "wb") as out, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in entries:
            zout.writestr(name, _scrub_text(data, spelled, names))


async def save_trace(context: BrowserContext, path: Path) -> Path:
    """Stop ``context``'s tracing and write the scrubbed trace to ``path`` (mode 600)."""
    secrets: set[str] = set()
    names: set[str] = set()
    with contextlib.suppress(Exception):  # a context that is closing has no state to ask for
        state = await context.storage_state()
        for cookie in state.get("cookies", []):
            names.add(cookie["name"])
            if len(cookie["value"]) >= _MIN_GLOBAL_LENGTH:
                secrets.add(cookie["value"])
        for origin in state.get("origins", []):
            for item in origin.get("localStorage", []):
                names.add(item["name"])
                if len(item["value"]) >= _MIN_GLOBAL_LENGTH:
                    secrets.add(item["value"])
    path.parent.mkdir(parents=True, exist_ok=True)
    private = tempfile.mkdtemp(prefix="browsercrawl-trace-")  # mode 700: the raw trace stays here
    try:
        raw = Path(private) / "raw.zip"
        await context.tracing.stop(path=str(raw))
        await asyncio.to_thread(scrub_trace, raw, path, secrets, names)
    finally:
        shutil.rmtree(private, ignore_errors=True)
    return path
