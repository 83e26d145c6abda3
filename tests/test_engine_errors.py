"""Bad input gives one line naming the problem and a non-zero exit; nothing stored is lost."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

BC = [sys.executable, "-m", "browsercrawl"]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*BC, *args], capture_output=True, text=True, env=env)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("seeds = [", "job.toml: not valid TOML"),
        ('seeds = ["ftp://x/"]', "job.toml: seeds: seed 'ftp://x/' is not an http(s) URL"),
        ("seeds = []", "job.toml: seeds: List should have at least 1 item"),
        ('[output]\ndatabase = "x.db"', "job.toml: seeds: required key is missing"),
        (
            'seeds = ["http://127.0.0.1:1/"]\n[politeness]\ndelay_seconds = -1',
            "job.toml: politeness.delay_seconds: Input should be greater than or equal to 0",
        ),
        (
            'seeds = ["http://127.0.0.1:1/"]\n[politeness]\ndelay = 1',
            "job.toml: politeness.delay: unknown key",
        ),
        ('seeds = ["http://127.0.0.1:1/"]\n[scope]\ndeny = ["(unclosed"]', "job.toml: scope.deny: bad regex"),
        (
            'seeds = ["http://127.0.0.1:1/"]\n[rendering]\nmode = "magic"',
            "job.toml: rendering.mode: Input should be",
        ),
        (
            'seeds = ["http://127.0.0.1:1/"]\n[rendering]\ngc_every_pages = -1',
            "job.toml: rendering.gc_every_pages: Input should be greater than or equal to 0",
        ),
        (
            'seeds = ["http://127.0.0.1:1/"]\n[rendering]\nblock = ["pictures"]',
            "job.toml: rendering.block: unknown resource type 'pictures'",
        ),
    ],
)
def test_bad_job_files(tmp_path, content, expected):
    job = tmp_path / "job.toml"
    job.write_text(content)
    res = run("crawl", str(job))
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1, res.stderr
    assert "Traceback" not in res.stderr
    assert expected in res.stderr.replace(str(tmp_path) + "/", "")


def test_missing_job_file_and_database(tmp_path):
    res = run("crawl", str(tmp_path / "nope.toml"))
    assert res.returncode == 2 and "nope.toml: job file not found" in res.stderr
    res = run("export", str(tmp_path / "nope.db"))
    assert res.returncode == 2 and "nope.db: database not found" in res.stderr
    (tmp_path / "junk.db").write_text("not a database at all" * 100)
    res = run("stats", str(tmp_path / "junk.db"))
    assert res.returncode == 2 and "junk.db: not a SQLite database" in res.stderr


def test_export_unknown_table_keeps_database(tmp_path):
    db = tmp_path / "c.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE pages (url TEXT)")
        conn.execute("INSERT INTO pages VALUES ('http://127.0.0.1/')")
    res = run("export", str(db), "--table", "nope")
    assert res.returncode == 2 and "no table 'nope'" in res.stderr and res.stderr.count("\n") == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM pages").fetchone()[0] == 1


def test_headed_without_display_is_a_clear_error(tmp_path):
    job = tmp_path / "job.toml"
    job.write_text(f'seeds = ["http://127.0.0.1:1/"]\n[output]\ndatabase = "{tmp_path / "c.db"}"\n')
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    res = run("crawl", str(job), "--headed", env=env)
    assert res.returncode == 4, res.stderr
    assert "--headed needs a display" in res.stderr and res.stderr.count("\n") == 1


def test_missing_chromium_is_a_clear_error(tmp_path):
    job = tmp_path / "job.toml"
    job.write_text(
        f'seeds = ["http://127.0.0.1:1/"]\n[output]\ndatabase = "{tmp_path / "c.db"}"\n'
        '[browser]\nexecutable = "/nonexistent/chromium"\n'
    )
    res = run("crawl", str(job))
    assert res.returncode == 4 and "Chromium not found at '/nonexistent/chromium'" in res.stderr
