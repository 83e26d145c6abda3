"""Rendering-dependent crawling: waits, captured XHR JSON, scrolling, load-more, click states,
and adaptive rendering (render only the URL shapes that need it). See docs/ajax.md."""
