"""One trick at a time: may this card be played, who wins the trick, and why.

These checks need only the cards, the card led and the trump, never a whole hand state, so a
quiz, a lesson step or ``pepper-tutor trick`` answers without loading the state machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..engine.calls import Trump
from ..engine.cards import DECK, Card, CardLike, Rank, Suit, cards_display, iterable_arg, wrong_type
from ..engine.ranking import (
    EFFECTIVE_SUIT,
    TRICK_RANK,
    bower,
    legal_plays,
    sort_by_rank,
    trump_code,
    winner_of,
)
from ..engine.seats import Seat
from .book import get_rule, rule_tag
from .verdict import Verdict

__all__ = ["TrickExplanation", "check_play", "check_trick_winner", "explain_trick", "not_a_bower",
           "why_higher"]


def check_play(hand: Sequence[CardLike], led: CardLike | None, trump: Trump | str,
               card: CardLike, actor: Seat | None = None,
               second_person: bool = True, left_bower: bool = True) -> Verdict:
    """May ``card`` be played from ``hand`` to a trick led by ``led`` (``None``: leading)?

    The same verdicts as :meth:`HandState.check` in the play phase, without a whole hand
    state: lessons and quizzes ask about one trick. ``left_bower=False`` is the rule set
    without a left bower (cutthroat's seed): the jack of the trump colour keeps its suit."""
    t = Trump.parse(trump)
    held = [Card.parse(c) for c in hand]
    chosen = Card.parse(card)
    lead = None if led is None else Card.parse(led)
    legal: tuple[Card, ...] = tuple(legal_plays(held, lead, t, left_bower))
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
        fact += ("; leading the left bower leads trumps."
                 if bower(chosen, t, left_bower) == "left" else ".")
        return Verdict(True, chosen, actor, ("play.lead",), (fact,))
    suits = EFFECTIVE_SUIT[trump_code(t, left_bower)]
    led_suit = Suit(suits[lead.index])
    suit_name = _suit_words(led_suit, t)
    followers = [c for c in held if suits[c.index] == led_suit]
    left = _left_bower(t) if left_bower else None
    plain_jack = _left_bower(t) if not left_bower else None  # the jack that keeps its suit
    led_left = (f"The {lead.display} led is the left bower, so trumps were led. "
                if left is not None and lead is left else "")
    if chosen in legal:
        if not followers:
            fact = (f"{cap} {'have' if you else 'has'} no {suit_name} left, so any card may be "
                    "played.")
            if left is not None and left in held and left.suit is led_suit:
                # The learner sees a card of the led suit's printed colour in the hand: say
                # why it does not count, or "no hearts left" reads as plainly untrue.
                fact = (f"With {t.word} trumps the {left.display} is the left bower, a "
                        f"{_singular(t)}, so it does not follow {suit_name}. {cap} "
                        f"{'have' if you else 'has'} no other {suit_name[:-1]}, so any card "
                        "may be played.")
                return Verdict(True, chosen, actor, ("play.follow-suit", "play.left-bower-suit"),
                               (fact,))
            if plain_jack is not None and plain_jack in held and led_suit is t.suit:
                fact = (f"{cap} {'have' if you else 'has'} no {suit_name} left: this table plays "
                        f"without a left bower, so the {plain_jack.display} is an ordinary "
                        f"{plain_jack.suit.plural[:-1]}. Any card may be played.")
                return Verdict(True, chosen, actor, ("play.follow-suit", "variant.left-bower"),
                               (fact,))
        elif left is not None and chosen is left:
            fact = (f"{t.word.capitalize()} are trumps, so the {left.display} is the left "
                    f"bower and follows {t.word}.")
        elif plain_jack is not None and chosen is plain_jack:
            fact = (f"This table plays without a left bower, so the {chosen.display} is an "
                    f"ordinary {chosen.suit.plural[:-1]} and follows {suit_name}.")
            return Verdict(True, chosen, actor, ("play.follow-suit", "variant.left-bower"),
                           (fact,))
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
    elif plain_jack is not None and (plain_jack in followers or chosen is plain_jack):
        fact = (f"{suit_name.capitalize()} were led and {holds} {cards_display(followers)}, "
                f"so {name} must follow {suit_name}. This table plays without a left bower: "
                f"the {plain_jack.display} is an ordinary {plain_jack.suit.plural[:-1]}, not "
                f"a trump.")
        rules.append("variant.left-bower")
    elif led_left:
        fact = (f"{led_left}{holds.capitalize()} {cards_display(followers)}, so {name} must "
                f"follow {suit_name}.")
        rules.append("play.left-bower-suit")
    else:
        fact = (f"{suit_name.capitalize()} were led and {holds} {cards_display(followers)}, "
                f"so {name} must follow {suit_name}.")
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


class TrickExplanation(NamedTuple):
    winner_index: int
    winning_card: Card
    rule_id: str
    facts: tuple[str, ...]

    @property
    def explanation(self) -> str:
        rule = get_rule(self.rule_id)
        return " ".join(self.facts) + f" {rule_tag(rule.id)}{rule.text}"

    def to_dict(self) -> dict[str, object]:
        return {"winner_index": self.winner_index, "winning_card": str(self.winning_card),
                "rule": self.rule_id, "explanation": self.explanation}


def _check_trick_args(cards: Sequence[CardLike], seats: Sequence[Seat] | None
                      ) -> tuple[list[Card], list[Seat] | None]:
    played = [Card.parse(c) for c in iterable_arg(cards, "a trick (a list of cards)")]
    if not played:
        raise ValueError("a trick needs at least one card")
    if seats is not None:
        seats = [Seat.parse(s) for s in iterable_arg(seats, "seats (a list, one a card)")]
    if len(played) > 4:
        raise ValueError(f"a trick has at most 4 cards, not {len(played)}")
    if len(set(played)) != len(played):
        raise ValueError("a trick cannot hold the same card twice")
    if seats is not None and len(seats) != len(played):
        raise ValueError(f"{len(seats)} seat{'s' if len(seats) != 1 else ''} given for "
                         f"{len(played)} card{'s' if len(played) != 1 else ''}: give one seat "
                         "per card, in play order, or no seats")
    return played, seats


def explain_trick(cards: Sequence[CardLike], trump: Trump | str,
                  seats: Sequence[Seat] | None = None,
                  left_bower: bool = True) -> TrickExplanation:
    """Who wins the trick and the fact that decided it, with the rule that says so.

    ``seats``, if given, has one seat per card in play order; ``left_bower=False`` ranks the
    cards without a left bower (cutthroat's seed)."""
    played, seats = _check_trick_args(cards, seats)
    t = Trump.parse(trump)
    code = trump_code(t, left_bower)
    win = winner_of([c.index for c in played], code)
    card = played[win]
    suits = EFFECTIVE_SUIT[code]
    led_suit = Suit(suits[played[0].index])
    by = f" ({seats[win].word})" if seats else ""
    trumps_played = [c for c in played if t.suit is not None and suits[c.index] == t]
    facts: list[str] = []
    role = bower(card, t, left_bower)
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
            order = cards_display(sort_by_rank(trumps_played, t, left_bower))
            facts.append(f"The {card.display}{by} is the highest trump played ({order}).")
    else:
        rule = "rank.no-trump" if t is Trump.NT else "play.trick-winner"
        facts.append(("In no trump only the suit led can win: " if t is Trump.NT
                      else "Nobody played a trump, so the highest card of the suit led wins: ")
                     + f"the {card.display}{by} is the highest {led_suit.plural[:-1]}.")
    # Traps worth naming: off-suit aces, a bower in disguise, jacks in no trump.
    for c in played:
        if c is not card:
            trap = _trap(c, t, led_suit, left_bower)
            if trap:
                facts.append(trap)
    return TrickExplanation(win, card, rule, tuple(facts))


def _trap(c: Card, t: Trump, led_suit: Suit, left_bower: bool = True) -> str | None:
    """What a learner may misread about ``c`` in a trick that ``led_suit`` leads, if anything:
    a left bower taken for its printed suit, a jack taken for a bower, an off-suit ace."""
    code = trump_code(t, left_bower)
    s, rank = EFFECTIVE_SUIT[code][c.index], TRICK_RANK[code][c.index]
    role = bower(c, t, left_bower)
    if role == "left" and c.suit is not t.suit:
        return (f"The {c.display} counts as a {t.word[:-1]} (left bower), not a "
                f"{c.suit.plural[:-1]}.")
    if not left_bower and t.suit is not None and c.index % 6 == 2 and c.suit is t.suit.sister:
        return (f"This table plays without a left bower: the {c.display} is an ordinary "
                f"{c.suit.plural[:-1]}, not a trump.")
    if s != led_suit and s != t and rank >= 4:
        return f"The {c.display} cannot win: {Suit(s).plural} were not led and are not trumps."
    if t is Trump.NT and c.index % 6 == 2 and s == led_suit:
        return f"In no trump the {c.display} is an ordinary jack."
    return None


def not_a_bower(c: Card, t: Trump, left_bower: bool = True) -> str | None:
    """For a jack that is neither bower under ``t``: the sentence that says so and names the
    bowers, since a learner who picks it has taken it for one."""
    if c.rank is not Rank.JACK or t.suit is None or bower(c, t, left_bower) is not None:
        return None
    if not left_bower and c.suit is t.suit.sister:
        return None  # the table without a left bower has its own sentence for this jack
    right = Card.parse("J" + str(t))
    if not left_bower:
        return (f"The {c.display} is not a bower: with {t.word} trumps the only bower at this "
                f"table is the {right.display}.")
    left = _left_bower(t)
    assert left is not None
    return (f"The {c.display} is not a bower: with {t.word} trumps the right bower is the "
            f"{right.display} and the left bower the {left.display}.")


def check_trick_winner(cards: Sequence[CardLike], trump: Trump | str, claimed: int,
                       seats: Sequence[Seat] | None = None,
                       left_bower: bool = True) -> Verdict:
    """Check a claim that the card at index ``claimed`` (play order) wins the trick."""
    if type(claimed) is not int:
        raise wrong_type(claimed, "the index of a card in the trick (0 for the first)")
    played, _ = _check_trick_args(cards, None)
    why = explain_trick(played, trump, seats, left_bower)
    rules = (why.rule_id,) if why.rule_id == "play.trick-winner" else (why.rule_id,
                                                                       "play.trick-winner")
    if claimed == why.winner_index:
        return Verdict(True, played[claimed], None, rules, why.facts)
    wrong = played[claimed] if 0 <= claimed < len(played) else None
    if wrong is None:
        return Verdict(False, None, None, rules,
                       (f"There is no card {claimed + 1} in this trick. " + why.facts[0],),
                       (why.winning_card,))
    # Say what the learner misread about the card they picked first (the misconception the
    # answer reveals), then why the winner wins; the traps of cards they did not pick are
    # left out, but a left bower in disguise is the fact the trick turns on.
    t = Trump.parse(trump)
    code = trump_code(t, left_bower)
    led_suit = Suit(EFFECTIVE_SUIT[code][played[0].index])
    first = (not_a_bower(wrong, t, left_bower) or _trap(wrong, t, led_suit, left_bower)
             or f"The {wrong.display} does not win this trick.")
    disguised = [f for f in why.facts[1:] if "(left bower)" in f and f not in first]
    facts = (first, why.facts[0], *disguised)
    return Verdict(False, wrong, None, rules, facts, (why.winning_card,))


def why_higher(high: CardLike, low: CardLike, trump: Trump | str,
               left_bower: bool = True) -> tuple[str, str]:
    """Why ``high`` outranks ``low`` under this trump: (the fact, the rule id).

    For two trumps, or two cards of one suit; a trump against any other card."""
    t = Trump.parse(trump)
    a, b = Card.parse(high), Card.parse(low)
    code = trump_code(t, left_bower)
    suits, ranks = EFFECTIVE_SUIT[code], TRICK_RANK[code]
    role_a, role_b = bower(a, t, left_bower), bower(b, t, left_bower)
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
        order = cards_display(sort_by_rank([c for c in DECK if suits[c.index] == t], t,
                                           left_bower))
        return (f"Trumps rank {order}: the {a.display} is above the {b.display}.", "rank.trump")
    if t is Trump.NT:
        return (f"In no trump every suit ranks A K Q J 10 9: the {a.display} is above the "
                f"{b.display}.", "rank.no-trump")
    return (f"A plain suit ranks A K Q J 10 9: the {a.display} is above the {b.display}.",
            "rank.plain")

