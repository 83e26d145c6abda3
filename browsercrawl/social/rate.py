"""How often a person changes, and how likely they have changed since we last looked.

A person's items are taken as a Poisson process (seed paper 001, part 2): with rate ``r``,
``P(change within t) = 1 - exp(-r * t)``. The paper estimates ``r = items / (last - first item
time)``, which is undefined for 0 or 1 items and too high for a person who stopped posting.
We use the posterior mean of a Gamma(prior_items, prior_days) prior instead::

    r = (n + prior_items) / (T + prior_days),   T = now - min(first item, first visit)

i.e. ``prior_items`` pseudo-items spread over ``prior_days``. With the defaults (1 item per 7
days) an unknown member is assumed to post about weekly until evidence accumulates; a member with
one old post gets a low rate (the long silence since counts); for many items the estimate tends
to ``n / T``, the paper's figure, except that the quiet time since the newest item also counts.
All times are *site time* in epoch seconds (see ``clock.py``).
"""

from __future__ import annotations

import math

from browsercrawl.config.social import DAY


def estimate_rate(
    n_items: int,
    first_item: float | None,
    first_seen: float | None,
    now: float,
    prior_items: float = 1.0,
    prior_days: float = 7.0,
) -> float:
    """Items per second, from ``n_items`` seen since ``min(first_item, first_seen)``."""
    starts = [t for t in (first_item, first_seen) if t is not None]
    window = max(0.0, now - min(starts)) if starts else 0.0
    return (n_items + prior_items) / (window + prior_days * DAY)


def p_change(rate: float, elapsed: float) -> float:
    """Probability of at least one new item within ``elapsed`` seconds at ``rate`` per second."""
    return 1.0 - math.exp(-rate * max(0.0, elapsed))
