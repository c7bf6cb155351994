"""A tournament's teams: partners drawn blind from a list of names, or entered, kept all night.

The draw is seeded, so the same names and the same seed give the same teams (a host can print
the plan before the night and draw again on the night to show it was fair). A team's place
in the list is its seed: the bracket and the movement start from it. Also here: the one
result a tournament is told about a game, and the refusals every tournament gives.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Team", "Result", "TournamentError", "DrawError", "UnknownGame", "EnteredTwice",
           "NotReady", "WrongWinner", "RoundOver", "NothingToUndo", "draw_teams",
           "parse_teams", "parse_names", "teams_to_json", "teams_from_json", "TEAM_SIZE",
           "MAX_TEAMS", "game_result", "undone"]

#: Partners: Pepper is played by two sides of two.
TEAM_SIZE = 2
#: The most teams a night runs: 64 teams is 128 players, a large hall.
MAX_TEAMS = 64
NAME_MAX = 40


class TournamentError(ValueError):
    """A tournament refused a change or an entry, with the reason in words."""


class DrawError(TournamentError):
    """Names that cannot be drawn or entered as teams."""


class UnknownGame(TournamentError):
    """A result for a game the tournament does not have."""


class EnteredTwice(TournamentError):
    """A result for a game whose result is in already."""


class NotReady(TournamentError):
    """A result for a game whose teams are not known yet (or that will not be played)."""


class WrongWinner(TournamentError):
    """A winner who is not at that table, or whose score is below the loser's."""


class RoundOver(TournamentError):
    """A result for a round that is over: the next round was planned from it."""


class NothingToUndo(TournamentError):
    """Undo before any result was entered."""


@dataclass(frozen=True)
class Team:
    """Two partners. ``name`` is how the sheet and the projector show them: "Ann & Bob"."""

    players: tuple[str, ...]

    @property
    def name(self) -> str:
        return " & ".join(self.players)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Result:
    """A game's result: the winning team (by its index in the teams) and, if known, the
    two teams' scores in the order the game lists its teams."""

    game: str
    winner: int
    scores: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "winner": self.winner,
                "scores": None if self.scores is None else list(self.scores)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        raw = data.get("scores")
        scores = None if raw is None else (int(raw[0]), int(raw[1]))
        return cls(str(data["game"]), int(data["winner"]), scores)


def game_result(teams: Sequence[Team], game: str, where: str, between: tuple[int, int],
                winner: int, scores: tuple[int, int] | None) -> Result:
    """The result of ``game`` (played at ``where``) between two teams. Refused
    (:class:`WrongWinner`): a winner who was not at it, or who has the lower score."""
    def name(team: int) -> str:
        return teams[team].name if 0 <= team < len(teams) else f"team {team + 1}"

    a, b = between
    if winner not in (a, b):
        raise WrongWinner(f"{name(winner)} is not at {where}: it is {name(a)} against {name(b)}")
    if scores is not None:
        mine, theirs = scores if winner == a else scores[::-1]
        if mine < theirs:
            raise WrongWinner(f"{name(winner)} cannot have won {game} with fewer points "
                              f"({mine} to {theirs})")
    return Result(game, winner, scores)


def undone(results: tuple[Result, ...]) -> tuple[Result, ...]:
    """The results before the last one (:class:`NothingToUndo` when there are none)."""
    if not results:
        raise NothingToUndo("no result has been entered: there is nothing to undo")
    return results[:-1]


def _clean(name: str) -> str:
    clean = " ".join(name.split())
    if not clean:
        raise DrawError("a name is empty (two commas in a row?)")
    if len(clean) > NAME_MAX:
        raise DrawError(f"{clean[:20]!r}...: a name of at most {NAME_MAX} characters, please")
    if any(not ch.isprintable() for ch in clean):
        raise DrawError(f"{clean!r}: a name of letters, digits and spaces, please")
    if "&" in clean:
        raise DrawError(f"{clean!r}: '&' joins partners, so it cannot be in a name")
    return clean


def _check_unique(names: Sequence[str]) -> None:
    seen: dict[str, str] = {}
    for name in names:
        key = name.casefold()
        if key in seen:
            raise DrawError(f"{name} is on the list twice: give each player once (add an "
                            "initial to tell two people apart)")
        seen[key] = name


def _check_count(teams: int) -> None:
    if teams < 2:
        raise DrawError(f"a tournament needs at least 2 teams, not {teams}")
    if teams > MAX_TEAMS:
        raise DrawError(f"at most {MAX_TEAMS} teams, not {teams}")


def parse_names(text: str) -> list[str]:
    """Players as a host types them: "Ann, Bob, Cy, Di"."""
    return [_clean(n) for n in text.split(",")] if text.strip() else []


def draw_teams(players: Sequence[str], seed: int) -> tuple[Team, ...]:
    """Partners drawn blind: the names shuffled by ``seed``, then taken two by two. The
    order drawn is the seeding."""
    names = [_clean(p) for p in players]
    _check_unique(names)
    if len(names) % TEAM_SIZE:
        raise DrawError(f"{len(names)} players cannot be drawn into teams of {TEAM_SIZE}: "
                        "add a player or take one off the list")
    _check_count(len(names) // TEAM_SIZE)
    random.Random(seed).shuffle(names)
    return tuple(Team(tuple(names[i:i + TEAM_SIZE])) for i in range(0, len(names), TEAM_SIZE))


def parse_teams(text: str) -> tuple[Team, ...]:
    """Teams entered as partners: "Ann & Bob, Cy & Di", seeded in that order."""
    teams = []
    for part in text.split(","):
        players = tuple(_clean(p) for p in part.split("&"))
        if len(players) != TEAM_SIZE:
            raise DrawError(f"{' & '.join(players)!r} is not a team of {TEAM_SIZE}: write "
                            "partners as 'Ann & Bob', teams separated by commas")
        teams.append(Team(players))
    _check_unique([p for t in teams for p in t.players])
    _check_count(len(teams))
    return tuple(teams)


def teams_to_json(teams: Sequence[Team]) -> list[list[str]]:
    return [list(t.players) for t in teams]


def teams_from_json(data: Any) -> tuple[Team, ...]:
    teams = tuple(Team(tuple(_clean(str(p)) for p in t)) for t in data)
    _check_unique([p for t in teams for p in t.players])
    _check_count(len(teams))
    return teams
