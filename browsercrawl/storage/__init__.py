"""SQLite storage: one file per crawl holding the frontier, pages, links and what later parts add."""
