"""Sessions, CSRF tokens, the login CAPTCHA, lockout and expiry for the demo site.

The point is to be as awkward as a real community's login, so a crawler's login flow is tested
against something real: every visitor gets a ``sid`` cookie holding an anonymous session with a
CSRF token and a CAPTCHA answer; logging in replaces it by a fresh session (no fixation); a
logged-in session ends after ``session_ttl_seconds`` of *wall* time (not site time, so advancing
the site clock for revisit tests does not log everyone out) or after ``session_max_requests``
requests to login-required URLs; ``lock_after_failures`` wrong passwords in a row lock the
account for ``lock_seconds``.

Test API (in-process only, never reachable over HTTP): :meth:`Auth.captcha_answer_for` returns
the answer of the CAPTCHA currently shown to a session, and :meth:`Auth.advance` ages every
session and lock as if that many seconds had passed.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import random
import secrets
import time
from dataclasses import dataclass, field

import pyotp

from browsercrawl_demo.captcha_image import random_captcha_text, render_captcha

ANON_TTL_SECONDS = 3600.0
MAX_SESSIONS = 50_000  # prune expired sessions beyond this many (crawlers open many)


def password_for(name: str, seed: int) -> str:
    """The demo password of member ``name`` for site seed ``seed`` (test data, not a secret)."""
    digest = hashlib.sha256(f"browsercrawl-demo:{seed}:{name}".encode()).hexdigest()
    return f"pw-{digest[:10]}"


def totp_secret_for(name: str, seed: int) -> str:
    """The demo TOTP seed (base32) of a member with two-factor login on (test data, not a secret)."""
    digest = hashlib.sha256(f"browsercrawl-demo-totp:{seed}:{name}".encode()).digest()
    return base64.b32encode(digest[:20]).decode()


@dataclass
class Session:
    sid: str
    csrf: str
    created: float  # auth-clock seconds
    user: str | None = None  # None = anonymous (before login)
    requests: int = 0  # login-required requests made with this session
    captcha_nonce: str | None = None
    captcha_text: str | None = None
    captcha_png: bytes | None = None
    otp_pending: str | None = None  # member whose password was right; the one-time code is next


@dataclass
class LoginResult:
    ok: bool
    error: str = ""  # what the form shows: "wrong captcha", "account locked", ...
    session: Session | None = None
    needs_code: bool = False  # password right, two-factor on: ask for the one-time code


@dataclass
class Auth:
    """All authentication state of one running demo site."""

    seed: int
    passwords: dict[str, str]  # member name -> password
    session_ttl_seconds: float = 3600.0
    session_max_requests: int = 0  # 0 = unlimited
    lock_after_failures: int = 5  # 0 = never lock
    lock_seconds: float = 900.0  # 0 = locked until the site restarts
    require_captcha: bool = True
    captcha_difficulty: int = 2
    sessions: dict[str, Session] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    locked_until: dict[str, float] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    totp_secrets: dict[str, str] = field(default_factory=dict)  # members with two-factor login on
    _offset: float = 0.0
    _captcha_rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self._captcha_rng = random.Random(f"browsercrawl-demo:{self.seed}:captcha")

    # ----- clock -----

    def now(self) -> float:
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        """Test API: age sessions and locks by ``seconds`` without waiting."""
        self._offset += seconds

    # ----- sessions -----

    def new_session(self, user: str | None = None) -> Session:
        if len(self.sessions) > MAX_SESSIONS:
            self._prune()
        s = Session(secrets.token_urlsafe(18), secrets.token_urlsafe(18), self.now(), user)
        self.sessions[s.sid] = s
        return s

    def _expired(self, s: Session) -> bool:
        age = self.now() - s.created
        if s.user is None:
            return age > ANON_TTL_SECONDS
        if s.user in self.deleted:
            return True
        if self.session_ttl_seconds and age > self.session_ttl_seconds:
            return True
        return bool(self.session_max_requests) and s.requests >= self.session_max_requests

    def _prune(self) -> None:
        for sid in [sid for sid, s in self.sessions.items() if self._expired(s)]:
            del self.sessions[sid]

    def get(self, sid: str | None) -> Session | None:
        """The live session for a cookie value, or None (unknown or expired, then forgotten)."""
        s = self.sessions.get(sid) if sid else None
        if s is not None and self._expired(s):
            del self.sessions[s.sid]
            return None
        return s

    def user_session(self, sid: str | None) -> Session | None:
        """The live *logged-in* session for a cookie value, counting this request against it."""
        s = self.get(sid)
        if s is None or s.user is None:
            return None
        s.requests += 1
        return s

    def end(self, sid: str | None) -> None:
        if sid:
            self.sessions.pop(sid, None)

    # ----- CAPTCHA -----

    def new_captcha(self, s: Session, nonce: str | None = None) -> str:
        """Give the session a fresh CAPTCHA answer bound to ``nonce`` (the image URL's ``r``)."""
        s.captcha_nonce = nonce or secrets.token_hex(6)
        s.captcha_text = random_captcha_text(self._captcha_rng)
        s.captcha_png = None
        return s.captcha_nonce

    async def captcha_png(self, s: Session, nonce: str) -> bytes:
        """The image for ``nonce``; the current one is re-served unchanged, a new nonce rotates it.

        Fetching the same ``src`` twice (browser, then a crawler's OCR download) gives the same
        picture; the "new image" link asks for a new ``r`` and so a new answer.
        """
        if nonce != s.captcha_nonce or s.captcha_text is None:
            self.new_captcha(s, nonce)
        if s.captcha_png is None:
            text, difficulty = s.captcha_text, self.captcha_difficulty
            rng = random.Random(f"captcha-image:{s.captcha_nonce}")
            s.captcha_png = await asyncio.to_thread(render_captcha, text, rng, difficulty)
        return s.captcha_png

    def captcha_answer_for(self, session_or_token: str) -> str | None:
        """Test API: the answer of the CAPTCHA shown to a session.

        Accepts the ``sid`` cookie value, the form's ``csrf_token`` or the image's ``r`` nonce.
        """
        for s in list(self.sessions.values()):  # a snapshot: the site may run in another thread
            if session_or_token in (s.sid, s.csrf, s.captcha_nonce):
                return s.captcha_text
        return None

    # ----- login -----

    def locked(self, name: str) -> bool:
        until = self.locked_until.get(name)
        if until is None:
            return False
        if self.now() >= until:
            del self.locked_until[name]
            self.failures.pop(name, None)
            return False
        return True

    def attempt(self, s: Session | None, csrf: str, name: str, password: str,
                captcha: str) -> LoginResult:
        """Check one login form post. The CAPTCHA is single-use whatever the outcome."""
        if s is None or not secrets.compare_digest(csrf or "", s.csrf):
            return LoginResult(False, "invalid or expired form (CSRF token); reload the page")
        expected, s.captcha_text, s.captcha_png = s.captcha_text, None, None
        if self.require_captcha and (
            not expected or captcha.strip().upper() != expected
        ):
            return LoginResult(False, "wrong captcha")
        if self.locked(name):
            return LoginResult(False, "account locked")
        if name in self.deleted:
            return LoginResult(False, "account deleted")
        good = self.passwords.get(name)
        if good is None or not secrets.compare_digest(password.encode(), good.encode()):
            n = self.failures.get(name, 0) + 1
            self.failures[name] = n
            if self.lock_after_failures and n >= self.lock_after_failures:
                self.locked_until[name] = (
                    self.now() + self.lock_seconds if self.lock_seconds > 0 else float("inf")
                )
                return LoginResult(False, "account locked")
            return LoginResult(False, "wrong username or password")
        self.failures.pop(name, None)
        if name in self.totp_secrets:
            s.otp_pending = name
            return LoginResult(False, needs_code=True, session=s)
        self.end(s.sid)
        return LoginResult(True, session=self.new_session(name))

    def attempt_code(self, s: Session | None, csrf: str, code: str) -> LoginResult:
        """Check the one-time code of a session whose password was accepted (one window of drift)."""
        if s is None or s.otp_pending is None or not secrets.compare_digest(csrf or "", s.csrf):
            return LoginResult(False, "invalid or expired form (CSRF token); log in again")
        name = s.otp_pending
        if not pyotp.TOTP(self.totp_secrets[name]).verify(code.strip(), valid_window=1):
            n = self.failures.get(name, 0) + 1
            self.failures[name] = n
            if self.lock_after_failures and n >= self.lock_after_failures:
                s.otp_pending = None
                self.locked_until[name] = self.now() + (self.lock_seconds or float("inf"))
                return LoginResult(False, "account locked")
            return LoginResult(False, "wrong authentication code")
        self.failures.pop(name, None)
        self.end(s.sid)
        return LoginResult(True, session=self.new_session(name))
