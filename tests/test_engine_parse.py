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


async def test_small_pages_are_parsed_on_the_loop_and_large_ones_in_a_thread(port, monkeypatch) -> None:
    import threading

    from aiohttp import web

    from browsercrawl.engine import http_fetcher
    from browsercrawl.engine.http_fetcher import HttpClient
    from browsercrawl.engine.parse import INLINE_PARSE_CHARS
    from tests.apps.server import serve_in_thread

    small = "<html><body><a href='/b'>b</a>small</body></html>"
    large = "<html><body><a href='/b'>b</a>" + "<p>word</p>" * (INLINE_PARSE_CHARS // 10) + "</body></html>"
    pages = {"/small": small, "/large": large}

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=pages[request.path], content_type="text/html")

    app = web.Application()
    app.router.add_get("/{name}", page)
    threads: dict[str, int] = {}

    def recording_parse(html: str, base_url: str, *, judge_scripts: bool = True) -> ParsedPage:
        threads[base_url.rsplit("/", 1)[1]] = threading.get_ident()
        return parse_page(html, base_url, judge_scripts=judge_scripts)

    monkeypatch.setattr(http_fetcher, "parse_page", recording_parse)
    with serve_in_thread(app, port) as base:
        session = HttpClient.new_session(None, 2)
        try:
            client = HttpClient(session, 30)
            got = {name: await client.fetch(f"{base}/{name}") for name in ("small", "large")}
            unjudged = HttpClient(session, 30, judge_scripts=False)
            plain = {name: await unjudged.fetch(f"{base}/{name}") for name in ("small", "large")}
        finally:
            await session.close()
    loop_thread = threading.get_ident()
    assert threads["small"] == loop_thread
    assert threads["large"] != loop_thread
    for name, result in got.items():
        expected = parse_page(pages[f"/{name}"], result.final_url)
        assert (result.title, result.text, result.links) == expected[:3]
        assert result.scripted is False
        # Outside auto mode nobody asks whether a page runs code: the same page, that left unread.
        assert (plain[name].title, plain[name].text, plain[name].links) == expected[:3]
        assert plain[name].scripted is None


def test_scripts_are_judged_only_when_asked() -> None:
    html = "<html><body onload='go()'><a href='/x'>x</a>text</body></html>"
    judged = parse_page(html, "http://h/")
    unjudged = parse_page(html, "http://h/", judge_scripts=False)
    assert judged.scripted is True and unjudged.scripted is None
    assert judged[:3] == unjudged[:3]


def test_the_sliced_origin_is_the_one_urlsplit_reads() -> None:
    from browsercrawl.engine.parse import _origin, _origin_by_split

    bases = [
        "http://h/", "http://h", "https://h:8443/a/b?c#d", "http://h?q=1", "http://h#frag",
        "http://user:pw@h:80/p", "http://[::1]:8080/x", "https://xn--bcher-kva.example/",
        "http:///nohost", "http://", "https://", "ftp://h/x", "HTTP://H/x", "http://h/a b",
        "http://h\\evil/x", "http://h\t/x", "http://h/\u00e9", "mailto:a@b", "", "http://h:/",
        "http://a/b/c/../d?x=/y#z/w", "https://h?#", "http://h/#?",
    ]
    for base in bases:
        assert _origin(base) == _origin_by_split(base), base


def test_outcomes_of_small_pages_are_built_inline_and_big_or_language_checked_ones_not() -> None:
    from browsercrawl.config.job import JobConfig
    from browsercrawl.engine.outcome import INLINE_LINKS, OutcomeBuilder, default_priority
    from browsercrawl.engine.result import FetchResult
    from browsercrawl.frontier.scope import Scope
    from browsercrawl.frontier.traps import TrapGuard

    def builder(**scope: object) -> OutcomeBuilder:
        job = JobConfig.model_validate({"seeds": ["http://h/"], "scope": scope})
        return OutcomeBuilder(Scope(job.scope, job.seeds), default_priority, True, TrapGuard(job.traps))

    def result(links: int, html: str = "<p>x</p>") -> FetchResult:
        r = FetchResult(requested_url="http://h/", final_url="http://h/", status=200,
                        content_type="text/html", via="http")
        r.html = html
        r.links = [(f"http://h/{i}", "") for i in range(links)]
        return r

    assert builder().inline(result(INLINE_LINKS))
    assert not builder().inline(result(INLINE_LINKS + 1))
    assert not builder().inline(result(1, "x" * (64 * 1024)))
    assert not builder(languages=["en"]).inline(result(1))


def test_stored_html_reads_back_with_plain_zlib_and_small_pages_use_a_small_window() -> None:
    import zlib

    from browsercrawl.engine.writer import compress_html

    for size in (0, 1, 300, 2_000, 40_000, 300_000):
        raw = bytes((i * 7919) % 251 for i in range(size // 2)) + b"<p>x</p>" * (size // 16)
        blob = compress_html(raw)
        assert zlib.decompress(blob) == raw  # how `export`, `show` and the Datasette plugin read it
        window = 1 << ((blob[0] >> 4) + 8)  # the zlib header's CINFO: log2(window) - 8
        assert window >= min(len(raw), 32 * 1024)
        assert window <= max(512, 2 * len(raw))
