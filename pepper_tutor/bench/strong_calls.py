"""What the expert holds when it makes a strong call, against what the advice's deals give it.

``python -m pepper_tutor.bench.strong_calls --hands 200 --seed 7 --out FILE`` deals hands
under the standard rules and lets the expert player (:mod:`pepper_tutor.analysis.players`)
open the bidding from the first seat with every hand the calling model rates at 4.3 tricks
or more (:data:`FLOOR`: a pepper and most 5s come from such hands, and the expert's calls
cost seconds each; the figures for a 5 are those of its 5s from such hands); when it opens
a 5, a 6 or a pepper the others pass and it names its trump and way of playing. It prints,
per call, the bidder's trumps in the named suit and how often it holds the right bower,
then the same counted over the deals the advice imagines from the next seat's view at the
defense (:func:`imagined`), and writes the contracts and the figures to ``FILE`` (JSON),
which ``tests/test_call_inference.py`` reads.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from statistics import mean
from typing import Any

from ..analysis.advice.sampling import _calls_accept, _deals, _Draws
from ..analysis.calling import hand_value
from ..analysis.dealing import Dealer
from ..analysis.players import make_player
from ..analysis.view import view_of
from ..engine.calls import Bid, Mode, Trump
from ..engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, trump_code
from ..engine.rules import get_ruleset
from ..engine.seats import Seat
from ..engine.state import HandState, Phase

RULES = get_ruleset("standard")
FLOOR = 4.3


def holding(hand: Sequence[int], trump: int) -> tuple[int, bool]:
    """The trumps ``hand`` holds in ``trump`` (0-4) and whether the right bower is one."""
    if trump == 4:
        return 0, False
    code = trump_code(trump, RULES.left_bower)
    trumps = [c for c in hand if EFFECTIVE_SUIT[code][c] == trump]
    return len(trumps), any(TRICK_RANK[code][c] == 6 for c in trumps)


def contract_state(record: dict[str, Any]) -> HandState:
    """The recorded contract's hand, declared: the calls, the trump and the way."""
    state = HandState(RULES, Seat.W, [record["dealt"][str(s)] for s in range(4)])
    for _, call in record["calls"]:
        state.apply(Bid(call))
    state.apply(Trump(record["trump"]))
    if state.phase is Phase.DECLARE_MODE:
        state.apply(Mode(record["mode"]))
    return state


def imagined(record: dict[str, Any], samples: int, seed: int) -> list[tuple[int, bool]]:
    """The bidder's holding in each of ``samples`` deals the advice imagines, from the view
    of the seat after the bidder once the contract is declared (auction-aware)."""
    bidder = record["bidder"]
    view = view_of(contract_state(record), Seat((bidder + 1) % 4))
    viewer = int(view.seat)
    others = tuple(s for s in range(4) if s != viewer)
    own = {c.index for c in view.hand}
    accept = _calls_accept(view, viewer, None, others)
    deals = _deals(Dealer([c for c in range(24) if c not in own], [(6, 0)] * 3), samples,
                   random.Random(seed), accept, _Draws())
    return [holding(deal[others.index(bidder)], record["trump"]) for deal in deals]


def survey(hands: int, seed: int) -> list[dict[str, Any]]:
    """The expert's opening calls on ``hands`` hands of :data:`FLOOR` or more, declared."""
    player = make_player("expert", seed=seed)
    out: list[dict[str, Any]] = []
    deal = 0
    while len(out) < hands:
        deal += 1
        state = HandState.deal(RULES, rng=seed * 1_000_000 + deal)
        if hand_value(RULES, [c.index for c in state.dealt(Seat.N)])[0] < FLOOR:
            continue
        call = player.decide(view_of(state, Seat.N))
        assert isinstance(call, Bid)
        record: dict[str, Any] = {"bid": int(call), "bidder": 0, "trump": None, "mode": None,
                                  "dealt": {str(s): [c.index for c in state.dealt(Seat(s))]
                                            for s in range(4)}}
        if call >= Bid.FIVE:
            state.apply(call)
            while state.phase is Phase.AUCTION:
                state.apply(Bid.PASS)
            while state.phase in (Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
                assert state.to_act is not None
                state.apply(player.decide(view_of(state, state.to_act)))
            assert state.trump is not None
            record.update(trump=int(state.trump),
                          mode=state.mode.value if state.mode is not None else None,
                          calls=[[0, int(call)], [1, 0], [2, 0], [3, 0]])
        out.append(record)
    return out


def figures(records: list[dict[str, Any]], samples: int) -> dict[str, dict[str, float]]:
    """Per call: the expert's mean trumps and right-bower share, and the imagined ones."""
    out: dict[str, dict[str, float]] = {}
    for bid in sorted({r["bid"] for r in records if r["trump"] is not None}):
        mine = [r for r in records if r["bid"] == bid and r["trump"] is not None]
        held = [holding(r["dealt"]["0"], r["trump"]) for r in mine]
        seen = [h for k, r in enumerate(mine) for h in imagined(r, samples, k)]
        out[Bid(bid).display] = {
            "contracts": len(mine), "trumps": mean(t for t, _ in held),
            "right": mean(float(r) for _, r in held),
            "imagined_trumps": mean(t for t, _ in seen),
            "imagined_right": mean(float(r) for _, r in seen)}
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--records", help="a JSON list of contracts surveyed before")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    if args.records:
        with open(args.records, encoding="utf-8") as f:
            records = json.load(f)
    else:
        records = survey(args.hands, args.seed)
    table = figures(records, args.samples)
    for call, row in table.items():
        print(f"{call:>14}: {row['contracts']:4.0f} contracts, expert {row['trumps']:.2f} "
              f"trumps, right bower {row['right']:.2f}; imagined {row['imagined_trumps']:.2f}"
              f", {row['imagined_right']:.2f}")
    if args.out:
        from ..files.writing import write_text

        contracts = [r for r in records if r["trump"] is not None]
        write_text(args.out, json.dumps({"figures": table, "contracts": contracts},
                                        indent=None) + "\n")


if __name__ == "__main__":
    main()
