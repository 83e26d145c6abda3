"""A person's fields: a wrapper learned from two persons' pages, the values taken from the site's JSON.

Relation lists usually describe each person (``display_name``, ``joined``...). Two persons whose
values are known that way, and whose pages were both opened, are the two samples the wrapper
learner (``browsercrawl/wrappers``) needs; it finds where each value sits on both pages. Only
rules the ``[social.fields]`` syntax can say (a CSS path, text or one attribute) are kept, and
each is checked on both pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from browsercrawl.wrappers import FieldRule, Wrapper, learn_wrapper, norm

_URLISH = ("/", "http://", "https://")


@dataclass
class LearnedFields:
    """``label -> "css"`` or ``"css@attr"``, an example value of each, and what was left out."""

    fields: dict[str, str] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def wanted_values(entry: dict[str, str], person_id: str) -> dict[str, str]:
    """The values of a list entry worth finding on the person's page: no URLs, nothing tiny, and
    not the person's id (the job has it already; where else it shows, a Follow button's data
    attribute say, is no field)."""
    out = {}
    for key, value in entry.items():
        text = norm(value)
        if len(text) >= 2 and not text.startswith(_URLISH) and text != person_id:
            out[key.replace(".", "_")] = text
    return out


def learn_person_fields(samples: tuple[str, str], values: tuple[dict[str, str], dict[str, str]],
                        names: tuple[str, str]) -> LearnedFields:
    """Learn where each value is on two persons' pages; keep the rules exact on both."""
    result = LearnedFields()
    learned = learn_wrapper(samples, values, names=names)
    for rule in learned.wrapper.rules:
        if rule.many or rule.regex or getattr(rule, "column", None):
            result.notes.append(f"field {rule.label!r}: needs a regex (it sits inside other text) or a "
                                "label column, which [social.fields] cannot say; left out")
            continue
        # [social.fields] run in the browser (querySelector): lxml-only selectors cannot be used
        css = next((c for c in [rule.css, *getattr(rule, "alternates", [])] if ":contains(" not in c), None)
        if css is None:
            result.notes.append(f"field {rule.label!r}: found only by its label's text (:contains), "
                                "which a browser selector cannot say; left out")
            continue
        rule = FieldRule(rule.label, rule.part, css)
        one = Wrapper([rule])
        got = [one.apply(s).get(rule.label) for s in samples]
        want = [values[0].get(rule.label), values[1].get(rule.label)]
        if any(w is not None and g != w for g, w in zip(got, want, strict=True)):
            result.notes.append(f"field {rule.label!r}: the learned path is not exact on both persons; "
                                "left out")
            continue
        result.fields[rule.label] = rule.css if rule.part == "text" else f"{rule.css}@{rule.part}"
        result.examples[rule.label] = str(got[0] or got[1] or "")
    for warning in learned.warnings:
        if "not found on either" in warning:
            result.notes.append(warning)
    return result
