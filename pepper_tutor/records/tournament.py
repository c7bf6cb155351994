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
from .scoresheet import ScoreSheet
from .teams import NotReady, Team, TournamentError, UnknownGame, WrongWinner

__all__ = ["Tournament", "tournament_from_json", "team_named", "sheet_result", "FORMAT"]

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


def _teams_at(tournament: Tournament, game_id: str) -> tuple[int, int]:
    if isinstance(tournament, Bracket):
        game = tournament.game(game_id)
        a, b = game.teams
        if game.state != "ready" or a is None or b is None:
            raise NotReady(f"{game.id} is not a game to be played now ({game.state})")
        return a, b
    table = next((t for r in tournament.plan() for t in r.tables if t.id == game_id), None)
    if table is None:
        raise UnknownGame(f"there is no table {game_id[:20]!r} in the plan so far")
    return table.teams


def sheet_result(tournament: Tournament, game_id: str, sheet: ScoreSheet,
                 north_south: int) -> tuple[int, tuple[int, int]]:
    """The winner and the scores (in the game's order of its teams) that a table's score
    sheet gives ``game_id``; ``north_south`` is the team that sat North-South, the other sat
    East-West. A bracket's game is a game to the target, so its sheet must show the game
    won; a movement's round ends when time is called, so the team ahead then has won, and a
    level score is refused (play a hand more)."""
    a, b = _teams_at(tournament, game_id)
    if north_south not in (a, b):
        known = 0 <= north_south < len(tournament.teams)
        name = tournament.teams[north_south].name if known else f"team {north_south + 1}"
        raise WrongWinner(f"{name} is not at {game_id}: it is {tournament.teams[a].name} "
                          f"against {tournament.teams[b].name}")
    if not sheet.rules.partnerships:
        raise TournamentError("a tournament's games are played by partners: this sheet's "
                              "rules have no North-South and East-West")
    east_west = b if north_south == a else a
    totals = sheet.totals
    score = {north_south: totals["NS"], east_west: totals["EW"]}
    winner_side = sheet.winner
    if winner_side is None:
        if isinstance(tournament, Bracket):
            raise NotReady(f"{game_id} is a game to {sheet.rules.target}: the sheet shows no "
                           f"winner yet ({totals['NS']} to {totals['EW']})")
        if totals["NS"] == totals["EW"]:
            raise NotReady(f"{game_id} is level at {totals['NS']}: play a hand more to "
                           "settle it")
        winner_side = "NS" if totals["NS"] > totals["EW"] else "EW"
    winner = north_south if winner_side == "NS" else east_west
    return winner, (score[a], score[b])
