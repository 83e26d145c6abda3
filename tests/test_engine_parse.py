"""The HTTP path's parse: title, visible text and links as the stored page has them."""

from __future__ import annotations

from browsercrawl.engine.parse import ParsedPage, parse_page


def test_text_leaves_out_what_the_browser_does_not_show_and_keeps_the_tails() -> None:
    html = ("<html><head><title> A \n B </title></head><body><p>one<script>x()</script>two</p>"
            "three<!-- note -->four<style>p{}</style>five<noscript>no</noscript>six"
            "<template>t</template>seven</body></html>")
    page = parse_page(html, "http://h/")
    assert page.title == "A B"
    # like the DOM's textContent: a removed element's tail joins the text before it
    assert page.text == "onetwo three fourfivesixseven"


def test_links_are_absolute_deduplicated_and_skip_hidden_and_non_web_ones() -> None:
    html = ("<html><head><base href='/d/'></head><body>"
            "<a href='x'>X <b>bold</b></a><a href='/x'>again</a><a href='x'>dup</a>"
            "<a href='#top'>t</a><a href='mailto:a@b'>m</a><a href='javascript:go()'>j</a>"
            "<noscript><a href='/hidden'>h</a></noscript><a href='http://other/p?q=1'>o</a>"
            "</body></html>")
    page = parse_page(html, "http://h/a/b.html")
    assert page.links == [("http://h/d/x", "X bold"), ("http://h/x", "again"), ("http://other/p?q=1", "o")]


def test_empty_and_bytes_documents() -> None:
    assert parse_page("   ", "http://h/") == ParsedPage("", "", [], False)
    assert parse_page("<!-- only a comment -->", "http://h/") == ParsedPage("", "", [], False)
    page = parse_page("<html><head><meta charset='utf-8'></head><body>\u00e9t\u00e9</body></html>".encode(),
                      "http://h/")
    assert page.text == "\u00e9t\u00e9"
