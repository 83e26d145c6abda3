"""Cut a binary CAPTCHA into characters and normalise each one for a per-character classifier.

Works on binary images (ink 0, background 255). Boxes are ``(x0, y0, x1, y1)``, end-exclusive,
ordered left to right.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

Box = tuple[int, int, int, int]


def _ink(binary: np.ndarray) -> np.ndarray:
    return (binary < 128).astype(np.uint8)


def _trim_rows(ink: np.ndarray, x0: int, x1: int, min_ink: int = 1) -> Box | None:
    """Horizontal projection inside columns x0..x1: the rows holding ink give the box height."""
    rows = np.flatnonzero(ink[:, x0:x1].sum(axis=1) >= min_ink)
    if rows.size == 0:
        return None
    return (x0, int(rows[0]), x1, int(rows[-1]) + 1)


def by_projection(binary: np.ndarray, min_ink: int = 1, min_width: int = 2) -> list[Box]:
    """Vertical projection: runs of columns with ink are characters; then trim rows."""
    ink = _ink(binary)
    cols = ink.sum(axis=0) >= min_ink
    boxes, start = [], None
    for x, on in enumerate([*cols, False]):
        if on and start is None:
            start = x
        elif not on and start is not None:
            if x - start >= min_width:
                box = _trim_rows(ink, start, x)
                if box:
                    boxes.append(box)
            start = None
    return boxes


def by_components(binary: np.ndarray, min_area: int = 8) -> list[Box]:
    """Connected components; parts that overlap a bigger one in x by half (an i's dot) merge."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(_ink(binary), connectivity=8)
    boxes = [
        (int(s[0]), int(s[1]), int(s[0] + s[2]), int(s[1] + s[3]))
        for s in stats[1:]
        if s[cv2.CC_STAT_AREA] >= min_area
    ]
    boxes.sort()
    merged: list[Box] = []
    for b in boxes:
        if merged:
            m = merged[-1]
            overlap = min(m[2], b[2]) - max(m[0], b[0])
            if overlap >= 0.5 * min(m[2] - m[0], b[2] - b[0]):
                merged[-1] = (min(m[0], b[0]), min(m[1], b[1]), max(m[2], b[2]), max(m[3], b[3]))
                continue
        merged.append(b)
    return merged


def _split_box(ink: np.ndarray, box: Box, parts: int) -> list[Box]:
    """Split one box into ``parts`` pieces at the lowest-ink columns near the even cut points."""
    x0, _, x1, _ = box
    prof = ink[:, x0:x1].sum(axis=0)
    w = x1 - x0
    cuts = [x0]
    for i in range(1, parts):
        centre = round(w * i / parts)
        lo, hi = max(1, centre - w // (3 * parts)), min(w - 1, centre + w // (3 * parts) + 1)
        cuts.append(x0 + lo + int(np.argmin(prof[lo:hi])) if hi > lo else x0 + centre)
    cuts.append(x1)
    out = []
    for a, b in itertools.pairwise(cuts):
        t = _trim_rows(ink, a, max(b, a + 1))
        out.append(t or (a, box[1], max(b, a + 1), box[3]))
    return out


def fit_count(binary: np.ndarray, boxes: list[Box], expected: int) -> list[Box]:
    """Make ``expected`` boxes: split the widest (touching characters), merge/drop the smallest.

    Splitting uses the expected character width (total ink width / expected) to decide how many
    characters a wide box holds, then cuts at projection minima.
    """
    ink = _ink(binary)
    boxes = list(boxes)
    if not boxes or expected <= 0:
        return boxes
    areas = [int(ink[b[1] : b[3], b[0] : b[2]].sum()) for b in boxes]
    boxes = [b for b, a in zip(boxes, areas, strict=True) if a >= 0.15 * max(areas)] or boxes
    while len(boxes) < expected:
        total = sum(b[2] - b[0] for b in boxes)
        char_w = total / expected
        i = max(range(len(boxes)), key=lambda j: boxes[j][2] - boxes[j][0])
        width = boxes[i][2] - boxes[i][0]
        if width < 2:
            break
        parts = max(2, min(expected - len(boxes) + 1, round(width / char_w)))
        boxes[i : i + 1] = _split_box(ink, boxes[i], parts)
    while len(boxes) > expected:
        areas = [int(ink[b[1] : b[3], b[0] : b[2]].sum()) for b in boxes]
        i = int(np.argmin(areas))
        if areas[i] < 0.25 * np.median(areas):
            del boxes[i]
            continue
        # merge the narrowest adjacent pair
        j = min(range(len(boxes) - 1), key=lambda k: boxes[k + 1][2] - boxes[k][0])
        a, b = boxes[j], boxes[j + 1]
        boxes[j : j + 2] = [(a[0], min(a[1], b[1]), b[2], max(a[3], b[3]))]
    return boxes


def deskew(char: np.ndarray, max_angle: float = 20, step: float = 4) -> np.ndarray:
    """Rotate a binary character within +-max_angle to the angle giving its narrowest ink width."""
    ink = _ink(char) * 255
    h, w = ink.shape
    side = int(np.ceil(np.hypot(h, w))) + 2
    canvas = np.zeros((side, side), np.uint8)
    oy, ox = (side - h) // 2, (side - w) // 2
    canvas[oy : oy + h, ox : ox + w] = ink
    best, best_w = canvas, side + 1
    for angle in np.arange(-max_angle, max_angle + 0.1, step):
        m = cv2.getRotationMatrix2D((side / 2, side / 2), float(angle), 1.0)
        rot = cv2.warpAffine(canvas, m, (side, side), flags=cv2.INTER_NEAREST)
        cols = np.flatnonzero(rot.max(axis=0) > 0)
        width = cols[-1] - cols[0] + 1 if cols.size else side
        if width < best_w:
            best, best_w = rot, width
    ys, xs = np.nonzero(best)
    if ys.size == 0:
        return char
    crop = best[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return 255 - crop


def thin(binary: np.ndarray) -> np.ndarray:
    """Zhang-Suen thinning to a one-pixel skeleton (vectorised; characters are small)."""
    img = np.pad(_ink(binary), 1)
    changed = True
    while changed:
        changed = False
        for first in (True, False):
            p = [
                np.roll(np.roll(img, dy, 0), dx, 1)
                for dy, dx in ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1))
            ]  # P2..P9 clockwise from north
            b = sum(p)
            seq = [*p, p[0]]
            a = sum(((seq[i] == 0) & (seq[i + 1] == 1)).astype(np.uint8) for i in range(8))
            p2, p4, p6, p8 = p[0], p[2], p[4], p[6]
            if first:
                cond = (p2 * p4 * p6 == 0) & (p4 * p6 * p8 == 0)
            else:
                cond = (p2 * p4 * p8 == 0) & (p2 * p6 * p8 == 0)
            rm = (img == 1) & (b >= 2) & (b <= 6) & (a == 1) & cond
            if rm.any():
                img[rm] = 0
                changed = True
    return (255 - img[1:-1, 1:-1] * 255).astype(np.uint8)


def fixed_size(char: np.ndarray, size: int = 24) -> np.ndarray:
    """Pad to a square keeping the aspect ratio, then scale to ``size`` x ``size``."""
    h, w = char.shape
    side = max(h, w) + 2
    canvas = np.full((side, side), 255, np.uint8)
    canvas[(side - h) // 2 : (side - h) // 2 + h, (side - w) // 2 : (side - w) // 2 + w] = char
    return cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)


def normalise(char: np.ndarray, size: int = 24, do_deskew: bool = True, do_thin: bool = False) -> np.ndarray:
    """The full per-character normalisation: deskew, optional thinning, fixed size."""
    if do_deskew:
        char = deskew(char)
    if do_thin:
        char = thin(char)
    return fixed_size(char, size)


def segment(binary: np.ndarray, method: str, expected: int | None) -> list[Box]:
    """Boxes by ``projection`` or ``components``, fitted to ``expected`` characters if given."""
    boxes = by_projection(binary) if method == "projection" else by_components(binary)
    return fit_count(binary, boxes, expected) if expected else boxes
