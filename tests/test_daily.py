"""The daily deal: the same deals and computer play for a date, results against par on a
board, at the terminal table."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from pepper_tutor.apps.cli import main
from pepper_tutor.apps.daily import DailyApp
from pepper_tutor.engine.seats import Seat
from pepper_tutor.teaching.practice.daily import (
    DAILY_DEALS,
    DailyTable,
    daily_bots,
    daily_par,
    daily_state,
    net_points,
)
from pepper_tutor.teaching.practice.daily_board import DailyBoard
from pepper_tutor.teaching.practice.players import bot_decide

DAY = date(2026, 12, 2)
ROOT = Path(__file__).resolve().parents[1]


def _deals(day: date) -> list[dict[Seat, list[str]]]:
    return [{s: [str(c) for c in daily_state(day, i).dealt(s)] for s in Seat}
            for i in range(DAILY_DEALS)]


def test_a_date_gives_the_same_deals_on_every_computer_and_another_date_others() -> None:
    here = _deals(DAY)
    assert here == _deals(DAY)
    assert _deals(date(2026, 12, 3)) != here
    assert len({tuple(d[Seat.N]) for d in here}) == DAILY_DEALS  # four different deals
    assert [daily_state(DAY, i).dealer for i in range(DAILY_DEALS)] == [
        Seat.W, Seat.N, Seat.E, Seat.S]
    # another process, with its own hash seed: the same cards
    code = ("from datetime import date; from pepper_tutor.teaching.practice.daily import "
            "daily_state; print([str(c) for i in range(4) for c in "
            "daily_state(date(2026, 12, 2), i).dealt('N')])")
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.strip()
    assert out == str([c for d in here for c in d[Seat.N]])


def _play(table: DailyTable, choose: Any) -> None:
    while not table.match.over:
        while not table.hand_over:
            table.act(choose(table))
        table.next_hand()


def test_the_same_decisions_meet_the_same_computer_play() -> None:
    runs = []
    for _ in range(2):
        table = DailyTable(DAY)
        histories = []
        while not table.match.over:
            while not table.hand_over:
                table.act(table.legal()[-1])
            histories.append([str(a) for a in table.state.history])
            table.next_hand()
        runs.append((histories, table.played))
    assert runs[0] == runs[1]
    assert [i for i, _, _ in runs[0][1]] == list(range(DAILY_DEALS))


def test_par_is_the_computer_players_in_the_learners_seat() -> None:
    par = daily_par(DAY)
    assert par == daily_par(DAY) and len(par) == DAILY_DEALS
    table = DailyTable(DAY)
    mine: dict[int, Any] = {}

    def as_the_computer(t: DailyTable) -> Any:  # the par player of the learner's seat
        bot = mine.setdefault(t.index, daily_bots(DAY, t.index, None)[Seat.S])
        return bot_decide(bot, t.state, Seat.S, {"NS": 0, "EW": 0})

    _play(table, as_the_computer)
    assert [(n, p) for _, n, p in table.played] == [(p, p) for p in par]
    # other decisions: the learner's own result, set against the same par
    other = DailyTable(DAY)
    _play(other, lambda t: t.legal()[0])
    assert [p for _, _, p in other.played] == list(par)
    assert [n for _, n, _ in other.played] != list(par)


def test_net_points_are_the_sides_points_less_the_others() -> None:
    state = daily_state(DAY, 0)
    from pepper_tutor.teaching.practice.daily import play_out

    play_out(state, daily_bots(DAY, 0, None))
    points = state.score.points if state.score else {}
    assert net_points(state, "NS") == points.get("NS", 0) - points.get("EW", 0)
    assert net_points(state, "EW") == -net_points(state, "NS")


def test_a_daily_is_played_as_it_falls_and_a_day_begun_goes_on(tmp_path: Path) -> None:
    table = DailyTable(DAY)
    table.act(table.legal()[0])
    with pytest.raises(ValueError, match="no taking back"):
        table.take_back()
    with pytest.raises(ValueError, match="no taking back"):
        table.replay_from(1)
    later = DailyTable(DAY, start=2)
    assert {s: later.state.dealt(s) for s in Seat} == {
        s: daily_state(DAY, 2).dealt(s) for s in Seat}
    _play(later, lambda t: t.legal()[0])
    assert [i for i, _, _ in later.played] == [2, 3] and later.match.over
    with pytest.raises(ValueError, match="all played"):
        DailyTable(DAY, start=DAILY_DEALS)


def test_the_board_keeps_each_deal_once_and_sums_the_days(tmp_path: Path) -> None:
    board = DailyBoard(tmp_path / "daily.sqlite")
    assert board.days() == [] and board.deals(DAY) == []
    table = DailyTable(DAY, board=board)
    _play(table, lambda t: t.legal()[0])
    rows = board.deals(DAY)
    assert [(r.deal, r.net, r.par) for r in rows] == [(i + 1, n, p) for i, n, p in table.played]
    assert board.add(DAY, 1, 99, 0, "again") is False  # the first result stands
    assert board.deals(DAY)[0].net == table.played[0][1]
    board.add(date(2026, 12, 1), 1, 5, 2, "North 3 in hearts")
    days = board.days()
    assert [d.day for d in days] == ["2026-12-02", "2026-12-01"]
    assert days[0].net == sum(n for _, n, _ in table.played) and days[1].against_par == 3


def test_a_damaged_board_is_set_aside_like_every_store(tmp_path: Path) -> None:
    path = tmp_path / "daily.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    board = DailyBoard(path)
    assert board.add(DAY, 1, 4, 2, "South 4 in spades") is True
    assert board.warning is not None and "damaged" in board.warning
    assert [r.net for r in board.deals(DAY)] == [4]
    assert list(tmp_path.glob("daily.sqlite.damaged-*"))


def test_the_terminal_plays_the_day_and_shows_the_board(tmp_path: Path, monkeypatch: Any,
                                                        capsys: Any) -> None:
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    board = DailyBoard()
    table = DailyTable(DAY, board=board)

    def reply(prompt: str) -> str:
        if prompt.startswith("Enter"):
            return ""  # the next deal
        return str(table.legal()[0])

    out = io.StringIO()
    assert DailyApp(table, Console(file=out, width=160), reply, True).run() == 0
    text = out.getvalue()
    total, par = sum(n for _, n, _ in table.played), sum(p for _, _, p in table.played)
    assert f"your side {total:+d} net points, par {par:+d}" in text
    assert "The daily deal, 2026-12-02" in text and "Your daily deals" in text
    # the daily offers no take-back: its list of commands does not name one
    assert "hint · coach · review" in text and "undo" not in text and "replay N" not in text
    assert len(board.deals(DAY)) == DAILY_DEALS
    # the day is played: the command says so and shows the board, with no table
    assert main(["play", "--daily", "--date", "2026-12-02"]) == 0
    shown = capsys.readouterr().out
    assert "You have played the 2026-12-02 deals" in shown and f"{total - par:+d}" in shown
    assert main(["play", "--daily", "--history"]) == 0
    assert "4 of 4" in capsys.readouterr().out
    assert main(["play", "--date", "2026-12-02"]) == 2
    assert "give --daily too" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--daily", "--date", "2 December"])
    assert "YYYY-MM-DD" in capsys.readouterr().err


def _board_file(path: Path, kind: str) -> None:
    """A daily.sqlite that is not a board: damaged, another program's, a folder, a FIFO, a
    board with a row that is not a result."""
    import sqlite3

    from pepper_tutor.teaching.practice.daily_board import SCHEMA

    if kind == "damaged":
        path.write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    elif kind == "text":
        path.write_text("my notes\n")
    elif kind == "foreign":
        with sqlite3.connect(path) as con:
            con.execute("CREATE TABLE recipes (name TEXT)")
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        with sqlite3.connect(path) as con:
            con.executescript(SCHEMA.replace("net INTEGER NOT NULL", "net INTEGER"))
            con.execute("INSERT INTO deals VALUES ('2026-12-02', 1, ?, 3, 'N 4', 'x')",
                        (None if kind == "null" else "lots",))
        con.close()


@pytest.mark.parametrize("kind", ["damaged", "text", "foreign", "folder", "fifo", "null",
                                  "words"])
def test_the_history_of_a_board_that_is_none_exits_2_naming_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        kind: str) -> None:
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    path = tmp_path / "daily.sqlite"
    _board_file(path, kind)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["play", "--daily", "--history"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pepper-tutor: {path}") or f"board: {path}" in err, err
    assert "internal error" not in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # reading renames nothing


def test_playing_the_daily_on_a_damaged_board_sets_it_aside_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pepper_tutor.apps.daily import run_daily

    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    path = tmp_path / "daily.sqlite"
    _board_file(path, "damaged")
    out = io.StringIO()
    assert run_daily(DAY, console=Console(file=out, width=200), input_fn=lambda _: "quit",
                     board=DailyBoard(path)) == 0
    text = " ".join(out.getvalue().split())  # as read, whatever the lines' width
    assert "your daily board was damaged" in text and "a new one was started" in text
    assert "The daily deal, 2026-12-02" in text  # and the day's deals are dealt
    assert len(list(tmp_path.glob("daily.sqlite.damaged-*"))) == 1
    assert DailyBoard(path).days() == []
