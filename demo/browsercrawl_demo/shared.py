"""Small helpers the demo site's handler modules share (request keys, state access, JSON)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from browsercrawl_demo.auth import Session
from browsercrawl_demo.content import Board, Member, iso
from browsercrawl_demo.state import DemoState

STATE = web.AppKey("demo_state", DemoState)
# request key: the live Session (logged in, on protected routes) or None; RequestKey where
# this aiohttp has it (newer versions warn about plain string keys)
SESSION: Any = (web.RequestKey("demo_session") if hasattr(web, "RequestKey")
                else "demo_session")
COOKIE = "sid"


def state(request: web.Request) -> DemoState:
    return request.app[STATE]


def session(request: web.Request) -> Session | None:
    return request.get(SESSION)


def user(request: web.Request) -> str:
    """The logged-in user's name (only call on login-required routes)."""
    s = request[SESSION]
    assert s is not None and s.user is not None
    return s.user


def board_of(request: web.Request) -> Board | None:
    """The board a ``{board_id}`` route names, or None when there is no such board."""
    boards = state(request).content.boards
    board_id = int(request.match_info["board_id"])
    return boards[board_id - 1] if 1 <= board_id <= len(boards) else None


def member_json(m: Member) -> dict[str, Any]:
    return {"name": m.name, "display_name": m.display_name, "url": m.path,
            "joined": iso(m.joined)}


def set_session_cookie(response: web.StreamResponse, s: Session) -> None:
    response.set_cookie(COOKIE, s.sid, httponly=True, samesite="Lax", path="/")
