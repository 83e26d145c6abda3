"""Browser state in and out: Playwright storage_state, Netscape cookies.txt, extension cookie JSON.

A :class:`SessionState` is Playwright's ``storage_state`` (cookies + localStorage per origin) plus
the sessionStorage of each origin, which Playwright leaves out and which single-page apps often
keep their login token in. Our own file format is the storage_state JSON with one extra key,
``"sessionStorage": {origin: {key: value}}``; Playwright ignores the extra key, so the file still
loads with ``new_context(storage_state=...)`` (minus sessionStorage).

sessionStorage is restored with an init script that sets the saved keys before the page's own
scripts run (only keys the page does not have yet, so the app's later changes survive reloads).
Every file holding state is created with mode 600: it is as good as a password.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from browsercrawl.errors import UserError

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

StateFormat = Literal["playwright", "netscape", "extension"]
FORMATS: tuple[str, ...] = ("playwright", "netscape", "extension")

_CAPTURE_JS = """() => {
  const out = {};
  try { for (let i = 0; i < sessionStorage.length; i++) {
    const k = sessionStorage.key(i); out[k] = sessionStorage.getItem(k); } } catch (e) {}
  return [location.origin, out];
}"""

_RESTORE_JS = """(data => { try {
  const saved = data[location.origin];
  if (!saved) return;
  for (const [k, v] of Object.entries(saved))
    if (sessionStorage.getItem(k) === null) sessionStorage.setItem(k, v);
} catch (e) {} })(%s);"""

_SAMESITE_TO_EXT = {"Lax": "lax", "Strict": "strict", "None": "no_restriction"}
_SAMESITE_FROM_EXT = {"lax": "Lax", "strict": "Strict", "no_restriction": "None", "unspecified": "Lax"}


@dataclass
class SessionState:
    """Cookies, localStorage (``origins``) and sessionStorage of one logged-in browser."""

    cookies: list[dict[str, Any]] = field(default_factory=list)
    origins: list[dict[str, Any]] = field(default_factory=list)
    session_storage: dict[str, dict[str, str]] = field(default_factory=dict)

    def storage_state(self) -> dict[str, Any]:
        """What ``browser.new_context(storage_state=...)`` takes."""
        return {"cookies": self.cookies, "origins": self.origins}

    def to_json(self) -> dict[str, Any]:
        return {**self.storage_state(), "sessionStorage": self.session_storage}

    def cookie_names(self) -> set[str]:
        return {c["name"] for c in self.cookies}


# -- files --------------------------------------------------------------------------------------
def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by the owner only (mode 600, also when it existed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def detect_format(text: str) -> StateFormat:
    """Guess a state file's format from its content."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return "playwright"
    if stripped.startswith("["):
        return "extension"
    return "netscape"


def load_state(path: str | Path, fmt: str = "auto") -> SessionState:
    """Read a state file in any supported format; errors name the file and what is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: state file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read state file: {exc}") from None
    kind = detect_format(text) if fmt == "auto" else fmt
    if kind == "playwright":
        return _from_playwright(text, path)
    if kind == "extension":
        return SessionState(cookies=_from_extension(text, path))
    if kind == "netscape":
        return SessionState(cookies=_from_netscape(path))
    raise UserError(f"{path}: unknown state format {fmt!r} (known: auto, {', '.join(FORMATS)})")


def save_state(state: SessionState, path: str | Path, fmt: str = "playwright") -> None:
    """Write ``state`` as ``fmt`` with mode 600. Cookie-only formats drop local/sessionStorage."""
    path = Path(path)
    if fmt == "playwright":
        write_private(path, json.dumps(state.to_json(), indent=2))
    elif fmt == "extension":
        write_private(path, json.dumps([_to_extension(c) for c in state.cookies], indent=2))
    elif fmt == "netscape":
        write_private(path, _to_netscape(state.cookies))
    else:
        raise UserError(f"unknown state format {fmt!r} (known: {', '.join(FORMATS)})")


def _bad(path: Path, what: str) -> UserError:
    return UserError(f"{path}: {what}")


def _from_playwright(text: str, path: Path) -> SessionState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(path, f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cookies", []), list):
        raise _bad(path, "not a Playwright storage state (expected an object with a 'cookies' list)")
    cookies = data.get("cookies", [])
    for i, c in enumerate(cookies):
        _check_cookie(c, path, f"cookies.{i}")
    origins = data.get("origins", [])
    if not isinstance(origins, list):
        raise _bad(path, "origins: expected a list")
    ss = data.get("sessionStorage", {})
    if not isinstance(ss, dict) or not all(isinstance(v, dict) for v in ss.values()):
        raise _bad(path, "sessionStorage: expected {origin: {key: value}}")
    return SessionState(cookies=cookies, origins=origins, session_storage=ss)


def _check_cookie(c: Any, path: Path, where: str) -> None:
    if not isinstance(c, dict):
        raise _bad(path, f"{where}: expected a cookie object")
    for key in ("name", "value", "domain"):
        if not isinstance(c.get(key), str):
            raise _bad(path, f"{where}.{key}: missing or not a string")


def _from_extension(text: str, path: Path) -> list[dict[str, Any]]:
    """Cookie exports of browser extensions (EditThisCookie, Cookie-Editor): a JSON list."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(path, f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, list):
        raise _bad(path, "not an extension cookie export (expected a JSON list of cookies)")
    cookies = []
    for i, c in enumerate(data):
        _check_cookie(c, path, f"[{i}]")
        domain = c["domain"]
        host_only = c.get("hostOnly", not domain.startswith("."))
        if not host_only and not domain.startswith("."):
            domain = "." + domain
        if host_only:
            domain = domain.lstrip(".")
        session = c.get("session", "expirationDate" not in c)
        cookies.append(
            {
                "name": c["name"],
                "value": c["value"],
                "domain": domain,
                "path": c.get("path") or "/",
                "expires": -1 if session else float(c.get("expirationDate", -1)),
                "httpOnly": bool(c.get("httpOnly", False)),
                "secure": bool(c.get("secure", False)),
                "sameSite": _SAMESITE_FROM_EXT.get(str(c.get("sameSite", "lax")).lower(), "Lax"),
            }
        )
    return cookies


