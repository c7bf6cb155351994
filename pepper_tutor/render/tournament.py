"""A tournament's plan as plain text (for the terminal or a printed sheet) and as JSON data:
the teams, then the bracket's games round by round, or the movement's tables per round.

Team names pass :func:`~.plain.one_line` (they were typed by a host), so a name cannot break
the layout or reach the terminal as an escape sequence.
"""

from __future__ import annotations

import textwrap
from typing import Any

from ..records.bracket import BYE, Bracket, Game
from ..records.movement import POINTS_A_WIN, Movement, Round
from ..records.tournament import Tournament
from .plain import one_line

__all__ = ["plan_text", "plan_data"]

WIDTH = 88  # the prose lines; a game's line is as long as its teams' names
_STAGES = {"winners": "Winners' bracket", "losers": "Losers' bracket", "final": "Grand final"}


def _teams_lines(t: Tournament) -> list[str]:
    width = len(str(len(t.teams)))
    how = "as entered" if t.seed is None else f"partners drawn blind with seed {t.seed}"
    return [f"Teams, in seed order ({how}):",
            *(f"  {i:>{width}}. {one_line(team.name)}" for i, team in enumerate(t.teams, 1)),
            ""]


def _side(b: Bracket, team: int | None, words: str) -> str:
    if team is None:
        return words
    return "bye" if team == BYE else one_line(b.teams[team].name)


def _game_line(b: Bracket, g: Game) -> str | None:
    a, c = (_side(b, t, w) for t, w in zip(g.teams, g.froms, strict=True))
    if g.id == "GF2":
        if g.state == "not needed":
            return f"{g.id:<6} not needed: the winners' bracket champion won the grand final"
        if g.state == "waiting":
            return (f"{g.id:<6} the same two again, only if {g.froms[1]} wins GF (each has "
                    "then lost once)")
    if g.teams == (BYE, BYE):
        return None  # two byes: no game, nobody moves on
    if BYE in g.teams:
        return f"{g.id:<6} {c if g.teams[0] == BYE else a}: a bye, no game"
    line = f"{g.id:<6} {a}  v  {c}"
    if g.state == "done" and g.winner is not None:
        score = "" if g.scores is None else f" ({g.scores[0]} to {g.scores[1]})"
        line += f": {one_line(b.teams[g.winner].name)} won{score}"
    return line


def _bracket_lines(b: Bracket) -> list[str]:
    n = len(b.teams)
    byes = 2 ** max(1, (n - 1).bit_length()) - n
    about = (f"Double elimination, {n} teams: single games, a team is out after its second "
             "loss." + (f" {byes} bye{'' if byes == 1 else 's'} in the first round, to the top "
                        "seeds." if byes else ""))
    lines = [*textwrap.wrap(about, WIDTH), "", *_teams_lines(b)]
    stage, rnd = "", 0
    for g in b.games():
        line = _game_line(b, g)
        if line is None:
            continue
        if g.stage != stage:
            stage, rnd = g.stage, 0
            lines.append(_STAGES[g.stage])
        if g.stage != "final" and g.round != rnd:
            rnd = g.round
            lines.append(f"  Round {rnd}")
        lines.append(("    " if g.stage != "final" else "  ") + line)
    if b.champion is not None:
        lines += ["", f"Champion: {one_line(b.teams[b.champion].name)}"]
    return lines


def _round_lines(m: Movement, r: Round) -> list[str]:
    lines = [f"Round {r.number} ({m.minutes} minutes)"]
    for t in r.tables:
        a, c = (one_line(m.teams[i].name) for i in t.teams)
        line = f"  Table {t.table:<3} {a}  v  {c}"
        if t.result is not None and t.result.scores is not None:
            line += (f": {one_line(m.teams[t.result.winner].name)} won "
                     f"({t.result.scores[0]} to {t.result.scores[1]})")
        lines.append(line)
    if r.sitting_out is not None:
        lines.append(f"  Sitting out: {one_line(m.teams[r.sitting_out].name)} "
                     f"({POINTS_A_WIN} points, as a win)")
    return lines


def _movement_lines(m: Movement) -> list[str]:
    n, tables = len(m.teams), m.table_count
    moving = ("the winners move up one table, the losers stay; at table 1 the winners stay "
              f"and the losers go to table {tables}" if m.move == "winners"
              else "every team moves by the schedule below (no two teams meet twice until "
                   "each has met every other)")
    about = (f"Progressive movement, {n} teams at {tables} table{'' if tables == 1 else 's'}, "
             f"{m.rounds} round{'' if m.rounds == 1 else 's'} of {m.minutes} minutes. "
             f"After each round {moving}. "
             + ("With an odd number of teams one sits out each round"
                + (f" (the losers at table {tables} next, the team sitting out coming in "
                   "there)" if m.move == "winners" else "") + ". " if n % 2 else "")
             + f"{POINTS_A_WIN} points a win; ties broken by total score, then by the games "
             "between the two teams.")
    lines = [*textwrap.wrap(about, WIDTH), "", *_teams_lines(m)]
    plan = m.plan()
    for r in plan:
        lines += [*_round_lines(m, r), ""]
    if len(plan) < m.rounds:
        later = (f"Round {m.rounds}" if len(plan) + 1 == m.rounds
                 else f"Rounds {len(plan) + 1} to {m.rounds}")
        lines.append(f"{later}: planned from the results as each round ends (the winners "
                     "move up).")
    return lines


def plan_text(t: Tournament) -> str:
    lines = _bracket_lines(t) if isinstance(t, Bracket) else _movement_lines(t)
    return "\n".join(lines).rstrip() + "\n"


def plan_data(t: Tournament) -> dict[str, Any]:
    """The tournament's JSON form with the plan as it stands beside it (team indices are
    0-based into ``teams``; a bracket's ``null`` is a team not known yet, ``-1`` a bye)."""
    data: dict[str, Any] = {"tournament": t.to_json()}
    if isinstance(t, Bracket):
        data["games"] = [{"id": g.id, "stage": g.stage, "round": g.round,
                          "teams": list(g.teams), "from": list(g.froms), "state": g.state,
                          "winner": g.winner} for g in t.games()]
        data["champion"] = t.champion
    else:
        data["rounds"] = [{"round": r.number, "minutes": t.minutes,
                           "tables": [{"id": g.id, "table": g.table, "teams": list(g.teams)}
                                      for g in r.tables],
                           "sitting_out": r.sitting_out} for r in t.plan()]
        data["standings"] = [{"rank": s.rank, "team": s.team, "points": s.points,
                              "total": s.total, "shared": s.shared} for s in t.standings()]
    return data
