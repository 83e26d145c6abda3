"""The entry point login code uses: bytes of a CAPTCHA image in, :class:`Solution` out.

Solving is CPU work (OpenCV, numpy, a Tesseract subprocess), so :meth:`CaptchaSolver.solve` runs it
in a worker thread and the crawler's event loop keeps serving pages meanwhile. numpy, OpenCV and
the Tesseract subprocess release the GIL, so a thread is enough and avoids pickling the model.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from browsercrawl.captcha import preprocess
from browsercrawl.captcha.profile import Profile, default_profile
from browsercrawl.captcha.recognise import Recogniser
from browsercrawl.captcha.threads import single_threaded

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="captcha")


@dataclass(frozen=True)
class Solution:
    """The answer, how sure the recogniser is (0..1), and which recogniser gave it."""

    text: str
    confidence: float
    recogniser: str


class CaptchaSolver:
    """A profile's preprocessing steps plus its recogniser, built once and reused."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.recogniser: Recogniser = profile.build()

    @classmethod
    def from_profile(cls, path: str | None) -> CaptchaSolver:
        """Load a profile JSON or a model ``.npz``; ``None`` -> the bundled base model."""
        return cls(default_profile() if path is None else Profile.load(path))

    def solve_sync(self, image: bytes) -> Solution:
        with single_threaded():
            img = preprocess.decode_image(image)
            text, conf = self.recogniser.recognise(preprocess.apply(img, self.profile.steps))
        return Solution(text, float(conf), self.recogniser.name)

    async def solve(self, image: bytes) -> Solution:
        return await asyncio.get_running_loop().run_in_executor(_POOL, self.solve_sync, image)
