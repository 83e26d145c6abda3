"""Page shapes met on real pages (rustdoc's API pages): ``<wbr>``, breadcrumbs of any depth, a
"label" that a redesign moves away from the value."""

from __future__ import annotations

from pathlib import Path

from browsercrawl.wrappers import Wrapper, learn_wrapper, parse_html
from browsercrawl.wrappers.heal import HealingWrapper


def test_wbr_and_other_html5_void_elements_are_empty_nodes() -> None:
    root = parse_html(
        "<html><body><div><a>std</a>::<wbr><a>io</a></div><p>x<wbr/>y<source src=a></p></body></html>"
    )
    div = root.find(".//div")
    assert [c.tag for c in div] == ["a", "wbr", "a"] and div[1].text is None
    assert root.find(".//p").text_content() == "xy"


def page(crumbs: list[str], name: str, skip: bool = True, wrap: bool = False) -> str:
    links = "::<wbr>".join(f"<a href='#'>{c}</a>" for c in crumbs)
    skip_link = "<a class='skip' href='#main'>Skip to main content</a>" if skip else ""
    top = f"<header><h2><a href='#'>{name}</a></h2></header>"
    body = f"{skip_link}{top}" if not wrap else f"<div>{skip_link}</div><div>{top}</div>"
    return (
        f"<html><body>{body}<section id='main-content'><div class='crumbs'>{links}</div>"
        f"<h1>Struct <span class='struct'>{name}</span></h1></section></body></html>"
    )


def test_the_last_breadcrumb_is_learned_as_the_last_one_whatever_the_depth() -> None:
    samples = [page(["std", "io"], "Error"), page(["std", "fs"], "File")]
    others = [page(["std", "str", "pattern"], "CharSearcher"), page(["std", "ptr"], "NonNull")]
    others += [page(["std", "collections", "hash_map"], "HashMap"), page(["std", "cell"], "Cell")]
    values = [{"module": "io"}, {"module": "fs"}]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    assert ":last-of-type" in wrapper.rules[0].css
    assert wrapper.apply(page(["std", "os", "unix", "net"], "UnixStream")) == {"module": "net"}


def test_a_field_whose_label_a_redesign_moved_away_is_still_relocated_once() -> None:
    """The skip link stood before the field's node; wrapped in divs it no longer does."""
    samples = [page(["std", "io"], "Error"), page(["std", "fs"], "File")]
    others = [page(["std", "ptr"], "NonNull"), page(["std", "cell"], "Cell"), page(["std", "rc"], "Rc")]
    values = [{"name": "Error"}, {"name": "File"}]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()))
    assert healer.apply(page(["std", "env"], "Args", wrap=True)) == {"name": "Args"}
    assert healer.apply(page(["std", "env"], "Vars", wrap=True)) == {"name": "Vars"}
    assert len(healer.repairs) <= 1


def test_rustdoc_pages_take_their_truth_from_the_file_path(tmp_path: Path) -> None:
    from scripts.bench import rustdoc_pages, wrapper_score

    root = tmp_path / "std"
    for i in range(wrapper_score.N_PAGES + 5):
        folder = root / ("io" if i % 2 else "fs")
        folder.mkdir(parents=True, exist_ok=True)
        kind = "struct" if i % 3 else "fn"
        (folder / f"{kind}.Item{i}.html").write_text(page(["std", folder.name], f"Item{i}"))
    (root / "io" / "struct.Stub.html").write_text("<meta http-equiv='refresh' content='0;URL=x'>")
    pages, truth = rustdoc_pages.load_pages(root, 1)
    assert len(pages) == wrapper_score.N_PAGES
    assert all(
        t["kind"] in ("Struct", "Function") and t["name"] in p for p, t in zip(pages, truth, strict=True)
    )
    assert all(t["name"] != "Stub" for t in truth)


def test_a_kind_two_samples_guessed_and_the_unseen_pages_deny_is_not_kept_for_healing() -> None:
    """ "Error", "File" look like names; "expf128" on other pages does not: healing must not ask
    the relocated value to be a capitalised name (it would move to a "Sections" heading)."""
    samples = [page(["std", "io"], "Error"), page(["std", "fs"], "File")]
    others = [page(["std", "f128"], f"expf{n}") for n in (128, 64, 32)] + [page(["std", "rc"], "Rc")]
    values = [{"name": "Error"}, {"name": "File"}]
    wrapper = learn_wrapper(samples, values, cluster_pages=others).wrapper
    assert wrapper.rules[0].fingerprint["kind"] is None
    healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()))
    assert healer.apply(page(["std", "f16"], "powf16", wrap=True)) == {"name": "powf16"}
