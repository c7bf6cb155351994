"""What one answer changes, as values: an :class:`Attempt` and a lesson's :class:`LessonProgress`.

A session (lesson, quiz, review) judges an answer and then describes everything it changes in
one :class:`Attempt`: the answer row kept for streaks and mastery, the review cards it makes,
lapses or rates, and, in a lesson, the lesson's progress after it.
:meth:`~pepper_tutor.teaching.learner.store.LearnerStore.record` writes all of it in one
transaction, so an answer is never kept without its review card, or the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["Attempt", "LessonProgress"]


@dataclass(frozen=True)
class LessonProgress:
    """Where a learner is in one lesson, and the record of every run of it."""

    queue: tuple[str, ...] = ()  # the steps of this run in order, missed ones again at the end
    position: int = 0
    done: frozenset[str] = frozenset()  # steps solved in this run
    mistakes: Mapping[str, int] = field(default_factory=dict)  # step -> wrong answers this run
    requeued: frozenset[str] = frozenset()
    finished: bool = False
    run: int = 0  # 0 for the first time through, then one more for each replay
    finished_runs: int = 0
    replays: int = 0
    solved: frozenset[str] = frozenset()  # every step ever solved, in any run

    def to_json(self) -> dict[str, Any]:
        return {"queue": list(self.queue), "position": self.position,
                "done": sorted(self.done), "mistakes": dict(self.mistakes),
                "requeued": sorted(self.requeued), "finished": self.finished, "run": self.run,
                "record": {"finished_runs": self.finished_runs, "replays": self.replays,
                           "solved": sorted(self.solved)}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LessonProgress:
        """Read what :meth:`to_json` wrote (and the shorter form of earlier versions, which had
        no ``record``). Raises ``ValueError`` for anything else."""
        try:
            record = data.get("record", {})
            done = frozenset(str(s) for s in data.get("done", []))
            queue = data.get("queue")
            return cls(
                queue=tuple(str(s) for s in queue) if isinstance(queue, list) else (),
                position=int(data.get("position", 0)),
                done=done,
                mistakes={str(k): int(v) for k, v in dict(data.get("mistakes", {})).items()},
                requeued=frozenset(str(s) for s in data.get("requeued", [])),
                finished=bool(data.get("finished", False)),
                run=int(data.get("run", 0)),
                finished_runs=int(record.get("finished_runs",
                                             1 if data.get("finished") else 0)),
                replays=int(record.get("replays", 0)),
                solved=frozenset(str(s) for s in record.get("solved", done)))
        except (TypeError, AttributeError) as err:
            raise ValueError(f"not a lesson's progress ({err})") from err

    def merged_with(self, stored: LessonProgress) -> LessonProgress:
        """This window's progress combined with what another window saved meanwhile: the
        record only grows, and within the same run every solved step and mistake is kept."""
        record = {"finished_runs": max(self.finished_runs, stored.finished_runs),
                  "replays": max(self.replays, stored.replays),
                  "solved": self.solved | stored.solved}
        if stored.run > self.run:
            return LessonProgress(**{**stored.__dict__, **record})  # the other window replayed
        if stored.run == self.run and stored.queue == self.queue:
            mistakes = {k: max(self.mistakes.get(k, 0), stored.mistakes.get(k, 0))
                        for k in {*self.mistakes, *stored.mistakes}}
            return LessonProgress(**{**self.__dict__, **record, "done": self.done | stored.done,
                                     "mistakes": mistakes})
        return LessonProgress(**{**self.__dict__, **record})


@dataclass(frozen=True)
class Attempt:
    """One answer and everything it changes, recorded in one transaction."""

    source: str  # "lesson", "quiz" or "review"
    item: str  # the lesson step ("bowers/left-1"), the quiz kind, or the rule reviewed
    correct: bool
    rules: tuple[str, ...] = ()  # the rules the answer is kept under (mastery, streaks)
    counts: bool = True  # False: judged but not counted (a later try at the same question)
    missed: tuple[str, ...] = ()  # rules whose review card is made, or lapses
    origin: str = ""  # where they were missed: "lesson bowers/left-1", "quiz tricks"
    reviewed: str | None = None  # a due card this answer rates: pushed out if right
    lesson: str | None = None  # the lesson whose progress is saved with the answer
    progress: LessonProgress | None = None
    at: datetime | None = None  # when (now if not given)
    seen: tuple[str, ...] = ()  # the position answered, kept as shown (LearnerStore.saw)
