"""What the Lions Club's bid signals are worth to the computer players (issue 34).

``python -m pepper_tutor.bench signals`` plays, under the ``lions-club`` rules:

- the ladder's pairings that do not take hours (club and reference against each other and the
  beginner) twice, with the signals (a 2 bid shows an ace, a 3 a red and a black jack, made
  and read by every computer player) and with the ``signals`` switch off, on the same deals;
- and club players who play the signals against club players who do not, at one table: the
  side without sees the table's rules with the switch off, so it neither makes nor reads them.
  The side with them reads the other side's 2 and 3 bids as signals too, as it would at a
  table where everyone had agreed them: a limit of this measure, which no analysis module is
  changed to lift.

Each figure is the first side's points a hand less the second's, with its 95% interval, over
duplicate deals (each played twice, the seats swapped).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any

from ..analysis.players import Player, make_player
from ..analysis.view import SeatView
from ..engine.rules import get_ruleset
from ..engine.state import Action
from .ladder import Rung, ladder
from .tournament import _Stats, duplicate

__all__ = ["WITH", "WITHOUT", "PAIRS", "NoSignals", "main"]

WITH = "lions-club"
WITHOUT: dict[str, Any] = {"preset": "lions-club", "signals": "none"}
PAIRS = (("club", "reference"), ("club", "beginner"), ("reference", "beginner"))
WITH_LEVEL, WITHOUT_LEVEL = "club with signals", "club without"


class NoSignals:
    """A player that sees the table's rules with the signals switch off."""

    def __init__(self, player: Player):
        self.player, self.level = player, player.level

    def decide(self, view: SeatView) -> Action:
        rules = get_ruleset(view.rules, signals="none")
        return self.player.decide(dataclasses.replace(view, rules=rules))


def _club(level: str, seed: int) -> Player:
    player = make_player("club", seed)
    return player if level == WITH_LEVEL else NoSignals(player)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pepper_tutor.bench signals",
        description="The Lions Club's bid signals: the ladder with and without them, and "
                    "club players with them against club players without.")
    parser.add_argument("--deals", type=int, default=400, help="deals per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--executor", default="local:2",
                        help="for the ladder's pairings (the mixed table plays in this "
                             "process)")
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals: at least 2 deals make an interval")

    def said(tag: str) -> Any:
        def show(rung: Rung) -> None:
            p = rung.pairing
            print(f"  {tag:<16} {p.first:>9} vs {p.second:<9} {p.mean:+6.2f} "
                  f"[{p.low:+.2f}, {p.high:+.2f}]  ({rung.seconds:,.0f} s)", flush=True)
        return show

    print(f"Lions Club rules, {args.deals:,} deals a pairing (each twice, seats swapped); "
          "points a hand for the first, 95% interval:", flush=True)
    for tag, rules in (("with signals", WITH), ("without signals", WITHOUT)):
        # The ladder names its rules by preset; a mapping of a preset and its switches is
        # what get_ruleset reads on each worker just the same.
        ladder(PAIRS, args.deals, args.seed, rules,  # type: ignore[arg-type]
               args.executor, said(tag))
    stats = {WITH_LEVEL: _Stats(), WITHOUT_LEVEL: _Stats()}
    start = time.perf_counter()
    p = duplicate(WITH_LEVEL, WITHOUT_LEVEL, args.deals, args.seed, stats, WITH, make=_club)
    print(f"  one table: {WITH_LEVEL} vs {WITHOUT_LEVEL} {p.mean:+6.2f} "
          f"[{p.low:+.2f}, {p.high:+.2f}]  ({time.perf_counter() - start:,.0f} s)")
