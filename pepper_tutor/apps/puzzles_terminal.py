"""The puzzles in the terminal: ``pepper-tutor puzzles [--theme T] [--streak] [--review]``.

Each puzzle is shown from the seat to act's view with its question; the learner types an
answer (a card such as ``JD`` or ``J♦``, a call, a trump, ``exchange`` or ``partner``,
``play`` or ``surrender``). A wrong answer may be tried again (only the first attempt is
rated) or ``a`` shows the answer and a layout where the tempting answer loses; ``n`` skips
to the next puzzle, ``q`` (or an empty line at the end of input) quits.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from ..render.plain import strip_controls
from ..render.puzzles import dashboard_table, feedback_panel, puzzle_panel
from ..render.terminal import make_console
from ..teaching.puzzles.bank import bank_puzzles
from ..teaching.puzzles.session import PuzzleSession
from ..teaching.puzzles.store import PuzzleStore
from ..teaching.puzzles.themes import theme_title

__all__ = ["run_puzzles", "PuzzleApp"]

InputFn = Callable[[str], str]


class PuzzleApp:
    """One terminal puzzle session."""

    def __init__(self, session: PuzzleSession, console: Console, input_fn: InputFn = input,
                 ascii: bool = False) -> None:
        self.session = session
        self.console = console
        self.input = input_fn
        self.ascii = ascii

    def ask(self) -> str | None:
        try:
            return self.input("answer (a: show the answer, n: next, q: quit)> ").strip()
        except EOFError:
            self.console.print()  # the end of input: the summary starts on its own line
            return None

    def run(self, count: int | None = None) -> int:
        shown = 0
        solved = 0
        while count is None or shown < count:
            puzzle = self.session.next()
            if puzzle is None:
                self.console.print(self._none_left())
                break
            shown += 1
            self.console.print(puzzle_panel(puzzle, shown, self.session.store.rating().rating,
                                            self.ascii))
            result = self._one()
            if result is None:
                break
            solved += result
            if self.session.over:
                break
        self.console.print(Text(f"{solved} of {shown} solved. Puzzle rating now "
                                f"{self.session.store.rating()}.", style="bold"))
        return 0

    def _one(self) -> int | None:
        """Answers to the current puzzle until right, revealed or skipped: 1 if solved at
        the first attempt, 0 otherwise; None to quit."""
        first = True
        while True:
            reply = self.ask()
            if reply is None or reply.lower() in ("q", "quit"):
                return None
            if reply.lower() in ("n", "next"):
                return 0
            if reply.lower() in ("a", "answer"):
                p = self.session.current
                assert p is not None
                from ..render.puzzles import reveal_facts

                for line in reveal_facts(p):
                    self.console.print(Text(line))
                return 0
            try:
                answer = self.session.answer(reply)
            except (ValueError, KeyError) as err:
                self.console.print(Text(strip_controls(str(err)), style="yellow"))
                continue
            # The streak's end shows the answer; a miss that may be retried shows the
            # layout the tempting answer loses in, without naming the best one.
            self.console.print(feedback_panel(answer, reveal=answer.over))
            if answer.correct:
                return 1 if first else 0
            first = False
            if self.session.over:
                return 0

    def _none_left(self) -> Text:
        mode = self.session.mode
        if mode == "review":
            return Text("Nothing is due for review: missed puzzles come back here when their "
                        "theme is due.")
        if mode == "streak" and self.session.over:
            return Text("The streak is over.")
        return Text("You have tried every puzzle" + (
            f" of the theme “{theme_title(self.session.theme)}”" if self.session.theme else "")
            + ".")


def _check_options(args: argparse.Namespace) -> None:
    """Refuse options the way of running asked for ignores (``--themes`` lists the
    themes; ``--dashboard`` shows the learner's figures) and two session modes at once."""
    from .commands import refuse_ignored

    session = ("theme", "streak", "review", "count", "seed")
    if args.themes:
        refuse_ignored("puzzles --themes", args, (*session, "dashboard", "learner"), set())
    elif args.dashboard:
        refuse_ignored("puzzles --dashboard", args, session, set())
    elif args.streak and args.review:
        raise ValueError("puzzles: give --streak or --review, not both")


def run_puzzles(args: argparse.Namespace) -> int:
    _check_options(args)
    console = make_console(getattr(args, "ascii", False))
    puzzles = bank_puzzles()
    if not puzzles:
        console.print("No puzzles are installed: make builds them (make puzzles).")
        return 0
    if args.themes:
        counts: dict[str, int] = {}
        for p in puzzles:
            counts[p.theme] = counts.get(p.theme, 0) + 1
        # the title first: --theme takes it (or the short name after it)
        for theme, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            console.print(f"{theme_title(theme):32} {n:5}  {theme}")
        return 0
    store = PuzzleStore(args.learner)
    if store.refused is not None:  # exit 2, naming the file: nothing to play on
        raise store.refused
    if store.warning:
        console.print(Text(store.warning, style="yellow"))
    if args.dashboard:
        results = store.themes()
        if not results:
            console.print("No puzzles tried yet: pepper-tutor puzzles.")
        else:
            console.print(dashboard_table(results))
        return 0
    mode = "streak" if args.streak else "review" if args.review else "rated"
    session = PuzzleSession(store, puzzles, theme=args.theme, mode=mode,
                            rng=random.Random(args.seed))
    try:
        return PuzzleApp(session, console, ascii=getattr(args, "ascii", False)).run(args.count)
    finally:
        store.close()
