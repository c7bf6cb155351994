"""The sampling core's loop in C, where it is built: the same deals as the Python loop.

Auction-aware sampling (:func:`.sampling._deals`) deals thousands of layouts to keep two
hundred after a few calls, and each one dealt is shuffled and weighed by the calling model in
Python: most of a card's grade went there, not into the solving. ``_sampling_native.c``
(built beside the native search by :mod:`pepper_tutor.analysis.native`) runs that loop in C
and gives **bit for bit** what the Python loop gives: the same deals, the same counts of
deals drawn, kept and forced, and the ``random.Random`` left in the same state, so a stored
puzzle, drill or figure does not move with the build. It reproduces CPython's Mersenne
Twister and ``random.py``'s ``shuffle`` and ``randrange``, :meth:`.Dealer.deal`, and the
calling model's arithmetic with floats as Python computes them (no fused multiply-add); the
calls' windows, the same for every deal, come from :mod:`pepper_tutor.analysis.calling`.

It runs only where all of that is known to hold, and the Python loop (the oracle, and the
browser's path) runs everywhere else:

- the build is up to date with its C source and the Python it mirrors (the dealing, the
  calling model, the sampling loop and this module: an edit makes it stale);
- this interpreter's random module draws what the C draws and its ``math.erf`` is the C
  library's (checked once, on a fixed seed, when first asked);
- the generator is a plain ``random.Random`` (a subclass may draw otherwise);
- the deals are kept by the calling model alone or all kept (bid signals and rebuilt
  exchange hands are read in Python);
- ``PEPPER_TUTOR_PURE_SAMPLING`` is not set (``1``: the Python loop whatever is built).

Between deals the state goes back into the caller's generator, which the advice may draw
from while it values a deal (the later calls of a call's grade do).
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import Any, Protocol

from ...engine.calls import Bid
from ...engine.ranking import EFFECTIVE_SUIT, TRICK_RANK, trump_code
from ...engine.rules import RuleSet
from ...engine.seats import Seat
from .. import native
from ..calling import call_window, counted_calls
from ..dealing import Dealer

__all__ = ["PURE_ENV", "CallsRead", "NativeSampler", "native_sampler", "python_loop",
           "sampling_module"]

PURE_ENV = "PEPPER_TUTOR_PURE_SAMPLING"

_python_only = False  # set for a while by python_loop()

_MOST_BUCKETS = 8  # the C sampler's bounds (more never occurs: four seats and the rest)
_MOST_CALLS = 64

Tried = list[tuple[float, list[list[int]]]]


class CallsRead(Protocol):
    """What the loop reads of :class:`.sampling._CallsAccept` (which this module cannot
    import: the sampling imports it)."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def dealer(self) -> int: ...
    @property
    def calls(self) -> Sequence[tuple[Seat, Bid]]: ...
    @property
    def declared(self) -> tuple[int, bool | None] | None: ...
    @property
    def seats(self) -> Sequence[int | None]: ...
    @property
    def callers(self) -> set[int]: ...
    @property
    def played(self) -> dict[int, list[int]]: ...
    @property
    def shown(self) -> object: ...
    @property
    def extra(self) -> object: ...
    @property
    def likely(self) -> bool: ...


class NativeSampler:
    """One dealer and the calls it reads, in C: :meth:`draw` is one pass of the loop."""

    def __init__(self, module: ModuleType, handle: object) -> None:
        self._module, self._handle = module, handle

    def draw(self, rng: random.Random, drawn: int, samples: int, max_draws: int
             ) -> tuple[list[list[int]] | None, int, bool, Tried | None]:
        """``(deal, drawn, forced, tried)``: the deal kept, the deals drawn in all so far,
        whether the loop ended forced, and where it did with deals that could have made
        the calls, those deals (``deal`` is then None: the caller picks one by weight).
        ``rng`` is left as the Python loop leaves it."""
        version, words, gauss = rng.getstate()
        deal, words, drawn, forced, tried = self._module.draw(self._handle, words, drawn,
                                                              samples, max_draws)
        rng.setstate((version, words, gauss))
        return deal, drawn, forced, tried

    def weigh(self, deal: Sequence[Sequence[int]]) -> float:
        """The calls' likelihood for one deal, as the C computes it."""
        return float(self._module.weigh(self._handle, deal))


