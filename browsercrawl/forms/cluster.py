"""Cluster the pages that hold a search form, and take each cluster's top terms as first queries.

A form page ``Pg`` is two term spaces, the page's text ``Pc`` and the form's text ``Fc`` (see
:mod:`browsercrawl.forms.text` for what each word weighs before IDF). Each space is weighted with
the paper's formula (1), ``K * tf * log(N / n)``; two pages compare by formula (3),
``sim = (C1 * cos(Pc1, Pc2) + C2 * cos(Fc1, Fc2)) / (C1 + C2)`` with C1 = 1.2 and C2 = 1.0; K-means
(algorithm 1) assigns each page to its most similar centre, recomputes each centre as the mean of
its pages in both spaces (formula 4), and stops when fewer than 10% of the pages moved. A cluster's
seed queries are its terms of highest weight (``C1 * Pc + C2 * Fc`` summed over its pages).

With a single page there is no document frequency to speak of (log(1/1) = 0 would erase every
word), so that case weighs terms by ``K * tf`` alone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: every crawl loads this part, few pages hold a search form
    import numpy as np  # (numpy and scipy are ~40 MiB of a crawler's memory)
    from scipy import sparse

C1 = 1.2  # weight of the page's text
C2 = 1.0  # weight of the form's text
MOVED_TO_STOP = 0.10
MAX_ITERATIONS = 100
MAX_AUTO_CLUSTERS = 9  # the paper's K on 387 form pages


@dataclass
class FormPage:
    url: str
    form: str  # the form (interface) id it holds
    pc: Counter[str]
    fc: Counter[str]


def tfidf(docs: Sequence[Counter[str]]) -> list[dict[str, float]]:
    """Formula (1) over ``docs`` (each a Counter of ``K * tf``)."""
    n_docs = len(docs)
    df: Counter[str] = Counter()
    for d in docs:
        df.update(d.keys())
    out = []
    for d in docs:
        if n_docs < 2:
            out.append({t: float(w) for t, w in d.items() if w > 0})
            continue
        row = {}
        for t, w in d.items():
            weight = w * math.log(n_docs / df[t])
            if weight > 0:
                row[t] = weight
        out.append(row)
    return out


def _matrix(rows: list[dict[str, float]], vocab: dict[str, int]) -> sparse.csr_matrix:
    import numpy as np
    from scipy import sparse
    data, cols, ptr = [], [], [0]
    for row in rows:
        for t, w in row.items():
            cols.append(vocab.setdefault(t, len(vocab)))
            data.append(w)
        ptr.append(len(cols))
    m = sparse.csr_matrix((np.array(data, dtype=float), np.array(cols, dtype=np.int64),
                           np.array(ptr, dtype=np.int64)), shape=(len(rows), max(len(vocab), 1)))
    norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.csr_matrix(sparse.diags(1.0 / norms) @ m)


def _normalise(centres: np.ndarray) -> np.ndarray:
    import numpy as np
    norms = np.linalg.norm(centres, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return centres / norms


def auto_k(n_pages: int) -> int:
    """Without a configured k: sqrt(n/2) clusters (the usual rule of thumb), at most the paper's 9."""
    return max(1, min(MAX_AUTO_CLUSTERS, round(math.sqrt(n_pages / 2))))


def kmeans(pages: Sequence[FormPage], k: int | None = None, seed: int = 0) -> list[int]:
    """Cluster of each page (algorithm 1 with formula 3 as the similarity)."""
    import numpy as np
    n = len(pages)
    if n == 0:
        return []
    k = max(1, min(k or auto_k(n), n))
    vocab_p: dict[str, int] = {}
    vocab_f: dict[str, int] = {}
    pc = _matrix(tfidf([p.pc for p in pages]), vocab_p)
    fc = _matrix(tfidf([p.fc for p in pages]), vocab_f)
    if k == 1:
        return [0] * n
    rng = np.random.default_rng(seed)
    # Seeds: the first at random, each next one the page least similar to the seeds so far, so
    # two seeds do not start inside one topic (a deterministic spread of the paper's random pick).
    seeds = [int(rng.integers(n))]
    best = _similarity(pc, fc, pc[seeds].toarray(), fc[seeds].toarray()).max(axis=1)
    while len(seeds) < k:
        cand = int(np.argmin(best))
        if cand in seeds:
            break
        seeds.append(cand)
        best = np.maximum(best, _similarity(pc, fc, pc[[cand]].toarray(), fc[[cand]].toarray())[:, 0])
    cp, cf = pc[seeds].toarray(), fc[seeds].toarray()
    assign = np.full(n, -1)
    for _ in range(MAX_ITERATIONS):
        sims = _similarity(pc, fc, cp, cf)
        new = sims.argmax(axis=1)
        moved = int((new != assign).sum())
        assign = new
        for c in range(len(seeds)):
            members = np.flatnonzero(assign == c)
            if len(members) == 0:  # an emptied cluster takes the page that fits its own worst
                worst = int(np.argmin(sims[np.arange(n), assign]))
                assign[worst] = c
                members = np.array([worst])
            cp[c] = np.asarray(pc[members].mean(axis=0)).ravel()
            cf[c] = np.asarray(fc[members].mean(axis=0)).ravel()
        if moved < MOVED_TO_STOP * n:
            break
    return [int(a) for a in assign]


def _similarity(pc: sparse.csr_matrix, fc: sparse.csr_matrix, cp: np.ndarray, cf: np.ndarray) -> np.ndarray:
    """Formula (3) between every page and every centre (rows are unit vectors; centres normalised)."""
    return (C1 * (pc @ _normalise(cp).T) + C2 * (fc @ _normalise(cf).T)) / (C1 + C2)


def top_terms(pages: Sequence[FormPage], assign: Sequence[int], per_cluster: int) -> dict[int, list[str]]:
    """Each cluster's ``per_cluster`` terms of highest weight (formula 1, both spaces, C1/C2)."""
    wp = tfidf([p.pc for p in pages])
    wf = tfidf([p.fc for p in pages])
    totals: dict[int, Counter[str]] = {}
    for i, c in enumerate(assign):
        acc = totals.setdefault(c, Counter())
        for t, w in wp[i].items():
            acc[t] += C1 * w
        for t, w in wf[i].items():
            acc[t] += C2 * w
    return {c: [t for t, _ in sorted(acc.items(), key=lambda kv: (-kv[1], kv[0]))[:per_cluster]]
            for c, acc in sorted(totals.items())}
