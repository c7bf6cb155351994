"""The hand annotator: replay a record and say what happened, and why, at every step.

:func:`annotate` returns an :class:`Annotation`: the contract, each trick with its leader,
cards, winner and the deciding fact with the rule quoted, the trick counts, whether the
contract was made, the score (and the running match score when the record gives the score
before the hand), the record's own notes and glyphs, and findings such as revokes.
Renderers for the terminal, Markdown, HTML and JSON live in :mod:`annotation_render`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..analysis.grading import GradingTables, glyph_for_cost, grade_card
from ..analysis.reasons import card_grade_words
from ..engine.calls import Bid, Defense, Trump
from ..engine.cards import Card
from ..engine.seats import Seat
from ..engine.state import HandState, Phase
from ..rulebook.book import get_rule
from ..rulebook.tricks import explain_trick
from .hand_record import HandRecord, Replay, Step, TrickEnd, load_record

__all__ = ["Finding", "PlayedCard", "TrickNote", "Annotation", "annotate", "annotate_file",
           "ANNOTATION_FORMAT"]

ANNOTATION_FORMAT = "pepper-annotation/1"


@dataclass(frozen=True)
class Finding:
    """Something a teacher would point out: ``where`` is a path such as ``tricks.2.3``
    (trick 2, card 3, counting from 1)."""

    where: str
    kind: str
    rule: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"where": self.where, "kind": self.kind, "rule": self.rule,
                "message": self.message}


def _with_notes(out: dict[str, Any], entry: Any) -> dict[str, Any]:
    """Add the record's own note, glyph and rule id, where it gave them."""
    for key in ("note", "glyph", "rule"):
        if getattr(entry, key) is not None:
            out[key] = getattr(entry, key)
    return out


@dataclass(frozen=True)
class PlayedCard:
    seat: Seat
    card: Card
    note: str | None = None
    glyph: str | None = None
    rule: str | None = None
    revoke: bool = False
    cost: int | None = None  # tricks given away against perfect play, when analysed

    @property
    def grade_glyph(self) -> str:
        return glyph_for_cost(self.cost or 0)

    def to_dict(self) -> dict[str, Any]:
        out = _with_notes({"seat": str(self.seat), "card": str(self.card)}, self)
        if self.cost is not None:
            out["cost"] = self.cost
        if self.revoke:
            out["revoke"] = True
        return out


@dataclass(frozen=True)
class TrickNote:
    number: int
    leader: Seat
    cards: tuple[PlayedCard, ...]
    complete: bool
    winner: Seat | None = None
    winning_card: Card | None = None
    rule: str | None = None
    facts: tuple[str, ...] = ()

    @property
    def explanation(self) -> str | None:
        if self.rule is None:
            return None
        return " ".join(self.facts) + f" [{self.rule}] {get_rule(self.rule).text}"

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "leader": str(self.leader),
                "cards": [c.to_dict() for c in self.cards], "complete": self.complete,
                "winner": None if self.winner is None else str(self.winner),
                "winning_card": None if self.winning_card is None else str(self.winning_card),
                "rule": self.rule, "facts": list(self.facts), "explanation": self.explanation}


@dataclass(frozen=True)
class CallNote:
    seat: Seat
    call: Bid
    note: str | None = None
    glyph: str | None = None
    rule: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _with_notes({"seat": str(self.seat), "call": str(self.call)}, self)


