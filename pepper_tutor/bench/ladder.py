"""The strength ladder: every level against every other, measured against players the analysis
did not make.

``python -m pepper_tutor.bench ladder`` (``make ladder``) plays a duplicate match
(:func:`~pepper_tutor.bench.tournament.duplicate`: each deal twice, the seats swapped, so the
cards cancel out) for every pairing of the :data:`~pepper_tutor.bench.tournament.LADDER`
levels: the beginner, the reference player of table tips (which shares no code with the
analysis), the club player, the expert and the all-seeing ceiling. Each figure is the
stronger level's points a hand less the weaker's, with its 95% interval; the rows against the
ceiling are each level's distance to perfect information. The goals the computer players are
held to are checked and said: the club player ahead of the reference by at least
:data:`CLUB_OVER_REFERENCE` a hand, the expert ahead of the club player by at least
:data:`EXPERT_OVER_CLUB`, each interval above zero.

Every deal is one task seeded from the seed and its index, so the figures are the same on any
executor (``local``, ``local:N``, ``dask-local:N``, ``dask://HOST:PORT``); only the times
differ. ``--docs PATH`` writes the table as the docs page (docs/ladder.md). A full ladder
takes an hour or more: ``--records FILE`` keeps each pairing's result as it ends (JSON lines),
and a run given the same file plays only the pairings it does not hold yet for the same deals,
seed, rules and players (:func:`players_fingerprint`: a change to the players' code plays
them again), so a run stopped part way loses only the pairing it was playing.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import itertools
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from ..analysis.executors import DEFAULT_EXECUTOR, ExecutorError, open_executor, parse_executor
from .tournament import LADDER, Pairing, _Stats, duplicate, parse_pairs

__all__ = ["CLUB_OVER_REFERENCE", "EXPERT_OVER_CLUB", "SLOW", "Goal", "RecordKey", "Rung",
           "goals", "ladder", "main", "page", "pairings", "players_fingerprint", "read_records"]

DEFAULT_DEALS = 10_000
CLUB_OVER_REFERENCE = 0.5  # points a hand the club player must be ahead of table tips
EXPERT_OVER_CLUB = 1.0  # points a hand the expert must be ahead of the club player
# The levels that solve many deals a decision: a pairing with one takes 10-100 times as long
# (--slow-deals plays fewer deals there).
SLOW = ("expert", "ceiling")


@dataclass(frozen=True)
class Rung:
    """One pairing's match and the seconds it took."""

    pairing: Pairing
    seconds: float

    def to_json(self, seed: int, rules: str) -> str:
        """One line of a records file: the pairing, its seconds, the seed and rules, and
        the players' fingerprint."""
        return json.dumps({**asdict(self.pairing), "seconds": round(self.seconds, 1),
                           "seed": seed, "rules": rules, "players": players_fingerprint()})


RecordKey = tuple[str, str, int, int, str, str]
"""A recorded pairing's first and second level, deals, seed, rules and players' fingerprint."""


@functools.cache
def players_fingerprint() -> str:
    """A digest of the code the players are made of (the engine, the analysis and the
    tournament's seating): results recorded under another are of other players."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    files = sorted([*root.glob("engine/**/*.py"), *root.glob("analysis/**/*.py"),
                    *root.glob("analysis/**/*.c"), root / "bench" / "tournament.py"])
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def read_records(path: str) -> dict[RecordKey, Rung]:
    """The pairings a records file holds (none when it does not exist yet); a later line for
    the same pairing replaces an earlier one."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line for line in f if line.strip()]
    except FileNotFoundError:
        return {}
    found: dict[RecordKey, Rung] = {}
    for number, line in enumerate(lines, 1):
        try:
            raw = json.loads(line)
            pairing = Pairing(str(raw["first"]), str(raw["second"]), int(raw["deals"]),
                              float(raw["mean"]), float(raw["low"]), float(raw["high"]))
            key = (pairing.first, pairing.second, pairing.deals, int(raw["seed"]),
                   str(raw["rules"]), str(raw.get("players", "")))
            found[key] = Rung(pairing, float(raw["seconds"]))
        except (ValueError, KeyError, TypeError) as err:
            raise ValueError(f"{path}, line {number}: expected a pairing's record "
                             f"(first, second, deals, mean, low, high, seconds, seed, "
                             f"rules, players): {err}") from None
    return found


