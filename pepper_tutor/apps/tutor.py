"""The terminal tutor: a menu of lessons with progress, and lessons run one step at a time.

Cards are drawn in colour with suit symbols (``--ascii`` for letters). Answers accept any card
notation (``JD``, ``j♦``, ``10h``); the words ``hint``, ``reveal``, ``back``, ``skip`` and
``quit`` work at every prompt. Bad input gets a message and the question again.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.calls import Bid, Trump
from ..engine.seats import Seat
from ..render.terminal import card_text, cards_text, make_console
from ..rulebook.feedback import AnswerError, Feedback
from ..teaching.lessons import Lesson, all_lessons, find_lesson
from ..teaching.progress import ProgressStore
from ..teaching.session import LessonSession
from ..teaching.steps import ExplainStep, Step

__all__ = ["run_tutor", "render_step", "render_feedback", "Tutor"]

HELP = "Type your answer, or: hint · rule · reveal · back · skip · quit"
InputFn = Callable[[str], str]


def _trump_line(trump: Trump | None) -> Text:
    if trump is None:
        return Text()
    if trump is Trump.NT:
        return Text("No trump this hand.", style="bold")
    return Text(f"Trumps: {trump.word} {trump.display}", style="bold")


def render_step(step: Step, ascii: bool = False) -> Panel:
    """The situation and the question, as a rich panel."""
    s = step.situation()
    body = Text()

    def line(label: str, value: Text | str) -> None:
        body.append(f"{label:>9}  ", style="dim")
        body.append_text(value if isinstance(value, Text) else Text(value))
        body.append("\n")

    if isinstance(step, ExplainStep) and step.text:
        body.append(step.text + "\n\n")
    trump = s.get("trump")
    if isinstance(trump, Trump):
        body.append_text(_trump_line(trump))
        body.append("\n")
    if s.get("trick"):
        seats = s.get("seats") or ()
        trick = Text()
        for i, card in enumerate(s["trick"]):
            trick.append("  " if i else "")
            if i < len(seats):
                trick.append(f"{seats[i]}:", style="dim")
            trick.append_text(card_text(card, ascii))
        line("trick", trick)
    if s.get("after"):
        line("then", cards_text(s["after"], ascii))
    if s.get("cards"):
        line("cards", cards_text(s["cards"], ascii))
    if s.get("hand"):
        line("your hand", cards_text(s["hand"], ascii))
    if "auction" in s:
        calls = [f"{Seat((s['dealer'] + 1 + i) % 4)} {c.display}"
                 for i, c in enumerate(s["auction"])]
        line("dealer", str(s["dealer"]))
        line("auction", ", ".join(calls) or "(you speak first)")
        line("you are", Seat(s["seat"]).word)
    if isinstance(s.get("bid"), Bid):
        line("bid", s["bid"].display + (f" by {s['bidder'].word}" if s.get("bidder") else ""))
    if s.get("tricks"):
        line("tricks", ", ".join(f"{side} {n}" for side, n in s["tricks"].items()))
    if s.get("defense"):
        line("defence", str(s["defense"]))
    if s.get("role"):
        line("you are", "the bidder" if s["role"] == "bidder" else "the partner")
    if step.prompt:
        body.append("\n" + step.prompt, style="bold cyan")
    options = [o.label for o in step.options() if not o.is_card]
    if options:
        body.append("\nChoices: " + ", ".join(options), style="dim")
    return Panel(body, title=f"[bold]{step.kind}[/]", title_align="left")


_FEEDBACK_STYLES = {"headline": "bold", "verdict": "", "consequence": "bold",
                   "answer": "bold", "why": "", "more": "", "rules": "dim"}


def render_feedback(fb: Feedback, ascii: bool = False, full: bool = False) -> Group:
    """The verdict panel, then any rule quoted in full under it (dim, apart: the panel stays
    short). ``full``: every fact and every rule (the ``rule`` command)."""
    del ascii
    style = "green" if fb.correct else ("yellow" if fb.revealed else "red")
    body = Text()
    quotes = []
    for kind, text in fb.parts(full):
        if kind == "quote":
            rid, _, words = text.partition(": ")
            quotes.append(Text(f"{rid}  ", style="dim bold").append(words, style="dim italic"))
            continue
        line_style = f"bold {style}" if kind == "headline" else _FEEDBACK_STYLES[kind]
        body.append(("• " if kind == "more" else "") + text + "\n", style=line_style)
    body.rstrip()
    return Group(Panel(body, border_style=style), *quotes)


class Tutor:
    """One terminal session: reads lines with ``input_fn``, prints to ``console``."""

    def __init__(self, store: ProgressStore, console: Console, input_fn: InputFn = input,
                 ascii: bool = False):
        self.store = store
        self.console = console
        self.input = input_fn
        self.ascii = ascii

    def ask(self, prompt: str) -> str | None:
        try:
            return self.input(prompt)
        except EOFError:
            return None

    def menu(self) -> int:
        lessons = all_lessons()
        while True:
            table = Table(title="pepper-tutor lessons")
            for col in ("#", "lesson", "title", "progress"):
                table.add_column(col)
            for i, item in enumerate(lessons, 1):
                done, total = LessonSession(item, self.store).progress()
                mark = " ✓" if done == total and total else ""
                table.add_row(str(i), item.id, item.title, f"{done}/{total}{mark}")
            self.console.print(table)
            choice = self.ask("Lesson number or id (q to quit): ")
            if choice is None or choice.strip().lower() in ("q", "quit", "exit"):
                return 0
            picked = choice.strip()
            lesson: Lesson | None = None
            if picked.isdigit() and 1 <= int(picked) <= len(lessons):
                lesson = lessons[int(picked) - 1]
            else:
                lesson = next((x for x in lessons if x.id == picked), None)
            if lesson is None:
                self.console.print(f"There is no lesson {picked!r}.", style="red")
                continue
            if not self.run_lesson(lesson):
                return 0

    def run_lesson(self, lesson: Lesson) -> bool:
        """Run until the lesson ends (True) or the learner quits (False)."""
        session = LessonSession(lesson, self.store)
        if session.finished:
            session.restart()
        self.console.print(Panel(Text(lesson.summary or lesson.title),
                                 title=f"[bold]{lesson.title}[/]"))
        while not session.finished:
            step = session.step
            assert step is not None
            done, total = session.progress()
            where = f"step {session.position + 1} of {len(session.queue)}"
            where += " (a step you missed, once more)" if session.is_review else ""
            self.console.print(Text(f"{lesson.title} · {where} · solved {done}/{total}",
                                    style="dim"))
            self.console.print(render_step(step, self.ascii))
            outcome = self.run_step(session, step)
            if outcome == "quit":
                self.console.print("Progress saved. Come back any time.", style="dim")
                return False
        done, total = session.progress()
        mistakes = sum(session.mistakes.values())
        self.console.print(Panel(Text(f"Lesson finished: {done} of {total} solved, "
                                      f"{mistakes} mistake{'s' if mistakes != 1 else ''} on the "
                                      "way.", style="bold green")))
        if self.store.warning:
            self.console.print(self.store.warning, style="yellow")
        return True

    def run_step(self, session: LessonSession, step: Step) -> str:
        if not step.answerable:
            reply = self.ask("Press Enter to go on (b: back, q: quit) ")
            if reply is None or reply.strip().lower() in ("q", "quit"):
                return "quit"
            if reply.strip().lower() in ("b", "back"):
                session.back()
            else:
                session.next()
            return "moved"
        while True:
            reply = self.ask("> ")
            if reply is None:
                return "quit"
            word = reply.strip().lower()
            if word in ("q", "quit", "exit"):
                return "quit"
            if word in ("h", "hint"):
                level, text = session.hint()
                self.console.print(Panel(Text(text), title=f"hint {level} of "
                                                           f"{session.hint_total}",
                                         border_style="cyan"))
                continue
            if word in ("rule", "rules", "why", "more"):
                self.console.print(Panel(Text(session.rule_text(), style="italic"),
                                         title="the rule", border_style="dim"))
                continue
            if word in ("r", "reveal", "?"):
                self.console.print(render_feedback(session.reveal(), self.ascii))
                return self.wait_next(session)
            if word in ("b", "back"):
                session.back()
                return "moved"
            if word in ("s", "skip"):
                session.reveal()
                session.next()
                return "moved"
            if not word:
                self.console.print(HELP, style="dim")
                continue
            try:
                fb = session.answer(reply)
            except AnswerError as err:
                self.console.print(f"I could not read that: {err}.", style="yellow")
                self.console.print(HELP, style="dim")
                continue
            self.console.print(render_feedback(fb, self.ascii))
            if fb.correct or fb.revealed:
                return self.wait_next(session)
            self.console.print("Try again, or type hint.", style="dim")

    def wait_next(self, session: LessonSession) -> str:
        reply = self.ask("Press Enter for the next step (q: quit) ")
        session.next()
        if reply is None or reply.strip().lower() in ("q", "quit"):
            return "quit"
        return "moved"


def run_quiz(kind: str, seed: int | None = None, count: int | None = None,
             ascii: bool = False, console: Console | None = None,
             input_fn: InputFn = input) -> int:
    """Ask generated questions until ``count`` are done or the learner types quit."""
    from ..teaching.quiz import JUDGEMENT_KINDS, QuizSession

    console = console or make_console(ascii)
    judgement = kind in JUDGEMENT_KINDS
    if judgement:
        console.print(Text("Dealing a position the analysis can judge clearly...", style="dim"))
    quiz = QuizSession(kind, seed)
    tutor = Tutor(ProgressStore(None), console, input_fn, ascii)
    console.print(Text(f"Quiz: {kind}. Type your answer; hint for a nudge; rule for the rule "
                       "in full; q to stop.", style="bold"))
    while count is None or quiz.asked <= count:
        step = quiz.question
        assert step is not None
        console.print(render_step(step, ascii))
        if judgement and (count is None or quiz.asked < count):
            quiz.prefetch()  # the next position is screened while this one is answered
        while True:
            reply = tutor.ask("> ")
            if reply is None or reply.strip().lower() in ("q", "quit", "exit"):
                console.print(Text(quiz.score_text, style="bold"))
                return 0
            if reply.strip().lower() in ("h", "hint"):
                console.print(Text(step.hints()[0], style="cyan"))
                continue
            if reply.strip().lower() in ("rule", "rules", "why", "more"):
                console.print(Panel(Text(step.hints()[1], style="italic"), title="the rule",
                                    border_style="dim"))
                continue
            try:
                fb = quiz.answer(reply)
            except AnswerError as err:
                console.print(f"I could not read that: {err}.", style="yellow")
                continue
            break
        console.print(render_feedback(fb, ascii))
        console.print(Text(quiz.score_text, style="dim"))
        if count is not None and quiz.asked >= count:
            break
        quiz.next_question()
    console.print(Text(f"Done. {quiz.score_text}", style="bold"))
    return 0


def run_tutor(name: str | None, learner: str | None = None, ascii: bool = False,
              console: Console | None = None, input_fn: InputFn = input) -> int:
    store = ProgressStore(learner)
    console = console or make_console(ascii)
    if store.warning:
        console.print(store.warning, style="yellow")
    tutor = Tutor(store, console, input_fn, ascii)
    if name is None:
        return tutor.menu()
    tutor.run_lesson(find_lesson(name))
    return 0

