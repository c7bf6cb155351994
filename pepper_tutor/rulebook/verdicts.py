"""Verdicts on a whole hand: may this seat make this call, name these trumps, send this card?

:func:`check_action` reads a :class:`~pepper_tutor.engine.state.HandState` and returns a
:class:`~.verdict.Verdict` that names the rule ids, states the concrete facts of the position
("the standing bid is 3 by North; 2 does not top it"), quotes the rulebook and lists the legal
alternatives. Card-level questions (one trick) live in :mod:`.tricks`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.calls import Bid, Defense, Mode, SuitedBidError, Trump
from ..engine.cards import Card, NotationError, cards_display, wrong_type
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from .tricks import check_play
from .verdict import Verdict, action_text

__all__ = ["Verdict", "action_text", "check_action"]


_PHASE_TASK = {
    Phase.AUCTION: ("bid or pass", "bid.order"),
    Phase.DECLARE_TRUMP: ("name trumps or no trump", "declare.trump"),
    Phase.DECLARE_MODE: ("choose to exchange or to play with partner", "declare.exchange"),
    Phase.DISCARD: ("discard one card for the exchange", "declare.exchange"),
    Phase.SEND: ("hand one card to the bidder", "declare.exchange"),
    Phase.DEFENSE: ("decide, for the defenders, to play or surrender", "defend.surrender"),
    Phase.PLAY: ("play a card", "play.turn"),
}


# The kind of action each phase takes. Enums of another kind are refused by type before
# parsing: Bid, Trump and Seat are IntEnums, so Trump.NT would otherwise read as a bid of 4.
_PHASE_KIND: dict[Phase, type] = {
    Phase.AUCTION: Bid, Phase.DECLARE_TRUMP: Trump, Phase.DECLARE_MODE: Mode,
    Phase.DISCARD: Card, Phase.SEND: Card, Phase.DEFENSE: Defense, Phase.PLAY: Card,
}
_KIND_WORDS: dict[type, str] = {Bid: "a bid", Trump: "a choice of trumps",
                                Mode: "a way of playing",
                                Defense: "a defence", Card: "a card", Seat: "a seat"}
_PHASE_WORDS = {Phase.AUCTION: "the auction", Phase.DECLARE_TRUMP: "naming trumps",
                Phase.DECLARE_MODE: "choosing how to play", Phase.DISCARD: "the exchange",
                Phase.SEND: "the exchange", Phase.DEFENSE: "the defenders' decision",
                Phase.PLAY: "the play"}


def _parse_for_phase(state: HandState, raw: Action | str | int) -> Action:
    phase = state.phase
    kind = _PHASE_KIND[phase]
    for other in _KIND_WORDS:
        if other is not kind and isinstance(raw, other):
            shown = action_text(raw)  # type: ignore[arg-type]  # an enum or a Card here
            raise NotationError(f"{shown[0].upper()}{shown[1:]} is {_KIND_WORDS[other]}, but "
                                f"{_PHASE_WORDS[phase]} needs {_KIND_WORDS[kind]}.")
    if isinstance(raw, bool):
        raise NotationError(f"{raw!r} is not {_KIND_WORDS[kind]}; {_PHASE_WORDS[phase]} needs "
                            f"{_KIND_WORDS[kind]}.")
    if phase is Phase.AUCTION:
        return Bid.parse(raw)  # type: ignore[arg-type]
    if phase is Phase.DECLARE_TRUMP:
        return Trump.parse(raw)  # type: ignore[arg-type]
    if phase is Phase.DECLARE_MODE:
        return Mode.parse(raw)  # type: ignore[arg-type]
    if phase is Phase.DEFENSE:
        return Defense.parse(raw)  # type: ignore[arg-type]
    return Card.parse(raw)  # type: ignore[arg-type]


def _try(parse: Callable[[Any], object], raw: object) -> object | None:
    try:
        result: object = parse(raw)
        return result
    except (NotationError, TypeError):
        return None


def check_action(state: HandState, raw: Action | str | int,
                 seat: Seat | str | None = None, second_person: bool = True) -> Verdict:
    """See :meth:`HandState.check`. ``second_person=False`` names the seat instead of
    saying "you" (for annotations read by a whole table)."""
    if not isinstance(state, HandState):
        raise wrong_type(state, "a HandState")
    actor = state.to_act
    who = Seat.parse(seat) if seat is not None else actor
    if actor is None:
        return Verdict(False, None, who, ("play.trick-winner",) if state.phase is Phase.SCORED
                       else ("bid.all-pass",),
                       ("The hand is over: " + ("it has been scored" if state.phase is Phase.SCORED
                                                else "everyone passed and it was thrown in")
                        + "; nothing more can be done in it.",))
    task, task_rule = _PHASE_TASK[state.phase]
    legal = state.legal_actions()
    if who is not actor:
        facts = (f"It is {actor.word}'s turn to {task}; {who.word if who else 'that seat'} "
                 "must wait.",)
        rules = ("play.turn", "bid.order") if state.phase is Phase.AUCTION else ("play.turn",)
        return Verdict(False, None, who, rules, facts, tuple(legal))
    try:
        action = _parse_for_phase(state, raw)
    except SuitedBidError as err:
        return Verdict(False, None, actor, ("bid.ladder", "declare.trump"), (f"{err}.",),
                       tuple(legal))
    except NotationError as err:
        return _wrong_kind(state, raw, actor, task, task_rule, legal, str(err))

    if state.phase is Phase.AUCTION:
        return _check_call(state, actor, action, legal)  # type: ignore[arg-type]
    if state.phase in (Phase.DISCARD, Phase.SEND):
        return _check_exchange_card(state, actor, action, legal)  # type: ignore[arg-type]
    if state.phase is Phase.DEFENSE:
        return _check_defense(state, actor, action, legal)  # type: ignore[arg-type]
    if state.phase is Phase.PLAY:
        assert state.trump is not None
        return check_play(state.hand(actor), state.led_card, state.trump,
                          action, actor, second_person,  # type: ignore[arg-type]
                          state.rules.left_bower)
    if state.phase is Phase.DECLARE_TRUMP:
        trump = Trump(action)  # type: ignore[arg-type]
        if trump.suit is None:
            fact = (f"{actor.word} names no trump: no bowers this hand, and every suit ranks "
                    "ace down to 9.")
        elif state.rules.left_bower:
            fact = (f"{actor.word} names {trump.word}: the J{trump.display} is the right "
                    f"bower and the J{trump.suit.sister.symbol} the left bower.")
        else:
            fact = (f"{actor.word} names {trump.word}: the J{trump.display} is the highest "
                    f"trump; this table plays without a left bower, so the "
                    f"J{trump.suit.sister.symbol} stays a {trump.suit.sister.plural[:-1]}.")
        ids = ("declare.trump",) if state.rules.left_bower or trump.suit is None else (
            "declare.trump", "variant.left-bower")
        return Verdict(True, action, actor, ids, (fact,))
    return Verdict(True, action, actor, ("declare.exchange" if action is Mode.EXCHANGE
                                         else "declare.with-partner",),
                   (f"{actor.word} chooses to {action_text(action)}.",))


def _wrong_kind(state: HandState, raw: object, actor: Seat, task: str, task_rule: str,
                legal: list[Action], parse_error: str) -> Verdict:
    mode = _try(Mode.parse, raw)
    if isinstance(mode, Mode):
        if not state.rules.has_exchange:
            return Verdict(False, None, actor, ("preset.cutthroat",),
                           ("Cutthroat has no exchange: the bidder names trumps and everyone "
                            "plays the cards dealt.",), tuple(legal))
        if state.high_bid is Bid.BIG_PEPPER:
            return Verdict(False, None, actor, ("declare.big-pepper",),
                           (f"The bid is big pepper, so "
                            f"{state.bidder.word if state.bidder else 'the bidder'} plays alone "
                            "with the six cards dealt: there is no exchange, and the partner "
                            "does not play.",),
                           tuple(legal))
    if _try(Defense.parse, raw) is Defense.SURRENDER and not state.rules.has_surrender:
        return Verdict(False, None, actor, ("preset.cutthroat",),
                       ("Cutthroat has no surrender: every player plays the hand out.",),
                       tuple(legal))
    shown = (action_text(raw) if isinstance(raw, Bid | Trump | Mode | Defense | Card | Seat)
             else repr(raw))
    shown = shown[0].upper() + shown[1:] if shown else shown
    detail = parse_error if parse_error.endswith(".") else parse_error + "."
    facts = (f"{shown} is not what this step needs: it is {actor.word}'s turn to {task}.",
             detail[0].upper() + detail[1:])
    return Verdict(False, None, actor, (task_rule,), facts, tuple(legal))


def _check_call(state: HandState, actor: Seat, bid: Bid, legal: list[Action]) -> Verdict:
    rules = state.rules
    standing = state.high_bid
    by = f" by {state.bidder.word}" if state.bidder is not None else ""
    if bid in legal:
        if bid is Bid.PASS:
            fact = f"{actor.word} passes" + (
                "; a pass is final in cutthroat." if rules.open_auction else ".")
            return Verdict(True, bid, actor, ("bid.order",), (fact,))
        return Verdict(True, bid, actor, ("bid.must-top",),
                       (f"{actor.word} bids {bid.display}" + (
                           f", topping {standing.display}{by}." if standing is not Bid.PASS
                           else "."),))
    if rules.dumped_dealer and state.dealer_must_bid_now() and (
            bid is Bid.PASS or bid in rules.ladder):
        return Verdict(False, bid, actor, ("variant.dumped-dealer", "bid.all-pass"),
                       (f"Everyone before the dealer has passed, so {actor.word} is dumped: "
                        f"{actor.word} may not pass and must bid at least "
                        f"{rules.dealer_minimum.display}.",), tuple(legal))
    if bid is Bid.PASS:
        return Verdict(False, bid, actor, ("variant.dealer-must-bid", "bid.all-pass"),
                       (f"Everyone before the dealer has passed and this table sticks the "
                        f"dealer: {actor.word} must bid at least {rules.minimum_bid}.",),
                       tuple(legal))
    if bid not in rules.ladder:
        ladder = ", ".join(b.display for b in rules.ladder)
        if bid.tricks < rules.minimum_bid and not bid.is_pepper:
            return Verdict(False, bid, actor, ("variant.minimum-bid", "bid.ladder"),
                           (f"This table's lowest bid is {rules.minimum_bid}, so "
                            f"{bid.display} is not a bid here (the bids are {ladder}).",),
                           tuple(legal))
        return Verdict(False, bid, actor, ("bid.ladder", f"preset.{rules.preset}"),
                       (f"{bid.display} is not a bid in {rules.preset} Pepper: the bids are "
                        f"{ladder}.",), tuple(legal))
    return Verdict(False, bid, actor, ("bid.must-top",),
                   (f"The standing bid is {standing.display}{by}; {bid.display} does not top it. "
                    f"{actor.word} must bid higher or pass.",), tuple(legal))


def _check_exchange_card(state: HandState, actor: Seat, card: Card,
                         legal: list[Action]) -> Verdict:
    role = "discard it" if state.phase is Phase.DISCARD else "hand it to the bidder"
    if card in legal:
        fact = (f"{actor.word} discards the {card.display} face down; it is out of play."
                if state.phase is Phase.DISCARD else
                f"{actor.word} hands the {card.display} to the bidder and sits out.")
        return Verdict(True, card, actor, ("declare.exchange",), (fact,))
    return Verdict(False, card, actor, ("declare.exchange",),
                   (f"{actor.word} does not hold the {card.display}, so cannot {role}. "
                    f"{actor.word} holds {cards_display(state.hand(actor))}.",), tuple(legal))


def _check_defense(state: HandState, actor: Seat, choice: Defense,
                   legal: list[Action]) -> Verdict:
    if choice in legal:
        if choice is Defense.SURRENDER:
            return Verdict(True, choice, actor, ("defend.surrender", "score.surrender"),
                           ("The defenders surrender: the hand ends unplayed.",))
        return Verdict(True, choice, actor, ("defend.surrender",),
                       ("The defenders play the hand out.",))
    if state.rules.dumped_dealer and state.dealer_dumped():
        return Verdict(False, choice, actor, ("variant.dumped-dealer", "defend.surrender"),
                       ("The dealer was dumped (everyone else passed) and had to bid, so the "
                        "defenders may not surrender: they must play the hand out.",),
                       tuple(legal))
    return Verdict(False, choice, actor, ("variant.dirty-clubs", "defend.surrender"),
                   ("Clubs are trumps and this table plays dirty clubs, so the defenders may "
                    "not surrender: they must play the hand out.",), tuple(legal))
