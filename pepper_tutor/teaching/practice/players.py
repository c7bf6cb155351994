"""The computer players the practice table seats, behind one small door.

The table asks :func:`bot_decide` for a seat's action; this module builds what that seat
may see (:func:`~pepper_tutor.analysis.view.view_of`, with the match scores) and asks the
player (:mod:`pepper_tutor.analysis.players`). Nothing else of the hand reaches the player.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...analysis.players import ALONE_SETTINGS, DEFAULT_ALONE, LEVELS, Player, make_player
from ...analysis.view import view_of
from ...engine.seats import Seat
from ...engine.state import Action, HandState

__all__ = ["LEVELS", "ALONE_SETTINGS", "DEFAULT_ALONE", "Player", "make_bot", "bot_decide"]


def make_bot(level: str, seed: int | None = None, alone: str = DEFAULT_ALONE) -> Player:
    """A computer player of ``level`` with the going-alone setting ``alone`` (``analysis``:
    alone unless the analysis finds partner clearly better; ``rarely``: only when the
    analysis finds going alone clearly better)."""
    return make_player(level, seed, alone=alone)


def bot_decide(bot: Player, state: HandState, seat: Seat,
               scores: Mapping[str, int] | None = None) -> Action:
    """The player's action for ``seat``, from what that seat may see."""
    return bot.decide(view_of(state, seat, scores))
