"""A static site of text pages for the search tests: every page's title carries a word no other
page has, and some pages are in Chinese (unspaced text) with known two-character words."""

from __future__ import annotations

from aiohttp import web

# Two-character Chinese words, each placed on known pages (see TextSite.words_of).
CJK_WORDS = ("天气", "音乐", "电影", "旅行", "历史")
CJK_FILLER = "我们在这个论坛上讨论很多有意思的话题，欢迎大家参加"


def unique_word(i: int) -> str:
    """A title word only page ``i`` carries (letters only, so no tokenizer splits it)."""
    letters = "".join(chr(ord("a") + int(d)) for d in f"{i:04d}")
    return f"zq{letters}x"


class TextSite:
    def __init__(self, pages: int = 60, fanout: int = 3) -> None:
        self.pages = pages
        self.fanout = fanout

    def links_of(self, i: int) -> list[int]:
        return [(i * self.fanout + k) % self.pages for k in range(1, self.fanout + 1)]

    def title_of(self, i: int) -> str:
        return f"Page {i} about {unique_word(i)}"

    def cjk_words_of(self, i: int) -> list[str]:
        """The Chinese words on page ``i`` (every third page is Chinese)."""
        if i % 3:
            return []
        return [CJK_WORDS[i % len(CJK_WORDS)], CJK_WORDS[(i // 3) % len(CJK_WORDS)]]

    def text_of(self, i: int) -> str:
        words = self.cjk_words_of(i)
        if words:
            return f"{CJK_FILLER}{words[0]}和{words[1]}。第{i}页。"
        return f"The body of page {i} talks about gardens, rivers and the weather."

    async def page(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if not 0 <= i < self.pages:
            raise web.HTTPNotFound()
        links = " ".join(f'<a href="/p/{j}">next {j}</a>' for j in self.links_of(i))
        body = (f'<!doctype html><html><head><meta charset="utf-8"><title>{self.title_of(i)}</title>'
                f"</head><body><nav>{links}</nav><p>{self.text_of(i)}</p></body></html>")
        return web.Response(text=body, content_type="text/html", charset="utf-8")

    def app(self) -> web.Application:
        app = web.Application()
        app.add_routes([web.get("/p/{i}", self.page)])
        return app
