"""The kinds of lesson step, each checked by the engine.

A step states a situation (a trick, a hand, an auction); the engine computes the right
answer wherever the rules decide it (rank, trick winner, legal plays, the card that wins,
the score). Judgement steps (bid, declare, exchange, defend) live in :mod:`choice_steps`.
:meth:`Step.judge` turns any answer into :class:`~pepper_tutor.rulebook.feedback.Feedback` that
quotes the rulebook.

Quizzes build the same steps from random positions, so they get the same feedback.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from ...engine.calls import Bid, Defense, Trump
from ...engine.cards import DECK, Card, Rank, cards_display
from ...engine.ranking import (
    EFFECTIVE_SUIT,
    TRICK_RANK,
    bower,
    legal_plays,
    trick_winner,
    trump_code,
)
from ...engine.rules import RuleSet, get_ruleset
from ...engine.scoring import score_hand
from ...engine.seats import Seat
from ...rulebook.book import get_rule, rule_tag
from ...rulebook.feedback import ANSWER_PREFIX, AnswerError, Feedback
from ...rulebook.tricks import (
    check_play,
    check_trick_winner,
    explain_trick,
    not_a_bower,
    why_higher,
)
from .answer_free import AnswerForms, answer_free_message, free_of
from .answers import (
    card_example,
    check_length,
    example_points,
    norm,
    read_cards,
    read_choice,
    read_score,
    wants_any,
)
from .situation import Situation

__all__ = ["Step", "AnswerT", "Why", "WhyWrong", "Option", "ExplainStep", "RankStep",
           "TrickWinnerStep", "LegalPlaysStep", "PlayStep", "ScoreStep", "GameStep", "PLAY_ON"]


@dataclass(frozen=True)
class Option:
    """Something a learner can pick: a card, a call, a trump, a choice."""

    value: Any
    label: str
    is_card: bool = False


def _cards_words(cards: Sequence[Card]) -> str:
    return cards_display(cards)


AnswerT = TypeVar("AnswerT")
Why = tuple[tuple[str, ...], tuple[str, ...]]  # the facts, and the rule ids they rest on
WhyWrong = tuple[tuple[str, ...], tuple[str, ...], str | None]  # ... and what follows


@dataclass
class Step(Generic[AnswerT]):
    """One decision, generic in the value of its answer (a card, a set of cards, a call, a
    score...). Subclasses set :attr:`kind` and implement the answer and the judging."""

    kind: ClassVar[str] = ""
    # the panel's heading in a learner's words ("Who wins the trick?"); kind is a file key
    title: ClassVar[str] = ""
    # how a lesson file writes this kind of step: its own fields, the ones it must have,
    # and the question asked when the file gives no prompt
    lesson_fields: ClassVar[tuple[str, ...]] = ()
    lesson_required: ClassVar[tuple[str, ...]] = ()
    default_prompt: ClassVar[str] = ""
    # what an answer looks like, for front ends that offer it to click: one of the options
    # ("choice"), the cards in order ("order"), a set of the cards ("set"), or a number for
    # each side ("sides"); :attr:`input_shape` adds a typed line where nothing is offered
    answer_shape: ClassVar[str] = "choice"
    id: str
    prompt: str = ""
    hint: str | None = None
    note: str | None = None  # the author's words after a right answer
    cite: tuple[str, ...] = ()
    wrong: dict[str, str] = field(default_factory=dict)  # canonical answer text -> note
    rules: RuleSet = field(default_factory=lambda: get_ruleset("standard"))
    line: int = 0

    # ---- what subclasses provide ---------------------------------------------------------

    @property
    def answerable(self) -> bool:
        return True

    def parse(self, raw: Any) -> AnswerT:
        """A learner's raw answer (text, a card, a list) as this step's answer value."""
        raise NotImplementedError

    def key(self, answer: AnswerT) -> str:
        """Canonical text of an answer: how ``wrong`` notes are looked up."""
        return str(answer)

    def is_right(self, answer: AnswerT) -> bool:
        raise NotImplementedError

    def answer_text(self) -> str:
        raise NotImplementedError

    def explain_wrong(self, answer: AnswerT) -> WhyWrong:
        """Facts, rule ids and an optional consequence for a wrong answer."""
        raise NotImplementedError

    def explain_right(self, answer: AnswerT | None) -> Why:
        return (), ()

    def default_cite(self) -> tuple[str, ...]:
        return ()

    def tested_rules(self) -> tuple[str, ...]:
        """Every rule a wrong answer's explanation can name (beyond those cited): a miss
        filed under one of them comes back as this question."""
        return ()

    def nudge(self) -> str:
        return "Look again at the rule for this situation."

    def options(self) -> list[Option]:
        """What a front end offers to click."""
        return []

    @property
    def input_shape(self) -> str:
        """How a front end takes the answer: :attr:`answer_shape`, or "text" (a typed line,
        read by :meth:`parse` as the terminal reads it) where a choice step offers nothing to
        click, so that no step can be answered only by showing the answer."""
        if self.answer_shape == "choice" and not self.options():
            return "text"
        return self.answer_shape

    def example_options(self) -> list[Option]:
        """The choices an example of what to type may name."""
        return [o for o in self.options() if not o.is_card]

    def example(self) -> str:
        """One example of what to type, shown under the question (never the answer itself)."""
        options = self.example_options()
        if not options:
            return ""

        def right(value: Any) -> bool:
            try:
                return self.is_right(value)
            except (ValueError, TypeError):
                return False

        # judged by the engine, not by the words: "♣ clubs" is the answer "clubs"; and a
        # wrong choice whose words hold the answer's ("exchange and play alone" where
        # "alone" is right) is no example either
        forms = self.answer_forms()
        shown = next((o.label for o in options
                      if not right(o.value) and not forms.named_in(o.label)), None)
        if shown is None:
            return "Type one of the choices as shown"
        return f"Type one of the choices as shown, such as: {shown}"

    def read_option(self, raw: Any) -> Any | None:
        """The option ``raw`` names (typed as shown, any case or spacing), else ``None``."""
        return read_choice(raw, [(o.value, o.label) for o in self.options() if not o.is_card])

    @property
    def has_analysis(self) -> bool:
        """True for judgement steps, whose hint ladder has a "what would the analysis do?"
        rung before the answer."""
        return False

    def analysis_hint(self) -> str:
        return ""

    def problems(self) -> list[str]:
        """Where the author's claims and the engine disagree (for ``lesson --check``)."""
        return []

    def situation(self) -> Situation:
        """The facts the question shows: trump, cards, hand, auction... (for renderers)."""
        return Situation()

    # ---- shared behaviour ------------------------------------------------------------------

    @property
    def identity(self) -> str:
        """The question's identity: its kind, its prompt and the position it shows (what a
        drill or a review checks to avoid asking the same question twice)."""
        return f"{self.kind}|{self.prompt}|{self.situation().key}"

    @property
    def cited(self) -> tuple[str, ...]:
        return self.cite or self.default_cite()

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The rules this question tests: those it cites and those its right answer rests
        on. Review uses them to find fresh positions for the same rule."""
        try:
            right = self.explain_right(None)[1] if self.answerable else ()
        except (ValueError, IndexError):
            right = ()
        return tuple(dict.fromkeys((*self.cited, *right, *self.tested_rules())))

    def hints(self) -> list[str]:
        """The hint ladder: a nudge, then the rule, then the answer."""
        # the rule's text only: its title could name the answer (ids in the rule ids view)
        rules = "\n".join(rule_tag(rid) + get_rule(rid).text for rid in self.cited)
        return [self.hint or self.nudge(), rules or "No rule is needed here.",
                f"{ANSWER_PREFIX}{self.answer_text()}"]

    def answer_reason(self) -> str | None:
        """Why the right answer is right, in a sentence or two (shown with a reveal)."""
        facts, _ = self.explain_right(None)
        return " ".join(facts) or None

    def reason_after(self, answer: AnswerT) -> str | None:
        """Why the right answer is right, shown when it is revealed after ``answer``: what
        the wrong answer's facts have not said already (steps whose verdict names the right
        answer and its reason say nothing more)."""
        return self.answer_reason()

    def read(self, raw: Any) -> AnswerT:
        """:meth:`parse`, with a message for an answer it cannot read that never names this
        step's answer: a reader's example ("such as J♦", "or -4 3") is made without knowing
        the question, so one that happens to be the answer is taken out."""
        check_length(raw)  # before any reader: pasted pages are refused at once
        try:
            return self.parse(raw)
        except AnswerError as err:
            # one line, what was typed quoted as a learner reads it ("'NS lose'", not with
            # the two spaces typed), and no example that is the answer
            told = " ".join(str(err).split())
            said = answer_free_message(told, self.answer_forms())
            if said == str(err):
                raise
            raise AnswerError(said) from None

    def judge(self, raw: Any) -> Feedback:
        """Check an answer. Raises :class:`AnswerError` only if it cannot be read at all."""
        answer = self.read(raw)
        if self.is_right(answer):
            facts, rule_ids = self.explain_right(answer)
            return Feedback(True, "Right.", facts, rule_ids, None, self.note,
                            self.answer_text())
        facts, rule_ids, consequence = self.explain_wrong(answer)
        return Feedback(False, "Not quite.", facts, rule_ids, consequence,
                        self.wrong.get(self.key(answer)), self.answer_text(),
                        answer_reason=self.reason_after(answer))

    # ---- the first miss: what is wrong, without the answer ----------------------------------

    def answer_forms(self) -> AnswerForms:
        """What the right answer is made of (cards, seats, words): what a first miss must
        not name."""
        return AnswerForms(words=(self.answer_text(),))

    def miss_facts(self, answer: AnswerT) -> tuple[str, ...]:
        """What is wrong with ``answer``, said before the answer is given; sentences that
        would name the answer are dropped after (:meth:`first_miss`)."""
        return self.explain_wrong(answer)[0]

    def miss_question(self, answer: AnswerT) -> str | None:
        """The question a first miss leaves the learner with ("something beats the ace of
        trumps: which card?"), where the step has one."""
        return None

    def first_miss(self, raw: Any) -> Feedback:
        """The panel after a first wrong answer: what is wrong with it and a nudge toward
        the rule, with nothing that names the answer (the second miss, or Show answer, gives
        it). A right answer is judged as usual."""
        answer = self.read(raw)
        if self.is_right(answer):
            return self.judge(raw)
        forms = self.answer_forms()
        rule_ids = self.explain_wrong(answer)[1]
        # the author's note for this answer says it best, as in the full verdict
        said = (free_of(forms, (self.wrong.get(self.key(answer)),))
                or free_of(forms, self.miss_facts(answer)))
        said += free_of(forms, (self.miss_question(answer),))
        nudge = (free_of(forms, (self.hint,)) or free_of(forms, (self.nudge(),))
                 or ("Look again at the rule for this situation.",))
        # the rules the answer broke, as the full verdict names them (what a miss records);
        # one whose own text names the answer is named, not quoted, until it is given
        held = tuple(r for r in rule_ids if forms.named_in(get_rule(r).text, roles=False))
        return Feedback(False, "Not quite.", (*said, *nudge), rule_ids, held_back=held)

    def reveal(self) -> Feedback:
        facts, rule_ids = self.explain_right(None)
        # The reason is the point of a reveal; the author's note is for a right answer.
        return Feedback(False, f"{ANSWER_PREFIX}{self.answer_text()}", facts,
                        rule_ids or self.cited, None, None, self.answer_text(),
                        revealed=True)


def _parse_card_list(raw: Any, step: Step[Any], among: Sequence[Card],
                     bower_names: bool = True) -> list[Card]:
    """Cards as the learner names them, bare ranks and bowers read against ``among`` (the
    cards the step shows) and the step's trumps. Where ranking the cards is the question,
    "the left bower" would answer it for the learner: ``bower_names=False`` asks for the
    card."""
    trump = getattr(step, "trump", None)
    return read_cards(raw, among, trump if isinstance(trump, Trump) else None,
                      step.rules.left_bower, bower_names)


def _parse_card(raw: Any, step: Step[Any], among: Sequence[Card],
                bower_names: bool = True) -> Card:
    cards = _parse_card_list(raw, step, among, bower_names)
    if len(cards) != 1:
        raise AnswerError("answer with one card, such as JD or J♦")
    return cards[0]


# a seat named where the question shows no seats ("south", "my partner")
_SEAT_WORDS = frozenset({*(s.word.lower() for s in Seat), *(s.name.lower() for s in Seat),
                         "partner", "my partner", "me", "i", "you", "the leader"})


def _bower_words(card: Card, trump: Trump, rules: RuleSet) -> tuple[str, ...]:
    """"the left bower" names the card as surely as J♦ does."""
    which = bower(card, trump, rules.left_bower)
    return (f"{which} bower",) if which else ()


def _trump_words(trump: Trump) -> str:
    return "No trump" if trump is Trump.NT else f"{trump.word.capitalize()} are trumps"


# ---- explain -----------------------------------------------------------------------------


@dataclass
class ExplainStep(Step[None]):
    kind: ClassVar[str] = "explain"
    title: ClassVar[str] = "Read this"
    lesson_fields: ClassVar[tuple[str, ...]] = ("text", "cards", "trump")
    lesson_required: ClassVar[tuple[str, ...]] = ("text",)
    text: str = ""
    cards: tuple[Card, ...] = ()
    trump: Trump | None = None

    @property
    def answerable(self) -> bool:
        return False

    def answer_text(self) -> str:
        return ""

    def situation(self) -> Situation:
        return Situation(trump=self.trump, cards=self.cards)

    def problems(self) -> list[str]:
        return [] if self.text.strip() else ["an explain step needs text"]


# ---- rank ----------------------------------------------------------------------------------


@dataclass
class RankStep(Step[list[Card]]):
    kind: ClassVar[str] = "rank"
    title: ClassVar[str] = "Order the cards"
    lesson_fields: ClassVar[tuple[str, ...]] = ("trump", "cards", "answer")
    lesson_required: ClassVar[tuple[str, ...]] = ("trump", "cards")
    default_prompt: ClassVar[str] = "Put these cards in order, highest first."
    answer_shape: ClassVar[str] = "order"
    trump: Trump = Trump.H
    cards: tuple[Card, ...] = ()

    def order(self) -> list[Card]:
        t = self.trump
        code = trump_code(t, self.rules.left_bower)
        suits, ranks = EFFECTIVE_SUIT[code], TRICK_RANK[code]
        return sorted(self.cards, key=lambda c: (suits[c.index] != t, -ranks[c.index]))

    def problems(self) -> list[str]:
        out = []
        if len(self.cards) < 2 or len(set(self.cards)) != len(self.cards):
            out.append("a rank step needs two or more different cards")
        table = EFFECTIVE_SUIT[trump_code(self.trump, self.rules.left_bower)]
        suits = {table[c.index] for c in self.cards}
        plain = suits - {int(self.trump)}
        if len(plain) > 1:
            out.append("the cards must be of one suit, or trumps and one other suit; cards of "
                       "two plain suits have no order")
        return out

    def parse(self, raw: Any) -> list[Card]:
        cards = _parse_card_list(raw, self, self.cards, bower_names=False)
        if sorted(c.index for c in cards) != sorted(c.index for c in self.cards):
            raise AnswerError(f"put all of these cards in order, each once: "
                              f"{_cards_words(self.cards)}")
        return cards

    def key(self, answer: list[Card]) -> str:
        return " ".join(str(c) for c in answer)

    def is_right(self, answer: list[Card]) -> bool:
        return list(answer) == self.order()

    def answer_text(self) -> str:
        return _cards_words(self.order())

    def answer_forms(self) -> AnswerForms:
        # the answer is an order of the cards shown: two of them in one sentence are a part
        return AnswerForms(cards=frozenset(self.cards), relation=True)

    def miss_facts(self, answer: list[Card]) -> tuple[str, ...]:
        truth = self.order()
        place = next(i for i, (a, b) in enumerate(zip(answer, truth, strict=True)) if a is not b)
        where = ("the highest" if place == 0 else "the lowest" if place == len(truth) - 1
                 else f"number {place + 1} from the top")
        misread = not_a_bower(answer[place], self.trump, self.rules.left_bower)
        return (f"The {answer[place].display} is not {where} of these cards.",
                *((misread,) if misread else ()))

    def explain_wrong(self, answer: list[Card]) -> WhyWrong:
        truth = self.order()
        for mine, right in zip(answer, truth, strict=True):
            if mine is not right:
                fact, rule = why_higher(right, mine, self.trump, self.rules.left_bower)
                # a jack put among the bowers: the misreading to name, not only the order
                misread = not_a_bower(mine, self.trump, self.rules.left_bower)
                if misread and bower(right, self.trump, self.rules.left_bower):
                    return (misread,), ("rank.left-bower" if self.rules.left_bower
                                        else "rank.right-bower",), None
                return ((f"You put the {mine.display} above the {right.display}. " + fact,),
                        (rule,), None)
        return (), (), None

    def explain_right(self, answer: list[Card] | None) -> Why:
        lefts = [c for c in self.cards if bower(c, self.trump, self.rules.left_bower) == "left"]
        if lefts:
            fact, rule = why_higher(lefts[0], self.order()[-1], self.trump, self.rules.left_bower)
            return (fact,), (rule,)
        return (), ()

    def tested_rules(self) -> tuple[str, ...]:
        # the order rests on every pair of its cards, and a jack read as a bower is named
        truth = self.order()
        ids = [why_higher(high, low, self.trump, self.rules.left_bower)[1]
               for i, high in enumerate(truth) for low in truth[i + 1:]]
        if any(bower(c, self.trump, self.rules.left_bower) for c in self.cards):
            ids.append("rank.left-bower" if self.rules.left_bower else "rank.right-bower")
        return tuple(dict.fromkeys(ids))

    def default_cite(self) -> tuple[str, ...]:
        if self.trump is Trump.NT:
            return ("rank.no-trump",)
        ids = []
        table = EFFECTIVE_SUIT[trump_code(self.trump, self.rules.left_bower)]
        if any(table[c.index] == self.trump for c in self.cards):
            ids.append("rank.trump")
        if any(bower(c, self.trump, self.rules.left_bower) == "left" for c in self.cards):
            ids.append("rank.left-bower")
        if any(table[c.index] != self.trump for c in self.cards):
            ids.append("rank.plain")
        return tuple(ids)

    def nudge(self) -> str:
        if self.trump is Trump.NT:
            return "In no trump there are no bowers: what is the order within a suit?"
        if not self.rules.left_bower:
            return (f"{_trump_words(self.trump)}, and this table has no left bower. Find the "
                    "jack of trumps first: where does it go?")
        return (f"{_trump_words(self.trump)}. Find the two jacks of that colour first: "
                "where do they go?")

    def options(self) -> list[Option]:
        return [Option(c, c.display, True) for c in self.cards]

    def example(self) -> str:
        return (f"Type all {len(self.cards)} cards, highest first, separated by spaces "
                f"(a card is typed like {card_example(self.cards)})")

    def situation(self) -> Situation:
        return Situation(trump=self.trump, cards=self.cards)


# ---- trick winner --------------------------------------------------------------------------


@dataclass
class TrickWinnerStep(Step[Card]):
    kind: ClassVar[str] = "trick-winner"
    title: ClassVar[str] = "Who wins the trick?"
    lesson_fields: ClassVar[tuple[str, ...]] = ("trump", "trick", "seats", "answer")
    lesson_required: ClassVar[tuple[str, ...]] = ("trump", "trick")
    default_prompt: ClassVar[str] = "Which card wins this trick?"
    trump: Trump = Trump.H
    trick: tuple[Card, ...] = ()
    seats: tuple[Seat, ...] = ()

    def winner(self) -> Card:
        return self.trick[trick_winner(self.trick, self.trump, self.rules.left_bower)]

    def problems(self) -> list[str]:
        if not 2 <= len(self.trick) <= 4 or len(set(self.trick)) != len(self.trick):
            return ["a trick-winner step needs two to four different cards"]
        return []

    def parse(self, raw: Any) -> Card:
        if isinstance(raw, int) and not isinstance(raw, bool):
            if 1 <= raw <= len(self.trick):
                return self.trick[raw - 1]
            raise AnswerError(f"there are {len(self.trick)} cards in this trick")
        if self.seats and isinstance(raw, str):
            seat = read_choice(raw, [(i, s.word) for i, s in enumerate(self.seats)]
                               + [(i, str(s)) for i, s in enumerate(self.seats)])
            if seat is not None:
                return self.trick[int(seat)]
        if not self.seats and isinstance(raw, str) and norm(raw) in _SEAT_WORDS:
            raise AnswerError("this trick does not say who played which card: name the "
                              f"card, such as {card_example(self.trick)}")
        card = _parse_card(raw, self, self.trick, bower_names=False)
        if card not in self.trick:
            raise AnswerError(f"the {card.display} is not in this trick: "
                              f"{_cards_words(self.trick)}")
        return card

    def is_right(self, answer: Card) -> bool:
        return answer is self.winner()

    def answer_text(self) -> str:
        return f"the {self.winner().display} wins"

    def answer_forms(self) -> AnswerForms:
        win = self.trick.index(self.winner())
        return AnswerForms(cards=frozenset({self.winner()}),
                           seats=frozenset({self.seats[win]}) if self.seats else frozenset(),
                           roles=_bower_words(self.winner(), self.trump, self.rules))

    def miss_facts(self, answer: Card) -> tuple[str, ...]:
        return ()  # the engine's verdict names the card that wins: the question instead

    def miss_question(self, answer: Card) -> str | None:
        trump_ace = answer.rank is Rank.ACE and int(answer.suit) == int(self.trump)
        beaten = "the ace of trumps" if trump_ace else f"the {answer.display}"
        return f"Something in this trick beats {beaten}: which card?"

    def _seats(self) -> Sequence[Seat] | None:
        return self.seats or None

    def explain_wrong(self, answer: Card) -> WhyWrong:
        verdict = check_trick_winner(self.trick, self.trump, self.trick.index(answer),
                                     self._seats(), self.rules.left_bower)
        return verdict.facts, verdict.rule_ids, None

    def explain_right(self, answer: Card | None) -> Why:
        why = explain_trick(self.trick, self.trump, self._seats(), self.rules.left_bower)
        return why.facts, (why.rule_id,)

    def reason_after(self, answer: Card) -> str | None:
        # the verdict on a wrong card already says which card wins and why
        return None

    def default_cite(self) -> tuple[str, ...]:
        deciding = explain_trick(self.trick, self.trump,
                                 left_bower=self.rules.left_bower).rule_id
        return tuple(dict.fromkeys((deciding, "play.trick-winner")))

    def nudge(self) -> str:
        if self.trump is Trump.NT:
            return "No trump: only cards of the suit led can win."
        return f"{_trump_words(self.trump)}. Was a trump played? Remember the jacks."

    def options(self) -> list[Option]:
        return [Option(c, c.display, True) for c in self.trick]

    def example(self) -> str:
        return f"Type the winning card, such as {card_example(self.trick)}" + (
            ", or the seat that played it" if self.seats else "")

    def situation(self) -> Situation:
        return Situation(trump=self.trump, trick=self.trick, seats=self.seats)


# ---- legal plays ---------------------------------------------------------------------------


@dataclass
class LegalPlaysStep(Step[frozenset[Card]]):
    kind: ClassVar[str] = "legal-plays"
    title: ClassVar[str] = "Which cards may you play?"
    lesson_fields: ClassVar[tuple[str, ...]] = ("trump", "trick", "hand", "answer")
    lesson_required: ClassVar[tuple[str, ...]] = ("trump", "trick", "hand")
    default_prompt: ClassVar[str] = "Which of your cards may you play to this trick?"
    answer_shape: ClassVar[str] = "set"
    trump: Trump = Trump.H
    trick: tuple[Card, ...] = ()  # cards already played, the lead first
    hand: tuple[Card, ...] = ()

    def legal(self) -> list[Card]:
        return legal_plays(self.hand, self.trick[0] if self.trick else None, self.trump,
                           self.rules.left_bower)

    def problems(self) -> list[str]:
        out = []
        if not self.hand or len(set(self.hand)) != len(self.hand):
            out.append("a legal-plays step needs a hand of different cards")
        if set(self.hand) & set(self.trick):
            out.append("a card is both in the hand and in the trick")
        if not self.trick:
            out.append("a legal-plays step needs the trick so far (at least the lead)")
        return out

    def parse(self, raw: Any) -> frozenset[Card]:
        if wants_any(raw):
            return frozenset(self.hand)
        cards = _parse_card_list(raw, self, self.hand)
        strangers = [c for c in cards if c not in self.hand]
        if strangers:
            raise AnswerError(f"the {strangers[0].display} is not in your hand: "
                              f"{_cards_words(self.hand)}")
        if not cards:
            raise AnswerError("pick at least one card: some card can always be played")
        return frozenset(cards)

    def key(self, answer: frozenset[Card]) -> str:
        return " ".join(str(c) for c in sorted(answer, key=lambda c: c.index))

    def is_right(self, answer: frozenset[Card]) -> bool:
        return set(answer) == set(self.legal())

    def answer_text(self) -> str:
        legal = self.legal()
        return ("any card" if len(legal) == len(self.hand) else _cards_words(legal))

    def answer_forms(self) -> AnswerForms:
        legal = self.legal()
        return AnswerForms(cards=frozenset(legal),
                           words=("any card",) if len(legal) == len(self.hand) else ())

    def miss_facts(self, answer: frozenset[Card]) -> tuple[str, ...]:
        legal = set(self.legal())
        wrongly_in = [c for c in self.hand if c in answer and c not in legal]
        left_out = [c for c in self.hand if c in legal and c not in answer]
        return ((f"The {_cards_words(wrongly_in)} may not be played.",) if wrongly_in else ()) + (
            ("You left out a card that may be played.",) if left_out else ()) + (
            self.explain_wrong(answer)[0])

    def explain_wrong(self, answer: frozenset[Card]) -> WhyWrong:
        legal = set(self.legal())
        facts: list[str] = []
        rules: list[str] = []
        lead = self.trick[0]
        wrongly_in = [c for c in self.hand if c in answer and c not in legal]
        left_out = [c for c in self.hand if c in legal and c not in answer]
        if wrongly_in:
            v = check_play(self.hand, lead, self.trump, wrongly_in[0],
                           left_bower=self.rules.left_bower)
            facts.append(f"The {_cards_words(wrongly_in)} may not be played. " + v.facts[0])
            rules += list(v.rule_ids)
        if left_out:
            v = check_play(self.hand, lead, self.trump, left_out[0],
                           left_bower=self.rules.left_bower)
            why = v.facts[0]
            if wrongly_in:  # the first sentence already said what was led
                facts.append(f"The {_cards_words(left_out)} may be played too.")
            else:
                facts.append(f"The {_cards_words(left_out)} may be played too: "
                             + why[0].lower() + why[1:])
            rules += [r for r in v.rule_ids if r not in rules]
        return tuple(facts), tuple(rules), None

    def explain_right(self, answer: frozenset[Card] | None) -> Why:
        legal = self.legal()
        v = check_play(self.hand, self.trick[0], self.trump, legal[0],
                       left_bower=self.rules.left_bower)
        return v.facts, v.rule_ids

    def default_cite(self) -> tuple[str, ...]:
        left = any(bower(c, self.trump, self.rules.left_bower) == "left"
                   for c in (*self.hand, *self.trick[:1]))
        return ("play.follow-suit", "play.left-bower-suit") if left else ("play.follow-suit",)

    def nudge(self) -> str:
        return (f"{_trump_words(self.trump)}. What suit was led, counting the left bower as "
                "a trump? Which of your cards belong to it?")

    def options(self) -> list[Option]:
        return [Option(c, c.display, True) for c in self.hand]

    def example(self) -> str:
        spare = [c for c in DECK if c not in self.hand and c.rank is not Rank.JACK][-2:]
        return (f"Type every card you may play, such as {spare[0]} {spare[1]} (or "
                f"{spare[0].display} {spare[1].display}), or any if every card may be played")

    def situation(self) -> Situation:
        return Situation(trump=self.trump, trick=self.trick, hand=self.hand)


# ---- play (win the trick) ------------------------------------------------------------------


@dataclass
class PlayStep(Step[Card]):
    """Which card do you play? Right answers: every legal card that wins the trick once the
    cards played after you (``after``) are added."""

    kind: ClassVar[str] = "play"
    title: ClassVar[str] = "Win the trick"
    lesson_fields: ClassVar[tuple[str, ...]] = ("trump", "trick", "hand", "after", "answer")
    lesson_required: ClassVar[tuple[str, ...]] = ("trump", "hand")
    default_prompt: ClassVar[str] = "Which card do you play to win this trick?"
    trump: Trump = Trump.H
    trick: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    after: tuple[Card, ...] = ()

    def _completed(self, card: Card) -> list[Card]:
        return [*self.trick, card, *self.after]

    def winners(self) -> list[Card]:
        me = len(self.trick)
        return [c for c in legal_plays(self.hand, self.trick[0] if self.trick else None,
                                       self.trump, self.rules.left_bower)
                if trick_winner(self._completed(c), self.trump, self.rules.left_bower) == me]

    def problems(self) -> list[str]:
        everything = [*self.trick, *self.hand, *self.after]
        if len(set(everything)) != len(everything):
            return ["a card appears twice among the trick, the hand and the cards after"]
        if not self.hand:
            return ["a play step needs a hand"]
        if len(self.trick) + 1 + len(self.after) > 4:
            return ["a trick has at most four cards"]
        if not self.winners():
            return ["no legal card wins this trick, so the step has no right answer"]
        return []

    def parse(self, raw: Any) -> Card:
        if wants_any(raw):
            # "any card wins": right when every card you may play wins; otherwise judged as a
            # card that does not, so the feedback shows why.
            lead = self.trick[0] if self.trick else None
            losers = [c for c in legal_plays(self.hand, lead, self.trump)
                      if c not in self.winners()]
            return losers[0] if losers else self.winners()[0]
        card = _parse_card(raw, self, self.hand)
        if card not in self.hand:
            raise AnswerError(f"the {card.display} is not in your hand: "
                              f"{_cards_words(self.hand)}")
        return card

    def is_right(self, answer: Card) -> bool:
        return answer in self.winners()

    def answer_text(self) -> str:
        w = self.winners()
        return (f"the {w[0].display}" if len(w) == 1 else
                "any of " + _cards_words(w)) + " wins the trick"

    def answer_forms(self) -> AnswerForms:
        w = self.winners()
        return AnswerForms(cards=frozenset(w),
                           roles=tuple(x for c in w
                                       for x in _bower_words(c, self.trump, self.rules)))

    def miss_facts(self, answer: Card) -> tuple[str, ...]:
        # a legal card that loses: who takes the trick says it in one sentence
        facts, _, consequence = self.explain_wrong(answer)
        return (consequence,) if consequence else facts

    def explain_wrong(self, answer: Card) -> WhyWrong:
        lead = self.trick[0] if self.trick else None
        v = check_play(self.hand, lead, self.trump, answer,
                       left_bower=self.rules.left_bower)
        if not v.legal:
            return v.facts, v.rule_ids, None
        done = self._completed(answer)
        why = explain_trick(done, self.trump, left_bower=self.rules.left_bower)
        taker = why.winning_card
        consequence = (f"If you play the {answer.display}, the {taker.display}"
                       + (f" — a {self.trump.word[:-1]} this hand —"
                          if bower(taker, self.trump, self.rules.left_bower) == "left" else "")
                       + " takes the trick.")
        misread = not_a_bower(answer, self.trump, self.rules.left_bower)
        if misread:  # a jack played as if it were a bower
            return (misread, *why.facts), (why.rule_id,), consequence
        return why.facts, (why.rule_id,), consequence

    def explain_right(self, answer: Card | None) -> Why:
        winners = self.winners()
        if not isinstance(answer, Card) and not winners:
            return (), ()
        card = answer if isinstance(answer, Card) else winners[0]
        why = explain_trick(self._completed(card), self.trump, left_bower=self.rules.left_bower)
        return why.facts, (why.rule_id,)

    def reason_after(self, answer: Card) -> str | None:
        # only why the winning card wins: the traps in that trick are the verdict's business
        facts = self.explain_right(None)[0]
        return facts[0] if facts else None

    def tested_rules(self) -> tuple[str, ...]:
        winners = self.winners()
        return tuple(dict.fromkeys(r for c in self.hand if c not in winners
                                   for r in self.explain_wrong(c)[1]))

    def default_cite(self) -> tuple[str, ...]:
        return ("play.follow-suit", "play.trick-winner")

    def nudge(self) -> str:
        return (f"{_trump_words(self.trump)}. First find the cards you may play, then the one "
                "that beats everything in the trick.")

    def options(self) -> list[Option]:
        return [Option(c, c.display, True) for c in self.hand]

    def example(self) -> str:
        return (f"Type one card, such as {card_example(self.hand)}, or any if every card you "
                "may play wins")

    def situation(self) -> Situation:
        return Situation(trump=self.trump, trick=self.trick, hand=self.hand, after=self.after)


# ---- score ---------------------------------------------------------------------------------


@dataclass
class ScoreStep(Step[dict[str, int]]):
    kind: ClassVar[str] = "score"
    title: ClassVar[str] = "The score"
    lesson_fields: ClassVar[tuple[str, ...]] = ("bid", "bidder", "tricks", "defense", "answer")
    lesson_required: ClassVar[tuple[str, ...]] = ("bid",)
    default_prompt: ClassVar[str] = "What does each side score for this hand?"
    answer_shape: ClassVar[str] = "sides"
    bid: Bid = Bid.FOUR
    bidder: Seat = Seat.N
    tricks: dict[str, int] = field(default_factory=dict)
    defense: Defense = Defense.PLAY

    def computed(self) -> Any:
        return score_hand(self.rules, self.bid, self.rules.side_of(self.bidder), self.tricks,
                          self.defense is Defense.SURRENDER)

    def problems(self) -> list[str]:
        sides = set(self.rules.sides)
        if set(self.tricks) != sides:
            return [f"tricks must give every side: {', '.join(self.rules.sides)}"]
        total = sum(self.tricks.values())
        if self.defense is Defense.SURRENDER and total:
            return ["after a surrender no tricks are played (give 0 for every side)"]
        if self.defense is Defense.PLAY and total != 6:
            return [f"the tricks add up to {total}; a played hand has 6"]
        if self.bid not in self.rules.ladder:
            return [f"{self.bid.display} is not a bid in {self.rules.preset}"]
        return []

    @property
    def order(self) -> tuple[str, ...]:
        """The sides as the question shows them and reads bare numbers: bidders first."""
        bidders = self.rules.side_of(self.bidder)
        return (bidders, *(s for s in self.rules.sides if s != bidders))

    def roles(self) -> dict[str, str]:
        order = self.order
        return {"bidders": order[0], **({"defenders": order[1]} if len(order) == 2 else {})}

    def parse(self, raw: Any) -> dict[str, int]:
        return read_score(raw, self.rules.sides, self.order, self.roles(),
                          avoid=self.computed().points)

    def example(self) -> str:
        """What to type, with made-up points that are never this hand's score."""
        order = self.order
        first, rest = example_points(order, self.computed().points)
        return (f"Type each side's points, the bidders first, such as {order[0]} {first} "
                + " ".join(f"{s} {rest}" for s in order[1:]) + f", or just {first} "
                + " ".join(str(rest) for _ in order[1:]) + f" ({' then '.join(order)})")

    def key(self, answer: dict[str, int]) -> str:
        return " ".join(f"{s} {answer[s]}" for s in self.rules.sides)

    def is_right(self, answer: dict[str, int]) -> bool:
        return bool(dict(answer) == self.computed().points)

    def answer_text(self) -> str:
        pts = self.computed().points
        return ", ".join(f"{s} {pts[s]:+d}" for s in self.order)

    def answer_forms(self) -> AnswerForms:
        pts = self.computed().points
        words: list[str] = []
        for side, p in pts.items():
            words += [f"{side} {p:+d}", f"{side} {p}", f"{side}: {p:+d}", f"{side}: {p}"]
            if p:
                words += [f"{p:+d}", f"{abs(p)} point"]
        return AnswerForms(words=tuple(words))

    def miss_facts(self, answer: dict[str, int]) -> tuple[str, ...]:
        pts = self.computed().points
        return tuple(f"{side} do not score {answer.get(side, 0):+d}." for side in self.order
                     if answer.get(side) != pts[side])

    def explain_wrong(self, answer: dict[str, int]) -> WhyWrong:
        score = self.computed()
        facts = []
        rules: list[str] = []
        for side in self.order:
            if answer.get(side) != score.points[side]:
                # "NS +4, not +6: bid 4 and took 6 tricks: made." The reason ends with the
                # points, which the sentence has given first.
                points = f"{score.points[side]:+d}"
                reason = re.sub(rf"[,:] {re.escape(points)}$", "", score.reasons[side])
                facts.append(f"{side} {points}, not {answer.get(side):+d}: {reason}.")
                if score.rules[side] not in rules:
                    rules.append(score.rules[side])
        return tuple(facts), tuple(rules), None

    def explain_right(self, answer: dict[str, int] | None) -> Why:
        score = self.computed()
        rules: list[str] = []
        for side in self.rules.sides:
            if score.rules[side] not in rules:
                rules.append(score.rules[side])
        return tuple(f"{s}: {score.reasons[s]}." for s in self.rules.sides), tuple(rules)

    def reason_after(self, answer: dict[str, int]) -> str | None:
        # the verdict gives every side that was wrong its score and the reason for it
        return None

    def default_cite(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.computed().rules.values()))

    def nudge(self) -> str:
        return "Did the bidders take at least the tricks they bid? Did the defenders take any?"

    def situation(self) -> Situation:
        tricks = {s: self.tricks[s] for s in self.order if s in self.tricks} or self.tricks
        return Situation(bid=self.bid, bidder=self.bidder, tricks=tuple(tricks.items()),
                         defense=self.defense)