@dataclass(frozen=True)
class Goal:
    stronger: str
    weaker: str
    margin: float
    rung: Rung | None  # None: the pairing was not played

    @property
    def met(self) -> bool:
        p = None if self.rung is None else self.rung.pairing
        return p is not None and p.mean >= self.margin and p.low > 0

    def __str__(self) -> str:
        head = f"{self.stronger} ahead of {self.weaker} by at least {self.margin:.1f} a hand"
        if self.rung is None:
            return f"{head}: not played"
        p = self.rung.pairing
        verdict = "met" if self.met else "NOT met"
        figure = f"{p.mean:+.2f} [{p.low:+.2f}, {p.high:+.2f}]"
        return f"{head}, interval above zero: {verdict} ({figure})"


def pairings(levels: Sequence[str] = LADDER) -> list[tuple[str, str]]:
    """Every pairing of ``levels``, the stronger (later in :data:`LADDER`) first."""
    ordered = sorted(levels, key=LADDER.index)
    return [(b, a) for a, b in itertools.combinations(ordered, 2)]


def ladder(pairs: Sequence[tuple[str, str]], deals: int, seed: int, rules: str = "standard",
           executor: str | None = DEFAULT_EXECUTOR,
           on_rung: Callable[[Rung], None] | None = None,
           slow_deals: int | None = None,
           done: Mapping[RecordKey, Rung] | None = None,
           ceiling_deals: int | None = None) -> list[Rung]:
    """Each pairing's duplicate match over ``deals`` deals (``slow_deals`` for a pairing
    with a :data:`SLOW` level, when given; ``ceiling_deals`` for one with the ceiling, when
    given), on ``executor`` (``None``: in this process);
    ``on_rung(rung)`` as each ends. A pairing ``done`` holds for the same deals, seed,
    rules and players (:func:`players_fingerprint`) is taken from it, not played."""
    stats = {level: _Stats() for level in LADDER}
    rungs = []
    with contextlib.ExitStack() as stack:
        executors = None
        for first, second in pairs:
            count = deals if slow_deals is None or not {first, second} & set(SLOW) \
                else slow_deals
            if ceiling_deals is not None and "ceiling" in (first, second):
                count = ceiling_deals
            kept = (done or {}).get((first, second, count, seed, rules, players_fingerprint()))
            if kept is not None:
                rungs.append(kept)
                if on_rung is not None:
                    on_rung(kept)
                continue
            if executors is None and executor is not None:
                executors = stack.enter_context(open_executor(executor))
            start = time.perf_counter()
            pairing = duplicate(first, second, count, seed, stats, rules, executors=executors)
            rungs.append(Rung(pairing, time.perf_counter() - start))
            if on_rung is not None:
                on_rung(rungs[-1])
    return rungs


def goals(rungs: Sequence[Rung]) -> list[Goal]:
    """The goals the computer players are held to, each with its pairing where played."""
    found = {(r.pairing.first, r.pairing.second): r for r in rungs}
    return [Goal("club", "reference", CLUB_OVER_REFERENCE, found.get(("club", "reference"))),
            Goal("expert", "club", EXPERT_OVER_CLUB, found.get(("expert", "club")))]


def _row(rung: Rung) -> str:
    p = rung.pairing
    return (f"| {p.first} | {p.second} | {p.deals:,} | {p.mean:+.2f} | "
            f"[{p.low:+.2f}, {p.high:+.2f}] | {rung.seconds:,.0f} |")


