"""Recompute the known answers stated in the rulebook's examples with the engine.

Every rulebook example may carry a ``check`` block (a trick and its winner, a legal-play set,
a ranking, a score, an auction call, an end-of-game case, a defence). The test suite runs
each one here, so a rule text and the engine cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pepper_tutor.engine.calls import Bid, Defense, Mode, Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.ranking import (
    EFFECTIVE_SUIT,
    TRICK_RANK,
    legal_plays,
    trick_winner,
    trump_code,
)
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.engine.scoring import game_status, score_hand
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.signals import holds_shown
from pepper_tutor.engine.state import HandState, Phase

__all__ = ["CheckResult", "run_check"]


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    stated: object
    computed: object

    def __str__(self) -> str:
        return "agrees" if self.ok else f"stated {self.stated!r}, engine says {self.computed!r}"


def _cards(items: list[Any]) -> list[str]:
    return [str(Card.parse(str(c))) for c in items]


def _left_bower(check: dict[str, Any]) -> bool:
    """The card-level checks rank by the example's rule set (``rules:``, default standard)."""
    return get_ruleset(check.get("rules", "standard")).left_bower


def _hand_points(check: dict[str, Any]) -> dict[str, int]:
    """A worked example's points, from the hand it describes (never stated bare)."""
    hand = check["hand"]
    rules = get_ruleset(check["rules"])
    bid = Bid.parse(hand["bid"])
    side = rules.side_of(Seat.parse(hand["bidder"]))
    return score_hand(rules, bid, side, hand["tricks"], hand["defense"] == "surrender").points


def run_check(check: dict[str, Any]) -> CheckResult:
    kind = check["kind"]
    left = _left_bower(check) if kind in ("trick", "legal", "rank") else True
    if kind == "trick":
        computed: object = trick_winner([str(c) for c in check["cards"]], str(check["trump"]),
                                        left)
        return CheckResult(computed == check["winner"], check["winner"], computed)
    if kind == "legal":
        got = _cards(legal_plays(check["hand"], str(check["led"]), str(check["trump"]), left))
        return CheckResult(got == _cards(check["legal"]), _cards(check["legal"]), got)
    if kind == "rank":
        code = trump_code(Trump.parse(str(check["trump"])), left)
        cards = [Card.parse(str(c)) for c in check["order"]]
        suits = {EFFECTIVE_SUIT[code][c.index] for c in cards}
        ordered = sorted(cards, key=lambda c: -TRICK_RANK[code][c.index])
        got = [str(c) for c in ordered] if len(suits) == 1 else ["(mixed suits)"]
        return CheckResult(got == _cards(check["order"]), _cards(check["order"]), got)
    if kind == "score":
        rules = get_ruleset(check["rules"], **({"players": check["players"]}
                                               if "players" in check else {}))
        bid = Bid.parse(check["bid"])
        side = rules.side_of(Seat.parse(check["bidder"]))
        score = score_hand(rules, bid, side, check["tricks"], check["defense"] == "surrender")
        return CheckResult(score.points == check["expect"], check["expect"], score.points)
    if kind == "auction":
        state = HandState.deal(check["rules"], Seat.parse(check["dealer"]), rng=0)
        for call in check["calls"]:
            state.apply(Bid.parse(call))
        verdict = state.check(check["call"])
        return CheckResult(verdict.legal == check["legal"], check["legal"], verdict.legal)
    if kind == "game":
        # The hand is described (bid, bidder, tricks), so its points come from the scoring
        # tables: a stated result that no hand can produce fails here.
        rules = get_ruleset(check["rules"])
        points = _hand_points(check)
        totals = {s: check["before"][s] + points[s] for s in check["before"]}
        status = game_status(rules, totals, bool(check.get("overtime", False)))
        stated = (check["points"], check["after"], check["over"], check["winner"])
        computed = (points, totals, status.over, status.winner)
        return CheckResult(computed == stated, stated, computed)
    if kind == "lead":
        # Drive the hand through its auction and trump to the first lead, as it is played.
        state = HandState.deal(check["rules"], Seat.parse(check["dealer"]), rng=0)
        for call in check["calls"]:
            state.apply(Bid.parse(call))
        state.apply(Trump.parse(str(check["trump"])))
        if state.phase is Phase.DECLARE_MODE:
            state.apply(Mode.PARTNER)
        if state.phase is Phase.DEFENSE:
            state.apply(Defense.PLAY)
        leader = str(state.to_act)
        return CheckResult(leader == check["leader"], check["leader"], leader)
    if kind == "signal":
        rules = get_ruleset(check["rules"])
        cards = [Card.parse(str(c)).index for c in check["cards"]]
        shows = holds_shown(rules, Bid.parse(check["bid"]), cards)
        return CheckResult(shows == check["shows"], check["shows"], shows)
    if kind == "defend":
        allowed = _surrender_allowed(check["rules"], Trump.parse(str(check["trump"])))
        return CheckResult(allowed == check["surrender_allowed"], check["surrender_allowed"],
                           allowed)
    raise ValueError(f"unknown check kind {kind!r}")


def _surrender_allowed(rules: Any, trump: Trump) -> bool:
    """Drive a real hand to the defenders' decision and ask the engine."""
    state = HandState.deal(rules, Seat.W, rng=0)
    state.apply(state.rules.ladder[0])
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(trump)
    if state.phase is Phase.DECLARE_MODE:
        state.apply(Mode.PARTNER)
    return state.phase is Phase.DEFENSE and Defense.SURRENDER in state.legal_actions()
