"""The shipped puzzles: ``pepper_tutor/data/puzzles.json``, how it is read and how it is made.

The file (format ``pepper-puzzles/1``) holds the puzzles, one compact JSON object a line
(:mod:`.puzzle`), and ``made``: one entry per mining run that added to it, with the command,
its seed, the hands, the kinds, the thresholds, the date and what it took; and ``held``, the
puzzles mined but held back so that no guess gives a kind's answers (:mod:`.selection`: a
later run's rarer answers bring some back); and ``refuted``, the puzzles the advice found
clear but whose answer scored less than the tempting answer when the hand was played out
(:mod:`.miner`), never shipped. It is built by
the commands in :data:`REBUILD` (``make puzzles`` runs them under ``nice -n 19``); each run
adds the puzzles it found that the file does not hold yet. ``tests/test_puzzles_bank.py``
re-validates a sample and fails, naming these commands, when the analysis has moved.
``make puzzles`` runs the commands the file does not record yet (:func:`missing_runs`), so a
build cut short goes on where it stopped; delete the file to build it anew.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...files.writing import write_text
from .puzzle import Puzzle
from .selection import select

if TYPE_CHECKING:  # the miner loads the analysis's executors: not for reading the puzzles
    from .miner import Mined

__all__ = ["FORMAT", "REBUILD", "missing_runs", "bank_path", "empty_bank", "load_bank", "read_bank",
           "bank_puzzles", "add_run", "dump_bank", "write_bank"]

FORMAT = "pepper-puzzles/1"
_FILE = ("data", "puzzles.json")

# The shipped file's build (make puzzles): the dear kinds (calls) on fewer hands, the cheap
# ones (cards, the exchange, the defense) on more, by beginners, whose slips give the
# analysis most to disagree with.
REBUILD = (
    "pepper-tutor puzzles mine --fresh --hands 40 --seed 2026-calls --levels beginner club "
    "--executor local:2",
    # (the commands as the miner records them: --start 0, the default, is not written)
    *(f"pepper-tutor puzzles mine --hands 100 --seed 2026-cards"
      f"{f' --start {start}' if start else ''} --levels beginner --kinds play discard send "
      "defense mode --executor local:2"
      for start in range(0, 2400, 100)),
)


def missing_runs(data: Mapping[str, Any] | None = None) -> list[str]:
    """The commands of :data:`REBUILD` the file does not record yet, in order: what
    ``make puzzles`` runs (all of them when the file is missing or was made otherwise)."""
    made = [m["command"] for m in (data if data is not None else load_bank())["made"]]
    if made != list(REBUILD[:len(made)]):
        return list(REBUILD)
    return list(REBUILD[len(made):])


def bank_path() -> Path:
    """The packaged file (in a source checkout, ``pepper_tutor/data/puzzles.json``)."""
    return Path(str(resources.files("pepper_tutor").joinpath(*_FILE)))


def empty_bank() -> dict[str, Any]:
    return {"format": FORMAT, "made": [], "puzzles": [], "held": [], "refuted": []}


def read_bank(path: Path) -> dict[str, Any]:
    """A puzzles file; a clear ``ValueError`` naming the file when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}:{err.lineno}:{err.colno}: not JSON ({err.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"{path}: expected a puzzles file (format {FORMAT}), found "
                         f"{found!r}")
    return data


def load_bank(path: Path | None = None) -> dict[str, Any]:
    """The packaged puzzles (or ``path``'s); empty when the packaged file is missing."""
    where = path or bank_path()
    if path is None and not where.exists():
        return empty_bank()
    return read_bank(where)


_CACHE: dict[str, list[Puzzle]] = {}


def bank_puzzles(path: Path | None = None) -> list[Puzzle]:
    """Every puzzle of the packaged file (read once) or of ``path``."""
    key = str(path or "")
    if key not in _CACHE:
        _CACHE[key] = [Puzzle.from_json(p) for p in load_bank(path)["puzzles"]]
    return _CACHE[key]


def add_run(data: Mapping[str, Any], mined: Mined, command: str, options: Mapping[str, Any]
            ) -> dict[str, Any]:
    """``data`` with the mined puzzles it lacks added, the run's provenance, and the
    selection (:func:`~.selection.select`) made anew over every puzzle mined."""
    before = [*data["puzzles"], *data.get("held", [])]
    refuted = list(data.get("refuted", []))
    have = {p["id"] for p in [*before, *refuted]}
    new = [p for p in mined.puzzles if p["id"] not in have]
    new_refuted = [p for p in mined.refuted if p["id"] not in have]
    refuted += new_refuted
    kept, held = select([*before, *new])
    made = {"command": command, **options,
            "seeds": "each hand from random.Random('<seed>:<index>:hand'); each decision's "
                     "first look from '<seed>:<index>:<decision>:screen', its two validating "
                     "runs from '<seed>:<index>:<decision>:run1' and ':run2'",
            "thresholds": mined.thresholds,
            "rule": "kept when the best answer beats the best other answer by at least "
                    f"{mined.thresholds['margin']} net point with the low end of the margin's "
                    f"95% interval above {mined.thresholds['low']}, in both runs of "
                    f"{int(mined.thresholds['samples'])} auction-aware deals, and the "
                    "position is not a lost cause; then played out from the answer and "
                    f"from the tempting answer over {int(mined.thresholds['played_out'])} "
                    "deals that follow the calls by expert players, refuted (never shipped) "
                    "when the answer scored less",
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "hands": mined.hands, "decisions": mined.decisions,
            "selection": "no class of answer gives more than 3/4 of a kind's puzzles, the "
                         "highest card at most 1/2 of the play puzzles; the surplus held "
                         "back by a lottery on the puzzles' ids",
            "candidates": mined.candidates, "kept": len(mined.puzzles),
            "refuted": len(new_refuted), "added": len(new),
            "cpu_seconds": round(mined.cpu_seconds), "wall_seconds": round(mined.wall_seconds)}
    return {"format": FORMAT, "made": [*data["made"], made], "puzzles": kept, "held": held,
            "refuted": refuted}


def dump_bank(data: Mapping[str, Any]) -> str:
    """The file's text: one puzzle a line, so a rebuild's change shows line by line."""
    lines = ["{", f'"format":{json.dumps(data["format"])},',
             '"made":' + json.dumps(data["made"], ensure_ascii=False) + ","]
    keys = ("puzzles", "held", "refuted")
    for key in keys:
        puzzles: Sequence[Mapping[str, Any]] = data.get(key, [])
        lines.append(f'"{key}":[')
        lines += [json.dumps(p, ensure_ascii=False, separators=(",", ":"))
                  + ("," if i < len(puzzles) - 1 else "") for i, p in enumerate(puzzles)]
        lines.append("]" if key == keys[-1] else "],")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_bank(path: Path, data: Mapping[str, Any], *, through_links: bool = True) -> None:
    """Replace the file at ``path`` (``through_links=False`` for a path a person gave:
    see :func:`~pepper_tutor.files.writing.write_text`)."""
    write_text(path, dump_bank(data), through_links=through_links)
    _CACHE.clear()
