"""Rendering-dependent crawling: waits, captured XHR JSON, scrolling, load-more, click states, adaptive rendering."""
