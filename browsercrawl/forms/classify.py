"""Is this form a search form? Structure first, words second, and never a guess towards "search".

The source paper drops login, mailing-list and upload forms by their structure: how many check
boxes, radio buttons, file inputs, submit buttons, password fields, text boxes and select options
a form has, and whether its words say "search". We keep that order and make it a safety rule:

1. A structure that only other purposes have decides alone: a file input is an upload, a password
   field a login (two, or a "new-password" field, a registration), a text area a comment (or a
   contact message, when its button or names say so), a form whose only typed field is an e-mail
   address a newsletter sign-up (or an account recovery), a destructive word on its button or in
   its action a delete.
2. What is left is a search form only if it has one to four free-text fields and its cues add up
   to :data:`SEARCH_THRESHOLD` (an input of type search, a role=search landmark, a query-like field
   name, "search" words near a field, on the button, in the form's ids or action...). Words of
   another purpose on its button count against it.
3. Anything else is "other" and, like every kind but search, is never submitted.

The weights and the threshold were set on the tuning fixtures (tests/fixtures/forms/tune) and are
measured on held-out ones (tests/fixtures/forms/heldout); see docs/forms.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from browsercrawl.forms.extract import Control, FormInfo
from browsercrawl.forms.lexicon import QUERY_FIELD_NAMES, Lexicon

SEARCH = "search"
KINDS = ("search", "login", "registration", "newsletter", "comment", "contact", "upload", "delete",
         "other")
SEARCH_THRESHOLD = 3.0
MAX_SEARCH_FIELDS = 4


@dataclass(frozen=True)
class Classification:
    kind: str
    score: float = 0.0
    reasons: tuple[str, ...] = field(default_factory=tuple)

    @property
    def is_search(self) -> bool:
        return self.kind == SEARCH


def features(form: FormInfo) -> dict[str, int]:
    """The paper's structural features (visible controls only), kept with each form's row."""
    visible = [c for c in form.controls if c.kind != "hidden"]
    n = Counter(c.kind for c in visible)
    return {
        "text": n["text"], "email": n["email"], "password": n["password"], "file": n["file"],
        "checkbox": n["checkbox"], "radio": n["radio"], "submit": n["submit"], "select": n["select"],
        "select_options": sum(len(c.options) for c in visible if c.kind == "select"),
        "textarea": n["textarea"], "hidden": len(form.controls) - len(visible),
        "other_typed": n["tel"] + n["url"] + n["number"] + n["date"],
    }


def query_score(c: Control, lex: Lexicon) -> float:
    """How much a free-text field looks like the one a search query is typed into."""
    score = 0.0
    if c.type == "search":
        score += 3
    if c.name.lower() in QUERY_FIELD_NAMES:
        score += 2
    if lex.words("search", c.hints) or lex.stems("search", c.ident):
        score += 2
    return score


def query_field(form: FormInfo, lex: Lexicon) -> Control | None:
    """The free-text field a query goes in (the most search-like; the first on a tie)."""
    free = [c for c in form.controls if c.free_text]
    if not free:
        return None
    return max(free, key=lambda c: (query_score(c, lex), -free.index(c)))


def classify(form: FormInfo, lex: Lexicon) -> Classification:
    """The purpose of ``form`` (see the module docstring for the order of the rules)."""
    visible = [c for c in form.controls if c.kind != "hidden"]
    n = Counter(c.kind for c in visible)
    free = [c for c in visible if c.free_text]
    words = " ".join([form.text, *(c.hints for c in visible)])
    idents = " ".join([form.ident, *(c.ident for c in form.controls)])
    buttons = " ".join(c.hints for c in visible if c.kind in ("submit", "button"))

    def cue(purpose: str) -> bool:
        return lex.words(purpose, words) or lex.stems(purpose, idents)

    if form.method == "dialog":
        return Classification("other", reasons=("method=dialog",))
    if n["file"]:
        return Classification("upload", reasons=("file input",))
    if n["password"]:
        new_password = any("new-password" in c.autocomplete for c in visible)
        # "Register" is often a link next to a login form: only the button or the action decide.
        if n["password"] >= 2 or new_password or lex.words("register", buttons) \
                or lex.stems("register", form.ident):
            return Classification("registration", reasons=(f"{n['password']} password field(s)",))
        return Classification("login", reasons=("password field",))
    if n["textarea"]:
        contact = lex.words("contact", buttons) or (lex.stems("contact", idents) and not cue("comment"))
        if contact or (n["email"] and lex.words("contact", words) and not cue("comment")):
            return Classification("contact", reasons=("text area", "contact words"))
        return Classification("comment", reasons=("text area",))
    destructive = lex.words("delete", buttons) or lex.stems("delete", form.ident) or any(
        lex.stems("delete", c.ident) for c in visible if c.kind in ("submit", "button")
    )
    if destructive and len(free) <= 1:
        return Classification("delete", reasons=("destructive words on the button or action",))
    if n["email"] and len(free) <= 1:
        if lex.words("login", words) and not cue("subscribe"):
            return Classification("login", reasons=("e-mail field", "account words"))
        return Classification("newsletter", reasons=("only an e-mail address is typed",))
    if lex.words("subscribe", buttons) and not free:
        return Classification("newsletter", reasons=("a subscribe button",))
    if not free:
        return Classification("other", reasons=("no free-text field",))
    if len(free) > MAX_SEARCH_FIELDS:
        return Classification("other", reasons=(f"{len(free)} free-text fields",))

    score = 0.0
    reasons: list[str] = []

    def add(points: float, why: str) -> None:
        nonlocal score
        score += points
        reasons.append(f"{why} {points:+g}")

    if any(c.type == "search" for c in free):
        add(3, "input type=search")
    if form.role_search:
        add(3, "role=search")
    if any(c.name.lower() in QUERY_FIELD_NAMES for c in free):
        add(2, "query-like field name")
    if any(lex.words("search", c.hints) for c in free):
        add(2, "search words at the field")
    if lex.words("search", buttons):
        add(2, "search words on the button")
    if lex.stems("search", form.ident) or any(lex.stems("search", c.ident) for c in free):
        add(1.5, "search in ids or action")
    if lex.words("search", form.text):
        add(1, "search words in the form")
    if form.in_header:
        add(1, "in the page header")
    if form.method in ("get", "script"):
        add(0.5, f"method {form.method}")
    for purpose in ("subscribe", "comment", "contact", "login", "register"):
        if lex.words(purpose, buttons):
            add(-3, f"{purpose} words on the button")
    typed = n["email"] + n["tel"] + n["url"]
    if typed:
        add(-2 * typed, "personal-data fields")
    if len(free) > 1:
        add(-0.5 * (len(free) - 1), "several free-text fields")
    kind = "search" if score >= SEARCH_THRESHOLD else "other"
    return Classification(kind, round(score, 2), tuple(reasons))
