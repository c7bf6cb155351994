"""Judgement drill positions screened ahead of time, so the first drill does not wait.

Dealing a judgement drill live means analysing random positions until one separates its best
answer (:func:`~pepper_tutor.teaching.drills.positions.clear_best`): seconds, more on a busy
machine.
``pepper_tutor/data/screened-drills.json`` holds positions screened the same way, with the
analysis that screened them, per rule preset and drill kind. A :class:`ScreenedPool` deals
them first, in a random order per drill session and never the same one twice; when they run
out, or for rule sets not in the file, the drill deals live positions as before.

The file is made by a command whose arguments are recorded in it (the provenance)::

    python -m pepper_tutor.teaching.drills.screened --per-kind 30 --seed 2026 --jobs 2

``--executor`` (``local:N``, ``dask-local:N``, ``dask://HOST:PORT``) screens on a pool or a
Dask cluster instead of ``--jobs`` processes; the file comes out the same.

Each position is dealt by the live drill from its own seed (``{seed}:{preset}:{kind}:{i}``),
under the scoring and aiming at the answer class its index gives (:func:`aim`: each of the
preset's :func:`~.positions.scorings` and each of the kind's
:data:`~.positions.TARGETS` equally, crossed, so the scoring a header names does not tell
the answer), so any entry can be dealt again and checked; an entry's ``rules`` are the very
rules its question names and its analysis used (a preset name, or a preset with switches as
a hand record writes them); ``tests/test_screened.py`` re-screens a few and
fails when the analysis no longer agrees (regenerate the file after an analysis change).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ...analysis.advice import Advice, Estimate, OptionAdvice
from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import Card
from ...engine.rules import RuleSet, get_ruleset
from ...engine.seats import Seat
from ...files.runtime import can_start_processes
from ...files.writing import write_text
from ...rulebook.feedback import Feedback
from ..learner.review_cards import JUDGED, judgement_key, judgement_theme
from ..questions.choice_steps import BidStep, ChoiceStep, DeclareStep, DefendStep, ExchangeStep
from ..questions.steps import Step
from .positions import (
    DRILL_SAMPLES,
    JUDGEMENT_DRILLS,
    MARGIN,
    TARGETS,
    bid_step,
    declare_step,
    defend_step,
    exchange_step,
    scorings,
    settle,
)

__all__ = ["FORMAT", "PRESETS", "ScreenedPool", "load_screened", "entry_of", "step_of",
           "screen", "screened_count", "main", "entry_theme", "step_theme", "judged_misses"]

FORMAT = "pepper-screened/1"
PRESETS = ("standard", "simple")  # the rule sets the quiz offers
_FILE = ("data", "screened-drills.json")


# ---- the analysis as JSON: floats round-trip exactly, enums and cards as their text ---------


def _estimate(e: Estimate | None) -> list[float] | None:
    """[mean, low, high, samples], to 4 decimals: far below anything a drill shows or
    compares (the file stays small)."""
    return None if e is None else [round(e.mean, 4), round(e.low, 4), round(e.high, 4),
                                   e.samples]


def _read_estimate(v: Sequence[float] | None) -> Estimate | None:
    return None if v is None else Estimate(float(v[0]), float(v[1]), float(v[2]), int(v[3]))


_NAMED: dict[str, Any] = {"bid": Bid.parse, "trump": Trump.parse, "mode": Mode.parse,
                          "card": Card.parse, "defense": Defense.parse}


def _option(o: OptionAdvice) -> dict[str, Any]:
    out: dict[str, Any] = {"label": o.label, "tricks": _estimate(o.tricks),
                           "score": _estimate(o.score), "net": _estimate(o.net)}
    for name in _NAMED:
        value = getattr(o, name)
        if value is not None:
            out[name] = str(value)
    if o.makes is not None:
        out["makes"] = round(o.makes, 4)
    return out


def _read_option(d: Mapping[str, Any]) -> OptionAdvice:
    score = _read_estimate(d["score"])
    assert score is not None
    named: dict[str, Any] = {k: parse(d[k]) for k, parse in _NAMED.items() if k in d}
    return OptionAdvice(d["label"], _read_estimate(d["tricks"]), score,
                        _read_estimate(d["net"]), makes=d.get("makes"), **named)


def advice_json(a: Advice) -> dict[str, Any]:
    return {"decision": a.decision, "seat": str(a.seat), "side": a.side, "samples": a.samples,
            "options": [_option(o) for o in a.options], "notes": list(a.notes),
            "candidates": [_option(o) for o in a.candidates]}


def read_advice(d: Mapping[str, Any]) -> Advice:
    return Advice(d["decision"], Seat.parse(d["seat"]), d["side"], int(d["samples"]),
                  tuple(_read_option(o) for o in d["options"]), tuple(d["notes"]),
                  tuple(_read_option(o) for o in d["candidates"]))


# ---- one screened position: the drill's question, its answer and its analysis ---------------


def _hand(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def entry_of(step: ChoiceStep[Any]) -> dict[str, Any]:
    """A screened drill step as JSON: what rebuilds its question, the answers the analysis
    found clearly best, and that analysis."""
    if isinstance(step, BidStep):
        params = {"dealer": str(step.dealer), "auction": [str(b) for b in step.auction]}
    elif isinstance(step, DeclareStep):
        params = {"bid": str(step.bid), "choose": step.choose, "trump": str(step.trump)}
    elif isinstance(step, ExchangeStep):
        params = {"bid": str(step.bid), "role": step.role, "trump": str(step.trump),
                  "bidder": str(step.bidder), "dealer": str(step.dealer)}
    elif isinstance(step, DefendStep):
        params = {"bid": str(step.bid), "trump": str(step.trump), "mode": str(step.mode),
                  "bidder": str(step.bidder), "dealer": str(step.dealer)}
    else:
        raise TypeError(f"not a judgement drill step: {step.kind}")
    deal = {"deal": [_hand(h) for h in step.deal]} if step.deal else {}
    return {"kind": step.kind, "rules": step.rules.to_mapping(), "hand": _hand(step.hand),
            **params, **deal,
            "accept": [str(a) for a in step.accept],
            "analysis": advice_json(step.analysis())}


def _question(entry: Mapping[str, Any], n: int) -> ChoiceStep[Any]:
    step = _asked(entry, n)
    step.deal = tuple(tuple(Card.parse(c) for c in h.split()) for h in entry.get("deal", ()))
    return step


def _asked(entry: Mapping[str, Any], n: int) -> ChoiceStep[Any]:
    kind = entry["kind"]
    rules = get_ruleset(entry["rules"])
    hand = [Card.parse(c) for c in entry["hand"].split()]
    if kind == "bid":
        return bid_step(n, rules, hand, Seat.parse(entry["dealer"]),
                        [Bid.parse(b) for b in entry["auction"]])
    bid = Bid.parse(entry["bid"])
    if kind == "declare":
        return declare_step(n, rules, hand, bid, entry["choose"], Trump.parse(entry["trump"]))
    # Entries from before seats varied have North bid and West deal.
    bidder, dealer = (Seat.parse(entry.get(k, d)) for k, d in (("bidder", "N"), ("dealer", "W")))
    if kind == "exchange":
        return exchange_step(n, rules, hand, bid, entry["role"], Trump.parse(entry["trump"]),
                             bidder, dealer)
    if kind == "defend":
        return defend_step(n, rules, hand, bid, Trump.parse(entry["trump"]),
                           Mode.parse(entry["mode"]), bidder, dealer)
    raise ValueError(f"no judgement drill {kind!r}")


def step_of(entry: Mapping[str, Any], n: int = 1, analyse: bool = False) -> ChoiceStep[Any]:
    """The drill step of a screened entry, settled from its stored analysis (instant), or
    with ``analyse`` from a fresh one (what the test of the file compares with)."""
    step = _question(entry, n)
    if not analyse:
        step.use_analysis(read_advice(entry["analysis"]))
    if not settle(step):
        raise ValueError(f"the {step.kind} position {entry['hand']} is not clear by its "
                         "analysis")
    return step


def entry_theme(entry: Mapping[str, Any]) -> str:
    """The judgement theme of a screened entry (:func:`~..learner.review_cards.judgement_theme`)."""
    return judgement_theme(entry["kind"], entry["accept"], entry.get("choose"), entry.get("role"))


def step_theme(step: ChoiceStep[Any]) -> str:
    """The judgement theme of a drill step, from its accepted answers."""
    return judgement_theme(step.kind, [str(a) for a in step.accept],
                           getattr(step, "choose", None), getattr(step, "role", None))


def judged_misses(step: Step[Any], feedback: Feedback | None,
                  rules: Sequence[str]) -> tuple[str, ...]:
    """The review cards a wrong answer makes. A judgement drill's answer that breaks no rule
    (the analysis's verdict, or the answer revealed) is carded by the judgement's kind and
    theme, which a review brings back as a fresh position (never under the analysis's own
    rule, which no question reviews); an answer that breaks a rule, by that rule."""
    if not isinstance(step, ChoiceStep) or step.kind not in JUDGEMENT_DRILLS:
        return tuple(rules)
    broken = tuple(r for r in rules if r != JUDGED)
    if feedback is not None and JUDGED not in feedback.rule_ids and broken:
        return broken
    return (judgement_key(step.kind, step_theme(step)),)


def answer_key(entry: Mapping[str, Any]) -> str:
    """The entry's answers as one text: what a draw balances (defend: play or surrender)."""
    return " ".join(entry["accept"])


# ---- the file and the pool a drill session deals from ---------------------------------------


def load_screened() -> dict[str, Any]:
    """The packaged file (``{"format", "made", "positions": {preset: {kind: [entries]}}}``);
    an empty one if it is missing (a source checkout before the first build)."""
    path = resources.files("pepper_tutor").joinpath(*_FILE)
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"format": FORMAT, "positions": {}}
    if data.get("format") != FORMAT:
        raise ValueError(f"{'/'.join(_FILE)}: expected format {FORMAT}, found "
                         f"{data.get('format')!r}")
    return data


