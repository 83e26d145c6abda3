"""``browsercrawl stats`` of a focused crawl: targets and harvest rate over time, per site."""

from __future__ import annotations

from typing import Any

STEPS = 10  # harvest rate after each tenth of a site's fetched pages


def focus_stats(reader: Any) -> dict[str, Any] | None:
    """Per site: pages, targets, harvest rate, and the harvest rate after each tenth of its pages
    (targets so far / pages so far, in fetch order), which shows whether the crawl stayed on topic."""
    try:
        if "focus_pages" not in reader.tables():
            return None
        rows = reader.execute(
            "SELECT host, kind, seq, example_round FROM focus_pages ORDER BY host, seq").fetchall()
    except Exception:  # a database of another shape has no focus figures
        return None
    if not rows:
        return None
    by_host: dict[str, list[tuple[str, int | None]]] = {}
    for host, kind, _seq, example_round in rows:
        by_host.setdefault(host, []).append((kind, example_round))
    sites = {}
    for host, pages in by_host.items():
        n = len(pages)
        flags = [k == "target" for k, _ in pages]
        over_time = []
        for step in range(1, STEPS + 1):
            upto = max(1, round(n * step / STEPS))
            over_time.append(round(sum(flags[:upto]) / upto, 3))
        sites[host] = {"pages": n, "targets": sum(flags), "harvest_rate": round(sum(flags) / n, 3),
                       "harvest_rate_by_tenth": over_time,
                       "examples_added": sum(1 for _, r in pages if r)}
    total = sum(s["pages"] for s in sites.values())
    targets = sum(s["targets"] for s in sites.values())
    return {"focus": {"pages": total, "targets": targets,
                      "harvest_rate": round(targets / total, 3) if total else 0.0, "sites": sites}}
