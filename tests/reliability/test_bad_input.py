"""A corpus of bad inputs: each gives one line naming the file or value, exit 2 (4 for the machine),
never a traceback, and leaves every database in its folder byte for byte as it was.

Each case builds its inputs in a fresh folder and returns the command to run; the test compares the
folder's files before and after (no file changed, none added: not even a lock file or a WAL).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

BC = [sys.executable, "-m", "browsercrawl"]
NOWHERE = "http://127.0.0.1:1/"  # nothing listens there: a case that reaches the network fails


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*BC, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def job(folder: Path, body: str = "", database: str = "crawl.db", seeds: str = f'["{NOWHERE}"]') -> str:
    path = folder / "job.toml"
    path.write_text(f"seeds = {seeds}\n{body}\n[output]\ndatabase = \"{database}\"\n")
    return str(path)


def browsercrawl_db(path: Path) -> None:
    """A real, small browsercrawl database (made by the store itself, with its marker)."""
    from browsercrawl.storage.db import CrawlDatabase

    db = CrawlDatabase(path).open_sync()
    db.read("INSERT INTO frontier (url, host, discovered_at) VALUES (?, '127.0.0.1:1', 0)", (NOWHERE,))
    db.read("INSERT INTO pages (url, requested_url, fetched_at, title, text) VALUES "
            "('http://127.0.0.1:1/', 'http://127.0.0.1:1/', 'now', 'home', ?)", ("word " * 20_000,))
    asyncio.run(db.close())


def random_bytes_db(folder: Path) -> Path:
    path = folder / "crawl.db"
    path.write_bytes(os.urandom(40_000))
    return path


def undecodable_db(folder: Path) -> Path:
    """A browsercrawl database whose text holds bytes that are not UTF-8 (UnicodeDecodeError before)."""
    path = folder / "crawl.db"
    browsercrawl_db(path)
    with closing(sqlite3.connect(path)) as conn:  # closed: its WAL is checkpointed and removed
        conn.execute("UPDATE meta SET value = CAST(x'ff' || value AS TEXT)")
        conn.execute("UPDATE pages SET title = CAST(x'fffe41' AS TEXT)")
        conn.commit()
    return path


def damaged_pages_db(folder: Path) -> Path:
    """A database whose first page is intact but whose later pages are overwritten."""
    path = folder / "crawl.db"
    browsercrawl_db(path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for i in range(page * 2, len(data), 3):
        data[i] = 0xA5
    path.write_bytes(bytes(data))
    return path


def foreign_with_pages(folder: Path) -> Path:
    path = folder / "crawl.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE pages (url TEXT PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO pages VALUES ('http://example.org/', 'their data')")
    return path


def foreign_unrelated(folder: Path) -> Path:
    path = folder / "crawl.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
        conn.execute("INSERT INTO invoices (amount) VALUES (12.5)")
    return path


DAMAGED = {"random bytes": random_bytes_db, "not UTF-8": undecodable_db, "damaged pages": damaged_pages_db}
FOREIGN = {"foreign pages table": foreign_with_pages, "foreign tables": foreign_unrelated}


def _flow(folder: Path, start_url: str, goto: str = NOWHERE) -> Path:
    path = folder / "flow.json"
    path.write_text(json.dumps({"start_url": start_url, "steps": [{"action": "goto", "url": goto}]}))
    return path


# Each case: folder -> (command arguments, exit code, text the one line must contain).
Case = Callable[[Path], tuple[list[str], int, str]]
CASES: dict[str, Case] = {
    "seed with an unclosed IPv6 bracket": lambda d: (
        ["crawl", job(d, seeds='["http://[::1"]')], 2, "seeds: seed 'http://[::1' is not a valid URL"),
    "seed with a bad port": lambda d: (
        ["crawl", job(d, seeds='["http://127.0.0.1:99999/"]')], 2, "seeds: seed 'http://127.0.0.1:99999/'"),
    "invalid CSS wait_for_selector": lambda d: (
        ["crawl", job(d, '[rendering]\nwait_for_selector = "div[class="')], 2,
        "rendering.wait_for_selector: selector 'div[class=' is not valid CSS"),
    "invalid XPath wait_for_selector": lambda d: (
        ["crawl", job(d, '[rendering]\nwait_for_selector = "xpath=//div[@"')], 2,
        "rendering.wait_for_selector: selector 'xpath=//div[@' is not valid XPath"),
    "invalid ajax selector": lambda d: (
        ["crawl", job(d, '[ajax]\n[[ajax.rules]]\nmatch = "."\nwait = "selector"\nselector = "###"')], 2,
        "selector '###' is not valid CSS"),
    "login_url file://": lambda d: (
        ["crawl", job(d, '[session]\nlogin_url = "file:///etc/passwd"\n'
                         '[[session.accounts]]\nusername = "u"\npassword_env = "P"')], 2,
        "session.login_url: login URL 'file:///etc/passwd' is not an http(s) URL"),
    "flow start_url file:// in a crawl": lambda d: (
        ["crawl", job(d, f'[session]\nmethod = "flow"\nflow = "{_flow(d, "file:///etc/passwd")}"')], 2,
        "flow.json: start_url: start URL 'file:///etc/passwd' is not an http(s) URL"),
    "flow goto step file://": lambda d: (
        ["login", "replay", str(_flow(d, NOWHERE, goto="file:///etc/passwd"))], 2,
        "flow.json: steps.0: goto URL 'file:///etc/passwd' is not an http(s) URL"),
    "flow start_url file:// replayed": lambda d: (
        ["login", "replay", str(_flow(d, "file:///etc/passwd"))], 2,
        "flow.json: start_url: start URL 'file:///etc/passwd' is not an http(s) URL"),
    "export --out into a missing folder": lambda d: (
        ["export", str(_made(d, browsercrawl_db)), "--out", str(d / "missing" / "out.jsonl")], 2,
        f"--out {d / 'missing' / 'out.jsonl'}: folder {d / 'missing'} does not exist"),
    "export --graph into a missing folder": lambda d: (
        ["export", str(_made(d, browsercrawl_db)), "--graph", str(d / "missing" / "edges.csv")], 2,
        "does not exist"),
    "--fresh on another program's database": lambda d: (
        ["crawl", "--fresh", job(d, database=str(foreign_unrelated(d)))], 2, "not a browsercrawl database"),
}
# More job files: scope values, seeds.
for _name, (_body, _seeds, _expected) in {
    "ip range that is no network": ('[scope]\nip_ranges = ["300.1.1.1/8"]', None,
                                    "scope.ip_ranges: '300.1.1.1/8' is not an IP network"),
    "language that is no code": ('[scope]\nlanguages = ["english"]', None,
                                 "scope.languages: 'english' is not a language code"),
    "unknown scope mode": ('[scope]\nmode = "same-port"', None, "scope.mode: Input should be"),
    "ip ranges without the stop": ('[scope]\nip_ranges = ["127.0.0.0/8"]\nstop_navigations = false', None,
                                   "scope: stop_navigations = false cannot hold with ip_ranges"),
    "seed without a host": ("", '["http:///path"]', "seeds: seed 'http:///path' is not an http(s) URL"),
    "seed with a space": ("", '["http://exa mple.org/"]', "seeds: seed 'http://exa mple.org/' is not"),
}.items():
    CASES[f"job: {_name}"] = lambda d, b=_body, s=_seeds, e=_expected: (
        ["crawl", job(d, b, seeds=s) if s else job(d, b)], 2, e)

# Cookie and state files given to `login state import`: nothing is written to --out.
for _name, (_content, _expected) in {
    "binary": (bytes(range(256)) * 8, "cannot read state file"),
    "empty": (b"", "not a Netscape cookies.txt"),
    "cookie without a name": (b'{"cookies": [{"name": 1}]}', "cookies.0.name: missing or not a string"),
    "list of numbers": (b"[1, 2, 3]", "[0]: expected a cookie object"),
    "short cookies.txt line": (b"# Netscape HTTP Cookie File\nfoo\tbar\n", "line 2: bad cookies.txt line"),
    "cookies not a list": (b'{"cookies": "x"}', "not a Playwright storage state"),
}.items():
    def _cookie_case(d: Path, content: bytes = _content, expected: str = _expected):
        (d / "cookies.txt").write_bytes(content)
        args = ["login", "state", "import", str(d / "cookies.txt"), "--out", str(d / "state.json")]
        return args, 2, expected
    CASES[f"cookie file: {_name}"] = _cookie_case

# Flow files.
for _name, (_flow_text, _expected) in {
    "not JSON": ("{steps: [", "not valid JSON"),
    "no steps": ('{"start_url": "http://127.0.0.1:1/", "steps": []}',
                 "steps: List should have at least 1 item"),
    "unknown action": ('{"start_url": "http://127.0.0.1:1/", "steps": [{"action": "dance"}]}',
                       "steps.0.action: Input should be"),
    "a password written in": ('{"start_url": "http://127.0.0.1:1/", "steps": [{"action": "goto", "url": '
                              '"http://127.0.0.1:1/"}, {"action": "fill", "target": {"id": "p"}, '
                              '"value": "hunter2", "field": "password"}]}',
                              "a password must be a placeholder"),
}.items():
    def _flow_case(d: Path, text: str = _flow_text, expected: str = _expected):
        (d / "flow.json").write_text(text)
        return ["login", "replay", str(d / "flow.json")], 2, expected
    CASES[f"flow file: {_name}"] = _flow_case

for _name, _make in DAMAGED.items():
    CASES[f"crawl into a {_name} database"] = lambda d, m=_make: (
        ["crawl", job(d, database=str(m(d)))], 2, "crawl.db: not a SQLite database, or a damaged one")
    CASES[f"export a {_name} database"] = lambda d, m=_make: (
        ["export", str(m(d))], 2, "crawl.db: not a SQLite database, or a damaged one")
    if _name != "not UTF-8":  # stats reads no text column a damaged title is in
        CASES[f"stats of a {_name} database"] = lambda d, m=_make: (
            ["stats", "--json", str(m(d))], 2, "crawl.db: not a SQLite database, or a damaged one")
for _name, _make in FOREIGN.items():
    CASES[f"crawl into a {_name} database"] = lambda d, m=_make: (
        ["crawl", job(d, database=str(m(d)))], 2, "crawl.db: not a browsercrawl database")


def _made(folder: Path, make: Callable[[Path], None]) -> Path:
    path = folder / "crawl.db"
    make(path)
    return path


def snapshot(folder: Path) -> dict[str, str]:
    files = sorted(p for p in folder.iterdir() if p.is_file())
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_bad_input_is_one_line_and_touches_nothing(tmp_path, case):
    args, code, expected = CASES[case](tmp_path)
    before = snapshot(tmp_path)
    res = run(*args, cwd=tmp_path)
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == code, res.stderr
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("browsercrawl: error: "), res.stderr
    assert expected in res.stderr, res.stderr
    assert snapshot(tmp_path) == before  # no database changed, no file added beside it


def test_a_database_made_by_an_older_browsercrawl_is_still_ours(tmp_path):
    """Crawls started before the marker existed (schema_version, frontier, pages) still resume."""
    from browsercrawl.storage.db import CrawlDatabase, check_ours

    path = tmp_path / "old.db"
    browsercrawl_db(path)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'created_by'")
        conn.commit()
    check_ours(path)
    db = CrawlDatabase(path).open_sync()
    assert dict(db.read("SELECT key, value FROM meta"))["created_by"] == "browsercrawl"


def test_another_programs_database_is_refused_on_either_backend(tmp_path, crawl_db):
    """On SQLite and on PostgreSQL: tables without the marker are never written into."""
    if crawl_db.backend == "postgresql":
        from browsercrawl.storage.postgres import connect

        conn = connect(crawl_db.database)
    else:
        conn = sqlite3.connect(crawl_db.database)
    with closing(conn):
        conn.execute("CREATE TABLE pages (url TEXT PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO pages VALUES ('http://example.org/', 'their data')")
        conn.commit()
    res = run("crawl", job(tmp_path, database=str(crawl_db)), cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "not a browsercrawl database (tables pages but no created_by marker" in res.stderr
    assert crawl_db.rows("SELECT * FROM pages") == [("http://example.org/", "their data")]
    if crawl_db.backend == "sqlite":
        tables = crawl_db.rows("SELECT name FROM sqlite_master WHERE type='table'")
    else:
        tables = crawl_db.rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    assert [t[0] for t in tables] == ["pages"]  # no meta, frontier or links table added


def test_a_folder_given_as_the_database_is_one_line(tmp_path):
    (tmp_path / "crawl.db").mkdir()
    res = run("crawl", job(tmp_path), cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "crawl.db: is a folder, not a database file" in res.stderr
