"""Generated drills: an endless, seedable stream of fresh positions.

Kinds: ``tricks`` (who wins?), ``legal`` (which cards may you play?), ``bowers`` (put these
in order) and ``score`` (what does each side score?); the judgement drills ``bid``,
``declare``, ``exchange`` and ``defend`` and the rules drills ``table``, ``game`` and
``variants`` (:mod:`~pepper_tutor.teaching.drills.positions`). Positions lean toward the traps that
catch people: the left bower, no trump, off-suit aces, three-card tricks. Each question is a
lesson :class:`~pepper_tutor.teaching.questions.steps.Step`, so it gets the same feedback as
the lessons.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ...engine.calls import Defense, Trump
from ...engine.cards import DECK, Card, Rank, Suit
from ...engine.ranking import EFFECTIVE_SUIT, trump_code
from ...engine.rules import RuleSet, get_ruleset
from ...engine.seats import Seat
from ...files.runtime import can_start_threads
from ...rulebook.feedback import Feedback
from ..learner.attempts import Attempt
from ..learner.review_cards import missed_rules, question_rules
from ..learner.store import LearnerStore
from ..questions.steps import LegalPlaysStep, RankStep, ScoreStep, Step, TrickWinnerStep

if TYPE_CHECKING:
    from .screened import ScreenedPool

__all__ = ["QUIZ_KINDS", "JUDGEMENT_KINDS", "make_question", "QuizSession", "met_simple_scoring"]


def _trump(rng: random.Random, nt_share: float = 0.2) -> Trump:
    return Trump.NT if rng.random() < nt_share else Trump(rng.randrange(4))


def _left(trump: Trump) -> Card | None:
    return None if trump.suit is None else Card(Rank.JACK, trump.suit.sister)


def _prompt_trick(trump: Trump, trick: list[Card]) -> str:
    head = "No trump" if trump is Trump.NT else f"{trump.word.capitalize()} are trumps"
    alone = (" (three cards: the bidder plays alone, so the bidder's partner sits out)"
             if len(trick) == 3 else "")
    return f"{head}; {' '.join(c.display for c in trick)}{alone} — who wins?"


def tricks_question(rng: random.Random, n: int, rules: RuleSet, hard: bool = True) -> Step[Any]:
    trap = 1.0 if hard else 0.25
    trump = _trump(rng, 0.2 * trap)
    size = 3 if rng.random() < 0.3 * trap else 4
    pool = list(DECK)
    trick: list[Card] = []
    left = _left(trump)
    if left is not None and rng.random() < 0.45 * trap:
        trick.append(left)
    if rng.random() < 0.35 * trap:
        trick.append(Card(Rank.ACE, Suit(rng.randrange(4))))
    trick = list(dict.fromkeys(trick))
    rest = [c for c in pool if c not in trick]
    if trump is not Trump.NT and rng.random() < 0.5:
        # Lead a plain suit and let one or two others follow it: the usual shape of a trick.
        suit = rng.choice([s for s in Suit if s is not trump.suit])
        suits = EFFECTIVE_SUIT[trump_code(trump, rules.left_bower)]
        lead_pool = [c for c in rest if suits[c.index] == suit]
        trick.insert(0, rng.choice(lead_pool))
    rest = [c for c in pool if c not in trick]
    while len(trick) < size:
        trick.append(rest.pop(rng.randrange(len(rest))))
    if trick[0] is left and rng.random() < 0.5:
        trick.append(trick.pop(0))  # the left bower as a follower more often than a lead
    leader = Seat(rng.randrange(4))
    seats = list(leader.iter_from())
    if size == 3:
        seats.pop(rng.randrange(1, 4))  # the lone bidder's partner sits out
    return TrickWinnerStep(id=f"tricks-{n}", prompt=_prompt_trick(trump, trick), trump=trump,
                           trick=tuple(trick), seats=tuple(seats[:size]), rules=rules)


def legal_question(rng: random.Random, n: int, rules: RuleSet, hard: bool = True) -> Step[Any]:
    trap = 1.0 if hard else 0.25
    trump = _trump(rng, 0.15 * trap)
    left = _left(trump)
    deck = list(DECK)
    rng.shuffle(deck)
    hand = deck[:rng.choice((4, 5, 6))]
    if left is not None and left not in hand and rng.random() < 0.5 * trap:
        hand[0] = left
    others = [c for c in DECK if c not in hand]
    if left is not None and rng.random() < 0.6 * trap:
        # Lead a trump, or the left bower's printed suit: the two left-bower traps.
        wanted = trump.suit if rng.random() < 0.5 else left.suit
        others = [c for c in others if c.suit is wanted and c is not left] or others
    lead = rng.choice(others)
    head = "No trump" if trump is Trump.NT else f"{trump.word.capitalize()} are trumps"
    return LegalPlaysStep(id=f"legal-{n}", prompt=f"{head}; {lead.display} is led. Which of "
                          "your cards may you play?", trump=trump, trick=(lead,),
                          hand=tuple(hand), rules=rules)


def bowers_question(rng: random.Random, n: int, rules: RuleSet, hard: bool = True) -> Step[Any]:
    trump = _trump(rng, 0.1 if hard else 0.0)
    suits = EFFECTIVE_SUIT[trump_code(trump, rules.left_bower)]
    if trump is Trump.NT or rng.random() < 0.7:
        if trump is Trump.NT:
            suit = Suit(rng.randrange(4))
            pool = [c for c in DECK if c.suit is suit]
        else:
            pool = [c for c in DECK if suits[c.index] == trump]
        k = rng.randint(4, min(6, len(pool)))
        cards = rng.sample(pool, k)
        left = _left(trump) if rules.left_bower else None
        if left is not None and left not in cards and rng.random() < 0.7:
            cards[0] = left
    else:
        assert trump.suit is not None
        sister = trump.suit.sister  # with a left bower, it has lost its jack this hand
        pool = [c for c in DECK if suits[c.index] == sister]
        cards = rng.sample(pool, rng.randint(3, 5))
        # Its own jack, now a trump: the trap this question is about. Without a left bower
        # the jack stays in its suit (and may already be in the pool): no trap to set.
        left = _left(trump) if rules.left_bower else None
        if left is not None and rng.random() < 0.7:
            cards[0] = left
    head = "No trump" if trump is Trump.NT else f"{trump.word.capitalize()} are trumps"
    return RankStep(id=f"bowers-{n}", prompt=f"{head}. Put these in order, highest first.",
                    trump=trump, cards=tuple(cards), rules=rules)


def score_question(rng: random.Random, n: int, rules: RuleSet, hard: bool = True) -> Step[Any]:
    bid = rng.choice(rules.ladder)
    bidder = Seat(rng.randrange(rules.players))
    side = rules.side_of(bidder)
    others = [s for s in rules.sides if s != side]
    surrender = rules.has_surrender and rng.random() < 0.15
    if surrender:
        tricks = dict.fromkeys(rules.sides, 0)
    else:
        # Near the bid more often than not, and the sweep now and then.
        t = min(6, max(0, bid.tricks + rng.choice((-2, -1, -1, 0, 0, 1, 2))))
        if rng.random() < 0.15:
            t = 6
        # the other tricks among the other sides (one side in partnerships; each player
        # for themselves in cutthroat)
        tricks = {side: t, **dict.fromkeys(others, 0)}
        for _ in range(6 - t):
            tricks[rng.choice(others)] += 1
    what = "surrender" if surrender else f"the bidders take {tricks[side]}"
    if not rules.partnerships:
        what = ", ".join(f"{Seat('NESW'.index(s)).word} takes {tricks[s]}"
                         for s in (side, *others))
    who = "side" if rules.partnerships else "player"
    prompt = (f"{rules.title} scoring. {bidder.word} bids {bid.display}; {what}. "
              f"What does each {who} score?")
    return ScoreStep(id=f"score-{n}", prompt=prompt, bid=bid, bidder=bidder, tricks=tricks,
                     defense=Defense.SURRENDER if surrender else Defense.PLAY, rules=rules)


Generator = Callable[[random.Random, int, RuleSet, bool], Step[Any]]
RULE_QUESTIONS: dict[str, Generator] = {
    "tricks": tricks_question, "legal": legal_question, "bowers": bowers_question,
    "score": score_question}
# The drills of positions (drills/positions.py) load the analysis: they are imported when one
# is first asked for, so a rules drill (and a browser tab's first question) does not wait for
# them. tests/test_quiz.py checks these names against that module's.
JUDGEMENT_KINDS = ("bid", "declare", "exchange", "defend")
TABLE_KINDS = ("table", "game", "variants")
QUIZ_KINDS = (*RULE_QUESTIONS, *JUDGEMENT_KINDS, *TABLE_KINDS)


def generator(kind: str) -> Generator:
    """What makes the questions of drill ``kind``."""
    if kind in RULE_QUESTIONS:
        return RULE_QUESTIONS[kind]
    if kind not in QUIZ_KINDS:
        raise ValueError(f"no quiz {kind!r} (expected one of {', '.join(QUIZ_KINDS)})")
    from .positions import JUDGEMENT_DRILLS, RULES_DRILLS

    return {**JUDGEMENT_DRILLS, **RULES_DRILLS}[kind]


def make_question(kind: str, rng: random.Random, n: int = 1,
                  rules: RuleSet | None = None, hard: bool = True) -> Step[Any]:
    """One question. ``hard`` leans on the traps; easy questions are mostly plain."""
    return generator(kind)(rng, n, rules or get_ruleset("standard"), hard)


def _misses(step: Step[Any], feedback: Feedback | None, rules: Any) -> tuple[str, ...]:
    """The review cards a miss makes (:func:`~.screened.judged_misses`, which loads the
    analysis: only a judgement drill's miss needs it)."""
    if getattr(step, "kind", None) not in JUDGEMENT_KINDS:
        return tuple(rules)
    from .screened import judged_misses

    return judged_misses(step, feedback, rules)


def met_simple_scoring(store: LearnerStore) -> bool:
    """Simple scoring is met in the variants lesson; score drills use it only after that."""
    saved = store.lesson("variants")
    return saved is not None and bool(saved.done or saved.solved)


@dataclass
class QuizSession:
    """An endless drill with a running score and a streak. One answer per question counts;
    :meth:`reveal` shows the answer (counted as missed). With a ``store`` every answer is
    saved and a miss becomes a review card for the rule it missed. Score drills mix in simple
    scoring only when ``simple_met`` (the learner has met it in a lesson). Judgement drills
    deal the positions screened ahead of time first (:mod:`~pepper_tutor.teaching.drills.screened`),
    then live ones."""

    kind: str
    seed: int | None = None
    rules: RuleSet = field(default_factory=get_ruleset)
    asked: int = 0
    right: int = 0
    streak: int = 0
    best_streak: int = 0
    question: Step[Any] | None = None
    answered: bool = False
    hard: bool = True
    store: LearnerStore | None = None
    simple_met: bool = False
    seen: set[str] = field(default_factory=set)
    screened_first: bool = True  # False: every judgement position screened live (the bench)

    def __post_init__(self) -> None:
        generator(self.kind)  # an unknown kind is refused here
        self.rng = random.Random(self.seed)
        self._ahead: tuple[threading.Thread, dict[str, Step[Any]]] | None = None
        # Judgement drills deal positions screened ahead of time first (no waiting), then
        # live ones. Its own random stream: the live questions stay as the seed makes them.
        order = random.Random(None if self.seed is None else f"{self.seed}:screened")
        self.screened: ScreenedPool | None = None
        if self.screened_first and self.kind in JUDGEMENT_KINDS:
            from .screened import ScreenedPool

            self.screened = ScreenedPool.for_drill(self.kind, self.rules, order)
        self.next_question()

    def _rules_for_next(self) -> RuleSet:
        if (self.kind == "score" and self.simple_met and self.hard
                and self.rules.preset == "standard" and self.rng.random() < 0.25):
            return get_ruleset("simple")
        return self.rules

    def _make(self, n: int) -> Step[Any]:
        step = self.screened.draw(n) if self.screened is not None else None
        if step is not None:
            return step
        return make_question(self.kind, self.rng, n, self._rules_for_next(), self.hard)

    def prefetch(self) -> None:
        """Start making the next question while the learner thinks: a judgement drill with
        no screened position left is screened live by the analysis, which takes a moment.
        The questions come out the same. In a browser tab, which cannot start a thread, it
        does nothing: the next question is made when it is asked for."""
        if self._ahead is None and can_start_threads():
            box: dict[str, Step[Any]] = {}
            n = self.asked + 1
            thread = threading.Thread(target=lambda: box.setdefault("q", self._make(n)),
                                      daemon=True)
            thread.start()
            self._ahead = (thread, box)

    def next_question(self) -> Step[Any]:
        self.asked += 1
        self.answered = False
        ahead, self._ahead = self._ahead, None
        q: Step[Any] | None = None
        if ahead is not None:
            ahead[0].join()
            q = ahead[1].get("q")
        # A position already asked in this drill is drawn again (a few times at most: some
        # drills have few positions).
        for _ in range(30):
            if q is not None and q.identity not in self.seen:
                break
            q = self._make(self.asked)
        assert q is not None
        self.seen.add(q.identity)
        if self.store is not None:
            self.store.saw(q.identity, q.situation().key)
        self.question = q
        return q

    def _count(self, correct: bool, feedback: Feedback | None = None) -> None:
        assert self.question is not None
        self.answered = True
        if correct:
            self.right += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0
        if self.store is not None:
            q = self.question
            rules = (question_rules(q) if correct or feedback is None
                     else missed_rules(q, feedback))
            missed = () if correct else _misses(q, feedback, rules)
            self.store.record(Attempt("quiz", self.kind, correct, rules, missed=missed,
                                      origin=f"quiz {self.kind}"))

    def answer(self, raw: object) -> Feedback:
        """Judge the answer; a wrong one is shown with the right answer at once."""
        assert self.question is not None
        feedback = self.question.judge(raw)
        if not self.answered:
            self._count(feedback.correct, feedback)
        if not feedback.correct:
            feedback = replace(feedback, revealed=True)
        return feedback

    def reveal(self) -> Feedback:
        """The answer and why; an unanswered question counts as missed."""
        assert self.question is not None
        if not self.answered:
            self._count(False)
        return self.question.reveal()

    @property
    def score_text(self) -> str:
        done = self.asked - (0 if self.answered else 1)
        return f"{self.right}/{done} right · streak {self.streak} (best {self.best_streak})"
