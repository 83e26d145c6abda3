"""Is this page logged in? Signals checked after a login and after every navigation of a crawl.

Two different questions. *Logged out* is asked of every page, so it must be cheap and must not
fire on ordinary pages. Without any ``[session.logged_out]`` setting it fires on: HTTP 401 or 403
(unless the page still shows the logged-in signal: then it is a page forbidden to this account,
not a lost session), a redirect to the login URL, a visible password field, a visible sign-in
control ("Log in", "Sign in", a link to the login URL) when the page seen right after the login
showed none, and a page that lacks the logged-in signal (configured, or learned at login time:
the logout control the logged-in page showed). Configured texts add to these.
*Logged in* is asked after a login (to verify it) and by ``login check``: a selector, a URL, a
cookie - configured, or learned by the recorder from what differed before and after the login.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from browsercrawl.config.session import LoggedInSignal, LoggedOutSignal
from browsercrawl.session.state import cookie_is_live

if TYPE_CHECKING:
    from playwright.async_api import Page, Response

    from browsercrawl.engine.result import FetchResult

# One round trip: is a password field visible, which configured text (if any) is on the page, is
# a sign-in control visible, and is the logged-in signal (a selector) in the page.
_PAGE_CHECK_JS = """({texts, signal, loginPath}) => {
  const vis = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const form = [...document.querySelectorAll('input[type=password]')].some(vis);
  const body = document.body ? document.body.innerText.toLowerCase() : '';
  const text = texts.find(t => body.includes(t)) || null;
  const words = /^\\s*(log\\s?in|sign\\s?in|sign\\s?on)\\b/i;
  let signIn = null;
  for (const e of document.querySelectorAll('a, button, [role=button], input[type=submit]')) {
    const label = (e.innerText || e.value || '').trim();
    let path = null;
    if (e.tagName === 'A' && e.href) { try { path = new URL(e.href, location.href).pathname; } catch (x) {} }
    if (((label.length <= 30 && words.test(label)) || (loginPath && path === loginPath)) && vis(e)) {
      signIn = label || path;
      break;
    }
  }
  let signed = null;
  if (signal) { try { signed = !!document.querySelector(signal); } catch (x) { signed = null; } }
  return {form, text, signIn, signed};
}"""

# Elements that only a logged-in visitor sees, as selectors; used to learn the logged-in signal.
_LOGOUT_CANDIDATES_JS = """() => {
  const out = [];
  const re = /(log|sign)[ _-]?(out|off)/i;
  for (const e of document.querySelectorAll('a, button, [role=button], form')) {
    const href = e.getAttribute('href') || e.getAttribute('action') || '';
    const txt = (e.innerText || '').trim();
    if (!(re.test(href) || re.test(txt) || re.test(e.id || ''))) continue;
    if (e.id && /^[A-Za-z][\\w-]*$/.test(e.id)) out.push('#' + e.id);
    if (href && re.test(href)) {
      const m = href.match(/[^\\/?#]*(log|sign)[ _-]?(out|off)[^\\/?#]*/i);
      if (m) out.push(`${e.tagName.toLowerCase()}[${e.tagName === 'FORM' ? 'action' : 'href'}*="${m[0]}"]`);
    }
  }
  return [...new Set(out)];
}"""

_PASSWORD_INPUT_RE = re.compile(r"<input[^>]+type=[\"']?password", re.IGNORECASE)


MISSING_SIGNAL = "the logged-in signal is missing"
# A page of a shape that never shows the signal, after which the session was found gone.
GONE_AFTER_UNSIGNED = "the session was gone after a page that cannot show it"
# The landing page, loaded to check the session, did not load: no evidence either way.
PROBE_FAILED = "the session could not be checked"


@dataclass
class Learned:
    """What the first login showed about this site's logged-in pages (nothing configured needed)."""

    selector: str | None = None  # a logout control the logged-in page showed
    sign_in_shown: bool = True  # the logged-in page showed a sign-in control: that rule stays off
    landing_url: str | None = None  # where the login landed: a page known to carry the signal


@dataclass
class Detector:
    """Decides whether a fetched page shows the site to a logged-out visitor."""

    logged_out: LoggedOutSignal
    login_url: str | None = None
    signal_selector: str | None = None  # the configured logged-in selector, if any
    learned: Learned = field(default_factory=Learned)
    # URL shapes whose pages were seen without the signal while the session was alive.
    unsigned_shapes: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        pattern = self.logged_out.url_regex
        if pattern is None and self.login_url:
            parts = urlsplit(self.login_url)
            pattern = r"^https?://[^/]+" + re.escape(parts.path or "/") + r"(?:[?#]|$)"
        self._url_re = re.compile(pattern) if pattern else None
        self._texts = [t.lower() for t in self.logged_out.texts]
        self._login_path = urlsplit(self.login_url).path if self.login_url else None

    @property
    def signal(self) -> str | None:
        """The selector every logged-in page is expected to show: configured, else learned."""
        return self.signal_selector or self.learned.selector

    def url_is_login(self, url: str) -> bool:
        return bool(self._url_re and self._url_re.search(url))

    def learn(self, selector: str | None, sign_in_shown: bool, landing_url: str) -> None:
        """Keep what the first verified login showed (later logins do not change the rules)."""
        if self.learned.landing_url is None:
            self.learned = Learned(selector, sign_in_shown, landing_url)

    async def shows_sign_in(self, page: Page) -> bool:
        """Is a sign-in control visible in ``page`` (asked of the page a login landed on)?"""
        found = await page.evaluate(_PAGE_CHECK_JS,
                                    {"texts": [], "signal": None, "loginPath": self._login_path})
        return bool(found["signIn"])

    def exempt(self, url: str) -> None:
        """Pages shaped like ``url`` legitimately lack the signal: stop expecting it there."""
        self.unsigned_shapes.add(_shape(url))

    def unsigned(self, url: str, status: int) -> bool:
        """Is this a page of a shape that carries no signal (so only a probe can vouch for it)?"""
        return bool(self.signal) and 200 <= status < 300 and _shape(url) in self.unsigned_shapes

    def _expects_signal(self, url: str, status: int) -> bool:
        return bool(self.signal) and 200 <= status < 300 and _shape(url) not in self.unsigned_shapes

    async def lost_reason(self, page: Page, response: Response | None) -> str | None:
        """Why ``page`` looks logged out, or None if it looks fine."""
        status = response.status if response is not None else 0
        if self.url_is_login(page.url):
            return f"redirected to the login page {page.url}"
        try:
            found = await page.evaluate(_PAGE_CHECK_JS, {
                "texts": self._texts, "signal": self.signal,
                "loginPath": self._login_path if not self.learned.sign_in_shown else None})
        except Exception:  # navigated away mid-check: the next page gets checked instead
            return f"HTTP {status}" if status in self.logged_out.statuses else None
        if status in self.logged_out.statuses:
            # A forbidden page that still shows the logged-in signal is not a lost session.
            return None if (status == 403 and found["signed"]) else f"HTTP {status}"
        if self.logged_out.login_form and found["form"]:
            return "a login form is in the page"
        if found["text"]:
            return f"the page says {found['text']!r}"
        # A sign-in link beside the logged-in signal is just a link ("or log in to join", on a
        # page that also has the logout control): evidence only where the signal is not seen.
        if found["signIn"] and not self.learned.sign_in_shown and found["signed"] is not True:
            return f"a sign-in control is in the page ({found['signIn'][:40]})"
        if found["signed"] is False and self._expects_signal(page.url, status or 200):
            return MISSING_SIGNAL
        return None

    def lost_reason_http(self, result: FetchResult, *, form_in_html: bool = True) -> str | None:
        """The same decision from a fetched result alone (no live page to ask).

        Used for pages fetched over plain HTTP, and on every browser snapshot: a page's own script
        can leave for the login page after the navigation looked fine (a session that ends while
        "load more" runs). ``form_in_html`` is off for snapshots, whose visible login form was
        already checked live (a hidden password input in the HTML must not count). The sign-in
        control and the missing signal are judged on the live page only (a plain fetch cannot
        tell a visible control from a hidden one, nor probe whether the session is alive).
        """
        html = result.html or ""
        signal = self.signal
        forbidden_but_signed = result.status == 403 and signal is not None and _has_selector(html, signal)
        if result.status in self.logged_out.statuses and not forbidden_but_signed:
            return f"HTTP {result.status}"
        if self.url_is_login(result.final_url):
            return f"redirected to the login page {result.final_url}"
        if form_in_html and self.logged_out.login_form and _PASSWORD_INPUT_RE.search(html):
            return "a login form is in the page"
        body = (result.text or html).lower()
        for t in self._texts:
            if t in body:
                return f"the page says {t!r}"
        return None


def _shape(url: str) -> str:
    """Host and path with digits abstracted: pages of one template share it."""
    parts = urlsplit(url)
    return parts.netloc + re.sub(r"\d+", "#", parts.path)


def _has_selector(html: str, selector: str) -> bool:
    """Does the HTML hold an element matching the CSS ``selector`` (lxml + cssselect)?"""
    if not html:
        return False
    try:
        import lxml.html
        from lxml.cssselect import CSSSelector

        return bool(CSSSelector(selector)(lxml.html.fromstring(html)))
    except Exception:  # a selector cssselect cannot read: no evidence either way
        return False


async def logged_in(page: Page, signal: LoggedInSignal, detector: Detector, wait_ms: float = 3000) -> bool:
    """Does the live page prove a login? Every configured part must hold; none -> no logged-out sign."""
    if signal.url_regex and not re.search(signal.url_regex, page.url):
        return False
    if signal.cookie and not cookie_is_live(await page.context.cookies(), signal.cookie):
        return False
    if signal.selector:
        try:
            await page.locator(signal.selector).first.wait_for(state="attached", timeout=wait_ms)
        except Exception:
            return False
        return True
    if signal.is_empty():
        return await detector.lost_reason(page, None) is None
    return True


async def login_snapshot(page: Page) -> dict[str, Any]:
    """What the page and context look like now; two of these (before/after) teach the signal."""
    cookies = await page.context.cookies()
    try:
        candidates = await page.evaluate(_LOGOUT_CANDIDATES_JS)
    except Exception:
        candidates = []
    return {"url": page.url, "cookies": {c["name"] for c in cookies}, "selectors": candidates}


def learn_signal(before: dict[str, Any], after: dict[str, Any]) -> LoggedInSignal:
    """The logged-in signal implied by what appeared with the login: a logout control, a cookie."""
    selectors = [s for s in after["selectors"] if s not in before["selectors"]]
    new_cookies = sorted(after["cookies"] - before["cookies"])
    telling = [c for c in new_cookies if re.search(r"sess|auth|token|login|user|sid", c, re.I)]
    cookie = (telling or new_cookies or [None])[0]
    return LoggedInSignal(selector=selectors[0] if selectors else None, cookie=cookie)


def reason_kind(reason: str) -> str:
    """The kind of evidence behind a lost-session reason, as the summary counts it.

    Reasons carry the URL or text that gave the session away; the summary groups them by kind
    ("redirect to login", "login form", "logged-out text", or the HTTP status).
    """
    if reason.startswith("HTTP "):
        return " ".join(reason.split(" ")[:2])
    for prefix, kind in (
        ("redirected to the login page", "redirect to login"),
        ("a login form", "login form"),
        ("the page says", "logged-out text"),
        ("a sign-in control", "sign-in control"),
        (MISSING_SIGNAL, "logged-in signal missing"),
        (GONE_AFTER_UNSIGNED, "gone after an unsigned page"),
        ("a sub-request", "sub-request refused"),
    ):
        if reason.startswith(prefix):
            return kind
    return reason
