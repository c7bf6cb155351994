"""A tournament night: its teams and either a double-elimination bracket
(:mod:`.bracket`) or a progressive movement (:mod:`.movement`), one value either way.

Both take results the same way (``record(game, winner, scores)``, ``undo()``), refuse the
same mistakes (:class:`~.teams.TournamentError` and its kinds) and keep to one JSON form,
``pepper-tournament/1``, which game night's store keeps and the ``tournament`` command prints.
"""

from __future__ import annotations

from typing import Any

from .bracket import FORMAT, Bracket
from .movement import Movement
from .teams import Team, TournamentError, WrongWinner

__all__ = ["Tournament", "tournament_from_json", "team_named", "FORMAT"]

Tournament = Bracket | Movement


def tournament_from_json(data: Any) -> Tournament:
    """A tournament from its JSON form, every result checked again; a form that is not one
    is a :class:`TournamentError` saying what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TournamentError(f"not a {FORMAT} tournament")
    try:
        if data.get("kind") == "bracket":
            return Bracket.from_json(data)
        if data.get("kind") == "progressive":
            return Movement.from_json(data)
    except (KeyError, TypeError, IndexError) as err:
        raise TournamentError(f"a {FORMAT} tournament with a part missing or malformed "
                              f"({err!r})") from None
    raise TournamentError(f"a tournament is a 'bracket' or 'progressive', not "
                          f"{str(data.get('kind'))[:20]!r}")


def team_named(teams: tuple[Team, ...], name: str) -> int:
    """The index of the team ``name`` names ("Ann & Bob", either partner's name, any case)."""
    key = " ".join(name.split()).casefold()
    for i, team in enumerate(teams):
        if key == team.name.casefold() or key in (p.casefold() for p in team.players):
            return i
    raise WrongWinner(f"no team here is called {name[:40]!r}")