@cache
def sampling_module() -> ModuleType | None:
    """The native sampling, when built from the sources on disk and drawing as this
    interpreter does; else None (and the Python loop runs)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    module = native.sampler_module()
    if module is None or not draws_as_python(module):
        return None
    return module


def draws_as_python(module: ModuleType) -> bool:
    """Whether the C draws every kind of number the loop needs as this interpreter's
    random module does, and computes ``erf`` as its math module does."""
    rng = random.Random(20_261_205)
    if rng.getstate()[0] != 3:
        return False
    checks: list[tuple[int, int, int, Any]] = [(0, 0, 1_500, lambda: rng.random())]
    for n in (1, 2, 3, 5, 24, 720, 2**31 - 1, 2**32, 2**32 + 1, 3**18, 4**18 + 3, 2**63 + 5,
              2**64 - 1):
        checks.append((1, n, 40, lambda n=n: rng.randrange(n)))
    for k in range(1, 65):
        checks.append((2, k, 5, lambda k=k: rng.getrandbits(k)))
    for n in (0, 1, 2, 6, 13, 18, 24):
        checks.append((3, n, 30, lambda n=n: _shuffled(rng, n)))
    for what, n, count, python in checks:
        numbers, words = module.run(rng.getstate()[1], what, n, count)
        if numbers != [python() for _ in range(count)] or words != rng.getstate()[1]:
            return False
    xs = [k / 64 for k in range(-480, 481)] + [0.1 * k + 1e-3 for k in range(-90, 91)]
    xs += [-math.inf, math.inf, 1e-300, -5e-324, 27.0, -27.0]
    return all(math.erf(x).hex() == module.erf(x).hex() for x in xs)


def _shuffled(rng: random.Random, n: int) -> list[int]:
    x = list(range(n))
    rng.shuffle(x)
    return x


@contextmanager
def python_loop() -> Iterator[None]:
    """Run the Python loop for a while, whatever is built: the oracle of the tests, and the
    other half of the bench's pair."""
    global _python_only
    before, _python_only = _python_only, True
    try:
        yield
    finally:
        _python_only = before


def native_sampler(dealer: Dealer, accept: CallsRead | None, rng: random.Random
                   ) -> NativeSampler | None:
    """The C loop for these deals, where it gives the Python loop's (see the module)."""
    if _python_only or type(rng) is not random.Random:
        return None
    module = sampling_module()
    if module is None or dealer.cumulative[-1] >= 2**64 or len(dealer.counts) > _MOST_BUCKETS:
        return None
    terms: list[tuple[int, list[int], float, float, float, int, int, int]] | None = None
    if accept is not None:
        if accept.shown or accept.extra is not None or not accept.likely:
            return None
        bucket = {s: k for k, s in enumerate(accept.seats)
                  if s is not None and s in accept.callers}
        terms = []
        for s, high, call, forced, named in counted_calls(accept.rules, accept.dealer,
                                                          accept.calls, bucket,
                                                          accept.declared):
            low, top, best = call_window(accept.rules, high, call, forced)
            trump, alone = named if named is not None else (0, None)
            terms.append((bucket[s], accept.played.get(s, []), low, top, best,
                          int(named is not None), trump, -1 if alone is None else int(alone)))
        if len(terms) > _MOST_CALLS or any(len(t[1]) > 24 for t in terms):
            return None
    rules = accept.rules if accept is not None else None  # none: the tables go unread
    codes = [trump_code(t, rules.left_bower if rules is not None else True) for t in range(5)]
    handle = module.sampler(
        dealer.counts, dealer.group_of, dealer.n_groups, [cards for _, cards in dealer.classes],
        dealer.layouts, dealer.cumulative, terms, [EFFECTIVE_SUIT[c] for c in codes],
        [TRICK_RANK[c] for c in codes], bool(rules is not None and rules.has_exchange),
        bool(rules is not None and rules.partnerships and rules.players == 4))
    return NativeSampler(module, handle)
