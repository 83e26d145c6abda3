"""Search-form classification on labelled pages: tuned on one set, measured on pages it never saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from browsercrawl.errors import UserError
from browsercrawl.forms.classify import classify, query_field
from browsercrawl.forms.evaluate import score_folder
from browsercrawl.forms.extract import scan_page
from browsercrawl.forms.lexicon import lexicon

FIXTURES = Path(__file__).parent / "fixtures" / "forms"
EN = lexicon(["en"])


@pytest.mark.parametrize("folder", ["tune", "heldout"])
def test_search_forms_found_among_other_forms(folder: str) -> None:
    """Every page holds a search form among others; precision and recall of "search" are 1.0."""
    scores = score_folder(FIXTURES / folder)
    assert scores.pages == 8
    assert scores.tp == 8, scores.mistakes
    assert (scores.precision, scores.recall) == (1.0, 1.0), scores.mistakes


def test_held_out_pages_hold_every_other_kind() -> None:
    """The held-out pages are a real test: each non-search purpose occurs there."""
    scores = score_folder(FIXTURES / "heldout")
    truths = {t for t, _ in scores.confusion}
    assert {"login", "registration", "newsletter", "comment", "contact", "upload", "delete",
            "other"} <= truths
    assert scores.kinds_right >= scores.forms - 2, scores.mistakes


def _forms(html: str) -> list:
    return scan_page(html, "https://site.test/p", EN, terms=False).forms


def test_structure_wins_over_words() -> None:
    """A login form that says "search" is still a login; an upload that says "find" an upload."""
    login, upload = _forms(
        '<form action="/search-login" role="search"><input name="q" placeholder="Search">'
        '<input type="password" name="p"><button>Search</button></form>'
        '<form action="/find" method="post" enctype="multipart/form-data"><input name="q" type="search">'
        '<input type="file" name="f"><button>Find</button></form>'
    )
    assert classify(login, EN).kind == "login"
    assert classify(upload, EN).kind == "upload"


def test_destructive_button_is_a_delete_form() -> None:
    (form,) = _forms('<form method="post" action="/items/3">'
                     '<input type="hidden" name="_method" value="delete">'
                     '<button class="btn">Remove item</button></form>')
    assert classify(form, EN).kind == "delete"


def test_a_bare_text_box_with_no_cue_is_not_search() -> None:
    """A coupon or page-jump field is a text box too: without a cue it is never queried."""
    coupon, jump = _forms('<form action="/cart/coupon" method="post"><input name="coupon_code">'
                          '<button>Apply</button></form>'
                          '<form action="/t/5"><input name="page" size="3"><button>Jump</button></form>')
    assert classify(coupon, EN).kind == "other"
    assert classify(jump, EN).kind == "other"


def test_query_field_is_the_most_search_like() -> None:
    (form,) = _forms('<form action="/s"><input name="where" placeholder="City"><input name="q" type="search">'
                     '<button>Search</button></form>')
    qf = query_field(form, EN)
    assert qf is not None and qf.name == "q"


def test_form_less_box_in_header_is_read() -> None:
    forms = _forms('<header><div class="search"><input type="search" placeholder="Search docs">'
                   '<button>Go</button></div></header><main><input type="text" readonly value="x"></main>')
    assert len(forms) == 1 and forms[0].formless and forms[0].in_header
    assert classify(forms[0], EN).is_search


def test_unlabelled_form_is_a_fixture_error(tmp_path: Path) -> None:
    (tmp_path / "p.html").write_text('<html><body><form action="/x"><input name="q"></form></body></html>')
    with pytest.raises(UserError, match=r"p\.html: a <form> without data-truth"):
        score_folder(tmp_path)
