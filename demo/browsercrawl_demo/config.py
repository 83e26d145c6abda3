"""Options of the demo site (``DemoConfig``), shared by the web app, the CLI and tests."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime

from browsercrawl.errors import UserError
from browsercrawl_demo.captcha_image import MAX_DIFFICULTY
from browsercrawl_demo.content import SITE_EPOCH

HOST = "127.0.0.1"  # the demo site never listens on any other address


@dataclass
class DemoConfig:
    """Everything that shapes one run of the demo site; every field is also a CLI flag.

    ``port=0`` picks a free port (read the real one from ``site.url``). ``admin_token`` guards
    ``POST /__clock/advance``; left empty, a random one is made and printed at start.
    """

    seed: int = 0
    port: int = 8080
    members: int = 300
    threads: int | None = None  # None = about 2,000 per 300 members
    captcha_difficulty: int = 2
    require_captcha: bool = True
    session_ttl_seconds: float = 3600.0
    session_max_requests: int = 0  # 0 = unlimited
    lock_after_failures: int = 5  # 0 = never lock
    lock_seconds: float = 900.0  # 0 = locked until restart
    rate_limit: float = 0.0  # requests per second per client IP; 0 = off
    admin_token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    start_time: datetime | None = None  # site time at start; None = content.SITE_EPOCH
    log_requests: bool = False
    two_factor: tuple[str, ...] = ()  # member names whose login asks for a TOTP code after the password

    def validate(self) -> DemoConfig:
        """Raise a one-line :class:`UserError` naming the first bad option."""
        checks = [
            (0 <= self.port <= 65535, f"--port must be 0..65535, got {self.port}"),
            (5 <= self.members <= 100_000, f"--members must be 5..100000, got {self.members}"),
            (self.threads is None or 0 <= self.threads <= 1_000_000,
             f"--threads must be 0..1000000, got {self.threads}"),
            (0 <= self.captcha_difficulty <= MAX_DIFFICULTY,
             f"--captcha-difficulty must be 0..{MAX_DIFFICULTY}, got {self.captcha_difficulty}"),
            (self.session_ttl_seconds >= 0,
             f"--session-ttl must be >= 0 seconds, got {self.session_ttl_seconds}"),
            (self.session_max_requests >= 0,
             f"--session-max-requests must be >= 0, got {self.session_max_requests}"),
            (self.lock_after_failures >= 0,
             f"--lock-after must be >= 0, got {self.lock_after_failures}"),
            (self.lock_seconds >= 0, f"--lock-seconds must be >= 0, got {self.lock_seconds}"),
            (self.rate_limit >= 0, f"--rate-limit must be >= 0, got {self.rate_limit}"),
            (bool(self.admin_token), "--admin-token must not be empty"),
            (self.start_time is None or self.start_time >= SITE_EPOCH,
             f"--start-time must not be before {SITE_EPOCH:%Y-%m-%dT%H:%M:%SZ}"),
        ]
        for ok, message in checks:
            if not ok:
                raise UserError(message)
        return self
