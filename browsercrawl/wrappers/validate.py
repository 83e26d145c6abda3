"""Checking a learned rule on the pages of the cluster the samples did not show.

Two samples cannot tell a right path from one that only works on them. The other pages of the
cluster (fetched by the pre-crawl, values unknown) can: a rule that finds nothing on most of them,
the same value on all of them (when the samples' values differ), or values of the wrong *kind*
(the samples were dates, ISBNs, prices, names...) is wrong, and the learner tries the next one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from browsercrawl.wrappers.dom import Page
from browsercrawl.wrappers.model import FieldRule, Value
from browsercrawl.wrappers.paths import text_label

# Month names, whole or cut to an abbreviation of three letters or more (``Sept.``, ``janv.``),
# in the languages of Europe's larger book markets and a few beyond (a shop's dates are in its
# own language; Slavic ones in the genitive a date uses, "5 marca 2020"). A word that only
# starts like one ("Marseille") is not a month.
_MONTH_NAMES = {
    "en": "january february march april may june july august september october november december",
    "de": "januar februar märz maerz mai juni juli oktober dezember",
    "fr": "janvier février fevrier mars avril juin juillet août aout septembre octobre novembre décembre",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre"
    " diciembre",
    "it": "gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre",
    "pt": "janeiro fevereiro março maio junho julho setembro outubro novembro dezembro",
    "nl": "januari februari maart mei augustus",
    "sv": "augusti",  # the Nordic others are spelled as in German, Dutch or French above
    "da": "marts",
    "pl": "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października"
    " listopada grudnia",
    "cs": "ledna února března dubna května června července srpna září října listopadu prosince",
    "hu": "január február március április május június július augusztus szeptember október",
    "tr": "ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık",
    "id": "januari februari maret april mei juni juli agustus september oktober november desember",
    "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
}


def _month_pattern(languages: dict[str, str]) -> str:
    forms = {n[:k] for names in languages.values() for n in names.split() for k in range(3, len(n) + 1)}
    return "(?:" + "|".join(sorted(map(re.escape, forms), key=len, reverse=True)) + r")\.?"


_MONTH = _month_pattern(_MONTH_NAMES)
_DAY = r"\d{1,2}(?:st|nd|rd|th|er|\.)?"
_DATE = re.compile(
    r"^(?:\d{4}-\d{1,2}-\d{1,2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|\d{4}[./]\d{1,2}[./]\d{1,2}"
    r"|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}"
    rf"|{_DAY} (?:de )?{_MONTH},? (?:de )?\d{{4}}"
    rf"|\d{{1,2}}[- ]{_MONTH}[- ]\d{{2,4}}"
    rf"|{_MONTH} {_DAY},? \d{{4}}"
    rf"|{_MONTH}[ -](?:de )?\d{{4}}"
    rf"|\d{{4}}\. {_MONTH} {_DAY}"  # Hungarian: "2020. március 5."
    r"|\d{4} ?年 ?\d{1,2} ?月(?: ?\d{1,2} ?日)?"
    r"|\d{4}년 ?\d{1,2}월(?: ?\d{1,2}일)?"
    r"|\d{4}\. ?\d{1,2}\. ?\d{1,2}\.?)$",
    re.I,
)
# Currency symbols and codes a price may carry before or after the amount.
_CURRENCY = (
    # A dollar with its country's letters ("US$", "CA$", "NT$", eBay's "US $").
    r"(?:(?:[A-Z]{1,3} ?)?\$|[€£¥₹₽₩₺₪₫₱₦฿₴円元원]|EUR|USD|GBP|CHF|JPY|CAD|AUD|NZD|SEK"
    r"|NOK|DKK|PLN|CZK|HUF|BRL|INR|CNY|RMB|RUB|TRY|ZAR|MXN|IDR|VND|ARS|CLP|COP|PEN|MYR|SGD|THB|PHP"
    r"|UAH|RON|BGN|kr\.?|Kr\.?|zł|Kč|Fr\.|Rs\.?|Rp|RM|Ft|TL|lei|руб\.?|грн|лв\.?|R(?=\s?\d))"
)
_PRICE = re.compile(
    rf"^(?:{_CURRENCY}\s?)?\d{{1,3}}(?:[ ,.'\u202f]?\d{{3}})*(?:[.,](?:\d{{1,2}}|-|–))?(?:\s?{_CURRENCY})?$"
)
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")
_CODE = re.compile(r"^(?=.*\d)[A-Za-z0-9][A-Za-z0-9_./-]*$")
_NAME_WORD = re.compile(r"^(?:[A-ZÀ-Þ][\w'’.-]*|&|of|and|the|de|van|von|la|le|du|der|da|y)$")


def _isbn(v: str) -> bool:
    d = re.sub(r"[\s-]", "", v)
    if re.fullmatch(r"\d{13}", d):
        return sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d)) % 10 == 0
    if re.fullmatch(r"\d{9}[\dXx]", d):
        total = sum((10 - i) * (10 if c in "Xx" else int(c)) for i, c in enumerate(d))
        return total % 11 == 0
    return False


def _price(v: str) -> bool:
    return bool(_PRICE.match(v)) and (bool(re.search(_CURRENCY, v)) or bool(re.search(r"[.,]\d{2}$", v)))


def _name(v: str) -> bool:
    """Capitalised words (a person, a publisher, a title-case title), six at most."""
    words = v.split()
    return 1 <= len(words) <= 6 and words[0][:1].isupper() and all(_NAME_WORD.match(w) for w in words)


KINDS = {
    "isbn": _isbn,
    "date": lambda v: bool(_DATE.match(v)),
    "price": _price,
    "url": lambda v: v.startswith(("http://", "https://", "/")) and " " not in v,
    "number": lambda v: bool(_NUMBER.match(v)),
    "code": lambda v: bool(_CODE.match(v)),
    "name": _name,
}


def kind_of(values: Sequence[str]) -> str | None:
    """The most specific kind every sample value has (``isbn`` before ``number``...), or None.

    One distinct value is too little to tell a kind by ("kevin1" looks like a code; other user
    names have no digit): None then.
    """
    values = [v for v in values if v]
    if len(set(values)) < 2:
        return None
    for kind, test in KINDS.items():
        if all(test(v) for v in values):
            return kind
    return None


def has_kind(value: str, kind: str | None) -> bool:
    return kind is None or KINDS[kind](value)


@dataclass
class ClusterCheck:
    """What a rule gives on the unseen pages of the cluster."""

    pages: int
    found: int
    distinct: int
    of_kind: int
    multi: int  # pages where a list rule found two values or more
    labelled: int = -1  # pages where the node's label is the samples' (-1: no label to check)
    struck: int = 0  # pages that show the value crossed out (an old price): it is not theirs

    @property
    def found_rate(self) -> float:
        return self.found / self.pages if self.pages else 1.0

    @property
    def kind_rate(self) -> float:
        return self.of_kind / self.found if self.found else 0.0

    def identical(self) -> bool:
        """The same value on every page where it was found (three pages at least)."""
        return self.found >= 3 and self.distinct == 1

    @property
    def label_rate(self) -> float:
        return 1.0 if self.labelled < 0 else self.labelled / self.found if self.found else 0.0

    @property
    def struck_rate(self) -> float:
        return self.struck / self.found if self.found else 0.0

    def quality(self) -> float:
        """Share of unseen pages where it found a value of the right kind beside the right label,
        and not one the page crosses out (two samples at full price cannot tell the price a buyer
        pays from a list price shown elsewhere; the sale pages among the unseen ones can)."""
        if not self.pages:
            return 1.0
        return self.found_rate * self.kind_rate * self.label_rate * (1.0 - self.struck_rate)


def first_node(rule: FieldRule, page: Page) -> etree._Element | None:
    """The node the rule takes its (first) value from on ``page``."""
    for css in (rule.css, *rule.alternates):
        for el in rule.nodes(css, page.root, page.texts):
            if rule.cut(el, page.texts) is not None:
                return el
    return None


def check_on_cluster(
    rule: FieldRule, pages: Sequence[Page], kind: str | None, label: str | None = None
) -> ClusterCheck:
    """``label``: the text before the value on the samples (``Edition``), when they agree on one."""
    found = of_kind = multi = labelled = struck = 0
    seen: set[str] = set()
    for page in pages:
        got: Value = rule.extract(page.root, page.texts)
        values = got if isinstance(got, list) else [got] if got else []
        if not values:
            continue
        found += 1
        # Values the page crosses out (an old price beside the new one) are neither the field's
        # value nor more items of a list.
        live = [v for v in values if v not in page.struck]
        multi += len(live) > 1
        struck += len(live) < len(values)
        seen.add("\x1f".join(values))
        of_kind += all(has_kind(v, kind) for v in values)
        if label is not None:
            node = first_node(rule, page)
            labelled += node is not None and text_label(node, page) == label
    return ClusterCheck(len(pages), found, len(seen), of_kind, multi, labelled if label is not None else -1,
                        struck)


@dataclass
class FieldReport:
    """Per label: how often the chosen rule found a value on the unseen pages, and its kind."""

    label: str
    kind: str | None
    many: bool
    pages: int
    found_rate: float
    kind_rate: float

    def weak(self) -> bool:
        return self.pages > 0 and (self.found_rate < 0.8 or self.kind_rate < 0.9)

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "many": self.many,
            "unseen_pages": self.pages,
            "found_rate": round(self.found_rate, 3),
            "kind_rate": round(self.kind_rate, 3),
        }
