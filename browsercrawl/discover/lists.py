"""Lists of people and of items in the JSON a person's page fetched or embedded.

A *relation list* is an array of objects most of whose entries name a person (a URL of the
person shape, or an id the shape has seen); an *item list* is an array whose entries carry a time.
For a fetched list the request URL becomes a template: the person's id becomes ``{id}`` and the
paging parameter ``{page}``; the answer's ``next``-like key says how paging ends. The kind of a
relation (follows, followed_by, friends) comes from the words of the endpoint or script and the
answer's own ``kind``/``type`` value; a list whose kind the words do not tell is reported, not guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qsl, quote, unquote, urljoin, urlsplit

import lxml.html
from lxml.etree import ParserError

from browsercrawl.discover.observe import JsonSeen
from browsercrawl.discover.people import PersonShape
from browsercrawl.social.extract import parse_time

Kind = Literal["follows", "followed_by", "friends"]
_PAGE_PARAM = re.compile(r"^(page|p|pg|page_?num(ber)?|offset|start|skip|from)$", re.I)
_NEXT_KEY = re.compile(r"next", re.I)
_TEXT_KEY = re.compile(r"^(text|body|content|message|status|title|summary)$", re.I)
_MIN_SHARE = 0.8  # entries of a list that must name a person / carry a time


@dataclass
class FoundList:
    """One list source the job will read, with what was seen of it."""

    role: Literal["relation", "items"]
    source: Literal["json_api", "embedded_json", "dom"]
    list_path: str
    fields: dict[str, str]
    kind: Kind | None = None
    url: str | None = None  # json_api: the URL template
    script: str | None = None  # embedded_json: the script selector
    first_page: int = 1
    next_path: str | None = None
    max_pages: int | None = None  # 1 when no paging parameter was seen
    tab: str | None = None  # dom: the control that shows the list
    entries_css: str | None = None  # dom: one element per entry
    more: str | None = None  # dom: the "more" control
    scroll: str | None = None  # dom: the scrolling container of a list that recycles its rows
    requests: list[str] = field(default_factory=list)  # URLs seen (json_api) or the page URL
    entries: int = 0
    example: str = ""
    people: dict[str, dict[str, str]] = field(default_factory=dict)  # id -> the entry's scalar values
    words: str = ""  # what the kind was decided from
    person_fields: dict[str, str] = field(default_factory=dict)  # fields the URL template uses
    notes: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str | None, str | None, str]:
        return (self.source, self.url, self.script, self.list_path)


def arrays(data: Any, path: str = "", depth: int = 0) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """(dotted path, list) of every array of objects in ``data``, down to four levels of objects."""
    if isinstance(data, list):
        objects = [x for x in data if isinstance(x, dict)]
        if objects and len(objects) >= 0.8 * len(data):
            yield path, objects
        return
    if isinstance(data, dict) and depth < 4:
        for key, value in data.items():
            if isinstance(value, dict | list):
                yield from arrays(value, f"{path}.{key}" if path else str(key), depth + 1)


def scalars(entry: dict[str, Any], prefix: str = "", depth: int = 0) -> dict[str, str]:
    """An entry's string/number values by dotted path (two levels of nesting)."""
    out: dict[str, str] = {}
    for key, value in entry.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            out[name] = str(value)
        elif isinstance(value, dict) and depth < 2:
            out.update(scalars(value, name, depth + 1))
    return out


def person_urls(doc: JsonSeen) -> Iterator[str]:
    """Every URL-looking string value of the entries of ``doc``'s arrays, resolved."""
    for _, entries in arrays(doc.data):
        for entry in entries:
            for value in scalars(entry).values():
                if value.startswith(("/", "http://", "https://")) and " " not in value \
                        and not value.startswith("//"):
                    yield urljoin(doc.url, value)


def kind_of(words: str) -> Kind | None:
    """follows / followed_by / friends from the words around a list, or None if they do not say."""
    w = words.lower().replace("_", " ").replace("-", " ")
    if re.search(r"follower|followed by|fans|subscribers|watchers", w):
        return "followed_by"
    if re.search(r"following|follows|followees|followed\b|subscriptions|watching", w):
        return "follows"
    if re.search(r"friend|connection|contacts|mutual", w):
        return "friends"
    return None


