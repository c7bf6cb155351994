"""``python -m pepper_tutor.bench``: run every benchmark and print one line each."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from . import analysis, engine, guide, night, puzzles, startup, table, teaching, tournament_night


def main(argv: list[str] | None = None) -> None:
    import sys

    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["tournament"]:  # duplicate matches between the computer players
        from . import tournament

        tournament.main(args_in[1:])
        return
    if args_in[:1] == ["ladder"]:  # every level against every other, and the ceiling
        from . import ladder

        ladder.main(args_in[1:])
        return
    if args_in[:1] == ["signals"]:  # the Lions Club's bid signals, with and without
        from . import signals

        signals.main(args_in[1:])
        return
    if args_in[:1] == ["hand_odds"]:  # the calling model's count against double-dummy play
        from . import hand_odds

        hand_odds.main(args_in[1:])
        return
    if args_in[:1] == ["panels"]:  # words per coach panel, per screen and kind
        from . import panels

        panels.main(args_in[1:])
        return
    if args_in[:1] == ["intervals"]:  # two seeds' intervals for the same choices
        from . import intervals

        intervals.main(args_in[1:])
        return
    if args_in[:1] == ["playouts"]:  # the puzzles' answers against hands played out
        from . import playouts

        playouts.main(args_in[1:])
        return
    if args_in[:1] == ["margins"]:  # where a ladder margin comes from, by contract
        from . import margins

        margins.main(args_in[1:])
        return
    if args_in[:1] == ["calibration"]:  # make rates predicted against played out
        from . import calibration

        calibration.main(args_in[1:])
        return
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench",
                                     description="How fast the paths people wait on are.")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per benchmark")
    args = parser.parse_args(args_in)
    benches: list[Callable[[float], str]] = [
        *startup.benches(), *engine.benches(), *analysis.benches(), *teaching.benches(),
        *table.benches(), *guide.benches(), *night.benches(), *puzzles.benches(),
        *tournament_night.benches()]
    for bench in benches:
        print(bench(args.seconds), flush=True)


if __name__ == "__main__":
    main()
