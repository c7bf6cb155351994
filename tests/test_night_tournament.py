"""Tournament night in the night's store: every result and undo written in its transaction,
so reopening the file (or kill -9 at any moment) finds the tournament as it was left; and over
the web: the host's forms (every refusal a 4xx with its reason, the host's alone), the
projector's and the phones' parts, the game read from the app's own score sheet."""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pepper_tutor.apps.night.server import NightConfig, create_app
from pepper_tutor.apps.night.store import NightError, NightStore
from pepper_tutor.records.bracket import Bracket
from pepper_tutor.records.movement import Movement
from pepper_tutor.records.teams import EnteredTwice, WrongWinner, draw_teams
from pepper_tutor.records.tournament import Tournament

from .night_clients import BASE, JSON, host_client, player_client


def players(n: int) -> list[str]:
    return [f"Player {i}" for i in range(n)]


def next_result(t: Tournament, rng: random.Random) -> tuple[str, int, tuple[int, int]]:
    """A valid result for one of the games that can be played now."""
    if isinstance(t, Bracket):
        game = rng.choice(t.ready())
        a, b = game.teams
        assert a is not None and b is not None
        teams = (a, b)
        gid = game.id
    else:
        table = rng.choice([g for g in t.plan()[t.current - 1].tables if g.result is None])
        teams, gid = table.teams, table.id
    winner = rng.randrange(2)
    high, low = rng.randint(31, 40), rng.randint(-10, 30)
    return gid, teams[winner], ((high, low) if winner == 0 else (low, high))


@pytest.mark.parametrize("start", [
    Bracket(draw_teams(players(14), 3), seed=3),
    Movement(draw_teams(players(10), 4), rounds=4, minutes=30, move="winners", seed=4),
    Movement(draw_teams(players(12), 5), rounds=3, minutes=20, move="all", seed=5),
], ids=["bracket of 7", "winners move, 5 teams", "all move, 6 teams"])
def test_reopened_after_every_step_the_tournament_is_as_it_was_left(
        tmp_path: Path, start: Tournament) -> None:
    path = tmp_path / "night.sqlite"
    store = NightStore(path)
    assert store.tournament() is None
    store.start_tournament(start)
    rng = random.Random(1)
    expected = start
    steps = 0
    while not expected.over:
        if steps % 5 == 4:  # now and then the host takes the last result back
            expected = expected.undo()
            assert store.undo_result() == expected
        else:
            game, winner, scores = next_result(expected, rng)
            expected = expected.record(game, winner, scores)
            assert store.record_result(game, winner, scores) == expected
        steps += 1
        # The old store is not closed: as after a crash, the file alone has to hold it.
        store = NightStore(path)
        assert store.warning is None
        assert store.tournament() == expected
    assert steps > 10


def test_the_store_refuses_as_the_tournament_does_and_writes_nothing(tmp_path: Path) -> None:
    store = NightStore(tmp_path / "night.sqlite")
    with pytest.raises(NightError, match="no tournament has been started"):
        store.record_result("W1-1", 0)
    store.start_tournament(Bracket(draw_teams(players(8), 1)))
    store.record_result("W1-1", 0, (31, 3))
    kept = store.tournament()
    with pytest.raises(EnteredTwice):
        store.record_result("W1-1", 3)
    with pytest.raises(WrongWinner):
        store.record_result("W1-2", 0)
    assert NightStore(store.path).tournament() == kept
    with pytest.raises(NightError, match=r"a tournament is under way \(1 result entered\)"):
        store.start_tournament(Bracket(draw_teams(players(8), 2)))
    store.start_tournament(Bracket(draw_teams(players(8), 2)), replace=True)
    assert store.tournament() == Bracket(draw_teams(players(8), 2))
    store.end_tournament()
    assert store.tournament() is None


def _enter_forever(path: str, acked: Any, changes: Any) -> None:
    store = NightStore(Path(path))
    rng = random.Random(os.getpid())
    while True:
        t = store.tournament()
        assert t is not None
        if t.over or (rng.random() < 0.2 and t.results):
            t = store.undo_result()
        else:
            t = store.record_result(*next_result(t, rng))
        acked.value = len(t.results)  # the server would answer the host now
        changes.value += 1


