"""The progress view: rules mastered, reviews due, streaks of days, lessons finished and
quiz results, read from the learner store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ...rulebook.book import get_rulebook, rule_ids_shown, rule_label
from .review_cards import ReviewDeck, ReviewItem, aware
from .store import LearnerStore

__all__ = ["Progress", "progress_summary", "MASTERY_RUN"]

MASTERY_RUN = 3  # right answers in a row that make a rule mastered


@dataclass(frozen=True)
class Progress:
    learner: str
    mastered: tuple[str, ...]
    practised: tuple[str, ...]  # rules answered at least once, mastered or not
    rules_total: int
    due: tuple[ReviewItem, ...]
    upcoming: tuple[ReviewItem, ...]
    streak: int  # days in a row with an answer, up to today (or yesterday)
    best_streak: int
    lessons_finished: tuple[str, ...]
    lessons_started: tuple[str, ...]
    quizzes: dict[str, tuple[int, int]]  # kind -> (right, asked)

    @property
    def lines(self) -> list[str]:
        """The view as plain sentences (the terminal and tests read these)."""
        out = [f"Rules mastered: {len(self.mastered)} of {self.rules_total} "
               f"({MASTERY_RUN} right answers in a row, no review pending)."]
        if self.due:
            out.append(f"Reviews due now: {len(self.due)} ("
                       + ", ".join(_named(i) for i in self.due) + ").")
        else:
            nxt = self.upcoming[0].due.astimezone().strftime("%d %b %H:%M") \
                if self.upcoming else None
            out.append("Reviews due now: none" + (f"; the next is due {nxt}." if nxt else "."))
        out.append(f"Streak: {self.streak} day{'s' if self.streak != 1 else ''} "
                   f"(best {self.best_streak}).")
        out.append(f"Lessons finished: {len(self.lessons_finished)}"
                   + (f" ({', '.join(self.lessons_finished)})" if self.lessons_finished
                      else "") + ".")
        for kind, (right, asked) in sorted(self.quizzes.items()):
            out.append(f"Quiz {kind}: {right} of {asked} right.")
        return out


def _streaks(days: set[date], today: date) -> tuple[int, int]:
    best = run = 0
    previous: date | None = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    day = today if today in days else today - timedelta(days=1)
    while day in days:
        current += 1
        day -= timedelta(days=1)
    return current, best


def _named(item: ReviewItem) -> str:
    """A review card as a learner knows it: the rule's or the judgement's title (with its
    id in the rule ids view)."""
    try:
        title = item.title
    except (KeyError, LookupError, ValueError):
        return rule_label(item.rule)
    return f"{title} ({item.rule})" if rule_ids_shown() else title


def progress_summary(store: LearnerStore, at: datetime | None = None) -> Progress:
    now = aware(at)
    answers = store.answers()
    history: dict[str, list[bool]] = {}
    for a in answers:
        for rule in a.rules:
            history.setdefault(rule, []).append(a.correct)
    items = ReviewDeck(store).items()
    due = tuple(i for i in items if i.due <= now)
    # A rule still being (re)learnt after a miss is not mastered, due yet or not.
    due_rules = {i.rule for i in due} | {i.rule for i in items if i.state != "review"}
    # the rules of the game: how pepper-tutor grades play (analysis.*) is no rule a learner
    # practises, though every judgement question rests on it
    book = [r for r in get_rulebook() if not r.id.startswith("analysis.")]
    mastered = tuple(r.id for r in book
                     if len(history.get(r.id, [])) >= MASTERY_RUN
                     and all(history[r.id][-MASTERY_RUN:]) and r.id not in due_rules)
    practised = tuple(r.id for r in book if r.id in history)
    days = {a.at.astimezone().date() for a in answers}
    streak, best = _streaks(days, now.astimezone().date())
    lessons = store.lessons()
    finished = tuple(k for k, v in lessons.items() if v.finished or v.finished_runs)
    quizzes: dict[str, tuple[int, int]] = {}
    for a in answers:
        if a.source == "quiz":
            right, asked = quizzes.get(a.item, (0, 0))
            quizzes[a.item] = (right + a.correct, asked + 1)
    return Progress(store.learner, mastered, practised, len(book), due,
                    tuple(i for i in items if i.due > now), streak, best, finished,
                    tuple(lessons), quizzes)
