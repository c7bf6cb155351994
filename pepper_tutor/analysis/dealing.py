"""Dealing the unseen cards: random layouts consistent with what a player knows.

Sampled advice (:mod:`pepper_tutor.analysis.advice`) judges a decision made without seeing the other
hands by dealing the cards the player cannot see at random, solving each deal and
averaging. The deals must fit everything the player knows, or the advice would be about
another game, and be uniform over the layouts that fit, or it would be biased. This module
holds that part:

- :class:`Dealer` deals a pool of unseen cards into buckets (seats, an unseen discard, the
  undealt cards), each barred from the cards it cannot hold, exactly uniformly and with no
  retries however tight the bars.
- :func:`void_masks` and :func:`known_voids` read what play has shown, the suits a seat
  failed to follow, from a whole hand or one seat's view of it (the one place voids are
  inferred).
- :func:`position_seed` seeds the dealing from the position itself, so the same decision
  asked again (a take-back, a replay, another front end) meets the same deals.
- :func:`send_rule` and :func:`discard_rule` fill in an exchange on a dealt layout: the card
  the partner sends and the card the bidder discards, where they are not the decision
  being advised.

Advice (:mod:`pepper_tutor.analysis.advice`) holds the options, the estimates and the
``advise_*`` functions; this module holds only the dealing and what it must respect.
"""

from __future__ import annotations

import hashlib
import math
import random
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate

from ..engine.calls import Trump
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, TRUMP_OF, trump_code
from ..engine.seats import Seat
from ..engine.state import HandState
from .view import SeatView

__all__ = [
    "Dealer",
    "send_rule",
    "discard_rule",
    "known_voids",
    "void_masks",
    "position_seed",
]


# ---- dealing the unseen cards --------------------------------------------------------------


class Dealer:
    """Deals ``pool`` into buckets of given sizes, each barred from some cards, uniformly
    over every layout that respects the bars.

    A bucket is ``(count, barred)`` with ``barred`` a mask of card indices it may not hold
    (a seat's shown voids), 0 for a bucket that may hold anything (an unseen discard).
    Cards that the same buckets accept are interchangeable, so the dealer lists once the
    ways to split each such class of cards among the buckets, weighted by how many deals
    each split stands for; each deal picks a split by weight, then shuffles within it.
    That is exactly uniform, with no retries however tight the voids.
    """

    def __init__(self, pool: Sequence[int], buckets: Sequence[tuple[int, int]]) -> None:
        if sum(n for n, _ in buckets) != len(pool):
            raise ValueError(f"{len(pool)} unseen cards cannot fill buckets of "
                             f"{[n for n, _ in buckets]}")
        self.counts = [n for n, _ in buckets]
        # Buckets barred from the same cards form one group, split by a plain shuffle.
        bars: list[int] = []
        self.group_of: list[int] = []
        for _, barred in buckets:
            if barred not in bars:
                bars.append(barred)
            self.group_of.append(bars.index(barred))
        self.n_groups = len(bars)
        room = [0] * len(bars)
        for bucket, n in enumerate(self.counts):
            room[self.group_of[bucket]] += n
        classes: dict[tuple[int, ...], list[int]] = {}
        for c in sorted(pool):
            allowed = tuple(g for g, barred in enumerate(bars) if not barred >> c & 1)
            classes.setdefault(allowed, []).append(c)
        self.classes = list(classes.items())
        self.layouts: list[tuple[tuple[int, ...], ...]] = []
        weights: list[int] = []
        for layout, weight in self._layouts(0, room):
            self.layouts.append(layout)
            weights.append(weight)
        if not self.layouts:
            raise ValueError("no layout of the unseen cards fits what is known")
        self.cumulative = list(accumulate(weights))

    def _layouts(self, k: int, room: list[int]
                 ) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
        """Each way to split classes ``k..`` into the groups' free room, with its weight."""
        if k == len(self.classes):
            if not any(room):
                yield (), 1
            return
        for g, free in enumerate(room):  # prune: the classes left must fill every group
            if free > sum(len(cs) for al, cs in self.classes[k:] if g in al):
                return
        allowed, cards = self.classes[k]
        for split in _splits(len(cards), [room[g] for g in allowed]):
            parts = [0] * len(room)
            for g, n in zip(allowed, split, strict=True):
                parts[g] = n
            rest = [free - n for free, n in zip(room, parts, strict=True)]
            ways = _multinomial(len(cards), split)
            for tail, weight in self._layouts(k + 1, rest):
                yield (tuple(parts), *tail), ways * weight

    def deal(self, rng: random.Random) -> list[list[int]]:
        """One deal: the cards of each bucket, in bucket order."""
        layout = self.layouts[bisect_right(self.cumulative, rng.randrange(self.cumulative[-1]))]
        groups: list[list[int]] = [[] for _ in range(self.n_groups)]
        for (_, cards), parts in zip(self.classes, layout, strict=True):
            shuffled = list(cards)
            rng.shuffle(shuffled)
            start = 0
            for g, n in enumerate(parts):
                groups[g].extend(shuffled[start:start + n])
                start += n
        for group in groups:
            rng.shuffle(group)  # then split among the group's buckets in order
        taken = [0] * len(groups)
        out: list[list[int]] = []
        for bucket, n in enumerate(self.counts):
            g = self.group_of[bucket]
            out.append(sorted(groups[g][taken[g]:taken[g] + n]))
            taken[g] += n
        return out


