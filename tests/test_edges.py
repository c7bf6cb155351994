"""Issue 27's edges: bad command-line values refused before anything happens (exit 2, no
traceback, the host's secret link never printed), and analysis workers that end with their
parent whatever ends it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, home: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PEPPER_TUTOR_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "pepper_tutor", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def refused(proc: subprocess.CompletedProcess[str], message: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert "/h/" not in proc.stdout and "Host" not in proc.stdout  # no secret link printed
    errors = [line for line in proc.stderr.splitlines() if "error" in line or "pepper-tutor:"
              in line]
    assert len(errors) == 1 and message in errors[0], proc.stderr


@pytest.mark.parametrize("args,message", [
    (["--port", "70000"], "a port is from 1 to 65535, not 70,000"),
    (["--port", "0"], "a port is from 1 to 65535"),
    (["--port", "eighty"], "expected a whole number"),
    (["--lan", "--address", "not an address"], "expected an IP address or a host name"),
    (["--lan", "--address", "no-such-host.invalid"], "no host of that name"),
    (["--name", "x" * 300], "at most 64 characters, not 300"),
    (["--name", "..."], "cannot name a night"),
])
def test_night_refuses_bad_values_before_printing_anything(tmp_path: Path, args: list[str],
                                                           message: str) -> None:
    pytest.importorskip("uvicorn")
    refused(run("night", *args, home=tmp_path), message)
    assert not (tmp_path / "nights").exists() or not list((tmp_path / "nights").iterdir())


def test_night_on_a_port_in_use_is_one_line_and_no_link(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = run("night", "--port", str(port), home=tmp_path)
    refused(proc, f"port {port} is in use by another program")


def test_night_path_refuses_a_name_too_long_for_a_file() -> None:
    from pepper_tutor.apps.night import night_path

    with pytest.raises(ValueError, match="at most 64 characters"):
        night_path("n" * 300)


@pytest.mark.parametrize("args,message", [
    (["--samples", "1" + "0" * 30], "--samples: must be from 1 to 10,000"),
    (["--samples", "0"], "--samples: must be from 1 to 10,000, not 0"),
    (["--samples", "10^30"], "--samples: expected a whole number"),
    (["--auto", "--hands", "1" + "0" * 12], "--hands: must be from 1 to 10,000"),
    (["--auto", "--hands", "0"], "--hands: must be from 1 to 10,000, not 0"),
])
def test_play_caps_its_counts_like_analyse(tmp_path: Path, args: list[str], message: str
                                           ) -> None:
    refused(run("play", *args, home=tmp_path, timeout=20), message)


# ---- workers end with their parent -------------------------------------------------------


def _position(tmp_path: Path) -> Path:
    import yaml

    record = yaml.safe_load((ROOT / "pepper_tutor" / "data" / "hands" / "exchange-made.yaml")
                            .read_text())
    position = {k: record[k] for k in ("format", "rules", "dealer", "deal")}
    position["auction"] = ["pass"]
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump(position))
    return path


def _start_analysis(tmp_path: Path) -> tuple[subprocess.Popen[bytes], set[int]]:
    """``analyse --workers 2`` on many samples, once both workers are at work."""
    from tests.test_analysis_interrupt import _children, _signals_at_default

    proc = subprocess.Popen([sys.executable, "-m", "pepper_tutor", "analyse",
                             str(_position(tmp_path)), "--samples", "10000", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            start_new_session=True, preexec_fn=_signals_at_default)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(proc.pid)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    assert len(workers) >= 2, "the worker processes never started"
    time.sleep(0.5)
    return proc, _children(proc.pid)


def _gone_within(pids: set[int], seconds: float) -> list[int]:
    from tests.test_analysis_interrupt import _alive

    end = time.monotonic() + seconds
    while time.monotonic() < end and any(_alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=["SIGTERM", "SIGHUP", "SIGKILL"])
def test_the_workers_end_when_the_parent_does(tmp_path: Path, signum: int) -> None:
    proc, children = _start_analysis(tmp_path)
    try:
        os.kill(proc.pid, signum)  # the parent alone: nothing tells the workers but it
        proc.wait(timeout=10)
        left = _gone_within(children, 3.0)
        assert not left, f"still running 3 s after {signal.Signals(signum).name}: {left}"
        # SIGTERM and SIGHUP: a clean exit with the shell's status; SIGKILL: killed.
        assert proc.returncode == (128 + signum if signum != signal.SIGKILL else -signum)
        if signum != signal.SIGKILL:
            assert b"Traceback" not in (proc.stderr.read() if proc.stderr else b"")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever the test left of the group


# ---- typed answers: linear, bounded; records and rules refuse what is no answer ----------


def _score_step() -> object:
    from pepper_tutor.engine.calls import Bid
    from pepper_tutor.engine.seats import Seat
    from pepper_tutor.teaching.questions.steps import ScoreStep

    return ScoreStep(id="s", bid=Bid.FOUR, bidder=Seat.E, tricks={"NS": 4, "EW": 2})


@pytest.mark.parametrize("pasted", ["a" * 20_000, "NS " + "x" * 20_000, "ns 3 " * 4_000,
                                    " " * 20_000 + "1"])
def test_a_pasted_page_is_refused_at_once(pasted: str) -> None:
    from pepper_tutor.engine.calls import Trump
    from pepper_tutor.engine.cards import parse_cards
    from pepper_tutor.rulebook.feedback import AnswerError
    from pepper_tutor.teaching.questions.answers import MAX_ANSWER
    from pepper_tutor.teaching.questions.steps import GameStep, PlayStep

    steps = [_score_step(), GameStep(id="g", before={"NS": 40, "EW": 10},
                                     points={"NS": 4, "EW": -2}),
             PlayStep(id="p", trump=Trump.H, trick=tuple(parse_cards("9C")),
                      hand=tuple(parse_cards("JH AH")))]
    for step in steps:
        with pytest.raises(AnswerError, match=f"at most {MAX_ANSWER}"):
            step.judge(pasted)  # type: ignore[attr-defined]


def test_the_score_reader_is_linear_and_reads_as_before() -> None:
    """The reader once paired side names and numbers with a regular expression that was
    quadratic; its replacement gives the same pairs (checked here on random text) in one
    pass (a 20,000-character text in milliseconds, where the old one took seconds)."""
    import random
    import re

    from pepper_tutor.teaching.questions import answers

    old = re.compile(r"([^\d+\-−:=,;]+?)\s*[:=]?\s*([+\-−]?\s*\d+)")
    rng = random.Random(27)
    alphabet = "NSEW nsew:=,;+-−0123456789 abxyz\t"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        assert answers._pairs(text) == old.findall(text), text
    start = time.process_time()
    for text in ("a" * 20_000 + "1", " " * 20_000 + "x1", "NS " * 7_000 + "3", "- " * 10_000):
        answers._pairs(text)
    assert time.process_time() - start < 2.0  # the old reader: over 10 s for the first alone


def test_scores_still_read_in_every_form() -> None:
    step = _score_step()
    for typed in ("NS 2 EW -4", "EW: -4, NS: +2", "bidders -4 defenders 2", "-4 2"):
        assert step.parse(typed) == {"NS": 2, "EW": -4}, typed  # type: ignore[attr-defined]


def test_a_score_given_as_true_is_no_number() -> None:
    from pepper_tutor.rulebook.feedback import AnswerError

    with pytest.raises(AnswerError, match="whole number"):
        _score_step().parse({"NS": True, "EW": 0})  # type: ignore[attr-defined]


def test_a_record_result_of_true_is_refused_with_its_location(tmp_path: Path) -> None:
    import yaml

    from pepper_tutor.files.yamlpos import LoadError
    from pepper_tutor.records.hand_record import load_record, record_to_state

    source = ROOT / "pepper_tutor" / "data" / "hands" / "exchange-made.yaml"
    record = yaml.safe_load(source.read_text())
    sides = record_to_state(load_record(source)).tricks_won()
    record["result"] = {"tricks": {side: True for side in sides}}  # true == 1 in Python
    path = tmp_path / "hand.yaml"
    path.write_text(yaml.safe_dump(record, allow_unicode=True))
    with pytest.raises(LoadError) as err:
        load_record(path)
    assert any("must be a whole number, not True" in p.message and p.line > 1
               for p in err.value.problems), err.value.problems


@pytest.mark.parametrize("args,message", [
    (["rules", ""], "give a rule id"),
    (["rules", "  "], "give a rule id"),
    (["rules", "--search", ""], "give a word to search"),
])
def test_rules_refuses_an_empty_id_or_search(tmp_path: Path, args: list[str], message: str
                                             ) -> None:
    proc = run(*args, home=tmp_path)
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout[:200]
    assert proc.stderr.strip().startswith("pepper-tutor: " + message)


# ---- lessons: every field type-checked with its place; impossible situations refused ----

LESSON_HEAD = "format: pepper-lesson/1\nid: t\ntitle: T\nsteps:\n"
SIX = "[JH, JD, AH, KH, QH, 9C]"
TABLE_PLAY = ("  - kind: table\n    ask: next-player\n    trump: H\n"
              "    auction: [4, pass, pass, pass]\n")


@pytest.mark.parametrize("body,line,message", [
    ("  - kind: [rank]\n    trump: H\n    cards: [JH, AH]\n", 5, "unknown step kind ['rank']"),
    (TABLE_PLAY + "    played: [1]\n", 9, "not [1] (expected a number of cards"),
    (TABLE_PLAY + "    played: abc\n", 9, "not 'abc' (expected a number of cards"),
    (TABLE_PLAY + "    played: -3\n", 9, "-3 is below 0"),
    ('  - kind: rank\n    id: "a\\ud800"\n    trump: H\n    cards: [JH, AH]\n', 6,
     "lone surrogate (U+D800)"),
    (f"  - kind: defend\n    hand: {SIX}\n    trump: H\n    bid: BP\n    mode: exchange\n"
     "    accept: [play]\n    reason: r\n", 9, "big pepper is played alone with no exchange"),
    ("  - kind: legal-plays\n    trump: H\n    trick: [AS]\n"
     "    hand: [9C, TC, JC, QC, KC, AC, 9D, TD, QD, KD, AD, 9S, TS]\n", 8,
     "the hand holds 13 cards; a player holds at most 6"),
    ("  - kind: legal-plays\n    trump: H\n    trick: [AS, KS, QS, 9S]\n    hand: [JH, TS]\n",
     7, "the trick already holds 4 cards"),
    ("  - kind: trick-winner\n    trump: H\n    trick: [AS, KS, QS]\n    seats: [N, N, N]\n", 8,
     "a seat appears twice"),
    (f"  - kind: bid\n    hand: {SIX}\n    accept: [4]\n    reason: r\n    disagree: {{a: 1}}\n",
     9, "disagree must be text"),
])
def test_a_bad_lesson_field_is_refused_with_its_place(body: str, line: int, message: str
                                                      ) -> None:
    from pepper_tutor.files.yamlpos import LoadError
    from pepper_tutor.teaching.lessons.files import parse_lesson

    with pytest.raises(LoadError) as err:
        parse_lesson(LESSON_HEAD + body, "bad.yaml")
    found = [p for p in err.value.problems if message in p.message]
    assert found and found[0].file == "bad.yaml" and found[0].line == line, err.value.problems


@pytest.mark.parametrize("body,message", [
    ("  - kind: table\n    ask: next-call\n    auction: [4, 3]\n", "call 2 (3) breaks the rules"),
    ("  - kind: table\n    ask: first-call\n    auction: [4, pass, pass, pass, 5]\n",
     "comes after the auction is over"),
    (TABLE_PLAY.replace("[4,", "[BP,") + "    mode: exchange\n", "big pepper is played alone"),
    (TABLE_PLAY + "    played: 7\n", "played counts the cards already in the first trick"),
])
def test_an_impossible_table_is_refused_by_the_check(body: str, message: str) -> None:
    from pepper_tutor.teaching.lessons.files import check_lesson, parse_lesson

    problems = check_lesson(parse_lesson(LESSON_HEAD + body, "bad.yaml"))
    assert any(message in p.message for p in problems), problems


def test_a_surrogate_in_a_record_is_refused_with_its_place() -> None:
    from pepper_tutor.files.yamlpos import LoadError
    from pepper_tutor.records.hand_record import parse_record

    text = (ROOT / "pepper_tutor" / "data" / "hands" / "exchange-made.yaml").read_text()
    text += 'event: "night \\udc80"\n'
    with pytest.raises(LoadError) as err:
        parse_record(text, "hand.yaml")
    assert any("lone surrogate (U+DC80)" in p.message and p.line == text.count("\n")
               for p in err.value.problems), err.value.problems


def test_lesson_check_reports_each_bad_file_and_goes_on(tmp_path: Path) -> None:
    good = ROOT / "pepper_tutor" / "data" / "lessons" / "01-bowers.yaml"
    bad_kind = tmp_path / "a-kind.yaml"
    bad_kind.write_text(LESSON_HEAD + "  - kind: [rank]\n    trump: H\n    cards: [JH, AH]\n")
    bad_played = tmp_path / "b-played.yaml"
    bad_played.write_text(LESSON_HEAD + TABLE_PLAY + "    played: [1]\n")
    proc = run("lesson", "--check", "--no-analysis", str(bad_kind), str(bad_played),
               str(good), home=tmp_path, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"{bad_kind}:5:11: unknown step kind" in proc.stderr
    assert f"{bad_played}:9:13: not [1]" in proc.stderr
    assert "ok  bowers" in proc.stdout  # the file after the bad ones was still checked
