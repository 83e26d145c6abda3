"""What a query's result page holds: its records, its next page, its terms, whether it is valid.

A result page is *valid* (the paper's measure) when it is not an error and shows at least one
record. Its records are found without knowing the site: the links that were not on the empty
result page (the probe query's, i.e. the template with no results) nor on the page the form was
found on, that do not point back at the search itself, grouped by URL shape; the shape with the
most distinct links is the result list (a list of threads beats the authors' profile links next
to them). JSON results (a search box's endpoint) are read the same way: URL-valued fields grouped
by key, their prose fields (several words: titles, snippets) giving the terms. The next page is a
``rel=next`` link or a "next" word on the same path as the search, or in JSON a ``next...`` field.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from browsercrawl.forms.lexicon import Lexicon
from browsercrawl.forms.text import K_NEAR_CONTROL, tokens

_DIGITS = re.compile(r"\d")
_NEXT_KEY = re.compile(r"^next[_-]?(page|offset|cursor|start|url|link|href|token)?$|^next$", re.I)
_URL_KEYS = ("url", "href", "link", "permalink", "path")
K_RECORD = K_NEAR_CONTROL  # a record's title weighs like text next to a form's control


@dataclass
class ResultPage:
    records: list[str] = field(default_factory=list)
    next_url: str | None = None
    terms: Counter[str] = field(default_factory=Counter)
    valid: bool = False


def url_shape(url: str) -> str:
    """The shape a list's item links share: the path but its last segment generalised."""
    parts = urlsplit(url)
    segs = [s for s in parts.path.split("/") if s]
    head = ["#" if _DIGITS.search(s) else s for s in segs[:-1]]
    last = ("#" if _DIGITS.search(segs[-1]) else "*") if segs else ""
    params = ",".join(sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)}))
    return f"{parts.netloc}/{'/'.join([*head, last])}?{params}"


def _same_search(url: str, action: str, result_url: str) -> bool:
    """Does ``url`` point at the search itself (another page or order of the results)?"""
    path = urlsplit(url).path
    return path in (urlsplit(action).path, urlsplit(result_url).path)


def pick_records(candidates: list[tuple[str, str]]) -> list[str]:
    """The links (URL, anchor text) of the most populated URL shape; ties go to longer texts."""
    groups: dict[str, dict[str, str]] = {}
    for url, text in candidates:
        groups.setdefault(url_shape(url), {}).setdefault(url, text)
    if not groups:
        return []

    def rank(item: tuple[str, dict[str, str]]) -> tuple[int, float]:
        urls = item[1]
        return len(urls), sum(len(t) for t in urls.values()) / len(urls)

    _, best = max(groups.items(), key=rank)
    return list(best)


def html_result(
    links: list[tuple[str, str, str]], status: int, result_url: str, action: str, template: set[str],
    terms: Counter[str], lex: Lexicon, min_length: int = 3,
) -> ResultPage:
    """Read a rendered (or served) result page; ``template`` = links of the empty result and form page.

    ``terms`` are the page's weighted terms without link text; the records' own link texts (their
    titles) are added at the weight of text next to a result, while other links' texts (authors,
    categories, the site's menus) stay out of the next round's candidates.
    """
    page = ResultPage(terms=Counter(terms))
    if status >= 400:
        return page
    candidates = [(u, t) for u, t, _ in links
                  if u not in template and u != result_url and not _same_search(u, action, result_url)]
    page.records = pick_records(candidates)
    texts = {u: t for u, t in candidates}
    for u in page.records:
        for tok in tokens(texts.get(u, ""), lex, min_length):
            page.terms[tok] += K_RECORD
    page.valid = bool(page.records)
    page.next_url = _next_link(links, result_url, action, lex)
    return page


def _next_link(links: list[tuple[str, str, str]], result_url: str, action: str, lex: Lexicon) -> str | None:
    same = [(u, t, r) for u, t, r in links if u != result_url and _same_search(u, action, result_url)]
    for u, _, rel in same:
        if "next" in rel.split():
            return u
    for u, text, _ in same:
        low = text.strip().lower()
        if low and len(low) <= 24 and lex.words("next", low) and not lex.words("search", low):
            return u
    # Plain numbered paging: the link that raises a numeric parameter by one.
    current = dict(parse_qsl(urlsplit(result_url).query, keep_blank_values=True))
    for u, _, _ in same:
        q = dict(parse_qsl(urlsplit(u).query, keep_blank_values=True))
        diff = [k for k in set(q) | set(current) if q.get(k) != current.get(k)]
        if len(diff) == 1 and q.get(diff[0], "").isdigit():
            now = current.get(diff[0], "1" if diff[0] in ("page", "p", "pg") else "0")
            if now.isdigit() and int(q[diff[0]]) == int(now) + 1:
                return u
    return None


def _walk(value: Any, key: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_walk(v, str(k)))
            if not isinstance(v, (dict, list)):
                out.append((str(k), v))
    elif isinstance(value, list):
        for v in value:
            out.extend(_walk(v, key))
            if not isinstance(v, (dict, list)):
                out.append((key, v))
    return out


def _set_param(url: str, name: str, value: Any) -> str:
    parts = urlsplit(url)
    q = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != name]
    q.append((name, str(value)))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(q), ""))


def json_result(text: str, status: int, result_url: str, template: set[str], lex: Lexicon,
                min_length: int = 3) -> ResultPage:
    """Read a JSON result (what a search box's script fetches)."""
    page = ResultPage()
    if status >= 400:
        return page
    try:
        data = json.loads(text)
    except ValueError:
        return page
    pairs = _walk(data)
    by_key: dict[str, dict[str, str]] = {}
    for k, v in pairs:
        if isinstance(v, str) and (v.startswith("/") or v.startswith(("http://", "https://"))) \
                and not v.startswith("//") and " " not in v:
            url = urljoin(result_url, v)
            if url not in template and url != result_url:
                by_key.setdefault(k, {})[url] = k
        elif isinstance(v, str) and len(v.split()) > 1:
            # Prose (titles, snippets) makes queries; one-word values are names, tags, ids.
            page.terms.update(tokens(v, lex, min_length))
    if by_key:
        def rank(item: tuple[str, dict[str, str]]) -> tuple[int, int]:
            return len(item[1]), int(item[0].lower() in _URL_KEYS)

        page.records = list(max(by_key.items(), key=rank)[1])
    page.valid = bool(page.records)
    if isinstance(data, dict):
        page.next_url = _json_next(data, result_url)
    return page


def _json_next(data: dict[str, Any], result_url: str) -> str | None:
    for k, v in data.items():
        m = _NEXT_KEY.match(k)
        if not m or v is None or v is False or v == "":
            continue
        if isinstance(v, str) and (v.startswith(("/", "http://", "https://", "?"))):
            return urljoin(result_url, v)
        if isinstance(v, (int, str)):
            what = (m.group(1) or "page").lower()
            param = {"url": "page", "link": "page", "href": "page", "token": "cursor"}.get(what, what)
            return _set_param(result_url, param, v)
    return None
