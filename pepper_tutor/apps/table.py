"""The practice table in the terminal: ``pepper-tutor play``.

Before every decision the table is drawn again: the match score against the target, the
contract, the trick on the table, the tricks won and your cards in colour. Type a card
(``JH``, ``j♥``, ``10h``), a call (``pass``, ``4``, ``LP``), a trump (``hearts``, ``NT``),
``exchange`` / ``partner`` or ``play`` / ``surrender``; or one of the words:

- ``hint``: the coach suggests the decision in front of you, with its reason (that decision
  is then not graded);
- ``coach``: the coach's word on your last decision (always shown with ``--coach``);
- ``undo``: take your last decision back;
- ``replay N``: go back to your decision N of this hand, same cards, and choose again;
- ``review``: the worst decisions of the hand, then every trick;
- ``help``: what each word does; ``quit``: stop (the match is kept, and offered to resume the
  next time you play).

The four seats sit around the trick: North at the top, South at the bottom, West on the left
and East on the right, each with its card in the trick, your partner and the opponents marked,
and the seat whose turn it is.

``--auto`` seats computer players everywhere and plays unattended, writing each hand's
record with the coach's grades for ``--seat``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..analysis.grading import GRADING_SAMPLES, Grade
from ..analysis.reasons import figures_meaning
from ..engine.calls import Mode, Trump
from ..engine.cards import Card
from ..engine.ranking import sort_by_rank
from ..engine.seats import Seat
from ..engine.state import Action, Phase
from ..render.terminal import card_text, make_console, plain, strip_controls
from ..rulebook.book import rule_tag
from ..rulebook.verdict import Verdict, action_text
from ..teaching.practice.coach import CoachVerdict, Hint
from ..teaching.practice.table import Decision, PracticeTable, Review, SeatView, phase_prompt
from ..teaching.questions.commands import Command, read_command

__all__ = ["run_play", "run_auto", "TableApp", "GRADE_STYLE", "HELP_TEXT"]

InputFn = Callable[[str], str]
HELP = ("Type your choice, or: hint · coach · undo · replay N · review · help · quit")
#: The same for a table with no taking back (the daily deal).
HELP_NO_UNDO = "Type your choice, or: hint · coach · review · help · quit"
#: ``help``: each word and what it does.
HELP_TEXT = (
    "What you can type:\n"
    "  a card            JH, j♥ or 10h: play it (or discard it, or send it, in the exchange)\n"
    "  a call            pass, 4, 5, 6, LP (little pepper) or BP (big pepper)\n"
    "  a trump           hearts, spades, diamonds, clubs or NT, when you have won the auction\n"
    "  exchange/partner  play alone with an exchange of cards, or play with your partner\n"
    "  play/surrender    as a defender: play the hand out, or give it up\n"
    "  hint              the coach suggests the decision in front of you and says why;\n"
    "                    a decision you asked a hint for is not graded\n"
    "  coach             the coach's grade of your last decision, with the reason and\n"
    "                    what its figures mean\n"
    "  undo              take back your last decision and choose again\n"
    "  replay N          go back to your decision N of this hand, same cards\n"
    "  review            the worst decisions of this hand, then every trick\n"
    "  help              this list\n"
    "  quit              stop: the match is kept, and you can resume it next time")
HELP_TEXT_NO_UNDO = "\n".join(line for line in HELP_TEXT.splitlines()
                              if not line.startswith(("  undo", "  replay")))
# The table's commands; a bare letter is read as one only where it is no legal decision
# (``h`` may name hearts as trump, ``c`` clubs), and ``:h`` is always the command.
TABLE_COMMANDS = (Command("quit", ("quit", "exit"), ("q",)),
                  Command("help", ("help",), ("?",)),
                  Command("hint", ("hint",), ("h",)),
                  Command("undo", ("undo", "take back", "takeback"), ("u",)),
                  Command("coach", ("coach",), ("c",)),
                  Command("review", ("review",), ("r",)))
GRADE_STYLE = {Grade.BEST: "bold green", Grade.GOOD: "green", Grade.INACCURACY: "yellow",
               Grade.MISTAKE: "bold dark_orange", Grade.BLUNDER: "bold red"}


def _action(action: Action, ascii: bool) -> Text:
    if isinstance(action, Card):
        return card_text(action, ascii)
    if isinstance(action, Mode):
        return Text(str(action))  # the word to type: exchange or partner
    return Text(action_text(action))


class TableApp:
    """One terminal session at the practice table."""

    help_line = HELP
    help_text = HELP_TEXT

    def __init__(self, table: PracticeTable, console: Console, input_fn: InputFn = input,
                 ascii: bool = False) -> None:
        self.table = table
        self.console = console
        self.input = input_fn
        self.ascii = ascii
        self.unsaved = 0  # hands whose record could not be written where --save asked
        self._meaning_said = False  # what the coach's figures mean: said once, then asked

    # ---- drawing ----------------------------------------------------------------------------

    def score_line(self) -> Text:
        t = self.table
        totals = t.match.totals
        parts = []
        for side, points in totals.items():
            mark = " (you)" if side == t.learner_side else ""
            parts.append(f"{side}{mark} {points}")
        return Text(f"Hand {t.hand_number} · match to {t.rules.target}: " + ", ".join(parts),
                    style="bold")

    def board(self) -> Panel:
        t, s = self.table, self.table.state
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", justify="right")
        grid.add_column()
        grid.add_row("dealer", t.player_name(s.dealer))
        calls = Text()
        for i, (seat, bid) in enumerate(s.calls):
            calls.append(", " if i else "")
            calls.append(f"{seat} {bid.display}")
        grid.add_row("auction", calls if s.calls else Text("(nobody has spoken yet)"))
        if s.trump is not None:
            trump = Text(f"{t.contract_text()} · trumps: ")
            trump.append(s.trump.word + ("" if s.trump is Trump.NT else
                                          f" {s.trump.display if not self.ascii else ''}"),
                         style="bold red" if s.trump in (Trump.H, Trump.D) else "bold")
            grid.add_row("contract", trump)
        else:  # the contract is always on the board: the high bid so far, while it is open
            grid.add_row("contract", Text(f"{t.contract_text()} so far, trumps not named yet"
                                          if s.bidder is not None else
                                          "none yet (the auction is on)"))
        exchange = t.exchange_text()
        if exchange:
            grid.add_row("exchange", Text(exchange))
        if s.sitting_out is not None:
            grid.add_row("sits out", t.player_name(s.sitting_out))
        number = min(len(s.tricks) + 1, 6) if s.phase is Phase.PLAY and s.current_trick \
            else len(s.tricks) or 1
        grid.add_row("", self.seats(f"trick {number}" if s.phase is Phase.PLAY or s.tricks
                                    else "the table"))
        if s.phase is Phase.PLAY or s.tricks:
            if s.tricks:
                last = s.tricks[-1]
                grid.add_row("last trick", Text(f"{t.player_name(last.winner)} won it with "
                                                f"the ").append_text(
                    card_text(last.cards[last.winning_index], self.ascii)))
            won = ", ".join(f"{side} {n}" for side, n in s.tricks_won().items())
            grid.add_row("tricks", won)
        hand = sort_by_rank(s.hand(t.seat), s.trump if s.trump is not None else Trump.NT)
        cards = Text()
        for i, card in enumerate(hand):
            cards.append(" " if i else "")
            cards.append_text(card_text(card, self.ascii))
        grid.add_row("your hand" if not t.auto else f"{t.seat.word}'s hand", cards)
        return Panel(grid, title=self.score_line(), title_align="left")

    def seat_cell(self, view: SeatView) -> Text:
        """One seat: its name and side, its card in the trick, and what it is doing."""
        t = self.table
        role = {"you": "", "partner": "", "opponent": " · opponent"}.get(view.role, "")
        cell = Text(view.name + role, style="bold" if view.role in ("you", "partner") else "")
        cell.append("\n")
        if view.card is not None:
            cell.append_text(card_text(view.card, self.ascii))
            if view.won:
                cell.append(" won", style="bold")
        elif view.out:
            cell.append("(sits out)", style="dim")
        else:
            cell.append("·" if not self.ascii else "-", style="dim")
        tags = [w for w, on in (("dealer", view.dealer), ("bidder", view.bidder)) if on]
        if view.to_act:
            tags.append("your turn" if view.seat == t.seat and not t.auto else "to act")
        cell.append("\n" + (", ".join(tags) if tags else ""),
                    style="bold cyan" if view.to_act else "dim")
        return cell

    def seats(self, middle: str) -> Table:
        """The four seats around the trick: North at the top, South at the bottom, West on
        the left, East on the right."""
        by_seat = {v.seat: v for v in self.table.seats_view()}
        grid = Table.grid(padding=(0, 3))
        for _ in range(3):
            grid.add_column(justify="center", min_width=18)

        def cell(seat: Seat) -> Text:
            return self.seat_cell(by_seat[seat]) if seat in by_seat else Text("")

        grid.add_row(Text(""), cell(Seat.N), Text(""))
        grid.add_row(cell(Seat.W), Text(f"\n[ {middle} ]", style="dim"), cell(Seat.E))
        grid.add_row(Text(""), cell(Seat.S), Text(""))
        return grid

    def show_verdict(self, verdict: Verdict) -> None:
        body = Text("Not allowed. ", style="bold red")
        body.append(strip_controls(" ".join(verdict.facts)))  # may quote what was typed
        for rule in verdict.rules:
            body.append("\n" + rule_tag(rule.id), style="dim")
            body.append(rule.text, style="dim italic")
        if verdict.alternatives:
            body.append("\nYou may: ")
            for i, a in enumerate(verdict.alternatives):
                body.append(", " if i else "")
                body.append_text(_action(a, self.ascii))
        self.console.print(Panel(body, border_style="red"))

    def show_coach(self, coach: CoachVerdict, title: str = "Coach", asked: bool = False
                   ) -> None:
        """The grade, and the reason unless it is the best; what the figures mean the first
        time and when ``asked`` (the coach command)."""
        style = GRADE_STYLE[coach.grade]
        body = Text(coach.headline, style=style)
        if coach.grade is not Grade.BEST and not coach.forced:
            body.append("\n" + coach.reason)
            self._meaning(body, coach.samples, asked)
        self.console.print(Panel(body, title=title, title_align="left",
                                 border_style=style.split()[-1]))

    def show_hint(self, hint: Hint) -> None:
        body = Text(hint.text)
        if not hint.forced:
            self._meaning(body, hint.samples, False)
        self.console.print(Panel(body, title="Hint (this decision will not be graded)",
                                 title_align="left", border_style="cyan"))

    def _meaning(self, body: Text, deals: int, asked: bool) -> None:
        """What the coach's figures mean, said once a session, then when asked."""
        if asked or not self._meaning_said:
            body.append("\n" + figures_meaning(deals), style="dim")
            self._meaning_said = True

    def show_moves(self, moves: Sequence[Decision]) -> None:
        """Say what the computer players did, and who won each trick as it ends."""
        t = self.table
        size = len(t.state.active_seats)
        first = moves[0] if moves else None
        if first is not None and first.phase is Phase.PLAY:
            self.trick_news(first.where[0] - 1)
        else:
            self.trick_news()
        for d in moves:
            line = Text(f"{t.player_name(d.seat)}: ", style="dim")
            line.append_text(self.move_text(d))
            self.console.print(line)
            if d.phase is Phase.PLAY and d.where[1] == size:
                self.trick_news(d.where[0])
        self.trick_news()

    def move_text(self, d: Decision) -> Text:
        """A computer player's action as the table hears it, the card in colour."""
        if d.phase is Phase.PLAY:
            return Text("plays ").append_text(_action(d.action, self.ascii))
        return Text(d.words)

    def trick_news(self, upto: int | None = None) -> None:
        """Say who won the tricks finished since the last time (up to trick ``upto``)."""
        s = self.table.state
        last = len(s.tricks) if upto is None else min(upto, len(s.tricks))
        while self._told < last:
            trick = s.tricks[self._told]
            self._told += 1
            line = Text(f"Trick {trick.number}: {self.table.player_name(trick.winner)} "
                        "won with the ", style="bold")
            line.append_text(card_text(trick.cards[trick.winning_index], self.ascii))
            self.console.print(line)

    def show_review(self, review: Review) -> None:
        t = self.table
        body: list[Text | Table] = [Text(t.result_text(), style="bold"),
                                    Text(review.summary)]
        if review.worst:
            body.append(Text("Your costliest decisions:", style="bold"))
            for d in review.worst:
                assert d.coach is not None
                n = t.learner_decisions.index(d) + 1 if d in t.learner_decisions else 0
                head = Text(f"{n}. " if n else "• ")
                head.append(f"{d.kind}: ", style="dim")
                head.append_text(_action(d.action, self.ascii))
                head.append(f" — {d.coach.headline}", style=GRADE_STYLE[d.coach.grade])
                body.append(head)
                body.append(Text("   " + d.coach.reason))
        if review.tricks:
            table = Table(title="Every trick", show_lines=False)
            for col in ("#", "cards (in order)", "won by"):
                table.add_column(col)
            graded = {d.where: d for d in t.decisions if d.phase is Phase.PLAY and d.coach}
            for trick in review.tricks:
                cards = Text()
                for i, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
                    cards.append("  " if i else "")
                    cards.append(f"{seat} ", style="dim")
                    cards.append_text(card_text(card, self.ascii))
                    g = graded.get((trick.number, i + 1))
                    if g is not None and g.coach is not None and g.coach.grade.glyph:
                        cards.append(g.coach.grade.glyph, style=GRADE_STYLE[g.coach.grade])
                won = Text(f"{trick.winner} ").append_text(
                    card_text(trick.cards[trick.winning_index], self.ascii))
                table.add_row(str(trick.number), cards, won)
            body.append(table)
        if t.learner_decisions:
            lines = Text("Your decisions: ")
            for i, d in enumerate(t.learner_decisions, 1):
                lines.append(", " if i > 1 else "")
                lines.append(f"{i} ")
                lines.append_text(_action(d.action, self.ascii))
                if d.coach is not None and d.coach.grade.glyph:
                    lines.append(d.coach.grade.glyph, style=GRADE_STYLE[d.coach.grade])
            body.append(lines)
        self.console.print(Panel(Group(*body), title="After the hand", title_align="left"))

    # ---- the loop -----------------------------------------------------------------------------

    def ask(self, prompt: str) -> str | None:
        try:
            return self.input(prompt)
        except EOFError:
            return None

    def run(self) -> int:
        """Play until the learner quits: exit status 0, or 1 when a hand's record could not
        be saved where ``--save`` asked (a warning that means nothing was saved is not a
        success; the hands still count in the history)."""
        try:
            status = self._run()
            return 1 if status == 0 and self.unsaved else status
        finally:
            t = self.table
            t.close()
            if t.history_news:
                self.console.print(t.history_news, style="yellow", markup=False)

    def _run(self) -> int:
        t = self.table
        if t.warning:
            self.console.print(plain(t.warning, style="yellow"))  # it names the home path
        self._told = 0
        self.console.print(Text(
            f"Practice table: {t.rules.name} rules, you sit {t.seat.word}"
            + (f" with your partner {t.seat.partner.word}" if t.rules.partnerships else "")
            + f"; computer players at {t.level} level. Coach "
            + ("on: every decision is graded." if t.coach else "on request: type coach."),
            style="bold"))
        if t.resumed is not None:
            self.console.print(Text(f"Resumed your match: {t.resumed.summary}.",
                                    style="bold"))
        self.console.print(self.help_line, style="dim")
        self.show_moves(t.decisions)
        while True:
            if t.hand_over:
                if not self.after_hand():
                    return 0
                if t.match.over:
                    self.match_over()
                    return 0
                continue
            self.console.print(self.board())
            choices = Text("Choices: ", style="dim")
            for i, a in enumerate(t.legal()):
                choices.append(", " if i else "")
                choices.append_text(_action(a, self.ascii))
            self.console.print(choices)
            reply = self.ask(f"{phase_prompt(t.state)}> ")
            if reply is None:
                return 0
            if not self.command(reply.strip()):
                return 0

    def match_over(self) -> None:
        t = self.table
        self.console.print(self.score_line())
        winner = t.match.winner
        self.console.print(Text(
            f"The match is over: {winner} won"
            + (" — well played!" if winner == t.learner_side else "."),
            style="bold green" if winner == t.learner_side else "bold"))

    def command(self, reply: str) -> bool:
        """Handle one line; False to quit."""
        t = self.table
        word = reply.lower()
        command = read_command(reply, TABLE_COMMANDS, self._is_decision)
        if command == "quit":
            self.console.print("Goodbye. Hands you finished are saved in your history"
                               + (", and this match is kept: play again to resume it."
                                  if t.history is not None else "."), style="dim")
            return False
        if word == "":
            self.console.print(self.help_line, style="dim")
            return True
        if command == "help":
            self.console.print(self.help_text, markup=False, highlight=False)
            return True
        if command == "hint":
            with self.console.status("The coach is weighing the options…"):
                hint = t.hint()
            self.show_hint(hint)
            return True
        if command == "undo":
            try:
                d = t.take_back()
            except ValueError as err:
                self.console.print(plain(err, style="yellow"))
                return True
            self._told = len(t.state.tricks)
            self.console.print(Text("Taken back: ").append_text(_action(d.action, self.ascii))
                               .append(". Choose again."), style="cyan")
            return True
        if word.startswith("replay"):
            return self.replay(word)
        if command == "coach":
            with self.console.status("The coach is weighing the options…"):
                coach = t.grade_last()
            mine = t.learner_decisions
            if coach is None and mine and mine[-1].hinted:
                self.console.print("You asked for a hint on that decision, so it is not "
                                   "graded.", style="yellow")
            elif coach is None:
                self.console.print("You have not made a decision this hand yet: type hint "
                                   "for the coach's suggestion on this one.", style="yellow")
            else:
                self.show_coach(coach, asked=True)
            return True
        if command == "review":
            self.show_review(t.review())
            return True
        if t.coach:
            with self.console.status("The coach is weighing the options…"):
                result = t.act(reply)
        else:
            result = t.act(reply)
        verdict = result.verdict
        if not verdict.legal and len(verdict.facts) == 2 and \
                "is not what this step needs" in verdict.facts[0]:
            self.console.print(f"I could not read {reply!r}: {verdict.facts[1]}.",
                               style="yellow", markup=False)
            self.console.print(self.help_line, style="dim")
            return True
        if not verdict.legal:
            self.show_verdict(verdict)
            return True
        if result.coach is not None and not result.coach.forced:
            self.show_coach(result.coach)
        elif t.learner_decisions and t.learner_decisions[-1].hinted and t.coach:
            self.console.print("Not graded: you asked for a hint on this decision.",
                               style="dim")
        self.show_moves(result.replies)
        return True

    def _is_decision(self, reply: str) -> bool:
        """Whether ``reply`` reads as a legal decision now: then it is one, not a command."""
        t = self.table
        return not t.hand_over and t.learner_to_act and t.state.check(reply).legal

    def replay(self, word: str) -> bool:
        t = self.table
        parts = word.split()
        if len(parts) != 2 or not parts[1].isdigit():
            self.console.print("Say which of your decisions: replay 1, replay 2, ...",
                               style="yellow")
            return True
        try:
            d = t.replay_from(int(parts[1]))
        except ValueError as err:
            self.console.print(plain(err, style="yellow"))
            return True
        self._told = len(t.state.tricks)
        self.console.print(Text(f"Back to your decision {parts[1]} (you chose ")
                           .append_text(_action(d.action, self.ascii))
                           .append("): same cards, choose again."), style="cyan")
        return True

    def told_save(self) -> None:
        """Where the hand's record went, or why it went nowhere (paths shown as written)."""
        t = self.table
        if t.last_saved is not None:
            self.console.print(plain(f"Saved: {t.last_saved}", style="dim"))
        elif t.save_problem:
            self.unsaved += 1
            self.console.print(plain(f"Warning: {t.save_problem}.", style="yellow"))

    def after_hand(self) -> bool:
        """The review, then: next hand, replay, undo or quit. False to quit."""
        t = self.table
        self.trick_news()
        self.show_review(t.review())
        while True:
            reply = self.ask("Enter: next hand · replay N · undo · quit> ")
            if reply is None:
                return False
            word = reply.strip().lower()
            if word in ("q", "quit", "exit"):
                t.finish_hand()
                self.told_save()
                if t.history_news is None:
                    self.console.print("This hand is saved in your history. Goodbye.",
                                       style="dim")
                return False
            if word in ("u", "undo"):
                self.command("undo")
                return True
            if word.startswith("replay"):
                self.replay(word)
                if not t.hand_over:
                    return True
                continue
            if word in ("r", "review"):
                self.show_review(t.review())
                continue
            if word in ("c", "coach"):
                self.command("coach")
                continue
            result = t.next_hand()
            self._told = 0
            if t.history_news:
                self.console.print(t.history_news, style="yellow", markup=False)
                t.history_news = None  # said
            self.console.print(Text(f"Hand {result.number} counted: ")
                               .append(", ".join(f"{s} {p}" for s, p in result.totals.items())))
            self.told_save()
            if not t.match.over:
                self.show_moves(t.decisions)
            return True


