"""The demo site's archive (next month forever) crawled with default settings: it ends by itself,
every month with threads is stored, the endless empty months are cut."""

from __future__ import annotations

import pytest
from browsercrawl_demo.app import demo_site_in_thread
from browsercrawl_demo.auth import password_for
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.traps_demo import run_archive_trap
from browsercrawl_demo.truth import build_truth

pytestmark = pytest.mark.browser


def test_the_demo_archive_trap_is_bounded_by_default(tmp_path, monkeypatch):
    cfg = DemoConfig(port=0, members=20, require_captcha=False)
    with demo_site_in_thread(cfg) as site:
        truth = build_truth(site.state.content)
        user = truth["members.json"][0]["name"]
        monkeypatch.setenv("BC_TRAP_PW", password_for(user, cfg.seed))
        session = {"method": "form", "login_url": f"{site.url}/login",
                   "accounts": [{"username": user, "password_env": "BC_TRAP_PW"}]}
        report = run_archive_trap(tmp_path, site.url, truth, session, lambda _: None)
    print("archive trap:", report)
    assert report["finished"] and report["cut"] >= 1 and report["failed"] == 0
    assert report["months_with_threads_found"] == report["months_with_threads"] > 0
    assert report["pages"] <= 200
