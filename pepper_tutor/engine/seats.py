"""Seats round the table and the sides that score.

Seats are N, E, S, W clockwise (E sits on N's left). With two or three players the seats
in play are N, E or N, E, S. All seat arithmetic lives here.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum

from .cards import NotationError, wrong_type

__all__ = ["Seat", "seats_for"]


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    def __str__(self) -> str:
        return self.name

    def __bool__(self) -> bool:
        return True  # N, clubs and the nine are values like any other, never "false"

    @property
    def word(self) -> str:
        return ("North", "East", "South", "West")[self]

    def next(self, players: int = 4) -> Seat:
        """The seat on this one's left, the next to act clockwise."""
        return Seat((self + 1) % players)

    def prev(self, players: int = 4) -> Seat:
        return Seat((self - 1) % players)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def team(self) -> str:
        """The partnership this seat belongs to at a four-handed table: ``NS`` or ``EW``."""
        return "NS" if self in (Seat.N, Seat.S) else "EW"

    def iter_from(self, players: int = 4) -> Iterator[Seat]:
        """This seat, then the others clockwise."""
        for k in range(players):
            yield Seat((self + k) % players)

    @classmethod
    def parse(cls, text: str | int | Seat) -> Seat:
        if isinstance(text, Seat):
            return text
        if type(text) is int and 0 <= text <= 3:  # a plain number; a Bid is not a seat
            return Seat(text)
        if not isinstance(text, str):  # a Bid's or a Trump's text would read as a seat
            raise wrong_type(text, "a seat (N, E, S or W)")
        key = text.strip().upper()
        for seat in Seat:
            if key in (seat.name, seat.word.upper()):
                return seat
        raise NotationError(f"{text!r} is not a seat (expected N, E, S or W)")


def seats_for(players: int) -> tuple[Seat, ...]:
    if players not in (2, 3, 4):
        raise ValueError(f"Pepper is played by 2, 3 or 4 players, not {players}")
    return tuple(Seat(i) for i in range(players))
