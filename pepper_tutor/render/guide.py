"""A Game Guide's steps: one hand, from the deal to the score, as data a page can show.

:func:`build_guide` replays a ``pepper-hand/1`` record through the engine and the annotator
and writes one :class:`GuideStep` per moment: the deal, each call, trumps, the way of
playing, the exchange, the defense, each card, then the score. Each step is whole (the
hands as they stand, the trick on the table, the tricks won, the auction so far), so a page
shows step *i* without working anything out: no rule and no answer lives in the page's
JavaScript.

A step says what happened in words (the annotator's, and the record's own notes), the rule
id of each trick's winner, and, where the hand was analysed, the coach's grade and reason
for the decision and a strip of what each legal card would have scored: from the seat's
own information (the coach's sampled advice) and, in the all-hands view, double-dummy.
A record saved by the practice table (``play --save``) carries its grades in its notes;
``analyse=True`` grades every decision now.

``seat`` builds one seat's view: the other hands are face down, the exchange's hidden cards
are not named, and every text that names a card this seat never sees in the hand (a note,
a reason) is left out with a sentence saying so. The data is built without them, so a page
of a seat's view holds no hidden card anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import Card
from ..engine.seats import Seat
from ..engine.state import HandState
from ..records.annotate import Annotation, Finding, TrickNote, annotate
from ..records.hand_record import HandRecord, Replay, Step, TrickEnd
from ..rulebook.book import get_rule, rule_label
from ..teaching.lessons.step_guide import Moment, StepGuide
from ..teaching.practice.coach import grade_from_note
from ..teaching.questions.answer_free import AnswerForms
from ..teaching.questions.steps import ScoreStep, TrickWinnerStep
from ..teaching.questions.steps import Step as LessonStep
from .card_words import card_words, cards_named, spelled_cards
from .plain import one_line

__all__ = ["Guide", "GuideStep", "StepCoach", "StripCell", "build_guide", "cards_named",
           "lesson_guide", "guide_gives_away", "stops_words", "spelled_cards",
           "GUIDE_FORMAT"]

GUIDE_FORMAT = "pepper-guide/1"


@dataclass(frozen=True)
class StripCell:
    """One legal card at a decision and what it would have scored: ``tricks`` and ``net``
    from the seat's own information (the coach's sampled advice: the side's tricks in the
    hand and its net points, on average), ``dd`` the side's tricks with every hand seen
    (double-dummy; ``None`` in a seat's view)."""

    card: Card
    tricks: float | None
    net: float | None
    dd: int | None
    played: bool

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"card": str(self.card), "played": self.played}
        if self.tricks is not None:
            out["tricks"] = round(self.tricks, 2)
        if self.net is not None:
            out["net"] = round(self.net, 2)
        if self.dd is not None:
            out["dd"] = self.dd
        return out


@dataclass(frozen=True)
class StepCoach:
    """The coach on one decision: its grade (``Best`` ... ``Blunder``, or ``None`` where
    only the double-dummy cost is known), the words, where they came from (``record``: a
    graded note of a saved hand; ``coach``: graded now), the tricks it gave away against
    perfect play, and the strip."""

    grade: str | None
    words: str
    source: str
    cost: int | None = None
    strip: tuple[StripCell, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"grade": self.grade, "words": self.words, "source": self.source}
        if self.cost is not None:
            out["cost"] = self.cost
        if self.strip:
            out["strip"] = [c.to_dict() for c in self.strip]
        return out


