"""A progressive movement: timed rounds at numbered tables, as the Ontario 55+ Games play it.

Each round lasts the same minutes at every table; when time is called the team ahead has won
(2 points), and both teams' scores count to their total, which breaks ties in the standings.
Between rounds the teams move in one of two ways:

- ``winners``: the winners move up one table (toward table 1), the losers stay; at table 1
  the winners stay and the losers go to the last table. Only the first round is known before
  the night; each next one is planned from the results of the one before.
- ``all``: every team moves by a fixed schedule (a round robin: no two teams meet again
  until each has met every other), so the whole plan can be printed in advance.

With an odd number of teams one team sits out each round: under ``winners`` the team that
lost at the last table sits out and the team that sat out comes in there; under ``all`` the
schedule rotates it. A team sitting out scores the 2 points of a win and no game score (the
rule sheets do not say; this keeps a bye from costing the points a win would have brought,
while the total score, the tie-break, counts only games played).

Standings: points, then total score; two teams still level who met are ordered by the games
between them; otherwise a tie is shared (1, 1, 3).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from .teams import (
    EnteredTwice,
    NotReady,
    Result,
    RoundOver,
    Team,
    TournamentError,
    UnknownGame,
    game_result,
    teams_from_json,
    teams_to_json,
    undone,
)

__all__ = ["Movement", "TableGame", "Round", "Standing", "MOVES", "POINTS_A_WIN",
           "MAX_ROUNDS", "MINUTES"]

FORMAT = "pepper-tournament/1"
MOVES = ("winners", "all")
POINTS_A_WIN = 2
MAX_ROUNDS = 30
#: A round's length in minutes: the 55+ Games play 30; shorter than 5 is not a game.
MINUTES = (5, 180)

Move = Literal["winners", "all"]
_GAME_ID = re.compile(r"R(\d{1,3})-T(\d{1,3})")


@dataclass(frozen=True)
class TableGame:
    """One table in one round: its two teams and, once entered, the result."""

    id: str
    round: int
    table: int
    teams: tuple[int, int]
    result: Result | None = None


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[TableGame, ...]
    sitting_out: int | None

    @property
    def complete(self) -> bool:
        return all(t.result is not None for t in self.tables)


@dataclass(frozen=True)
class Standing:
    rank: int
    team: int
    played: int
    wins: int
    byes: int
    points: int
    total: int
    shared: bool


def _round_robin(teams: int, number: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``number`` (1-based) of the circle method: team 1 stays, the rest turn."""
    places: list[int | None] = [*range(teams), *([None] if teams % 2 else [])]
    n = len(places)
    turn = (number - 1) % (n - 1)
    rest = places[1:]
    rest = rest[len(rest) - turn:] + rest[:len(rest) - turn]
    ring = [places[0], *rest]
    pairs, out = [], None
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if a is None or b is None:
            out = b if a is None else a
        else:
            pairs.append((a, b))
    return pairs, out


def _winners_move(tables: list[tuple[int, int]], results: list[Result],
                  out: int | None) -> tuple[list[tuple[int, int]], int | None]:
    """The next round's tables after the winners moved up one table."""
    win = [r.winner for r in results]
    lose = [b if r.winner == a else a for (a, b), r in zip(tables, results, strict=True)]
    m = len(tables)
    if m == 1:
        return ([(win[0], lose[0])], None) if out is None else ([(win[0], out)], lose[0])
    nxt = [(win[0], win[1])] + [(lose[k], win[k + 1]) for k in range(1, m - 1)]
    if out is None:
        return [*nxt, (lose[m - 1], lose[0])], None
    return [*nxt, (lose[0], out)], lose[m - 1]


