#!/usr/bin/env bash
# Set up what is missing, then run the main job against the bundled demo community.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/browsercrawl demo "$@"
