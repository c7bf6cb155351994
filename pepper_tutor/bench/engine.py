"""Engine benchmarks, paired and with their units stated.

Every figure is measured in rounds that alternate between the things compared (A, B, A, B,
...), in CPU time, and reported as the median over the rounds with the range (lowest to
highest round), so a busy machine shows as a wide range rather than a wrong ratio. Ratios
are taken round by round (A's rate over B's in the same round) and summarised the same way.

The units:

- **played-out hands**: a hand dealt, bid, declared and played to the sixth trick with random
  legal actions through the public fast path (``legal_actions()`` + ``apply()``), the
  defenders always choosing to play. This is the unit of one OpenSpiel Euchre game played
  with random actions, the comparison printed when ``open_spiel`` is installed
  (``pip install '.[bench]'``; never needed to run pepper-tutor).
- **random hands**: the same with the defense chosen at random too, so many hands are
  surrendered before a card is played; an easier unit, reported with its split.
- **playouts**: from one play-phase position, random legal cards to the end of the hand:
  :meth:`HandState.random_tricks` (tricks won by each seat, the state untouched: what a
  sampling search needs) and a copy finished by :meth:`HandState.playout` (history, tricks
  and score written back), each against a lean pure-Python bitmask playout of the same
  position written here for the comparison (it returns tricks won by each seat).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_POWER
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import HandState, Phase
from .timing import timed

__all__ = ["bitmask_playout", "benches", "paired"]

ROUNDS = 9

Batch = Callable[[], int]  # does some units of work and says how many


def paired(contestants: dict[str, Batch], seconds: float,
           rounds: int = ROUNDS) -> dict[str, list[float]]:
    """Units per CPU second of each contestant in each round, the contestants alternating
    within every round (and starting in turn), about ``seconds`` of CPU each in all."""
    names = list(contestants)
    rates: dict[str, list[float]] = {n: [] for n in names}
    slice_ = seconds / rounds
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            rates[name].append(timed(contestants[name], slice_, time.process_time))
    return rates


def _spread(values: Sequence[float], fmt: str = ",.0f") -> str:
    return (f"{statistics.median(values):{fmt}} (range {min(values):{fmt}}-{max(values):{fmt}}, "
            f"{len(values)} rounds)")


def _ratios(a: Sequence[float], b: Sequence[float]) -> list[float]:
    return [x / y for x, y in zip(a, b, strict=True)]


# ---- full hands --------------------------------------------------------------------------


class _HandCounts:
    def __init__(self) -> None:
        self.played = self.surrendered = self.thrown_in = self.actions = 0


def _pepper_hands(rules: Any, rng: random.Random, counts: _HandCounts,
                  defenders_play: bool, batch: int = 100) -> Batch:
    choice = rng.choice
    play = Defense.PLAY
    defense = Phase.DEFENSE

    def run() -> int:
        played = 0
        for i in range(batch):
            state = HandState.deal(rules, Seat(i & 3), rng)
            while not state.is_terminal():
                if defenders_play and state.phase is defense:
                    state.apply(play)
                else:
                    state.apply(choice(state.legal_actions()))
            counts.actions += len(state.history)
            if state.phase is Phase.SCORED and state.defense is play:
                played += 1
            elif state.phase is Phase.THROWN_IN:
                counts.thrown_in += 1
            else:
                counts.surrendered += 1
        counts.played += played
        return played if defenders_play else batch

    return run


def _openspiel_games(rng: random.Random, counts: _HandCounts, batch: int = 100) -> Batch | None:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    choice = rng.choice

    def run() -> int:
        for _ in range(batch):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                counts.actions += 1
        counts.played += batch
        return batch

    return run


def bench_full_hands(seconds: float) -> str:
    rules = get_ruleset("standard")
    ours, theirs, loose = _HandCounts(), _HandCounts(), _HandCounts()
    contestants: dict[str, Batch] = {
        "pepper": _pepper_hands(rules, random.Random(1), ours, defenders_play=True)}
    spiel = _openspiel_games(random.Random(2), theirs)
    if spiel is not None:
        contestants["openspiel"] = spiel
    contestants["random"] = _pepper_hands(rules, random.Random(3), loose, defenders_play=False)
    rates = paired(contestants, seconds * len(contestants))
    hands = ours.played + ours.thrown_in
    lines = [
        "played-out hands/s (standard, random legal actions, defenders play, through "
        f"legal_actions()+apply()): {_spread(rates['pepper'])}; "
        f"{ours.actions / max(1, hands):.1f} actions a hand, "
        f"{ours.thrown_in / max(1, hands):.1%} thrown in (not counted)",
    ]
    if spiel is not None:
        lines.append(
            f"  OpenSpiel Euchre games/s (random legal actions, chance dealt card by card): "
            f"{_spread(rates['openspiel'])}; "
            f"{theirs.actions / max(1, theirs.played):.1f} actions a game")
        lines.append("  pepper / OpenSpiel, paired by round: "
                     f"{_spread(_ratios(rates['pepper'], rates['openspiel']), '.2f')}x")
    else:
        lines.append("  (install open_spiel, pip install '.[bench]', for the side-by-side "
                     "OpenSpiel Euchre ratio)")
    total = loose.played + loose.surrendered + loose.thrown_in
    lines.append(
        f"random hands/s (defense at random too): {_spread(rates['random'])}; of them "
        f"{loose.played / max(1, total):.0%} played out, "
        f"{loose.surrendered / max(1, total):.0%} surrendered before a card, "
        f"{loose.thrown_in / max(1, total):.0%} thrown in; "
        f"{loose.actions / max(1, total):.1f} actions a hand")
    return "\n".join(lines)


# ---- playouts ----------------------------------------------------------------------------


def _play_position() -> HandState:
    rng = random.Random(2)
    start = HandState.deal("standard", Seat.W, rng)
    for action in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY):
        start.apply(action)
    assert start.phase is Phase.PLAY
    return start


_SUIT_MASKS = [[sum(1 << c for c in range(24) if EFFECTIVE_SUIT[code][c] == s) for s in range(4)]
               for code in range(len(EFFECTIVE_SUIT))]


def bitmask_playout(hands: Sequence[int], leader: int, code: int, rand: Callable[[], float],
                    players: int = 4) -> list[int]:
    """A lean random playout on 24-bit hand masks: tricks won by each seat.

    The comparison for :meth:`HandState.playout`: the least Python that plays random legal
    cards to the end of the hand (every seat in play, a full trick each round)."""
    suits = EFFECTIVE_SUIT[code]
    power = TRICK_POWER[code]
    masks = _SUIT_MASKS[code]
    held = list(hands)
    won = [0] * players
    for _ in range(held[leader].bit_count()):
        seat = leader
        hand = held[seat]
        # The k-th set bit of a mask: drop the k lowest, then take the lowest.
        k = int(rand() * hand.bit_count())
        for _ in range(k):
            hand &= hand - 1
        bit = hand & -hand
        card = bit.bit_length() - 1
        held[seat] ^= bit
        row = power[suits[card]]
        follow = masks[suits[card]]
        best, winner = row[card], seat
        for _ in range(players - 1):
            seat = seat + 1 if seat + 1 < players else 0
            hand = held[seat]
            options = hand & follow or hand
            k = int(rand() * options.bit_count())
            for _ in range(k):
                options &= options - 1
            bit = options & -options
            held[seat] = hand ^ bit
            p = row[bit.bit_length() - 1]
            if p > best:
                best, winner = p, seat
        won[winner] += 1
        leader = winner
    return won


def bench_playouts(seconds: float) -> str:
    start = _play_position()
    rng_a, rng_b, rng_c = random.Random(4), random.Random(5), random.Random(6)
    masks = [sum(1 << c.index for c in start.hand(s)) for s in start.seats]
    leader = int(start.to_act or 0)
    code = start.snapshot().code

    def ours() -> int:
        for _ in range(200):
            start.copy().playout(rng_a)
        return 200

    def tricks_only() -> int:
        for _ in range(200):
            start.random_tricks(rng_c)
        return 200

    rand = rng_b.random

    def lean() -> int:
        for _ in range(200):
            bitmask_playout(masks, leader, code, rand)
        return 200

    rates = paired({"pepper": ours, "tricks": tricks_only, "bitmask": lean}, 3 * seconds)
    return (f"play-phase playouts/s, HandState.random_tricks (random legal cards to the sixth "
            f"trick, tricks won by each seat; the search fast path): {_spread(rates['tricks'])}\n"
            f"  copy + HandState.playout (the same, the state finished: history, tricks, "
            f"score): {_spread(rates['pepper'])}\n"
            f"  lean bitmask playout/s (same position, tricks won by each seat): "
            f"{_spread(rates['bitmask'])}\n"
            f"  random_tricks / bitmask, paired by round: "
            f"{_spread(_ratios(rates['tricks'], rates['bitmask']), '.2f')}x\n"
            f"  copy + playout / bitmask, paired by round: "
            f"{_spread(_ratios(rates['pepper'], rates['bitmask']), '.2f')}x")


def benches() -> list[Callable[[float], str]]:
    return [bench_full_hands, bench_playouts]
