#!/usr/bin/env bash
# Set up what is missing, then run the whole suite (browser tests included) and ruff.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/ruff check browsercrawl tests scripts demo
.venv/bin/lint-imports --no-cache
# Tests that take the crawl_db fixture (the ones that touch storage: the engine's crawls, resume
# after kill -9, export/stats, every part's tables) run on SQLite and again on PostgreSQL, whose
# throwaway server the tests start on loopback; the rest of the suite runs once.
export BROWSERCRAWL_TEST_BACKENDS=${BROWSERCRAWL_TEST_BACKENDS:-sqlite,postgresql}
# Most tests wait on Chromium and local servers rather than compute, so a few workers overlap those
# waits even on two cores; a test file stays on one worker (its module fixtures start once), and
# files go out in the order tests/conftest.py sets, the longest first. The 25 slowest tests are
# listed at the end: the suite must stay under 20 minutes.
exec .venv/bin/python -m pytest -q -ra --durations=25 -n "${BROWSERCRAWL_TEST_WORKERS:-3}" --dist loadfile \
    --no-loadscope-reorder "$@"