def _person_key(entries: list[dict[str, Any]], base: str, shape: PersonShape,
                known_ids: set[str], person_id: str) -> tuple[str, str] | None:
    """("url" or "id", the dotted key) naming other people in most entries, or None.

    A list whose entries all name the page's own person (their posts, say) is no relation list.
    """
    flat = [scalars(e) for e in entries]
    keys = sorted({k for f in flat for k in f}, key=lambda k: (k.count("."), k != "url", len(k), k))
    for key in keys:
        ids = [shape.id_of(urljoin(base, f[key])) for f in flat if key in f]
        hits = sum(1 for i in ids if i is not None)
        if hits and hits >= _MIN_SHARE * len(flat) and ids.count(person_id) < 0.5 * hits:
            return "url", key
    for key in keys:
        if not re.search(r"(^|\.)(id|name|username|user_?name|handle|slug|login)$", key, re.I):
            continue
        hits = sum(1 for f in flat if f.get(key) in known_ids)
        if hits and hits >= 0.5 * len(flat):
            return "id", key
    return None


def _time_list(entries: list[dict[str, Any]]) -> dict[str, str] | None:
    """fields {id, time, text} of an item list, or None if its entries carry no time."""
    flat = [scalars(e) for e in entries]
    keys = sorted({k for f in flat for k in f}, key=lambda k: (k.count("."), len(k), k))

    def share(key: str, test: Any) -> float:
        return sum(1 for f in flat if key in f and test(f[key])) / len(flat)

    def is_time(v: str) -> bool:
        return bool(re.match(r"\d{4}-\d\d-\d\d", v)) and parse_time(v) is not None

    time_key = next((k for k in keys if share(k, is_time) >= _MIN_SHARE), None)
    if time_key is None:
        return None
    fields = {"time": time_key}
    ids = [f.get("id") for f in flat]
    if all(ids) and len(set(ids)) == len(ids):
        fields["id"] = "id"
    text_key = next((k for k in keys if _TEXT_KEY.match(k.rsplit(".", 1)[-1])), None)
    if text_key is None:
        lengths = {k: sum(len(f.get(k, "")) for f in flat) for k in keys if k not in fields.values()}
        text_key = max(lengths, key=lengths.__getitem__) if lengths else None
    if text_key:
        fields["text"] = text_key
    return fields


# A value of the person's page that may key their endpoints: value -> (field name, where).
PersonValues = dict[str, tuple[str, str]]


def person_values(scripts: list[JsonSeen], html: str) -> PersonValues:
    """Id-like values the person's page holds (with a digit: primary keys, uuids), by where they
    are: a dotted path in JSON the page embeds (``script#data@json:user.pk``) or a telling
    attribute (``section[data-member-id]@data-member-id``). Endpoints keyed by them get a field."""
    out: PersonValues = {}

    def name_for(raw: str) -> str:
        name = re.sub(r"[^a-z0-9]+", "_", raw.lower()).strip("_")
        return f"person_{name}" if name in ("id", "name", "page") else name

    def walk(data: Any, path: str, selector: str, depth: int) -> None:
        if isinstance(data, dict) and depth < 4:
            for key, value in data.items():
                walk(value, f"{path}.{key}" if path else str(key), selector, depth + 1)
        elif isinstance(data, str | int) and not isinstance(data, bool):
            text = str(data)
            if re.search(r"\d", text) and len(text) <= 40 and " " not in text:
                out.setdefault(text, (name_for(path), f"{selector}@json:{path}"))

    for doc in scripts:
        if doc.selector:
            walk(doc.data, "", doc.selector, 0)
    try:
        root = lxml.html.fromstring(html)
    except (ParserError, ValueError):
        return out
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attr, value in el.attrib.items():
            if not (attr.startswith("data-") or attr in ("value", "content")) or not re.search(r"\d", value):
                continue
            if len(root.xpath(f"//{el.tag}[@{attr}]")) == 1:
                out.setdefault(value, (name_for(attr.removeprefix("data-")), f"{el.tag}[{attr}]@{attr}"))
    return out


