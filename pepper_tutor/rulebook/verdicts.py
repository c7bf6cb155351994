"""Verdicts: whether an action is allowed, and why, in words a learner can use.

A :class:`Verdict` names the rule ids, states the concrete facts of the position ("hearts
are trumps, so the J♦ is the left bower and counts as a heart ..."), quotes the rulebook and
lists the legal alternatives. :func:`explain_trick` says who wins a trick and what decided it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK, Card, CardLike, NotationError, Suit, cards_display
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, bower, legal_plays, sort_by_rank, winner_of
from ..engine.seats import Seat
from ..engine.state import Action, HandState, Phase
from .book import Rule, get_rule

__all__ = [
    "TrickExplanation",
    "Verdict",
    "action_text",
    "check_action",
    "check_trick_winner",
    "explain_trick",
]


def action_text(action: Action) -> str:
    """How an action reads to a person: ``J♥``, ``little pepper``, ``hearts``, ``surrender``."""
    if isinstance(action, Card):
        return action.display
    if isinstance(action, Bid):
        return action.display
    if isinstance(action, Trump):
        return action.word
    if isinstance(action, Mode):
        return action.display
    return str(action)


@dataclass(frozen=True)
class Verdict:
    """The answer to "may I do this?": legal or not, the facts, the rules, the alternatives."""

    legal: bool
    action: Action | None
    seat: Seat | None
    rule_ids: tuple[str, ...]
    facts: tuple[str, ...]
    alternatives: tuple[Action, ...] = ()

    def __bool__(self) -> bool:
        return self.legal

    @property
    def rules(self) -> list[Rule]:
        return [get_rule(r) for r in self.rule_ids]

    @property
    def rule_id(self) -> str | None:
        return self.rule_ids[0] if self.rule_ids else None

    @property
    def explanation(self) -> str:
        """Facts first, then each rule quoted with its id, then what may be done instead."""
        parts = list(self.facts)
        parts += [f"[{r.id}] {r.text}" for r in self.rules]
        if not self.legal and self.alternatives:
            parts.append("Allowed instead: " + ", ".join(action_text(a)
                                                         for a in self.alternatives) + ".")
        return "\n".join(parts)

    def to_dict(self) -> dict[str, object]:
        return {"legal": self.legal,
                "action": None if self.action is None else str(self.action),
                "seat": None if self.seat is None else str(self.seat),
                "rules": list(self.rule_ids), "facts": list(self.facts),
                "alternatives": [str(a) for a in self.alternatives],
                "explanation": self.explanation}


_PHASE_TASK = {
    Phase.AUCTION: ("bid or pass", "bid.order"),
    Phase.DECLARE_TRUMP: ("name trumps or no trump", "declare.trump"),
    Phase.DECLARE_MODE: ("choose to exchange or to play with partner", "declare.exchange"),
    Phase.DISCARD: ("discard one card for the exchange", "declare.exchange"),
    Phase.SEND: ("hand one card to the bidder", "declare.exchange"),
    Phase.DEFENSE: ("decide, for the defenders, to play or surrender", "defend.surrender"),
    Phase.PLAY: ("play a card", "play.turn"),
}


def _parse_for_phase(state: HandState, raw: Action | str | int) -> Action:
    phase = state.phase
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
    actor = state.to_act
    who = Seat.parse(seat) if seat is not None else actor
    if actor is None:
        return Verdict(False, None, who, ("play.trick-winner",) if state.phase is Phase.SCORED
                       else ("bid.all-pass",),
                       (f"The hand is over ({state.phase}); nothing more can be done in it.",))
    task, task_rule = _PHASE_TASK[state.phase]
    legal = state.legal_actions()
    if who is not actor:
        facts = (f"It is {actor.word}'s turn to {task}; {who.word if who else 'that seat'} "
                 "must wait.",)
        rules = ("play.turn", "bid.order") if state.phase is Phase.AUCTION else ("play.turn",)
        return Verdict(False, None, who, rules, facts, tuple(legal))
    try:
        action = _parse_for_phase(state, raw)
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
                          action, actor, second_person)  # type: ignore[arg-type]
    if state.phase is Phase.DECLARE_TRUMP:
        trump = Trump(action)  # type: ignore[arg-type]
        fact = (f"{actor.word} names {trump.word}" + (
            ": no bowers this hand, and every suit ranks ace down to 9." if trump is Trump.NT
            else f": the J{trump.display} is the right bower and the "
                 f"J{trump.suit.sister.symbol if trump.suit else ''} the left bower."))
        return Verdict(True, action, actor, ("declare.trump",), (fact,))
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
    shown = (action_text(raw) if isinstance(raw, Bid | Trump | Mode | Defense | Card)
             else repr(raw))
    facts = (f"{shown} is not what this step needs: it is {actor.word}'s turn to {task}.",
             parse_error)
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
    role = "discard" if state.phase is Phase.DISCARD else "hand to the bidder"
    if card in legal:
        fact = (f"{actor.word} discards the {card.display} face down; it is out of play."
                if state.phase is Phase.DISCARD else
                f"{actor.word} hands the {card.display} to the bidder and sits out.")
        return Verdict(True, card, actor, ("declare.exchange",), (fact,))
    return Verdict(False, card, actor, ("declare.exchange",),
                   (f"{actor.word} does not hold the {card.display}, so cannot {role} it. "
                    f"{actor.word} holds {cards_display(state.hand(actor))}.",), tuple(legal))


def _check_defense(state: HandState, actor: Seat, choice: Defense,
                   legal: list[Action]) -> Verdict:
    if choice in legal:
        if choice is Defense.SURRENDER:
            return Verdict(True, choice, actor, ("defend.surrender", "score.surrender"),
                           ("The defenders surrender: the hand ends unplayed.",))
        return Verdict(True, choice, actor, ("defend.surrender",),
                       ("The defenders play the hand out.",))
    return Verdict(False, choice, actor, ("variant.dirty-clubs", "defend.surrender"),
                   ("Clubs are trumps and this table plays dirty clubs, so the defenders may "
                    "not surrender: they must play the hand out.",), tuple(legal))


def check_play(hand: Sequence[CardLike], led: CardLike | None, trump: Trump | str,
               card: CardLike, actor: Seat | None = None,
               second_person: bool = True) -> Verdict:
    """May ``card`` be played from ``hand`` to a trick led by ``led`` (``None``: leading)?

    The same verdicts as :meth:`HandState.check` in the play phase, without a whole hand
    state: lessons and quizzes ask about one trick."""
    t = Trump.parse(trump)
    held = [Card.parse(c) for c in hand]
    chosen = Card.parse(card)
    lead = None if led is None else Card.parse(led)
    legal: tuple[Action, ...] = tuple(legal_plays(held, lead, t))
    you = second_person or actor is None
    name = "you" if you else actor.word  # type: ignore[union-attr]
    holds = f"{name} hold" if you else f"{name} holds"
    cap = name[0].upper() + name[1:]
    if chosen not in held:
        return Verdict(False, chosen, actor, ("play.own-cards",),
                       (f"{cap} {'do' if you else 'does'} not hold the {chosen.display}; "
                        f"{holds} {cards_display(held)}.",), legal)
    if lead is None:
        fact = f"{cap} {'lead' if you else 'leads'} the {chosen.display}"
        fact += "; leading the left bower leads trumps." if bower(chosen, t) == "left" else "."
        return Verdict(True, chosen, actor, ("play.lead",), (fact,))
    suits = EFFECTIVE_SUIT[t]
    led_suit = Suit(suits[lead.index])
    suit_name = _suit_words(led_suit, t)
    followers = [c for c in held if suits[c.index] == led_suit]
    left = _left_bower(t)
    led_left = (f"The {lead.display} led is the left bower, so trumps were led. "
                if left is not None and lead is left else "")
    if chosen in legal:
        if not followers:
            fact = (f"{cap} {'have' if you else 'has'} no {suit_name} left, so any card may be "
                    "played.")
        elif left is not None and chosen is left:
            fact = (f"{t.word.capitalize()} are trumps, so the {left.display} is the left "
                    f"bower and follows {t.word}.")
        else:
            fact = f"The {chosen.display} follows {suit_name}."
        ids = ("play.follow-suit", "play.left-bower-suit") if led_left else ("play.follow-suit",)
        return Verdict(True, chosen, actor, ids, (led_left + fact,))
    # A revoke: a follower is held and another card was chosen.
    rules = ["play.follow-suit"]
    if left is not None and left in held and led_suit is t.suit:
        fact = (f"{t.word.capitalize()} are trumps, so the {left.display} is the left bower "
                f"and counts as a {_singular(t)}; {holds} it, so {name} must follow "
                f"{t.word} with it" + (" or another trump." if len(followers) > 1 else "."))
        rules.append("play.left-bower-suit")
    elif left is not None and chosen is left and left.suit is led_suit:
        fact = (f"{t.word.capitalize()} are trumps, so the {left.display} is the left bower, "
                f"a {_singular(t)}: it cannot follow {led_suit.plural}. {holds.capitalize()} "
                f"{cards_display(followers)}, so {name} must play "
                + ("it." if len(followers) == 1 else "one of them."))
        rules.append("play.left-bower-suit")
    else:
        fact = (f"{suit_name.capitalize()} were led and {holds} {cards_display(followers)}, "
                f"so {name} must follow {suit_name}.")
        if led_left:
            fact = led_left + fact
            rules.append("play.left-bower-suit")
    return Verdict(False, chosen, actor, tuple(rules), (fact,), legal)


def _left_bower(trump: Trump) -> Card | None:
    if trump.suit is None:
        return None
    return Card.parse("J" + trump.suit.sister.letter)


def _singular(trump: Trump) -> str:
    return trump.word[:-1]


def _suit_words(suit: Suit, trump: Trump) -> str:
    return "trumps" if trump.suit is suit else suit.plural


# ---- trick winners -------------------------------------------------------------------------


@dataclass(frozen=True)
class TrickExplanation:
    winner_index: int
    winning_card: Card
    rule_id: str
    facts: tuple[str, ...]

    @property
    def explanation(self) -> str:
        rule = get_rule(self.rule_id)
        return " ".join(self.facts) + f" [{rule.id}] {rule.text}"

    def to_dict(self) -> dict[str, object]:
        return {"winner_index": self.winner_index, "winning_card": str(self.winning_card),
                "rule": self.rule_id, "explanation": self.explanation}


def explain_trick(cards: Sequence[CardLike], trump: Trump | str,
                  seats: Sequence[Seat] | None = None) -> TrickExplanation:
    """Who wins the trick and the fact that decided it, with the rule that says so."""
    played = [Card.parse(c) for c in cards]
    if not played:
        raise ValueError("a trick needs at least one card")
    t = Trump.parse(trump)
    win = winner_of([c.index for c in played], t)
    card = played[win]
    suits, ranks = EFFECTIVE_SUIT[t], TRICK_RANK[t]
    led_suit = Suit(suits[played[0].index])
    by = f" ({seats[win].word})" if seats else ""
    trumps_played = [c for c in played if t.suit is not None and suits[c.index] == t]
    facts: list[str] = []
    role = bower(card, t)
    if role == "right":
        facts.append(f"The {card.display}{by} is the right bower, the highest card when "
                     f"{t.word} are trumps.")
        rule = "rank.right-bower"
    elif role == "left":
        right = Card.parse("J" + str(t))
        facts.append(f"The {card.display}{by} is the left bower with {t.word} trump, second only "
                     f"to the {right.display}"
                     + (", which is not in this trick." if right not in played else "."))
        rule = "rank.left-bower"
    elif trumps_played:
        rule = "rank.trump"
        if len(trumps_played) == 1 and led_suit is not t.suit:
            facts.append(f"The {card.display}{by} is the only trump played, and a trump beats "
                         f"every card of another suit.")
        elif len(trumps_played) == 1:
            facts.append(f"Trumps were led and no one else played one: the {card.display}{by} "
                         "wins.")
        else:
            order = cards_display(sort_by_rank(trumps_played, t))
            facts.append(f"The {card.display}{by} is the highest trump played ({order}).")
    else:
        rule = "rank.no-trump" if t is Trump.NT else "play.trick-winner"
        facts.append(("In no trump only the suit led can win: " if t is Trump.NT
                      else "Nobody played a trump, so the highest card of the suit led wins: ")
                     + f"the {card.display}{by} is the highest {led_suit.plural[:-1]}.")
    # Traps worth naming: off-suit aces, a bower in disguise, jacks in no trump.
    for c in played:
        if c is card:
            continue
        s = suits[c.index]
        if bower(c, t) == "left" and c.suit is not t.suit:
            facts.append(f"The {c.display} counts as a {t.word[:-1]} (left bower), not a "
                         f"{c.suit.plural[:-1]}.")
        elif s != led_suit and s != t and ranks[c.index] >= 4:
            facts.append(f"The {c.display} cannot win: {Suit(s).plural} were not led and are "
                         f"not trumps.")
        elif t is Trump.NT and c.index % 6 == 2 and s == led_suit:
            facts.append(f"In no trump the {c.display} is an ordinary jack.")
    return TrickExplanation(win, card, rule, tuple(facts))


def check_trick_winner(cards: Sequence[CardLike], trump: Trump | str, claimed: int,
                       seats: Sequence[Seat] | None = None) -> Verdict:
    """Check a claim that the card at index ``claimed`` (play order) wins the trick."""
    why = explain_trick(cards, trump, seats)
    played = [Card.parse(c) for c in cards]
    rules = (why.rule_id,) if why.rule_id == "play.trick-winner" else (why.rule_id,
                                                                       "play.trick-winner")
    if claimed == why.winner_index:
        return Verdict(True, played[claimed], None, rules, why.facts)
    wrong = played[claimed] if 0 <= claimed < len(played) else None
    lead = (f"The {wrong.display} does not win this trick. " if wrong else
            f"There is no card {claimed + 1} in this trick. ")
    facts = (lead + why.facts[0], *why.facts[1:])
    return Verdict(False, wrong, None, rules, facts, (why.winning_card,))


def why_higher(high: CardLike, low: CardLike, trump: Trump | str) -> tuple[str, str]:
    """Why ``high`` outranks ``low`` under this trump: (the fact, the rule id).

    For two trumps, or two cards of one suit; a trump against any other card."""
    t = Trump.parse(trump)
    a, b = Card.parse(high), Card.parse(low)
    suits, ranks = EFFECTIVE_SUIT[t], TRICK_RANK[t]
    role_a, role_b = bower(a, t), bower(b, t)
    if role_a == "right":
        return (f"With {t.word} trump the {a.display} is the right bower, the highest card "
                "of all.", "rank.right-bower")
    if role_a == "left":
        right = Card.parse("J" + str(t))
        return (f"With {t.word} trump the {a.display} is the left bower, a {_singular(t)}: "
                f"second only to the {right.display}, above the "
                f"{'ace' if b.rank.name != 'ACE' else b.display}.", "rank.left-bower")
    if role_b is not None:
        raise ValueError(f"{a} does not outrank {b} with {t.word} trump")
    if t is not Trump.NT and suits[a.index] == t and suits[b.index] != t:
        return (f"The {a.display} is a trump and the {b.display} is not: any trump beats "
                "every card of another suit.", "rank.trump")
    if suits[a.index] != suits[b.index]:
        return (f"The {a.display} and the {b.display} are of different suits; only the suit "
                "led or a trump can win.", "play.trick-winner")
    if ranks[a.index] <= ranks[b.index]:
        raise ValueError(f"{a} does not outrank {b} with {t.word} trump")
    if t is not Trump.NT and suits[a.index] == t:
        order = cards_display(sort_by_rank([c for c in DECK if suits[c.index] == t], t))
        return (f"Trumps rank {order}: the {a.display} is above the {b.display}.", "rank.trump")
    if t is Trump.NT:
        return (f"In no trump every suit ranks A K Q J 10 9: the {a.display} is above the "
                f"{b.display}.", "rank.no-trump")
    return (f"A plain suit ranks A K Q J 10 9: the {a.display} is above the {b.display}.",
            "rank.plain")

