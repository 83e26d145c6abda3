"""``captcha label``: a person types the answer to each image in a real browser window.

The page is built with ``set_content`` (no server), the answer comes back when the form is
submitted. An empty answer skips the image; closing the window stops and keeps what was typed.
Labels go to the folder's ``labels.csv`` one row at a time, so an interrupted session loses nothing.
"""

from __future__ import annotations

import base64
import html
import mimetypes
from pathlib import Path

from browsercrawl.captcha.samples import append_label, unlabelled_images
from browsercrawl.errors import UserError

_PAGE = """<!doctype html><html><head><title>captcha label</title><style>
body{{font:18px sans-serif;margin:40px}} img{{height:120px;image-rendering:pixelated;border:1px solid #999}}
input{{font:28px monospace;margin-top:16px;width:320px}}</style></head><body>
<p>{pos} of {total}: <code>{name}</code> - type the characters, Enter to save (empty = skip)</p>
<img id="captcha" src="data:{mime};base64,{data}"><form id="f"><input id="answer" autofocus
autocomplete="off" spellcheck="false"></form></body></html>"""

_WAIT = """() => new Promise(resolve => {
  document.getElementById('f').addEventListener('submit', e => {
    e.preventDefault(); resolve(document.getElementById('answer').value); });
})"""


async def label_folder(page, directory: Path) -> int:
    """Ask for every unlabelled image of ``directory`` on ``page``; returns how many were labelled."""
    directory = Path(directory)
    if not directory.is_dir():
        raise UserError(f"{directory}: not a directory")
    todo = unlabelled_images(directory)
    done = 0
    for i, path in enumerate(todo, start=1):
        mime = mimetypes.guess_type(path.name)[0] or "image/png"
        await page.set_content(_PAGE.format(
            pos=i, total=len(todo), name=html.escape(path.name), mime=mime,
            data=base64.b64encode(path.read_bytes()).decode()))
        try:
            answer = (await page.evaluate(_WAIT)).strip()
        except Exception:  # window closed by the person: stop, keep what we have
            break
        if answer:
            if "," in answer or "\n" in answer:
                answer = answer.replace(",", "").replace("\n", "")
            append_label(directory, path.name, answer)
            done += 1
    return done


async def label_folder_headed(directory: Path) -> int:
    """Open a headed Chromium (needs a display) and label the folder in it."""
    from browsercrawl.engine.browser import LaunchOptions, open_browser

    if not Path(directory).is_dir():
        raise UserError(f"{directory}: not a directory")
    async with open_browser(LaunchOptions(headless=False)) as browser:
        page = await browser.new_page()
        return await label_folder(page, Path(directory))
