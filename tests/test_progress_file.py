"""The progress file in the notebooks (``notebook.progress_file()``): downloaded, loaded on
another home, and refused (with nothing changed) when it is not a progress file."""

from __future__ import annotations

import base64
import re
import sqlite3
from pathlib import Path

import pytest

from pepper_tutor.apps.notebook import ProgressFileWidget
from pepper_tutor.teaching.learner.attempts import Attempt
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.progress_file import (
    ProgressFileRefused,
    load_progress,
    progress_bytes,
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    place = tmp_path / "home"
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(place))
    return place


def _answered(store: LearnerStore, n: int) -> None:
    for i in range(n):
        store.record(Attempt("quiz", "tricks", correct=i % 2 == 0, rules=("play.trick-winner",),
                             missed=() if i % 2 == 0 else ("play.trick-winner",),
                             origin="quiz tricks"))


def test_the_downloaded_file_loads_on_another_home_with_every_answer_and_card(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    widget = ProgressFileWidget("ann")
    _answered(widget.store, 3)
    data = widget.export()
    link = widget.link.value
    assert 'download="pepper-progress.sqlite"' in link
    shown = re.search(r"base64,([A-Za-z0-9+/=]+)", link)
    assert shown is not None and base64.b64decode(shown.group(1)) == data

    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path / "elsewhere"))
    other = ProgressFileWidget("ann")
    other.load(data, "pepper-progress.sqlite")
    assert "Loaded your progress from pepper-progress.sqlite" in other.feedback.value
    assert "3 answers" in other.feedback.value
    assert len(other.store.answers("quiz")) == 3
    assert set(other.store.review_cards()) == {"play.trick-winner"}
    assert not other.errors


def test_a_file_of_another_learner_loads_as_that_learner(home: Path, tmp_path: Path) -> None:
    bea = LearnerStore("bea", tmp_path / "bea")
    _answered(bea, 2)
    data = progress_bytes(bea)
    widget = ProgressFileWidget("ann")
    widget.load(data, "bea.sqlite")
    assert widget.store.learner == "bea"
    assert "(the progress of bea)" in widget.feedback.value
    assert "2 answers" in widget.feedback.value


@pytest.mark.parametrize("content", [b"my shopping list\n", b""])
def test_a_file_that_is_no_progress_file_is_refused_and_nothing_changes(
        home: Path, content: bytes) -> None:
    widget = ProgressFileWidget("ann")
    _answered(widget.store, 2)
    widget.load(content, "notes.sqlite")
    assert "Not loaded:" in widget.feedback.value
    assert "Your progress here is unchanged" in widget.feedback.value
    assert len(LearnerStore("ann").answers()) == 2
    assert not list(home.glob("*.damaged-*")) and not list(home.glob(".upload*"))


def test_a_database_of_another_program_or_a_newer_version_is_refused(
        home: Path, tmp_path: Path) -> None:
    store = LearnerStore("ann")
    _answered(store, 1)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(ProgressFileRefused, match=r"other\.sqlite is not a pepper-tutor"):
        load_progress(store, other, "other.sqlite")
    newer = tmp_path / "newer.sqlite"
    newer.write_bytes(progress_bytes(store))
    with sqlite3.connect(newer) as con:
        con.execute("UPDATE meta SET value = '999' WHERE key = 'schema'")
    with pytest.raises(ProgressFileRefused, match="newer pepper-tutor"):
        load_progress(store, newer, "newer.sqlite")
    assert len(LearnerStore("ann").answers()) == 1


def test_the_puzzle_ratings_travel_with_the_file(home: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from pepper_tutor.teaching.puzzles.bank import bank_puzzles
    from pepper_tutor.teaching.puzzles.store import PuzzleStore

    puzzle = bank_puzzles()[0]
    mine = PuzzleStore(LearnerStore("ann").learner, home)
    mine.record(puzzle.id, puzzle.theme, puzzle.rating, solved=False)
    rating = mine.rating()
    mine.close()
    widget = ProgressFileWidget("ann")
    data = widget.export()

    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path / "elsewhere"))
    other = ProgressFileWidget("ann")
    other.load(data, "pepper-progress.sqlite")
    assert "your puzzle ratings came too" in other.feedback.value
    theirs = PuzzleStore("ann", tmp_path / "elsewhere")
    assert theirs.rating() == rating and len(theirs.tried()) == 1
