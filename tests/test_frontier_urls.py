"""Canonical URLs: the fast road for URLs already canonical gives what w3lib's road gives."""

from __future__ import annotations

import random

import pytest

from browsercrawl.config import ScopeConfig
from browsercrawl.frontier import urls
from browsercrawl.frontier.scope import Scope
from browsercrawl.frontier.traps import strip_session_ids


def _random_url(rnd: random.Random) -> str:
    hosts = ["a", "x.com", "A", "1", "127.0.0.1", "-", ".", "..", "xn--d1a", "\u00e9", "_", "[::1]"]
    paths = ["/", "a", ".", "..", "~", "_", "-", "%20", "%2f", "A", ";", "?", "#", "=", "&", "//",
             "\u00e9", " ", "x.html", "./", "../", "q", "@"]
    host = "".join(rnd.choice(hosts) for _ in range(rnd.randint(1, 4)))
    port = rnd.choice(["", ":80", ":443", ":0", ":099", ":8080", ":65535", ":65536", ":99999"])
    path = "" if rnd.random() < 0.05 else "/" + "".join(rnd.choice(paths) for _ in range(rnd.randint(0, 6)))
    return f"{rnd.choice(['http', 'https', 'HTTP', 'ftp'])}://{host}{port}{path}"


def test_a_url_taken_as_canonical_is_what_w3lib_makes_of_it() -> None:
    rnd = random.Random(7)
    fast = 0
    for _ in range(100_000):
        url = _random_url(rnd)
        if not urls._already_canonical(url):
            continue
        fast += 1
        assert urls._canonical_by_w3lib(url) == url, url
    assert fast > 800  # the road is taken often enough for the check to mean something


@pytest.mark.parametrize(("url", "canonical"), [
    ("http://h.com/a/b-c_d.e~f", "http://h.com/a/b-c_d.e~f"),
    ("http://h.com:8080/x", "http://h.com:8080/x"),
    ("http://h.com:80/x", "http://h.com/x"),
    ("https://h.com:443/x", "https://h.com/x"),
    ("http://h.com/a/./b/../c", "http://h.com/a/c"),
    ("http://H.com/x", "http://h.com/x"),
    ("http://h.com", "http://h.com/"),
    ("http://h.com:099/x", "http://h.com:99/x"),
    ("http://h.com/x?b=2&a=1#f", "http://h.com/x?a=1&b=2"),
])
def test_canonical_urls(url: str, canonical: str) -> None:
    assert urls.canonical_url(url) == canonical


def test_a_port_out_of_range_is_refused_on_either_road() -> None:
    with pytest.raises(ValueError):
        urls.canonical_url("http://h.com:65536/x")


def test_session_ids_go_and_urls_without_any_stay_as_they_are() -> None:
    assert strip_session_ids("http://h/a;jsessionid=ABC/b") == "http://h/a/b"
    assert strip_session_ids("http://h/a?PHPSESSID=1&x=2") == "http://h/a?x=2"
    plain = "http://h/a/b"
    assert strip_session_ids(plain) is plain


def test_a_scope_verdict_remembered_for_a_url_still_honours_the_depth() -> None:
    scope = Scope(ScopeConfig(allow=[r"/keep/"], deny=[r"/keep/not"], max_depth=2), ["http://h/"])
    for _ in range(2):  # the second time from the remembered verdicts
        assert scope.allows("http://h/keep/1", 1)
        assert not scope.allows("http://h/keep/not", 1)
        assert not scope.allows("http://h/other", 1)
        assert not scope.allows("http://elsewhere/keep/1", 1)
        assert not scope.allows("http://h/keep/1", 3)  # too deep, whatever the URL's verdict


def test_the_remembered_verdicts_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from browsercrawl.frontier import scope as scope_module

    monkeypatch.setattr(scope_module, "_MAX_VERDICTS", 10)
    scope = Scope(ScopeConfig(), ["http://h/"])
    for i in range(35):
        assert scope.allows(f"http://h/{i}", 0)
        assert len(scope._verdicts) <= 10
