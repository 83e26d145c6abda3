"""Focused crawling from examples: many sites, a few pages like the ones wanted, the rest found best-first."""
