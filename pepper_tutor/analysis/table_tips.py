"""The reference player: the table tips a Pepper player is taught, and nothing else.

A yardstick the analysis does not grade itself by. It shares no code with the computer
players' calling model (:mod:`.calling`), the dealing of unseen cards or the solver: it
reads its own cards through the engine's ranking (the one source of truth for bowers) and
follows the tips players pass on at the table:

- **Bidding**: count the sure tricks in your best suit: each bower and the ace of trumps is
  one; another trump is half a trick, and from the fourth trump on each is a whole one;
  each ace of another suit is one (in no trump: each ace, and a king beside its ace). Add
  one for your partner. Bid that many when it is at least three and beats the standing
  bid; over your own partner only when you count two more than partner bid. Little pepper
  with the three top trumps and two more trumps or an outside ace; big pepper with all six
  tricks counted without a partner. No trump only with three aces and no trump suit worth
  more. A dealer who must bid bids the least it may.
- **The exchange**: always take it when naming a suit or no trump (go alone); a partner
  sends its highest trump (else an ace, else its highest card); the bidder discards its
  lowest card outside trumps, from its shortest suit, keeping aces.
- **Defending**: play when a trick is in sight (a bower, the ace of trumps, a guarded king
  of trumps, or an outside ace), else surrender.
- **Cards**: the bidders draw trumps from the top; otherwise lead an ace, else your lowest
  card; follow low when partner is winning, else win as cheaply as you can, else throw
  your lowest card (a card outside trumps before a trump).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import Card, Rank
from ..engine.ranking import effective_suit, trick_rank, trick_winner
from ..engine.state import Action, Phase
from .view import SeatView

__all__ = ["TableTipsPlayer", "suit_count"]

_LEVEL = "reference"


def suit_count(hand: Sequence[Card], trump: Trump, left_bower: bool = True,
               partner: bool = True) -> float:
    """The tricks the table tips count for ``hand`` with ``trump`` named (one added for a
    partner when there is one)."""
    count = 1.0 if partner else 0.0
    if trump is Trump.NT:
        by_suit = {c.suit: [d.rank for d in hand if d.suit is c.suit] for c in hand}
        for ranks in by_suit.values():
            count += Rank.ACE in ranks
            count += Rank.KING in ranks and Rank.ACE in ranks and len(ranks) >= 2
        return count
    trumps = sorted((c for c in hand if _trump(c, trump, left_bower)),
                    key=lambda c: -trick_rank(c, trump, left_bower))
    for place, card in enumerate(trumps):
        if trick_rank(card, trump, left_bower) >= 4:  # a bower or the ace of trumps
            count += 1
        else:
            count += 1.0 if place >= 3 else 0.5
    count += sum(1 for c in hand if c.rank is Rank.ACE and not _trump(c, trump, left_bower))
    return count


def _trump(card: Card, trump: Trump, left_bower: bool) -> bool:
    return trump is not Trump.NT and effective_suit(card, trump, left_bower) == trump.suit


class TableTipsPlayer:
    """Plays by the table tips in the module notes; decides from its view alone."""

    level = _LEVEL

    def decide(self, view: SeatView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        phase = view.phase
        if phase is Phase.AUCTION:
            return self._bid(view)
        if phase is Phase.DECLARE_TRUMP:
            return self._best_trump(view)[0]
        if phase is Phase.DECLARE_MODE:
            return Mode.EXCHANGE
        if phase is Phase.SEND:
            return self._send(view)
        if phase is Phase.DISCARD:
            return self._discard(view)
        if phase is Phase.DEFENSE:
            return Defense.PLAY if self._trick_in_sight(view) else Defense.SURRENDER
        if phase is Phase.PLAY:
            return self._card(view)
        raise ValueError(f"there is no decision to make: the hand is {phase}")

    # ---- the auction ----------------------------------------------------------------------

    def _best_trump(self, view: SeatView) -> tuple[Trump, float]:
        lb = view.rules.left_bower
        partner = view.partner is not None
        suits = [(Trump(t), suit_count(view.hand, Trump(t), lb, partner)) for t in range(4)]
        trump, count = max(suits, key=lambda tc: tc[1])
        aces = sum(1 for c in view.hand if c.rank is Rank.ACE)
        no_trump = suit_count(view.hand, Trump.NT, lb, partner)
        if aces >= 3 and no_trump > count:
            return Trump.NT, no_trump
        return trump, count

    def _bid(self, view: SeatView) -> Action:
        bids = [b for b in view.legal if isinstance(b, Bid) and b is not Bid.PASS]
        trump, count = self._best_trump(view)
        pepper = self._pepper(view, trump)
        if pepper is not None and pepper in bids:
            return pepper
        want = min(int(count), 6)
        partner_bid = view.partner is not None and view.bidder == view.partner
        floor = int(view.high_bid) + 2 if partner_bid else int(view.high_bid) + 1
        if want >= 3 and want >= floor and Bid(want) in bids:
            return Bid(want)
        if Bid.PASS in view.legal:
            return Bid.PASS
        return min(bids)  # the dealer who must bid bids the least it may

    def _pepper(self, view: SeatView, trump: Trump) -> Bid | None:
        if trump is Trump.NT:
            return None
        lb = view.rules.left_bower
        trumps = [c for c in view.hand if _trump(c, trump, lb)]
        top = sum(1 for c in trumps if trick_rank(c, trump, lb) >= 4)
        aces = sum(1 for c in view.hand if c.rank is Rank.ACE and not _trump(c, trump, lb))
        if suit_count(view.hand, trump, lb, partner=False) >= 6:
            return Bid.BIG_PEPPER
        if top >= 3 and (len(trumps) >= 5 or (len(trumps) >= 4 and aces >= 1)):
            return Bid.LITTLE_PEPPER
        return None

    # ---- the exchange and the defense ---------------------------------------------------------

    def _send(self, view: SeatView) -> Action:
        trump, lb = view.trump or Trump.NT, view.rules.left_bower
        trumps = [c for c in view.hand if _trump(c, trump, lb)]
        if trumps:
            return max(trumps, key=lambda c: trick_rank(c, trump, lb))
        aces = [c for c in view.hand if c.rank is Rank.ACE]
        return aces[0] if aces else max(view.hand, key=lambda c: c.rank)

    def _discard(self, view: SeatView) -> Action:
        trump, lb = view.trump or Trump.NT, view.rules.left_bower
        plain = [c for c in view.hand if not _trump(c, trump, lb) and c.rank is not Rank.ACE]
        if not plain:
            plain = [c for c in view.hand if not _trump(c, trump, lb)] or list(view.hand)
        length = {c.suit: sum(1 for d in plain if d.suit is c.suit) for c in plain}
        return min(plain, key=lambda c: (length[c.suit], trick_rank(c, trump, lb)))

    def _trick_in_sight(self, view: SeatView) -> bool:
        trump, lb = view.trump or Trump.NT, view.rules.left_bower
        trumps = [c for c in view.hand if _trump(c, trump, lb)]
        if any(trick_rank(c, trump, lb) >= 4 for c in trumps):
            return True
        if any(c.rank is Rank.KING for c in trumps) and len(trumps) >= 2:
            return True
        return any(c.rank is Rank.ACE and not _trump(c, trump, lb) for c in view.hand)

    # ---- the cards --------------------------------------------------------------------------

    def _card(self, view: SeatView) -> Action:
        trump, lb = view.trump or Trump.NT, view.rules.left_bower
        legal = [c for c in view.legal if isinstance(c, Card)]

        def low(c: Card) -> tuple[bool, int]:
            return _trump(c, trump, lb), trick_rank(c, trump, lb)

        if not view.trick:
            trumps = [c for c in legal if _trump(c, trump, lb)]
            if view.on_bidding_side and trumps:
                return max(trumps, key=lambda c: trick_rank(c, trump, lb))
            aces = [c for c in legal if c.rank is Rank.ACE and not _trump(c, trump, lb)]
            return aces[0] if aces else min(legal, key=low)
        seats = [s for s, _ in view.trick]
        cards = [c for _, c in view.trick]
        winning = seats[trick_winner(cards, trump, lb)]
        if view.partner is not None and winning == view.partner:
            return min(legal, key=low)
        beating = [c for c in legal if trick_winner([*cards, c], trump, lb) == len(cards)]
        if beating:
            return min(beating, key=low)
        return min(legal, key=low)
