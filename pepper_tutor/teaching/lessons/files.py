"""Lesson files: load, validate with file:line errors, and verify every step with the engine.

A lesson is a YAML file (``format: pepper-lesson/1``) with an id, a title, the rule set it
uses, its prerequisites and its steps; ``pepper_tutor/data/lesson.schema.json`` describes it
for editors. :func:`check_lesson` is what ``pepper-tutor lesson --check`` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import Card, NotationError
from ...engine.rules import RuleSet, get_ruleset
from ...engine.seats import Seat
from ...files.reading import CONTROL_CHARACTERS
from ...files.yamlpos import LoadError, Problem, load_located, read_file
from ...records.hand_record import RulesCollector, load_record
from ...rulebook.book import get_rulebook
from ...rulebook.feedback import AnswerError
from ..questions.choice_steps import BidStep, ChoiceStep, DeclareStep, DefendStep, ExchangeStep
from ..questions.steps import (
    ExplainStep,
    GameStep,
    LegalPlaysStep,
    PlayStep,
    RankStep,
    ScoreStep,
    Step,
    TrickWinnerStep,
)
from ..questions.table_steps import TableStep
from .step_guide import (
    MOMENT_FORMS,
    SCORE,
    StepGuide,
    example_hand,
    example_hands,
    moment_place,
    moment_problem,
    parse_moment,
)

__all__ = ["Lesson", "STEP_KINDS", "load_lesson", "parse_lesson", "check_lesson",
           "lesson_files", "all_lessons", "find_lesson", "LoadError"]

FORMAT = "pepper-lesson/1"
STEP_KINDS: dict[str, type[Step[Any]]] = {cls.kind: cls for cls in (
    ExplainStep, RankStep, TrickWinnerStep, LegalPlaysStep, PlayStep, BidStep, DeclareStep,
    ExchangeStep, DefendStep, ScoreStep, GameStep, TableStep)}
COMMON = ("kind", "id", "prompt", "hint", "note", "cite", "wrong", "rules", "guide")
GUIDE_KEYS = ("hand", "at", "until", "seat")
# what each kind of step takes in a lesson file, from the step classes themselves
FIELDS: dict[str, tuple[str, ...]] = {k: cls.lesson_fields for k, cls in STEP_KINDS.items()}
REQUIRED: dict[str, tuple[str, ...]] = {k: cls.lesson_required for k, cls in STEP_KINDS.items()}
DEFAULT_PROMPTS = {k: cls.default_prompt for k, cls in STEP_KINDS.items() if cls.default_prompt}


@dataclass
class Lesson:
    id: str
    title: str
    summary: str
    rules: RuleSet
    requires: tuple[str, ...]
    steps: list[Step[Any]]
    file: str = "<lesson>"
    claims: dict[str, Any] = field(default_factory=dict)  # step id -> stated answer
    guides: dict[str, StepGuide] = field(default_factory=dict)  # step id -> its whole hand

    @property
    def answerable_steps(self) -> list[Step[Any]]:
        return [s for s in self.steps if s.answerable]

    def guide_of(self, step: Step[Any]) -> StepGuide | None:
        """The whole hand shown with ``step`` (its ``guide:``), if it has one."""
        return self.guides.get(step.id)

    def step(self, step_id: str) -> Step[Any]:
        for s in self.steps:
            if s.id == step_id:
                return s
        raise KeyError(f"lesson {self.id} has no step {step_id!r}")


def load_lesson(path: str | Path) -> Lesson:
    return parse_lesson(*read_file(path))


def parse_lesson(text: bytes | str, file: str = "<lesson>") -> Lesson:
    """Read a lesson; every problem in its shape is reported at once, with its line."""
    return _Reader(load_located(text, file)).read()


class _Reader(RulesCollector):

    def read(self) -> Lesson:
        data = self.doc.data
        if not isinstance(data, dict):
            raise LoadError([self.doc.problem((), "expected a mapping with format, id, title "
                                                  "and steps")])
        allowed = ("format", "id", "title", "summary", "rules", "requires", "steps")
        for key in data:
            if key not in allowed and not str(key).startswith("x-"):
                self.bad((key,), f"unknown key {key!r} (expected {', '.join(allowed)})")
        if data.get("format") != FORMAT:
            self.bad(("format",), f"format must be {FORMAT}")
        for key in ("id", "title"):
            if not isinstance(data.get(key), str) or not data.get(key):
                self.bad((key,) if key in data else (), f"the lesson needs a {key} (text)")
        rules = self.ruleset(("rules",), data.get("rules", "standard")) or get_ruleset()
        requires = data.get("requires") or []
        if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
            self.bad(("requires",), "requires must be a list of lesson ids")
            requires = []
        lesson = Lesson(str(data.get("id", "")), str(data.get("title", "")),
                        _text(self.note(("summary",), data.get("summary"))) or "", rules,
                        tuple(requires),
                        [], self.doc.file)
        steps = data.get("steps")
        if not isinstance(steps, list) or not steps:
            self.bad(("steps",) if "steps" in data else (), "the lesson needs a list of steps")
            steps = []
        self.refuse_controls((), data)
        seen: set[str] = set()
        for i, raw in enumerate(steps):
            step = self.step(raw, i, rules, lesson)
            if step is None:
                continue
            if step.id in seen:
                self.bad(("steps", i, "id"), f"two steps have the id {step.id!r}")
            seen.add(step.id)
            lesson.steps.append(step)
        self.fail_if_any()
        return lesson

    def refuse_controls(self, path: tuple[str | int, ...], value: Any) -> None:
        """Lesson text is shown in terminals and pages: a control character (an escape
        sequence, a bidirectional override) has no place in it."""
        if isinstance(value, str):
            found = CONTROL_CHARACTERS.search(value)
            if found:
                self.bad(path, f"the text holds the control character U+{ord(found.group()):04X}"
                               "; lesson text is plain text")
        elif isinstance(value, dict):
            for key, item in value.items():
                self.refuse_controls((*path, key), item)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.refuse_controls((*path, i), item)

    def value(self, path: tuple[str | int, ...], raw: Any, parse: Callable[[Any], Any],
              what: str) -> Any:
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            self.bad(path, f"{_key_name(path)} is empty; expected {what}")
            return None
        try:
            return parse(raw)
        except (NotationError, AnswerError, ValueError, TypeError) as err:
            self.bad(path, f"{err} (expected {what})")
            return None

    def cards(self, path: tuple[str | int, ...], raw: Any) -> tuple[Card, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            self.bad(path, "expected a list of cards, such as [JH, JD, AH]")
            return ()
        out = []
        for i, item in enumerate(raw):
            word = self.word((*path, i), item, "a card such as JD or J♦")
            card = None if word is None else self.value((*path, i), word, Card.parse,
                                                        "a card such as JD or J♦")
            if card is not None:
                out.append(card)
        return tuple(out)

    def step(self, raw: Any, i: int, rules: RuleSet, lesson: Lesson) -> Step[Any] | None:
        path: tuple[str | int, ...] = ("steps", i)
        if not isinstance(raw, dict):
            self.bad(path, "each step must be a mapping with a kind")
            return None
        kind = raw.get("kind")
        if not isinstance(kind, str) or kind not in STEP_KINDS:  # [rank] is no kind
            self.bad((*path, "kind") if "kind" in raw else path,
                     f"unknown step kind {kind!r} (expected {', '.join(STEP_KINDS)})")
            return None
        for key in raw:
            if key not in COMMON + FIELDS[kind] and not str(key).startswith("x-"):
                self.bad((*path, key), f"{kind} steps have no key {key!r} (expected "
                                       f"{', '.join(COMMON[1:] + FIELDS[kind])})")
        for key in REQUIRED[kind]:
            if key not in raw:
                self.bad(path, f"this {kind} step needs {key}")
        if "rules" in raw:
            rules = self.ruleset((*path, "rules"), raw["rules"]) or rules
        cite = self.cite(raw, path)
        line = self.doc.where(path)[0]
        step_id = self.word((*path, "id"), raw["id"], "a step id") if "id" in raw else None
        prompt = self.note((*path, "prompt"), raw.get("prompt"))
        common: dict[str, Any] = {
            "id": step_id or str(i + 1),
            "prompt": _text(prompt) or DEFAULT_PROMPTS.get(kind, ""),
            "hint": self.note((*path, "hint"), raw.get("hint")),
            "note": _text(self.note((*path, "note"), raw.get("note"))),
            "cite": cite, "rules": rules, "line": line}
        if kind in HANDS_OF_SIX:
            self.hand_of_six(raw, path)
        self.situation(kind, raw, path, rules)
        if kind == "trick-winner" and isinstance(raw.get("seats"), list) and isinstance(
                raw.get("trick"), list) and len(raw["seats"]) != len(raw["trick"]):
            self.bad((*path, "seats"), f"seats names {len(raw['seats'])} players for a trick "
                                       f"of {len(raw['trick'])} cards; give one seat a card")
        if "wrong" in raw and kind == "explain":
            self.bad((*path, "wrong"), f"{kind} steps ask nothing, so they have no wrong "
                                       "answers")
        step = self.build(kind, raw, path, common)
        if step is None:
            return None
        if step.answerable:
            step.wrong = self.wrong_notes(step, raw.get("wrong"), (*path, "wrong"))
        if "guide" in raw:
            guide = self.guide((*path, "guide"), raw["guide"], step.answerable)
            if guide is not None:
                lesson.guides[step.id] = guide
        if "answer" in raw:
            lesson.claims[step.id] = self.value((*path, "answer"), raw["answer"], step.parse,
                                                "an answer this step accepts")
        return step

    def guide(self, path: tuple[str | int, ...], raw: Any, asks: bool) -> StepGuide | None:
        """A step's whole hand: ``{hand: NAME or PATH, at: MOMENT, until: MOMENT, seat: S}``.
        The record is read now, so a hand that does not read is this lesson's problem, at
        the hand's own line; whether the moments are in it is ``check_lesson``'s. A step
        that ``asks`` something shows the hand up to ``at`` unless ``until`` says: what
        comes after the moment the question is about may answer it."""
        if isinstance(raw, str):
            raw = {"hand": raw}
        if not isinstance(raw, dict) or "hand" not in raw:
            self.bad(path, "guide needs the hand: {hand: set-bid, at: trick 4}, an example "
                           "hand's name or a hand record's path from this lesson's folder")
            return None
        for key in raw:
            if key not in GUIDE_KEYS:
                self.bad((*path, key), f"a guide has no key {key!r} (expected "
                                       f"{', '.join(GUIDE_KEYS)})")
        hand = self.word((*path, "hand"), raw["hand"], "an example hand's name or a path")
        at = self.value((*path, "at"), raw.get("at", "deal"), parse_moment, MOMENT_FORMS)
        until = (self.value((*path, "until"), raw["until"], parse_moment, MOMENT_FORMS)
                 if "until" in raw else at if asks else SCORE)
        seat = None
        if "seat" in raw:
            try:
                seat = Seat.parse(str(raw["seat"]))
            except ValueError as err:
                self.bad((*path, "seat"), str(err))
        if hand is None or at is None or until is None or ("seat" in raw and seat is None):
            return None
        file = self.hand_file(hand)
        if file is None:
            self.bad((*path, "hand"), f"no example hand {hand!r} (there are: "
                                      f"{', '.join(example_hands())}); a file of your own is "
                                      "named by its path, such as hands/my-hand.yaml")
            return None
        if not file.is_file():
            self.bad((*path, "hand"), f"no hand record at {str(file)!r} (a path is read from "
                                      "this lesson's folder)")
            return None
        try:
            record = load_record(file)
        except LoadError as err:  # the hand's own problems, at the hand's own lines
            self.problems.extend(err.problems)
            return None
        if seat is not None and seat >= record.rules.players:
            self.bad((*path, "seat"), f"{seat.word} has no seat at this hand's "
                                      f"{record.rules.players}-player table")
            return None
        return StepGuide(hand, record, at, seat, self.doc.where((*path, "at"))[0], until,
                         self.doc.where((*path, "until"))[0] if "until" in raw else 0)

    def hand_file(self, hand: str) -> Path | None:
        """An example hand by name (``set-bid``), else a path from the lesson's folder."""
        if "/" not in hand and "\\" not in hand and not hand.endswith((".yaml", ".yml")):
            return example_hand(hand) if hand in example_hands() else None
        path = Path(hand)
        return path if path.is_absolute() else Path(self.doc.file).parent / path

    def cite(self, raw: dict[str, Any], path: tuple[str | int, ...]) -> tuple[str, ...]:
        cite = raw.get("cite")
        if cite is None:
            return ()
        if isinstance(cite, str):
            cite = [cite]
        if not isinstance(cite, list):
            self.bad((*path, "cite"), "cite must be a rule id or a list of rule ids, such as "
                                      "[rank.right-bower]")
            return ()
        out = []
        for j, rid in enumerate(cite):
            if not isinstance(rid, str):
                self.bad((*path, "cite", j), f"expected a rule id such as rank.right-bower, "
                                             f"not {rid!r}")
            elif rid not in get_rulebook():
                self.bad((*path, "cite", j), f"no rule {rid!r} in the rulebook")
            else:
                out.append(rid)
        return tuple(out)

    def situation(self, kind: str, raw: dict[str, Any], path: tuple[str | int, ...],
                  rules: RuleSet) -> None:
        """Situations no hand can reach, which the steps themselves would set up and teach."""
        hand, trick, seats = raw.get("hand"), raw.get("trick"), raw.get("seats")
        if kind in ("play", "legal-plays") and isinstance(hand, list) and len(hand) > 6:
            self.bad((*path, "hand"), f"the hand holds {len(hand)} cards; a player holds at "
                                      "most 6")
        if kind in ("play", "legal-plays") and isinstance(trick, list) and \
                len(trick) >= rules.players:
            self.bad((*path, "trick"), f"the trick already holds {len(trick)} cards, one from "
                                       f"each of the {rules.players} players, so the learner "
                                       "has nothing left to play to it")
        if kind == "trick-winner" and isinstance(seats, list) and all(
                isinstance(s, str) for s in seats) and len({s.strip().upper() for s in seats}
                                                           ) != len(seats):
            self.bad((*path, "seats"), "a seat appears twice in the trick: each player plays "
                                       "one card to it")
        if kind == "defend" and "mode" in raw and str(raw.get("bid")).strip().upper() in (
                "BP", "BIG PEPPER") and str(raw["mode"]).strip().lower() == "exchange":
            self.bad((*path, "mode"), "big pepper is played alone with no exchange; give no "
                                      "mode")

    def hand_of_six(self, raw: dict[str, Any], path: tuple[str | int, ...]) -> None:
        """Choice steps deal the learner a real hand: six different cards, or none."""
        hand = raw.get("hand")
        if isinstance(hand, list) and hand and len(hand) != 6:
            self.bad((*path, "hand"), f"the hand holds {len(hand)} card"
                                      f"{'s' if len(hand) != 1 else ''}; a hand has 6")
        elif isinstance(hand, list) and len({str(c).upper() for c in hand}) != len(hand):
            self.bad((*path, "hand"), "a card appears twice in the hand")

    def wrong_notes(self, step: Step[Any], raw: Any, path: tuple[str | int, ...]) -> dict[str, str]:
        if raw is None:
            return {}
        if not isinstance(raw, list):
            self.bad(path, "wrong must be a list of {answer: ..., note: ...}")
            return {}
        notes = {}
        for j, item in enumerate(raw):
            if not isinstance(item, dict) or "answer" not in item or "note" not in item:
                self.bad((*path, j), "each wrong answer needs answer and note")
                continue
            if item["answer"] is None:
                self.bad((*path, j, "answer"), "answer is empty; expected a wrong answer")
                continue
            try:
                key = step.key(step.parse(item["answer"]))
            except (AnswerError, NotationError) as err:
                self.bad((*path, j, "answer"), f"this wrong answer cannot be read: {err}")
                continue
            except (ValueError, TypeError):
                key = str(item["answer"])
            notes[key] = _text(self.note((*path, j, "note"), item["note"])) or ""
        return notes

    def build(self, kind: str, raw: dict[str, Any], path: tuple[str | int, ...],
              common: dict[str, Any]) -> Step[Any] | None:
        before = len(self.problems)

        def get(key: str, parse: Callable[[Any], Any], what: str, default: Any) -> Any:
            if key not in raw:
                return default
            got = self.value((*path, key), raw[key], parse, what)
            return default if got is None else got

        def cards(key: str) -> tuple[Card, ...]:
            return self.cards((*path, key), raw.get(key))

        def seat(value: Any) -> Seat:  # a seat at this step's table (cutthroat has no W)
            return _seat_at(value, common["rules"])

        named_trump = get("trump", _trump, "C, D, H, S or NT", None)
        trump = Trump.H if named_trump is None else named_trump
        step: Step[Any]
        if kind == "explain":
            text = _text(self.note((*path, "text"), raw.get("text"))) or ""
            step = ExplainStep(**common, text=text, cards=cards("cards"),
                               trump=named_trump)
        elif kind == "rank":
            step = RankStep(**common, trump=trump, cards=cards("cards"))
        elif kind == "trick-winner":
            seats = get("seats", lambda v: tuple(seat(s) for s in v), "seats", ())
            step = TrickWinnerStep(**common, trump=trump, trick=cards("trick"), seats=seats)
        elif kind == "legal-plays":
            step = LegalPlaysStep(**common, trump=trump, trick=cards("trick"), hand=cards("hand"))
        elif kind == "play":
            step = PlayStep(**common, trump=trump, trick=cards("trick"), hand=cards("hand"),
                            after=cards("after"))
        elif kind == "score":
            step = self.score_step(raw, path, common, get)
        elif kind == "table":
            step = TableStep(**common, ask=str(raw.get("ask", "")),
                             dealer=get("dealer", seat, "a seat", Seat.W),
                             auction=get("auction", lambda v: tuple(Bid.parse(c) for c in v),
                                         "a list of calls", ()),
                             trump=trump, mode=get("mode", lambda v: Mode.parse(str(v)),
                                                   "exchange or partner", None),
                             played=get("played", _count, "a number of cards, 0 to 3", 0))
            if step.ask not in TableStep.ASKS:
                self.bad((*path, "ask"), f"ask must be one of {', '.join(TableStep.ASKS)}")
        elif kind == "game":
            overtime = raw.get("overtime", False)
            if not isinstance(overtime, bool):
                self.bad((*path, "overtime"), f"overtime must be true or false, not {overtime!r}")
            step = GameStep(**common, before=self.points(raw, path, "before"),
                            points=self.points(raw, path, "points"), overtime=overtime is True)
        else:
            step = self.choice_step(kind, raw, path, common, get, cards, trump)
        return step if len(self.problems) == before else None

    def points(self, raw: dict[str, Any], path: tuple[str | int, ...],
               key: str) -> dict[str, int]:
        value = raw.get(key)
        if not isinstance(value, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
            self.bad((*path, key), f"{key} must map each side to whole points, such as "
                                   "{NS: 40, EW: 38}")
            return {}
        return {str(k): v for k, v in value.items()}

    def score_step(self, raw: dict[str, Any], path: tuple[str | int, ...],
                   common: dict[str, Any], get: Callable[..., Any]) -> Step[Any]:
        rules: RuleSet = common["rules"]
        bid = get("bid", Bid.parse, "a bid: 1-6, LP or BP", Bid.FOUR)
        bidder = get("bidder", lambda v: _seat_at(v, rules), "a seat", Seat.N)
        tricks = raw.get("tricks")
        surrendered = str(raw.get("defense", "")).strip().lower() == "surrender"
        if tricks is None and surrendered:
            tricks = {s: 0 for s in rules.sides}
        if isinstance(tricks, int) and not isinstance(tricks, bool):
            if not 0 <= tricks <= 6:
                self.bad((*path, "tricks"), "tricks must be the bidders' tricks, a number from "
                                            f"0 to 6 (a hand has six tricks), not {tricks}")
                tricks = max(0, min(6, tricks))
            side = rules.side_of(bidder)
            others = [s for s in rules.sides if s != side]
            if len(others) != 1:
                self.bad((*path, "tricks"), "with more than two sides give tricks for each "
                                            "side, such as {N: 3, E: 2, S: 1}")
                tricks = {}
            else:
                tricks = {side: tricks, others[0]: 6 - tricks}
        elif isinstance(tricks, dict):
            tricks = self.trick_counts(tricks, (*path, "tricks"), rules)
        else:
            self.bad((*path, "tricks"), "tricks must be the bidders' tricks or a mapping of "
                                        "side to tricks")
            tricks = {}
        defense = get("defense", lambda v: Defense.parse(str(v)), "play or surrender",
                      Defense.PLAY)
        if defense is Defense.SURRENDER:
            tricks = {s: 0 for s in rules.sides}
        return ScoreStep(**common, bid=bid, bidder=bidder, tricks=tricks, defense=defense)

    def trick_counts(self, raw: dict[str, Any], path: tuple[str | int, ...],
                     rules: RuleSet) -> dict[str, int]:
        out: dict[str, int] = {}
        for side, n in raw.items():
            if side not in rules.sides:
                self.bad((*path, side), f"{side!r} is not a side here (expected "
                                        f"{', '.join(rules.sides)})")
            elif isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 6:
                self.bad((*path, side), f"expected a number of tricks from 0 to 6, not {n!r}")
            else:
                out[str(side)] = n
        if len(out) == len(raw) and sum(out.values()) != 6 and any(out.values()):
            self.bad(path, f"the tricks add up to {sum(out.values())}; a hand has six")
        return out

    def choice_step(self, kind: str, raw: dict[str, Any], path: tuple[str | int, ...],
                    common: dict[str, Any], get: Callable[..., Any],
                    cards: Callable[[str], tuple[Card, ...]], trump: Trump) -> Step[Any]:
        accept_raw = raw.get("accept") or []
        if not isinstance(accept_raw, list):
            accept_raw = [accept_raw]
        reason = _text(self.note((*path, "reason"), raw.get("reason"))) or ""
        bid = get("bid", Bid.parse, "a bid: 1-6, LP or BP", Bid.FOUR)
        step: Any
        if kind == "bid":
            dealer = get("dealer", lambda v: _seat_at(v, common["rules"]), "a seat", Seat.W)
            auction = get("auction", lambda v: tuple(Bid.parse(c) for c in v),
                          "a list of calls", ())
            step = BidStep(**common, hand=cards("hand"), dealer=dealer, auction=auction,
                           reason=reason)
        elif kind == "declare":
            choose = str(raw.get("choose", "trump"))
            if choose not in ("trump", "mode"):
                self.bad((*path, "choose"), "choose must be trump or mode")
            step = DeclareStep(**common, choose=choose, hand=cards("hand"), bid=bid,
                               trump=trump, reason=reason)
        elif kind == "exchange":
            role = str(raw.get("role", "bidder"))
            if role not in ("bidder", "partner"):
                self.bad((*path, "role"), "role must be bidder or partner")
            if "prompt" not in raw and role == "partner":
                common["prompt"] = "Which card do you send to the bidder?"
            step = ExchangeStep(**common, role=role, hand=cards("hand"), trump=trump, bid=bid,
                                reason=reason)
        else:
            mode = get("mode", lambda v: Mode.parse(str(v)), "exchange or partner",
                       Mode.EXCHANGE)
            step = DefendStep(**common, hand=cards("hand"), trump=trump, bid=bid, mode=mode,
                              reason=reason)
        accepted = []
        for j, item in enumerate(accept_raw):
            own_reason = None
            if isinstance(item, dict):  # {answer: 4, reason: why 4 is right too}
                if set(item) - {"answer", "reason"} or "answer" not in item:
                    self.bad((*path, "accept", j), "an accepted answer is a value, or a "
                                                   "mapping with answer and reason")
                    continue
                own_reason = _text(self.note((*path, "accept", j, "reason"), item.get("reason")))
                item = item["answer"]
            value = self.value((*path, "accept", j), item, step.parse_value,
                               "an answer of this step's kind")
            if value is not None:
                accepted.append(value)
                if own_reason:
                    step.reasons[step.key(value)] = own_reason
        step.accept = tuple(accepted)
        step.disagree = _text(self.note((*path, "disagree"), raw.get("disagree"))) or ""
        return step  # type: ignore[no-any-return]


HANDS_OF_SIX = ("bid", "declare", "exchange", "defend")


def _trump(raw: Any) -> Trump:
    if isinstance(raw, dict | list | bool):
        raise ValueError(f"not {raw!r}")
    return Trump.parse(str(raw))


def _count(raw: Any) -> int:
    """A whole number of 0 or more written as such: not true, not 1.5, not "abc", not [1]."""
    if type(raw) is not int:
        raise ValueError(f"not {raw!r}")
    if raw < 0:
        raise ValueError(f"{raw} is below 0")
    return raw


def _key_name(path: tuple[str | int, ...]) -> str:
    named = [p for p in path if isinstance(p, str)]
    return named[-1] if named and not isinstance(path[-1], int) else "this value"


def _text(raw: Any) -> str | None:
    return None if raw is None else " ".join(str(raw).split())


def check_lesson(lesson: Lesson, known_ids: set[str] | None = None,
                 analysis: bool = False) -> list[Problem]:
    """Every place where the lesson and the engine disagree, with the step named. With
    ``analysis``, also every judgement step whose accepted answers the sampled analysis
    contradicts (seeded and bounded: the same verdict on every run)."""
    out: list[Problem] = []

    def bad(step: Step[Any] | None, message: str) -> None:
        where = f"step {step.id} ({step.kind}): " if step else ""
        out.append(Problem(lesson.file, step.line if step else 1, 1, where + message))

    for step in lesson.steps:
        guide = lesson.guides.get(step.id)
        if guide is not None:
            for problem, line in _guide_problems(guide):
                out.append(Problem(lesson.file, line or step.line, 1,
                                   f"step {step.id} ({step.kind}): {problem}"))
        try:
            found = step.problems()
        except (ValueError, TypeError, IndexError, KeyError, NotImplementedError) as err:
            # The loader refuses every bad input it knows of; should one slip through, it is
            # still a located problem of this file, and the other files are still checked.
            found = [f"the engine cannot set this step up: {err}"]
        for problem in found:
            bad(step, problem)
        if found:
            continue
        if step.id in lesson.claims:
            claim = lesson.claims[step.id]
            if claim is not None and not step.is_right(claim):
                bad(step, f"the lesson says the answer is {_claim_text(claim)}, but the "
                          f"engine says {step.answer_text()}")
        for key, _note in step.wrong.items():
            if not step.problems():
                try:
                    if step.is_right(step.parse(key)):
                        bad(step, f"the wrong answer {key!r} is in fact right")
                except (AnswerError, NotationError):
                    pass
        if analysis and isinstance(step, ChoiceStep) and not step.problems():
            for problem in step.analysis_problems():
                bad(step, problem)
    if known_ids is not None:
        for req in lesson.requires:
            if req not in known_ids:
                bad(None, f"requires {req!r}, which is not a lesson")
    if len(lesson.answerable_steps) < 1:
        bad(None, "a lesson needs at least one step that asks something")
    return out


def _guide_problems(guide: StepGuide) -> list[tuple[str, int]]:
    """Where a step's guide opens or ends at a moment its hand has not, or ends before it
    opens; each with the line that says so. (Whether what it shows gives the step's answer
    away is the guide's own words: ``render.guide.guide_gives_away``.)"""
    out = []
    if missing := moment_problem(guide.record, guide.at):
        out.append((f"the guide opens {guide.words}, but {missing}", guide.line))
    line = guide.until_line or guide.line
    if guide.until is guide.at:  # the default for a step that asks: said once, above
        return out
    if missing := moment_problem(guide.record, guide.until):
        out.append((f"the guide ends at {guide.until.text}, but {missing}", line))
    elif moment_place(guide.record, guide.until) < moment_place(guide.record, guide.at):
        out.append((f"the guide ends at {guide.until.text}, before it opens at "
                    f"{guide.at.text} (until is the last moment shown: {guide.at.text} or "
                    "later)", line))
    return out


def _claim_text(claim: Any) -> str:
    if isinstance(claim, list | tuple | frozenset):
        return " ".join(c.display if isinstance(c, Card) else str(c) for c in claim)
    if isinstance(claim, dict):
        return ", ".join(f"{k} {v:+d}" for k, v in claim.items())
    return claim.display if isinstance(claim, Card) else str(claim)


def lesson_files() -> list[Path]:
    """The lesson files shipped with the package (``lessons/`` in the source tree)."""
    root = Path(str(resources.files("pepper_tutor").joinpath("data", "lessons")))
    return sorted(p for p in root.iterdir() if p.suffix == ".yaml")


def all_lessons() -> list[Lesson]:
    lessons = [load_lesson(p) for p in lesson_files()]
    return sorted(lessons, key=lambda lesson: Path(lesson.file).name)


def find_lesson(name: str) -> Lesson:
    lessons = all_lessons()
    for lesson in lessons:
        if name in (lesson.id, Path(lesson.file).stem):
            return lesson
    ids = ", ".join(lesson.id for lesson in lessons)
    raise LoadError([Problem(name, 0, 0, f"no lesson called {name!r} (there are: {ids})")])


def _seat_at(value: Any, rules: RuleSet) -> Seat:
    """A seat that sits at a table of these rules: West is no player of three-handed
    cutthroat, so a step naming it is refused, not quietly scored for no side."""
    seat = Seat.parse(str(value))
    if seat >= rules.players:
        seats = ", ".join(Seat(i).name for i in range(rules.players))
        raise ValueError(f"{seat.name} is not at a {rules.players}-player table (its seats "
                         f"are {seats})")
    return seat
