"""``pepper-tutor puzzles`` in a real pseudo-terminal (pexpect): a puzzle answered wrong, then
right (not rated: only the first attempt is), then the next one answered right; the theme
dashboard afterwards; and ``puzzles mine`` refusing a bad executor."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pexpect

from pepper_tutor.teaching.puzzles.bank import bank_puzzles
from pepper_tutor.teaching.puzzles.puzzle import Puzzle
from pepper_tutor.teaching.puzzles.session import PuzzleSession
from pepper_tutor.teaching.puzzles.store import PuzzleStore
from pepper_tutor.teaching.puzzles.themes import theme_title

PROMPT = r"answer \(a: show the answer, n: next, q: quit\)> "


def _the_run(tmp_path: Path, seed: int) -> tuple[Puzzle, Puzzle]:
    """The two puzzles the command shows for ``seed``, by the same session in-process."""
    store = PuzzleStore("me", path=tmp_path / "mirror.sqlite")
    session = PuzzleSession(store, bank_puzzles(), rng=random.Random(seed))
    first = session.next()
    assert first is not None
    session.answer(first.tempting)
    session.answer(first.answers[0])
    second = session.next()
    assert second is not None
    store.close()
    return first, second


def test_a_puzzle_answered_wrong_then_right_then_the_next(tmp_path: Path) -> None:
    first, second = _the_run(tmp_path, seed=7)
    home = tmp_path / "home"
    env = {**os.environ, "PEPPER_TUTOR_HOME": str(home), "COLUMNS": "100"}
    child = pexpect.spawn(sys.executable, ["-m", "pepper_tutor", "puzzles", "--seed", "7",
                                           "--count", "2"],
                          env=env, encoding="utf-8", timeout=60, dimensions=(60, 100))
    child.expect(r"Puzzle 1 · rated \d+ · you 1500")
    child.expect(PROMPT)
    child.sendline(first.tempting)
    child.expect(r" is not best: try again, or type a for the answer\.")
    child.expect(r"Your puzzle rating: \d+ \(-\d+\)\.")
    child.expect(r"This theme comes back in your review")
    child.expect(PROMPT)
    child.sendline(first.answers[0])
    child.expect("Right: ")
    child.expect(r"is worth [+-][0-9.]+ net")
    child.expect(r"Theme: ")
    child.expect(r"Not rated \(only the first attempt at a puzzle counts\)\.")
    child.expect(r"Puzzle 2 · rated \d+")
    child.expect(PROMPT)
    child.sendline(second.answers[0])
    child.expect("Right: ")
    child.expect(r"Your puzzle rating: \d+ \(\+\d+\)\.")
    child.expect(r"1 of 2 solved\. Puzzle rating now \d+")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    board = subprocess.run([sys.executable, "-m", "pepper_tutor", "puzzles", "--dashboard"],
                           env=env, capture_output=True, text=True, timeout=60)
    assert board.returncode == 0
    assert "weakest first" in board.stdout and theme_title(first.theme) in board.stdout
    # the theme in a player's words: its short name only in the opt-in rule ids view
    assert f"({first.theme})" not in board.stdout
    ids = subprocess.run([sys.executable, "-m", "pepper_tutor", "puzzles", "--dashboard"],
                         env={**env, "PEPPER_TUTOR_RULE_IDS": "1", "COLUMNS": "200"},
                         capture_output=True,
                         text=True, timeout=60)
    assert f"{theme_title(first.theme)} ({first.theme})" in " ".join(ids.stdout.split())


def test_mine_refuses_a_bad_executor_with_exit_2(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "pepper_tutor", "puzzles", "mine", "--hands",
                          "1", "--executor", "ray://x", "--out", str(tmp_path / "p.json")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "expected local, local:N, dask-local:N or dask://HOST:PORT" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_bad_row_in_the_puzzle_store_exits_2_naming_the_file(tmp_path: Path) -> None:
    """One text rating or NULL in puzzles.sqlite: exit 2, the file and the row named, never
    'Unknown format code' (issue 35)."""
    import sqlite3

    from pepper_tutor.teaching.puzzles.store import SCHEMA, store_path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PEPPER_TUTOR_HOME": str(tmp_path), "PYTHONPATH": str(root)}
    for value, shown in (("'high'", "rating 'high'"), ("NULL", "rating None")):
        path = store_path(tmp_path)
        path.unlink(missing_ok=True)
        with sqlite3.connect(path) as con:
            con.executescript(SCHEMA.sql.replace("rating REAL NOT NULL", "rating REAL"))
            con.execute(f"INSERT INTO learners VALUES ('ann', {value}, 60, 0.06, 0)")
        con.close()
        for args in (["--dashboard"], ["--count", "1"]):
            done = subprocess.run([sys.executable, "-m", "pepper_tutor", "puzzles",
                                   "--learner", "ann", *args], input="q\n", env=env,
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 2, done
            assert done.stderr.startswith(f"pepper-tutor: {path}: a row of the table "
                                          f"learners has {shown}"), done.stderr
            assert "Unknown format code" not in done.stderr + done.stdout
