"""Scoring learned wrappers on the generated book sites: strict F1 per field, healing rates.

Per site: 80 pages; sample pairs are drawn from pages 0-19, pages 20-44 are the cluster's other
pages the learner may look at (values unknown), pages 45-79 are scored. Values are compared
exactly after whitespace normalisation (no substring credit); a single value counts as a list of
one, and per field F1 = 2TP / (2TP + FP + FN) over the scored pages' value sets.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from browsercrawl.wrappers import Wrapper, learn_wrapper, norm
from browsercrawl.wrappers.heal import HealingWrapper
from scripts.bench.wrapper_sites import (
    CHANGES,
    FIELDS,
    Site,
    SiteStyle,
    change_markup,
    generate_site,
    sample_values,
)

N_PAGES = 80
POOL = range(0, 20)
CLUSTER = range(20, 45)
SCORED = range(45, 80)


def value_set(v: object) -> set[str]:
    if v is None:
        return set()
    if isinstance(v, list):
        return {norm(str(x)) for x in v if norm(str(x))}
    return {norm(str(v))} if norm(str(v)) else set()


def field_f1(predicted: list[dict], truth: list[dict], label: str) -> float:
    tp = fp = fn = 0
    for pred, want in zip(predicted, truth, strict=True):
        p, t = value_set(pred.get(label)), value_set(want.get(label))
        tp += len(p & t)
        fp += len(p - t)
        fn += len(t - p)
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0


@dataclass
class PairScore:
    pair: tuple[int, int]
    f1: dict[str, float]
    warnings: list[str]
    wrapper: Wrapper


def score_pair(site: Site, pair: tuple[int, int], use_cluster: bool = True) -> PairScore:
    a, b = pair
    cluster = [site.pages[i] for i in CLUSTER] if use_cluster else []
    values = [sample_values(site.truth[a]), sample_values(site.truth[b])]
    result = learn_wrapper([site.pages[a], site.pages[b]], values, cluster_pages=cluster)
    predicted = [result.wrapper.apply(site.pages[i]) for i in SCORED]
    truth = [site.truth[i] for i in SCORED]
    return PairScore(
        pair, {f: field_f1(predicted, truth, f) for f in FIELDS}, result.warnings, result.wrapper
    )


def pairs_for(seed: int, n: int) -> list[tuple[int, int]]:
    r = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < n:
        a, b = r.sample(list(POOL), 2)
        if (a, b) not in out:
            out.append((a, b))
    return out


def score_site(style: SiteStyle, seed: int, n_pairs: int, use_cluster: bool = True) -> list[PairScore]:
    site = generate_site(style, N_PAGES, seed)
    return [score_pair(site, p, use_cluster) for p in pairs_for(seed, n_pairs)]


def site_of(style: SiteStyle, seed: int) -> Site:
    return generate_site(style, N_PAGES, seed)


def value_recall(predicted: list[dict], truth: list[dict]) -> float:
    """Share of all true values (every field, every page) extracted exactly."""
    tp = total = 0
    for pred, want in zip(predicted, truth, strict=True):
        for label in FIELDS:
            t = value_set(want.get(label))
            tp += len(value_set(pred.get(label)) & t)
            total += len(t)
    return tp / total if total else 1.0


@dataclass
class HealScore:
    """One change kind on one site: values right before and after healing, the repairs made."""

    kind: str
    before: float  # share of true values extracted, without healing
    after: float  # with healing (page by page, as a crawl meets them)
    worst_field: float  # the lowest field F1 after healing
    repairs: int


def healing(site: Site, wrapper: Wrapper, seed: int) -> list[HealScore]:
    """Per change kind: the scored pages redesigned, extracted without and with healing."""
    truth = [site.truth[i] for i in SCORED]
    out = []
    for kind in CHANGES:
        changed = [change_markup(site.pages[i], kind, seed) for i in SCORED]
        plain = [wrapper.apply(h) for h in changed]
        healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()))
        healed = [healer.apply(h) for h in changed]
        out.append(
            HealScore(
                kind,
                value_recall(plain, truth),
                value_recall(healed, truth),
                min(field_f1(healed, truth, f) for f in FIELDS),
                len(healer.repairs),
            )
        )
    return out
