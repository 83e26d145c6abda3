"""Score the form classifier on labelled pages: precision and recall of "search", and a confusion table.

A labelled page is an ordinary HTML file whose every ``<form>`` and every form-less text input
carries ``data-truth="<kind>"``. The labels are removed before the page is read, so the classifier
never sees them; the page's ``<html lang>`` picks its language. Used by the tests and by
``scripts/bench_forms.py`` (tuning pages and held-out pages are separate folders).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

from lxml import html as lxml_html

from browsercrawl.config.search_forms import Language
from browsercrawl.errors import UserError
from browsercrawl.forms.classify import SEARCH, classify
from browsercrawl.forms.extract import TEXTLIKE, scan_page
from browsercrawl.forms.lexicon import lexicon

_TRUTH_ATTR = re.compile(r'\sdata-truth="[^"]*"')


@dataclass
class FormScores:
    pages: int = 0
    forms: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    kinds_right: int = 0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    mistakes: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if (self.tp + self.fp) else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if (self.tp + self.fn) else 1.0


def _truth(html: str, name: str) -> tuple[list[str], list[str], str]:
    doc = lxml_html.document_fromstring(html)
    forms = []
    for f in doc.iter("form"):
        label = f.get("data-truth")
        if not label:
            raise UserError(f"{name}: a <form> without data-truth")
        forms.append(label)
    boxes = []
    for el in doc.iter("input"):
        if el.get("form") or any(a.tag == "form" for a in el.iterancestors()):
            continue
        if (el.get("type") or "").lower() not in TEXTLIKE or el.get("readonly") is not None:
            continue
        label = el.get("data-truth")
        if not label:
            raise UserError(f"{name}: a form-less text input without data-truth")
        boxes.append(label)
    lang = (doc.get("lang") or "en").split("-")[0].lower()
    return forms, boxes, lang if lang in get_args(Language) else "en"


def score_folder(folder: Path) -> FormScores:
    """Classify every form of every ``*.html`` page in ``folder`` against its labels."""
    scores = FormScores()
    pages = sorted(folder.glob("*.html"))
    if not pages:
        raise UserError(f"{folder}: no labelled pages (*.html)")
    for path in pages:
        raw = path.read_text(encoding="utf-8")
        forms, boxes, lang = _truth(raw, path.name)
        lex = lexicon([lang])
        scan = scan_page(_TRUTH_ATTR.sub("", raw), f"https://{path.stem}.test/page", lex, terms=False)
        found_forms = [f for f in scan.forms if not f.formless]
        found_boxes = [f for f in scan.forms if f.formless]
        if len(found_forms) != len(forms) or len(found_boxes) != len(boxes):
            raise UserError(f"{path.name}: {len(found_forms)} forms and {len(found_boxes)} boxes read, "
                            f"{len(forms)} and {len(boxes)} labelled")
        scores.pages += 1
        for form, truth in zip(found_forms + found_boxes, forms + boxes, strict=True):
            got = classify(form, lex)
            scores.forms += 1
            scores.confusion[(truth, got.kind)] += 1
            scores.kinds_right += int(truth == got.kind)
            if truth == SEARCH and got.is_search:
                scores.tp += 1
            elif got.is_search:
                scores.fp += 1
            elif truth == SEARCH:
                scores.fn += 1
            if truth != got.kind:
                scores.mistakes.append(f"{path.name}: {truth} read as {got.kind} ({'; '.join(got.reasons)})")
    return scores
