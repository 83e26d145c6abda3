"""Prints what ``browsercrawl demo`` found against what the demo site holds."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from browsercrawl_demo.focus_demo import report_rows as focus_rows
from browsercrawl_demo.search_demo import report_rows as search_rows
from browsercrawl_demo.search_forms_demo import report_rows as search_forms_rows
from browsercrawl_demo.shortcut_demo import report_rows as shortcut_rows
from browsercrawl_demo.traps_demo import report_rows as trap_rows


def _ratio(found: Any, expected: Any) -> str:
    return f"{found} / {expected}"


def print_report(report: dict[str, Any]) -> None:
    """One table: found / expected per kind of content, then logins and whether the site changed."""
    com, soc = report.get("community", {}), report.get("social", {})
    table = Table(title="browsercrawl demo: found / expected")
    table.add_column("what")
    table.add_column("result", justify="right")
    table.add_row("community pages crawled", f"{com.get('pages')} in {com.get('seconds')} s")
    table.add_row(
        "thread records (induced wrapper)", _ratio(com.get("threads_found"), com.get("threads_expected"))
    )
    table.add_row(
        "target-page precision / recall", f"{com.get('target_precision')} / {com.get('target_recall')}"
    )
    table.add_row("field-level F1", str(com.get("field_f1")))
    table.add_row("people", _ratio(soc.get("people_found"), soc.get("people_expected")))
    table.add_row("follow edges", _ratio(soc.get("edges_found"), soc.get("edges_expected")))
    table.add_row("edge precision / recall", f"{soc.get('edge_precision')} / {soc.get('edge_recall')}")
    dis = report.get("discover") or {}
    if dis:
        table.add_row(f"discovered job ({', '.join(dis.get('relations') or [])}): people",
                      _ratio(dis.get("people_found"), dis.get("people_expected")))
        table.add_row("discovered job: edge precision / recall",
                      f"{dis.get('edge_precision')} / {dis.get('edge_recall')}")
    for name, part in (("community", com), ("social", soc)):
        s = part.get("session") or {}
        table.add_row(
            f"{name}: logins / re-logins (CAPTCHA solved by the model)",
            f"{s.get('logins')} / {s.get('relogins')}",
        )
        table.add_row(f"{name}: login pages stored (must be 0)", str(part.get("login_pages_stored")))
    for row in search_forms_rows(report):
        table.add_row(*row)
    for row in shortcut_rows(report):
        table.add_row(*row)
    for row in focus_rows(report):
        table.add_row(*row)
    for row in trap_rows(report):
        table.add_row(*row)
    for row in search_rows(report):
        table.add_row(*row)
    cap = report.get("captcha_model") or {}
    table.add_row(
        f"CAPTCHA model ({cap.get('kind')}, {cap.get('samples')} samples, view {cap.get('view')}, "
        f"{cap.get('training_seconds')} s)",
        f"{cap.get('heldout_exact')} exact on {cap.get('heldout_images')} held-out images",
    )
    if cap.get("base_fitted_exact") is not None:
        table.add_row(
            "CAPTCHA base model with no labels: plain view / fitted to the site's images",
            f"{cap['base_plain_exact']} / {cap['base_fitted_exact']} ({cap['base_fitted_view']}; "
            f"{cap.get('base_fitted_weights', 'no character weights')}) exact on {cap.get('heldout_images')} "
            "held-out images",
        )
    if cap.get("self_trained_exact") is not None:
        table.add_row(
            f"CAPTCHA base self-trained on its {cap['self_trained_sure']} sure answers of "
            f"{cap['self_trained_images']} images, no labels ({cap['self_trained_seconds']} s)",
            f"{cap['self_trained_exact']} exact on {cap.get('heldout_images')} held-out images",
        )
    answered = sum((p.get("session") or {}).get("captchas_answered") or 0 for p in (com, soc))
    accepted = sum((p.get("session") or {}).get("captchas_accepted") or 0 for p in (com, soc))
    table.add_row("CAPTCHA answers the site accepted during the crawls", _ratio(accepted, answered))
    table.add_row("changes made to the site (must be 0)", str(report.get("site_mutations")))
    Console().print(table)
