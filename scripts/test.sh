#!/usr/bin/env bash
# Set up what is missing, then run the whole suite (browser tests included) and ruff.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/ruff check browsercrawl tests scripts
exec .venv/bin/python -m pytest -q -ra "$@"
