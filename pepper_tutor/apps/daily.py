"""``pepper-tutor play --daily``: the day's deals at the terminal table, and the board.

The table is the practice table's (:class:`~pepper_tutor.apps.table.TableApp`) dealing the
date's deals (:class:`~pepper_tutor.teaching.practice.daily.DailyTable`); each deal's net
points and par go on the board (:class:`~pepper_tutor.teaching.practice.daily_board.DailyBoard`),
shown after the last deal and by ``play --daily --history``.
"""

from __future__ import annotations

from datetime import date

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..render.terminal import make_console, plain
from ..teaching.practice.daily import DAILY_DEALS, DAILY_LEVEL, DailyTable
from ..teaching.practice.daily_board import DailyBoard
from .table import HELP_NO_UNDO, HELP_TEXT_NO_UNDO, InputFn, TableApp

__all__ = ["run_daily", "show_board", "DailyApp"]


def _signed(n: int) -> str:
    return f"{n:+d}"


def show_board(console: Console, board: DailyBoard, day: date | None = None) -> int:
    """The day's deals one by one (when ``day`` has any), then your days against par."""
    if day is not None:
        deals = board.deals(day)
        if deals:
            table = Table(title=f"The daily deal, {day.isoformat()}")
            for col in ("deal", "contract", "your net points", "par", "against par"):
                table.add_column(col, justify="left" if col == "contract" else "right")
            for d in deals:
                table.add_row(str(d.deal), plain(d.contract), _signed(d.net), _signed(d.par),
                              _signed(d.net - d.par))
            console.print(table)
    days = board.days()
    if board.warning:
        console.print(plain(board.warning, style="yellow"))
    if not days:
        console.print("No daily deal played yet: play today's with pepper-tutor play --daily.")
        return 0
    table = Table(title="Your daily deals, the newest first")
    for col in ("day", "deals", "your net points", "par", "against par"):
        table.add_column(col, justify="left" if col == "day" else "right")
    for r in days:
        table.add_row(r.day, f"{r.deals} of {DAILY_DEALS}", _signed(r.net), _signed(r.par),
                      _signed(r.against_par))
    console.print(table)
    return 0


class DailyApp(TableApp):
    """The terminal table for the daily: at the end, the day's result and the board."""

    table: DailyTable
    help_line = HELP_NO_UNDO  # the daily is played as it falls
    help_text = HELP_TEXT_NO_UNDO

    def _totals(self) -> tuple[int, int]:
        done = self.table.results
        return sum(n for _, n, _ in done), sum(p for _, _, p in done)

    def score_line(self) -> Text:
        t = self.table
        net, par = self._totals()
        done = len(t.results)
        return Text(f"Deal {t.index + 1} of {DAILY_DEALS} · "
                    + (f"your net points after {done}: {_signed(net)}, par {_signed(par)}"
                       if done else "the first deal of the day"), style="bold")

    def match_over(self) -> None:
        t = self.table
        net, par = self._totals()
        verdict = ("above par — well played!" if net > par else
                   "level with par." if net == par else "below par.")
        self.console.print(Text(f"The {t.day.isoformat()} deals are played: your side "
                                f"{_signed(net)} net points, par {_signed(par)}: {verdict}",
                                style="bold green" if net > par else "bold"))
        if t.board is not None:
            show_board(self.console, t.board, t.day)


def run_daily(day: date | None = None, coach: bool = False, samples: int = 60,
              save: str | None = None, ascii: bool = False, console: Console | None = None,
              input_fn: InputFn = input, board: DailyBoard | None = None) -> int:
    """Play the date's deals not played yet (today's by default)."""
    from ..teaching.learner.store import LearnerStore

    console = console or make_console(ascii)
    day = day or date.today()
    board = board or DailyBoard()
    if board.path.exists():
        board.open()  # a damaged board is set aside now, not read as one
    if board.warning:
        console.print(plain(board.warning, style="yellow"))
        board.warning = None  # said: the board at the end says only what happens next
    start = len(board.deals(day))
    if start >= DAILY_DEALS:
        console.print(f"You have played the {day.isoformat()} deals: come back tomorrow for "
                      "new ones.")
        return show_board(console, board, day)
    console.print(Text(
        f"The daily deal, {day.isoformat()}: {DAILY_DEALS} deals, the same for everyone, "
        f"against the same {DAILY_LEVEL} players; each deal from 0-0. Your net points are "
        "set against par: the computer players' own result in your seat."
        + (f" You have played {start}: deal {start + 1} is next." if start else ""),
        style="bold"))
    with console.status("Dealing and finding par…"):
        table = DailyTable(day, start=start, board=board, coach=coach, coach_samples=samples,
                           save_dir=save, store=LearnerStore())
    return DailyApp(table, console, input_fn, ascii).run()
