"""Forms, form-less search boxes, terms and links of one page, read from its (rendered) DOM.

The browser path's snapshot is the rendered DOM serialised, and the HTTP path's HTML is what the
server sent; both are read here the same way (lxml, in a worker thread), so a page yields the same
forms whichever path fetched it. A form-less box (an input that a script sends, often in the page
header) becomes a :class:`FormInfo` too, with ``method = "script"``: what it requests is learned
in the browser (:mod:`browsercrawl.forms.browser`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit, urlunsplit

from lxml import etree
from lxml import html as lxml_html

from browsercrawl.forms.lexicon import Lexicon
from browsercrawl.forms.text import K_NEAR_CONTROL, K_OPTION, tokens, weighted_terms

TEXTLIKE = frozenset({"text", "search", ""})
_DATE = frozenset({"date", "datetime-local", "month", "week", "time"})
_KNOWN = frozenset({"text", "search", "email", "tel", "url", "number", "password", "file", "checkbox",
                    "radio", "hidden", "submit", "image", "button", "reset", "range", "color",
                    *_DATE})
_HEADER_IDENT = re.compile(r"header|navbar|masthead|topbar|top-bar|site-nav|banner")
_CSS_IDENT = re.compile(r"^[A-Za-z_][\w-]*$")
_EMAILISH = re.compile(r"e-?mail")
_WS = re.compile(r"\s+")


def _norm(text: str | None) -> str:
    return _WS.sub(" ", text or "").strip()


def _low(*parts: str | None) -> str:
    return " ".join(_norm(p).lower() for p in parts if p)


@dataclass(frozen=True)
class Control:
    """One control of a form as the classifier and the query builder see it."""

    tag: str  # input | select | textarea | button
    kind: str  # text, email, password, file, checkbox, radio, hidden, submit, button, select...
    type: str  # the type attribute as written (lower-cased; "" when absent)
    name: str
    value: str
    hints: str  # lower-cased words a person sees for it: label, placeholder, aria-label, title, text
    ident: str  # lower-cased name, id, class and autocomplete, for stems
    autocomplete: str = ""
    checked: bool = False
    options: tuple[tuple[str, str], ...] = ()  # (value, text) of a select
    selected: str | None = None
    selectors: tuple[str, ...] = ()  # CSS selectors that find it in the live page, best first

    @property
    def free_text(self) -> bool:
        """A field a person types words into (the kind a query goes in)."""
        return self.kind == "text"


@dataclass(frozen=True)
class FormInfo:
    """A form (or a form-less box) of a page: where it sends, what it holds, what surrounds it."""

    page_url: str
    action: str  # absolute URL; for a form-less box, the page's URL until a probe learns more
    method: str  # get | post | script
    controls: tuple[Control, ...]
    text: str  # lower-cased visible words of the form and the heading before it
    ident: str  # lower-cased id, class, name and action path of the form
    in_header: bool = False
    role_search: bool = False
    index: int = 0  # among the page's forms (boxes: among its form-less boxes)
    selectors: tuple[str, ...] = ()
    enctype: str = ""

    @property
    def formless(self) -> bool:
        return self.method == "script"

    def count(self, *kinds: str) -> int:
        return sum(1 for c in self.controls if c.kind in kinds)


@dataclass
class PageScan:
    """Everything the search-forms part reads from one page."""

    forms: list[FormInfo] = field(default_factory=list)
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (absolute URL, text, rel)
    terms: Counter[str] = field(default_factory=Counter)  # page text without links (form pages)
    form_terms: dict[int, Counter[str]] = field(default_factory=dict)  # by index in ``forms``


def _control_kind(el) -> str:
    tag = el.tag
    if tag == "select":
        return "select"
    if tag == "textarea":
        return "textarea"
    if tag == "button":
        t = (el.get("type") or "submit").strip().lower()
        return {"submit": "submit", "reset": "reset"}.get(t, "button")
    t = (el.get("type") or "").strip().lower()
    if t not in _KNOWN:
        t = ""  # browsers treat an unknown type as text
    if t in TEXTLIKE:
        if el.get("readonly") is not None:
            return "other"  # shown for copying (a share link), never typed into
        ident = _low(el.get("name"), el.get("id"), el.get("autocomplete"), el.get("placeholder"))
        return "email" if _EMAILISH.search(ident) else "text"
    if t in _DATE:
        return "date"
    if t == "image":
        return "submit"
    if t in ("range", "color"):
        return "other"
    return t


def _hidden(el, stop) -> bool:
    """Hidden by markup (type, the hidden attribute, inline style) up to ``stop``."""
    node = el
    while node is not None:
        if node.get("hidden") is not None or node.get("aria-hidden") == "true":
            return True
        style = (node.get("style") or "").replace(" ", "").lower()
        if "display:none" in style or "visibility:hidden" in style:
            return True
        if node is stop:
            break
        node = node.getparent()
    return False


def _selectors(el, tag: str) -> tuple[str, ...]:
    out = []
    el_id = el.get("id")
    if el_id and _CSS_IDENT.match(el_id):
        out.append(f"{tag}#{el_id}")
    name = el.get("name")
    if name:
        out.append(f'{tag}[name="{name}"]')
    ph = el.get("placeholder")
    if ph and '"' not in ph:
        out.append(f'{tag}[placeholder="{ph}"]')
    aria = el.get("aria-label")
    if aria and '"' not in aria:
        out.append(f'{tag}[aria-label="{aria}"]')
    return tuple(out)


class _Labels:
    def __init__(self, doc) -> None:
        self.by_id: dict[str, str] = {}
        for lab in doc.iter("label"):
            target = lab.get("for")
            if target:
                self.by_id[target] = _norm(lab.text_content())

    def of(self, el) -> str:
        parts = []
        el_id = el.get("id")
        if el_id and el_id in self.by_id:
            parts.append(self.by_id[el_id])
        anc = el.getparent()
        while anc is not None and anc.tag != "form":
            if anc.tag == "label":
                parts.append(_norm(anc.text_content()))
                break
            anc = anc.getparent()
        return " ".join(parts)


def _control(el, labels: _Labels, stop) -> Control | None:
    kind = _control_kind(el)
    if el.get("disabled") is not None:
        return None
    if kind not in ("hidden",) and _hidden(el, stop):
        kind = "hidden" if el.tag == "input" else kind
    options: tuple[tuple[str, str], ...] = ()
    selected = None
    if el.tag == "select":
        opts = []
        for o in el.iter("option"):
            text = _norm(o.text_content())
            value = o.get("value", text)
            opts.append((value, text))
            if o.get("selected") is not None and selected is None:
                selected = value
        options = tuple(opts)
        if selected is None and options:
            selected = options[0][0]
    text = _norm(el.text_content()) if el.tag in ("button",) else ""
    value = el.get("value") or ("" if el.tag != "textarea" else _norm(el.text_content()))
    hints = _low(labels.of(el), el.get("placeholder"), el.get("aria-label"), el.get("title"), text,
                 value if kind in ("submit", "button", "reset") else "")
    ident = _low(el.get("name"), el.get("id"), el.get("class"), el.get("autocomplete"))
    tag = el.tag
    return Control(tag=tag, kind=kind, type=(el.get("type") or "").strip().lower(),
                   name=el.get("name") or "", value=value, hints=hints,
                   ident=ident, autocomplete=(el.get("autocomplete") or "").lower(),
                   checked=el.get("checked") is not None, options=options, selected=selected,
                   selectors=_selectors(el, tag))


def _in_header(el) -> tuple[bool, bool]:
    """(inside the page header or navigation, inside a role=search landmark)."""
    header = search = False
    node = el
    while node is not None and isinstance(node.tag, str):
        role = (node.get("role") or "").lower()
        if node.tag in ("header", "nav") or role in ("banner", "navigation"):
            header = True
        if role == "search" or node.tag == "search":
            search = True
        ident = _low(node.get("id"), node.get("class"))
        if ident and _HEADER_IDENT.search(ident):
            header = True
        node = node.getparent()
    return header, search


def _heading_before(el) -> str:
    """The nearest heading or legend just before (or at the top of) a form: what it says it is."""
    for node in (el, el.getparent()):
        if node is None:
            continue
        prev = node.getprevious()
        hops = 0
        while prev is not None and hops < 3:
            if isinstance(prev.tag, str) and (prev.tag in ("h1", "h2", "h3", "h4", "h5", "h6", "legend")
                                              or prev.tag == "label"):
                return _norm(prev.text_content())
            prev = prev.getprevious()
            hops += 1
    return ""


def _form_text(el) -> str:
    parts = []
    for node in el.iter():
        if not isinstance(node.tag, str) or node.tag in ("script", "style", "option", "select", "textarea"):
            continue
        if node.text and node.tag not in ("script", "style"):
            parts.append(node.text)
        if node is not el and node.tail:
            parts.append(node.tail)
    return " ".join(parts)


def _strip_fragment(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


def _form_terms(info: FormInfo, raw_text: str, lex: Lexicon, min_length: int) -> Counter[str]:
    """The form's own terms (Fc): words next to a control weigh more, a select's options less."""
    counts: Counter[str] = Counter()
    for tok in tokens(raw_text, lex, min_length):
        counts[tok] += 1.0
    for c in info.controls:
        if c.kind == "hidden":
            continue
        for tok in tokens(c.hints, lex, min_length):
            counts[tok] += K_NEAR_CONTROL
        for _, text in c.options:
            for tok in tokens(text, lex, min_length):
                counts[tok] += K_OPTION
    return counts


def scan_page(html: str, url: str, lex: Lexicon, min_length: int = 3, *, terms: bool = True) -> PageScan:
    """Read the forms, form-less search boxes, links and (``terms``) weighted terms of a page."""
    scan = PageScan()
    if not html or not html.strip():
        return scan
    try:
        doc = lxml_html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return scan
    base = url
    base_el = doc.find(".//base[@href]")
    if base_el is not None:
        base = urljoin(url, base_el.get("href", ""))
    labels = _Labels(doc)
    page_url = _strip_fragment(url)

    owners: dict[str, list] = {}
    for el in doc.iter("input", "select", "textarea", "button"):
        owner = el.get("form")
        if owner:
            owners.setdefault(owner, []).append(el)

    raw_texts: list[str] = []
    for index, form in enumerate(doc.iter("form")):
        action_attr = (form.get("action") or "").strip()
        action = _strip_fragment(urljoin(base, action_attr)) if action_attr else page_url
        method = (form.get("method") or "get").strip().lower()
        if method not in ("get", "post"):
            method = "get" if method != "dialog" else "dialog"
        els = [el for el in form.iter("input", "select", "textarea", "button") if not el.get("form")]
        if form.get("id"):
            els += owners.get(form.get("id"), [])
        controls = tuple(c for c in (_control(el, labels, form) for el in els) if c is not None)
        header, search = _in_header(form)
        raw = _form_text(form)
        text = _low(_heading_before(form), raw, form.get("aria-label"), form.get("title"))
        path = urlsplit(action).path
        ident = _low(form.get("id"), form.get("class"), form.get("name"), form.get("role"),
                     path if action_attr else "")
        sel = _selectors(form, "form") + ((f'form[action="{action_attr}"]',) if action_attr
                                          and '"' not in action_attr else ())
        info = FormInfo(page_url=page_url, action=action, method=method, controls=controls,
                        text=text[:600], ident=ident, in_header=header, role_search=search,
                        index=index, selectors=sel, enctype=(form.get("enctype") or "").lower())
        scan.forms.append(info)
        raw_texts.append(raw)

    boxes = 0
    for el in doc.iter("input"):
        if el.get("form") or _control_kind(el) != "text" or _hidden(el, None):
            continue
        if any(anc.tag == "form" for anc in el.iterancestors()):
            continue
        container = el.getparent()
        for _ in range(3):
            if container is None or container.getparent() is None:
                break
            if any(True for _ in container.iter("button")) or container.tag in ("header", "nav"):
                break
            container = container.getparent()
        if container is None:
            container = el.getparent()
        els = [el, *[b for b in container.iter("button", "input")
                      if b is not el and _control_kind(b) in ("submit", "button")
                      and not any(a.tag == "form" for a in b.iterancestors())][:3]]
        controls = tuple(c for c in (_control(x, labels, None) for x in els) if c is not None)
        header, search = _in_header(el)
        raw = " ".join(b.text_content() for b in els[1:])
        text = _low(_heading_before(container), raw, container.get("aria-label"))
        ident = _low(container.get("id"), container.get("class"), el.get("id"), el.get("class"))
        info = FormInfo(page_url=page_url, action=page_url, method="script", controls=controls,
                        text=text[:600], ident=ident, in_header=header, role_search=search,
                        index=boxes, selectors=_selectors(el, "input"))
        boxes += 1
        scan.forms.append(info)
        raw_texts.append(raw)

    for a in doc.iter("a", "link"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("javascript:", "mailto:", "tel:", "#")):
            continue
        rel = (a.get("rel") or "").lower()
        if a.tag == "link" and "next" not in rel.split():
            continue
        absolute = _strip_fragment(urljoin(base, href))
        if absolute.startswith(("http://", "https://")):
            scan.links.append((absolute, _norm(a.text_content())[:200] if a.tag == "a" else "", rel))

    if terms:
        title_el = doc.find(".//title")
        title = title_el.text_content() if title_el is not None else ""
        body = doc.find("body")
        if body is not None:
            scan.terms = weighted_terms(body, lex, min_length, with_links=False, title=title)
        for i, info in enumerate(scan.forms):
            scan.form_terms[i] = _form_terms(info, raw_texts[i], lex, min_length)
    return scan