@dataclass(frozen=True)
class GuideStep:
    """One moment of the hand, whole: what the page shows at this step."""

    kind: str  # deal | call | trump | mode | discard | passed | defense | card | score
    title: str  # what happened, in one sentence
    seat: Seat | None = None  # who acted
    lines: tuple[str, ...] = ()  # the annotator's words, the record's notes, findings
    rule: str | None = None  # the rule id that decided the trick (its last card's step)
    rule_text: str | None = None
    hands: Mapping[Seat, tuple[Card, ...] | int] = field(default_factory=dict)  # int: face down
    table: tuple[tuple[Seat, Card], ...] = ()  # the trick on the table
    winner: Seat | None = None  # the trick's winner, once it is complete
    trick: int = 0  # the trick this step belongs to (0 before the play)
    won: Mapping[str, int] = field(default_factory=dict)  # tricks taken so far, by side
    auction: tuple[tuple[Seat, str], ...] = ()  # the calls so far
    contract: str = ""  # the contract as it stands
    coach: StepCoach | None = None
    finding: bool = False  # a revoke or a costly card: marked on the step
    out: Seat | None = None  # the bidder's partner, sitting out after the exchange
    where: tuple[str | int, ...] | None = None  # its action's place in the record

    def say(self) -> str:
        """What the live region announces at this step: the sentence, then the words, each
        card spelled out ("the ten of hearts", not a letter and a symbol)."""
        parts = [self.title, *self.lines]
        if self.coach is not None and self.coach.grade:
            parts.append(f"Coach: {self.coach.grade}.")
        return spelled_cards(" ".join(parts))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "title": self.title,
            "seat": None if self.seat is None else str(self.seat),
            "lines": list(self.lines), "rule": self.rule, "rule_text": self.rule_text,
            "hands": {str(s): (h if isinstance(h, int) else [str(c) for c in h])
                      for s, h in self.hands.items()},
            "table": [[str(s), str(c)] for s, c in self.table],
            "winner": None if self.winner is None else str(self.winner),
            "trick": self.trick, "won": dict(self.won),
            "auction": [[str(s), c] for s, c in self.auction],
            "contract": self.contract,
            "coach": None if self.coach is None else self.coach.to_dict(),
            "finding": self.finding, "say": self.say(),
            "out": None if self.out is None else str(self.out),
        }


@dataclass(frozen=True)
class Guide:
    """A hand's steps and what a page needs around them. ``view`` is ``None`` for all
    hands, else the seat whose view this is."""

    title: str
    rules: str
    view: Seat | None
    seats: tuple[Seat, ...]
    names: Mapping[Seat, str]
    steps: tuple[GuideStep, ...]
    tricks: int  # how many tricks the record plays
    analysed: bool

    def trick_starts(self) -> dict[int, int]:
        """Trick number -> the index of its first step."""
        starts: dict[int, int] = {}
        for i, step in enumerate(self.steps):
            if step.trick and step.trick not in starts:
                starts[step.trick] = i
        return starts

    def step_at(self, moment: Moment) -> int:
        """The index of the step a lesson's moment names (the deal: 0, the score: the
        last). A moment the record never reaches opens the score: ``lesson --check`` has
        said so to the author already."""
        if moment.is_score:
            return len(self.steps) - 1
        if moment.where is None:
            return 0
        return next((i for i, s in enumerate(self.steps) if s.where == moment.where),
                    len(self.steps) - 1)

    def to_dict(self) -> dict[str, Any]:
        cards = sorted({c for step in self.steps for c in _cards_of(step)},
                       key=lambda c: c.index)
        return {
            "format": GUIDE_FORMAT, "title": self.title, "rules": self.rules,
            "view": None if self.view is None else str(self.view),
            "seats": [str(s) for s in self.seats],
            "names": {str(s): self.names.get(s, s.word) for s in self.seats},
            "seat_words": {str(s): s.word for s in self.seats},
            "cards": {str(c): {"display": c.display, "words": card_words(c), "red": c.is_red,
                               "suit": c.suit.letter, "suit_words": c.suit.plural}
                      for c in cards},
            "tricks": self.tricks, "trick_starts": self.trick_starts(),
            "analysed": self.analysed,
            "steps": [s.to_dict() for s in self.steps],
        }


def _cards_of(step: GuideStep) -> Iterable[Card]:
    for hand in step.hands.values():
        if not isinstance(hand, int):
            yield from hand
    for _, card in step.table:
        yield card
    if step.coach is not None:
        for cell in step.coach.strip:
            yield cell.card


# ---- building the steps ------------------------------------------------------------------