def page(rungs: Sequence[Rung], command: str, executor: str, seconds: float, rules: str,
         recorded: int = 0) -> str:
    """The docs page: what the levels are, the table, the goals, how it was measured;
    ``recorded`` of the rungs were played by earlier runs (taken from ``--records``)."""
    if recorded:  # this run's load says nothing of the runs that played them
        where = (f"On `{executor}`, {seconds / 60:,.1f} minutes of play in all, on a machine "
                 f"of {os.cpu_count()} cores. Each pairing's seconds are those of the run "
                 f"that played it: "
                 f"{'all' if recorded == len(rungs) else f'{recorded} of the'} {len(rungs)} "
                 "were played by earlier runs "
                 "and taken from their records, so how busy the machine was then is not "
                 "known here.")
    else:
        where = (f"On `{executor}`, {seconds / 60:,.1f} minutes in all, on a machine of "
                 f"{os.cpu_count()} cores (its load average at the end: "
                 f"{os.getloadavg()[0]:.1f}).")
    # The ceiling's rows last: together they are each level's distance to it.
    ordered = sorted(rungs, key=lambda r: r.pairing.first == "ceiling")
    lines = [
        "# The strength ladder",
        "",
        "How strong the computer players are, measured against two players the analysis did "
        "not make. Written by `" + command + "`; do not edit by hand.",
        "",
        "The levels, weakest first:",
        "",
        "- **beginner**: rules of thumb with a new player's slips (`analysis/players.py`).",
        "- **reference**: the table tips a player is taught, and nothing else: count the "
        "bowers, the ace of trumps and the trumps' length to bid, always take the exchange, "
        "play when a trick is in sight (`analysis/table_tips.py`). It shares no code with the "
        "analysis, so beating it is not the analysis agreeing with itself.",
        "- **club**: the default computer player: bids the call worth most by the shares of "
        "tricks hands of its count take double-dummy, measured over 40,000 dealt hands "
        "(`analysis/hand_odds.py`, `python -m pepper_tutor.bench hand_odds`); the defense "
        "and the cards by sampled double-dummy play; the way of playing too, with partner "
        "only when that is clearly better than the exchange; the exchange by the rules (send "
        "the highest trump, discard the lowest card of the shortest plain suit).",
        "- **expert**: every call from the sampled double-dummy advice over deals that follow "
        "the auction, each taken at the low side of its estimate; the cards and the defense "
        "the same way over more deals than the club player's; the way of playing and the "
        "exchange as the club player.",
        "- **ceiling**: sees every hand and makes every choice double-dummy on the real cards "
        "(`analysis/ceiling.py`). No person can play like this; a level's distance to it is "
        "what it leaves on the table.",
        "",
        f"Duplicate matches under the {rules} rules: each deal is played twice with the seats "
        "swapped, so the cards cancel out. A figure is the first level's side's points a hand "
        "less the second's, with its 95% interval.",
        "",
        "| level | against | deals | points a hand | 95% interval | seconds |",
        "|---|---|---:|---:|---|---:|",
        *(_row(r) for r in ordered),
        "",
        "Where a margin comes from, contract by contract (which level bid, what, alone or "
        "with partner, and how it ended), on the same deals: `python -m pepper_tutor.bench "
        "margins --pairs ceiling:expert`. The ceiling's rows split that way are in "
        "[How strong](play.md#the-distance-to-the-ceiling).",
        "",
        "## The goals",
        "",
        *(f"- {g}" for g in goals(rungs)),
        "",
        "## How it was measured",
        "",
        f"{where} The figures do not depend on the executor or its worker "
        "count: each deal is seeded from the seed and its index and the results are merged in "
        "deal order. Given `--records FILE` (`make ladder` gives it), a run keeps each "
        "pairing's result as it ends, and a run stopped part way resumes from it: a pairing "
        "is played again only when the players' code has changed since it was recorded.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pepper_tutor.bench ladder",
        description="Duplicate matches for every pairing of the ladder's levels.")
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="deals per pairing")
    parser.add_argument("--slow-deals", type=int, default=None,
                        help="deals for a pairing with the expert or the ceiling (default: "
                             "--deals)")
    parser.add_argument("--ceiling-deals", type=int, default=None,
                        help="deals for a pairing with the ceiling (default: --slow-deals)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--levels", default=",".join(LADDER),
                        help="the levels to pair, separated by commas")
    parser.add_argument("--pairs", default=None,
                        help="only these pairings, stronger:weaker separated by commas")
    parser.add_argument("--executor", default=DEFAULT_EXECUTOR,
                        help="local (default), local:N, dask-local:N or dask://HOST:PORT")
    parser.add_argument("--docs", default=None, metavar="PATH",
                        help="also write the table as this docs page (docs/ladder.md)")
    parser.add_argument("--records", default=None, metavar="FILE",
                        help="keep each pairing's result in FILE as it ends, and take the "
                             "pairings FILE already holds from it (to resume a stopped run)")
    args = parser.parse_args(argv)
    if args.deals < 2 or any(n is not None and n < 2
                             for n in (args.slow_deals, args.ceiling_deals)):
        parser.error("--deals, --slow-deals, --ceiling-deals: at least 2 deals make an "
                     "interval")
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    if not levels or not set(levels) <= set(LADDER):
        parser.error(f"--levels: {args.levels} is not among {', '.join(LADDER)}")
    pairs = pairings(levels)
    if args.pairs:
        pairs = parse_pairs(parser, args.pairs)
    try:
        parse_executor(args.executor)
    except ExecutorError as err:
        parser.error(str(err))
    slow = "" if args.slow_deals is None else (
        f" ({args.slow_deals:,} with the {' or the '.join(SLOW)})")
    if args.ceiling_deals is not None:
        slow += f" ({args.ceiling_deals:,} with the ceiling)"
    print(f"The ladder, {args.rules}, {args.deals:,} deals a pairing{slow} (each twice, seats "
          f"swapped), on {args.executor}; points a hand for the first level, 95% interval:",
          flush=True)

    done: dict[RecordKey, Rung] = {}
    if args.records:
        try:
            done = read_records(args.records)
        except (OSError, ValueError) as err:
            parser.error(f"--records: {err}")

    def said(rung: Rung) -> None:
        p = rung.pairing
        kept = any(r is rung for r in done.values())
        print(f"  {p.first:>9} vs {p.second:<9} {p.mean:+6.2f} [{p.low:+.2f}, {p.high:+.2f}]"
              f"  ({rung.seconds:,.0f} s{', from ' + str(args.records) if kept else ''})",
              flush=True)
        if args.records and not kept:
            with open(args.records, "a", encoding="utf-8") as f:
                f.write(rung.to_json(args.seed, args.rules) + "\n")

    rungs = ladder(pairs, args.deals, args.seed, args.rules, args.executor, said,
                   args.slow_deals, done, args.ceiling_deals)
    seconds = sum(r.seconds for r in rungs)
    print()
    for goal in goals(rungs):
        print(f"  {goal}")
    if args.docs:
        from ..files.writing import write_text

        shown = ["python -m pepper_tutor.bench ladder", f"--deals {args.deals}",
                 f"--seed {args.seed}", f"--executor {args.executor}"]
        if args.ceiling_deals is not None:
            shown.insert(2, f"--ceiling-deals {args.ceiling_deals}")
        if args.slow_deals is not None:
            shown.insert(2, f"--slow-deals {args.slow_deals}")
        if args.rules != "standard":
            shown.append(f"--rules {args.rules}")
        if args.pairs:
            shown.append(f"--pairs {args.pairs}")
        elif levels != list(LADDER):
            shown.append(f"--levels {args.levels}")
        recorded = sum(any(r is kept for kept in done.values()) for r in rungs)
        write_text(args.docs, page(rungs, " ".join(shown), args.executor, seconds, args.rules,
                                   recorded))
        print(f"\nwritten: {args.docs}")