def test_kill_9_while_results_are_entered_loses_nothing_and_leaves_a_tournament(
        tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite"
    NightStore(path).start_tournament(Bracket(draw_teams(players(16), 9)))
    ctx = multiprocessing.get_context("fork")  # forked: no import time, so kills land in work
    rng = random.Random(34)
    moved = 0
    last = NightStore(path).tournament()
    for _ in range(10):
        # Without a lock: a child killed inside a locked read or write would leave the lock
        # held for good, and the next read here would wait for ever (it did, in a loaded CI
        # run). One writer, one reader, a machine int: nothing to lock against.
        acked = ctx.Value("i", len(last.results) if last else 0, lock=False)
        changes = ctx.Value("i", 0, lock=False)
        child = ctx.Process(target=_enter_forever, args=(str(path), acked, changes))
        child.start()
        # The kill lands among the changes, however slow the machine: after the first one
        # is acknowledged, at a random moment of the work that follows.
        deadline = time.monotonic() + 60
        while changes.value == 0 and time.monotonic() < deadline:
            time.sleep(0.002)
        assert changes.value > 0, "the writer never entered a result"
        time.sleep(rng.uniform(0.0, 0.1))
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        store = NightStore(path)
        assert store.warning is None
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        con.close()
        now = store.tournament()  # read whole and every result checked again
        assert isinstance(now, Bracket)
        # Every change acknowledged is there; at most the one in flight when the kill came
        # was committed without being acknowledged.
        assert len(now.results) - acked.value in (-1, 0, 1)
        moved += now != last
        last = now
        store.close()
    assert moved >= 5  # the kills landed among results, not only before the first


# ---- over the web: the host's forms, the projector and the phones ------------------------------

TOURNAMENT_POSTS = ("/tournament/start", "/tournament/result", "/tournament/undo",
                    "/tournament/table", "/tournament/sheet", "/tournament/clock",
                    "/tournament/end")


def _room(app: Any, store: NightStore, n: int) -> dict[str, tuple[TestClient, str]]:
    return {f"Player {i}": player_client(app, store, f"Player {i}") for i in range(n)}


def _post(client: TestClient, path: str, csrf: str, **fields: str) -> tuple[int, str]:
    r = client.post(path, data={"csrf": csrf, **fields}, headers=JSON)
    assert r.headers["content-type"].startswith("application/json"), r.text
    return r.status_code, str(r.json()["message"])


def _text(client: TestClient, part: str) -> str:
    import html
    import re

    r = client.get(f"/part/{part}")
    assert r.status_code == 200, r.text
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.text)).split())