class _Seen:
    """What the guide may show: everything (``view`` None), or what one seat sees in the
    whole hand. A text that names a card the seat never sees is left out."""

    def __init__(self, record: HandRecord, view: Seat | None, a: Annotation):
        self.view = view
        self.trump = a.trump
        self.hidden: set[Card] = set()
        if view is None or not record.deal:
            return
        seen = set(record.deal.get(view, ()))
        seen |= {e.value for trick in record.tricks for e in trick}
        if a.bidder is not None and view in (a.bidder, a.sitting_out) and a.passed is not None:
            seen.add(a.passed)  # the partner sent it; the bidder holds it
        if view == a.bidder and a.discard is not None:
            seen.add(a.discard)
        everything = {c for hand in record.deal.values() for c in hand}
        self.hidden = everything - seen

    def text(self, words: str | None) -> str | None:
        """The text as the viewer may read it, or a sentence saying it was left out."""
        if words is None:
            return None
        if self.hidden and cards_named(words, self.trump) & self.hidden:
            return ("(Left out of this view: it names a card "
                    f"{self.view.word if self.view else ''} does not see.)")
        return words

    def rule(self, rule_id: str) -> str:
        """A rule's text, or its title where the text's examples name a hidden card (the
        left bower's rule names every jack)."""
        rule = get_rule(rule_id)
        return rule.text if self.text(rule.text) == rule.text else rule.title

    def shown(self, seat: Seat, known_to: Iterable[Seat] = ()) -> bool:
        """Whether this view sees a face-down card that ``seat`` handled (and that the
        seats ``known_to`` see too)."""
        return self.view is None or self.view == seat or self.view in known_to