def _to_extension(c: dict[str, Any]) -> dict[str, Any]:
    expires = c.get("expires", -1)
    session = expires is None or expires < 0
    out = {
        "domain": c["domain"],
        "hostOnly": not c["domain"].startswith("."),
        "httpOnly": bool(c.get("httpOnly")),
        "name": c["name"],
        "path": c.get("path", "/"),
        "sameSite": _SAMESITE_TO_EXT.get(c.get("sameSite", "Lax"), "unspecified"),
        "secure": bool(c.get("secure")),
        "session": session,
        "storeId": "0",
        "value": c["value"],
    }
    if not session:
        out["expirationDate"] = expires
    return out


def _from_netscape(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or not http.cookiejar.NETSCAPE_MAGIC_RGX.match(lines[0]):
        raise _bad(path, "not a Netscape cookies.txt (first line must be '# Netscape HTTP Cookie File')")
    for n, line in enumerate(lines[1:], start=2):
        body = line.removeprefix(http.cookiejar.HTTPONLY_PREFIX)
        if body.strip().startswith(("#", "$")) or not body.strip():
            continue
        if len(body.split("\t")) != 7:  # the line itself is not quoted: it may hold a cookie value
            raise _bad(path, f"line {n}: bad cookies.txt line; expected 7 tab-separated fields")
    jar = http.cookiejar.MozillaCookieJar()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cookiejar prints a traceback as a warning on bad lines
            jar.load(str(path), ignore_discard=True, ignore_expires=True)
    except (http.cookiejar.LoadError, AssertionError, ValueError):
        raise _bad(path, "bad cookies.txt (domain flag and leading dot disagree, or a bad field)") from None
    cookies = []
    for c in jar:
        expires = c.expires if c.expires else -1  # 0 or empty = session cookie
        cookies.append(
            {
                "name": c.name,
                "value": c.value or "",
                "domain": c.domain,
                "path": c.path or "/",
                "expires": float(expires),
                "httpOnly": c.has_nonstandard_attr(http.cookiejar.HTTPONLY_ATTR),
                "secure": bool(c.secure),
                "sameSite": "Lax",
            }
        )
    return cookies


def _to_netscape(cookies: list[dict[str, Any]]) -> str:
    lines = ["# Netscape HTTP Cookie File", "# Written by browsercrawl: login cookies, keep private.", ""]
    for c in cookies:
        domain = c["domain"]
        if c.get("httpOnly"):
            domain = http.cookiejar.HTTPONLY_PREFIX + domain
        expires = c.get("expires", -1)
        fields = [
            domain,
            "TRUE" if c["domain"].startswith(".") else "FALSE",
            c.get("path", "/"),
            "TRUE" if c.get("secure") else "FALSE",
            str(int(expires)) if expires is not None and expires > 0 else "0",
            c["name"],
            c["value"],
        ]
        lines.append("\t".join(fields))
    return "\n".join(lines) + "\n"


# -- live browsers ------------------------------------------------------------------------------
async def capture_session_storage(pages: list[Page]) -> dict[str, dict[str, str]]:
    """sessionStorage of every open page, keyed by origin (later pages win)."""
    out: dict[str, dict[str, str]] = {}
    for page in pages:
        if page.is_closed():
            continue
        try:
            origin, items = await page.evaluate(_CAPTURE_JS)
        except Exception:  # a page mid-navigation or on about:blank has nothing to give
            continue
        if items and origin and origin != "null":
            out.setdefault(origin, {}).update(items)
    return out


async def capture_state(context: BrowserContext, extra_pages: list[Page] | None = None) -> SessionState:
    """Everything needed to be logged in again elsewhere: storage_state + sessionStorage."""
    storage = await context.storage_state()
    pages = [*context.pages, *(extra_pages or [])]
    return SessionState(
        cookies=storage.get("cookies", []),
        origins=storage.get("origins", []),
        session_storage=await capture_session_storage(pages),
    )


async def restore_session_storage(context: BrowserContext, state: SessionState) -> None:
    """Make every new document of ``context`` start with the saved sessionStorage."""
    if state.session_storage:
        await context.add_init_script(script=_RESTORE_JS % json.dumps(state.session_storage))


def cookie_is_live(cookies: list[dict[str, Any]], name: str) -> bool:
    now = time.time()
    return any(c["name"] == name and (c.get("expires", -1) < 0 or c["expires"] > now) for c in cookies)
