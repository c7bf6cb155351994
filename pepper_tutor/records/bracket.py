"""A double-elimination bracket of single games, as the La Porte City Lions Club plays it.

Every team starts in the winners' bracket; a first loss sends it to the losers' bracket, a
second ends its night. The winners' champion meets the losers' champion in the grand final
(``GF``); if the losers' champion wins it, each has lost once and the deciding game (``GF2``)
settles it. With a team count that is not a power of two the top seeds get byes in the first
round (the standard seeding, so two byes never meet there), and a bye passes a team on
without a game in either bracket.

The bracket is a value: the teams and the results entered, in order. Everything else (who
plays whom, who is out, the champion) follows from them, so undoing the last result is
dropping it, and the state after undo is exactly the state before the result.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, replace
from typing import Any, Literal

from .teams import (
    EnteredTwice,
    NotReady,
    Result,
    Team,
    TournamentError,
    UnknownGame,
    game_result,
    teams_from_json,
    teams_to_json,
    undone,
)

__all__ = ["Bracket", "Game", "BYE", "FORMAT"]

FORMAT = "pepper-tournament/1"
#: The empty place of a bye, where a team index would be.
BYE = -1

State = Literal["waiting", "ready", "done", "bye", "not needed"]
# Where a game's team comes from: a seed (an index into the teams), or the winner or the
# loser of an earlier game.
Source = tuple[Literal["seed", "winner", "loser"], int | str]


@dataclass(frozen=True)
class _Spec:
    id: str
    stage: Literal["winners", "losers", "final"]
    round: int
    sources: tuple[Source, Source]


@dataclass(frozen=True)
class Game:
    """A game as the bracket stands: its teams (an index, :data:`BYE`, or None while not
    known), what it waits for, and its state and winner."""

    id: str
    stage: Literal["winners", "losers", "final"]
    round: int
    teams: tuple[int | None, int | None]
    froms: tuple[str, str]  # where each team comes from, in words ("winner of W1-2")
    state: State
    winner: int | None = None
    scores: tuple[int, int] | None = None

    @property
    def loser(self) -> int | None:
        if self.state not in ("done", "bye") or self.winner is None:
            return None
        a, b = self.teams
        return b if self.winner == a else a


def _seed_order(size: int) -> list[int]:
    """Seeds (0-based) in bracket order, 1 against ``size``, 2 against ``size - 1``, with
    the top two seeds in opposite halves: for 8, seeds 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return [s - 1 for s in order]


