"""Why a card or a call was worse, in a club player's words.

:func:`why` looks at the position before a decision, the choice made and (optionally) the
choice the analysis prefers, and names the fact behind the difference: "you trumped your
partner's winning J♥: the 9♣ keeps the trick and the trump", "you discarded a trump and
kept the lone Q♣, a loser", "bidding 4 needs 3 tricks beyond your 1 sure trump; your side
takes 4 or more in 38% of deals". The reasons read only what the deciding seat could see
(its own cards, the trick, the calls), plus the sampled figures of an
:class:`~pepper_tutor.analysis.advice.Advice` when one is given; seats are named as a player
would (your partner, the bidder), never by notation.

Each :class:`Reason` has a ``fact`` key (stable, for tests and front ends) and ``text``.
Where no rule of thumb explains the difference, :func:`why` returns ``None`` and the front
end falls back on the figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK, Card
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, TRUMP_OF, trump_code, winner_of
from ..engine.state import Action, HandState, Phase
from .advice import Advice

__all__ = ["Reason", "why", "why_card", "why_exchange", "why_call", "sure_trumps"]


@dataclass(frozen=True)
class Reason:
    """The fact that makes a choice worse, as a key and in words."""

    fact: str
    text: str

    def __str__(self) -> str:
        return self.text


# The helpers below take a ranking code (engine.ranking.trump_code: the trump, and whether
# its left bower is promoted), so that every table lookup follows the table's switch.


def _is_trump(card: int, code: int) -> bool:
    return EFFECTIVE_SUIT[code][card] == TRUMP_OF[code]  # no trump (4) matches no suit


def _power(card: int, led: int, code: int) -> int:
    s = EFFECTIVE_SUIT[code][card]
    r = TRICK_RANK[code][card]
    return r + 10 if s == TRUMP_OF[code] else r if s == led else -1


def _d(card: int) -> str:
    return DECK[card].display


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def sure_trumps(hand: list[int] | tuple[int, ...], trump: int) -> list[int]:
    """The trumps that win by rank alone: the top trumps held in an unbroken run from the
    right bower down (``trump`` is a ranking code)."""
    if trump == 4:
        return []
    held = {TRICK_RANK[trump][c]: c for c in hand if _is_trump(c, trump)}
    out = []
    for rank in range(6, -1, -1):
        if rank not in held:
            break
        out.append(held[rank])
    return out


def why_card(state: HandState, card: Card, better: Card | None = None) -> Reason | None:
    """Why playing ``card`` (in the play phase of ``state``, before it is played) was worse
    than ``better`` (a card the analysis prefers), if a rule of thumb says so."""
    now = state.snapshot()
    trump = now.code  # a ranking code: see _is_trump
    seat = now.to_act
    legal = [c.index for c in state.legal_actions()]  # type: ignore[union-attr]
    c = card.index
    b = better.index if better is not None else None
    trick = [played for _, played in now.trick]
    rules = state.rules
    if trick:
        led = EFFECTIVE_SUIT[trump][trick[0]]
        win = winner_of(trick, trump)
        winner_seat = now.trick[win][0]
        top = max(_power(x, led, trump) for x in trick)
        partner_wins = rules.side_of(winner_seat) == rules.side_of(seat) and winner_seat != seat
        mine = _power(c, led, trump)
        if partner_wins and mine > top:
            kind = ("trumped" if _is_trump(c, trump) and EFFECTIVE_SUIT[trump][c] != led
                    else "overtook")
            alt = b if b is not None and _power(b, led, trump) < top else min(
                legal, key=lambda x: (_power(x, led, trump), TRICK_RANK[trump][x]))
            if _power(alt, led, trump) < top:
                keeps = ("the trick and the trump" if kind == "trumped"
                         else "the trick and your high card")
                return Reason(f"{kind}-partner",
                              f"you {kind} your partner's winning {_d(trick[win])}: the "
                              f"{_d(alt)} keeps {keeps}")
        if mine > top:
            cheaper = [x for x in legal if top < _power(x, led, trump) < mine]
            if cheaper:
                low = min(cheaper, key=lambda x: _power(x, led, trump))
                return Reason("won-too-high",
                              f"the {_d(low)} wins this trick as well as the {_d(c)} does, "
                              f"and keeps the {_d(c)} for later")
        if not partner_wins and mine < top:
            winners = [x for x in legal if _power(x, led, trump) > top]
            if winners and (b is None or b in winners):
                w = b if b is not None else min(winners, key=lambda x: _power(x, led, trump))
                return Reason("missed-the-trick",
                              f"the {_d(w)} would have taken the trick; the {_d(c)} lets the "
                              f"other side keep the {_d(trick[win])}")
        if mine < 0 and not _is_trump(c, trump) and TRICK_RANK[trump][c] == 5:
            lows = [x for x in legal if x != c and not _is_trump(x, trump)
                    and TRICK_RANK[trump][x] < 5]
            if lows:
                return Reason("threw-a-winner",
                              f"you threw away the {_d(c)}, a card that can win a trick later; "
                              f"the {_d(min(lows, key=lambda x: TRICK_RANK[trump][x]))} was "
                              "worth less")
    else:
        if (trump != 4 and _is_trump(c, trump) and rules.side_of(seat)
                != rules.side_of(now.bidder) and b is not None and not _is_trump(b, trump)):
            return Reason("led-trump-on-defence",
                          f"leading the {_d(c)} helps the bidders draw trumps; the {_d(b)} "
                          "makes them use their trumps on your suit")
        if b is not None and TRICK_RANK[trump][b] == 5 and not _is_trump(b, trump) \
                and TRICK_RANK[trump][c] < 5:
            return Reason("ace-not-cashed",
                          f"the {_d(b)} takes a trick now; after the {_d(c)} it may be trumped")
    return None


def why_exchange(state: HandState, card: Card, better: Card | None = None) -> Reason | None:
    """Why a discard (bidder) or a card sent (partner) was worse."""
    now = state.snapshot()
    trump = now.code  # a ranking code: see _is_trump
    hand = list(now.hands[now.to_act])
    c = card.index
    suits = EFFECTIVE_SUIT[trump]
    if state.phase is Phase.DISCARD:
        plain = [x for x in hand if not _is_trump(x, trump)]
        lone = [x for x in plain if sum(1 for y in hand if suits[y] == suits[x]) == 1
                and TRICK_RANK[trump][x] < 5]
        if _is_trump(c, trump) and lone:
            loser = min(lone, key=lambda x: TRICK_RANK[trump][x])
            return Reason("discarded-trump",
                          f"you discarded a trump (the {_d(c)}) and kept the lone {_d(loser)}, "
                          f"a loser: discarding it leaves you void, so you can trump that suit")
        if not _is_trump(c, trump) and TRICK_RANK[trump][c] == 5:
            lows = [x for x in plain if TRICK_RANK[trump][x] < 5]
            if lows:
                return Reason("discarded-ace",
                              f"you discarded the {_d(c)}, a sure trick; the "
                              f"{_d(min(lows, key=lambda x: TRICK_RANK[trump][x]))} would "
                              "not have won one")
        if lone and c not in lone and better is not None and better.index in lone:
            return Reason("kept-lone-loser",
                          f"the lone {_d(better.index)} is a loser: discarding it leaves you "
                          "void, so you can trump that suit")
        return None
    if state.phase is Phase.SEND:
        trumps = [x for x in hand if _is_trump(x, trump)]
        if trumps and not _is_trump(c, trump):
            top = max(trumps, key=lambda x: TRICK_RANK[trump][x])
            return Reason("sent-non-trump",
                          f"your partner plays alone in {Trump(TRUMP_OF[trump]).word}: your "
                          f"highest trump, the {_d(top)}, helps more than the {_d(c)}")
        if trumps and _is_trump(c, trump):
            top = max(trumps, key=lambda x: TRICK_RANK[trump][x])
            if top != c:
                return Reason("sent-low-trump",
                              f"the {_d(top)} is your highest trump and helps your partner "
                              f"more than the {_d(c)}")
    return None


def why_call(state: HandState, action: Action, advice: Advice | None = None) -> Reason | None:
    """Why a bid, a trump, a way of playing or a defence was worse, with the advice's
    sampled figures where they tell (how often the bid makes)."""
    phase = state.phase
    now = state.snapshot()
    hand = list(now.hands[now.to_act])
    if phase is Phase.DEFENSE and advice is not None:
        play = advice.option("play")
        bid = state.high_bid
        made = play.makes
        if action is Defense.SURRENDER and made is not None:
            return Reason("surrendered-too-soon",
                          f"the bidders make their {bid.display} in only {_pct(made)} of deals "
                          "when you play: surrendering gives them the points for nothing")
        if action is Defense.PLAY and made is not None:
            return Reason("played-a-lost-cause",
                          f"the bidders make their {bid.display} in {_pct(made)} of deals: "
                          "surrendering costs less than playing on")
        return None
    if advice is None:
        return None
    chosen = advice.choice(action)
    best = advice.best
    if chosen is None or chosen is best:
        return None
    if phase is Phase.AUCTION and isinstance(action, Bid):
        if action is Bid.PASS and best.bid is not None and best.makes is not None:
            return Reason("passed-a-making-hand",
                          f"{best.label} makes in {_pct(best.makes)} of deals: your hand is "
                          "worth a bid")
        if action is not Bid.PASS and chosen.trump is not None and chosen.makes is not None:
            sure = sure_trumps(hand, trump_code(chosen.trump, state.rules.left_bower))
            need = action.tricks - len(sure)
            helper = ("the exchange and the rest of your hand" if chosen.mode is Mode.EXCHANGE
                      else "your partner and the rest of your hand"
                      if state.rules.partnerships else "the rest of your hand")
            held = (f"your {len(sure)} sure trump{'s' if len(sure) != 1 else ''}"
                    if sure else "no sure trump")
            if best.bid is not None and best.bid > action and best.makes is not None:
                return Reason("underbid",
                              f"your hand is worth more than {action.display}: "
                              f"{best.label} makes in {_pct(best.makes)} of deals")
            return Reason("overbid",
                          f"bidding {action.display} with {held} needs {max(need, 0)} more "
                          f"trick{'s' if need != 1 else ''} from {helper}; your side takes "
                          f"{action.tricks} or more in only {_pct(chosen.makes)} of deals")
    if phase is Phase.DECLARE_MODE and isinstance(action, Mode) and chosen.makes is not None:
        if action is Mode.EXCHANGE:
            return Reason("went-alone",
                          f"alone with the exchange your side makes the bid in "
                          f"{_pct(chosen.makes)} of deals; with your partner in "
                          f"{_pct(best.makes or 0.0)}")
        return Reason("stayed-with-partner",
                      f"with your partner the bid makes in {_pct(chosen.makes)} of deals; "
                      f"alone with the exchange in {_pct(best.makes or 0.0)}")
    if phase is Phase.DECLARE_TRUMP and isinstance(action, Trump) and best.trump is not None:
        return Reason("weaker-trump",
                      f"with {best.trump.word} as trumps the bid makes in "
                      f"{_pct(best.makes or 0.0)} of deals; with {action.word} in "
                      f"{_pct(chosen.makes or 0.0)}")
    return None


def why(state: HandState, action: Action, better: Action | None = None,
        advice: Advice | None = None) -> Reason | None:
    """The reason for any decision: ``state`` is the position before ``action``; ``better``
    the choice the analysis prefers (defaults to ``advice.best``'s)."""
    if better is None and advice is not None:
        b = advice.best
        better = b.card or b.defense or (b.bid if state.phase is Phase.AUCTION else
                                         b.trump if state.phase is Phase.DECLARE_TRUMP
                                         else b.mode)
    phase = state.phase
    if phase is Phase.PLAY and isinstance(action, Card):
        return why_card(state, action, better if isinstance(better, Card) else None)
    if phase in (Phase.DISCARD, Phase.SEND) and isinstance(action, Card):
        return why_exchange(state, action, better if isinstance(better, Card) else None)
    return why_call(state, action, advice)