def endpoint_template(url: str, person_id: str, values: PersonValues | None = None
                      ) -> tuple[str | None, str | None, int | None, dict[str, str]]:
    """(template with {id} or a person field and {page}, paging parameter, its value, the person
    fields the template uses) for a request URL; no template (None) when the URL does not name
    the person."""
    values = values or {}
    used: dict[str, str] = {}
    parts = urlsplit(url)
    named = False
    segments = []
    for seg in parts.path.split("/"):
        if seg and unquote(seg) == person_id:
            segments.append("{id}")
            named = True
        elif seg and unquote(seg) in values:
            name, where = values[unquote(seg)]
            segments.append("{" + name + "}")
            used[name] = where
            named = True
        else:
            segments.append(seg)
    query = parse_qsl(parts.query, keep_blank_values=True)
    ints = [(k, v) for k, v in query if re.fullmatch(r"\d{1,6}", v)]
    page = next(((k, v) for k, v in ints if _PAGE_PARAM.match(k)), ints[0] if len(ints) == 1 else None)
    out_query = []
    for k, v in query:
        if v == person_id:
            out_query.append(f"{k}={{id}}")
            named = True
        elif v in values and (page is None or k != page[0]):
            name, where = values[v]
            out_query.append(f"{k}={{{name}}}")
            used[name] = where
            named = True
        elif page is not None and k == page[0]:
            out_query.append(f"{k}={{page}}")
        else:
            out_query.append(f"{quote(k)}={quote(v)}")
    if not named:
        return None, None, None, {}
    text = "/".join(segments) + ("?" + "&".join(out_query) if out_query else "")
    return text, (page[0] if page else None), (int(page[1]) if page else None), used


def _next_key(data: Any) -> str | None:
    """The key of an answer saying where the next page is (``next``, ``next_page``, ``meta.next``)."""
    if not isinstance(data, dict):
        return None
    for key, value in data.items():
        if _NEXT_KEY.search(key) and (value is None or isinstance(value, str | int)) \
                and not isinstance(value, bool):
            return key
    for key, value in data.items():
        if isinstance(value, dict):
            inner = _next_key(value)
            if inner and isinstance(value.get(inner), str | int | type(None)):
                return f"{key}.{inner}"
    return None


def find_lists(responses: list[JsonSeen], scripts: list[JsonSeen], person_id: str,
               shape: PersonShape, known_ids: set[str], values: PersonValues | None = None,
               ) -> tuple[list[FoundList], list[str]]:
    """The person's relation and item lists among what the page fetched and embedded.

    Returns the lists (one per endpoint template / script and list path, requests merged) and
    notes on JSON lists that were left out and why.
    """
    found: dict[tuple, FoundList] = {}
    notes: list[str] = []
    pages: dict[tuple, set[int]] = {}
    for doc in [*responses, *scripts]:
        embedded = doc.selector is not None
        for path, entries in arrays(doc.data):
            person = _person_key(entries, doc.url, shape, known_ids, person_id)
            times = None if person else _time_list(entries)
            if person is None and times is None:
                continue
            used: dict[str, str] = {}
            if embedded:
                template, param, value = None, None, None
            else:
                template, param, value, used = endpoint_template(doc.url, person_id, values)
                if template is None:
                    notes.append(f"{doc.url}: a list of {'people' if person else 'items'} at "
                                 f"{path or '(root)'}, but the URL does not name the person; left out")
                    continue
            if person is not None:
                name, key = person
                lst = FoundList("relation", "embedded_json" if embedded else "json_api", path,
                                {name: key})
            else:
                assert times is not None
                lst = FoundList("items", "embedded_json" if embedded else "json_api", path, times)
            lst.url, lst.script = template, doc.selector
            lst = found.setdefault(lst.key, lst)
            lst.person_fields.update(used)
            lst.requests.append(doc.url)
            lst.entries += len(entries)
            if not lst.example:
                flat = scalars(entries[0])
                order = ("url", "id") if lst.role == "relation" else ("text", "id", "time")
                shown = next((lst.fields[k] for k in order if k in lst.fields), "")
                lst.example = flat.get(shown, "")[:80]
            if lst.role == "relation":
                key = lst.fields.get("url") or lst.fields["id"]
                for entry in entries:
                    flat = scalars(entry)
                    raw = flat.get(key)
                    pid = shape.id_of(urljoin(doc.url, raw)) if raw and "url" in lst.fields else raw
                    if pid:
                        lst.people.setdefault(pid, flat)
            if not embedded:
                lst.next_path = lst.next_path or _next_key(doc.data)
                if param is None:
                    lst.max_pages = 1
                elif value is not None:
                    pages.setdefault(lst.key, set()).add(value)
            top = doc.data if isinstance(doc.data, dict) else {}
            label = " ".join(str(top.get(k, "")) for k in ("kind", "type", "relation", "list"))
            lst.words = " ".join([lst.url or lst.script or "", path, label]).strip()
    for key, values in pages.items():
        found[key].first_page = min(values)
    out = list(found.values())
    for lst in out:
        if lst.role == "relation":
            lst.kind = kind_of(lst.words)
        if lst.source == "json_api" and lst.max_pages == 1:
            lst.notes.append("no paging parameter in the URL: only the first answer is read")
    return out, notes