@functools.lru_cache(maxsize=64)
def _plan(teams: int) -> tuple[_Spec, ...]:
    rounds = max(1, (teams - 1).bit_length())  # winners' rounds: the bracket is 2**rounds
    size = 2 ** rounds
    order = _seed_order(size)
    specs = [_Spec(f"W1-{i + 1}", "winners", 1, (("seed", order[2 * i]),
                                                 ("seed", order[2 * i + 1])))
             for i in range(size // 2)]
    for r in range(2, rounds + 1):
        specs += [_Spec(f"W{r}-{i + 1}", "winners", r,
                        (("winner", f"W{r - 1}-{2 * i + 1}"), ("winner", f"W{r - 1}-{2 * i + 2}")))
                  for i in range(size >> r)]
    champion_of_losers: Source = ("loser", "W1-1")  # two teams: no losers' bracket
    if rounds >= 2:
        specs += [_Spec(f"L1-{i + 1}", "losers", 1,
                        (("loser", f"W1-{2 * i + 1}"), ("loser", f"W1-{2 * i + 2}")))
                  for i in range(size // 4)]
        last = 1
        for r in range(2, rounds + 1):
            drop = 2 * r - 2  # the losers' round the losers of winners' round r drop into
            count = size >> r
            # Every other drop comes in reversed, so a team rarely meets again at once the
            # team it just lost to.
            losers = [f"W{r}-{i + 1}" for i in range(count)]
            if r % 2:
                losers.reverse()
            specs += [_Spec(f"L{drop}-{i + 1}", "losers", drop,
                            (("winner", f"L{last}-{i + 1}"), ("loser", losers[i])))
                      for i in range(count)]
            last = drop
            if r < rounds:
                specs += [_Spec(f"L{drop + 1}-{i + 1}", "losers", drop + 1,
                                (("winner", f"L{drop}-{2 * i + 1}"),
                                 ("winner", f"L{drop}-{2 * i + 2}")))
                          for i in range(count // 2)]
                last = drop + 1
        champion_of_losers = ("winner", f"L{last}-1")
    final: tuple[Source, Source] = (("winner", f"W{rounds}-1"), champion_of_losers)
    specs += [_Spec("GF", "final", 1, final), _Spec("GF2", "final", 2, final)]
    return tuple(specs)


def _words(source: Source) -> str:
    kind, ref = source
    return f"seed {int(ref) + 1}" if kind == "seed" else f"the {kind} of {ref}"


@dataclass(frozen=True)
class Bracket:
    """A double-elimination bracket: the teams (seeded in this order), the results entered
    in order, and the draw's seed when the partners were drawn."""

    teams: tuple[Team, ...]
    results: tuple[Result, ...] = ()
    seed: int | None = None

    kind = "bracket"

    # ---- what follows from the results ------------------------------------------------------

    def games(self) -> tuple[Game, ...]:
        """Every game of the bracket in playing order, as it stands."""
        return self._games

    @functools.cached_property
    def _games(self) -> tuple[Game, ...]:
        entered = {r.game: r for r in self.results}
        won: dict[str, int | None] = {}
        lost: dict[str, int | None] = {}

        def team(source: Source) -> int | None:
            kind, ref = source
            if kind == "seed":
                return int(ref) if int(ref) < len(self.teams) else BYE
            return (won if kind == "winner" else lost).get(str(ref))

        out: list[Game] = []
        for spec in _plan(len(self.teams)):
            a, b = (team(s) for s in spec.sources)
            froms = (_words(spec.sources[0]), _words(spec.sources[1]))
            result = entered.get(spec.id)
            game = Game(spec.id, spec.stage, spec.round, (a, b), froms, "waiting")
            if spec.id == "GF2":
                first = next(g for g in out if g.id == "GF")
                if first.state != "done":
                    pass
                elif first.winner == first.teams[0]:
                    game = replace(game, state="not needed")
                elif result is not None:
                    game = replace(game, state="done", winner=result.winner,
                                   scores=result.scores)
                else:
                    game = replace(game, state="ready")
            elif a is None or b is None:
                pass
            elif a == BYE or b == BYE:
                game = replace(game, state="bye", winner=b if a == BYE else a)
            elif result is not None:
                game = replace(game, state="done", winner=result.winner, scores=result.scores)
            else:
                game = replace(game, state="ready")
            won[spec.id] = game.winner
            lost[spec.id] = game.loser
            out.append(game)
        return tuple(out)

    def game(self, game_id: str) -> Game:
        found = next((g for g in self._games if g.id == game_id), None)
        if found is None:
            first, last = self._games[0].id, self._games[-1].id
            raise UnknownGame(f"there is no game {game_id[:20]!r} in this bracket (its games "
                              f"run from {first} to {last})")
        return found

    def ready(self) -> tuple[Game, ...]:
        """The games that can be played now."""
        return tuple(g for g in self._games if g.state == "ready")

    @property
    def champion(self) -> int | None:
        final, decider = self._games[-2], self._games[-1]
        if decider.state == "done":
            return decider.winner
        if decider.state == "not needed":
            return final.winner
        return None

    @property
    def over(self) -> bool:
        return self.champion is not None

    def losses(self) -> list[int]:
        """Games each team has lost (a bye is no loss)."""
        count = [0] * len(self.teams)
        for g in self._games:
            if g.state == "done" and g.loser is not None:
                count[g.loser] += 1
        return count

    def tables(self) -> dict[str, int]:
        """The numbered table of each game ready now. A game keeps the table it was given
        when it became ready (the lowest free one then), so a result never sends the teams
        of another game to a new table; it follows from the results, so undo gives back the
        tables as they were."""
        return self._tables

    @functools.cached_property
    def _tables(self) -> dict[str, int]:
        given: dict[str, int] = {}
        for n in range(len(self.results) + 1):
            then = self if n == len(self.results) else replace(self, results=self.results[:n])
            ready = [g.id for g in then.ready()]
            given = {g: t for g, t in given.items() if g in ready}
            used = set(given.values())
            free = (t for t in itertools.count(1) if t not in used)
            for g in ready:
                if g not in given:
                    given[g] = next(free)
        return given

    def next_game(self, team: int) -> Game | None:
        """The team's next game (ready, or waiting for its opponent), or None once it is out
        or the bracket is over."""
        return next((g for g in self._games if g.state in ("ready", "waiting")
                     and team in g.teams), None)

    # ---- entering results ----------------------------------------------------------------

    def record(self, game_id: str, winner: int, scores: tuple[int, int] | None = None
               ) -> Bracket:
        """The bracket with this result entered; refused (a :class:`TournamentError`) for a
        game entered already, not ready, or a winner who was not at that table."""
        game = self.game(game_id)
        name = self._name
        if game.state == "done":
            assert game.winner is not None
            raise EnteredTwice(f"{game.id} is entered already ({name(game.winner)} won): "
                               "undo it first to enter it again")
        if game.state == "bye":
            assert game.winner is not None
            raise NotReady(f"{game.id} is not played: {name(game.winner)} has a bye")
        if game.state == "not needed":
            raise NotReady(f"{game.id} is not played: the winners' bracket champion won the "
                           "grand final")
        if game.state == "waiting":
            waits = [f for t, f in zip(game.teams, game.froms, strict=True) if t is None]
            raise NotReady(f"{game.id} is not ready: it waits for {' and '.join(waits)}")
        a, b = game.teams
        assert a is not None and b is not None
        result = game_result(self.teams, game.id, game.id, (a, b), winner, scores)
        return replace(self, results=(*self.results, result))

    def undo(self) -> Bracket:
        """The bracket as it was before the last result."""
        return replace(self, results=undone(self.results))

    def _name(self, team: int) -> str:
        return self.teams[team].name

    # ---- as data ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "kind": self.kind, "seed": self.seed,
                "teams": teams_to_json(self.teams),
                "results": [r.to_json() for r in self.results]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bracket:
        """A bracket from its JSON form, every result entered again (so one the bracket
        would refuse is refused, naming it)."""
        seed = data.get("seed")
        bracket = cls(teams_from_json(data["teams"]), (), None if seed is None else int(seed))
        for number, raw in enumerate(data.get("results") or [], 1):
            result = Result.from_json(raw)
            try:
                bracket = bracket.record(result.game, result.winner, result.scores)
            except TournamentError as err:
                raise TournamentError(f"result {number}: {err}") from None
        return bracket
