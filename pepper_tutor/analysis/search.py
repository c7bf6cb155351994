"""The search behind :mod:`pepper_tutor.analysis.solver`: null-window double-dummy search on masks.

:mod:`pepper_tutor.analysis.solver` is the public face (the position and result types,
:func:`~pepper_tutor.analysis.solver.solve` and its kin); this module holds the machinery
only the solver drives, all of it private: the tables derived from the ranking tables, the
``_searcher`` closures and ``_Root``, the root of a search. The hot code is tuned for speed
(everything the closures touch is a local).

How it stays fast in pure Python:

- Hands are 24-bit masks (card index ``suit * 6 + rank``), so a whole position is a few ints.
- The search asks null-window questions ("does the side take at least ``n`` more
  tricks?"), which prune harder than a full-window search, and answers each fail-soft: with
  a bound, not just yes or no. The exact value takes two or three such searches (MTD(f)),
  sharing one transposition table.
- The table holds a lower and an upper bound on the tricks still to come, at trick
  boundaries only. Its key is rank-relative: per suit, who holds the cards still in play
  from the top down, and who leads. Which low cards are gone does not matter, so positions
  reached by different tricks share entries, and an entry holds for any deal with the same
  trump, seats and side: the annotator passes one
  :class:`~pepper_tutor.analysis.solver.TranspositionTable` through a hand, the advice one
  through its sampled deals.
- Equivalent cards are merged: two cards of one effective suit held by one player, with no
  card between them in trick rank held by anyone else or lying in the current trick, win
  and lose exactly the same tricks, so only one is searched and the other copies its value.
- Cheap bounds settle many positions unsearched: a seat's trumps above every trump of the
  other side each win a trick; a leader whom no one can ruff cashes its trumps and the top
  run of each suit; the last trick plays itself.
- Moves are ordered so that cut-offs come early: strong leads first; a follower tries the
  cheapest card that beats the trick, then its lowest card; a partner already winning plays
  low.

Bowers are never re-derived here: effective suits and trick ranks come from
:data:`pepper_tutor.engine.ranking.EFFECTIVE_SUIT` and
:data:`pepper_tutor.engine.ranking.TRICK_RANK`, and every table below is indexed like them,
by the position's trump code (:attr:`~pepper_tutor.analysis.position.Position.code`: the
trump, and whether the left bower is promoted). ``trump`` (0-3, or 4 for no trump) is what
an effective suit is compared with.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..engine.ranking import EFFECTIVE_SUIT, TRICK_POWER, TRICK_RANK
from .position import NO_TRUMP, Position, TranspositionTable

_CODES = range(len(EFFECTIVE_SUIT))

# ---- tables derived once from the ranking tables ------------------------------------------


def _suit_masks(code: int) -> list[int]:
    masks = [0, 0, 0, 0]
    for c in range(24):
        masks[EFFECTIVE_SUIT[code][c]] |= 1 << c
    return masks


def _suit_orders(code: int) -> list[tuple[tuple[int, int], ...]]:
    """Per effective suit, ``(card, bit)`` pairs from the highest trick rank down."""
    orders = []
    for s in range(4):
        cards = [c for c in range(24) if EFFECTIVE_SUIT[code][c] == s]
        cards.sort(key=lambda c: -TRICK_RANK[code][c])
        orders.append(tuple((c, 1 << c) for c in cards))
    return orders


# ``_POWER[code][led][card]``: trumps beat every card of the suit led, which beats every
# other card (-1: cannot win); only comparisons matter.
_POWER = TRICK_POWER
_SUIT_MASKS = [_suit_masks(t) for t in _CODES]
_ORDERS = [_suit_orders(t) for t in _CODES]
# A card's strength on its own (its power when it leads): trumps above everything else.
_STRENGTH = [[_POWER[t][EFFECTIVE_SUIT[t][c]][c] for c in range(24)] for t in _CODES]

# The move order of a follower that cannot follow suit, with an opponent winning: a ruff
# that wins, cheapest first, then the lowest discard. ``_RUFF_KEYS[code][led][win_power + 1]``
# is that sort key per card (a list, so sorting reads it without a Python call a card).
_RUFF_KEYS = [[[[row[c] - 40 if row[c] > w else strength[c] for c in range(24)]
                for w in range(-1, 17)] for row in _POWER[t]]
              for t, strength in zip(_CODES, _STRENGTH, strict=True)]

# ---- the search ------------------------------------------------------------------------------

_Search = Callable[[int, int, int, int, int, int, int], int]

# Runs of equivalent cards within one suit depend only on which of the suit's cards are
# still in play and which of them the player may play, so they are memoised for good:
# per trump code, at most 3**7 keys for the seven-card trump suit.
_RUNS: list[dict[int, tuple[int, ...]]] = [{} for _ in _CODES]


def _runs(code: int, suit: int, cand: int, present: int) -> tuple[int, ...]:
    """The highest card of each run of ``cand`` in ``suit``, from the top down.

    A run ends where a card still in play (``present``: held by anyone, or lying in the
    current trick) is not ours: such a card separates what the two cards can win."""
    reps = []
    prev = False  # was the last card still in play one of ours?
    for c, b in _ORDERS[code][suit]:
        if present & b:
            if cand & b:
                if not prev:
                    reps.append(c)
                prev = True
            else:
                prev = False
    return tuple(reps)


# Top runs (for the cashing bound) depend on the same two masks: memoised alike.
_TOPS: list[dict[int, int]] = [{} for _ in _CODES]


def _top_run(code: int, suit: int, mine: int, present: int) -> int:
    """How many of the highest cards of ``suit`` still in play are ``mine``, in a row."""
    run = 0
    for _, b in _ORDERS[code][suit]:
        if present & b:
            if not mine & b:
                break
            run += 1
    return run


def _released(*args: int) -> Any:
    raise RuntimeError("this search was released")


def _searcher(position: Position, table: TranspositionTable
              ) -> tuple[_Search, list[int], Callable[[], None]]:
    """Build the search for one position; returns it, the live hand masks and a function
    that frees the search once done with it.

    ``search(seat, pos, led, win_power, win_seat, trick_mask, need)`` is a null-window,
    fail-soft test of "does the maximised side take at least ``need`` tricks from here?",
    with ``seat`` to play the ``pos``-th card of the current trick (led suit ``led``, best
    power so far ``win_power`` by ``win_seat``, its cards ``trick_mask``). It returns a bound
    ``g``: if ``g >= need`` the side takes at least ``g``, else at most ``g``. A bound
    tighter than yes/no is free to compute and makes the table and the root converge faster.

    It is two mutually recursive closures, ``lead`` at trick boundaries and ``follow`` within
    a trick; everything they touch is a local, because attribute look-ups would cost more
    than the search itself.
    """
    trump = position.trump
    code = position.code
    suit_of = EFFECTIVE_SUIT[code]
    masks = _SUIT_MASKS[code]
    power = _POWER[code]
    strength = _STRENGTH[code]
    orders = _ORDERS[code]
    memo = _RUNS[code]
    tops = _TOPS[code]
    ruff_keys = _RUFF_KEYS[code]
    active = position.active_seats
    size = len(active)
    nxt = [0, 0, 0, 0]
    for i, s in enumerate(active):
        nxt[s] = active[(i + 1) % size]
    ours = [1 if s in position.side else 0 for s in range(4)]
    hands = [0, 0, 0, 0]
    owner = [-1] * 24
    for s, hand in enumerate(position.hands):
        for c in hand:
            hands[s] |= 1 << c
            owner[c] = s
    lower, upper = table.lower, table.upper
    trumps_down = orders[trump] if trump != NO_TRUMP else ()
    trump_mask = masks[trump] if trump != NO_TRUMP else 0
    suits = [(s, masks[s]) for s in range(4)]
    plain = [(s, m) for s, m in suits if s != trump]
    # Facts that depend only on the cards left (each card has one owner in a search), so
    # they are worked out once per set of cards: the rank-relative key, and the sure tricks
    # from top trumps. Each suit's share is memoised too, as most card sets share suits.
    facts: dict[int, tuple[int, int, int]] = {}
    codes: dict[int, int] = {}
    sures: dict[int, tuple[int, int]] = {}

    def suit_code(cards: int, suit: int, /) -> int:
        """The owners of a suit's cards still in play, from the top down, in base 5."""
        code = 0
        for c, b in orders[suit]:
            if cards & b:
                code = code * 5 + 1 + owner[c]
        return code

    def sure_tricks(trumps: int, /) -> tuple[int, int]:
        """Sure tricks: a trump above every trump of the other side wins its trick for its
        side whenever it is played (only a partner's could beat it), and a seat plays one
        card a trick, so a seat with k such trumps is worth k tricks to its side. Returns
        that side (1: ours) and the most such trumps one seat holds."""
        top = -1
        count = [0, 0, 0, 0]
        for c, b in trumps_down:
            if trumps & b:
                o = owner[c]
                if top < 0:
                    top = ours[o]
                elif ours[o] != top:
                    break
                count[o] += 1
        return top, max(count)

    def describe(rem: int, /) -> tuple[int, int, int]:
        # The key is rank-relative: per suit, the owners of the cards still in play from
        # the top down. Which low cards are gone does not matter, only who holds what
        # relative to the rest, so positions reached by different tricks share entries.
        key = 0
        for s, m in suits:
            x = rem & m
            code = codes.get(x)
            if code is None:
                code = codes[x] = suit_code(x, s)
            key = key << 17 | code  # 5**7 < 2**17: up to seven cards a suit
        x = rem & trump_mask
        sure = sures.get(x)
        if sure is None:
            sure = sures[x] = sure_tricks(x)
        return key << 2, sure[0], sure[1]

    def runs(cand: int, present: int, suit: int, /) -> tuple[int, ...]:
        key = (present & masks[suit]) << 24 | cand
        reps = memo.get(key)
        if reps is None:
            reps = memo[key] = _runs(code, suit, cand, present)
        return reps

    def lead(seat: int, need: int, /) -> int:
        """At a trick boundary, with 0 < need <= tricks left: see :func:`_searcher`."""
        hand = hands[seat]
        left = hand.bit_count()
        if left == 1:
            # The last trick plays itself (every seat has one card): no table needed.
            w, best, s = seat, -1, seat
            row = power[suit_of[hand.bit_length() - 1]]
            for _ in range(size):
                p = row[hands[s].bit_length() - 1]
                if p > best:
                    best, w = p, s
                s = nxt[s]
            return ours[w]
        rem = hands[0] | hands[1] | hands[2] | hands[3]
        fact = facts.get(rem)
        if fact is None:
            fact = facts[rem] = describe(rem)
        key = fact[0] | seat
        lo = lower.get(key, 0)
        if lo >= need:
            return lo
        hi = upper.get(key, left)
        if hi < need:
            return hi
        sure = fact[2]
        if sure:
            if fact[1]:
                if sure >= need:
                    lower[key] = sure
                    return sure
            elif left - sure < need:
                upper[key] = left - sure
                return left - sure
        if not (rem ^ hand) & trump_mask:
            # No one else holds a trump, so no one can ruff: the leader cashes every trump
            # and the top run of each plain suit, keeping the lead throughout.
            cash = (hand & trump_mask).bit_count()
            for s, m in plain:
                if hand & m:
                    top_key = (rem & m) << 24 | (hand & m)
                    run = tops.get(top_key)
                    if run is None:
                        run = tops[top_key] = _top_run(code, s, hand & m, rem)
                    cash += run
            if ours[seat]:
                if cash >= need:
                    lower[key] = cash
                    return cash
            elif left - cash < need:
                upper[key] = left - cash
                return left - cash
        reps: list[int] = []
        for s, m in suits:
            x = hand & m
            if x:
                reps += memo.get((rem & m) << 24 | x) or runs(x, rem, s)
        if len(reps) > 1:
            reps.sort(key=strength.__getitem__, reverse=True)  # strong leads first
        after = nxt[seat]
        if ours[seat]:
            g = 0
            for c in reps:
                b = 1 << c
                hands[seat] = hand ^ b
                led = suit_of[c]
                v = follow(after, 1, led, power[led][c], seat, b, need)
                if v >= need:
                    hands[seat] = hand
                    lower[key] = v
                    return v
                if v > g:
                    g = v
            hands[seat] = hand
            upper[key] = g
            return g
        g = left
        for c in reps:
            b = 1 << c
            hands[seat] = hand ^ b
            led = suit_of[c]
            v = follow(after, 1, led, power[led][c], seat, b, need)
            if v < need:
                hands[seat] = hand
                upper[key] = v
                return v
            if v < g:
                g = v
        hands[seat] = hand
        lower[key] = g
        return g

    def follow(seat: int, pos: int, led: int, win_power: int, win_seat: int, trick_mask: int,
               need: int, /) -> int:
        """Within a trick: ``seat`` plays the ``pos``-th card."""
        hand = hands[seat]
        row = power[led]
        cand = hand & masks[led]
        if cand:
            if not cand & (cand - 1):
                # One card to follow with: its answer is this node's (the loops below,
                # unrolled for the commonest case).
                p = row[cand.bit_length() - 1]
                if pos + 1 == size:
                    w = seat if p > win_power else win_seat
                    won = ours[w]
                    still = need - won
                    if still <= 0:
                        return won
                    rest = hand.bit_count() - 1
                    if still > rest:
                        return won + rest
                    hands[seat] = hand ^ cand
                    v = won + lead(w, still)
                    hands[seat] = hand
                    return v
                hands[seat] = hand ^ cand
                if p > win_power:
                    v = follow(nxt[seat], pos + 1, led, p, seat, trick_mask | cand, need)
                else:
                    v = follow(nxt[seat], pos + 1, led, win_power, win_seat, trick_mask | cand,
                               need)
                hands[seat] = hand
                return v
            else:
                present = (hands[0] | hands[1] | hands[2] | hands[3] | trick_mask) & masks[led]
                run = memo.get(present << 24 | cand) or runs(cand, present, led)
                if len(run) > 1:
                    # One suit, highest first. Partner winning: play low. Else the cheapest
                    # card that wins, then the lowest of the rest: the cards that win are a
                    # prefix, so both orders are slices.
                    if ours[win_seat] == ours[seat]:
                        run = run[::-1]
                    else:
                        k = 0
                        while k < len(run) and row[run[k]] > win_power:
                            k += 1
                        run = run[k - 1::-1] + run[:k - 1:-1] if k else run[::-1]
                reps: tuple[int, ...] | list[int] = run
        else:
            present = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
            reps = []
            for s, m in suits:
                x = hand & m
                if x:
                    reps += memo.get((present & m) << 24 | x) or runs(x, present, s)
            if len(reps) > 1:
                if ours[win_seat] == ours[seat]:
                    reps.sort(key=strength.__getitem__)
                else:  # a ruff that wins, cheapest first, then the lowest discard
                    reps.sort(key=ruff_keys[led][win_power + 1].__getitem__)
        if pos + 1 == size:
            # Last to play: each card ends the trick. Children whose answer the trick count
            # alone settles are not searched at all.
            rest = hand.bit_count() - 1
            if ours[seat]:
                g = -1
                for c in reps:
                    w = seat if row[c] > win_power else win_seat
                    won = ours[w]
                    still = need - won
                    if still <= 0:
                        return won  # a lower bound, and enough
                    if still > rest:
                        v = won + rest  # an upper bound, and not enough
                    else:
                        hands[seat] = hand ^ (1 << c)
                        v = won + lead(w, still)
                        hands[seat] = hand
                        if v >= need:
                            return v
                    if v > g:
                        g = v
                return g
            g = 99
            for c in reps:
                w = seat if row[c] > win_power else win_seat
                won = ours[w]
                still = need - won
                if still <= 0:
                    v = won  # a lower bound, and enough
                elif still > rest:
                    return won + rest  # an upper bound, and not enough
                else:
                    hands[seat] = hand ^ (1 << c)
                    v = won + lead(w, still)
                    hands[seat] = hand
                    if v < need:
                        return v
                if v < g:
                    g = v
            return g
        after = nxt[seat]
        if ours[seat]:
            g = -1
            for c in reps:
                b = 1 << c
                hands[seat] = hand ^ b
                p = row[c]
                if p > win_power:
                    v = follow(after, pos + 1, led, p, seat, trick_mask | b, need)
                else:
                    v = follow(after, pos + 1, led, win_power, win_seat, trick_mask | b, need)
                if v >= need:
                    hands[seat] = hand
                    return v
                if v > g:
                    g = v
            hands[seat] = hand
            return g
        g = 99
        for c in reps:
            b = 1 << c
            hands[seat] = hand ^ b
            p = row[c]
            if p > win_power:
                v = follow(after, pos + 1, led, p, seat, trick_mask | b, need)
            else:
                v = follow(after, pos + 1, led, win_power, win_seat, trick_mask | b, need)
            if v < need:
                hands[seat] = hand
                return v
            if v < g:
                g = v
        hands[seat] = hand
        return g

    def search(seat: int, pos: int, led: int, win_power: int, win_seat: int, trick_mask: int,
               need: int, /) -> int:
        if pos:
            return follow(seat, pos, led, win_power, win_seat, trick_mask, need)
        if need <= 0:
            return 0
        left = hands[seat].bit_count()
        if need > left:
            return left
        return lead(seat, need)

    def release() -> None:
        """Break the cycles between the helpers above, so a finished search is freed at once
        rather than at the cyclic collector's next pass (sampled advice runs thousands of
        searches, whose garbage would pile up meanwhile). ``lead`` and ``follow`` call each
        other; compiled (:mod:`.native`), every nested function is also held by the scope
        they share, which each holds in turn. The names are rebound rather than deleted,
        which the compiled build cannot do."""
        nonlocal lead, follow, describe, runs, suit_code, sure_tricks, search, release
        lead = follow = describe = runs = suit_code = sure_tricks = search = _released
        release = _released

    return search, hands, release