_LOADED: dict[str, Any] = {}
_LOCK = threading.Lock()


def _preset(rules: RuleSet) -> str | None:
    """The preset name when ``rules`` is that preset as it is (no house rules): the file
    holds only those."""
    return next((p for p in PRESETS if get_ruleset(p) == rules), None)


def screened_count(kind: str, rules: RuleSet) -> int:
    """How many screened positions the file holds for this drill and rule set."""
    preset = _preset(rules)
    return 0 if preset is None else len(_positions(preset, kind))


def _positions(preset: str, kind: str) -> list[dict[str, Any]]:
    with _LOCK:
        if not _LOADED:
            _LOADED.update(load_screened())
    found: list[dict[str, Any]] = _LOADED.get("positions", {}).get(preset, {}).get(kind, [])
    return found


@dataclass
class ScreenedPool:
    """The screened positions of one kind and rule set, in a random order for one session;
    each is dealt once. Defend positions alternate at random between the answers (play or
    surrender), so both come up about equally often."""

    kind: str
    rng: random.Random
    groups: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    @classmethod
    def for_drill(cls, kind: str, rules: RuleSet, rng: random.Random,
                  theme: str | None = None) -> ScreenedPool | None:
        """The pool for this drill, or ``None`` (not a judgement drill, or a rule set the file
        does not hold: only the presets as they are, without house rules). ``theme``: only
        the positions of that judgement theme (:func:`entry_theme`), for a review."""
        preset = _preset(rules)
        if kind not in JUDGEMENT_DRILLS or preset is None:
            return None
        entries = [e for e in _positions(preset, kind)
                   if theme is None or entry_theme(e) == theme]
        if not entries:
            return None
        rng.shuffle(entries)
        groups: dict[str, list[dict[str, Any]]] = {}
        for e in entries:
            groups.setdefault(answer_key(e) if kind == "defend" else "", []).append(e)
        return cls(kind, rng, groups)

    def __len__(self) -> int:
        return sum(len(g) for g in self.groups.values())

    def draw_where(self, n: int, keep: Callable[[ChoiceStep[Any]], bool],
                   tries: int = 60) -> ChoiceStep[Any] | None:
        """The next screened position that ``keep`` takes, as question ``n`` (looking at
        ``tries`` at most); the positions passed over stay in the pool for other questions
        (a review after one that tests a given rule)."""
        with self._lock:
            order = [(k, i) for k, g in sorted(self.groups.items()) for i in range(len(g))]
        self.rng.shuffle(order)
        for key, i in order[:tries]:
            with self._lock:
                group = self.groups[key]
                entry = group[i] if i < len(group) else None
            if entry is None:
                continue
            try:
                step = step_of(entry, n)
            except (ValueError, KeyError, TypeError, IndexError):
                continue
            if keep(step):
                with self._lock:
                    if entry in group:
                        group.remove(entry)
                return step
        return None

    def draw(self, n: int) -> ChoiceStep[Any] | None:
        """The next screened position as question ``n``; ``None`` once they are used up.
        An entry this version cannot read or settle is passed over (the drill then deals
        live ones sooner; the test of the file says when it is stale)."""
        while True:
            with self._lock:
                left = sorted(k for k, g in self.groups.items() if g)
                if not left:
                    return None
                entry = self.groups[self.rng.choice(left)].pop()
            try:
                return step_of(entry, n)
            except (ValueError, KeyError, TypeError, IndexError):
                continue


