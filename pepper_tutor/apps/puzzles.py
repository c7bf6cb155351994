"""``pepper-tutor puzzles``: solve puzzles in the terminal, and ``puzzles mine`` to make them.

``pepper-tutor puzzles [--theme T] [--streak] [--review]`` serves the shipped puzzles (see
:mod:`pepper_tutor.teaching.puzzles.session`); ``--dashboard`` prints the learner's
performance per theme, weakest first.

``pepper-tutor puzzles mine --hands N --seed S [--executor local|local:N|dask-local:N|
dask://HOST:PORT] [--from-history]`` plays hands with the computer players (or reads the
practice table's hands) and validates their decisions
(:mod:`pepper_tutor.teaching.puzzles.miner`), with a progress bar of hands played,
candidates, puzzles kept and the time left; the puzzles found are added to ``--out``, which
it needs (unless ``--dry-run``): it writes nowhere it is not told, never into the installed
package (``make puzzles`` names the package's ``data/puzzles.json``).
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import Any

__all__ = ["register"]


def _kinds(values: list[str]) -> tuple[str, ...]:
    from ..teaching.puzzles.validation import KINDS

    bad = [v for v in values if v not in KINDS]
    if bad:
        raise ValueError(f"--kinds: {', '.join(bad)} is not a kind of decision (expected "
                         f"{', '.join(KINDS)})")
    return tuple(values)


def _levels(values: list[str]) -> tuple[str, ...]:
    from ..analysis.players import LEVELS

    bad = [v for v in values if v not in LEVELS]
    if bad:
        raise ValueError(f"--levels: {', '.join(bad)} is not a level (expected "
                         f"{', '.join(LEVELS)})")
    return tuple(values)


def _history_records(last: int) -> list[str]:
    from ..teaching.practice.history import TableHistory

    history = TableHistory()
    records = [h.record for h in history.hands(last=last) if h.record]
    if not records:
        raise ValueError("--from-history: the practice table's history holds no hands yet "
                         "(play some with pepper-tutor play)")
    return records


def _cmd_mine(args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from ..analysis.executors import parse_executor
    from ..teaching.puzzles.bank import add_run, empty_bank, read_bank, write_bank
    from ..teaching.puzzles.miner import HandResult, HandTask, mine, tasks_for

    if args.from_history and args.start:
        raise ValueError("puzzles mine --from-history: --start does nothing here (the last "
                         "--hands hands kept are mined); leave it out")
    if args.out is None and not args.dry_run:
        # Only where it is told: never into the installed package's own file by default
        # (make puzzles names that file with --out).
        raise ValueError("puzzles mine: give --out FILE, the puzzles file to add to (or "
                         "--dry-run to write nothing)")
    spec = parse_executor(args.executor)
    if args.out is not None and not args.dry_run:  # a refused path is said before the work
        from ..files.writing import check_target

        check_target(args.out, through_links=False)
    kinds = _kinds(args.kinds) if args.kinds else None
    levels = _levels(args.levels) if args.levels else None
    options: dict[str, Any] = {"rules": args.rules}
    if kinds:
        options["kinds"] = kinds
    if levels:
        options["levels"] = levels
    if args.samples:
        options["samples"] = args.samples
    if args.from_history:
        records = _history_records(args.hands)
        tasks = [HandTask(args.seed, i, record=r, **options) for i, r in enumerate(records)]
    else:
        tasks = tasks_for(args.hands, args.seed, args.start, **options)
    out = Path(args.out) if args.out is not None else None
    data = read_bank(out) if out is not None and out.exists() and not args.fresh \
        else empty_bank()

    counts = {"candidates": 0, "kept": 0}
    with Progress(TextColumn("[bold]mining"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("hands · {task.fields[candidates]} candidates · "
                             "{task.fields[kept]} kept"),
                  TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                  disable=args.quiet, transient=False) as bar:
        job = bar.add_task("mine", total=len(tasks), candidates=0, kept=0)

        def progress(result: HandResult) -> None:
            counts["candidates"] += result.candidates
            counts["kept"] += len(result.puzzles)
            bar.update(job, advance=1, candidates=counts["candidates"], kept=counts["kept"])

        try:
            mined = mine(tasks, spec, progress, window=4 * spec.size)
        except OSError as err:
            raise ValueError(f"--executor {spec}: {err}") from None
    command = _command(args)
    options["executor"] = str(spec)
    options["from_history"] = bool(args.from_history)
    data = add_run(data, mined, command, {"seed": args.seed, **{k: list(v) if isinstance(
        v, tuple) else v for k, v in options.items()}})
    if args.dry_run or out is None:
        print(f"{len(mined.puzzles)} puzzles (not written: --dry-run)")
        return 0
    write_bank(out, data, through_links=False)
    added = data["made"][-1]["added"]
    print(f"{mined.hands} hands, {mined.decisions} decisions looked at, {mined.candidates} "
          f"candidates, {len(mined.puzzles)} puzzles kept ({added} new, "
          f"{len(mined.refuted)} refuted: played out, the answer scored less than the "
          f"tempting one); {out} holds {len(data['puzzles'])}, {len(data['held'])} more held "
          f"back so no guess gives a kind's answers ({mined.cpu_seconds:.0f} CPU s, "
          f"{mined.wall_seconds:.0f} s)")
    return 0


def _command(args: argparse.Namespace) -> str:
    """The command line of this run, as the provenance records it (without --out)."""
    words = ["pepper-tutor", "puzzles", "mine"]
    if args.fresh:
        words.append("--fresh")
    words += ["--hands", str(args.hands), "--seed", args.seed]
    if args.start:
        words += ["--start", str(args.start)]
    if args.from_history:
        words.append("--from-history")
    for flag, values in (("--levels", args.levels), ("--kinds", args.kinds)):
        if values:
            words += [flag, *values]
    if args.rules != "standard":
        words += ["--rules", args.rules]
    if args.samples:
        words += ["--samples", str(args.samples)]
    words += ["--executor", args.executor]
    return " ".join(shlex.quote(w) for w in words)


def register(sub: Any) -> None:
    from .commands import (
        MAX_QUESTIONS,
        MAX_SAMPLES,
        MAX_START,
        counted,
        hands_count,
        questions_count,
        samples_count,
    )

    p = sub.add_parser("puzzles", help="puzzles mined from played hands (puzzles mine: make "
                                       "more)")
    p.add_argument("--theme", help="only puzzles of this theme, by its title (\"Draw the "
                   "trumps\") or its short name (--themes lists them)")
    p.add_argument("--themes", action="store_true", help="list the themes and their counts")
    p.add_argument("--streak", action="store_true",
                   help="streak mode: puzzles get harder until the first miss")
    p.add_argument("--review", action="store_true",
                   help="replay the themes you missed that are due (a fresh puzzle each)")
    p.add_argument("--dashboard", action="store_true",
                   help="your performance per theme, weakest first")
    p.add_argument("--count", type=questions_count, default=None,
                   help=f"stop after this many puzzles (1 to {MAX_QUESTIONS:,}; default: "
                        "until you quit)")
    p.add_argument("--seed", type=int, default=None, help="the same seed, the same puzzles")
    p.add_argument("--learner", default=None, help="whose ratings to use (default: you)")
    p.set_defaults(handler=_cmd_serve)
    actions = p.add_subparsers(dest="puzzles_action", metavar="ACTION")
    m = actions.add_parser("mine", help="play hands and keep their clear decisions as "
                                        "puzzles")
    m.add_argument("--hands", type=hands_count, default=100,
                   help="hands to play (with --from-history: the last N hands kept)")
    m.add_argument("--seed", default="2026", help="the seed every hand and run derives from")
    m.add_argument("--start", type=counted(0, MAX_START), default=0,
                   help=f"the first hand's index (0 to {MAX_START:,}; default 0)")
    m.add_argument("--executor", default="local",
                   help="local (default), local:N, dask-local:N or dask://HOST:PORT")
    m.add_argument("--from-history", action="store_true",
                   help="mine the hands kept by the practice table instead of new ones")
    m.add_argument("--kinds", nargs="+", metavar="KIND",
                   help="only these decisions: bid trump mode discard send defense play")
    m.add_argument("--levels", nargs="+", metavar="LEVEL",
                   help="the players' levels, each seat drawn from them "
                        "(default: beginner club)")
    m.add_argument("--rules", default="standard", choices=("standard", "simple"),
                   help="the rule set (default standard)")
    m.add_argument("--samples", type=samples_count, default=None,
                   help=f"deals of each validating run (1 to {MAX_SAMPLES:,}; default 200)")
    m.add_argument("--out", help="the puzzles file to add to (needed unless --dry-run; "
                                 "make puzzles names the package's own)")
    m.add_argument("--fresh", action="store_true", help="start the file anew")
    m.add_argument("--dry-run", action="store_true", help="mine, print the count, write "
                                                           "nothing")
    m.add_argument("--quiet", action="store_true", help="no progress bar")
    m.set_defaults(handler=_cmd_mine)


def _cmd_serve(args: argparse.Namespace) -> int:
    from .puzzles_terminal import run_puzzles

    return run_puzzles(args)