class _Root:
    """The root of a search: the current trick's state and the player to move's options."""

    def __init__(self, position: Position, table: TranspositionTable) -> None:
        table.prepare(position)
        self.position = position
        self.search, self.hands, self.release = _searcher(position, table)
        code = position.code
        self.seat = position.to_play
        self.pos = len(position.trick)
        self.trick_mask = 0
        self.led = 0
        self.win_power, self.win_seat = -1, 0
        if position.trick:
            self.led = EFFECTIVE_SUIT[code][position.trick[0][1]]
            row = _POWER[code][self.led]
            for s, c in position.trick:
                self.trick_mask |= 1 << c
                if row[c] > self.win_power:
                    self.win_power, self.win_seat = row[c], s
        self.left = len(position.hands[self.seat])
        self.size = len(position.active_seats)
        self.ours = [1 if s in position.side else 0 for s in range(4)]

    def test(self, need: int) -> int:
        return self.search(self.seat, self.pos, self.led, self.win_power, self.win_seat,
                           self.trick_mask, need)

    def after(self, card: int) -> Callable[[int], int]:
        """The search for the position after the player to move plays ``card``."""
        seat = self.seat
        code = self.position.code
        if self.pos == 0:
            led = EFFECTIVE_SUIT[code][card]
            w_power, w_seat = _POWER[code][led][card], seat
        else:
            led = self.led
            p = _POWER[code][led][card]
            w_power, w_seat = (p, seat) if p > self.win_power else (self.win_power,
                                                                   self.win_seat)
        last = self.pos + 1 == self.size
        active = self.position.active_seats
        nxt_seat = active[(active.index(seat) + 1) % self.size]
        # A partial, not a nested function: compiled, a nested function and the scope it
        # shares with its parent hold each other, a cycle per card searched.
        return partial(self._test_after, card, led, w_power, w_seat, last, nxt_seat)

    def _test_after(self, card: int, led: int, w_power: int, w_seat: int, last: bool,
                    nxt_seat: int, need: int) -> int:
        """:meth:`test` after the player to move plays ``card`` (see :meth:`after`)."""
        seat, hands, bit = self.seat, self.hands, 1 << card
        hands[seat] ^= bit
        try:
            if last:
                won = self.ours[w_seat]
                return won + self.search(w_seat, 0, 0, -1, 0, 0, need - won)
            return self.search(nxt_seat, self.pos + 1, led, w_power, w_seat,
                               self.trick_mask | bit, need)
        finally:
            hands[seat] ^= bit

    @staticmethod
    def converge(test: Callable[[int], int], lo: int, hi: int, guess: int) -> int:
        """The exact value in ``[lo, hi]`` by null-window tests (MTD(f)): each test's
        fail-soft bound moves ``lo`` up or ``hi`` down until they meet."""
        g = guess
        while lo < hi:
            need = g + 1 if g == lo else g
            g = test(need)
            if g >= need:
                lo = g
            else:
                hi = g
        return lo

    def values(self, best: int) -> list[tuple[list[int], int]]:
        """Every option of the player to move valued over this root's table, given the
        position's value ``best``: ``(group, tricks)`` for each run of equivalent legal
        cards (:meth:`groups`). A card is at best as good as the best play, and most cards
        are, so each search starts there and most end after one null-window test."""
        out = []
        maximising = self.ours[self.seat]
        for group in self.groups(self.legal()):
            test = self.after(group[0])
            v = (self.converge(test, 0, best, best) if maximising
                 else self.converge(test, best, self.left, best))
            out.append((group, v))
        return out

    def legal(self) -> list[int]:
        hand = self.hands[self.seat]
        if self.pos:
            follow = hand & _SUIT_MASKS[self.position.code][self.led]
            hand = follow or hand
        return [c for c in range(24) if hand >> c & 1]

    def groups(self, legal: list[int]) -> list[list[int]]:
        """Legal cards grouped into runs of equivalent cards (see the module docstring)."""
        code = self.position.code
        present = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3] | self.trick_mask
        mine = sum(1 << c for c in legal)
        out: list[list[int]] = []
        for s in range(4):
            run: list[int] = []
            for c, b in _ORDERS[code][s]:
                if not present & b:
                    continue
                if mine & b:
                    run.append(c)
                elif run:
                    out.append(run)
                    run = []
            if run:
                out.append(run)
        return out
