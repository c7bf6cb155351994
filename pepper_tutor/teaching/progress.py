"""A learner's progress, saved to a small JSON file so that a lesson can stop and resume.

Writes are atomic (a temporary file, then a rename), so a crash never leaves half a file. A
file that cannot be read is moved aside (``name.corrupt-TIMESTAMP.json``) and reported in
:attr:`ProgressStore.warning`; the tutor starts afresh instead of crashing.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["ProgressStore", "progress_dir", "LessonProgress"]

FORMAT = "pepper-progress/1"

LessonProgress = dict[str, Any]  # {"done": [...], "mistakes": {...}, "queue": [...], ...}


def progress_dir() -> Path:
    """``$PEPPER_TUTOR_HOME/progress``, else the XDG data folder."""
    home = os.environ.get("PEPPER_TUTOR_HOME")
    if home:
        return Path(home) / "progress"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "pepper-tutor" / "progress"


def _safe_name(learner: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", learner.strip()).strip(".-")
    return name or "learner"


class ProgressStore:
    """One learner's progress across lessons and quizzes."""

    def __init__(self, learner: str | None = None, folder: Path | None = None):
        self.learner = learner or os.environ.get("USER") or "learner"
        self.path = (folder or progress_dir()) / f"{_safe_name(self.learner)}.json"
        self.warning: str | None = None
        self.data: dict[str, Any] = {"format": FORMAT, "learner": self.learner, "lessons": {},
                                     "quizzes": {}}
        self._load()

    def _load(self) -> None:
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return
        except OSError as err:
            self.warning = f"could not read your progress ({err.strerror}); starting afresh"
            return
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(
                    data.get("lessons"), dict):
                raise ValueError("not a pepper-tutor progress file")
        except ValueError as err:
            aside = self.path.with_name(
                f"{self.path.stem}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}.json")
            try:
                os.replace(self.path, aside)
                where = f"; the old file is kept as {aside}"
            except OSError:
                where = ""
            self.warning = f"your progress file {self.path} was damaged ({err}){where}"
            return
        data.setdefault("quizzes", {})
        self.data = data

    def lesson(self, lesson_id: str) -> LessonProgress:
        entry: LessonProgress = self.data["lessons"].setdefault(lesson_id, {})
        return entry

    def quiz(self, kind: str) -> dict[str, Any]:
        entry: dict[str, Any] = self.data["quizzes"].setdefault(kind, {})
        return entry

    def reset(self, lesson_id: str) -> None:
        self.data["lessons"].pop(lesson_id, None)
        self.save()

    def save(self) -> None:
        """Write atomically; a failure to write is reported, never raised into the lesson."""
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.data, fh, ensure_ascii=False, indent=1)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except OSError as err:
            self.warning = f"could not save your progress ({err.strerror or err})"
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
