"""Judgement drills are dealt from auctions the players would make (issue 38).

Over every shipped screened position: the deal it was dealt from is kept with it, the
learner's hand is that deal's hand at the learner's seat, and each earlier call is the call
the computer players (the club level) make with those hands, replayed through them one
call at a time; the trump named and the way of playing are theirs too. The choices offered
are the ones the rules allow for that contract, and a bid drill names the partner.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pepper_tutor.analysis.players import make_player
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.calls import Bid
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import HandState, Phase
from pepper_tutor.teaching.drills.positions import JUDGEMENT_DRILLS
from pepper_tutor.teaching.drills.screened import load_screened, step_of
from pepper_tutor.teaching.questions.choice_steps import (
    BidStep,
    ChoiceStep,
    DeclareStep,
    DefendStep,
    ExchangeStep,
)

ENTRIES = [(preset, kind, i, entry)
           for preset, kinds in load_screened()["positions"].items()
           for kind, entries in kinds.items() for i, entry in enumerate(entries)]
CLUB = make_player("club", seed=1)


def _seat_and_calls(step: ChoiceStep[Any]) -> tuple[Seat, Seat, list[tuple[Seat, Bid]]]:
    """The learner's seat, the dealer and the calls the question's position has had."""
    if isinstance(step, BidStep):
        calls = [(Seat((step.dealer + 1 + i) % step.rules.players), c)
                 for i, c in enumerate(step.auction)]
        return step.seat, step.dealer, calls
    state = step.state()
    if isinstance(step, DeclareStep):
        return Seat.N, Seat.W, list(state.calls)
    assert isinstance(step, ExchangeStep | DefendStep)
    return step.seat, step.dealer, list(state.calls)


def check_auction(step: ChoiceStep[Any]) -> None:
    """Every call of the step's position is the club players' call with the dealt hands."""
    assert len(step.deal) == step.rules.players, "the deal is kept with the position"
    seat, dealer, calls = _seat_and_calls(step)
    assert tuple(step.deal[seat]) == tuple(step.hand)  # type: ignore[attr-defined]
    state = HandState.from_hands({Seat(i): h for i, h in enumerate(step.deal)}, step.rules,
                                 dealer)
    for who, call in calls:
        assert state.to_act is who
        players_call = CLUB.decide(view_of(state))
        hand = " ".join(c.display for c in step.deal[who])
        assert players_call is call, f"{who.word} holding {hand} calls {players_call}, not {call}"
        state.apply(call)
    named = (isinstance(step, DeclareStep) and step.choose == "mode") or isinstance(
        step, ExchangeStep | DefendStep)
    if named:  # the trump named is the one the players name with the bidder's hand
        assert state.phase is Phase.DECLARE_TRUMP
        assert CLUB.decide(view_of(state)) is step.trump  # type: ignore[attr-defined]


def check_choices(step: ChoiceStep[Any]) -> None:
    offered = step.options()
    assert offered and all(step.verdict(o.value).legal for o in offered), [
        o.label for o in offered if not step.verdict(o.value).legal]
    if isinstance(step, DeclareStep) and step.choose == "mode" and step.bid is not (
            Bid.BIG_PEPPER):
        assert "play alone" not in [o.label for o in offered]
    # the prompt names the partner (the exchange's "East, your partner, bid ...")
    if step.rules.partnerships and step.rules.players == 4:
        seat = _seat_and_calls(step)[0]
        assert (f"your partner is {seat.partner.word}" in step.prompt
                or f"{seat.partner.word}, your partner" in step.prompt), step.prompt


@pytest.mark.parametrize(("preset", "kind", "i", "entry"), ENTRIES,
                         ids=[f"{p}-{k}-{i}" for p, k, i, _ in ENTRIES])
def test_a_shipped_position_comes_from_the_players_auction(preset: str, kind: str, i: int,
                                                           entry: dict[str, Any]) -> None:
    step = step_of(entry)
    check_auction(step)
    check_choices(step)


def test_the_issue_hands_are_not_bid_with() -> None:
    """quiz declare --count 2 --seed 5 asked "You bid 2 and named spades" holding these."""
    from pepper_tutor.engine.cards import DECK, parse_cards
    from pepper_tutor.engine.rules import get_ruleset

    for text in ("10♥ 9♣ 10♦ 9♥ K♠ 9♠", "9♥ Q♣ 10♥ 9♠ K♦ 10♠"):
        rules = get_ruleset("standard")
        hand = parse_cards(text)
        rest = [c for c in DECK if c not in hand]
        hands = {Seat.N: hand, Seat.E: rest[:6], Seat.S: rest[6:12], Seat.W: rest[12:18]}
        state = HandState.from_hands(hands, rules, Seat.W)
        assert CLUB.decide(view_of(state)) is Bid.PASS


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(JUDGEMENT_DRILLS))
def test_a_live_drill_comes_from_the_players_auction(kind: str) -> None:
    from pepper_tutor.engine.rules import get_ruleset

    for preset in ("standard", "simple"):
        step = JUDGEMENT_DRILLS[kind](random.Random(f"live:{kind}"), 1, get_ruleset(preset))
        assert isinstance(step, ChoiceStep)
        check_auction(step)
        check_choices(step)
