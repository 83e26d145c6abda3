"""Chromium feature switches: Playwright's defaults, browsercrawl's own and a user's, as one list.

Chromium keeps only the last ``--disable-features`` (and ``--enable-features``, and the two
``-blink-features`` switches) on its command line: a second one replaces the first whole. Playwright
already passes its own lists (features that reach Google's services on start, paint holding, ...),
so a crawler that adds its own switch after them silently drops theirs, and a user's
``browser.extra_args`` would drop both. Here every list is merged into one switch of each kind, and
Playwright's own switches are left out of its defaults (``ignore_default_args``).

What Playwright passes depends on its version, so ``engine/browser.py`` reads it off Playwright
itself before each launch (:func:`browsercrawl.engine.browser.playwright_default_args`).
"""

from __future__ import annotations

# Features browsercrawl turns off in every browser it starts, and why:
# - RenderDocument: with it, every navigation of a tab builds a new frame in the renderer (a new
#   document widget and compositor) even on the same site, and tears the old one down. Off, a
#   tab's same-site navigations reuse the frame, as Chromium did before. Measured on the engine
#   bench's JavaScript site (docs/benchmarks.md): Chromium's CPU per page 50-51 ms instead of
#   70-77, pages/s 34-35 instead of 23-25, with requestAnimationFrame, IntersectionObserver,
#   screenshots and input unchanged. Cross-site navigations still change process.
DISABLED_FEATURES: tuple[str, ...] = ("RenderDocument",)

# (enable, disable) pairs of switches that each hold a comma-separated list, last one winning.
_PAIRS = (
    ("--enable-features=", "--disable-features="),
    ("--enable-blink-features=", "--disable-blink-features="),
)
_PREFIXES = tuple(prefix for pair in _PAIRS for prefix in pair)

def is_feature_switch(arg: str) -> bool:
    return arg.startswith(_PREFIXES)


def merge_feature_switches(
    defaults: list[str] | None, args: list[str], own_disabled: tuple[str, ...] = DISABLED_FEATURES
) -> tuple[list[str], list[str]]:
    """``(args, ignore_default_args)`` for a launch: one switch of each kind holding every list.

    ``defaults`` are Playwright's default arguments (None when unknown: then browsercrawl's own
    disabled features are not added, since they would replace Playwright's unseen lists). Lists
    apply in order, Playwright's, browsercrawl's, then ``args`` (where a user's extra arguments
    come last): a feature enabled later leaves the disabled list, and the other way round.
    """
    lists: dict[str, dict[str, None]] = {prefix: {} for prefix in _PREFIXES}
    other_of = {a: b for pair in _PAIRS for a, b in (pair, pair[::-1])}

    def apply(arg: str) -> None:
        prefix = next(p for p in _PREFIXES if arg.startswith(p))
        for name in filter(None, (n.strip() for n in arg[len(prefix):].split(","))):
            lists[other_of[prefix]].pop(name, None)
            lists[prefix][name] = None

    ignore = [a for a in defaults or [] if is_feature_switch(a)]
    for arg in ignore:
        apply(arg)
    if defaults is not None and own_disabled:
        apply("--disable-features=" + ",".join(own_disabled))
    rest = []
    for arg in args:
        if is_feature_switch(arg):
            apply(arg)
        else:
            rest.append(arg)
    merged = [prefix + ",".join(names) for prefix, names in lists.items() if names]
    return [*rest, *merged], ignore
