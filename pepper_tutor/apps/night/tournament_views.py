"""What tournament night's screens show, as plain values for the templates (which escape
every text): the games to play now at their tables, the bracket or the standings, each team's
next table, the round clock and the game played at the app's own table.

The tournament's rules stay in :mod:`pepper_tutor.records.tournament` (who plays whom, who is
out, the standings); this module only says them for a screen.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ...records.bracket import BYE, Bracket, Game
from ...records.movement import POINTS_A_WIN, Movement, Round
from ...records.teams import WrongWinner
from ...records.tournament import Tournament, team_named

__all__ = ["GameRow", "NextTable", "team_of", "playable", "next_tables", "bracket_columns",
           "clock_view", "standings_rows", "summary", "last_result"]

_STAGES = {"winners": "Winners'", "losers": "Losers'", "final": "Grand final"}


@dataclass(frozen=True)
class GameRow:
    """A game as a screen shows it: where, who (a name, or where the team comes from), and
    how it went."""

    id: str
    table: int | None
    teams: tuple[int | None, int | None]
    names: tuple[str, str]
    state: str  # waiting, ready, done, bye, not needed
    winner: int | None = None
    scores: tuple[int, int] | None = None

    @property
    def place(self) -> str:
        return f"Table {self.table}" if self.table is not None else self.id


@dataclass(frozen=True)
class NextTable:
    """Where a team plays next, in words: ``where`` ("Table 2"), ``against`` (the other
    team, or where it comes from) and ``note`` (the game, or, with no table, what the team
    does: "is out (2 losses)", "sits out round 3", said after "Your team")."""

    team: int
    name: str
    where: str
    against: str
    note: str


def team_of(t: Tournament, name: str) -> int | None:
    """The team a player of this name is in (any case), or None."""
    try:
        return team_named(t.teams, name)
    except WrongWinner:
        return None


def _name(t: Tournament, team: int | None, words: str) -> str:
    if team is None:
        return words
    return "a bye" if team == BYE else t.teams[team].name


def _bracket_row(b: Bracket, g: Game) -> GameRow:
    names = (_name(b, g.teams[0], g.froms[0]), _name(b, g.teams[1], g.froms[1]))
    return GameRow(g.id, b.tables().get(g.id), g.teams, names, g.state, g.winner, g.scores)


def playable(t: Tournament) -> list[GameRow]:
    """The games whose result can be entered now, by table."""
    if isinstance(t, Bracket):
        rows = [_bracket_row(t, g) for g in t.ready()]
        return sorted(rows, key=lambda r: r.table or 0)
    if t.over:
        return []
    now = t.plan()[t.current - 1]
    return [GameRow(g.id, g.table, g.teams, (t.teams[g.teams[0]].name, t.teams[g.teams[1]].name),
                    "ready") for g in now.tables if g.result is None]


def bracket_columns(b: Bracket) -> list[tuple[str, list[GameRow]]]:
    """The bracket as the projector draws it: a column per stage and round."""
    columns: list[tuple[str, list[GameRow]]] = []
    for g in b.games():
        if g.teams == (BYE, BYE) or (g.id == "GF2" and g.state in ("waiting", "not needed")):
            continue  # no game: two byes, or a deciding game not (yet) needed
        title = (_STAGES["final"] if g.stage == "final"
                 else f"{_STAGES[g.stage]} round {g.round}")
        if not columns or columns[-1][0] != title:
            columns.append((title, []))
        columns[-1][1].append(_bracket_row(b, g))
    return columns


def _bracket_next(b: Bracket, team: int) -> NextTable:
    name = b.teams[team].name
    if b.champion == team:
        return NextTable(team, name, "", "", "champion")
    g = b.next_game(team)
    if g is None:
        lost = b.losses()[team]
        return NextTable(team, name, "", "", "is out (2 losses)" if lost >= 2 else "finished")
    other = 1 if g.teams[0] == team else 0
    against = _name(b, g.teams[other], g.froms[other])
    if g.state == "ready":
        return NextTable(team, name, f"Table {b.tables()[g.id]}", against, g.id)
    return NextTable(team, name, g.id, against, "waits for its opponent")


def _movement_next(m: Movement, team: int, plan: tuple[Round, ...], current: int
                   ) -> NextTable:
    # ``plan`` and ``current`` are the movement's, worked out once for every team: each
    # costs a walk over the results, and a room of 64 teams asks 64 times.
    name = m.teams[team].name
    if current > m.rounds:
        return NextTable(team, name, "", "", "finished")
    now = plan[current - 1]
    g = next((x for x in now.tables if team in x.teams and x.result is None), None)
    if g is not None:
        other = g.teams[1] if g.teams[0] == team else g.teams[0]
        return NextTable(team, name, f"Table {g.table}", m.teams[other].name,
                         f"round {now.number}")
    if now.sitting_out == team:
        return NextTable(team, name, "", "", f"sits out round {now.number} ({POINTS_A_WIN} "
                                             "points, as a win)")
    if now.number < len(plan):  # every round is planned already (all move)
        later = next((x for x in plan[now.number].tables if team in x.teams), None)
        if later is not None:
            other = later.teams[1] if later.teams[0] == team else later.teams[0]
            return NextTable(team, name, f"Table {later.table}", m.teams[other].name,
                             f"round {later.round}, once round {now.number} is in")
    if now.number == m.rounds:
        return NextTable(team, name, "", "", "played its last round")
    return NextTable(team, name, "", "", f"has its round {now.number} result in: the next "
                                         "table follows when every table is in")


def next_tables(t: Tournament) -> list[NextTable]:
    """Each team's next table, in seed order."""
    if isinstance(t, Bracket):
        return [_bracket_next(t, i) for i in range(len(t.teams))]
    plan, current = t.plan(), t.current
    return [_movement_next(t, i, plan, current) for i in range(len(t.teams))]


def standings_rows(m: Movement) -> list[dict[str, Any]]:
    return [{"rank": s.rank, "shared": s.shared, "name": m.teams[s.team].name,
             "played": s.played, "wins": s.wins, "byes": s.byes, "points": s.points,
             "total": s.total} for s in m.standings()]


def clock_view(t: Tournament, notes: dict[str, Any], now: float | None = None
               ) -> dict[str, Any] | None:
    """The round clock of a movement: the round being played, its minutes and the seconds
    left (None: the host has not started it). A bracket's games are to the target, untimed:
    no clock."""
    if not isinstance(t, Movement) or t.over:
        return None
    clock = notes.get("clock")
    left = None
    if isinstance(clock, dict) and clock.get("round") == t.current:
        elapsed = (time.time() if now is None else now) - float(clock["started"])
        left = max(0, round(t.minutes * 60 - elapsed))
    return {"round": t.current, "rounds": t.rounds, "minutes": t.minutes, "left": left}


def summary(t: Tournament) -> str:
    n = len(t.teams)
    how = "as entered" if t.seed is None else f"partners drawn blind, seed {t.seed}"
    if isinstance(t, Bracket):
        return f"Double elimination, {n} teams ({how})"
    moving = "winners move up" if t.move == "winners" else "all move"
    return (f"Progressive movement, {n} teams, {t.rounds} rounds of {t.minutes} minutes, "
            f"{moving} ({how})")


def last_result(t: Tournament) -> str | None:
    """The last result entered, in words (what Undo takes back)."""
    if not t.results:
        return None
    r = t.results[-1]
    score = "" if r.scores is None else f" ({r.scores[0]} to {r.scores[1]})"
    return f"{r.game}: {t.teams[r.winner].name} won{score}"