# ---- the end of the game -------------------------------------------------------------------

PLAY_ON = "play on"


@dataclass
class GameStep(Step[str]):
    """After this hand, who has won, or does play go on? ``overtime`` says an earlier hand
    already took two sides to the target together."""

    kind: ClassVar[str] = "game"
    title: ClassVar[str] = "The game"
    lesson_fields: ClassVar[tuple[str, ...]] = ("before", "points", "overtime", "answer")
    lesson_required: ClassVar[tuple[str, ...]] = ("before", "points")
    default_prompt: ClassVar[str] = "Who has won the game, or does play go on?"
    before: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    overtime: bool = False

    def totals(self) -> dict[str, int]:
        return {s: self.before.get(s, 0) + self.points.get(s, 0) for s in self.rules.sides}

    def status(self) -> Any:
        from ...engine.scoring import game_status

        return game_status(self.rules, self.totals(), self.overtime)

    def result(self) -> str:
        return self.status().winner or PLAY_ON

    def problems(self) -> list[str]:
        sides = set(self.rules.sides)
        if set(self.before) != sides or set(self.points) != sides:
            return [f"before and points must give every side: {', '.join(self.rules.sides)}"]
        return []

    def parse(self, raw: Any) -> str:
        chosen = self.read_option(raw)
        if chosen is not None:
            return str(chosen)
        text = " ".join(str(raw).strip().split()).lower()
        if text in (PLAY_ON, "play-on", "on", "no one", "nobody", "continue", "another hand"):
            return PLAY_ON
        for side in self.rules.sides:
            if text == side.lower():
                return side
        raise AnswerError(f"answer {' or '.join(self.rules.sides)} (the winner) or play on")

    def is_right(self, answer: str) -> bool:
        return bool(answer == self.result())

    def answer_text(self) -> str:
        result = self.result()
        return "play goes on" if result == PLAY_ON else f"{result} win"

    def answer_forms(self) -> AnswerForms:
        result = self.result()
        return AnswerForms(words=("play goes on", "play on", "goes on") if result == PLAY_ON
                           else (result,))

    def miss_facts(self, answer: str) -> tuple[str, ...]:
        return ("Someone has won: play does not go on.",) if answer == PLAY_ON else (
            f"{answer} have not won.",)

    def _facts(self) -> tuple[str, ...]:
        totals = self.totals()
        line = ", ".join(f"{s} {self.before.get(s, 0)} → {totals[s]}" for s in self.rules.sides)
        status = self.status()
        target = self.rules.target
        if self.overtime:
            why = ("this was the extra hand, so the highest total wins" if status.over else
                   "this was the extra hand and the top totals are level, so play goes on")
        else:
            reached = [s for s, v in totals.items() if v >= target]
            why = (f"only {reached[0]} reached {target}" if len(reached) == 1 else
                   f"{' and '.join(reached)} reached {target} on the same hand, so one more "
                   "hand decides" if reached else f"nobody has reached {target} yet")
        return (f"Totals: {line}; {why}.",)

    def explain_wrong(self, answer: str) -> WhyWrong:
        return self._facts(), (self.status().rule,), None

    def explain_right(self, answer: str | None) -> Why:
        return self._facts(), (self.status().rule,)

    def default_cite(self) -> tuple[str, ...]:
        return ("game.target", "game.tie")

    def nudge(self) -> str:
        return (f"Add this hand to the totals. How many sides are at {self.rules.target} or "
                "more?")

    def options(self) -> list[Option]:
        return [Option(s, s) for s in self.rules.sides] + [Option(PLAY_ON, PLAY_ON)]

    def situation(self) -> Situation:
        return Situation(before=tuple(self.before.items()), points=tuple(self.points.items()),
                         overtime=self.overtime)