def build_guide(record: HandRecord, seat: Seat | str | None = None, analyse: bool = False,
                samples: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> Guide:
    """The steps of ``record``: all hands (``seat`` None) or one seat's view.

    ``analyse`` grades every decision with the coach (the seat's information, ``samples``
    deals each; the table's count by default) and solves every card double-dummy;
    ``progress(done, total)`` is called after each decision graded."""
    view = None if seat is None else Seat.parse(seat)
    rules = record.rules
    seats = tuple(Seat(i) for i in range(rules.players))
    if view is not None and view not in seats:
        raise ValueError(f"{view.word} has no seat in {rules.name} (seats: "
                         f"{', '.join(s.word for s in seats)})")
    a = annotate(record)
    seen = _Seen(record, view, a)
    names = _names(record)
    graded = _analysis(record, view, samples, progress) if analyse and record.deal else {}
    builder = _Builder(record, a, seen, graded)
    steps = builder.walk()
    # a seat's view shows no card it never sees, in the record's own title or names either
    title = a.title if seen.text(a.title) == a.title else "A hand of Pepper"
    names = {s: n if seen.text(n) == n else s.word for s, n in names.items()}
    return Guide(title=title, rules=rules.name, view=view, seats=seats, names=names,
                 steps=tuple(steps), tricks=len(a.tricks), analysed=bool(graded))


@lru_cache(maxsize=16)
def lesson_guide(guide: StepGuide) -> tuple[Guide, int]:
    """The guide a lesson step carries, cut at its ``until`` moment, and the index of the
    step it opens at: built once for the lesson as it was read (a front end shows the step
    again after every answer). The steps after the cut are not in it at all, so no page,
    frame or panel made from it holds them, hidden or not."""
    built = build_guide(guide.record, guide.seat)
    steps = built.steps[:built.step_at(guide.until) + 1]
    cut = replace(built, steps=steps, tricks=max((s.trick for s in steps), default=0))
    return cut, cut.step_at(guide.at)


def stops_words(step_guide: StepGuide) -> str:
    """What a lesson step says of a hand cut short (its guide's ``until``), or nothing."""
    if step_guide.whole:
        return ""
    guide, at = lesson_guide(step_guide)
    where = "there" if at == len(guide.steps) - 1 else f"at step {len(guide.steps)}"
    return f" It stops {where}, before anything that would answer the question."

def guide_gives_away(step: LessonStep[Any], guide: StepGuide) -> str | None:
    """What in the guide a lesson step shows (cut as the learner gets it) gives the step's
    answer away, or ``None``: a step of the hand whose words name the answer as the step
    reads it (its answer as the verdict writes it, its answer's words: "EW -4", "+3"), the
    hand's score for a score step, or the trick a trick step asks about, won. A card or a
    seat alone is no give-away: a guide names every card and seat as it deals and plays."""
    if not step.answerable:
        return None
    shown, _ = lesson_guide(guide)
    answer = AnswerForms(words=(step.answer_text(), *step.answer_forms().words))
    asked = set(step.trick) if isinstance(step, TrickWinnerStep) else None
    if answer.named_in(shown.title, roles=False):
        return f"the hand's title {shown.title!r} gives this step's answer"
    for i, at in enumerate(shown.steps, 1):
        if isinstance(step, ScoreStep) and at.kind == "score":
            return f"its step {i} is the hand's score, this step's answer"
        if asked and at.winner is not None and {c for _, c in at.table} == asked:
            return f"its step {i} shows who wins the trick this step asks about"
        for words in (at.title, *at.lines, at.rule_text, at.coach and at.coach.words):
            if words and answer.named_in(words, roles=False):
                return f"its step {i} says {words!r}, which gives this step's answer"
    return None


def _names(record: HandRecord) -> dict[Seat, str]:
    players = record.meta.get("players") if isinstance(record.meta, dict) else None
    out: dict[Seat, str] = {}
    for s in (Seat(i) for i in range(record.rules.players)):
        name = players.get(str(s)) if isinstance(players, dict) else None
        out[s] = f"{s.word} ({one_line(name)})" if name else s.word
    return out


Where = tuple[str | int, ...]


def _analysis(record: HandRecord, view: Seat | None, samples: int | None,
              progress: Callable[[int, int], None] | None) -> dict[Where, StepCoach]:
    """The coach's grade and strip for every decision of the record (by its place)."""
    from ..analysis.grading import GRADING_SAMPLES
    from ..analysis.solver import solve_state
    from ..engine.state import Phase
    from ..teaching.practice.coach import CoachFigures, coach_decision

    replay = Replay(record)
    # per seat: a run of its calls reads one set of deals, solved once
    figures: dict[Seat, CoachFigures] = {}
    state = replay.state
    # A seat's view grades that seat's decisions only: the others were made on cards it
    # does not see.
    total = sum(1 for s in Replay(record) if isinstance(s, Step) and s.entry is not None
                and view in (None, s.seat))
    out: dict[Where, StepCoach] = {}
    done = 0
    for step in replay:
        if isinstance(step, TrickEnd) or step.entry is None or view not in (None, step.seat):
            continue
        if state.check(step.action, second_person=False).legal:  # a revoke is a finding
            verdict = coach_decision(state, step.action,
                                     GRADING_SAMPLES if samples is None else samples,
                                     figures=figures.setdefault(step.seat, CoachFigures()))
            strip: tuple[StripCell, ...] = ()
            cost = None
            if isinstance(step.action, Card) and not verdict.forced:
                dd: dict[Card, int] = {}
                if state.phase is Phase.PLAY and view is None:
                    solution = solve_state(state, side_seats=_side(state, step.seat))
                    dd = {v.card: solution.won_before + v.tricks for v in solution.values}
                    cost = solution.cost(step.action)
                strip = _strip(verdict.advice, step.action, dd)
            out[step.where] = StepCoach(str(verdict.grade), verdict.note, "coach", cost, strip)
        else:
            out[step.where] = StepCoach(None, "A revoke is no choice the rules allow, so the "
                                        "coach does not grade it.", "coach")
        done += 1
        if progress is not None:
            progress(done, total)
    return out


def _side(state: HandState, seat: Seat) -> list[Seat]:
    rules = state.rules
    return [s for s in state.active_seats if rules.side_of(s) == rules.side_of(seat)]


def _strip(advice: Any, played: Card, dd: Mapping[Card, int]) -> tuple[StripCell, ...]:
    if advice is None:
        return ()
    cells = []
    for o in advice.options:
        if o.card is None:
            continue
        value = o.net if o.net is not None else o.score
        cells.append(StripCell(o.card, None if o.tricks is None else o.tricks.mean,
                               value.mean, dd.get(o.card), o.card is played))
    return tuple(sorted(cells, key=lambda c: c.card.index))


class _Builder:
    """One walk of the record, writing a step at each action."""

    def __init__(self, record: HandRecord, a: Annotation, seen: _Seen,
                 graded: Mapping[Where, StepCoach]):
        self.record, self.a, self.seen, self.graded = record, a, seen, graded
        self.replay = Replay(record)
        self.state = self.replay.state
        self.calls: list[tuple[Seat, str]] = []
        self.contract = ""
        self.findings: dict[str, list[Finding]] = {}
        for f in a.findings:
            self.findings.setdefault(f.where, []).append(f)

    # -- what every step carries --

    def _hands(self) -> dict[Seat, tuple[Card, ...] | int]:
        if not self.record.deal:
            return {}
        out: dict[Seat, tuple[Card, ...] | int] = {}
        for s in self.state.seats:
            cards = tuple(self.state.hand(s))
            shown = self.seen.view is None or self.seen.view == s
            out[s] = cards if shown else len(cards)
        return out

    def _step(self, kind: str, title: str, seat: Seat | None, lines: list[str | None],
              where: Where | None = None, entry: Any = None, **more: Any) -> GuideStep:
        """A step at this moment of the replay: ``lines`` and the entry's own note, glyph
        and rule as this view may read them, and the coach on it where it was graded."""
        shown = [t for t in (self.seen.text(x) for x in lines) if t]
        coach = self.graded.get(where) if where is not None else None
        note, glyph = getattr(entry, "note", None), getattr(entry, "glyph", None)
        if note:
            text = self.seen.text(one_line(note)) or ""
            grade = grade_from_note(note)
            if grade is not None:  # a saved hand's grade: the coach's words, for the seat
                if coach is None and self.seen.view in (None, seat):  # that was graded
                    coach = StepCoach(str(grade), text, "record")
            else:
                shown.insert(0, f"Note{f' ({glyph})' if glyph else ''}: {text}")
        elif glyph:
            shown.insert(0, f"Marked {glyph} in the record.")
        rule = getattr(entry, "rule", None)
        if rule:
            shown.append(f"The record cites {rule_label(rule)}: {self.seen.rule(rule)}")
        if coach is not None:
            coach = replace(coach, words=_after_grade(self.seen.text(coach.words) or "",
                                                      coach.grade))
        return GuideStep(kind=kind, title=title, seat=seat, lines=tuple(shown),
                         hands=self._hands(), table=tuple(self.state.current_trick),
                         won=dict(self.state.tricks_won()) if self.state.trump else {},
                         auction=tuple(self.calls), contract=self.contract, coach=coach,
                         out=self.state.sitting_out, where=where, **more)

    # -- the walk --

    def walk(self) -> list[GuideStep]:
        steps = [self._deal()]
        for item in self.replay:
            if isinstance(item, TrickEnd):
                steps[-1] = self._trick_end(steps[-1], self.a.tricks[item.index])
            elif item.entry is not None or item.where[0] != "exchange":
                # each step shows the hand just after its action: applied here, then taken
                # back, for the replay applies it itself when the walk goes on
                self.state.apply(item.action)
                try:
                    steps.append(self._card(item) if item.where[0] == "tricks"
                                 else self._action(item))
                finally:
                    self.state.undo()
        steps.append(self._end())
        return steps

    def _deal(self) -> GuideStep:
        rec = self.record
        lines: list[str | None] = [f"{rec.rules.name.capitalize()} rules."]
        if not rec.deal:
            lines.append("The record does not give the deal: only the cards played are shown.")
        if self.seen.view is not None:
            lines.append(f"You see the hand as {self.seen.view.word} does: the other hands "
                         "are face down.")
        return self._step("deal", f"{rec.dealer.word} deals.", rec.dealer, lines)

    def _action(self, step: Step) -> GuideStep:
        """A call, trumps, the way of playing, the exchange or the defense."""
        seat, action, where = step.seat, step.action, step.where
        kind = "call" if where[0] == "auction" else str(where[-1])
        title, known = self._action_title(kind, seat, action)
        if kind == "call":
            assert isinstance(action, Bid)
            self.calls.append((seat, action.display))
        self.contract = self._contract_so_far()
        found = [f.message for f in self.findings.get(_finding_key(where), [])]
        return self._step(kind, title, seat, list(found), where, step.entry if known else None)

    def _action_title(self, kind: str, seat: Seat, action: Any) -> tuple[str, bool]:
        """The sentence for an action, and whether this view may see what it was."""
        who = seat.word
        if kind == "call":
            if action is Bid.PASS:
                return f"{who} passes.", True
            return f"{who} bids {action.display}.", True
        if kind == "trump":
            assert isinstance(action, Trump)
            return f"{who} names {action.word} as trumps.", True
        if kind == "mode":
            assert isinstance(action, Mode)
            return f"{who} chooses to {action.display}.", True
        if kind == "discard":
            if self.seen.shown(seat):
                return f"{who} lays the {action.display} aside, face down.", True
            return f"{who} lays a card aside, face down.", False
        if kind == "passed":
            bidder = self.state.bidder
            to = bidder.word if bidder is not None else "the bidder"
            if self.seen.shown(seat, (bidder,) if bidder is not None else ()):
                return f"{who} hands {to} the {action.display}, face down.", True
            return f"{who} hands {to} a card, face down.", False
        if kind == "defense":
            assert isinstance(action, Defense)
            if action is Defense.SURRENDER:
                return f"{who} surrenders for the defenders.", True
            return f"{who} chooses to play against the contract.", True
        return f"{who}: {action}.", True

    def _contract_so_far(self) -> str:
        s = self.state
        if s.bidder is None:
            return ""
        text = f"{s.bidder.word} bid {s.high_bid.display}"
        if s.trump is not None:
            text += f" in {s.trump.word}"
        if s.mode is not None:
            text += f", {s.mode.display}"
        if s.defense is Defense.SURRENDER:
            text += "; the defenders surrendered"
        return text + "."

    def _card(self, step: Step) -> GuideStep:
        """A card, shown on the table (its trick's winner is added at the trick's end)."""
        seat, card, where = step.seat, step.action, step.where
        assert isinstance(card, Card)
        t, i = int(where[1]) + 1, int(where[2]) + 1
        title = f"{seat.word} {'leads' if i == 1 else 'plays'} the {card.display}."
        found = self.findings.get(f"tricks.{t}.{i}", [])
        return self._step("card", title, seat, [f.message for f in found], where, step.entry,
                          trick=t, finding=bool(found))

    def _trick_end(self, last: GuideStep, note: TrickNote) -> GuideStep:
        """The step of a trick's last card, with the whole trick, its winner and why."""
        if not note.complete or note.winner is None:
            return last
        wc = note.winning_card
        said = (f"{note.winner.word} wins trick {note.number}"
                + (f" with the {wc.display}." if wc is not None else ".")
                + (" " + " ".join(note.facts) if note.facts else ""))
        shown = self.seen.text(said)
        return replace(last, table=tuple((pc.seat, pc.card) for pc in note.cards),
                       winner=note.winner, rule=note.rule,
                       rule_text=self.seen.rule(note.rule) if note.rule else None,
                       lines=(*last.lines, *([shown] if shown else [])))

    def _end(self) -> GuideStep:
        a = self.a
        lines: list[str | None] = []
        if a.status == "thrown-in":
            title = "Everyone passed: the hand is thrown in."
        elif a.score is not None:
            parts = ", ".join(f"{side} {points:+d}" for side, points in a.score.items())
            made = "" if a.made is None else (" The bidders made it." if a.made
                                              else " The bidders were set.")
            title = f"The score: {parts}.{made}"
            if a.tricks_won and a.status != "thrown-in":
                lines.append("Tricks taken: " + ", ".join(
                    f"{s} {n}" for s, n in a.tricks_won.items()) + ".")
            for side, reason in a.score_reasons.items():
                rid = a.score_rules.get(side, "")
                lines.append(f"{side}: {reason}" + (f" [{rid}]" if rid else ""))
            match = a.match_score
            if match:
                lines.append("The match: " + ", ".join(
                    f"{s} {match['before'][s]} to {match['after'][s]}" for s in match["after"])
                    + ".")
        else:
            title = "The record stops here, before the hand is over."
            lines.append(f"Where it stops: {a.status}.")
        rule = next(iter(a.score_rules.values()), None) if a.score_rules else None
        return self._step("score", title, None, lines, rule=rule,
                          rule_text=self.seen.rule(rule) if rule else None,
                          trick=len(a.tricks) if a.tricks else 0)


def _after_grade(words: str, grade: str | None) -> str:
    """The coach's words without the grade they start with (the page shows it beside
    them): "Best: J♥ is the best choice here." -> "J♥ is the best choice here."."""
    if grade and words.startswith(grade):
        rest = words[len(grade):].lstrip(":, ")
        return rest[:1].upper() + rest[1:]
    return words


def _finding_key(where: Where) -> str:
    if where[0] == "auction":
        return f"auction.{int(where[1]) + 1}"
    return ".".join(str(k) for k in where)
