"""Self-healing wrappers: fingerprints in the file, fields found again after a redesign."""

from __future__ import annotations

import json
import logging

import pytest

from browsercrawl.wrappers import Wrapper, learn_wrapper
from browsercrawl.wrappers.dom import page_of
from browsercrawl.wrappers.heal import HealingWrapper, broken, heal_page
from scripts.bench.wrapper_score import CLUSTER, SCORED, value_recall
from scripts.bench.wrapper_sites import CHANGES, TUNING, change_markup, generate_site, sample_values


@pytest.fixture(scope="module")
def shop():
    site = generate_site(next(s for s in TUNING if s.name == "catalog"), 80, 5)
    pair = (0, 1)
    result = learn_wrapper(
        [site.pages[i] for i in pair],
        [sample_values(site.truth[i]) for i in pair],
        cluster_pages=[site.pages[i] for i in CLUSTER],
    )
    return site, result.wrapper


def test_fingerprints_are_saved_and_read_back(shop, tmp_path):
    _, wrapper = shop
    path = tmp_path / "w.json"
    wrapper.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "browsercrawl-wrapper/1"
    fp = data["fields"]["isbn#text"]["fingerprint"]
    assert fp["kind"] == "isbn" and fp["tag"] and fp["path"]
    again = Wrapper.load(path)
    assert [r.fingerprint for r in again.rules] == [r.fingerprint for r in wrapper.rules]


def test_old_wrapper_files_without_fingerprints_still_work(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "browsercrawl-wrapper/1", "fields": {"t#text": "h1"}}))
    w = Wrapper.load(path)
    assert w.apply("<html><body><h1>Hi</h1></body></html>") == {"t": "Hi"}
    healer = HealingWrapper(w)  # nothing to heal with, but applying still works
    assert healer.apply("<html><body><h2>Hi</h2></body></html>") == {"t": None}
    assert healer.repairs == []


@pytest.mark.parametrize("kind", CHANGES)
def test_fields_are_found_again_after_each_kind_of_redesign(shop, kind):
    site, wrapper = shop
    truth = [site.truth[i] for i in SCORED]
    changed = [change_markup(site.pages[i], kind, 5) for i in SCORED]
    healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()))
    healed = [healer.apply(h) for h in changed]
    assert value_recall(healed, truth) >= 0.95
    for repair in healer.repairs:  # the old path is kept as an alternate
        rule = next(r for r in healer.wrapper.rules if r.label == repair.label)
        assert repair.old_css in rule.alternates


def test_a_tag_change_moves_every_item_of_a_repeated_field():
    def page(tag: str, authors: list[str], isbn: str) -> str:
        items = "".join(f"<{tag} class='a'>{a}</{tag}>" for a in authors)
        return f"<html><body><h1>Book</h1><div class='by'>{items}</div><p>ISBN {isbn}</p></body></html>"

    samples = [
        page("span", ["Jane Doe", "Li Wei"], "9780140449136"),
        page("span", ["John Roe"], "9780140455113"),
    ]
    values = [{"authors": ["Jane Doe", "Li Wei"]}, {"authors": ["John Roe"]}]
    wrapper = learn_wrapper(samples, values).wrapper
    redesigned = page("em", ["Ann Lee", "Bo Chen", "Cy Dunn"], "9780679783275")
    assert wrapper.apply(redesigned) == {"authors": []}
    healer = HealingWrapper(wrapper)
    assert healer.apply(redesigned) == {"authors": ["Ann Lee", "Bo Chen", "Cy Dunn"]}
    assert len(healer.repairs) == 1


def spec_page(rows: list[tuple[str, str]]) -> str:
    cells = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return f"<html><body><h1>Book</h1><dl>{cells}</dl></body></html>"


