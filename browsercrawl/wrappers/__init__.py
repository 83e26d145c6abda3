"""Wrappers: learn a page's fields from samples (``learn``), apply them anywhere (``model``),
find them again after a redesign (``heal``).

A shared library below the parts: induction learns wrappers, social and the crawl apply them.
"""

from browsercrawl.wrappers.learn import LearnResult, learn_wrapper
from browsercrawl.wrappers.model import FORMAT, FieldRule, Value, Wrapper, norm, parse_html
from browsercrawl.wrappers.paths import generalise_pair

__all__ = [
    "FORMAT",
    "FieldRule",
    "LearnResult",
    "Value",
    "Wrapper",
    "generalise_pair",
    "learn_wrapper",
    "norm",
    "parse_html",
]
