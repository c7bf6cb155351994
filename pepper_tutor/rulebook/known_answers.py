"""Recompute the known answers stated in the rulebook's examples with the engine.

Every rulebook example may carry a ``check`` block (a trick and its winner, a legal-play set,
a ranking, a score, an auction call, an end-of-game case, a defence). The test suite runs
each one here, so a rule text and the engine cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import Card
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, legal_plays, trick_winner
from ..engine.rules import get_ruleset
from ..engine.scoring import game_status, score_hand
from ..engine.seats import Seat
from ..engine.state import HandState, Phase

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


def run_check(check: dict[str, Any]) -> CheckResult:
    kind = check["kind"]
    if kind == "trick":
        computed: object = trick_winner([str(c) for c in check["cards"]], str(check["trump"]))
        return CheckResult(computed == check["winner"], check["winner"], computed)
    if kind == "legal":
        got = _cards(legal_plays(check["hand"], str(check["led"]), str(check["trump"])))
        return CheckResult(got == _cards(check["legal"]), _cards(check["legal"]), got)
    if kind == "rank":
        trump = Trump.parse(str(check["trump"]))
        cards = [Card.parse(str(c)) for c in check["order"]]
        suits = {EFFECTIVE_SUIT[trump][c.index] for c in cards}
        ordered = sorted(cards, key=lambda c: -TRICK_RANK[trump][c.index])
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
        rules = get_ruleset(check["rules"])
        totals = {s: check["before"][s] + check["hand"][s] for s in check["before"]}
        status = game_status(rules, totals, bool(check.get("overtime", False)))
        stated = (check["over"], check["winner"])
        return CheckResult((status.over, status.winner) == stated, stated,
                           (status.over, status.winner))
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