def show_history(console: Console, last: int = 10) -> int:
    """Your figures at the practice table: points lost per decision by kind, and the last
    hands one by one (is the number falling?)."""
    from ..teaching.practice.history import TableHistory

    history = TableHistory()
    figures = history.figures()
    if not figures:
        console.print("No hands in your history yet: play one with pepper-tutor play.")
        return 0
    table = Table(title="Your decisions at the practice table")
    for col in ("kind", "decisions", "points lost per decision", "errors"):
        table.add_column(col, justify="left" if col == "kind" else "right")
    for f in figures:
        table.add_row(plain(f.kind), str(f.decisions), f"{f.points_lost:.2f}", str(f.errors))
    console.print(table)
    hands = Table(title=f"The last {last} hands, oldest first")
    for col in ("played", "contract", "your points", "decisions", "points lost per decision"):
        hands.add_column(col)
    for h in history.hands(last):
        hands.add_row(plain(h.played_at.replace("T", " ")[:16]), plain(h.contract),
                      f"{h.points:+d}",
                      str(h.decisions), f"{h.points_lost:.2f}")
    console.print(hands)
    return 0


def run_play(level: str = "club", rules: str = "standard", seat: str = "S",
             coach: bool = False, seed: int | None = None, samples: int | None = None,
             save: str | None = None, ascii: bool = False, console: Console | None = None,
             input_fn: InputFn = input, new: bool = False, alone: str = "analysis") -> int:
    from ..teaching.practice.history import HistoryUnreadable, TableHistory, history_path

    console = console or make_console(ascii)
    save_dir = Path(save) if save else history_path().parent / "table-hands"
    history: TableHistory | bool = True
    with contextlib.suppress(HistoryUnreadable):  # the table says so when it tries again
        history = TableHistory()
    saved = None if new or not isinstance(history, TableHistory) else \
        history.unfinished_match(rules)
    if saved is not None:
        console.print(Text(f"You have a match in progress ({saved.summary}; {saved.level} "
                           f"level, you sat {Seat.parse(saved.seat).word}).", style="bold"))
        try:
            answer = input_fn("Resume it? [Y/n] ").strip().lower()
        except EOFError:
            return 0
        if answer in ("", "y", "yes", "resume"):
            try:
                table = PracticeTable.resume(saved, coach=coach, seed=seed,
                                             coach_samples=samples or GRADING_SAMPLES,
                                             save_dir=save_dir, history=history, alone=alone)
            except ValueError as err:  # a saved hand this version cannot replay: start anew
                console.print(plain(f"That match cannot be resumed ({err}); a new match "
                                    "starts.", style="yellow"))
            else:
                return TableApp(table, console, input_fn, ascii).run()
    from ..teaching.learner.store import LearnerStore

    # The learner's store: a judgement the coach finds clearly worse becomes a review card.
    table = PracticeTable(rules, seat, level, coach=coach, seed=seed,
                          coach_samples=samples or GRADING_SAMPLES, save_dir=save_dir,
                          history=history, alone=alone, store=LearnerStore())
    return TableApp(table, console, input_fn, ascii).run()


