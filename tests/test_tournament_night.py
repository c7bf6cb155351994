"""Tournament night's model: drawn teams, the double-elimination bracket, the progressive
movement, their refusals, undo and JSON (records/teams.py, bracket.py, movement.py,
tournament.py). The computer players' duplicate tournament is tests/test_tournament.py."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pepper_tutor.records.bracket import BYE, Bracket
from pepper_tutor.records.movement import Movement
from pepper_tutor.records.teams import (
    DrawError,
    EnteredTwice,
    NothingToUndo,
    NotReady,
    RoundOver,
    Team,
    TournamentError,
    UnknownGame,
    WrongWinner,
    draw_teams,
    parse_names,
    parse_teams,
)
from pepper_tutor.records.tournament import team_named, tournament_from_json


def names(n: int) -> list[str]:
    return [f"Player {i}" for i in range(n)]


def teams(n: int) -> tuple[Team, ...]:
    return tuple(Team((f"A{i}", f"B{i}")) for i in range(n))


# ---- the draw ------------------------------------------------------------------------------

def test_the_draw_is_blind_but_reproducible_and_keeps_every_player_once() -> None:
    players = names(16)
    drawn = draw_teams(players, 7)
    assert drawn == draw_teams(players, 7)
    assert len(drawn) == 8 and all(len(t.players) == 2 for t in drawn)
    assert sorted(p for t in drawn for p in t.players) == sorted(players)
    assert any(draw_teams(players, s) != drawn for s in range(1, 5))


@pytest.mark.parametrize(("players", "says"), [
    (["Ann", "Bob", "Cy"], "3 players cannot be drawn into teams of 2"),
    (["Ann", "Bob", "ann", "Di"], "ann is on the list twice"),
    (["Ann", "Bob"], "at least 2 teams, not 1"),
    (["Ann", "", "Cy", "Di"], "a name is empty"),
    (["Ann & Bob", "Cy", "Di", "Eve"], "'&' joins partners"),
])
def test_a_draw_that_cannot_be_made_says_why(players: list[str], says: str) -> None:
    with pytest.raises(DrawError, match=says):
        draw_teams(players, 1)


def test_entered_teams_are_partners_in_the_order_given() -> None:
    got = parse_teams("Ann & Bob,  Cy &Di , Eve & Fay")
    assert [t.name for t in got] == ["Ann & Bob", "Cy & Di", "Eve & Fay"]
    assert parse_names("Ann, Bob ,Cy") == ["Ann", "Bob", "Cy"]
    with pytest.raises(DrawError, match="not a team of 2"):
        parse_teams("Ann & Bob, Cy")
    with pytest.raises(DrawError, match="Bob is on the list twice"):
        parse_teams("Ann & Bob, Cy & Bob")


def test_a_team_is_found_by_its_name_or_either_partner() -> None:
    t = parse_teams("Ann & Bob, Cy & Di")
    assert team_named(t, "cy & di") == 1 and team_named(t, "BOB") == 0
    with pytest.raises(WrongWinner, match="no team here is called 'Zed'"):
        team_named(t, "Zed")


# ---- the bracket ---------------------------------------------------------------------------

def test_eight_teams_make_the_standard_double_elimination_bracket() -> None:
    b = Bracket(teams(8))
    ids = [g.id for g in b.games()]
    assert ids[:7] == ["W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1"]
    assert [i for i in ids if i.startswith("L")] == [
        "L1-1", "L1-2", "L2-1", "L2-2", "L3-1", "L4-1"]
    assert ids[-2:] == ["GF", "GF2"]
    # 1 v 8, 4 v 5, 2 v 7, 3 v 6: the top two seeds in opposite halves
    assert [b.game(f"W1-{i}").teams for i in range(1, 5)] == [(0, 7), (3, 4), (1, 6), (2, 5)]
    assert [g.id for g in b.ready()] == ["W1-1", "W1-2", "W1-3", "W1-4"]


def test_byes_go_to_the_top_seeds_and_pass_them_on_without_a_game() -> None:
    b = Bracket(teams(5))  # a bracket of 8: seeds 1, 2 and 3 have byes
    w1 = {g.id: g for g in b.games() if g.id.startswith("W1")}
    assert [g.state for g in w1.values()] == ["bye", "ready", "bye", "bye"]
    assert w1["W1-1"].teams == (0, BYE) and w1["W1-1"].winner == 0
    assert b.game("W2-2").state == "ready" and b.game("W2-2").teams == (1, 2)
    with pytest.raises(NotReady, match="W1-1 is not played: A0 & B0 has a bye"):
        b.record("W1-1", 0)
    assert b.losses() == [0] * 5


def test_a_losers_bracket_team_that_wins_the_final_forces_the_deciding_game() -> None:
    b = Bracket(teams(2))
    b = b.record("W1-1", 0)
    assert b.game("GF").teams == (0, 1) and not b.over
    b = b.record("GF", 1, (31, 12)[::-1])
    assert b.game("GF2").state == "ready" and not b.over
    b = b.record("GF2", 1)
    assert b.champion == 1 and b.losses() == [2, 1]
    # the winners' champion winning the final ends it: no deciding game
    c = Bracket(teams(2)).record("W1-1", 0).record("GF", 0)
    assert c.champion == 0 and c.game("GF2").state == "not needed"
    with pytest.raises(NotReady, match="GF2 is not played: the winners' bracket champion"):
        c.record("GF2", 0)


def test_the_bracket_refuses_each_mistake_with_the_reason() -> None:
    b = Bracket(teams(4)).record("W1-1", 0, (31, 20))
    with pytest.raises(EnteredTwice, match=r"W1-1 is entered already \(A0 & B0 won\)"):
        b.record("W1-1", 3)
    with pytest.raises(NotReady, match="W2-1 is not ready: it waits for the winner of W1-2"):
        b.record("W2-1", 0)
    with pytest.raises(WrongWinner, match="A0 & B0 is not at W1-2: it is A1 & B1 against "
                                          "A2 & B2"):
        b.record("W1-2", 0)
    with pytest.raises(WrongWinner, match="team 9 is not at W1-2"):
        b.record("W1-2", 8)
    with pytest.raises(WrongWinner, match=r"with fewer points \(12 to 31\)"):
        b.record("W1-2", 1, (12, 31))
    with pytest.raises(UnknownGame, match="no game 'W9-1'"):
        b.record("W9-1", 1)
    with pytest.raises(NothingToUndo):
        Bracket(teams(4)).undo()
    assert all(issubclass(e, ValueError) for e in (EnteredTwice, NotReady, WrongWinner))


def test_a_team_sees_its_next_game_until_it_is_out() -> None:
    b = Bracket(teams(4)).record("W1-1", 0).record("W1-2", 1)
    nxt = b.next_game(3)
    assert nxt is not None and nxt.id == "L1-1"
    b = b.record("L1-1", 2)
    assert b.next_game(3) is None and b.losses()[3] == 2
    after = b.next_game(2)
    assert after is not None and after.id == "L2-1" and after.state == "waiting"


def run_bracket(n: int, picks: list[int]) -> list[Bracket]:
    """Every state of a bracket of ``n`` teams, each result picked by ``picks``."""
    states = [Bracket(teams(n))]
    k = 0
    while not states[-1].over:
        b = states[-1]
        ready = b.ready()
        assert ready, "a bracket that is not over always has a game to play"
        game = ready[picks[k % len(picks)] % len(ready)]
        a, c = game.teams
        assert a is not None and c is not None
        winner = (a, c)[picks[(k + 1) % len(picks)] % 2]
        states.append(b.record(game.id, winner))
        k += 1
    return states


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 16), st.lists(st.integers(0, 1000), min_size=1, max_size=40))
def test_any_valid_results_run_the_bracket_to_one_champion(n: int, picks: list[int]) -> None:
    states = run_bracket(n, picks)
    last = states[-1]
    losses = last.losses()
    assert last.champion is not None
    assert max(losses) <= 2 and losses[last.champion] <= 1
    assert [i for i, lost in enumerate(losses) if lost < 2] == [last.champion]
    # games: 2n - 2 with the deciding game not needed, 2n - 1 with it
    assert len(last.results) in (2 * n - 2, 2 * n - 1)
    assert tournament_from_json(json.loads(json.dumps(last.to_json()))) == last


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 16), st.lists(st.integers(0, 1000), min_size=1, max_size=40))
def test_undo_returns_the_exact_previous_bracket(n: int, picks: list[int]) -> None:
    states = run_bracket(n, picks)
    for before, after in itertools.pairwise(states):
        undone = after.undo()
        assert undone == before
        assert undone.games() == before.games() and undone.to_json() == before.to_json()


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 16), st.lists(st.integers(0, 1000), min_size=1, max_size=40))
def test_a_ready_game_keeps_its_numbered_table_until_its_result_is_in(
        n: int, picks: list[int]) -> None:
    states = run_bracket(n, picks)
    most = 2 ** max(1, (n - 1).bit_length()) // 2  # the first round's games: the most at once
    for before, after in itertools.pairwise(states):
        for state in (before, after):
            tables = state.tables()
            assert sorted(tables) == sorted(g.id for g in state.ready())
            assert len(set(tables.values())) == len(tables)  # one game a table
            assert all(1 <= t <= most for t in tables.values())
        # a result moves no other game's teams; undo gives the tables back
        kept = {g: t for g, t in before.tables().items() if g in after.tables()}
        assert {g: after.tables()[g] for g in kept} == kept
        assert after.undo().tables() == before.tables()


def test_tables_are_given_lowest_first_and_freed_by_results() -> None:
    b = Bracket(teams(8))
    assert b.tables() == {"W1-1": 1, "W1-2": 2, "W1-3": 3, "W1-4": 4}
    b = b.record("W1-2", 3)  # seeds 4 and 5 (the seeding 1 8 4 5 2 7 3 6)
    b = b.record("W1-1", 0)  # W2-1 and L1-1 are ready now: tables 1 and 2, freed
    assert b.tables() == {"W1-3": 3, "W1-4": 4, "W2-1": 1, "L1-1": 2}


# ---- the progressive movement --------------------------------------------------------------

def test_winners_move_up_one_table_and_the_head_tables_losers_go_to_the_foot() -> None:
    m = Movement(teams(6), rounds=3, minutes=30, move="winners")
    assert [t.teams for t in m.plan()[0].tables] == [(0, 1), (2, 3), (4, 5)]
    assert len(m.plan()) == 1  # the next round is planned from this one's results
    m = m.record("R1-T1", 0, (31, 10)).record("R1-T2", 3, (5, 28)).record("R1-T3", 4, (20, 19))
    assert [t.teams for t in m.plan()[1].tables] == [(0, 3), (2, 4), (5, 1)]
    nxt = m.next_game(1)
    assert nxt is not None and nxt.id == "R2-T3"


def test_with_all_moving_the_whole_plan_is_known_and_nobody_meets_twice_in_a_cycle() -> None:
    m = Movement(teams(7), rounds=7, minutes=30, move="all")
    plan = m.plan()
    assert len(plan) == 7
    met = [frozenset(t.teams) for r in plan for t in r.tables]
    assert len(met) == len(set(met)) == 21  # every pair of 7 teams once
    assert sorted(r.sitting_out for r in plan if r.sitting_out is not None) == list(range(7))


def play_round(m: Movement, scores: dict[int, int]) -> Movement:
    for t in m.plan()[m.current - 1].tables:
        a, b = t.teams
        sa, sb = scores.get(a, 10), scores.get(b, 10)
        m = m.record(t.id, a if sa >= sb else b, (sa, sb))
    return m


def test_standings_two_points_a_win_then_total_score_then_head_to_head_or_shared() -> None:
    m = Movement(teams(4), rounds=2, minutes=30, move="all")  # R1: 0 v 3, 1 v 2
    m = m.record("R1-T1", 0, (31, 20)).record("R1-T2", 1, (31, 20))
    m = m.record("R2-T1", 0, (25, 24)).record("R2-T2", 3, (30, 12))  # R2: 0 v 2, 3 v 1
    table = [(s.rank, m.teams[s.team].players[0], s.points, s.total, s.shared)
             for s in m.standings()]
    assert table == [(1, "A0", 4, 56, False), (2, "A3", 2, 50, False),
                     (3, "A1", 2, 43, False), (4, "A2", 0, 44, False)]
    level = Movement(teams(4), rounds=1, minutes=30, move="all")
    level = level.record("R1-T1", 0, (20, 10)).record("R1-T2", 1, (20, 10))
    assert [(s.rank, s.shared) for s in level.standings()] == [
        (1, True), (1, True), (3, True), (3, True)]
    # level on points and total, but one beat the other: head-to-head decides
    h2h = Movement(teams(2), rounds=2, minutes=30, move="all")
    h2h = h2h.record("R1-T1", 0, (20, 10)).record("R2-T1", 0, (15, 15))
    assert [(s.rank, s.team, s.shared) for s in h2h.standings()] == [(1, 0, False),
                                                                     (2, 1, False)]
    h2h_split = Movement(teams(2), rounds=2, minutes=30, move="all")
    h2h_split = h2h_split.record("R1-T1", 0, (20, 10)).record("R2-T1", 1, (10, 20))
    assert [(s.rank, s.shared) for s in h2h_split.standings()] == [(1, True), (1, True)]


def test_a_team_sitting_out_scores_a_wins_points_and_no_game_score() -> None:
    m = Movement(teams(3), rounds=1, minutes=30, move="winners")
    assert m.plan()[0].sitting_out == 2
    m = m.record("R1-T1", 0, (31, 0))
    by_team = {s.team: s for s in m.standings()}
    assert (by_team[2].points, by_team[2].total, by_team[2].byes) == (2, 0, 1)


def test_the_movement_refuses_each_mistake_with_the_reason() -> None:
    m = Movement(teams(4), rounds=2, minutes=30, move="winners")
    m = m.record("R1-T1", 0, (31, 20))
    with pytest.raises(EnteredTwice, match="R1-T1 is entered already"):
        m.record("R1-T1", 1, (31, 20))
    with pytest.raises(NotReady, match="round 2 has not started: round 1 has 1 table still"):
        m.record("R2-T1", 0, (31, 20))
    with pytest.raises(WrongWinner, match="A0 & B0 is not at table 2 in round 1"):
        m.record("R1-T2", 0, (31, 20))
    with pytest.raises(WrongWinner, match="fewer points"):
        m.record("R1-T2", 2, (10, 20))
    with pytest.raises(TournamentError, match="give both teams' scores"):
        m.record("R1-T2", 2)
    with pytest.raises(UnknownGame, match="no table 'R3-T1'"):
        m.record("R3-T1", 2, (31, 0))
    m = m.record("R1-T2", 2, (31, 0))
    with pytest.raises(RoundOver, match=r"round 1 is over \(round 2 was planned from it\)"):
        m.record("R1-T2", 3, (31, 0))
    m = play_round(m, {})
    assert m.over
    with pytest.raises(RoundOver, match="so is the movement"):
        m.record("R2-T1", 0, (31, 0))
    with pytest.raises(TournamentError, match="from 1 to 30 rounds"):
        Movement(teams(4), rounds=0, minutes=30)
    with pytest.raises(TournamentError, match="5 to 180 minutes"):
        Movement(teams(4), rounds=8, minutes=1)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 16), st.sampled_from(["winners", "all"]), st.integers(1, 8),
       st.lists(st.tuples(st.integers(-20, 40), st.integers(-20, 40)), min_size=1,
                max_size=30))
def test_any_valid_results_run_the_movement_and_undo_each_exactly(
        n: int, move: str, rounds: int, scores: list[tuple[int, int]]) -> None:
    states = [Movement(teams(n), rounds, 30, "all" if move == "all" else "winners")]
    k = 0
    while not states[-1].over:
        m = states[-1]
        open_tables = [t for t in m.plan()[m.current - 1].tables if t.result is None]
        t = open_tables[k % len(open_tables)]
        sa, sb = scores[k % len(scores)]
        states.append(m.record(t.id, t.teams[0] if sa >= sb else t.teams[1], (sa, sb)))
        k += 1
    last = states[-1]
    assert len(last.results) == rounds * (n // 2)
    standing = last.standings()
    assert sorted(s.team for s in standing) == list(range(n))
    assert sum(s.points for s in standing) == 2 * rounds * ((n + 1) // 2)
    assert [s.rank for s in standing] == sorted(s.rank for s in standing)
    assert tournament_from_json(json.loads(json.dumps(last.to_json()))) == last
    for before, after in itertools.pairwise(states):
        assert after.undo() == before and after.undo().plan() == before.plan()


# ---- JSON ----------------------------------------------------------------------------------

def test_a_tampered_tournament_file_is_refused_naming_the_result() -> None:
    data = Bracket(teams(4)).record("W1-1", 0).to_json()
    data["results"].append({"game": "W1-1", "winner": 3, "scores": None})
    with pytest.raises(TournamentError, match="result 2: W1-1 is entered already"):
        tournament_from_json(data)
    with pytest.raises(TournamentError, match="not a pepper-tournament/1"):
        tournament_from_json({"format": "x"})
    with pytest.raises(TournamentError, match="'bracket' or 'progressive', not 'swiss'"):
        tournament_from_json({**data, "kind": "swiss"})
    with pytest.raises(TournamentError, match="part missing"):
        tournament_from_json({"format": "pepper-tournament/1", "kind": "progressive"})


# ---- pepper-tutor tournament plan ----------------------------------------------------------

def plan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from pepper_tutor.apps.cli import main

    code = main(["tournament", "plan", *args])
    out, err = capsys.readouterr()
    return code, out, err


PLAYERS = "Ann, Bob, Cy, Di, Eve, Fay, Gus, Hal, Ida, Jo, Kim, Lou, Max, Ned"


def test_the_plan_command_prints_the_draw_and_every_game_of_the_bracket(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plan(capsys, "--players", PLAYERS, "--seed", "11")
    assert code == 0 and err == ""
    drawn = draw_teams(parse_names(PLAYERS), 11)
    assert "partners drawn blind with seed 11" in out
    for i, team in enumerate(drawn, 1):
        assert f"  {i}. {team.name}\n" in out
    assert "7 teams: single games, a team is out after its second loss. 1 bye" in out
    b = Bracket(drawn, seed=11)
    shown = [g.id for g in b.games() if g.teams != (BYE, BYE)]
    ids = {g.id for g in b.games()}
    assert [line.split()[0] for line in out.splitlines() if line.split()[:1]
            and line.split()[0] in ids] == shown
    assert f"{drawn[0].name}: a bye, no game" in out
    assert "GF2    the same two again, only if the winner of L4-1 wins GF" in out
    again = plan(capsys, "--players", PLAYERS, "--seed", "11")
    assert again[1] == out


def test_the_plan_command_without_a_seed_prints_the_one_it_drew_with(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plan(capsys, "--players", "Ann, Bob, Cy, Di", "--json")
    data = json.loads(out)
    seed = data["tournament"]["seed"]
    assert code == 0 and isinstance(seed, int)
    assert plan(capsys, "--players", "Ann, Bob, Cy, Di", "--seed", str(seed), "--json")[1] == out


def test_the_plan_command_prints_each_rounds_tables_of_a_progressive_movement(
        capsys: pytest.CaptureFixture[str]) -> None:
    teams_text = "Ann & Bob, Cy & Di, Eve & Fay, Gus & Hal, Ida & Jo"
    code, out, _ = plan(capsys, "--teams", teams_text, "--format", "progressive",
                        "--rounds", "5", "--minutes", "25", "--move", "all")
    assert code == 0
    assert "5 teams at 2 tables, 5 rounds of 25 minutes" in out
    m = Movement(parse_teams(teams_text), 5, 25, "all")
    for r in m.plan():
        assert f"Round {r.number} (25 minutes)" in out
        for t in r.tables:
            a, b = (m.teams[i].name for i in t.teams)
            assert f"Table {t.table:<3} {a}  v  {b}" in out
        assert r.sitting_out is not None
    assert out.count("Sitting out:") == 5
    code, out, _ = plan(capsys, "--teams", teams_text, "--format", "progressive")
    assert "8 rounds of 30 minutes" in out and "Round 1 (30 minutes)" in out
    assert "Rounds 2 to 8: planned from the results as each round ends" in out
    code, out, _ = plan(capsys, "--teams", teams_text, "--format", "progressive", "--json")
    data = json.loads(out)
    assert tournament_from_json(data["tournament"]) == Movement(parse_teams(teams_text), 8, 30)
    assert [t["teams"] for t in data["rounds"][0]["tables"]] == [[0, 1], [2, 3]]


@pytest.mark.parametrize(("args", "says"), [
    (["--players", "Ann, Bob, Cy"], "3 players cannot be drawn into teams of 2"),
    (["--teams", "Ann & Bob, Cy"], "'Cy' is not a team of 2"),
    (["--teams", "Ann & Bob, Cy & Di", "--seed", "3"], "--seed draws partners from --players"),
    (["--players", "Ann, Bob, Cy, Di", "--rounds", "3"], "are for --format progressive"),
    (["--players", "Ann, Bob, Cy, Di", "--format", "progressive", "--minutes", "2"],
     "a round of 5 to 180 minutes, not 2"),
    (["--players", "Ann, Bob, Cy, ann"], "ann is on the list twice"),
])
def test_the_plan_command_refuses_bad_input_in_one_line_with_exit_2(
        capsys: pytest.CaptureFixture[str], args: list[str], says: str) -> None:
    code, out, err = plan(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err and "Traceback" not in err


# ---- a table's score sheet feeds its game ----------------------------------------------------

def test_a_tables_score_sheet_gives_its_games_result() -> None:
    from pepper_tutor.records.scoresheet import ScoreSheet
    from pepper_tutor.records.tournament import sheet_result

    b = Bracket(teams(4))  # W1-2: A1 & B1 against A2 & B2
    sheet = ScoreSheet("lions-club")
    sheet.add_simple("N", "4", "H", "partner", "play", 5)
    with pytest.raises(NotReady, match="W1-2 is a game to 31: the sheet shows no winner yet"):
        sheet_result(b, "W1-2", sheet, north_south=2)
    while sheet.winner is None:
        sheet.add_simple("E", "4", "S", "partner", "play", 2)  # East-West set every time
    winner, scores = sheet_result(b, "W1-2", sheet, north_south=2)
    totals = sheet.totals
    assert sheet.winner == "NS" and winner == 2
    assert scores == (totals["EW"], totals["NS"])  # in the game's order: team 1, team 2
    b = b.record("W1-2", winner, scores)
    with pytest.raises(WrongWinner, match="A1 & B1 is not at W1-1: it is A0 & B0 against "
                                          "A3 & B3"):
        sheet_result(b, "W1-1", sheet, north_south=1)
    with pytest.raises(NotReady, match="W2-1 is not a game to be played now"):
        sheet_result(b, "W2-1", sheet, north_south=1)
    # a movement's round ends when time is called: the team ahead has won, level is refused
    m = Movement(teams(4), rounds=1, minutes=30)
    timed = ScoreSheet("lions-club")
    timed.add_simple("N", "4", "H", "partner", "play", 5)
    winner, scores = sheet_result(m, "R1-T2", timed, north_south=3)
    assert winner == 3 and scores[1] > scores[0]
    assert m.record("R1-T2", winner, scores).plan()[0].tables[1].result is not None
    level = ScoreSheet("lions-club")
    with pytest.raises(NotReady, match="R1-T1 is level at 0: play a hand more"):
        sheet_result(m, "R1-T1", level, north_south=0)
