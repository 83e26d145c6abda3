"""Automatic induction (GWC method): URL clustering, URL regexes, target/directory pages, wrappers.

Everything here is pure (no browser): the engine feeds it pages through ``precrawl.PageSource``.
See docs/induction.md for the method, the threshold design and the wrapper file format.
"""
