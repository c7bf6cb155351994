"""Review that brings mistakes back: spaced repetition with FSRS, one card per rule.

Every missed lesson step and quiz question makes (or lapses) a review card keyed by the rule it
tests; the `fsrs <https://pypi.org/project/fsrs/>`_ scheduler says when each card is due. A
review never repeats the cards that were missed: it asks a **fresh position** made by the quiz
generators, drawing questions from every quiz kind until one tests the same rule (so a new quiz
kind counts as soon as it exists). A rule that no generator reaches comes back as the lesson
step where it was missed. A judgement missed (a judgement drill's question, a decision at the
practice table) is carded by its kind and theme
(:func:`~pepper_tutor.teaching.learner.review_cards.judgement_key`) and comes back as a fresh
position of that kind and theme: a screened drill position not asked before, else one dealt
live. The progress view that reads the same cards is
:mod:`pepper_tutor.teaching.learner.progress`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Container
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ...engine.rules import RuleSet, get_ruleset
from ...rulebook.feedback import Feedback
from ..drills.quiz import JUDGEMENT_KINDS, QUIZ_KINDS, make_question
from ..drills.screened import ScreenedPool, step_theme
from ..learner.attempts import Attempt
from ..learner.review_cards import ReviewDeck, ReviewItem, question_rules, read_judgement
from ..learner.store import LearnerStore
from ..questions.choice_steps import ChoiceStep
from ..questions.steps import Step
from .respell import SWAPS, respell
from .taught import introduction, known_rules, met_rules, untaught

__all__ = ["ReviewSession", "fresh_question", "REVIEW_KINDS"]

# The kinds a review draws its fresh positions from: the rules drills. A judgement drill
# tests judgement, not one rule, and takes seconds to deal (the analysis screens it), so a
# review never waits for one; a rule only they reach comes back as its lesson step.
REVIEW_KINDS = tuple(k for k in QUIZ_KINDS if k not in JUDGEMENT_KINDS)


def fresh_question(rule: str, rng: random.Random, rules: RuleSet | None = None,
                   n: int = 1, avoid: Container[str] = (), budget_s: float = 2.0,
                   met: frozenset[str] | None = None,
                   known: frozenset[str] | None = None) -> Step[Any] | None:
    """A new position that tests ``rule``: questions are drawn from the :data:`REVIEW_KINDS`
    until one tests it (each kind gets a share of ``budget_s``). ``avoid``: identities and
    situation keys of questions not to repeat. ``met``: the table rules the learner has met
    (:func:`~.taught.met_rules`); a question under another table's rules is dealt only when
    that rule is the one reviewed (``None``: any table). ``known``: every rule the learner
    has been taught (:func:`~.taught.known_rules`); a question resting on nothing else but
    the reviewed rule is preferred, and one that rests on an untaught rule is returned only
    when no kind can make the first within the budget."""
    taught, other = _fresh(rule, rng, rules, n, avoid, budget_s, met, known)
    return taught or other


def _fresh(rule: str, rng: random.Random, rules: RuleSet | None, n: int,
           avoid: Container[str], budget_s: float, met: frozenset[str] | None,
           known: frozenset[str] | None) -> tuple[Step[Any] | None, Step[Any] | None]:
    """(a question resting only on ``known`` rules besides ``rule``, or None; the first one
    found that rests on another, or None)."""
    ruleset = rules or get_ruleset("standard")
    kinds = list(REVIEW_KINDS)
    rng.shuffle(kinds)
    # Kinds already seen to ask this rule first (learnt as questions are dealt), so a review
    # does not deal hundreds of questions of a kind that never asks it.
    kinds.sort(key=lambda k: rule not in _ASKS.get(k, ()))
    share = budget_s / max(1, len(kinds))
    other: Step[Any] | None = None  # asks the rule, but rests on one not yet taught
    for kind in kinds:
        stop = time.monotonic() + share
        for _ in range(200):
            q = make_question(kind, rng, n, ruleset, True)
            tested = question_rules(q)
            _ASKS.setdefault(kind, set()).update(tested)
            if (rule in tested and not _asked(q, avoid)
                    and (met is None or untaught(q, met) <= {rule})):
                if known is None or set(tested) - {rule} <= known:
                    return q, None
                other = other or q
            if time.monotonic() > stop:
                break
    return None, other


_ASKS: dict[str, set[str]] = {}  # quiz kind -> the rules its questions have been seen to test


def _asked(q: Step[Any], avoid: Container[str]) -> bool:
    """True when ``q``, or its cards, are among ``avoid`` (a question that shows no cards,
    such as who deals next, is known by its identity alone)."""
    key = q.situation().key
    return q.identity in avoid or (bool(key) and key in avoid)


def _respelt(step: Step[Any], rng: random.Random, avoid: Container[str]) -> Step[Any] | None:
    """The lesson step in other suits (:mod:`.respell`), cards not in ``avoid``."""
    swaps = list(SWAPS)
    rng.shuffle(swaps)
    for swap in swaps:
        new = respell(step, swap)
        if new is not None and not _asked(new, avoid):
            return new
    return None


def _lesson_step(origin: str) -> Step[Any] | None:
    """The lesson step a card came from (``lesson LESSON/STEP``), for rules no quiz reaches."""
    if not origin.startswith("lesson "):
        return None
    lesson_id, _, step_id = origin[len("lesson "):].partition("/")
    from ..lessons.files import find_lesson

    try:
        return find_lesson(lesson_id).step(step_id)
    except (KeyError, ValueError, LookupError):
        return None


class _Seen:
    """The positions a review passes over: those asked in this review, and every position
    this learner has been shown (:meth:`LearnerStore.has_seen`)."""

    def __init__(self, store: LearnerStore, asked: list[str]):
        self.store = store
        self.asked = asked

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and (key in self.asked or self.store.has_seen(key))


@dataclass
class _Ask:
    """One question of a review and the due cards its first answer rates (two rules missed
    on one lesson step come back as that step once, not twice)."""

    question: Step[Any]
    items: list[ReviewItem]
    fresh: bool  # a drill's position or the step dealt again, not the step itself
    seen_before: bool  # shown to this learner before (in a drill, a lesson, a review)
    intro: str | None


def _fits(q: Step[Any], item: ReviewItem) -> bool:
    """Whether ``q`` can review ``item``: it tests the rule, and a table's rule (a variant
    or a preset) is reviewed only at a table that plays it: a "Dirty clubs" card is never
    asked at a table without dirty clubs."""
    if read_judgement(item.rule, item.origin) is not None:
        return True  # a judgement card: any position of its kind and theme
    if item.rule.startswith(("variant.", "preset.")) and item.rule not in q.rules.rule_ids:
        return False
    return item.rule in question_rules(q) or item.rule in q.cited


@dataclass
class ReviewSession:
    """The reviews due now, one question each, all chosen when the review opens (so its
    count never changes under the learner). The first answer to a question rates its cards;
    later tries are judged but change nothing."""

    store: LearnerStore
    seed: int | None = None
    at: datetime | None = None
    items: list[ReviewItem] = field(default_factory=list)
    index: int = 0
    right: int = 0
    question: Step[Any] | None = None
    fresh: bool = True  # False when the question is the lesson step itself
    answered: bool = False
    seen: list[str] = field(default_factory=list)  # identities and positions asked
    intro: str | None = None  # the line introducing a table rule the learner has not met
    budget_s: float = 2.0  # how long a drill may look for a fresh position of one rule

    def __post_init__(self) -> None:
        self.deck = ReviewDeck(self.store)
        self.rng = random.Random(self.seed)
        self.met = met_rules(self.store)
        self.known = known_rules(self.store) or None
        self.pools: dict[str, ScreenedPool | None] = {}
        self.avoid = _Seen(self.store, self.seen)
        self.asks = self._prepare(self.deck.due(self.at))
        # Cards nothing can ask now (no drill found a new position in its time budget and
        # the card came from no lesson step that still exists) stay due for the next
        # session and are not counted in this one.
        self.items = [a.items[0] for a in self.asks]
        self._show()

    def _prepare(self, due: list[ReviewItem]) -> list[_Ask]:
        asks: list[_Ask] = []
        for item in due:
            n = len(asks) + 1
            q = self._new_position(item, n)
            fresh = q is not None
            if q is None:
                # Nothing new can be made (a step with no cards to deal again): the step
                # as it was, once, rating every card missed on it.
                q = _lesson_step(item.origin)
                same = next((a for a in asks if q is not None and not a.fresh
                             and a.question.identity == q.identity), None)
                if same is not None:
                    same.items.append(item)
                    continue
            if q is None or not q.answerable:
                continue
            intro = None
            new = untaught(q, self.met)
            if new:  # a rule of another table, met in a drill: say what it is
                intro = introduction(new)
                q = replace(q, prompt=f"{intro}\n{q.prompt or q.default_prompt}")
            key = q.situation().key or q.identity
            seen_before = self.store.has_seen(q.identity) or self.store.has_seen(key)
            self.seen += [q.identity, key]
            asks.append(_Ask(q, [item], fresh, seen_before, intro))
        return asks

    def _new_position(self, item: ReviewItem, n: int = 1) -> Step[Any] | None:
        """A fresh question for ``item``: a drill's new position for its rule; for a rule no
        drill reaches, the lesson step it was missed on, dealt again: a screened position
        of the same judgement, or the step in other suits. ``None``: nothing new to ask.
        A drill deals under the rules of the step the card was missed on, so a card from a
        house-rule step is asked at that table."""
        judged = read_judgement(item.rule, item.origin)
        if judged is not None:
            return self._judgement(*judged, n)
        step = _lesson_step(item.origin)
        q, untaught_too = _fresh(item.rule, self.rng, step.rules if step else None, n,
                                 self.avoid, self.budget_s, self.met, self.known)
        if q is not None and _fits(q, item):
            return q
        if untaught_too is not None and not _fits(untaught_too, item):
            untaught_too = None
        # No drill asks this rule on taught rules alone: the lesson step it was missed on,
        # dealt again, rests on what its lesson taught; a drill's question comes after that.
        if step is None or not step.answerable:
            return untaught_too
        if step.kind in JUDGEMENT_KINDS:
            key = f"{step.kind}|{step.rules}"
            if key not in self.pools:
                self.pools[key] = ScreenedPool.for_drill(step.kind, step.rules, self.rng)
            pool = self.pools[key]
            # a position that tests the rule missed, at a table the learner plays
            drawn = None if pool is None else pool.draw_where(n, lambda q: (
                not _asked(q, self.avoid) and _fits(q, item)
                and not untaught(q, self.met) - {item.rule}))
            if drawn is not None:
                return drawn
        return _respelt(step, self.rng, self.avoid) or untaught_too

    def _judgement(self, kind: str, theme: str | None, n: int) -> Step[Any] | None:
        """A fresh position of a judgement drill, of this theme (any, for ``None``): a
        screened one not asked before, else one dealt live within the time budget."""
        key = f"{kind}:{theme}"
        rules = get_ruleset("standard")
        if key not in self.pools:
            self.pools[key] = ScreenedPool.for_drill(kind, rules, self.rng, theme)
        pool = self.pools[key]
        while pool is not None:
            drawn = pool.draw(n)
            if drawn is None:
                break
            if not _asked(drawn, self.avoid):
                return drawn
        stop = time.monotonic() + self.budget_s
        while time.monotonic() < stop:
            live = make_question(kind, self.rng, n, rules, True)
            if not _asked(live, self.avoid) and (
                    theme is None or (isinstance(live, ChoiceStep)
                                      and step_theme(live) == theme)):
                return live
        return None

    @property
    def finished(self) -> bool:
        return self.index >= len(self.items)

    @property
    def item(self) -> ReviewItem | None:
        return None if self.finished else self.items[self.index]

    @property
    def current(self) -> _Ask | None:
        return None if self.finished else self.asks[self.index]

    def _show(self) -> None:
        self.answered = False
        ask = self.current
        self.question = None if ask is None else ask.question
        self.fresh = ask is not None and ask.fresh
        self.intro = None if ask is None else ask.intro
        if ask is not None:
            self.store.saw(ask.question.identity, ask.question.situation().key)

    @property
    def where(self) -> str:
        """What the question is, in the learner's words: a new position only when this
        learner has never been shown it."""
        ask = self.current
        if ask is None:
            return ""
        if not ask.fresh:
            return "the step you missed"
        return "a position you have seen before" if ask.seen_before else "a new position"

    @property
    def header(self) -> str:
        """The line above a review question: how far the review is and what the question
        is. It never names the rule under test: that would answer the question."""
        return f"{self.score_text} · {self.where}"

    def answer(self, raw: Any) -> Feedback:
        q, item = self.question, self.item
        if q is None or item is None:
            raise ValueError("no review is due")
        feedback = q.judge(raw)
        if not self.answered:
            self.answered = True
            self.right += feedback.correct
            self._rate(q, feedback.correct)
        if not feedback.correct:
            feedback = replace(feedback, revealed=True)
        return feedback

    def reveal(self) -> Feedback:
        """Show the answer: counted as not known."""
        q, item = self.question, self.item
        if q is None or item is None:
            raise ValueError("no review is due")
        if not self.answered:
            self.answered = True
            self._rate(q, False)
        return q.reveal()

    def _rate(self, q: Step[Any], correct: bool) -> None:
        """The first answer rates every card the question reviews."""
        ask = self.current
        assert ask is not None
        for i, item in enumerate(ask.items):
            self.store.record(Attempt("review", item.rule, correct, question_rules(q),
                                      counts=i == 0, reviewed=item.rule, at=self.at))

    def next(self) -> None:
        if not self.finished:
            self.index += 1
            self._show()

    @property
    def score_text(self) -> str:
        done = self.index + (1 if self.answered and not self.finished else 0)
        return f"review {min(self.index + 1, len(self.items))} of {len(self.items)} · " \
               f"{self.right}/{done} right"