@dataclass(frozen=True)
class Annotation:
    record: HandRecord
    auction: tuple[CallNote, ...]
    status: str  # thrown-in | surrendered | scored | in progress (which step)
    bidder: Seat | None = None
    bid: Bid | None = None
    trump: Trump | None = None
    mode: str | None = None  # exchange | partner | alone (big pepper) | None
    sitting_out: Seat | None = None
    discard: Card | None = None
    passed: Card | None = None
    defense: Defense | None = None
    tricks: tuple[TrickNote, ...] = ()
    tricks_won: dict[str, int] = field(default_factory=dict)
    made: bool | None = None
    score: dict[str, int] | None = None
    score_rules: dict[str, str] = field(default_factory=dict)
    score_reasons: dict[str, str] = field(default_factory=dict)
    findings: tuple[Finding, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()  # (where, note) for the trump/mode/defense entries

    @property
    def complete(self) -> bool:
        return self.status in ("scored", "surrendered", "thrown-in")

    @property
    def match_score(self) -> dict[str, dict[str, int]] | None:
        before = self.record.score_before
        if not before:
            return None
        after = {side: before.get(side, 0) + (self.score or {}).get(side, 0)
                 for side in self.record.rules.sides}
        return {"before": {s: before.get(s, 0) for s in self.record.rules.sides},
                "after": after}

    @property
    def title(self) -> str:
        meta = self.record.meta
        parts = [str(meta[k]) for k in ("event", "date") if meta.get(k)]
        return " · ".join(parts) or Path(self.record.file).stem

    def contract_text(self) -> str:
        if self.status == "thrown-in":
            return "All passed: the hand was thrown in."
        if self.bidder is None or self.bid is None:
            return "The auction is not finished."
        text = f"{self.bidder.word} bid {self.bid.display}"
        if self.trump is not None:
            text += f" in {self.trump.word}"
        if self.mode == "exchange" and self.discard and self.passed:
            text += (f", exchanged (discarded {self.discard.display}, received "
                     f"{self.passed.display}) and played alone")
        elif self.mode == "exchange":
            text += ", exchanged one card with partner and played alone"
        elif self.mode == "alone":
            text += ", alone with the cards dealt"
        elif self.mode == "partner":
            text += ", with partner"
        if self.defense is Defense.SURRENDER:
            text += "; the defenders surrendered"
        return text + "."

    def upto(self, tricks: int) -> Annotation:
        """The same hand shown only as far as trick ``tricks`` (for stepping through it)."""
        shown = self.tricks[:max(0, tricks)]
        findings = tuple(f for f in self.findings
                         if not f.where.startswith("tricks.")
                         or int(f.where.split(".")[1]) <= tricks)
        done = tricks >= len(self.tricks)
        return replace(self, tricks=shown, findings=findings,
                       status=self.status if done else f"trick {tricks} of {len(self.tricks)}",
                       made=self.made if done else None, score=self.score if done else None)

    def to_dict(self) -> dict[str, Any]:
        """The ``pepper-annotation/1`` JSON shape."""
        rec = self.record
        contract = None
        if self.bidder is not None and self.bid is not None:
            contract = {"bidder": str(self.bidder), "bid": str(self.bid),
                        "trump": None if self.trump is None else str(self.trump),
                        "mode": self.mode}
        return {
            "format": ANNOTATION_FORMAT,
            "source": rec.file,
            "title": self.title,
            "rules": rec.rules.name,
            "meta": _jsonable(rec.meta),
            "dealer": str(rec.dealer),
            "deal": {str(s): [str(c) for c in rec.deal[s]] for s in sorted(rec.deal)},
            "auction": [c.to_dict() for c in self.auction],
            "contract": contract,
            "exchange": None if self.discard is None else {
                "discard": str(self.discard), "passed": str(self.passed),
                "partner": None if self.sitting_out is None else str(self.sitting_out)},
            "sitting_out": None if self.sitting_out is None else str(self.sitting_out),
            "defense": None if self.defense is None else str(self.defense),
            "tricks": [t.to_dict() for t in self.tricks],
            "tricks_won": dict(self.tricks_won),
            "made": self.made,
            "score": self.score,
            "score_rules": dict(self.score_rules),
            "match_score": self.match_score,
            "status": self.status,
            "complete": self.complete,
            "notes": [{"where": w, "note": n} for w, n in self.notes],
            "findings": [f.to_dict() for f in self.findings],
        }

    def _repr_html_(self) -> str:
        from ..render.annotation import to_html

        return to_html(self, standalone=False)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def annotate_file(path: str | Path, analyse: bool = False) -> Annotation:
    return annotate(load_record(path), analyse)


def annotate(record: HandRecord, analyse: bool = False) -> Annotation:
    """Replay a validated record and explain it. Revokes become findings; the replay goes on.

    With ``analyse`` every legal card is also graded against perfect play (all hands seen):
    a card that costs its side tricks becomes a finding, marked ? (one trick) or ?? (more)."""
    replay = Replay(record)
    state = replay.state
    calls: list[CallNote] = []
    notes: list[tuple[str, str]] = []
    findings: list[Finding] = []
    tricks: list[TrickNote] = []
    played: list[PlayedCard] = []
    tables: GradingTables = {}
    analyse = analyse and bool(record.deal)  # without the cards there is nothing to solve
    for step in replay:
        if isinstance(step, TrickEnd):
            tricks.append(_trick_note(state, step, tuple(played)))
            played = []
        elif step.entry is None:
            continue  # an exchanged card that a record without the deal cannot give
        elif step.where[0] == "auction":
            calls.append(_call_note(step, findings))
        elif step.where[0] == "tricks":
            played.append(_played_card(state, step, findings, tables if analyse else None))
        elif step.entry.note:
            notes.append((".".join(str(k) for k in step.where), step.entry.note))
    return _summary(record, state, tuple(calls), tuple(tricks), tuple(findings), tuple(notes))


def _call_note(step: Step, findings: list[Finding]) -> CallNote:
    """A call as the record gives it; one marked ? (or ??, ?!) without a note is a finding."""
    entry, seat = step.entry, step.seat
    assert entry is not None
    if entry.glyph in ("?", "??", "?!") and entry.note is None:
        findings.append(Finding(f"auction.{int(step.where[1]) + 1}", "questioned",
                                entry.rule or "bid.order",
                                f"{seat.word}'s call {entry.value.display} is marked "
                                f"{entry.glyph}."))
    return CallNote(seat, entry.value, entry.note, entry.glyph, entry.rule)


def _played_card(state: HandState, step: Step, findings: list[Finding],
                 tables: GradingTables | None) -> PlayedCard:
    """A card as played (the hand just before it): a revoke is a finding, and with
    ``tables`` (analysing) a legal card that costs tricks is one too."""
    entry, seat = step.entry, step.seat
    assert entry is not None
    card: Card = entry.value
    where = f"tricks.{int(step.where[1]) + 1}.{int(step.where[2]) + 1}"
    verdict = state.check(card, second_person=False)
    if not verdict.legal:
        held = ", ".join(c.display for c in verdict.alternatives if isinstance(c, Card))
        findings.append(Finding(
            where, "revoke", verdict.rule_ids[-1],
            f"Revoke: {seat.word} played the {card.display} but held {held}, "
            f"which would have followed. " + " ".join(verdict.facts)))
    cost = None
    if tables is not None and verdict.legal:
        grade = grade_card(state, card, tables)
        cost = grade.cost
        if cost:
            findings.append(Finding(where, "costly", "analysis.double-dummy",
                                    f"{grade.glyph} {card_grade_words(state, grade)}"))
    return PlayedCard(seat, card, entry.note, entry.glyph, entry.rule, not verdict.legal, cost)


def _trick_note(state: HandState, end: TrickEnd, played: tuple[PlayedCard, ...]) -> TrickNote:
    """A trick of the record: when finished, who won it and the deciding fact."""
    finished, trump = end.trick, state.trump
    if finished is None or trump is None:
        return TrickNote(end.index + 1, end.leader, played, False)
    why = explain_trick(finished.cards, trump, finished.seats, state.rules.left_bower)
    return TrickNote(end.index + 1, end.leader, played, True, finished.winner,
                     finished.cards[finished.winning_index], why.rule_id, why.facts)


def _summary(record: HandRecord, state: HandState, calls: tuple[CallNote, ...],
             tricks: tuple[TrickNote, ...], findings: tuple[Finding, ...],
             notes: tuple[tuple[str, str], ...]) -> Annotation:
    if state.phase is Phase.THROWN_IN:
        status = "thrown-in"
    elif state.phase is Phase.SCORED:
        status = "surrendered" if state.defense is Defense.SURRENDER else "scored"
    else:
        status = f"in progress ({state.phase})"
    mode = None
    if state.mode is not None:
        mode = str(state.mode)
    elif state.high_bid is Bid.BIG_PEPPER and state.rules.has_exchange and state.trump:
        mode = "alone"
    score = state.score
    return Annotation(
        record=record, auction=calls, status=status, bidder=state.bidder,
        bid=state.high_bid if state.bidder is not None else None, trump=state.trump,
        mode=mode,
        sitting_out=state.sitting_out,
        discard=state.discard if record.deal else None,  # without a deal they are unknown
        passed=state.passed if record.deal else None,
        defense=state.defense, tricks=tricks, tricks_won=state.tricks_won(),
        made=score.made if score else None, score=dict(score.points) if score else None,
        score_rules=dict(score.rules) if score else {},
        score_reasons=dict(score.reasons) if score else {},
        findings=findings, notes=notes)
