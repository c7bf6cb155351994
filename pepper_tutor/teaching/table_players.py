"""The computer players the practice table seats, behind one small door.

The table asks :func:`bot_decide` for a seat's action; this module builds what the player
may see and asks it. A stand-in until the analysis layer's players land: it plays a random
legal action and reads nothing but the legal actions.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..engine.seats import Seat
from ..engine.state import Action, HandState

__all__ = ["LEVELS", "Bot", "make_bot", "bot_decide"]

LEVELS = ("beginner", "club", "expert")


class Bot(Protocol):
    def decide(self, view: object) -> Action: ...


class _RandomBot:
    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: object) -> Action:
        legal: list[Action] = view.legal  # type: ignore[attr-defined]
        return legal[self.rng.randrange(len(legal))]


class _View:
    def __init__(self, legal: list[Action]) -> None:
        self.legal = legal


def make_bot(level: str, seed: int | None = None) -> Bot:
    if level not in LEVELS:
        raise ValueError(f"{level!r} is not a level (expected {', '.join(LEVELS)})")
    return _RandomBot(seed)


def bot_decide(bot: Bot, state: HandState, seat: Seat) -> Action:
    """The bot's action for ``seat``, from what that seat may see."""
    return bot.decide(_View(state.legal_actions()))
