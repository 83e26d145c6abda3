"""The ``[session]`` section of a job file: how the crawl logs in and how it notices it is logged out.

Errors read like the rest of the job file's: ``job.toml: session.accounts.0.password_env: ...``.
Secrets never live in the job file: an account names an environment variable or a keyring entry,
resolved only when a login needs it (``browsercrawl.session.secrets``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from browsercrawl.config.errors import check_regex, validate_section
from browsercrawl.config.values import check_http_url, check_selector

DEFAULT_FAILURE_TEXTS = [
    "wrong username or password",
    "invalid username or password",
    "incorrect username or password",
    "incorrect password",
    "wrong password",
    "invalid credentials",
    "invalid login",
]
DEFAULT_LOCKED_TEXTS = ["account locked", "account is locked", "banned", "suspended", "account disabled"]
DEFAULT_CAPTCHA_TEXTS = ["captcha"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Account(_Section):
    """One login. The password comes from an environment variable or the system keyring."""

    username: str = Field(min_length=1)
    password_env: str | None = None
    password_keyring: str | None = Field(
        default=None, description="keyring service name; the keyring user is the username"
    )
    min_delay_seconds: float | None = Field(
        default=None, ge=0, description="this account's own gap between page requests"
    )
    # Two-factor login: the TOTP seed (base32, as in the site's QR code) for one-time codes.
    totp_env: str | None = Field(default=None, description="environment variable holding the TOTP seed")
    totp_keyring: str | None = Field(
        default=None, description="keyring service holding the TOTP seed; the keyring user is the username"
    )

    @model_validator(mode="after")
    def _one_secret_source(self) -> Account:
        if (self.password_env is None) == (self.password_keyring is None):
            raise ValueError("give exactly one of password_env or password_keyring")
        if self.totp_env is not None and self.totp_keyring is not None:
            raise ValueError("give at most one of totp_env or totp_keyring")
        return self


class LoggedInSignal(_Section):
    """What proves a login worked: an element, a URL, a cookie (any that is set must hold)."""

    selector: str | None = None
    url_regex: str | None = None
    cookie: str | None = None

    @field_validator("url_regex")
    @classmethod
    def _regex(cls, v: str | None) -> str | None:
        return check_regex(v)

    def is_empty(self) -> bool:
        return not (self.selector or self.url_regex or self.cookie)

    @field_validator("selector")
    @classmethod
    def _selector_parses(cls, v: str | None) -> str | None:
        return check_selector(v)


class LoggedOutSignal(_Section):
    """What proves a page was served to a logged-out visitor (checked after every navigation)."""

    url_regex: str | None = Field(default=None, description="default: the login URL's path")
    login_form: bool = Field(default=True, description="a visible password field means logged out")
    texts: list[str] = Field(default_factory=list)
    statuses: list[int] = Field(
        default_factory=lambda: [401, 403],
        description="a 403 that still shows the logged-in signal is a forbidden page, not a lost session",
    )

    @field_validator("url_regex")
    @classmethod
    def _regex(cls, v: str | None) -> str | None:
        return check_regex(v)


class CaptchaConfig(_Section):
    """Where the login CAPTCHA is and how to solve it (see ``browsercrawl/captcha``)."""

    image_selector: str | None = None  # None: found automatically (an <img> whose src/id/alt says captcha)
    input_selector: str | None = None
    refresh_selector: str | None = None
    profile: str | None = Field(default=None, description="solver profile JSON or model .npz")
    max_attempts: int = Field(default=5, ge=1, le=50)
    samples_dir: str | None = Field(default=None, description="save verified (image, answer) samples here")
    ask_below: float = Field(
        default=0.3, ge=0, le=1,
        description="headed only: a person types the answer below this solver confidence (1 always, 0 never)",
    )
    ask_timeout_seconds: float = Field(default=120.0, gt=0, description="how long to wait for the person")

    @field_validator("image_selector", "input_selector", "refresh_selector")
    @classmethod
    def _selectors_parse(cls, v: str | None) -> str | None:
        return check_selector(v)


class FormSelectors(_Section):
    """Optional overrides for the automatic login-form finder."""

    username: str | None = None
    password: str | None = None
    submit: str | None = None
    otp: str | None = Field(default=None, description="the one-time-code field of a two-factor login")

    @field_validator("username", "password", "submit", "otp")
    @classmethod
    def _selectors_parse(cls, v: str | None) -> str | None:
        return check_selector(v)


class SessionConfig(_Section):
    """The whole ``[session]`` section."""

    method: Literal["form", "flow", "state"] = "form"
    login_url: str | None = None
    flow: str | None = Field(default=None, description="recorded flow JSON (method = 'flow')")
    state: str | None = Field(
        default=None,
        description="state file to start from (method = 'state') and to save to; '{username}' allowed",
    )
    accounts: list[Account] = Field(default_factory=list)
    logged_in: LoggedInSignal = Field(default_factory=LoggedInSignal)
    logged_out: LoggedOutSignal = Field(default_factory=LoggedOutSignal)
    captcha: CaptchaConfig = Field(default_factory=CaptchaConfig)
    form: FormSelectors = Field(default_factory=FormSelectors)
    failure_texts: list[str] = Field(default_factory=lambda: list(DEFAULT_FAILURE_TEXTS))
    locked_texts: list[str] = Field(default_factory=lambda: list(DEFAULT_LOCKED_TEXTS))
    min_delay_seconds: float = Field(default=0.0, ge=0, description="per-account gap between pages")
    login_timeout_seconds: float = Field(default=30.0, gt=0)

    base_dir: Path = Field(default=Path("."), exclude=True)

    @field_validator("login_url")
    @classmethod
    def _http(cls, v: str | None) -> str | None:
        return None if v is None else check_http_url(v, "login URL")

    @model_validator(mode="after")
    def _consistent(self) -> SessionConfig:
        if self.method == "form" and not self.login_url:
            raise ValueError("method 'form' needs login_url")
        if self.method == "flow" and not self.flow:
            raise ValueError("method 'flow' needs flow (the recorded flow file)")
        if self.method == "state" and not self.state:
            raise ValueError("method 'state' needs state (a saved state file)")
        if self.method == "form" and not self.accounts:
            raise ValueError("method 'form' needs at least one [[session.accounts]]")
        return self

    def path(self, value: str) -> Path:
        p = Path(value)
        return p if p.is_absolute() else self.base_dir / p

    def state_path(self, username: str | None) -> Path | None:
        if not self.state:
            return None
        name = self.state.replace("{username}", username or "default")
        return self.path(name)

    def delay_for(self, account: Account | None) -> float:
        if account is not None and account.min_delay_seconds is not None:
            return account.min_delay_seconds
        return self.min_delay_seconds


def parse_session(raw: dict, job_path: Path, base_dir: Path | None = None) -> SessionConfig:
    """Validate a ``[session]`` section on its own (e.g. for ``login`` commands)."""
    cfg = validate_section(SessionConfig, raw, job_path, "session")
    cfg.base_dir = base_dir if base_dir is not None else job_path.parent
    return cfg
