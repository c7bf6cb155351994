"""Issue 35's bounds and exits: executor texts read exactly, workers cut to the CPUs (said
once), counts capped at the command line, ``puzzles mine`` writing only where it is told,
``play`` refusing a save that cannot happen and options its way of playing ignores."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pepper_tutor.analysis.executors import (
    ExecutorError,
    ExecutorSpec,
    cpus,
    open_executor,
    parse_executor,
)
from pepper_tutor.apps.cli import main

# ---- executor texts ------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "", " ", "local:", "local:0", "local:00", "local:-1", "local:+2", "local:two", "local:2x",
    "local:2 ", " local", "local:1.5", "local:²", "local:٣", "local:1_0", "local::2",
    "local:2:3", "locals", "LOCAL", "dask-local:", "dask-local:0", "dask-local:-3",
    "dask://", "dask://host", "dask://host:", "dask://:8786", "dask://host:port",
    "dask://host:0", "dask://host:65536", "dask://host:8786/x", "dask://host:8786 junk",
    "dask://ho st:1", "tcp://-host:1", "ray://x:1", "local:" + "9" * 12,
])
def test_an_executor_text_is_read_exactly_or_refused_in_one_line(text: str) -> None:
    with pytest.raises(ExecutorError, match="--executor") as err:
        parse_executor(text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("text,spec", [
    (None, ExecutorSpec("local")),
    ("local", ExecutorSpec("local")),
    ("local:1", ExecutorSpec("local", 1)),
    ("local:16", ExecutorSpec("local", 16)),
    ("dask-local", ExecutorSpec("dask-local")),
    ("dask-local:3", ExecutorSpec("dask-local", 3)),
    ("dask://sched.example:8786", ExecutorSpec("dask", address="sched.example:8786")),
    ("tcp://10.0.0.5:8786", ExecutorSpec("dask", address="10.0.0.5:8786")),
    ("dask://[::1]:8786", ExecutorSpec("dask", address="[::1]:8786")),
])
def test_the_executor_texts_that_name_one(text: str | None, spec: ExecutorSpec) -> None:
    assert parse_executor(text) == spec
    assert parse_executor(str(spec)) == spec  # the text recorded reads back the same


def test_workers_are_cut_to_the_cpus_and_it_is_said_once(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    many = parse_executor("local:99999")
    assert many.size == cpus() and many.workers == 99999
    assert str(many) == "local:99999"  # the run's record keeps what was asked
    assert many.capped is not None and f"{cpus()} worker" in many.capped
    assert parse_executor(f"local:{cpus()}").capped is None
    assert parse_executor("local").size == cpus()
    assert parse_executor("dask-local:99999").size == cpus()
    with open_executor(many) as executors:
        pool = executors()
        assert pool._max_workers == cpus()  # type: ignore[attr-defined]
    err = capsys.readouterr().err
    assert err.count("pepper-tutor: --executor local:99999: this machine has") == 1


@pytest.mark.slow
def test_mine_with_a_huge_executor_runs_on_the_cpus(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    proc = run("puzzles", "mine", "--hands", "1", "--executor", "local:99999", "--kinds",
               "send", "--out", str(out), "--quiet", home=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("this machine has") == 1
    assert out.exists()


# ---- the command line's counts -------------------------------------------------------------


def run(*args: str, home: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PEPPER_TUTOR_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "pepper_tutor", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def refused(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> Callable[..., str]:
    """The command line in this process (argparse's refusals too): exit 2 asserted, and
    its one line of stderr returned."""
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path / "home"))

    def run_main(*args: str) -> str:
        try:
            status = main(list(args))
        except SystemExit as stop:  # argparse's usage errors
            status = stop.code  # type: ignore[assignment]
        out, err = capsys.readouterr()
        assert status == 2, (out, err)
        assert "Traceback" not in err and "internal error" not in err
        return err

    return run_main


@pytest.mark.parametrize("args,message", [
    (["puzzles", "mine", "--samples", str(10**30)], "--samples: must be from 1 to 10,000"),
    (["puzzles", "mine", "--samples", "0"], "--samples: must be from 1 to 10,000, not 0"),
    (["puzzles", "mine", "--hands", "100001"], "--hands: must be from 1 to 10,000"),
    (["puzzles", "mine", "--hands", "-3"], "--hands: must be from 1 to 10,000, not -3"),
    (["puzzles", "mine", "--start", str(10**30)], "--start: must be from 0 to"),
    (["puzzles", "mine", "--start", "-1"], "--start: must be from 0 to"),
    (["puzzles", "mine", "--hands", "1_0"], "--hands: expected a whole number"),
    (["puzzles", "mine", "--hands", " 5"], "--hands: expected a whole number"),
    (["puzzles", "mine", "--hands", "٣"], "--hands: expected a whole number"),
    (["puzzles", "mine", "--hands", "9" * 5000], "--hands: expected a whole number"),
    (["puzzles", "--count", "10000000"], "--count: must be from 1 to 10,000"),
    (["quiz", "--count", "10000000"], "--count: must be from 1 to 10,000"),
    (["quiz", "--count", "0"], "--count: must be from 1 to 10,000, not 0"),
    (["play", "--auto", "--hands", str(10**20)], "--hands: must be from 1 to 10,000"),
    (["analyse", "x.yaml", "--samples", "10001"], "--samples: must be from 1 to 10,000"),
])
def test_counts_are_capped_at_the_command_line(cli: Callable[..., str], args: list[str],
                                               message: str) -> None:
    assert message in cli(*args)


def test_the_tournament_caps_its_counts() -> None:
    from pepper_tutor.bench.tournament import main as tournament

    for args in (["--deals", str(10**9)], ["--samples", str(10**30)],
                 ["--analysis-decisions", "-1"]):
        with pytest.raises(SystemExit) as stop:
            tournament(args)
        assert stop.value.code == 2


def test_the_command_line_cap_is_the_analysis_cap() -> None:
    from pepper_tutor.analysis import advice
    from pepper_tutor.apps import commands
    from pepper_tutor.teaching.puzzles import miner

    assert commands.MAX_SAMPLES == advice.MAX_SAMPLES
    from pepper_tutor.apps import table

    assert commands.MAX_HANDS == miner.MAX_HANDS == table.MAX_AUTO_HANDS


@pytest.mark.parametrize("hands,start", [(10**9, 0), (0, 0), (2.0, 0), (3, -1), (3, None)])
def test_the_hands_are_capped_at_the_api_too(hands: object, start: object) -> None:
    from pepper_tutor.apps.table import run_auto
    from pepper_tutor.teaching.puzzles.miner import tasks_for

    with pytest.raises(ValueError, match=r"^(hands|start) must be"):
        tasks_for(hands, "s", start)  # type: ignore[arg-type]
    if start == 0:
        with pytest.raises(ValueError, match="--hands must be from 1 to 10,000"):
            run_auto(hands=hands)  # type: ignore[arg-type]


# ---- puzzles mine writes only where it is told --------------------------------------------


def test_mine_without_out_refuses_and_writes_nothing(cli: Callable[..., str]) -> None:
    from pepper_tutor.teaching.puzzles.bank import bank_path

    before = bank_path().read_bytes()
    assert "give --out FILE" in cli("puzzles", "mine", "--hands", "1")
    assert bank_path().read_bytes() == before


def test_mine_refuses_a_bad_out_before_mining(tmp_path: Path, cli: Callable[..., str]
                                              ) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    for out, words in ((tmp_path / "link" / "p.json", "is a symlink"),
                       (tmp_path, "directory"),
                       (f"{tmp_path}/new/", "names a folder"),
                       ("", "an empty path")):
        assert words in cli("puzzles", "mine", "--hands", "1", "--out", str(out))
    assert list((tmp_path / "real").iterdir()) == []
    assert not (tmp_path / "new").exists()


def test_make_puzzles_names_the_shipped_file() -> None:
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    recipe = makefile.split("\npuzzles:", 1)[1].split("\n\n", 1)[0]
    assert "--out pepper_tutor/data/puzzles.json" in recipe


# ---- play: a save that cannot happen, options that do nothing --------------------------------


@pytest.mark.parametrize("kind", ["file", "devnull", "fifo", "symlink", "under-a-file",
                                  "through-a-link", "empty"])
def test_play_save_where_nothing_can_be_saved_is_refused(tmp_path: Path, kind: str,
                                                         cli: Callable[..., str]) -> None:
    target = {"file": tmp_path / "f", "devnull": Path(os.devnull), "fifo": tmp_path / "p",
              "symlink": tmp_path / "l", "under-a-file": tmp_path / "f" / "sub",
              "through-a-link": tmp_path / "l" / "sub", "empty": ""}[kind]
    (tmp_path / "f").write_text("x")
    os.mkfifo(tmp_path / "p")
    (tmp_path / "d").mkdir()
    (tmp_path / "l").symlink_to(tmp_path / "d")
    words = {"symlink": "is a symlink", "through-a-link": "is a symlink",
             "empty": "an empty path"}.get(kind, "expected a folder")
    for mode in (["--auto"], [], ["--daily"]):
        err = cli("play", *mode, "--save", str(target))
        assert words in err and str(target).split("/")[-1] in err and err.count("\n") == 1
    assert (tmp_path / "f").read_text() == "x" and list((tmp_path / "d").iterdir()) == []


def test_an_unwritable_save_folder_is_refused(tmp_path: Path, cli: Callable[..., str]
                                              ) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert "not writable" in cli("play", "--auto", "--save", str(locked / "hands"))


@pytest.mark.slow
def test_play_auto_saves_into_a_new_folder(tmp_path: Path) -> None:
    proc = run("play", "--auto", "--seed", "3", "--save", str(tmp_path / "new" / "hands"),
               home=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert len(list((tmp_path / "new" / "hands").glob("*.yaml"))) == 1


def test_play_auto_whose_save_fails_midway_exits_1(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from pepper_tutor.apps import table as table_app
    from pepper_tutor.teaching.practice import table as practice

    def refuse(*args: object, **kwargs: object) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(practice, "write_new", refuse)
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    status = table_app.run_auto(seed=3, save=str(tmp_path / "hands"), coach=False)
    assert status == 1


@pytest.mark.parametrize("args,flags", [
    (["--daily", "--rules", "simple"], "--rules"),
    (["--daily", "--seed", "3"], "--seed"),
    (["--daily", "--rules", "standard", "--seed", "3"], "--rules, --seed"),
    (["--daily", "--level", "expert"], "--level"),
    (["--daily", "--seat", "N"], "--seat"),
    (["--daily", "--hands", "2"], "--hands"),
    (["--daily", "--new"], "--new"),
    (["--daily", "--alone", "rarely"], "--alone"),
    (["--daily", "--history", "--coach"], "--coach"),
    (["--daily", "--history", "--save", "x"], "--save"),
    (["--history", "--rules", "simple"], "--rules"),
    (["--history", "--seed", "1"], "--seed"),
    (["--auto", "--coach"], "--coach"),
    (["--auto", "--new"], "--new"),
    (["--hands", "3"], "--hands"),
])
def test_play_refuses_options_its_way_of_playing_ignores(args: list[str], flags: str,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert f"{flags} do" in err and "nothing here" in err and err.count("\n") == 1


def test_history_with_auto_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--history", "--auto"]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.parametrize("args,words", [
    (["puzzles", "--themes", "--seed", "3"], "puzzles --themes: --seed does nothing here"),
    (["puzzles", "--themes", "--streak", "--learner", "x"], "--streak, --learner do nothing"),
    (["puzzles", "--dashboard", "--count", "3"], "puzzles --dashboard: --count does nothing"),
    (["puzzles", "--dashboard", "--theme", "x"], "--theme does nothing"),
    (["puzzles", "--streak", "--review"], "--streak or --review, not both"),
    (["puzzles", "mine", "--from-history", "--start", "5", "--dry-run"], "--start does nothing"),
    (["lesson", "--check", "--learner", "bob"], "lesson --check: --learner does nothing"),
    (["lesson", "--no-analysis"], "lesson: --no-analysis does nothing"),
])
def test_other_commands_refuse_options_they_ignore(args: list[str], words: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err


def test_analyse_of_a_whole_hand_refuses_the_sampling_options(cli: Callable[..., str]
                                                              ) -> None:
    whole = str(Path(__file__).resolve().parents[1] / "pepper_tutor" / "data" / "hands"
                / "exchange-made.yaml")
    err = cli("analyse", whole, "--samples", "30", "--seed", "2")
    assert "--samples, --seed do nothing here (a whole hand" in err and whole in err
    assert "--workers does nothing here" in cli("analyse", whole, "--workers", "1")


@pytest.mark.parametrize("args", [["rules", "bower", "--ids"], ["rules", "--ids", "--search",
                                                                "bower"],
                                  ["rules", "rank.left-bower", "--search", "bower"]])
def test_rules_refuses_two_questions_at_once(cli: Callable[..., str], args: list[str]) -> None:
    assert "one at a time" in cli(*args)


@pytest.mark.parametrize("args", [["calibration", "--workers", "99999"],
                                  ["calibration", "--contracts", "0"],
                                  ["tournament", "--deals", "0"]])
def test_the_benches_cap_their_counts(args: list[str], capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    from pepper_tutor.bench.__main__ import main as bench

    with pytest.raises(SystemExit) as stop:
        bench(args)
    assert stop.value.code == 2 and "must be from" in capsys.readouterr().err
