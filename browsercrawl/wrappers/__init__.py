"""Wrappers: learn a page's fields from two samples (``learn``), apply them anywhere (``model``).

A shared library below the parts: induction learns wrappers, social and the crawl apply them.
"""

from browsercrawl.wrappers.learn import generalise_pair, learn_wrapper
from browsercrawl.wrappers.model import FORMAT, FieldRule, Value, Wrapper, norm, parse_html

__all__ = [
    "FORMAT",
    "FieldRule",
    "Value",
    "Wrapper",
    "generalise_pair",
    "learn_wrapper",
    "norm",
    "parse_html",
]
