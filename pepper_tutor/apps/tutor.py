"""The terminal tutor: a menu of lessons with progress, and lessons run one step at a time.

Cards are drawn in colour with suit symbols (``--ascii`` for letters). Answers accept any card
notation (``JD``, ``j♦``, ``10h``); the words ``hint``, ``reveal``, ``back``, ``skip`` and
``quit`` work at every prompt, where they answer nothing (``S`` is South where South played;
``:s`` always skips). Bad input gets a message and the question again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.calls import Trump
from ..engine.seats import Seat
from ..render.terminal import card_text, cards_text, make_console, plain, strip_controls
from ..rulebook.feedback import AnswerError, Feedback
from ..teaching.learner.store import LearnerStore
from ..teaching.lessons.files import Lesson, all_lessons, find_lesson
from ..teaching.lessons.session import LessonSession
from ..teaching.lessons.step_guide import StepGuide
from ..teaching.questions.commands import (
    HINT,
    QUIT,
    REVEAL,
    RULE,
    SKIP,
    STEP_COMMANDS,
    Command,
    answers,
    colon_note,
    command_help,
    read_command,
)
from ..teaching.questions.steps import ExplainStep, Step

__all__ = ["run_tutor", "run_quiz", "run_review", "run_progress", "render_step",
           "render_feedback", "Tutor"]

# Quizzes and reviews have no step before, so no "back".
ASK_COMMANDS = (HINT, RULE, REVEAL, SKIP, QUIT)
# A lesson step that carries a whole hand (its guide:) also steps through that hand.
GUIDE = Command("guide", ("guide",), ("g",), says="step through the whole hand")
GUIDE_WORDS = ("g", "guide", ":g", ":guide")
QUIT_WORDS = ("q", "quit", "exit")
GO_ON_WORDS = ("", "n", "next", "go", "go on", "continue")  # what "Press Enter" takes as Enter
InputFn = Callable[[str], str]


def _trump_line(trump: Trump | None) -> Text:
    if trump is None:
        return Text()
    if trump is Trump.NT:
        return Text("No trump this hand.", style="bold")
    return Text(f"Trumps: {trump.word} {trump.display}", style="bold")


def render_step(step: Step[Any], ascii: bool = False) -> Panel:
    """The situation and the question, as a rich panel."""
    s = step.situation()
    body = Text()

    def line(label: str, value: Text | str) -> None:
        body.append(f"{label:>9}  ", style="dim")
        body.append_text(value if isinstance(value, Text) else plain(value))
        body.append("\n")

    if isinstance(step, ExplainStep) and step.text:
        body.append(strip_controls(step.text) + "\n\n")
    if s.trump is not None:
        body.append_text(_trump_line(s.trump))
        body.append("\n")
    if s.trick:
        trick = Text()
        for i, card in enumerate(s.trick):
            trick.append("  " if i else "")
            if i < len(s.seats):
                trick.append(f"{s.seats[i]}:", style="dim")
            trick.append_text(card_text(card, ascii))
        line("trick", trick)
    if s.after:
        line("then", cards_text(s.after, ascii))
    if s.cards:
        line("cards", cards_text(s.cards, ascii))
    if s.hand:
        line("your hand", cards_text(s.hand, ascii))
    if s.auction is not None and s.dealer is not None:
        dealer = s.dealer
        calls = [f"{Seat((dealer + 1 + i) % 4)} {c.display}" for i, c in enumerate(s.auction)]
        line("dealer", str(dealer))
        line("auction", ", ".join(calls) or "(you speak first)")
        if s.seat is not None:
            line("you are", s.seat.word)
    if s.bid is not None:
        line("bid", s.bid.display + (f" by {s.bidder.word}" if s.bidder is not None else ""))
    if s.tricks:
        line("tricks", ", ".join(f"{side} {n}" for side, n in s.tricks))
    if s.defense is not None:
        line("defence", str(s.defense))
    if s.role:
        line("you are", "the bidder" if s.role == "bidder" else "the partner")
    if step.prompt:
        body.append("\n" + strip_controls(step.prompt), style="bold cyan")
    options = [o.label for o in step.options() if not o.is_card]
    if options:
        body.append("\nChoices: " + strip_controls(", ".join(options)), style="dim")
    example = step.example() if step.answerable else ""
    if example:
        body.append("\n" + strip_controls(example) + ".", style="dim")
    return Panel(body, title=Text(step.title or step.kind, style="bold"), title_align="left")


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
            quotes.append(plain(f"{rid}  ", style="dim bold").append(strip_controls(words),
                                                                      style="dim italic"))
            continue
        line_style = f"bold {style}" if kind == "headline" else _FEEDBACK_STYLES[kind]
        body.append(("• " if kind == "more" else "") + strip_controls(text) + "\n",
                    style=line_style)  # feedback may quote the answer typed
    body.rstrip()
    return Group(Panel(body, border_style=style), *quotes)


class Tutor:
    """One terminal session: reads lines with ``input_fn``, prints to ``console``."""

    def __init__(self, store: LearnerStore, console: Console, input_fn: InputFn = input,
                 ascii: bool = False):
        self.store = store
        self.helped: set[str] = set()  # help lines shown: each is said once a session
        self.helped_lists: set[tuple[Command, ...]] = set()
        self.console = console
        self.input = input_fn
        self.ascii = ascii
        self.said = 0  # store warnings already shown
        self.paused = False  # a lesson was left part-way from the menu: say goodbye at the end
        self.failed_before = store.failed_saves

    def report_store(self) -> bool:
        """Show every store warning not shown yet; True when nothing went wrong since."""
        new = self.store.warnings[self.said:]
        self.said = len(self.store.warnings)
        for text in new:
            self.console.print(plain(f"Warning: {text}.", style="bold yellow"))  # home paths
        return not new and self.store.ok

    def goodbye(self) -> None:
        """"Progress saved" only when every save of this session went through (answers kept
        while the file was busy or full are tried once more now)."""
        if self.store.unsaved:
            self.store.flush()
        self.report_store()
        if (self.store.ok and self.store.failed_saves == self.failed_before
                and not self.store.unsaved):
            self.console.print("Progress saved. Come back any time.", style="dim")
        else:
            self.console.print("Your progress was NOT saved (see the warning above).",
                               style="bold yellow")

    def ask(self, prompt: str) -> str | None:
        try:
            return self.input(prompt)
        except EOFError:
            return None

    def menu(self) -> int:
        from ..teaching.learner.review_cards import ReviewDeck

        lessons = all_lessons()
        while True:
            table = Table(title=plain(f"pepper-tutor lessons · {self.store.learner}"))
            for col in ("#", "lesson", "title", "progress", "builds on"):
                table.add_column(col)
            for i, item in enumerate(lessons, 1):
                session = LessonSession(item, self.store)
                done, total = session.progress()
                if session.finished_runs:
                    shown = f"finished ✓ ({len(session.ever_solved)}/{total})"
                else:
                    shown = f"{done}/{total}"
                table.add_row(str(i), plain(item.id), plain(item.title), shown,
                              plain(", ".join(item.requires)))
            self.console.print(table)
            due = len(ReviewDeck(self.store).due())
            self.console.print(f"r: review ({due} due) · p: progress · q: quit", style="dim")
            self.report_store()
            choice = self.ask("Lesson number or id (r, p, q): ")
            if choice is None or choice.strip().lower() in ("q", "quit", "exit"):
                if self.paused:
                    self.goodbye()
                return 0
            picked = choice.strip()
            if picked.lower() in ("r", "review"):
                if not self.review():
                    return 0
                continue
            if picked.lower() in ("p", "progress"):
                self.show_progress()
                continue
            lesson: Lesson | None = None
            if picked.isdigit() and 1 <= int(picked) <= len(lessons):
                lesson = lessons[int(picked) - 1]
            else:
                lesson = next((x for x in lessons if x.id == picked), None)
            if lesson is None:
                self.console.print(plain(f"There is no lesson {picked!r}.", style="red"))
                continue
            lesson = self.suggest_first(lesson, lessons)
            # Quitting a lesson pauses it and comes back here: the menu is where a learner
            # picks what to do next (q here leaves the program).
            self.run_lesson(lesson, from_menu=True)

    def suggest_first(self, lesson: Lesson, lessons: list[Lesson],
                      seen: frozenset[str] = frozenset()) -> Lesson:
        """A lesson whose prerequisites are not finished: say so and offer the one it names
        (and, taken, that one's own unfinished prerequisites in turn)."""
        by_id = {x.id: x for x in lessons}
        missing = [by_id[r] for r in lesson.requires
                   if r in by_id and r not in seen
                   and not LessonSession(by_id[r], self.store).finished_runs]
        if not missing:
            return lesson
        offer = missing[0]
        names = ", ".join(f"{m.id} ({m.title})" for m in missing)
        self.console.print(plain(f"{lesson.title} builds on {names}, which you have not "
                                 "finished.", style="yellow"))
        reply = self.ask(strip_controls(f"Start with {offer.id} ({offer.title}) instead? "
                                        "(y/N) "))
        if reply is None or reply.strip().lower() not in ("y", "yes"):
            return lesson
        return self.suggest_first(offer, lessons, seen | {lesson.id})

    def run_lesson(self, lesson: Lesson, from_menu: bool = False) -> bool:
        """Run until the lesson ends (True) or the learner quits (False). ``from_menu``: a
        quit goes back to the menu, so it says the lesson is paused, not goodbye."""
        session = LessonSession(lesson, self.store)
        if session.finished:
            self.console.print(Panel(plain(f"You have finished this lesson: "
                                           f"{session.record_text()}.", style="bold green"),
                                     title=plain(lesson.title, style="bold")))
            reply = self.ask("Replay it? Your record is kept (y/N) ")
            if reply is None or reply.strip().lower() not in ("y", "yes"):
                return True
            session.replay()
        self.console.print(Panel(plain(lesson.summary or lesson.title),
                                 title=plain(lesson.title, style="bold")))
        while not session.finished:
            step = session.step
            assert step is not None
            done, total = session.progress()
            where = f"step {session.position + 1} of {len(session.queue)}"
            where += " (a step you missed, once more)" if session.is_review else ""
            self.console.print(plain(f"{lesson.title} · {where} · {session.progress_text()}",
                                     style="dim"))
            self.console.print(render_step(step, self.ascii))
            guide = lesson.guide_of(step)
            if guide is not None:
                self.show_guide(guide)
            outcome = self.run_step(session, step, guide)
            self.report_store()
            if outcome == "quit":
                if not from_menu:
                    self.goodbye()
                    return False
                self.paused = True
                if self.report_store():
                    self.console.print("Lesson paused: your place is kept. Back to the "
                                       "lessons.", style="dim")
                return False
        done, total = session.progress()
        mistakes = sum(session.mistakes.values())
        replay = " (a replay)" if session.is_replay else ""
        missed = (" The rules you missed come back in review: pepper-tutor review."
                  if mistakes else "")
        self.console.print(Panel(Text(f"Lesson finished{replay}: {done} of {total} solved, "
                                      f"{mistakes} mistake{'s' if mistakes != 1 else ''} on the "
                                      f"way.{missed}", style="bold green")))
        self.report_store()
        return True

    def show_progress(self) -> None:
        from ..teaching.learner.progress import progress_summary

        summary = progress_summary(self.store)
        body = plain("\n".join(summary.lines))
        if summary.due:
            body.append("\nType r at the lesson menu, or run: pepper-tutor review", style="bold")
        self.console.print(Panel(body, title=plain(f"Progress · {self.store.learner}",
                                                   style="bold")))
        self.report_store()

    def review(self, seed: int | None = None) -> bool:
        """The reviews due now, each a fresh position. False when the learner quits."""
        from ..teaching.review.session import ReviewSession

        rs = ReviewSession(self.store, seed)
        if rs.finished:
            self.console.print("No reviews are due. Missed steps and quiz questions come back "
                               "here when they are due.", style="green")
            return True
        self.console.print(Text(f"Review: {len(rs.items)} question"
                                f"{'s' if len(rs.items) != 1 else ''}, each on something you "
                                f"missed, in new cards where they can be dealt. "
                                f"{command_help(ASK_COMMANDS)}", style="bold"))
        self.helped_lists.add(ASK_COMMANDS)  # said just now
        while not rs.finished:
            step, item = rs.question, rs.item
            assert step is not None and item is not None
            self.console.print(plain(rs.header, style="dim"))
            self.console.print(render_step(step, self.ascii))
            while True:
                reply = self.ask("> ")
                command = None if reply is None else \
                    read_command(reply, ASK_COMMANDS, answers(step.parse))
                if reply is None or command == "quit":
                    self.goodbye()
                    return False
                word = reply.strip().lower()
                if command == "hint":
                    self.console.print(plain(step.hints()[0], style="cyan"))
                    continue
                if command == "rule":
                    self.console.print(Panel(plain(step.hints()[1], style="italic"),
                                             title="the rule", border_style="dim"))
                    continue
                if command in ("reveal", "skip"):
                    fb = rs.reveal()
                    break
                if not word:
                    self.console.print(plain(self.step_help(step, ASK_COMMANDS), style="dim"))
                    continue
                try:
                    fb = rs.answer(reply)
                except AnswerError as err:  # the message quotes what was typed
                    self.console.print(plain(f"I could not read that: {err}.", style="yellow"))
                    continue
                break
            self.console.print(render_feedback(fb, self.ascii))
            self.report_store()
            rs.next()
        self.console.print(Text(f"Review done: {rs.right} of {len(rs.items)} right. Right "
                                "answers come back later and later; missed ones soon.",
                                style="bold green"))
        return True

    def step_help(self, step: Step[Any],
                  commands: tuple[Command, ...] = STEP_COMMANDS) -> str:
        """What an empty line or an unreadable answer shows: what to type, and the commands
        the first time in a session (after that the learner has read them); the colon is
        named only on a step where a command's letter would answer it."""
        example = step.example()
        note = colon_note(commands, answers(step.parse))
        fresh_note = note if note and note not in self.helped else ""
        self.helped.add(note)
        if commands in self.helped_lists:
            said = " ".join(x for x in (f"{example}." if example else "", fresh_note) if x)
            return said or "Type your answer, or hint."
        self.helped_lists.add(commands)
        line = command_help(commands)
        said = " ".join(x for x in (f"{example}." if example else "", line, note) if x)
        return said

    def show_guide(self, guide: StepGuide) -> None:
        """The step's whole hand at the moment it is about, and how to step through it."""
        from ..render.guide import lesson_guide, stops_words
        from ..render.guide_terminal import guide_step_panel

        built, at = lesson_guide(guide)
        self.console.print(guide_step_panel(built, at, self.ascii))
        self.console.print("This step comes with a whole hand: type guide (or g) to step "
                           f"through it.{stops_words(guide)}", style="dim")

    def walk_guide(self, guide: StepGuide) -> bool:
        """Step through the whole hand from the moment it opens at, until the learner goes
        back to the question (True) or the input ends (False)."""
        from ..render.guide import lesson_guide
        from ..render.guide_terminal import guide_step_panel

        built, at = lesson_guide(guide)
        last = len(built.steps) - 1
        starts = built.trick_starts()
        # a step that asks shows the hand only up to where its answer could be read off it
        end = "the score" if guide.whole else "where it stops"
        self.console.print(plain("In the hand: Enter the next step, b back, t N trick N, "
                                 f"d the deal, e {end}, q back to the question.",
                                 style="dim"))
        while True:
            reply = self.ask("hand> ")
            word = None if reply is None else " ".join(reply.lower().split())
            if word is None:
                return False
            if word in ("q", "quit", "done", "question"):
                self.console.print("Back to the question.", style="dim")
                return True
            number = word.removeprefix("trick").removeprefix("t").strip()
            if word in GO_ON_WORDS:
                if at == last:
                    self.console.print("That is the end of the hand: b goes back, q back to "
                                       "the question." if guide.whole else "The hand stops here "
                                       "for this question: b goes back, q back to the "
                                       "question.", style="dim")
                    continue
                at += 1
            elif word in ("b", "back"):
                at = max(0, at - 1)
            elif word in ("d", "deal", "start"):
                at = 0
            elif word in ("e", "end", "score"):
                at = last
            elif word.startswith("t") and number.isdigit() and int(number) in starts:
                at = starts[int(number)]
            else:
                tricks = f"1 to {len(starts)}" if starts else "none in this hand"
                self.console.print(plain(f"{(reply or '').strip()!r} is not a choice in the "
                                         f"hand: Enter, b, t N (tricks {tricks}), d, e or q.",
                                         style="yellow"))
                continue
            self.console.print(guide_step_panel(built, at, self.ascii))

    def run_step(self, session: LessonSession, step: Step[Any],
                 guide: StepGuide | None = None) -> str:
        commands = STEP_COMMANDS + ((GUIDE,) if guide is not None else ())
        if not step.answerable:
            while True:
                more = "g: the whole hand, " if guide is not None else ""
                reply = self.ask(f"Press Enter to go on ({more}b: back, q: quit) ")
                word = None if reply is None else reply.strip().lower()
                if word is None or word in QUIT_WORDS:
                    return "quit"
                if guide is not None and word in GUIDE_WORDS:
                    if not self.walk_guide(guide):
                        return "quit"
                    continue
                if word in ("b", "back"):
                    session.back()
                    return "moved"
                if word in GO_ON_WORDS:
                    session.next()
                    return "moved"
                self.console.print(plain(f"{(reply or '').strip()!r} is not a choice here: press "
                                         "Enter to go on, b to go back or q to quit.",
                                         style="yellow"))
        while True:
            reply = self.ask("> ")
            if reply is None:
                return "quit"
            word = reply.strip().lower()
            command = read_command(reply, commands, answers(step.parse))
            if command == "quit":
                return "quit"
            if command == "guide" and guide is not None:
                if not self.walk_guide(guide):
                    return "quit"
                continue
            if command == "hint":
                level, text = session.hint()
                self.console.print(Panel(plain(text), title=f"hint {level} of "
                                                           f"{session.hint_total}",
                                         border_style="cyan"))
                continue
            if command == "rule":
                self.console.print(Panel(plain(session.rule_text(), style="italic"),
                                         title="the rule", border_style="dim"))
                continue
            if command == "reveal":
                self.console.print(render_feedback(session.reveal(), self.ascii))
                return self.wait_next(session)
            if command == "back":
                session.back()
                return "moved"
            if command == "skip":
                session.reveal()
                session.next()
                return "moved"
            if not word:
                self.console.print(plain(self.step_help(step, commands), style="dim"))
                continue
            try:
                fb = session.answer(reply)
            except AnswerError as err:
                self.console.print(plain(f"I could not read that: {err}.", style="yellow"))
                self.console.print(plain(self.step_help(step, commands), style="dim"))
                continue
            self.console.print(render_feedback(fb, self.ascii))
            if fb.correct or fb.revealed:
                return self.wait_next(session)
            self.console.print("Try again, or type hint.", style="dim")

    def wait_next(self, session: LessonSession) -> str:
        """After a right or revealed answer: Enter goes on, ``more`` opens the whole panel
        (every fact, every rule in full), ``rule`` the rules. Anything else is asked again:
        an answer typed twice, or a stray word, must not skip the next step unseen."""
        last = session.status.last
        while True:
            reply = self.ask("Press Enter for the next step (more · q: quit) ")
            word = None if reply is None else reply.strip().lower()
            if word is None or word in QUIT_WORDS or word in GO_ON_WORDS:
                session.next()
                return "quit" if word is None or word in QUIT_WORDS else "moved"
            if word in ("more", "why") and last is not None:
                self.console.print(render_feedback(last, self.ascii, full=True))
            elif word in ("rule", "rules"):
                self.console.print(Panel(Text(session.rule_text(), style="italic"),
                                         title="the rule", border_style="dim"))
            else:
                self.console.print(plain(f"{(reply or '').strip()!r} is not a choice here: press "
                                         "Enter for the next step, type more for the whole "
                                         "explanation, or q to quit.", style="yellow"))


def run_quiz(kind: str, seed: int | None = None, count: int | None = None,
             ascii: bool = False, console: Console | None = None,
             input_fn: InputFn = input, learner: str | None = None) -> int:
    """Ask generated questions until ``count`` are done or the learner types quit. Every
    answer is saved; a miss becomes a review card."""
    from ..engine.rules import get_ruleset
    from ..teaching.drills.quiz import JUDGEMENT_KINDS, QuizSession, met_simple_scoring
    from ..teaching.drills.screened import screened_count

    store = LearnerStore(learner)
    console = console or make_console(ascii)
    judgement = kind in JUDGEMENT_KINDS
    if judgement and not screened_count(kind, get_ruleset()):  # else dealt at once
        console.print(Text("Dealing a position the analysis can judge clearly...", style="dim"))
    quiz = QuizSession(kind, seed, store=store, simple_met=met_simple_scoring(store))
    tutor = Tutor(store, console, input_fn, ascii)
    tutor.report_store()
    console.print(Text(f"Quiz: {kind}. {command_help(ASK_COMMANDS)}", style="bold"))
    while count is None or quiz.asked <= count:
        step = quiz.question
        assert step is not None
        console.print(render_step(step, ascii))
        if judgement and (count is None or quiz.asked < count):
            quiz.prefetch()  # the next position is screened while this one is answered
        while True:
            reply = tutor.ask("> ")
            command = None if reply is None else \
                read_command(reply, ASK_COMMANDS, answers(step.parse))
            if reply is None or command == "quit":
                console.print(Text(quiz.score_text, style="bold"))
                tutor.goodbye()
                return kept(store)
            word = reply.strip().lower()
            if command == "hint":
                console.print(plain(step.hints()[0], style="cyan"))
                continue
            if command == "rule":
                console.print(Panel(plain(step.hints()[1], style="italic"), title="the rule",
                                    border_style="dim"))
                continue
            if command in ("reveal", "skip"):
                fb = quiz.reveal()
                break
            if not word:
                console.print(plain(step.example() or "Type your answer.", style="dim"))
                continue
            try:
                fb = quiz.answer(reply)
            except AnswerError as err:
                console.print(plain(f"I could not read that: {err}.", style="yellow"))
                continue
            break
        console.print(render_feedback(fb, ascii))
        console.print(Text(quiz.score_text, style="dim"))
        tutor.report_store()
        if count is not None and quiz.asked >= count:
            break
        quiz.next_question()
    console.print(Text(f"Done. {quiz.score_text}", style="bold"))
    tutor.goodbye()
    return kept(store)


def run_review(learner: str | None = None, ascii: bool = False, console: Console | None = None,
               input_fn: InputFn = input, seed: int | None = None) -> int:
    store = LearnerStore(learner)
    tutor = Tutor(store, console or make_console(ascii), input_fn, ascii)
    tutor.report_store()
    if tutor.review(seed) and tutor.store.answers("review"):
        tutor.goodbye()
    tutor.report_store()  # what reading the cards found (a card that cannot be read)
    return kept(store)


def run_progress(learner: str | None = None, ascii: bool = False,
                 console: Console | None = None) -> int:
    store = LearnerStore(learner)
    tutor = Tutor(store, console or make_console(ascii), input, ascii)
    tutor.show_progress()
    return kept(store)


def run_tutor(name: str | None, learner: str | None = None, ascii: bool = False,
              console: Console | None = None, input_fn: InputFn = input) -> int:
    store = LearnerStore(learner)
    console = console or make_console(ascii)
    tutor = Tutor(store, console, input_fn, ascii)
    tutor.report_store()
    if name is None:
        return tutor.menu() or kept(store)
    tutor.run_lesson(find_lesson(name))
    return kept(store)


def kept(store: LearnerStore) -> int:
    """A command's status: 0, or 1 when the store warned that the learner's progress is not
    kept (a refused or read-only file, a change that could not be saved), so a script sees
    that nothing was saved."""
    return 0 if store.keeps_progress else 1

