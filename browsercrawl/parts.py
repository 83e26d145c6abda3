"""The registry of optional parts, in the order their hooks run on every page.

A part is switched on by its section in the job file. Order matters: the session checks a page is
logged in before anything reads it; AJAX expansion runs before the parts that extract from the
expanded page; social traversal's link filter wins over induction's when both are on, and both win over the
focused crawl's (which then never sees a link: do not combine them). To add a
part, add its ``PART`` here (see docs/architecture.md).
"""

from __future__ import annotations

from browsercrawl.ajax.part import PART as AJAX
from browsercrawl.engine.parts import PartSpec
from browsercrawl.focus.part import PART as FOCUS
from browsercrawl.forms.part import PART as SEARCH_FORMS
from browsercrawl.induction.part import PART as INDUCTION
from browsercrawl.session.part import PART as SESSION
from browsercrawl.social.part import PART as SOCIAL

REGISTRY: tuple[PartSpec, ...] = (SESSION, AJAX, SOCIAL, INDUCTION, SEARCH_FORMS, FOCUS)
