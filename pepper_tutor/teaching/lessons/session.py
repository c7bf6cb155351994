"""The lesson runtime every front end shares: the order of steps, tries, hints, progress.

A :class:`LessonSession` presents the steps in order, judges answers, climbs the hint ladder
(a nudge, the rule, the answer), reveals the answer after :attr:`MAX_TRIES` wrong tries, and
brings every step that was answered wrongly back once at the end of the lesson. Progress is
saved after every change (one transaction in the learner store), so a learner can stop at any
point and resume.

Looking never loses anything: a finished lesson opens as finished; :meth:`replay` starts it
again as a replay, keeping the record (runs finished, replays, every step ever solved). Every
answer is kept in the store, and every missed step becomes a review card for the rule it tests.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...rulebook.book import get_rule, rule_ids_shown
from ...rulebook.feedback import Feedback
from ..learner.attempts import Attempt, LessonProgress
from ..learner.review_cards import missed_rules, question_rules
from ..learner.store import LearnerStore
from ..questions.steps import Step
from .files import Lesson

__all__ = ["LessonSession", "StepStatus"]


@dataclass
class StepStatus:
    """How the learner is doing on the step in front of them."""

    tries: int = 0
    hints: int = 0
    solved: bool = False
    revealed: bool = False
    last: Feedback | None = None


class LessonSession:
    MAX_TRIES = 2

    def __init__(self, lesson: Lesson, store: LearnerStore | None = None):
        self.lesson = lesson
        self.store = store
        saved = (store.lesson(lesson.id) if store else None) or LessonProgress()
        ids = [s.id for s in lesson.steps]
        self.finished_runs: int = saved.finished_runs
        self.replays: int = saved.replays
        self.ever_solved: set[str] = set(saved.solved) & set(ids)
        self.run: int = saved.run
        if list(saved.queue[:len(ids)]) != ids or any(q not in ids for q in saved.queue):
            # the lesson changed since the progress was saved (or it is new): start over
            saved = LessonProgress()
        self.queue: list[str] = list(saved.queue) or list(ids)
        self.position: int = min(saved.position, len(self.queue))
        self.done: set[str] = set(saved.done) & set(ids)
        self.mistakes: dict[str, int] = {k: v for k, v in saved.mistakes.items() if k in ids}
        self.requeued: set[str] = set(saved.requeued) & set(ids)
        self.status = StepStatus()
        self.quoted: set[str] = set()  # rules quoted in full so far: each is quoted once
        self._settle_status()

    # ---- where we are ----------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.position >= len(self.queue)

    @property
    def step(self) -> Step[Any] | None:
        return None if self.finished else self.lesson.step(self.queue[self.position])

    @property
    def is_review(self) -> bool:
        """True when the current step is one coming back after a wrong answer."""
        return self.position >= len(self.lesson.steps)

    @property
    def can_advance(self) -> bool:
        step = self.step
        return step is not None and (not step.answerable or self.status.solved
                                     or self.status.revealed)

    @property
    def is_replay(self) -> bool:
        return self.replays > 0 and self.run > 0

    def progress(self) -> tuple[int, int]:
        """(answerable steps solved, answerable steps in the lesson)."""
        answerable = [s.id for s in self.lesson.answerable_steps]
        return len(self.done & set(answerable)), len(answerable)

    @property
    def missed_to_go(self) -> int:
        """Missed steps still queued to come back (the current one included)."""
        return len(self.queue) - max(self.position, len(self.lesson.steps))

    def progress_text(self) -> str:
        """"solved 10 of 10 · 3 missed steps to try again": a full count does not mean the
        lesson is over while missed steps are still to come back."""
        done, total = self.progress()
        left = self.missed_to_go
        return f"solved {done} of {total}" + (
            f" · {left} missed step{'s' if left != 1 else ''} to try again" if left else "")

    # ---- what the learner does -------------------------------------------------------------

    def answer(self, raw: Any) -> Feedback:
        """Judge an answer to the current step. Raises :class:`AnswerError` for unreadable
        input (nothing is counted then)."""
        step = self._need_step()
        if not step.answerable:
            raise ValueError("this step only explains; go on to the next one")
        st = self.status
        # a miss that leaves a try says what is wrong and nudges; the answer waits for the
        # last try (or Show answer), so the second try tests the rule, not reading
        last_try = st.tries + 1 >= self.MAX_TRIES or st.revealed or st.solved
        feedback = step.judge(raw) if last_try else step.first_miss(raw)
        first = st.tries == 0 and not st.solved and not st.revealed  # what counts
        if feedback.correct:
            st.solved = True
            if not st.revealed:
                self.done.add(step.id)
                self.ever_solved.add(step.id)
        else:
            st.tries += 1
            self.mistakes[step.id] = self.mistakes.get(step.id, 0) + 1
            self._requeue(step)
            if st.tries >= self.MAX_TRIES and not st.revealed:
                st.revealed = True
                feedback = replace(feedback, revealed=True)
        feedback = self._quote_once(feedback)
        st.last = feedback
        if self.store is not None:
            item = f"{self.lesson.id}/{step.id}"
            rules = question_rules(step) if feedback.correct else missed_rules(step, feedback)
            # Only the first answer to a step counts; every answer saves the progress.
            self.store.record(Attempt(
                "lesson", item, feedback.correct, rules, counts=first,
                missed=rules if first and not feedback.correct else (),
                origin=f"lesson {item}", lesson=self.lesson.id, progress=self.saved_state(),
                # a review never deals these cards again as "a new position"
                seen=(step.identity, step.situation().key) if first else ()))
        return feedback

    @property
    def hint_total(self) -> int:
        """Rungs on the current step's ladder: 3, or 4 with the analysis before the answer."""
        step = self.step
        return 0 if step is None else 3 + (1 if step.has_analysis else 0)

    def hint(self) -> tuple[int, str]:
        """The next rung of the hint ladder: (1, nudge), (2, the rule), for judgement steps
        (3, what the analysis would do), and last the answer."""
        step = self._need_step()
        nudge, rule, answer = step.hints()
        total = self.hint_total
        self.status.hints = level = min(self.status.hints + 1, total)
        if level == total:
            self.status.revealed = True
            self._requeue(step)
            self._save()
            return level, answer
        if level == 3:
            return level, step.analysis_hint()
        return level, (nudge, rule)[level - 1]

    def reveal(self) -> Feedback:
        step = self._need_step()
        self.status.revealed = True
        self._requeue(step)
        self._save()
        self.status.last = feedback = self._quote_once(step.reveal())
        return feedback

    def rule_text(self) -> str:
        """The rules behind the last feedback in full (the learner asked: ``rule``), or the
        rules the current step rests on when there is no feedback yet."""
        last = self.status.last
        if last is not None and last.rule_ids:
            quotes = [t for k, t in last.parts(full=True) if k == "quote"]
            if last.held_back:  # a first miss: these rules' texts name the answer
                held = ", ".join(last.held_back) if rule_ids_shown() else "The rest"
                quotes.append(f"{held}: opens with the answer (the next miss, or reveal).")
            return "\n".join(quotes)
        step = self.step
        cited = step.cited if step is not None else ()
        # before an answer, the text alone: a title could name the answer
        return "\n".join((f"{rid}: " if rule_ids_shown() else "") + get_rule(rid).text
                          for rid in cited) or "No rule is needed here."

    def next(self) -> None:
        if self.finished:
            return
        self.position += 1
        if self.finished:
            self.finished_runs += 1
        self.status = StepStatus()
        self._settle_status()
        self._save()

    def back(self) -> None:
        self.position = max(0, self.position - 1)
        self.status = StepStatus()
        self._settle_status()
        self._save()

    def replay(self) -> None:
        """Go through the lesson again. The record (runs finished, replays, steps ever solved)
        stays; this run's solved steps and mistakes start empty."""
        self.replays += 1
        self.run += 1
        self.queue = [s.id for s in self.lesson.steps]
        self.position = 0
        self.done.clear()
        self.mistakes.clear()
        self.requeued.clear()
        self.status = StepStatus()
        self._save()

    def record_text(self) -> str:
        """"finished 2 times (1 replay), 8 of 8 steps solved at some time"."""
        total = len(self.lesson.answerable_steps)
        solved = len(self.ever_solved & {s.id for s in self.lesson.answerable_steps})
        runs = f"finished {self.finished_runs} time{'s' if self.finished_runs != 1 else ''}"
        if self.replays:
            runs += f" ({self.replays} replay{'s' if self.replays != 1 else ''})"
        return f"{runs}; {solved} of {total} steps solved"

    # ---- internals ---------------------------------------------------------------------------

    def _settle_status(self) -> None:
        """A step already solved in this run stays solved when the learner comes back to it
        (Back never locks Next, and a page reloaded shows it solved, with why)."""
        step = self.step
        if step is not None and step.id in self.done and not self.is_review:
            self.status.solved = True
            facts, rule_ids = step.explain_right(None) if step.answerable else ((), ())
            self.status.last = Feedback(True, f"Solved: {step.answer_text()}.", facts,
                                        rule_ids, None, step.note, step.answer_text())

    def _need_step(self) -> Step[Any]:
        step = self.step
        if step is None:
            raise ValueError("the lesson is finished")
        return step

    def _quote_once(self, feedback: Feedback) -> Feedback:
        """Quote a rule in full the first time a right answer rests on it in the lesson; after
        that its id is enough (the learner can ask for the text). A wrong answer's panel
        gives the rule as a label only: the verdict and the answer are what the learner needs
        then, and a rule quoted in full would bury them (the ``rule`` command opens it)."""
        if not feedback.correct:
            return replace(feedback, quote_ids=())
        new = tuple(r for r in feedback.rule_ids if r not in self.quoted)
        self.quoted.update(new)
        return replace(feedback, quote_ids=new)

    def _requeue(self, step: Step[Any]) -> None:
        if step.id not in self.requeued and not self.is_review:
            self.requeued.add(step.id)
            self.queue.append(step.id)

    def saved_state(self) -> LessonProgress:
        """The progress as the store keeps it."""
        return LessonProgress(
            queue=tuple(self.queue), position=self.position, done=frozenset(self.done),
            mistakes=dict(self.mistakes), requeued=frozenset(self.requeued),
            finished=self.finished, run=self.run, finished_runs=self.finished_runs,
            replays=self.replays, solved=frozenset(self.ever_solved))

    def _save(self) -> bool:
        if self.store is None:
            return True
        return self.store.save_progress(self.lesson.id, self.saved_state())
