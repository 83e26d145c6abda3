"""browsercrawl: a crawler that drives a real browser through JavaScript sites and logged-in communities."""

__version__ = "0.1.0"
