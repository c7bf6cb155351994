"""How fast the command line starts, against a bare interpreter measured in the same rounds.

Each round runs ``python -c pass``, ``pepper-tutor --help`` and ``pepper-tutor trick ...
--json`` once, in turn, so that a busy moment of the machine hits all three alike; the
figures are the median over the rounds and the spread (lowest and highest) of the per-round
ratio. Bytecode is compiled first, as it is for anyone who has run the tool once.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

__all__ = ["benches", "measure"]

_SCRIPT = os.path.join(os.path.dirname(sys.executable), "pepper-tutor")
# The installed console script, as people type it; `python -m pepper_tutor` if there is none.
_TOOL = [_SCRIPT] if os.path.exists(_SCRIPT) else [sys.executable, "-m", "pepper_tutor"]
COMMANDS: dict[str, list[str]] = {
    "--help": [*_TOOL, "--help"],
    "trick --json": [*_TOOL, "trick", "--trump", "H", "JD", "AH", "9S", "QH", "--json"],
}
TARGET = 2.5  # at most this many times a bare interpreter's start (issue 11)


def _run(args: Sequence[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(list(args), env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(rounds: int) -> dict[str, tuple[float, float, float, float]]:
    """For each command: (median ms, median ratio to ``python -c pass``, lowest, highest)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for args in COMMANDS.values():  # compile bytecode and fill the rulebook cache
        _run(args, env)
    bare: list[float] = []
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(rounds):
        bare.append(_run([sys.executable, "-c", "pass"], env))
        for name, args in COMMANDS.items():
            times[name].append(_run(args, env))
    out = {"python -c pass": (statistics.median(bare) * 1000, 1.0, 1.0, 1.0)}
    for name, values in times.items():
        ratios = [t / b for t, b in zip(values, bare, strict=True)]
        out[f"pepper-tutor {name}"] = (statistics.median(values) * 1000,
                                       statistics.median(ratios), min(ratios), max(ratios))
    return out


def bench_startup(seconds: float) -> str:
    rounds = max(5, int(seconds * 4))
    lines = [f"command-line start, {rounds} alternating rounds (target: at most {TARGET}x "
             "a bare interpreter):"]
    for name, (ms, ratio, low, high) in measure(rounds).items():
        lines.append(f"  {name:28} {ms:6.0f} ms   x{ratio:.2f} (rounds {low:.2f}-{high:.2f})")
    return "\n".join(lines)


def benches() -> list[Callable[[float], str]]:
    return [bench_startup]
