#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: system packages only when missing, then the venv.
# Why here and nowhere else: CI runs on a clean clone, so every install step must live in this file.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
[ -e /usr/share/tesseract-ocr/5/tessdata/eng.traineddata ] || [ -e /usr/share/tesseract-ocr/4.00/tessdata/eng.traineddata ] || need+=(tesseract-ocr-eng)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
# PostgreSQL: the shared store of distributed crawls; the tests start throwaway clusters with it.
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv"
    "$PY" -m venv .venv
fi
# Reinstall only when a pyproject.toml changed since the last successful install.
stamp=.venv/.browsercrawl-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ demo/pyproject.toml -nt "$stamp" ]; then
    echo "setup: installing browsercrawl and its test dependencies into .venv"
    .venv/bin/pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
    # PyTorch trains the CAPTCHA network (the captcha-train extra). An exact version, installed
    # first: here it resolves to the CPU wheel the machine provides, where an open range would
    # fetch the newest CUDA build (gigabytes) from PyPI.
    .venv/bin/pip install -q 'torch==2.13.0' 2>&1 | grep -v "^WARNING: Location" || true
    .venv/bin/pip install -q -e '.[test,captcha-train]' 2>&1 | grep -v "^WARNING: Location" || true
    # The demo community site is a distribution of its own (the product never imports it).
    .venv/bin/pip install -q -e ./demo 2>&1 | grep -v "^WARNING: Location" || true
    .venv/bin/python -c "import browsercrawl, browsercrawl_demo, playwright, cv2, pytesseract, rbloom, torch, psycopg, redis, xdist"
    touch "$stamp"
fi
