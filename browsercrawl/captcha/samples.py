"""Labelled CAPTCHA folders: the training data format, and recording answers a site accepted.

A labelled folder holds images named ``<anything>_<label>.<png|jpg|jpeg|gif>``, or any image names
plus a ``labels.csv`` with columns ``file,label`` (the CSV wins when present). Every CAPTCHA a login
got past is such a sample, so :func:`record_verified_sample` writes it in the same form and the
site's model can be retrained on the crawl's own traffic.
"""

from __future__ import annotations

import csv
import re
import time
from pathlib import Path

from browsercrawl.errors import UserError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif")
LABELS_CSV = "labels.csv"
_SAFE_LABEL = re.compile(r"^[^/\\\x00_.]+$")


def _check_label(label: str, where: str) -> str:
    label = label.strip()
    if not label or not _SAFE_LABEL.match(label):
        raise UserError(f"{where}: bad label {label!r} (empty, or contains '_', '.', '/' or '\\')")
    return label


def record_verified_sample(folder: Path, image: bytes, label: str) -> Path:
    """Store an image whose answer the site accepted as ``<timestamp>_<label>.png``."""
    label = _check_label(label, str(folder))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S") + f"{time.time() % 1:.6f}"[1:].replace(".", "")
    path = folder / f"{stamp}_{label}.png"
    if not image.startswith(b"\x89PNG"):
        import io

        from PIL import Image

        with Image.open(io.BytesIO(image)) as im:
            buf = io.BytesIO()
            im.save(buf, "PNG")
            image = buf.getvalue()
    path.write_bytes(image)
    return path


def load_labelled_folder(directory: str | Path) -> list[tuple[Path, str]]:
    """All ``(image path, label)`` pairs of a folder, sorted by file name."""
    d = Path(directory)
    if not d.is_dir():
        raise UserError(f"{d}: not a directory of labelled CAPTCHA images")
    csv_path = d / LABELS_CSV
    out: list[tuple[Path, str]] = []
    if csv_path.exists():
        with csv_path.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            if not reader.fieldnames or not {"file", "label"} <= set(reader.fieldnames):
                raise UserError(f"{csv_path}: needs a header line with columns file,label")
            for n, row in enumerate(reader, start=2):
                where = f"{csv_path}:{n}"
                name = (row.get("file") or "").strip()
                p = d / name
                if not name or not p.is_file():
                    raise UserError(f"{where}: image {name!r} not found in {d}")
                label = (row.get("label") or "").strip()
                if not label:
                    raise UserError(f"{where}: empty label for {name}")
                out.append((p, label))
    else:
        for p in sorted(d.iterdir()):
            if p.suffix.lower() not in IMAGE_SUFFIXES:
                continue
            if "_" not in p.stem or not p.stem.rsplit("_", 1)[1]:
                raise UserError(f"{p}: no label in the name (expected <anything>_<label>{p.suffix})")
            out.append((p, p.stem.rsplit("_", 1)[1]))
    if not out:
        raise UserError(f"{d}: no labelled images (*_<label>.png/jpg/gif or labels.csv)")
    return sorted(out)


def unlabelled_folder(directory: str | Path) -> list[Path]:
    """Every image of a folder, labels or not (the images self-labelling reads)."""
    d = Path(directory)
    if not d.is_dir():
        raise UserError(f"{d}: not a directory of CAPTCHA images")
    found = [p for p in sorted(d.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES]
    if not found:
        raise UserError(f"{d}: no images (*.png/jpg/jpeg/gif)")
    return found


def unlabelled_images(directory: Path) -> list[Path]:
    """Images of a folder that ``labels.csv`` does not name yet (for ``captcha label``)."""
    d = Path(directory)
    done: set[str] = set()
    csv_path = d / LABELS_CSV
    if csv_path.exists():
        with csv_path.open(newline="", encoding="utf-8") as f:
            done = {row.get("file", "") for row in csv.DictReader(f)}
    return [p for p in sorted(d.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES and p.name not in done]


def append_label(directory: Path, file_name: str, label: str) -> None:
    """Add one row to the folder's ``labels.csv`` (created with its header if missing)."""
    csv_path = Path(directory) / LABELS_CSV
    new = not csv_path.exists()
    with csv_path.open("a", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        if new:
            w.writerow(["file", "label"])
        w.writerow([file_name, label])
