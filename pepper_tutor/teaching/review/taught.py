"""Which house rules and presets a learner has met, and the line that introduces one.

A review question is dealt under the rules the learner has been taught: the standard game,
and each variant (``variant.*``) or preset (``preset.*``) once a lesson step that plays under
it or cites it has been reached. A question under another table's rules is asked only when
that table's rule is the very one being reviewed (the learner met it in a drill), and then
with a line that introduces it.
"""

from __future__ import annotations

from typing import Any

from ...rulebook.book import get_rule
from ...rulebook.feedback import sentences
from ..learner.review_cards import question_rules
from ..learner.store import LearnerStore
from ..lessons.files import Lesson, all_lessons
from ..questions.steps import Step

__all__ = ["table_rules", "met_rules", "known_rules", "untaught", "introduction"]

ALWAYS = frozenset({"preset.standard"})


def table_rules(step: Step[Any]) -> frozenset[str]:
    """The variant and preset rules a step is played under or cites."""
    ids = {*step.rules.rule_ids, *step.cited}
    return frozenset(r for r in ids if r.startswith(("variant.", "preset.")))


def _reached(lesson: Lesson, store: LearnerStore) -> list[Step[Any]]:
    saved = store.lesson(lesson.id)
    if saved is None:
        return []
    if saved.finished_runs or saved.finished:
        return list(lesson.steps)
    seen = set(saved.done) | set(saved.solved) | set(saved.queue[:saved.position + 1])
    return [s for s in lesson.steps if s.id in seen]


def met_rules(store: LearnerStore, lessons: list[Lesson] | None = None) -> frozenset[str]:
    """Every variant and preset rule of the lesson steps this learner has reached."""
    met = set(ALWAYS)
    for lesson in all_lessons() if lessons is None else lessons:
        for step in _reached(lesson, store):
            met |= table_rules(step)
    return frozenset(met)


def known_rules(store: LearnerStore, lessons: list[Lesson] | None = None) -> frozenset[str]:
    """Every rule this learner has been taught or asked: the rules cited by the lesson steps
    reached (explanations first of all), those the questions reached rest on, and those of
    their review cards (met in a drill). A review question should rest on these only, beside
    the rule it reviews. Empty for a learner who has begun no lesson."""
    known: set[str] = set()
    for lesson in all_lessons() if lessons is None else lessons:
        for step in _reached(lesson, store):
            known |= set(step.cited) | set(question_rules(step))
    if not known:
        return frozenset()  # no lesson begun: nothing says what was taught
    return frozenset(known | met_rules(store, lessons) | set(store.review_cards()))


def untaught(step: Step[Any], met: frozenset[str]) -> frozenset[str]:
    """The table rules ``step`` is played under that the learner has not met."""
    return frozenset(r for r in step.rules.rule_ids if r not in met and r not in ALWAYS)


def introduction(rules: frozenset[str]) -> str:
    """One line that introduces each rule: its title and its first sentence."""
    parts = []
    for rid in sorted(rules):
        rule = get_rule(rid)
        first = sentences(rule.text)
        parts.append(f"{rule.title}: {first[0] if first else rule.text}")
    return "New at this table: " + " ".join(parts)
