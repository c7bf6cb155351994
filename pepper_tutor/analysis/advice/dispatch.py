"""Advice for whatever decision the hand waits on (:func:`advise`), by the phase."""

from __future__ import annotations

from ...engine.state import HandState, Phase
from ..view import SeatView
from .auction import SolvedDeals
from .calls import advise_bid
from .defense import advise_defense
from .exchange import advise_discard, advise_send
from .play import advise_play
from .report import Advice
from .sampling import Progress, Seed, _check_request


def advise(state: HandState | SeatView, samples: int = 200, seed: Seed = None,
           progress: Progress | None = None, workers: int = 1, auction: bool | None = None,
           until_clear: bool = False, drop_worse: bool = True,
           calibrated: bool = True, solved: SolvedDeals | None = None) -> Advice:
    """Advice for whatever decision the hand waits on: the bid, the declaration (trump and
    way of playing), the discard, the partner's card, the defense or a card in play.

    ``auction`` (default: whenever another seat has called) reads the calls when dealing
    the unseen hands; ``until_clear`` stops sampling once the best option is clear at 95%;
    ``drop_worse`` and ``solved`` are bid advice's (see :func:`advise_bid`); ``calibrated``
    takes each contract's double-dummy trick count as the tricks expected in play (not for
    a card in play, which is compared double-dummy).

    Arguments it cannot take (not a position, ``samples`` outside 1 to :data:`MAX_SAMPLES`,
    a seed that is no seed) raise :class:`AdviceRequestError`, a ``ValueError``, before
    any work."""
    _check_request(state, samples, seed, workers, progress)
    phase = state.phase
    more = {"workers": workers, "auction": auction, "until_clear": until_clear}
    if phase in (Phase.AUCTION, Phase.DECLARE_TRUMP, Phase.DECLARE_MODE):
        return advise_bid(state, samples, seed, progress, workers=workers, auction=auction,
                          until_clear=until_clear, drop_worse=drop_worse,
                          calibrated=calibrated, solved=solved)
    if phase is Phase.DISCARD:
        return advise_discard(state, samples, seed, progress, calibrated=calibrated,
                              **more)  # type: ignore[arg-type]
    if phase is Phase.SEND:
        return advise_send(state, samples, seed, progress, calibrated=calibrated,
                           **more)  # type: ignore[arg-type]
    if phase is Phase.DEFENSE:
        return advise_defense(state, samples, seed, progress, calibrated=calibrated,
                              **more)  # type: ignore[arg-type]
    if phase is Phase.PLAY:
        return advise_play(state, samples, seed, progress, **more)  # type: ignore[arg-type]
    raise ValueError(f"there is no decision to advise on: the hand is {phase}")
