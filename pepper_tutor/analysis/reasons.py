"""Why an option was worse, in words: the one room for every reason a player is shown.

The coach at the practice table, the annotator, the judgement drills and the table's review
all say here why a card or a call was worse; each sentence is made in one place from a grade
(or the sampled figures) and the facts of the position. The module reads the engine and the
rulebook only; the analysis's values (:class:`~pepper_tutor.analysis.advice.Advice`, a
:class:`~pepper_tutor.analysis.grading.CardGrade`) reach it as arguments.

- **The coach** (second person, from what the deciding seat could see): :func:`why` looks at
  the position before a decision, the choice made and (optionally) the choice the analysis
  prefers, and names the fact behind the difference: "you trumped your partner's winning J♥:
  the 9♣ keeps the trick and the trump", "you discarded a trump and kept the lone Q♣, a
  loser", "bidding 4 needs 3 tricks beyond your 1 sure trump; your side takes 4 or more in
  38% of deals". Seats are named as a player would (your partner, the bidder), never by
  notation. Each :class:`Reason` has a ``fact`` key (stable, for tests and front ends) and
  ``text``; where no rule of thumb explains the difference, :func:`why` returns ``None``.
  :func:`decision_reason` is the coach's whole sentence: what the learner holds (for a
  call, :func:`trump_holding`), the fact, then the figures; :func:`verdict_headline` the
  grade's line before it.
- **The annotator** (the seats by name, or "you", all hands seen): :func:`card_reason` says
  why a card cost tricks from the facts of the trick a player at the table would name: "West
  trumped partner East's winning K♠", "the trick was already lost to North's A♠, so the K♠
  was thrown away"; :func:`card_grade_words` is the finding's sentence, the reason then the
  figures. No paths such as ``tricks.3.2`` and no side codes such as ``E+W``.
- **The judgement drills** (a bid, trumps or the way of playing, the exchange card, play or
  surrender): :func:`worse_words` says what an answer gives up against the best one, and
  :func:`bid_facts`, :func:`declare_facts`, :func:`exchange_facts` and :func:`defend_facts`
  the facts of the sampled analysis behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK, Card, Rank, cards_display
from ..engine.ranking import (
    EFFECTIVE_SUIT,
    TRICK_RANK,
    TRUMP_OF,
    bower,
    is_trump,
    sort_by_rank,
    trick_rank,
    trick_winner,
    trump_code,
    winner_of,
)
from ..engine.rules import RuleSet
from ..engine.scoring import bid_value
from ..engine.seats import Seat
from ..engine.signals import holds_shown, shown_by, signal_cards
from ..engine.state import Action, HandState, Phase
from ..rulebook.verdict import action_text

if TYPE_CHECKING:  # the analysis's values are read here, never built: no import at run time
    from .advice import Advice, Estimate, OptionAdvice
    from .grading import CardGrade, Grade

__all__ = ["Reason", "why", "why_card", "why_exchange", "why_call", "sure_trumps",
           "trump_holding", "decision_reason", "decision_fact", "standing_words",
           "hand_point", "call_point", "card_role", "card_point", "hint_reason",
           "option_short", "figures_meaning", "FIGURES_MEANING", "bid_right_facts",
           "convention_words",
           "verdict_headline", "option_words",
           "card_reason", "card_grade_words", "side_words", "tricks_words", "points_words",
           "lower_first", "signal_words", "worse_words", "best_words", "compare_facts",
           "bid_facts", "declare_facts", "exchange_facts", "defend_facts"]


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
                keeps = f"the {_d(c)}{_role_note(state, card)}"
                return Reason(f"{kind}-partner",
                              f"you {kind} your partner's winner, the {_d(trick[win])}: the "
                              f"{_d(alt)} lets it stand and keeps {keeps}")
        if mine > top:
            cheaper = [x for x in legal if top < _power(x, led, trump) < mine]
            if cheaper:
                low = min(cheaper, key=lambda x: _power(x, led, trump))
                return Reason("won-too-high",
                              f"the {_d(low)} wins this trick as well and keeps the "
                              f"{_d(c)}{_role_note(state, card)} for later")
        if not partner_wins and mine < top:
            winners = [x for x in legal if _power(x, led, trump) > top]
            if winners and (b is None or b in winners):
                w = b if b is not None else min(winners, key=lambda x: _power(x, led, trump))
                return Reason("missed-the-trick",
                              f"the {_d(w)} beats the {_d(trick[win])}; the {_d(c)} leaves "
                              "the trick to the other side")
        if mine < 0 and not _is_trump(c, trump) and TRICK_RANK[trump][c] == 5:
            lows = [x for x in legal if x != c and not _is_trump(x, trump)
                    and TRICK_RANK[trump][x] < 5]
            if lows:
                low = b if b is not None and b in lows else min(
                    lows, key=lambda x: TRICK_RANK[trump][x])
                return Reason("threw-a-winner",
                              f"you threw away the {_d(c)}, which can win a trick later; the "
                              f"{_d(low)} was worth less")
    else:
        if (trump != 4 and _is_trump(c, trump) and rules.side_of(seat)
                != rules.side_of(now.bidder) and b is not None and not _is_trump(b, trump)):
            return Reason("led-trump-on-defense",
                          f"leading the {_d(c)} helps the bidders draw trumps; the {_d(b)} "
                          "makes them trump your suit")
        if b is not None and TRICK_RANK[trump][b] == 5 and not _is_trump(b, trump) \
                and TRICK_RANK[trump][c] < 5:
            if trump == 4:  # no trump: an ace led wins its trick, nothing can beat it
                return Reason("ace-not-cashed",
                              f"nothing beats the {_d(b)} led in no trump; the {_d(c)} gives "
                              "up the lead")
            return Reason("ace-not-cashed",
                          f"the {_d(b)} is the top card of its suit: cash it before it can be "
                          "trumped")
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
                          f"you discarded the {_d(c)}{_role_note(state, card, 'a trump')} and "
                          f"kept the lone {_d(loser)}: discarding it leaves you void, to trump "
                          "that suit")
        if not _is_trump(c, trump) and TRICK_RANK[trump][c] == 5:
            lows = [x for x in plain if TRICK_RANK[trump][x] < 5]
            if lows:
                b = better.index if better is not None else None
                low = b if b is not None and b in lows else min(
                    lows, key=lambda x: TRICK_RANK[trump][x])
                return Reason("discarded-ace",
                              f"you discarded the {_d(c)}, the top card of its suit; the "
                              f"{_d(low)} was worth less")
        if lone and c not in lone and better is not None and better.index in lone:
            if trump == 4:  # no trump: a void lets nothing be trumped
                return Reason("kept-lone-loser",
                              f"the lone {_d(better.index)} is a low card alone in its suit, "
                              "unlikely to take a trick")
            return Reason("kept-lone-loser",
                          f"the lone {_d(better.index)} is a loser: discarding it leaves you "
                          "void, to trump that suit")
        return None
    if state.phase is Phase.SEND:
        trumps = [x for x in hand if _is_trump(x, trump)]
        if trump != 4 and not _is_trump(c, trump) and DECK[c].rank is Rank.JACK:
            word = Trump(TRUMP_OF[trump]).word
            bowers = " and the ".join(_d(j.index) for j in DECK if j.rank is Rank.JACK
                                      and _is_trump(j.index, trump))
            best = (f"; your highest trump, the "
                    f"{_d(max(trumps, key=lambda x: TRICK_RANK[trump][x]))}, helps more"
                    if trumps else "")
            verb = "are" if " and " in bowers else "is"
            return Reason("jack-not-a-bower",
                          f"the {_d(c)} is no bower with {word} trumps: the {bowers} "
                          f"{verb}{best}")
        if trumps and not _is_trump(c, trump):
            top = max(trumps, key=lambda x: TRICK_RANK[trump][x])
            return Reason("sent-non-trump",
                          f"your highest trump, the {_d(top)}{_role_note(state, DECK[top])}, "
                          f"helps your partner more than the {_d(c)}")
        if trumps and _is_trump(c, trump):
            top = max(trumps, key=lambda x: TRICK_RANK[trump][x])
            if top != c:
                return Reason("sent-low-trump",
                              f"the {_d(top)}{_role_note(state, DECK[top])} is your highest "
                              f"trump and helps your partner more than the {_d(c)}")
    return None


def why_call(state: HandState, action: Action, advice: Advice | None = None) -> Reason | None:
    """Why a bid, a trump, a way of playing or a defense was worse: what makes or breaks
    the hand (a suit that runs, the bowers held or missing, what the exchange brings,
    partner's contract standing), with the advice's make rate where it tells."""
    phase = state.phase
    seat = state.to_act
    hand = state.hand(seat) if seat is not None else []
    lb = state.rules.left_bower
    if phase is Phase.DEFENSE and advice is not None:
        play = advice.option("play")
        bid = state.high_bid
        made = play.makes
        if action is Defense.SURRENDER and bid.tricks >= 6:
            return Reason("surrendered-a-sweep",
                          f"one trick between you sets a {bid.display}; a surrender hands "
                          "the bidders the points without a fight")
        if action is Defense.SURRENDER and made is not None:
            only = "only " if made < 0.5 else ""
            return Reason("surrendered-too-soon",
                          f"the bidders make their {bid.display} in {only}{_pct(made)} of "
                          "deals when you play")
        if action is Defense.PLAY and made is not None:
            return Reason("played-a-lost-cause",
                          f"the bidders make their {bid.display} in {_pct(made)} of deals: "
                          "a surrender costs less")
        return None
    if phase is Phase.AUCTION and isinstance(action, Bid) and seat is not None:
        shows = shown_by(state.rules, action)
        dealt = [c.index for c in state.dealt(seat)]
        if shows is not None and not holds_shown(state.rules, action, dealt):
            return Reason("false-signal",
                          f"at this table a bid of {action.display} shows {shows}, which you "
                          "do not hold: the other seats will read your hand by it")
    if advice is None:
        return None
    chosen = advice.choice(action)
    best = advice.best
    if chosen is None or chosen is best:
        return None
    if phase is Phase.AUCTION and isinstance(action, Bid):
        standing = state.bidder
        partner_bid = (standing is not None and state.rules.partnerships
                       and state.players == 4 and standing == seat.partner
                       if seat is not None else False)
        if partner_bid and action is not Bid.PASS and best.bid is None:
            aces = [c for c in hand if c.rank is Rank.ACE]
            yours = (f", and your {cards_display(aces)} "
                     f"{'help' if len(aces) > 1 else 'helps'} it" if aces else "")
            return Reason("overbid-partner",
                          f"your partner's {state.high_bid.display} stands if you pass{yours}; "
                          "bidding over it takes the contract from partner")
        if action is Bid.PASS and best.bid is not None and best.trump is not None:
            makes = (f": {best.bid.display} makes in {_pct(best.makes)} of deals"
                     if best.makes is not None else "")
            return Reason("passed-a-making-hand",
                          f"you hold {hand_point(hand, best.trump, lb)}{makes}")
        if action is not Bid.PASS and chosen.trump is not None:
            held = f"you hold {hand_point(hand, chosen.trump, lb)}"
            if best.bid is not None and best.bid > action:
                makes = (f": {best.bid.display} makes in {_pct(best.makes)} of deals"
                         if best.makes is not None else "")
                return Reason("underbid", f"{held}{makes or f', worth more than {action.display}'}")
            if chosen.makes is not None and chosen.makes < 0.5:
                rate = (f"makes in only {_pct(chosen.makes)} of deals"
                        if _pct(chosen.makes) != "0%" else "makes in none of the deals")
                return Reason("overbid", f"{held}: {action.display} {rate}")
            return None
    if phase is Phase.DECLARE_MODE and isinstance(action, Mode) and state.trump is not None:
        # The hand in short, then what each way brings: the figures compare the two.
        point = call_point(hand, state.trump, lb)
        if action is Mode.EXCHANGE:
            return Reason("went-alone",
                          f"holding {point}, your partner's hand helps more than the "
                          "exchange's one card")
        return Reason("stayed-with-partner",
                      f"holding {point}, the exchange trades your weakest card for "
                      "partner's best")
    if phase is Phase.DECLARE_TRUMP and isinstance(action, Trump) and best.trump is not None:
        return Reason("weaker-trump",
                      f"{_in_trump(best.trump)} you hold "
                      f"{hand_point(hand, best.trump, lb, side_aces=False)}; "
                      f"{_in_trump(action)}, {_count_point(hand, action, lb)}")
    return None


# ---- what makes or breaks a hand, what a card is ---------------------------------------------

_COUNT = ("no", "one", "two", "three", "four", "five", "six")


def _running(hand: Sequence[Card]) -> list[list[Card]]:
    """The suits that run in no trump, three cards or more, longest first: played from the
    top, every card wins, as the top cards held in an unbroken run from the ace are at
    least as many as the cards of the suit out (each round draws one of them)."""
    code = int(Trump.NT)
    out = []
    for suit in range(4):
        mine = sorted((c for c in hand if EFFECTIVE_SUIT[code][c.index] == suit),
                      key=lambda c: -TRICK_RANK[code][c.index])
        top = 0
        for c in mine:
            if TRICK_RANK[code][c.index] != 5 - top:
                break
            top += 1
        if len(mine) >= 3 and top >= 6 - len(mine):
            out.append(mine)
    return sorted(out, key=lambda m: -len(m))


def hand_point(hand: Sequence[Card], trump: Trump, left_bower: bool = True,
               side_aces: bool = True) -> str:
    """What makes or breaks a hand in ``trump``, as a player counts it: the bowers held or
    missing and the trumps ("the left bower and the K♥: two trumps in hearts, without the
    right bower"), with the aces beside them (``side_aces=False``: without, where two trumps
    are compared and the aces beside are the same); in no trump the suits that run ("five
    spades that run from the A♠") and the aces."""
    if trump is Trump.NT:
        runs = _running(hand)
        parts = [f"{_COUNT[len(r)]} {Trump(EFFECTIVE_SUIT[4][r[0].index]).word} that run "
                 f"from the {r[0].display}" for r in runs]
        aces = [c for c in hand if c.rank is Rank.ACE and not any(c in r for r in runs)]
        if aces:
            parts.append(f"the {cards_display(aces)}" if runs else
                         f"{_COUNT[len(aces)]} ace{'s' if len(aces) != 1 else ''} "
                         f"({cards_display(aces)})")
        return " and ".join(parts) if parts else "no ace and no suit that runs"
    trumps = sort_by_rank([c for c in hand if is_trump(c, trump, left_bower)], trump,
                          left_bower)
    if not trumps:
        held = f"no {trump.word}"
    else:
        bowers = [bower(c, trump, left_bower) for c in trumps]
        named = ["both bowers" if "right" in bowers and "left" in bowers else
                 f"the {'right' if 'right' in bowers else 'left'} bower"] if any(bowers) else []
        rest = [c for c, b in zip(trumps, bowers, strict=True) if b is None]
        if rest:
            named.append(f"the {cards_display(rest)}")
        held = (f"{' and '.join(named)}: {_COUNT[len(trumps)]} trump"
                f"{'s' if len(trumps) != 1 else ''}")
        if "right" not in bowers:
            held += ", no right bower"
    beside = [c for c in hand if c.rank is Rank.ACE and not is_trump(c, trump, left_bower)]
    if beside and side_aces:
        held += f", and the {cards_display(beside)}"
    return held


def call_point(hand: Sequence[Card], trump: Trump, left_bower: bool = True) -> str:
    """:func:`hand_point` at its shortest: "four trumps with both bowers", "four hearts that
    run and one ace"."""
    return _count_point(hand, trump, left_bower)


def _count_point(hand: Sequence[Card], trump: Trump, left_bower: bool) -> str:
    """The short count beside another trump's point: "two trumps, no bower", "one ace"."""
    if trump is Trump.NT:
        runs = _running(hand)
        aces = [c for c in hand if c.rank is Rank.ACE]
        ran = (f"{_COUNT[len(runs[0])]} {Trump(EFFECTIVE_SUIT[4][runs[0][0].index]).word} "
               "that run and " if runs else "")
        return f"{ran}{_COUNT[len(aces)]} ace{'s' if len(aces) != 1 else ''}"
    trumps = [c for c in hand if is_trump(c, trump, left_bower)]
    if not trumps:
        return "no trump at all"
    bowers = [b for b in (bower(c, trump, left_bower) for c in trumps) if b]
    which = (" with both bowers" if len(bowers) == 2 else f" with the {bowers[0]} bower"
             if bowers else ", no bower")
    return f"{_COUNT[len(trumps)]} trump{'s' if len(trumps) != 1 else ''}{which}"


def card_role(state: HandState, card: Card) -> str | None:
    """What ``card`` is to the seat to act, where it is one of the roles a player names:
    "the right bower", "the left bower", "the last trump out" (every other trump played),
    "your last trump" (the only one in hand), "the highest trump left", "the highest card
    left in spades" (none the seat has not seen ranks above it); ``None`` otherwise."""
    seat, trump = state.to_act, state.trump
    if seat is None or trump is None:
        return None
    lb = state.rules.left_bower
    which = bower(card, trump, lb)
    if which:
        return f"the {which} bower"
    code = state.snapshot().code
    hand = state.hand(seat)
    if _is_trump(card.index, code):
        others = [u for u in _unseen(state) if _is_trump(u, code)]
        mine = [c for c in hand if c != card and _is_trump(c.index, code)]
        if not others and not mine:
            return "the last trump out"
        if not mine:
            return "your last trump"
        return None if _beaten_by(state, card) or _own_higher(state, card) \
            else "the highest trump left"
    if state.phase is Phase.PLAY and not _beaten_by(state, card) and \
            not _own_higher(state, card):
        return f"the highest {_suit_words(state, card)}"
    return None


def _own_higher(state: HandState, card: Card) -> list[Card]:
    """The cards of ``card``'s own suit (trumps for a trump) in the hand of the seat to act
    that rank above it, highest first."""
    seat = state.to_act
    assert seat is not None
    code = state.snapshot().code
    suits, ranks = EFFECTIVE_SUIT[code], TRICK_RANK[code]
    return sorted((h for h in state.hand(seat) if suits[h.index] == suits[card.index]
                   and ranks[h.index] > ranks[card.index]), key=lambda h: -ranks[h.index])


def _role_note(state: HandState, card: Card, default: str = "") -> str:
    """" (the left bower)" after a card's name, where it has a role."""
    role = card_role(state, card) or default
    return f" ({role})" if role else ""


def _in_trump(trump: Trump) -> str:
    """"in no trump", "in hearts": a contract's trump as a player says it."""
    return f"in {trump.word}"


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


# ---- the coach's sentence: the fact, the figures ---------------------------------------------


def trump_holding(hand: Sequence[Card], trump: Trump, left_bower: bool = True) -> str:
    """The trumps a hand holds, as a player counts them: "both bowers and the A♥ K♥: four
    trumps in hearts"."""
    if trump is Trump.NT:
        aces = [c for c in hand if c.rank is Rank.ACE]
        return (f"{_COUNT[len(aces)]} ace{'s' if len(aces) != 1 else ''}"
                + (f" ({' '.join(c.display for c in aces)})" if aces else "")
                + " for no trump")
    trumps = sort_by_rank([c for c in hand if is_trump(c, trump, left_bower)], trump, left_bower)
    bowers = [bower(c, trump, left_bower) for c in trumps]
    parts = []
    if "right" in bowers and "left" in bowers:
        parts.append("both bowers")
    elif "right" in bowers or "left" in bowers:
        parts.append(f"the {'right' if 'right' in bowers else 'left'} bower")
    rest = [c for c, b in zip(trumps, bowers, strict=True) if b is None]
    if rest:
        parts.append("the " + " ".join(c.display for c in rest))
    held = " and ".join(parts) if parts else "no trump at all"
    n = len(trumps)
    return f"{held}: {_COUNT[n]} trump{'s' if n != 1 else ''} in {trump.word}"


def option_words(o: OptionAdvice) -> str:
    """An option as a player says it: "the 9♣", "5 in ♥ (play with partner)", "surrender"."""
    if o.card is not None:
        return f"the {o.card.display}"
    head, _, how = o.label.partition(", ")
    return f"{head} ({how})" if how else head


def _cap(text: str) -> str:
    """The first letter in capitals, the rest as it is (``str.capitalize`` lowers "NT")."""
    return text[:1].upper() + text[1:]


def _points(e: Estimate) -> str:
    return f"{e.mean:+.1f}"


def _names_only(text: str, *actions: Action) -> bool:
    """True unless the sentence names a card other than these (the choice, the best one,
    the cards on the table): a rule of thumb that recommends another card than the
    analysis's best would only confuse."""
    allowed = {a.display for a in actions if isinstance(a, Card)}
    named = {c.display for c in DECK if c.display in text}
    return named <= allowed


def option_short(o: OptionAdvice, phase: Phase | None = None) -> str:
    """An option as the coach's panels name it, short: "the 9♣", "4 in ♥ alone" (with the
    exchange), "4 in ♥ with partner", "pass", "surrender"; naming trumps (``phase``), the
    trump and the way ("clubs with partner"), and the way of playing, the way alone
    ("going alone", "playing with partner")."""
    if o.card is not None:
        return f"the {o.card.display}"
    if phase is Phase.DECLARE_MODE and o.mode is not None:
        return "going alone" if o.mode is Mode.EXCHANGE else "playing with partner"
    how = {Mode.EXCHANGE: " alone", Mode.PARTNER: " with partner"}.get(o.mode, "") \
        if o.mode is not None else ""
    if phase is Phase.DECLARE_TRUMP and o.trump is not None:
        return o.trump.word + how
    return o.label.partition(", ")[0] + how


FIGURES_MEANING = ("The figures are net points a hand (your side's points less the other "
                   "side's), averaged over {deals} deals of the cards you cannot see, each "
                   "played out with every hand seen; the range after a loss is its 95% "
                   "interval.")
"""What the coach's figures mean: said once, then on request (the front ends' part)."""


def figures_meaning(deals: int) -> str:
    """:data:`FIGURES_MEANING` for a grade or hint read from ``deals`` deals."""
    return FIGURES_MEANING.format(deals=deals)


def verdict_headline(grade: Grade, action: Action, best_label: str, loss: float, low: float,
                     high: float, forced: bool = False, close: bool = False) -> str:
    """The grade's line: "Mistake: the K♠ loses 1.2 points (0.4 to 2.0) against the 9♣.";
    ``close`` (the interval spans from a good choice to a mistake) says the grade is too
    close to call. The range is the loss's 95% interval (:func:`figures_meaning`)."""
    if forced:
        return f"{grade}: the only choice."
    if grade == "Best":
        named = _headline_name(action) if isinstance(action, Mode) else action_text(action)
        if loss > 0.0:  # within the best's reach on these deals, not the best itself
            return f"{grade}: {named} is as good as {best_label} here."
        return f"{grade}: {named} is the best choice here."
    low = max(0.0, low)
    interval = f" ({low:.1f} to {high:.1f})" if f"{low:.1f}" != f"{high:.1f}" else ""
    head = f"{grade}, too close to call" if close else f"{grade}"
    return (f"{head}: {_headline_name(action)} loses {loss:.1f} points{interval} against "
            f"{best_label}.")


def _headline_name(action: Action) -> str:
    """A choice as the grade's line names it: "going alone", "the K♠", "4"."""
    if isinstance(action, Mode):
        return {Mode.EXCHANGE: "going alone", Mode.PARTNER: "playing with partner"}[action]
    return f"the {action.display}" if isinstance(action, Card) else action_text(action)


# Facts whose other cards are part of the fact (the bowers a jack is not, the aces that are
# partner's tricks, the cards that make or break a hand), not another card recommended.
_NAMES_ITS_OWN = frozenset({"jack-not-a-bower", "overbid-partner", "false-signal",
                            "passed-a-making-hand", "underbid", "overbid", "went-alone",
                            "stayed-with-partner", "weaker-trump"})


def signal_words(state: HandState, action: Action | None = None) -> str | None:
    """The bid signals the deciding seat reads at this table, as the coach says them: what
    the other seats' 2s and 3s showed ("your partner's 2 showed an ace"), and what the
    seat's own 2 or 3 shows, with the cards that back it. ``None`` where nothing was or is
    shown (or the table plays no signals)."""
    seat = state.to_act
    if seat is None or not state.rules.signals_on:
        return None
    said = []
    for who, bid in state.calls:
        shows = shown_by(state.rules, bid)
        if shows is None or who == seat:
            continue
        name = ("your partner" if state.rules.partnerships and who == seat.partner
                else who.word)
        said.append(f"{name}'s {bid.display} showed {shows}")
    words = _cap("; ".join(said)) + "." if said else ""
    shows = shown_by(state.rules, action) if isinstance(action, Bid) else None
    if shows is not None and isinstance(action, Bid):
        cards = state.dealt(seat)
        groups = signal_cards(state.rules, action)
        backing = [c for c in cards if any(c.index in g for g in groups)]
        own = (f"A bid of {action.display} shows {shows}: you hold {cards_display(backing)}."
               if holds_shown(state.rules, action, [c.index for c in cards]) else
               f"A bid of {action.display} shows {shows}, which you do not hold.")
        words = f"{words} {own}".strip()
    return words or None


def decision_fact(state: HandState, action: Action, best_action: Action, best: OptionAdvice,
                  mine: OptionAdvice, advice: Advice) -> str:
    """What the coach says beyond the figures, one point: a rule of thumb (for a call, what
    makes or breaks the hand), the annotator's reading of the trick, or, for a card, where
    the cards stand (the highest left in their suit, or what still out beats them). Empty
    only where the choice is the best one."""
    seat = state.to_act
    assert seat is not None
    parts = []
    call = state.phase in (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE)
    if state.phase is Phase.AUCTION:
        signals = signal_words(state, action)
        if signals is not None:
            parts.append(signals)
    # The coach's rule of thumb first; where it names a card the analysis did not pick, or
    # says nothing about a card in play, the annotator's reading of the trick speaks.
    fact = why(state, action, best_action, advice) if mine is not best else None
    table = [c for _, c in state.current_trick]
    text = fact.text if fact is not None and (
        fact.fact in _NAMES_ITS_OWN or _names_only(fact.text, action, best_action, *table)
    ) else None
    cards = isinstance(action, Card) and isinstance(best_action, Card) and mine is not best
    if text is None and cards and state.phase is Phase.PLAY:
        assert isinstance(action, Card) and isinstance(best_action, Card)
        text = card_reason(state, action, best_action)
    if text is None and cards and action != best_action:
        assert isinstance(action, Card) and isinstance(best_action, Card)
        text = card_point(state, best_action, action)
    if text is None and mine is not best and state.trump is not None and (
            state.phase is Phase.DEFENSE or call):
        # No rule of thumb fits: what the hand holds in the contract is the fact.
        text = f"you hold {hand_point(state.hand(seat), state.trump, state.rules.left_bower)}"
        if state.phase is Phase.DEFENSE and state.bidder is not None:
            text += f", against {state.bidder.word}'s {state.high_bid.display}"
    if text is None and mine is not best and call:
        trump = next((t for t in (best.trump, mine.trump) if t is not None), None)
        if trump is not None:
            text = f"you hold {hand_point(state.hand(seat), trump, state.rules.left_bower)}"
    if text:
        parts.append(_cap(text).rstrip(".") + ".")
    return " ".join(parts)


def decision_reason(state: HandState, action: Action, best_action: Action, best: OptionAdvice,
                    mine: OptionAdvice, advice: Advice, by_net: bool, after: str = "") -> str:
    """The coach's reason for a decision: the point (:func:`decision_fact`), then the
    figures of the best option and the choice made. ``mine`` and ``best`` are the advice's
    options for the choice made and the best one; ``by_net`` whether the figures are net
    points (your side's less the other side's). What the figures mean is not said here:
    :func:`figures_meaning` says it, once. ``after``: what the seat heard since its own
    last panel, for which the figures were drawn again ("after East's pass")."""
    fact = decision_fact(state, action, best_action, best, mine, advice)
    figures = _figures(action, best, mine, by_net, state.phase, after=after, graded=True)
    return f"{fact} {figures}" if fact else figures


def hint_reason(state: HandState, best_action: Action, second_action: Action,
                best: OptionAdvice, second: OptionAdvice, by_net: bool, after: str = "") -> str:
    """Why the best option beats the runner-up, before the decision: the point for the
    best option (what makes or breaks the hand, the card's role), then both figures
    (``after``: as :func:`decision_reason`'s)."""
    seat = state.to_act
    assert seat is not None
    hand = state.hand(seat)
    lb = state.rules.left_bower
    text = ""
    if isinstance(best_action, Card) and isinstance(second_action, Card):
        text = card_point(state, best_action, second_action) or ""
    elif state.phase is Phase.DEFENSE and state.trump is not None:
        text = f"you hold {hand_point(hand, state.trump, lb)}"
        play = next((o for o in (best, second) if o.defense is Defense.PLAY), None)
        if play is not None and play.makes is not None:
            text += (f"; the bidders make their {state.high_bid.display} in "
                     f"{_pct(play.makes)} of deals when you play")
    else:
        trump = next((t for t in (best.trump, second.trump, state.trump) if t is not None),
                     None)
        partner = state.bidder is not None and state.to_act is not None and \
            state.rules.partnerships and state.players == 4 and \
            state.bidder == state.to_act.partner and state.phase is Phase.AUCTION
        if partner and best_action is Bid.PASS:
            text = f"your partner's {state.high_bid.display} stands if you pass"
        elif trump is not None and state.phase is Phase.DECLARE_MODE:
            # the hand in short, then what each way brings, as the grade says it
            text = (f"holding {call_point(hand, trump, lb)}, "
                    + ("the exchange trades your weakest card for partner's best"
                       if best_action is Mode.EXCHANGE else
                       "your partner's hand helps more than the exchange's one card"))
        elif trump is not None:
            text = f"you hold {hand_point(hand, trump, lb)}"
    fact = _cap(text).rstrip(".") + ". " if text else ""
    return fact + _figures(second_action, best, second, by_net, state.phase, with_tricks=True,
                           after=after)


def card_point(state: HandState, best: Card, other: Card) -> str | None:
    """The point of ``best`` against ``other``, neutral (before or after the choice): what
    it does in the trick (wins it for sure, beats the cards on the table, lets partner's
    card win) or where it stands, each card named with its role."""
    def named(card: Card) -> str:
        return f"the {card.display}{_role_note(state, card)}"

    trick = state.current_trick
    lb, trump = state.rules.left_bower, state.trump
    if state.phase is Phase.PLAY and trick and trump is not None:
        cards = [c for _, c in trick]
        win_seat, win_card = trick[trick_winner(cards, trump, lb)]
        partner = state.to_act.partner if state.to_act is not None and \
            state.rules.partnerships and state.players == 4 else None

        def wins(c: Card) -> bool:
            return trick_winner([*cards, c], trump, lb) == len(cards)

        if win_seat == partner and not wins(best):
            over = f"; the {other.display} would overtake it" if wins(other) else ""
            return (f"{named(best)} lets your partner's winner, the {win_card.display}, "
                    f"stand{over}")
        if wins(best) and not wins(other):
            return f"{named(best)} beats the {win_card.display}; the {other.display} does not"
    role, kept = card_role(state, best), card_role(state, other)
    if role is None:
        return standing_words(state, other, best)
    return f"the {best.display} is {role}" + (f"; the {other.display} is {kept}" if kept
                                               else "")


def _figures(action: Action, best: OptionAdvice, mine: OptionAdvice, by_net: bool,
             phase: Phase, with_tricks: bool = False, after: str = "",
             graded: bool = False) -> str:
    """"Worth: the 9♣ +1.3, the K♠ +0.1."; ``with_tricks`` (the hint) adds the side's
    tricks where both are known and differ: "the 9♣ +1.3 (4 tricks), the K♠ +0.1 (3.4)";
    ``after`` says what the figures were drawn again for: "Worth after East's pass: ...".
    ``graded``: under the grade's line, which names both choices already: "Worth: best
    +1.3, yours +0.1.", or "After the passes: best ..." (a call's level named with the
    trump and way it is worth most in: "yours (4 in ♥ alone) +0.1")."""
    v_best = best.net if by_net and best.net is not None else best.score
    v_mine = mine.net if by_net and mine.net is not None else mine.score
    named_best, named_mine = option_short(best, phase), _describe(action, mine, phase)
    worth = f"Worth {after}:" if after else "Worth:"
    if mine is best or named_best == named_mine:  # "the Q♥ +3.0, the Q♥ +3.0" says nothing
        return f"{worth} {named_best} {_points(v_best)}."
    if graded:  # a call's level named with the trump and way it is worth most in
        more = f" ({named_mine})" if isinstance(action, Bid) and \
            named_mine.lower() != _headline_name(action).lower() else ""
        return f"{_cap(after) or 'Worth'}: best {_points(v_best)}, yours{more} " \
            f"{_points(v_mine)}."
    tricks = (with_tricks and best.tricks is not None and mine.tricks is not None
              and round(best.tricks.mean, 1) != round(mine.tricks.mean, 1))

    def one(name: str, value: Estimate, o: OptionAdvice, unit: bool) -> str:
        n = round(o.tricks.mean, 1) if o.tricks else 0.0
        t = f" ({tricks_words(n) if unit else f'{n:g}'})" if tricks and o.tricks else ""
        return f"{name} {_points(value)}{t}"

    return (f"{worth} {one(named_best, v_best, best, True)}, "
            f"{one(named_mine, v_mine, mine, False)}.")


def _unseen(state: HandState) -> set[int]:
    """The cards the seat to act has not seen: not in its hand, not played."""
    seat = state.to_act
    assert seat is not None
    seen = {c.index for c in state.hand(seat)}
    seen |= {c.index for t in state.tricks for c in t.cards}
    seen |= {c.index for _, c in state.current_trick}
    return set(range(24)) - seen


def _beaten_by(state: HandState, card: Card) -> list[int]:
    """The unseen cards of ``card``'s own suit (trumps for a trump) that rank above it."""
    code = state.snapshot().code
    suits, ranks = EFFECTIVE_SUIT[code], TRICK_RANK[code]
    c = card.index
    return sorted((u for u in _unseen(state) if suits[u] == suits[c] and ranks[u] > ranks[c]),
                  key=lambda u: -ranks[u])


def _suit_words(state: HandState, card: Card) -> str:
    code = state.snapshot().code
    if _is_trump(card.index, code):
        return "trump left"
    return f"card left in {Trump(EFFECTIVE_SUIT[code][card.index]).word}"


def standing_words(state: HandState, card: Card, better: Card) -> str | None:
    """Where the two cards stand, from what the seat to act has seen: "the A♦ is the highest
    card left in diamonds; the K♠ may lose to the unseen A♠", a bower or a last trump named
    as such."""
    if state.trump is None:
        return None
    out = []
    for c in (better, card):
        role = card_role(state, c)
        name = f"the {c.display}" + (f" ({role})" if role and "highest" not in role else "")
        higher, own = _beaten_by(state, c), _own_higher(state, c)
        if higher:
            out.append(f"{name} may lose to the unseen {_d(higher[0])}")
        elif own:
            out.append(f"{name} ranks below your own {own[0].display}")
        else:
            out.append(f"{name} is the highest {_suit_words(state, c)}")
    return "; ".join(out)


def _describe(action: Action, mine: OptionAdvice, phase: Phase) -> str:
    if isinstance(action, Card):
        return f"the {action.display}"
    if isinstance(action, Bid) and action is not Bid.PASS:
        return option_short(mine) if mine.bid is action else action.display
    if isinstance(action, Trump | Mode | Defense):
        return option_short(mine, phase)
    return action_text(action)


_CONVENTION_WORDS = {
    "lead-trumps-as-maker": "Leading trumps when you called them, as the table's habit goes: "
                            "the {card} draws the other side's trumps.",
    "left-bower-to-maker": "Leading the left bower to your partner the maker, a partners' "
                           "convention: it draws a round of trumps and tells partner where "
                           "the {card} is.",
    "return-partners-suit": "Returning the suit your partner led, as partners do: the {card} "
                            "goes back to the suit partner chose.",
    "no-ace-into-lone-bidder": "Keeping your ace rather than leading it into a lone bidder, "
                               "who has likely made themselves void with the exchange: the "
                               "{card} is led instead.",
}


def convention_words(key: str, card: Card) -> str:
    """The sentence that names a table convention the learner followed (the keys are
    :data:`pepper_tutor.analysis.players.CONVENTIONS`)."""
    return _CONVENTION_WORDS[key].format(card=card.display)


# ---- the annotator: why a card cost tricks, all hands seen ----------------------------------


def side_words(seats: Sequence[Seat]) -> str:
    """``North and South``, ``South``: a side as people name it."""
    names = [s.word for s in seats]
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]


def tricks_words(n: float) -> str:
    """``1 trick``, ``2.4 tricks``."""
    if float(n).is_integer():
        return f"{int(n)} trick{'s' if int(n) != 1 else ''}"
    return f"{n:.1f} tricks"


def _keep_power(card: Card, trump: Trump, left_bower: bool) -> int:
    """How strong a card is to keep for later: trumps above every plain card."""
    return trick_rank(card, trump, left_bower) + (10 if is_trump(card, trump, left_bower) else 0)


def card_reason(state: HandState, card: Card, better: Card, you: bool = True) -> str | None:
    """Why ``better`` was the card to play instead of ``card``, for the seat to play in
    ``state`` (before either is played); ``None`` when no plain fact says it."""
    seat, trump = state.to_act, state.trump
    lb = state.rules.left_bower
    if seat is None or trump is None or card == better:
        return None
    me = "you" if you else seat.word
    trick = state.current_trick
    if not trick:
        return _lead_reason(state, card, better, me)
    cards = [c for _, c in trick]
    win_at = trick_winner(cards, trump, lb)
    win_seat, win_card = trick[win_at]

    def strength(c: Card) -> int:
        return _keep_power(c, trump, lb)

    def wins(c: Card) -> bool:
        return trick_winner([*cards, c], trump, lb) == len(cards)

    partner = seat.partner if state.rules.partnerships and state.players == 4 else None
    partners = "your partner's" if you else f"partner {partner.word}'s" if partner else ""
    led_trump = is_trump(cards[0], trump, lb)
    if win_seat == partner and wins(card) and not wins(better):
        verb = "trumped" if is_trump(card, trump, lb) and not led_trump else "overtook"
        keep = "the trump" if is_trump(card, trump, lb) else f"the {card.display}"
        return (f"{me.capitalize()} {verb} {partners} winning {win_card.display}: the "
                f"{better.display} lets the trick stand and keeps {keep} for later.")
    if win_seat != partner and wins(better) and not wins(card):
        return (f"The {better.display} beats {win_seat.word}'s {win_card.display}; the "
                f"{card.display} lets it stand.")
    if not wins(card) and not wins(better) and strength(card) > strength(better):
        if win_seat == partner:
            return (f"{partners[:1].upper()}{partners[1:]} {win_card.display} was already "
                    f"winning; the {better.display} would have kept the {card.display} for "
                    "later.")
        return (f"The trick was already lost to {win_seat.word}'s {win_card.display}; the "
                f"{better.display} would have kept the {card.display} for later.")
    if wins(card) and wins(better) and strength(better) < strength(card):
        return (f"The {better.display} beats the cards on the table just as well and keeps "
                f"the {card.display} for later.")
    if is_trump(card, trump, lb) and not led_trump and not is_trump(better, trump, lb):
        which = {"left": " (the left bower)", "right": " (the right bower)"}.get(
            bower(card, trump, lb) or "", "")
        return (f"{me.capitalize()} trumped the {cards[0].display} with the {card.display}"
                f"{which}; the {better.display} would have kept the trump for later.")
    still_to_play = len(cards) + 1 < len(state.active_seats)
    if wins(better) and wins(card) and strength(better) > strength(card) and \
            still_to_play and you and _unbeatable(state, better):
        # "For sure" only when no card the seat has not seen could beat it in this trick.
        return (f"The {better.display} wins this trick for sure: no card still unseen can "
                f"beat it; the {card.display} may be beaten by a card still to come.")
    return None


def _unbeatable(state: HandState, card: Card) -> bool:
    """No card unseen by the seat to act could beat ``card`` in the current trick: none of
    its suit ranks higher and, unless it is a trump or there are none, no trump is out."""
    code = state.snapshot().code
    if _beaten_by(state, card):
        return False
    if _is_trump(card.index, code) or code == 4:
        return True
    return not any(_is_trump(u, code) for u in _unseen(state))


def _lead_reason(state: HandState, card: Card, better: Card, me: str) -> str | None:
    trump = state.trump
    assert trump is not None
    lb = state.rules.left_bower
    if trump is not Trump.NT and is_trump(better, trump, lb) and not is_trump(card, trump, lb):
        # Name the trumps still out, as the player counts them: those not seen yet.
        code = state.snapshot().code
        out = sorted((u for u in _unseen(state) if _is_trump(u, code)),
                     key=lambda u: -TRICK_RANK[code][u]) if me == "you" else []
        rounds = ""
        if out:
            names = (", ".join(_d(u) for u in out[:-1]) + " and " + _d(out[-1])
                     if len(out) > 1 else _d(out[0]))
            many = len(out) > 1
            rounds = (f" (the {names} {'are' if many else 'is'} still out)" if len(out) <= 3
                      else f" ({_COUNT[len(out)]} trumps are still out)")
        return (f"Leading the {better.display} draws the other side's trumps{rounds} before "
                f"they can ruff; {me} led the {card.display} instead.")
    if not is_trump(better, trump, lb) and better.rank is Rank.ACE and card.rank is not Rank.ACE:
        # What the card led instead is, only where it is true: a trump can wait, a card
        # something unseen outranks can be beaten.
        if is_trump(card, trump, lb):
            other = f"the {card.display}, a trump, can wait"
        elif not _unbeatable(state, card):
            other = f"the {card.display} may be beaten by a card you have not seen"
        else:
            return None
        if trump is Trump.NT:
            return (f"The {better.display} led wins its trick: nothing beats an ace in no "
                    f"trump; {other}.")
        return (f"The {better.display} is the top card of its suit, to cash before it can "
                f"be trumped; {other}.")
    return None


def card_grade_words(state: HandState, grade: CardGrade) -> str:
    """The annotator's finding for a card that cost tricks against perfect play: why, in a
    club player's words, then the figures. ``state`` is the position before the card."""
    best = grade.best[0]
    reason = card_reason(state, grade.card, best, you=False)
    alternatives = best.display + (f" (or the {', '.join(c.display for c in grade.best[1:])})"
                                   if len(grade.best) > 1 else "")
    plural = "s" if grade.cost != 1 else ""
    figures = (f"It cost {grade.cost} trick{plural} against perfect play: with the "
               f"{alternatives} {side_words(grade.side)} could take "
               f"{tricks_words(grade.with_best)}, after the {grade.card.display} only "
               f"{grade.with_card}.")
    if reason is None:
        return f"{grade.seat.word}'s {grade.card.display} was not the best card. {figures}"
    return f"{reason} {figures}"


# ---- the judgement drills: what an answer gives up, from the sampled analysis ---------------


def points_words(x: float) -> str:
    """"about 2 points", "about 0.4 points", "about 1 point"."""
    x = abs(x)
    text = f"{x:.1f}" if x < 1.5 else f"{round(x)}"
    return f"about {text} point{'' if text in ('1', '1.0') else 's'}"


def lower_first(words: str) -> str:
    """"Bidding 5" as it reads mid-sentence: "bidding 5"."""
    return words[0].lower() + words[1:]


def worse_words(choice: str, best_choice: str, worth: float, gap: float, facts: str) -> str:
    """Why an answer is worse: "Passing gives up about 2 points against bidding 5: <facts>."
    ``choice`` and ``best_choice`` start a sentence ("Passing", "Bidding 5"); ``worth`` is
    what the answer is worth, ``gap`` what it gives up."""
    verb = "costs" if worth < 0 else "gives up"  # a loss, or less of a gain
    return f"{choice} {verb} {points_words(gap)} against {lower_first(best_choice)}: {facts}."


def best_words(best_choice: str, runner_choice: str, gap: float) -> str:
    """Why the best answer is best: "Bidding 5 is best, by about 4 points over passing."."""
    return f"{best_choice} is best, by {points_words(gap)} over {lower_first(runner_choice)}."


def _expected(option: OptionAdvice) -> str:
    t = option.tricks
    return "" if t is None else f"about {t.mean:.1f} tricks"


def _key_cards(hand: Sequence[Card], trump: Trump | None, left_bower: bool) -> str:
    """The cards that carry a hand in a trump: its trumps, jacks counted by the table's
    left-bower switch, then outside aces."""
    if trump is None or trump is Trump.NT:
        keys = [c for c in hand if c.rank in (Rank.ACE, Rank.KING)]
        code = int(Trump.NT)
    else:
        code = trump_code(trump, left_bower)
        keys = [c for c in hand if EFFECTIVE_SUIT[code][c.index] == TRUMP_OF[code]]
        keys += [c for c in hand if c.rank is Rank.ACE and c not in keys]
    keys.sort(key=lambda c: -TRICK_RANK[code][c.index])
    return cards_display(keys) if keys else "no trump and no ace"


def _way_words(option: OptionAdvice) -> str:
    if option.mode is Mode.EXCHANGE:
        return " and the exchange"
    if option.mode is Mode.PARTNER:
        return " and partner's help"
    if option.bid is Bid.BIG_PEPPER:
        return ", alone"
    return ""


def _contract_words(option: OptionAdvice, hand: Sequence[Card], left_bower: bool) -> str:
    """"with J♠ K♠ A♦ and the exchange you expect about 3.4 tricks in ♠"."""
    where = "in no trump" if option.trump is Trump.NT else (
        f"in {option.trump.word}" if option.trump is not None else "")
    tricks = _expected(option)
    if not tricks:  # a big pepper is solved for the sweep alone: how often it makes
        if option.makes is None:
            return f"with {_key_cards(hand, option.trump, left_bower)}{_way_words(option)}"
        return (f"with {_key_cards(hand, option.trump, left_bower)}{_way_words(option)} you "
                f"take all six {where} in {_pct(option.makes)} of deals")
    return (f"with {_key_cards(hand, option.trump, left_bower)}{_way_words(option)} you "
            f"expect {tricks} {where}").rstrip()


def compare_facts(mine: OptionAdvice, best: OptionAdvice, best_answer: Action) -> str:
    """The facts behind any comparison: the tricks each way."""
    return (f"{_expected(mine) or 'it'} that way, against "
            f"{_expected(best) or 'more'} with {action_text(best_answer)}")


def bid_facts(answer: Bid, mine: OptionAdvice, best_answer: Bid, best: OptionAdvice,
              hand: Sequence[Card], left_bower: bool) -> str:
    """A call: what the hand expects in the contract the call leads to."""
    if answer is Bid.PASS:
        return _contract_words(best, hand, left_bower)
    words = "even " if best_answer is Bid.PASS else ""
    words += _contract_words(mine, hand, left_bower)
    t = mine.tricks
    if t is not None and t.mean < answer.tricks:
        words += f", short of {answer.tricks}"
    return words


def bid_right_facts(answer: Bid, mine: OptionAdvice, runner_answer: Bid,
                    runner: OptionAdvice, hand: Sequence[Card], left_bower: bool) -> str:
    """Why a right call is right, against the runner-up: for a pass, the bid passed up and
    what it falls short of; for a bid, what the hand expects in its contract (and what a
    higher runner-up needs)."""
    if answer is Bid.PASS:
        return bid_facts(runner_answer, runner, answer, mine, hand, left_bower)
    words = _contract_words(mine, hand, left_bower)
    t = mine.tricks
    if runner_answer is not Bid.PASS and runner_answer > answer and t is not None \
            and answer.tricks <= t.mean < runner_answer.tricks:
        words += f", short of the {runner_answer.tricks} that {runner_answer.display} needs"
    return words


def declare_facts(choose: str, mine: OptionAdvice, best_answer: Action, best: OptionAdvice,
                  hand: Sequence[Card], left_bower: bool) -> str:
    """Trumps (``choose="trump"``) or the way of playing (``"mode"``): the tricks each way."""
    if choose == "mode":
        other = "with the exchange" if best_answer is Mode.EXCHANGE else "with partner"
        return (f"that way you expect {_expected(mine)}, against "
                f"{_expected(best)} {other}")
    # Trumps: each contract's tricks beside what the hand holds for it (what makes or
    # breaks it), the way of playing where it differs.
    def side(o: OptionAdvice) -> str:
        trump = o.trump if o.trump is not None else Trump.NT
        way = {Mode.EXCHANGE: " alone", Mode.PARTNER: " with partner"}.get(o.mode, "") \
            if o.mode is not None else ""
        return (f"{_expected(o) or 'fewer tricks'} in {trump.word}{way} "
                f"({_count_point(hand, trump, left_bower)})")

    return f"you expect {side(mine)}, against {side(best)}"


def exchange_facts(role: str, answer: Card, mine: OptionAdvice, best_answer: Card,
                   best: OptionAdvice, trump: Trump | None = None,
                   left_bower: bool = True) -> str:
    """The bidder's discard (``role="bidder"``) or the partner's card: the bidder's tricks,
    a bower named as such (with ``trump``)."""
    # Both cards named: the sentence also follows a right answer, where "it" would point at
    # the wrong card.
    def name(card: Card) -> str:
        which = bower(card, trump, left_bower) if trump is not None else None
        return f"the {action_text(card)}" + (f" ({which} bower)" if which else "")

    if role == "bidder":
        return (f"you expect {_expected(mine)} without {name(answer)}, against "
                f"{_expected(best)} without {name(best_answer)}")
    return (f"the bidder expects {_expected(mine)} with {name(answer)}, against "
            f"{_expected(best)} with {name(best_answer)}")


def defend_facts(rules: RuleSet, bid: Bid, answer: Defense, mine: OptionAdvice,
                 best: OptionAdvice) -> str:
    """Play or surrender: the defenders' tricks against what a surrender hands over."""
    stake = bid_value(rules, bid)
    points = f"{stake} point{'s' if stake != 1 else ''}"
    if answer is Defense.SURRENDER:
        t = best.tricks
        beat = (", and one of them beats the bid" if bid.tricks >= 6 else
                ", enough to beat the bid" if t is not None and t.mean > 6 - bid.tricks
                else "")
        return (f"if you play, your side expects {_expected(best)}, a point "
                f"each{beat}; a surrender hands the bidders {points} for nothing")
    if rules.preset == "simple":  # no sweep penalty: the bidders' tricks decide
        return (f"your side expects only {_expected(mine)}, and bidders who "
                "make their bid score every trick they take; a surrender gives them just "
                f"{points}")
    return (f"your side expects only {_expected(mine)}, and defenders who take "
            f"no trick lose {points}")