@dataclass(frozen=True)
class Movement:
    """A progressive movement: the teams, R rounds of M minutes, how teams move, and the
    results entered in order (the draw's seed when the partners were drawn)."""

    teams: tuple[Team, ...]
    rounds: int
    minutes: int
    move: Move = "winners"
    results: tuple[Result, ...] = ()
    seed: int | None = None

    kind = "progressive"

    def __post_init__(self) -> None:
        if self.move not in MOVES:
            raise TournamentError(f"teams move as 'winners' or 'all', not {self.move!r}")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise TournamentError(f"from 1 to {MAX_ROUNDS} rounds, not {self.rounds}")
        if not MINUTES[0] <= self.minutes <= MINUTES[1]:
            raise TournamentError(f"a round of {MINUTES[0]} to {MINUTES[1]} minutes, not "
                                  f"{self.minutes}")

    @property
    def table_count(self) -> int:
        return len(self.teams) // 2

    # ---- what follows from the results ------------------------------------------------------

    def plan(self) -> tuple[Round, ...]:
        """The rounds known so far: all of them under ``all``; under ``winners`` each round
        up to the first one not yet complete."""
        return self._plan

    @functools.cached_property
    def _plan(self) -> tuple[Round, ...]:
        entered = {r.game: r for r in self.results}
        n = len(self.teams)
        rounds: list[Round] = []
        tables: list[tuple[int, int]] = []
        out: int | None = None
        for number in range(1, self.rounds + 1):
            if self.move == "all":
                tables, out = _round_robin(n, number)
            elif number == 1:
                tables = [(2 * i, 2 * i + 1) for i in range(n // 2)]
                out = n - 1 if n % 2 else None
            else:
                last = rounds[-1]
                if not last.complete:
                    break
                tables, out = _winners_move(list(tables), [t.result for t in last.tables
                                                           if t.result is not None], out)
            games = tuple(TableGame(f"R{number}-T{k}", number, k, pair,
                                    entered.get(f"R{number}-T{k}"))
                          for k, pair in enumerate(tables, 1))
            rounds.append(Round(number, games, out))
        return tuple(rounds)

    @property
    def current(self) -> int:
        """The round being played (``rounds + 1`` once every round is in)."""
        return next((r.number for r in self._plan if not r.complete), self.rounds + 1)

    @property
    def over(self) -> bool:
        return self.current > self.rounds

    def next_game(self, team: int) -> TableGame | None:
        """The team's table in the round being played, if it has one and its result is not
        in (None: sitting out, finished for this round, or the movement is over)."""
        if self.over:
            return None
        now = self._plan[self.current - 1]
        return next((t for t in now.tables if team in t.teams and t.result is None), None)

    def standings(self) -> tuple[Standing, ...]:
        n = len(self.teams)
        wins, byes, played, total = [0] * n, [0] * n, [0] * n, [0] * n
        beat: dict[tuple[int, int], int] = {}
        for rnd in self._plan:
            if rnd.complete and rnd.sitting_out is not None:
                byes[rnd.sitting_out] += 1
            for t in rnd.tables:
                if t.result is None:
                    continue
                assert t.result.scores is not None
                for team, score in zip(t.teams, t.result.scores, strict=True):
                    played[team] += 1
                    total[team] += score
                loser = t.teams[1] if t.result.winner == t.teams[0] else t.teams[0]
                wins[t.result.winner] += 1
                beat[t.result.winner, loser] = beat.get((t.result.winner, loser), 0) + 1
        points = [POINTS_A_WIN * (wins[i] + byes[i]) for i in range(n)]
        order = sorted(range(n), key=lambda i: (-points[i], -total[i], i))
        out: list[Standing] = []
        i = 0
        while i < n:
            group = [j for j in order[i:] if (points[j], total[j]) ==
                     (points[order[i]], total[order[i]])]
            if len(group) == 2:
                a, b = group
                ab, ba = beat.get((a, b), 0), beat.get((b, a), 0)
                if ab != ba:
                    first, second = (a, b) if ab > ba else (b, a)
                    out += [self._standing(i + 1, first, played, wins, byes, points, total,
                                           False),
                            self._standing(i + 2, second, played, wins, byes, points, total,
                                           False)]
                    i += 2
                    continue
            shared = len(group) > 1
            group.sort(key=lambda j: self.teams[j].name.casefold())
            out += [self._standing(i + 1, j, played, wins, byes, points, total, shared)
                    for j in group]
            i += len(group)
        return tuple(out)

    @staticmethod
    def _standing(rank: int, team: int, played: list[int], wins: list[int], byes: list[int],
                  points: list[int], total: list[int], shared: bool) -> Standing:
        return Standing(rank, team, played[team], wins[team], byes[team], points[team],
                        total[team], shared)

    # ---- entering results ----------------------------------------------------------------

    def record(self, game_id: str, winner: int, scores: tuple[int, int] | None = None
               ) -> Movement:
        """The movement with this table's result entered. Refused: a table not in the plan,
        a result entered twice, a round over or not started, a winner not at that table or
        with the lower score, and a result without both scores (they break ties)."""
        found = _GAME_ID.fullmatch(game_id)
        number, table = (int(found[1]), int(found[2])) if found else (0, 0)
        if not (1 <= number <= self.rounds and 1 <= table <= self.table_count):
            raise UnknownGame(f"there is no table {game_id[:20]!r}: the games are R1-T1 to "
                              f"R{self.rounds}-T{self.table_count} (round, table)")
        current = self.current
        if number < current:
            if current > self.rounds:
                raise RoundOver(f"round {number} is over and so is the movement: undo back "
                                "to that result to change it")
            raise RoundOver(f"round {number} is over (round {current} was planned from it): "
                            "undo back to that result to change it")
        if number > current:
            left = sum(t.result is None for t in self._plan[current - 1].tables)
            raise NotReady(f"round {number} has not started: round {current} has {left} "
                           f"table{'' if left == 1 else 's'} still to enter")
        game = self._plan[number - 1].tables[table - 1]
        name = self._name
        if game.result is not None:
            raise EnteredTwice(f"{game.id} is entered already ({name(game.result.winner)} "
                               "won): undo it first to enter it again")
        where = f"table {table} in round {number}"
        if scores is None and winner in game.teams:
            raise TournamentError(f"give both teams' scores for {game.id}: ties in the "
                                  "standings are broken by total score")
        result = game_result(self.teams, game.id, where, game.teams, winner, scores)
        return replace(self, results=(*self.results, result))

    def undo(self) -> Movement:
        """The movement as it was before the last result."""
        return replace(self, results=undone(self.results))

    def _name(self, team: int) -> str:
        return self.teams[team].name

    # ---- as data ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "kind": self.kind, "seed": self.seed,
                "rounds": self.rounds, "minutes": self.minutes, "move": self.move,
                "teams": teams_to_json(self.teams),
                "results": [r.to_json() for r in self.results]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Movement:
        """A movement from its JSON form, every result entered again (so one it would
        refuse is refused, naming it)."""
        seed = data.get("seed")
        movement = cls(teams_from_json(data["teams"]), int(data["rounds"]),
                       int(data["minutes"]), _move(str(data.get("move", "winners"))), (),
                       None if seed is None else int(seed))
        for number, raw in enumerate(data.get("results") or [], 1):
            result = Result.from_json(raw)
            try:
                movement = movement.record(result.game, result.winner, result.scores)
            except TournamentError as err:
                raise TournamentError(f"result {number}: {err}") from None
        return movement


def _move(move: str) -> Move:
    if move == "all":
        return "all"
    if move == "winners":
        return "winners"
    raise TournamentError(f"teams move as 'winners' or 'all', not {move[:20]!r}")
