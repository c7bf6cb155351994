"""``python -m pepper_tutor.bench``: run every benchmark and print one line each."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from . import analysis, engine, night, startup, teaching


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.bench",
                                     description="How fast the paths people wait on are.")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per benchmark")
    args = parser.parse_args(argv)
    benches: list[Callable[[float], str]] = [
        *startup.benches(), *engine.benches(), *analysis.benches(), *teaching.benches(),
        *night.benches()]
    for bench in benches:
        print(bench(args.seconds), flush=True)


if __name__ == "__main__":
    main()
