"""Scoring a supervised crawl against ground truth: target-page precision/recall and field F1.

Definitions (also in docs/induction.md):

* **target precision** = pages the profile calls target that are true targets / pages it calls
  target, over the pages the crawl fetched;
* **target recall** = true targets the crawl fetched *and* called target / all true targets (the
  whole site when the crawl ran to completion: missing a page by not reaching it counts);
* **classification recall** = of the fetched true targets, the share called target (separates
  "the regex is wrong" from "the crawl did not get there");
* **field F1**, per label and micro-averaged: values compared exactly after whitespace
  normalisation; a single field is one true positive when equal, else a false positive (if
  extracted) and a false negative (if expected); a repeated field is matched as a multiset.
  Records of pages that are not true targets count every value as a false positive; true targets
  without a record count every expected value as a false negative.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


def _norm(v: Any) -> str:
    return " ".join(str(v).split())


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: Counts) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def compare_value(got: Any, want: Any) -> Counts:
    """TP/FP/FN of one field on one page (lists as multisets, JSON text lists decoded)."""
    if isinstance(got, str) and isinstance(want, list):
        try:  # the records table stores repeated fields as JSON text
            decoded = json.loads(got)
        except json.JSONDecodeError:
            decoded = None
        got = decoded if isinstance(decoded, list) else [got]
    if isinstance(want, list) or isinstance(got, list):
        g = Counter(_norm(x) for x in (got or []) if _norm(x))
        w = Counter(_norm(x) for x in (want or []) if _norm(x))
        tp = sum((g & w).values())
        return Counts(tp, sum(g.values()) - tp, sum(w.values()) - tp)
    g = _norm(got) if got is not None and _norm(got) else None
    w = _norm(want) if want is not None and _norm(want) else None
    if g is not None and g == w:
        return Counts(1, 0, 0)
    return Counts(0, int(g is not None), int(w is not None))


@dataclass
class Scores:
    target_precision: float
    target_recall: float
    classification_recall: float
    called_target: int
    true_targets: int
    fetched_true_targets: int
    fields: dict[str, Counts] = field(default_factory=dict)

    @property
    def field_micro(self) -> Counts:
        total = Counts()
        for c in self.fields.values():
            total.add(c)
        return total

    def as_dict(self) -> dict[str, Any]:
        micro = self.field_micro
        return {
            "target_precision": round(self.target_precision, 4),
            "target_recall": round(self.target_recall, 4),
            "classification_recall": round(self.classification_recall, 4),
            "called_target": self.called_target,
            "true_targets": self.true_targets,
            "fetched_true_targets": self.fetched_true_targets,
            "field_f1": round(micro.f1, 4),
            "field_precision": round(micro.precision, 4),
            "field_recall": round(micro.recall, 4),
            "per_label_f1": {k: round(c.f1, 4) for k, c in self.fields.items()},
        }


def score_crawl(
    fetched: Iterable[str],
    called_target: Iterable[str],
    records: Mapping[str, Mapping[str, Any]],
    truth: Mapping[str, Mapping[str, Any]],
) -> Scores:
    """Score one crawl. URLs must be spelled alike (canonical) on both sides.

    ``fetched``: pages the crawl stored; ``called_target``: those the profile classed as target;
    ``records``: url -> extracted record; ``truth``: every true target url -> expected record.
    """
    fetched_set = set(fetched)
    called = set(called_target) & fetched_set
    truth_urls = set(truth)
    hits = called & truth_urls
    fetched_truth = fetched_set & truth_urls
    labels = list(dict.fromkeys(label for rec in truth.values() for label in rec))
    fields = {label: Counts() for label in labels}
    for url in truth_urls | set(records):
        got = records.get(url, {})
        want = truth.get(url, {})
        for label in labels:
            fields[label].add(compare_value(got.get(label), want.get(label)))
    return Scores(
        target_precision=len(hits) / len(called) if called else 0.0,
        target_recall=len(hits) / len(truth_urls) if truth_urls else 0.0,
        classification_recall=len(hits) / len(fetched_truth) if fetched_truth else 0.0,
        called_target=len(called),
        true_targets=len(truth_urls),
        fetched_true_targets=len(fetched_truth),
        fields=fields,
    )