def test_an_absent_optional_field_is_not_healed_onto_another_fields_node():
    samples = [
        spec_page([("Edition", "2nd edition"), ("Publisher", "Tor")]),
        spec_page([("Edition", "Revised"), ("Publisher", "Vintage")]),
    ]
    values = [{"edition": "2nd edition", "publisher": "Tor"}, {"edition": "Revised", "publisher": "Vintage"}]
    wrapper = learn_wrapper(samples, values).wrapper
    page = page_of(spec_page([("Publisher", "Orbit")]))
    assert broken(next(r for r in wrapper.rules if r.label == "edition"), page)
    assert heal_page(wrapper, page) == []
    assert wrapper.apply(spec_page([("Publisher", "Orbit")])) == {"edition": None, "publisher": "Orbit"}


def test_repairs_are_logged_and_reported(shop, caplog):
    site, wrapper = shop
    seen = []
    healer = HealingWrapper(Wrapper.from_json(wrapper.to_json()), seen.append)
    with caplog.at_level(logging.INFO, logger="browsercrawl.wrappers.heal"):
        healer.apply(change_markup(site.pages[SCORED[0]], "classes_renamed"), base_url="http://shop.test/b/1")
    assert seen and seen == healer.repairs
    assert any("healed" in r.message and "http://shop.test/b/1" in r.message for r in caplog.records)


def test_a_field_learned_in_a_hidden_tab_is_relocated_among_hidden_nodes():
    """Nothing visible holds the details: after a redesign they are found in the hidden panel."""
    from browsercrawl.wrappers import learn_wrapper

    def page(fmt: str, sku: str, edition: str | None = None, cls: str = "k") -> str:
        rows = [("Publisher", "Tor")] + ([("Edition", edition)] if edition else [])
        rows += [("Format", fmt), ("Product ID", sku)]
        table = "".join(f"<tr><td class='{cls}'>{k}</td><td class='{cls}v'>{v}</td></tr>" for k, v in rows)
        return f"<html><body><h1>T</h1><div role='tabpanel' hidden><table>{table}</table></div></body></html>"

    samples = [page("Hardcover", "BK-101"), page("Paperback", "BK-102")]
    others = [
        page("Paperback", "BK-203", "2nd"),
        page("Hardcover", "BK-204"),
        page("Paperback", "BK-205", "3rd"),
    ]
    values = [{"binding": "Hardcover", "sku": "BK-101"}, {"binding": "Paperback", "sku": "BK-102"}]
    healer = HealingWrapper(learn_wrapper(samples, values, cluster_pages=others).wrapper)
    assert healer.apply(page("Paperback", "BK-306", "2nd", cls="x1")) == {
        "binding": "Paperback",
        "sku": "BK-306",
    }
    assert healer.repairs


BINDINGS = ("Hardcover", "Paperback", "Board Book")


def _specs_page(i: int, reordered: bool = False) -> str:
    """Unlabelled small specs (language, binding, pages); the binding's only "label" is the
    language item before it, and a redesign moves the page count between them."""
    binding = BINDINGS[i % 3]
    items = ["English", binding, f"{100 + 7 * i} pages"]
    if reordered:
        items = [items[0], items[2], items[1]]
    lis = "".join(f"<li><span>{x}</span></li>" for x in items)
    return f"<html><body><h1>Book {i}</h1><ul class='specs'>{lis}</ul><p>No. {i:05d}</p></body></html>"


def test_a_field_whose_path_now_finds_a_value_of_another_kind_is_relocated():
    """After the reorder the old path still finds something ("121 pages"), but not a name like
    the binding it learned: the field is healed although its path is not empty."""
    values = [{"binding": BINDINGS[1]}, {"binding": BINDINGS[2]}]
    unseen = [_specs_page(i) for i in range(3, 12)]
    result = learn_wrapper([_specs_page(1), _specs_page(2)], values, cluster_pages=unseen)
    healer = HealingWrapper(Wrapper.from_json(result.wrapper.to_json()))
    for i in range(12, 18):
        assert healer.apply(_specs_page(i, reordered=True))["binding"] == BINDINGS[i % 3]
    assert healer.repairs