def _splits(n: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Tuples of len(caps) parts summing to n, each part from 0 to its cap."""
    if not caps:
        if n == 0:
            yield ()
        return
    if n > sum(caps):
        return
    for first in range(min(n, caps[0]) + 1):
        for rest in _splits(n - first, caps[1:]):
            yield (first, *rest)


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out = math.factorial(n)
    for p in parts:
        out //= math.factorial(p)
    return out


# ---- the partner's card and the bidder's discard -------------------------------------------


def _strength(code: int, card: int) -> tuple[int, int]:
    """Trumps above everything, then trick rank, under a ranking code (the trump and the
    table's left-bower switch); the card index breaks ties (two plain aces) so that the
    choice is always the same."""
    is_trump = EFFECTIVE_SUIT[code][card] == TRUMP_OF[code]  # no trump matches no suit
    return (TRICK_RANK[code][card] + (10 if is_trump else 0), card)


def send_rule(hand: Sequence[int], trump: int, left_bower: bool = True) -> int:
    """The partner's card for the exchange: the highest trump held, else the highest card."""
    code = trump_code(trump, left_bower)
    return max(hand, key=lambda c: _strength(code, c))


def discard_rule(hand: Sequence[int], trump: int, left_bower: bool = True) -> int:
    """The bidder's discard: the lowest card of the shortest plain suit, keeping aces (they
    win tricks) unless every plain card is an ace; with only trumps, the lowest trump."""
    code = trump_code(trump, left_bower)
    suits = EFFECTIVE_SUIT[code]
    plain = [c for c in hand if suits[c] != trump]  # every card at no trump (4)
    if not plain:
        return min(hand, key=lambda c: _strength(code, c))
    length = {s: sum(1 for c in hand if suits[c] == s) for s in range(4)}
    return min(plain, key=lambda c: (c % 6 == 5, length[suits[c]], _strength(code, c)))


# ---- what the viewer knows -----------------------------------------------------------------


def known_voids(seen: HandState | SeatView) -> dict[Seat, tuple[Trump, ...]]:
    """The effective suits each seat has shown it lacks by failing to follow, so far."""
    out: dict[Seat, tuple[Trump, ...]] = {}
    if seen.trump is None:
        return out  # no card is played before trumps are named
    code = trump_code(int(seen.trump), seen.rules.left_bower)
    for seat, mask in enumerate(void_masks(seen)):
        suits = tuple(Trump(s) for s in range(4) if mask & _suit_mask(code, s))
        if suits:
            out[Seat(seat)] = suits
    return out


def _suit_mask(code: int, suit: int) -> int:
    """The cards of one effective suit under a trump code (:func:`trump_code`: the left
    bower, where the rule set promotes it, counts with the trumps)."""
    return sum(1 << c for c in range(24) if EFFECTIVE_SUIT[code][c] == suit)


def void_masks(seen: HandState | SeatView) -> list[int]:
    """Per seat, the mask of cards it cannot hold because it failed to follow a suit.

    The one reading of voids from play, for a whole hand or one seat's view of it: the
    tricks are public, so both give the same masks."""
    masks = [0] * seen.players
    if seen.trump is None:
        return masks
    code = trump_code(int(seen.trump), seen.rules.left_bower)
    suits = EFFECTIVE_SUIT[code]
    tricks = [([c.index for c in t.cards], [int(s) for s in t.seats]) for t in seen.tricks]
    current = seen.trick if isinstance(seen, SeatView) else seen.current_trick
    if current:
        tricks.append(([c.index for _, c in current], [int(s) for s, _ in current]))
    for cards, seats in tricks:
        led = suits[cards[0]]
        for card, seat in zip(cards[1:], seats[1:], strict=True):
            if suits[card] != led:
                masks[seat] |= _suit_mask(code, led)
    return masks


# ---- seeding from the position -------------------------------------------------------------


def position_seed(view: SeatView, seed: int | None = None) -> int:
    """A seed for the deals of the advice on the decision in front of ``view``'s seat, from
    everything that seat knows (its cards, the calls, the exchange it saw, the play) and
    an optional ``seed`` to draw another set: a hash, never a global generator, so it is
    the same in every process and on every replay of the same position."""
    facts = (view.rules.name, int(view.dealer), int(view.seat), str(view.phase),
             tuple(c.index for c in view.dealt), tuple(c.index for c in view.hand),
             tuple((int(s), int(b)) for s, b in view.calls), view.trump, view.mode,
             view.discard.index if view.discard is not None else None,
             view.passed.index if view.passed is not None else None, view.defense,
             tuple((tuple(int(s) for s in t.seats), tuple(c.index for c in t.cards))
                   for t in view.tricks),
             tuple((int(s), c.index) for s, c in view.trick), seed)
    digest = hashlib.blake2b(repr(facts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
