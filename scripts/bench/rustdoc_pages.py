"""Real pages: the Rust standard library's API pages (rustdoc HTML shipped with a rustup toolchain).

Item pages (``struct.X.html``, ``enum.X.html``, ``trait.X.html``, ``fn.X.html``,
``macro.X.html``) share one template. Their truth comes from the file path alone, never from the
HTML: ``kind`` from the file name's prefix (``struct`` -> "Struct"), ``name`` from the rest of the
file name, ``module`` from the folder (the last step of the page's breadcrumbs). The pages differ
in ways that trap a learner: the name's span carries the kind as its class (``span.struct`` /
``span.fn``), names are broken by ``<wbr>``, deprecated and portability notes come and go.

Scored like the generated shops (``wrapper_score.py``): 80 pages drawn with a seed, sample pairs
from pages 0-19, pages 20-44 as the unseen cluster pages, pages 45-79 scored by strict F1; healing
after each markup change on the scored pages.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from browsercrawl.wrappers import Wrapper, learn_wrapper
from browsercrawl.wrappers.heal import HealingWrapper
from scripts.bench.wrapper_score import CLUSTER, N_PAGES, SCORED, field_f1, pairs_for, value_set
from scripts.bench.wrapper_sites import CHANGES, change_markup

KINDS = {"struct": "Struct", "enum": "Enum", "trait": "Trait", "fn": "Function", "macro": "Macro"}
FIELDS = ("kind", "name", "module")
MAX_BYTES = 150_000  # the largest pages (HashMap: 190 kB of impls) only slow the run down


def default_root() -> Path | None:
    """The std docs of an installed rustup toolchain, if there is one."""
    for base in sorted(Path.home().glob(".rustup/toolchains/*/share/doc/rust/html/std")):
        return base
    return None


def load_pages(root: Path, seed: int) -> tuple[list[str], list[dict[str, str]]]:
    """``N_PAGES`` item pages from ``root`` (seeded draw) and their truth from the paths."""
    files = sorted(
        f
        for f in root.rglob("*.html")
        if f.name.split(".", 1)[0] in KINDS and f.parent != root and f.stat().st_size <= MAX_BYTES
    )
    # Re-exports get a stub page redirecting to the item's home: it shows nothing of the item.
    files = [f for f in files if re.search(r"id=[\"']main-content", f.read_text(encoding="utf-8"))]
    chosen = random.Random(seed).sample(files, N_PAGES)
    pages = [f.read_text(encoding="utf-8") for f in chosen]
    truth = [
        {"kind": KINDS[f.name.split(".", 1)[0]], "name": f.name.split(".")[1], "module": f.parent.name}
        for f in chosen
    ]
    return pages, truth


def score(root: Path, seed: int, n_pairs: int) -> None:
    """Print per-field mean/worst strict F1 over ``n_pairs`` sample pairs, and healing rates."""
    pages, truth = load_pages(root, seed)
    cluster = [pages[i] for i in CLUSTER]
    scored_truth = [truth[i] for i in SCORED]
    f1s: dict[str, list[float]] = {f: [] for f in FIELDS}
    first: Wrapper | None = None
    for a, b in pairs_for(seed, n_pairs):
        result = learn_wrapper([pages[a], pages[b]], [truth[a], truth[b]], cluster_pages=cluster)
        first = first or result.wrapper
        predicted = [result.wrapper.apply(pages[i]) for i in SCORED]
        for f in FIELDS:
            f1s[f].append(field_f1(predicted, scored_truth, f))
    print(f"\n== real pages: Rust std API docs ({root}), {n_pairs} sample pairs, seed {seed} ==")
    print(f"{'field':<9}{'mean':>6}{'worst':>7}")
    for f in FIELDS:
        print(f"{f:<9}{sum(f1s[f]) / len(f1s[f]):>6.2f}{min(f1s[f]):>7.2f}")
    assert first is not None
    print(f"{'change':<17}{'before':>7}{'healed':>8}")
    for kind in CHANGES:
        changed = [change_markup(pages[i], kind, seed) for i in SCORED]
        healer = HealingWrapper(Wrapper.from_json(first.to_json()))
        plain = [first.apply(h) for h in changed]
        healed = [healer.apply(h) for h in changed]
        print(f"{kind:<17}{_recall(plain, scored_truth):>7.2f}{_recall(healed, scored_truth):>8.2f}")


def _recall(predicted: list[dict], truth: list[dict]) -> float:
    tp = total = 0
    for pred, want in zip(predicted, truth, strict=True):
        for f in FIELDS:
            t = value_set(want.get(f))
            tp += len(value_set(pred.get(f)) & t)
            total += len(t)
    return tp / total if total else 1.0