# ---- making the file -------------------------------------------------------------------------


def aim(kind: str, preset: str, index: int) -> tuple[RuleSet, str | None]:
    """The rules and the answer class position ``index`` is dealt under and aims at: the
    classes go round fastest, then the scorings, so each scoring gets every class equally
    and the scorings come in the preset's proportion."""
    tables = scorings(kind, get_ruleset(preset))
    targets = TARGETS[kind]
    if not targets:
        return tables[index % len(tables)], None
    return tables[(index // len(targets)) % len(tables)], targets[index % len(targets)]


def screen(kind: str, preset: str, seed: str, index: int) -> dict[str, Any]:
    """One position dealt and screened live, as a drill session would, from the seed
    ``{seed}:{preset}:{kind}:{index}``, under the rules and aiming at the class of
    :func:`aim`."""
    rng = random.Random(f"{seed}:{preset}:{kind}:{index}")
    rules, want = aim(kind, preset, index)
    step = JUDGEMENT_DRILLS[kind](rng, 1, rules, True, want=want, exact=True)
    assert isinstance(step, ChoiceStep)
    return entry_of(step)


def _screen_task(args: tuple[str, str, str, int]) -> tuple[str, dict[str, Any]]:
    return args[1], screen(*args)


def build(per_kind: int, seed: str, presets: Sequence[str], kinds: Sequence[str],
          jobs: int = 1, executor: str | None = None) -> dict[str, Any]:
    """Screen ``per_kind`` positions of every kind under every preset, in this process, on
    ``jobs`` local processes, or on ``executor`` (an ``--executor`` text:
    :mod:`~pepper_tutor.analysis.executors`). Each position is one task dealt from its own
    seed and the results are merged in task order, so the file is the same on any executor
    with any number of workers (but for the seconds it took)."""
    tasks = [(k, p, seed, i) for p in presets for k in kinds for i in range(per_kind)]
    start = time.perf_counter()
    if executor is None and jobs > 1:
        executor = f"local:{jobs}"
    if executor is not None and can_start_processes():
        from ...analysis.executors import open_executor, run_indexed

        # The workers end with this process whatever ends it (see analysis/executors.py).
        with open_executor(executor) as executors:
            found = run_indexed(executors, _screen_task, tasks)
    else:
        found = [_screen_task(t) for t in tasks]
    positions: dict[str, dict[str, list[dict[str, Any]]]] = {}
    seen: set[str] = set()
    for preset, entry in found:  # a standard defend drill may hold simple-scoring positions
        key = preset + json.dumps({k: v for k, v in entry.items() if k != "analysis"},
                                  sort_keys=True)
        if key not in seen:  # the same position dealt twice is kept once
            seen.add(key)
            positions.setdefault(preset, {}).setdefault(entry["kind"], []).append(entry)
    return {"format": FORMAT,
            "made": {"command": "python -m pepper_tutor.teaching.drills.screened "
                     f"--per-kind {per_kind} --seed {seed} --presets {' '.join(presets)} "
                     f"--kinds {' '.join(kinds)}",
                     "seeds": f"random.Random('{seed}:<preset>:<kind>:<index>'), index 0 to "
                              f"{per_kind - 1}",
                     "aims": "position i aims at TARGETS[kind][i % n] under "
                             "scorings(kind, preset)[i // n % 3], n the kind's classes "
                             "(drills.screened.aim)",
                     "screening": f"each position dealt by the live drill and kept only where "
                                  f"the auction-aware analysis ({DRILL_SAMPLES} sampled deals a "
                                  "position, declare mode and defence 3 times that) "
                                  "separates its best answer by more than its 95% interval "
                                  "and at least "
                                  f"{MARGIN} point (drills.clear_best)",
                     "seconds": round(time.perf_counter() - start)},
            "positions": positions}


def dump(data: Mapping[str, Any]) -> str:
    """The file's text: one position a line, so a change shows as the lines it touched."""
    lines = ["{", f'"format":{json.dumps(data["format"])},',
             f'"made":{json.dumps(data["made"], ensure_ascii=False)},', '"positions":{']
    presets = list(data["positions"].items())
    for i, (preset, kinds) in enumerate(presets):
        lines.append(f"{json.dumps(preset)}:{{")
        for j, (kind, entries) in enumerate(kinds.items()):
            lines.append(f"{json.dumps(kind)}:[")
            lines += [json.dumps(e, ensure_ascii=False, separators=(",", ":"))
                      + ("," if k < len(entries) - 1 else "") for k, e in enumerate(entries)]
            lines.append("]" + ("," if j < len(kinds) - 1 else ""))
        lines.append("}" + ("," if i < len(presets) - 1 else ""))
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pepper_tutor.teaching.drills.screened",
                                     description="Screen judgement drill positions ahead of "
                                     "time and write them into the package's data file.")
    parser.add_argument("--per-kind", type=int, default=40)
    parser.add_argument("--seed", default="2026")
    parser.add_argument("--presets", nargs="+", default=list(PRESETS))
    parser.add_argument("--kinds", nargs="+", default=list(JUDGEMENT_DRILLS))
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes on this machine (default 1: this process)")
    parser.add_argument("--executor", help="where the positions are screened instead of "
                        "--jobs: local, local:N, dask-local:N or dask://HOST:PORT (the file "
                        "is the same on each)")
    parser.add_argument("--out", help="where to write (default: the package's data file)")
    args = parser.parse_args(argv)
    if not 1 <= args.per_kind <= 10_000:
        parser.error(f"--per-kind must be from 1 to 10,000, not {args.per_kind:,}")
    if not 1 <= args.jobs <= 1_000:
        parser.error(f"--jobs must be from 1 to 1,000 (cut to the CPUs), not {args.jobs:,}")
    if args.executor is not None:
        from ...analysis.executors import ExecutorError, parse_executor

        if args.jobs != 1:
            parser.error("give --jobs or --executor, not both")
        try:
            parse_executor(args.executor)
        except ExecutorError as err:
            parser.error(str(err))
    data = build(args.per_kind, args.seed, args.presets, args.kinds, args.jobs, args.executor)
    out = args.out or str(resources.files("pepper_tutor").joinpath(*_FILE))
    write_text(out, dump(data), through_links=args.out is None)
    counts = ", ".join(f"{p} {k} {len(v)}" for p, ks in data["positions"].items()
                       for k, v in ks.items())
    print(f"wrote {out}: {counts} ({data['made']['seconds']} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