def test_a_bracket_over_the_web_every_mistake_a_clean_4xx_with_its_reason(
        night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    phones = _room(night_app, night_store, 8)
    # no tournament yet: each change is refused, and the phone shows nothing
    assert _post(host, "/tournament/result", csrf, game="W1-1", winner="0")[0] == 409
    assert _text(phones["Player 1"][0], "tournament-phone") == ""
    # partners drawn from the players who joined (the names field left empty)
    status, said = _post(host, "/tournament/start", csrf, how="draw", players="", seed="5")
    assert status == 200 and "4 teams" in said and "seed 5" in said
    t = night_store.tournament()
    assert isinstance(t, Bracket) and t.teams == draw_teams([f"Player {i}" for i in range(8)], 5)
    a, b = t.game("W1-1").teams
    assert a is not None and b is not None
    c, d = t.game("W1-2").teams
    assert c is not None and d is not None
    refusals = [
        # (form, status, what the message says)
        ({"game": "W1-1", "winner": str(c)}, 400, "is not at W1-1"),
        ({"game": "W1-1", "winner": str(a), "score_a": "12", "score_b": "31"}, 400,
         "with fewer points (12 to 31)"),
        ({"game": "W1-1", "winner": str(a), "score_a": "31"}, 400, "both teams' scores"),
        ({"game": "W1-1", "winner": "x"}, 400, "whole number"),
        ({"game": "W1-1", "winner": str(a), "score_a": "9" * 30, "score_b": "1"}, 400,
         "whole number"),
        ({"game": "W9-9", "winner": str(a)}, 400, "there is no game 'W9-9'"),
        ({"game": "W2-1", "winner": str(a)}, 409, "it waits for the winner of W1-1"),
        ({"game": "GF", "winner": str(a)}, 409, "not ready"),
    ]
    for form, status, says in refusals:
        got, message = _post(host, "/tournament/result", csrf, **form)
        assert (got, says in message) == (status, True), (form, got, message)
    assert night_store.tournament() == t  # nothing was written
    assert _post(host, "/tournament/result", csrf, game="W1-1", winner=str(a),
                 score_a="31", score_b="20")[0] == 200
    # the same game again, even with the other winner: refused, the first result stays
    status, said = _post(host, "/tournament/result", csrf, game="W1-1", winner=str(b))
    assert status == 409 and "entered already" in said and "undo it first" in said
    # a new tournament over one with a result: refused
    status, said = _post(host, "/tournament/start", csrf, how="draw", players="", seed="6")
    assert status == 409 and "a tournament is under way (1 result entered)" in said
    # the wrong winner was entered: undo, and the right one goes in
    status, said = _post(host, "/tournament/undo", csrf)
    assert status == 200 and "W1-1" in said
    assert night_store.tournament() == t
    assert _post(host, "/tournament/undo", csrf)[0] == 400  # nothing left to undo
    assert _post(host, "/tournament/result", csrf, game="W1-1", winner=str(b),
                 score_a="25", score_b="31")[0] == 200
    # the phones: each team's next table and opponents
    after = night_store.tournament()
    assert isinstance(after, Bracket)
    tables = after.tables()
    for name, (client, _) in phones.items():
        team = next(i for i, tm in enumerate(after.teams) if name in tm.players)
        shown = _text(client, "tournament-phone")
        assert f"Your team: {after.teams[team].name}" in shown
        game = after.next_game(team)
        assert game is not None
        if game.state == "ready":
            other = game.teams[1] if game.teams[0] == team else game.teams[0]
            assert other is not None
            assert f"Table {tables[game.id]} against {after.teams[other].name}" in shown
        else:
            assert game.id in shown
    # the projector: the bracket with the result, and each team's next table
    projector = _text(host, "projector")
    assert "Winners' round 1" in projector and "Next tables" in projector
    assert f"{after.teams[b].name} 31" in projector
    # bad start forms
    assert _post(host, "/tournament/end", csrf)[0] == 200
    for form, says in (({"how": "draw", "players": "Ann, Bob, Cy"}, "3 players cannot be drawn"),
                       ({"how": "entered", "teams": "Ann & Bob, Cy"}, "is not a team of 2"),
                       ({"how": "draw", "players": "", "format": "progressive",
                         "minutes": "2"}, "A round's minutes"),
                       ({"how": "draw", "players": "", "format": "swiss"}, "'progressive'")):
        status, said = _post(host, "/tournament/start", csrf, **form)
        assert status == 400 and says in said, (form, said)
    assert night_store.tournament() is None
    assert _post(host, "/tournament/end", csrf)[0] == 409


def test_tournament_changes_are_the_hosts_alone(night_app: Any,
                                                night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    phones = _room(night_app, night_store, 4)
    assert _post(host, "/tournament/start", csrf, how="draw", players="")[0] == 200
    kept = night_store.tournament()
    phone, pcsrf = phones["Player 0"]
    night_store.set_scorekeeper(night_store.players()[0].id, True)  # not even a scorekeeper
    stranger = TestClient(night_app, base_url=BASE)
    stranger.get("/")
    scsrf = stranger.cookies["pt_csrf"]
    for path in TOURNAMENT_POSTS:
        form = {"game": "W1-1", "winner": "0", "how": "draw", "players": ""}
        assert _post(phone, path, pcsrf, **form)[0] == 403, path
        assert _post(stranger, path, scsrf, **form)[0] == 403, path
        # the host's cookie without the form's token, or from another site
        r = host.post(path, data=form, headers=JSON)
        assert r.status_code == 403 and "out of date" in r.json()["message"], path
        r = host.post(path, data={"csrf": csrf, **form},
                      headers={**JSON, "Origin": "http://evil.example"})
        assert r.status_code == 403 and "another site" in r.json()["message"], path
    assert night_store.tournament() == kept
    assert phone.get("/part/tournament-host").status_code == 403


def test_a_movement_over_the_web_the_clock_the_standings_and_a_round_over(
        night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    phones = _room(night_app, night_store, 8)
    assert _post(host, "/tournament/start", csrf, how="entered", format="progressive",
                 rounds="2", minutes="20", move="winners",
                 teams="Player 0 & Player 1, Player 2 & Player 3, Player 4 & Player 5, "
                       "Player 6 & Player 7")[0] == 200
    assert "the clock has not started" in _text(host, "tournament-host")
    status, said = _post(host, "/tournament/clock", csrf)
    assert status == 200 and "Round 1's clock is running: 20 minutes" in said
    assert "20:00" in _text(host, "projector") or "19:59" in _text(host, "projector")
    assert "Round 1: 20:00 left" in _text(phones["Player 5"][0], "tournament-phone") or \
        "Round 1: 19:59 left" in _text(phones["Player 5"][0], "tournament-phone")
    # a movement needs both scores; a level score has no winner
    status, said = _post(host, "/tournament/result", csrf, game="R1-T1", winner="0")
    assert status == 400 and "give both teams' scores" in said
    assert _post(host, "/tournament/result", csrf, game="R1-T1", winner="0", score_a="20",
                 score_b="14")[0] == 200
    # round 2 is not planned before round 1 is in
    status, said = _post(host, "/tournament/result", csrf, game="R2-T1", winner="0",
                         score_a="20", score_b="14")
    assert status == 409 and "round 2 has not started" in said
    assert "Your team has its round 1 result in" in _text(phones["Player 0"][0], "tournament-phone")
    assert _post(host, "/tournament/result", csrf, game="R1-T2", winner="3", score_a="9",
                 score_b="18")[0] == 200
    # round 2: the winners moved up (table 1's winners stay; the losers of table 1 go down)
    m = night_store.tournament()
    assert isinstance(m, Movement) and m.current == 2
    assert m.plan()[1].tables[0].teams == (0, 3)
    shown = _text(phones["Player 6"][0], "tournament-phone")
    assert "Table 1 against Player 0 & Player 1" in shown and "2 points, rank 2" in shown
    assert "the clock has not started" in _text(host, "tournament-host")  # a new round
    # round 1 is over: a result for it is refused, however it is put
    status, said = _post(host, "/tournament/result", csrf, game="R1-T1", winner="1",
                         score_a="10", score_b="20")
    assert status == 409 and "round 1 is over" in said
    assert _post(host, "/tournament/result", csrf, game="R2-T1", winner="0", score_a="30",
                 score_b="12")[0] == 200
    status, said = _post(host, "/tournament/result", csrf, game="R2-T2", winner="2",
                         score_a="15", score_b="15")
    assert status == 200 and "the standings are final" in said
    projector = _text(host, "projector")
    assert "Final standings" in projector
    assert "1 Player 0 & Player 1 2 2 4 50" in projector  # rank, team, played, won, points, total
    assert _post(host, "/tournament/clock", csrf)[0] == 409  # every round is played


def test_the_game_at_the_apps_table_is_read_from_its_score_sheet(
        night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    _room(night_app, night_store, 8)
    # the night's rules: a game to 8, which the tournament's game at the table plays
    assert host.post("/sheet/new", data={"csrf": csrf, "version": "0", "preset": "standard",
                                         "target": "8"}, headers=JSON).status_code == 200
    assert _post(host, "/tournament/start", csrf, how="draw", players="", seed="2")[0] == 200
    t = night_store.tournament()
    assert isinstance(t, Bracket)
    a, b = t.game("W1-2").teams
    assert a is not None and b is not None
    status, said = _post(host, "/tournament/table", csrf, game="W1-2", north_south=str(b))
    assert status == 200 and f"{t.teams[b].name} North-South" in said
    sheet, version = night_store.sheet()
    assert sheet.rules.target == 8 and sheet.event.startswith("Tournament W1-2: ")
    # not won yet: refused, nothing entered
    status, said = _post(host, "/tournament/sheet", csrf)
    assert status == 409 and "the sheet shows no winner yet" in said
    while night_store.sheet()[0].winner is None:  # North-South takes every trick
        r = host.post("/sheet/add", data={"csrf": csrf, "version": str(version), "bidder": "N",
                                          "bid": "3", "trump": "H", "mode": "partner",
                                          "defense": "play", "tricks": "6"}, headers=JSON)
        assert r.status_code == 200, r.text
        version += 1
    totals = night_store.sheet()[0].totals
    assert totals["NS"] >= 8 > totals["EW"]
    assert "Enter W1-2's result from the sheet" in _text(host, "tournament-host")
    status, said = _post(host, "/tournament/sheet", csrf)
    # scores in the game's order of its teams: North-South (b) is its second team
    scores = (totals["EW"], totals["NS"])
    assert status == 200, said
    assert f"{t.teams[b].name} won ({scores[0]} to {scores[1]})" in said
    after = night_store.tournament()
    assert isinstance(after, Bracket)
    assert after.game("W1-2").winner == b and after.game("W1-2").scores == scores
    # the note is gone with the game entered; a second press is refused
    assert _post(host, "/tournament/sheet", csrf)[0] == 409


def test_a_restarted_server_shows_the_same_tournament(tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite"
    store = NightStore(path)
    app = create_app(store, NightConfig(BASE, "t"))
    host, csrf = host_client(app, store)
    phone, _ = player_client(app, store, "Player 3")
    _room(app, store, 1)
    assert _post(host, "/tournament/start", csrf, how="entered", format="progressive",
                 rounds="3", minutes="30", teams="Player 3 & Ann, Bo & Cy, Di & Ed, Flo & Gil"
                 )[0] == 200
    assert _post(host, "/tournament/clock", csrf)[0] == 200
    assert _post(host, "/tournament/result", csrf, game="R1-T2", winner="3", score_a="11",
                 score_b="19")[0] == 200
    before = {p: _text(c, p) for c, p in ((host, "tournament-host"), (phone, "tournament-phone"),
                                          (host, "projector"))}
    # as after kill -9: the old store is not closed; a new server opens the file
    store2 = NightStore(path)
    app2 = create_app(store2, NightConfig(BASE, "t"))
    host2, _ = host_client(app2, store2)
    phone2 = TestClient(app2, base_url=BASE, cookies=phone.cookies)
    after = {p: _text(c, p) for c, p in ((host2, "tournament-host"),
                                         (phone2, "tournament-phone"), (host2, "projector"))}
    strip = re.compile(r"\d+:\d\d")  # the clock runs on
    assert {k: strip.sub("", v) for k, v in after.items()} == \
        {k: strip.sub("", v) for k, v in before.items()}
    assert "Table 1 against Bo & Cy" in after["tournament-phone"]
    assert re.search(r"Round 1 of 3 (29|30):\d\d", after["projector"])
    store2.close()
    store.close()


def test_a_quiz_question_has_the_projector_then_the_tournament_comes_back(
        night_app: Any, night_store: NightStore) -> None:
    host, csrf = host_client(night_app, night_store)
    _room(night_app, night_store, 4)
    assert _post(host, "/tournament/start", csrf, how="draw", players="", seed="1")[0] == 200
    assert "Next tables" in _text(host, "projector")
    assert host.post("/quiz/ask", data={"csrf": csrf, "kind": "bowers", "level": "easy",
                                        "preset": "standard", "timer": "0"},
                     headers=JSON).status_code == 200
    assert "Next tables" not in _text(host, "projector")  # the open question has it
    assert _post(host, "/quiz/close", csrf)[0] == 200
    shown = host.get("/part/projector").text
    assert "The answer:" in shown and "data-redraw-in" in shown  # the answer, for a while
    con = sqlite3.connect(night_store.path)  # the answer was shown long enough ago
    con.execute("UPDATE questions SET closed = closed - 3600")
    con.commit()
    con.close()
    assert "Next tables" in _text(host, "projector")
