"""Is this page logged in? Signals checked after a login and after every navigation of a crawl.

Two different questions. *Logged out* is asked of every page, so it must be cheap and must not
fire on ordinary pages: a redirect to the login URL, a visible password field, a configured text,
a configured status (401 by default; 403 is opt-in because sites also use it for "forbidden").
*Logged in* is asked after a login (to verify it) and by ``login check``: a selector, a URL, a
cookie - configured, or learned by the recorder from what differed before and after the login.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from browsercrawl.config.session import LoggedInSignal, LoggedOutSignal
from browsercrawl.session.state import cookie_is_live

if TYPE_CHECKING:
    from playwright.async_api import Page, Response

    from browsercrawl.engine.result import FetchResult

# One round trip: is a password field visible, and which configured text (if any) is on the page.
_PAGE_CHECK_JS = """(texts) => {
  const vis = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const form = [...document.querySelectorAll('input[type=password]')].some(vis);
  const body = document.body ? document.body.innerText.toLowerCase() : '';
  const text = texts.find(t => body.includes(t)) || null;
  return {form, text};
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


@dataclass
class Detector:
    """Decides whether a fetched page shows the site to a logged-out visitor."""

    logged_out: LoggedOutSignal
    login_url: str | None = None

    def __post_init__(self) -> None:
        pattern = self.logged_out.url_regex
        if pattern is None and self.login_url:
            parts = urlsplit(self.login_url)
            pattern = r"^https?://[^/]+" + re.escape(parts.path or "/") + r"(?:[?#]|$)"
        self._url_re = re.compile(pattern) if pattern else None
        self._texts = [t.lower() for t in self.logged_out.texts]

    def url_is_login(self, url: str) -> bool:
        return bool(self._url_re and self._url_re.search(url))

    async def lost_reason(self, page: Page, response: Response | None) -> str | None:
        """Why ``page`` looks logged out, or None if it looks fine."""
        status = response.status if response is not None else 0
        if status in self.logged_out.statuses:
            return f"HTTP {status}"
        if self.url_is_login(page.url):
            return f"redirected to the login page {page.url}"
        if not (self.logged_out.login_form or self._texts):
            return None
        try:
            found = await page.evaluate(_PAGE_CHECK_JS, self._texts)
        except Exception:  # navigated away mid-check: the next page gets checked instead
            return None
        if self.logged_out.login_form and found["form"]:
            return "a login form is in the page"
        if found["text"]:
            return f"the page says {found['text']!r}"
        return None

    def lost_reason_http(self, result: FetchResult, *, form_in_html: bool = True) -> str | None:
        """The same decision from a fetched result alone (no live page to ask).

        Used for pages fetched over plain HTTP, and on every browser snapshot: a page's own script
        can leave for the login page after the navigation looked fine (a session that ends while
        "load more" runs). ``form_in_html`` is off for snapshots, whose visible login form was
        already checked live (a hidden password input in the HTML must not count).
        """
        if result.status in self.logged_out.statuses:
            return f"HTTP {result.status}"
        if self.url_is_login(result.final_url):
            return f"redirected to the login page {result.final_url}"
        html = result.html or ""
        if form_in_html and self.logged_out.login_form and _PASSWORD_INPUT_RE.search(html):
            return "a login form is in the page"
        body = (result.text or html).lower()
        for t in self._texts:
            if t in body:
                return f"the page says {t!r}"
        return None


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
    ):
        if reason.startswith(prefix):
            return kind
    return reason