MAX_AUTO_HANDS = 10_000
"""The most hands :func:`run_auto` plays (the command line's ``MAX_HANDS``: a test keeps
them equal; commands imports this module, so it is not imported from there)."""


def run_auto(level: str = "club", rules: str = "standard", seat: str = "S",
             seed: int | None = None, hands: int = 1, save: str | None = None,
             samples: int | None = None, coach: bool = True, console: Console | None = None,
             alone: str = "analysis") -> int:
    """Computer players everywhere; each hand's record (with the grades of ``seat``'s
    decisions) written to ``save``."""
    if type(hands) is not int or not 1 <= hands <= MAX_AUTO_HANDS:
        raise ValueError(f"--hands must be from 1 to {MAX_AUTO_HANDS:,}, not {hands!r}"[:120])
    console = console or make_console()
    unsaved = 0  # hands whose record could not be written: the run then ends with status 1
    table = PracticeTable(rules, seat, level, coach=coach, seed=seed,
                          coach_samples=samples or GRADING_SAMPLES,
                          save_dir=Path(save) if save else None, history=False, auto=True,
                          alone=alone)
    for i in range(hands):
        table.play_bots()
        line = f"Hand {table.hand_number}: {table.result_text()}"
        graded = [d for d in table.decisions if d.coach is not None and not d.coach.forced]
        errors = sum(1 for d in graded if d.coach and d.coach.grade.is_error)
        if coach:
            line += (f" {table.seat.word}: {len(graded)} decisions graded, {errors} "
                         f"error{'s' if errors != 1 else ''}.")
        result = table.finish_hand()
        if table.last_saved is not None:
            line += f" Saved {table.last_saved}"
        elif table.save_problem:
            unsaved += 1
            line += f" Warning: {table.save_problem}."
        console.print(strip_controls(line), markup=False, highlight=False, soft_wrap=True)
        if table.match.over:
            console.print(f"The match is over: {table.match.winner} won "
                          f"({', '.join(f'{s} {p}' for s, p in result.totals.items())}).",
                          markup=False)
            break
        if i + 1 < hands:
            table.new_hand()
    if unsaved:
        console.print(f"{unsaved} hand{'s were' if unsaved != 1 else ' was'} not saved.",
                      markup=False, highlight=False)
        return 1
    return 0
