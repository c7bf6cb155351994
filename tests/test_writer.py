"""The one writer (issue 27): never the command's own input, never a file the user could not
write, practice records under new names (nothing planted followed, nothing half-written
kept), and stale-temp cleanup that touches only its own dead saves."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pepper_tutor.apps.cli import main
from pepper_tutor.files import writing
from pepper_tutor.files.writing import (
    WriteError,
    replace_refusal,
    stale_temp_files,
    write_new,
    write_text,
)
from pepper_tutor.records.hand_record import load_record
from pepper_tutor.teaching.practice.history import TableHistory
from pepper_tutor.teaching.practice.table import PracticeTable

DATA = Path(__file__).parent / "data"
GOOD = (DATA / "design-example.yaml").read_text()
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return captured.err


# ---- the command's own input ----------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "html"])
def test_annotate_refuses_to_write_over_its_own_input(tmp_path, capsys, fmt):
    rec = tmp_path / "rec.yaml"
    rec.write_text(GOOD)
    err = cli_error(capsys, "annotate", str(rec), "-f", fmt, "-o", str(rec))
    assert f"{rec}: this is the command's input file ({rec})" in err
    assert "give another output path" in err
    assert rec.read_text() == GOOD


@posix_only
def test_another_spelling_or_a_hard_link_of_the_input_is_caught(tmp_path, capsys,
                                                                 monkeypatch):
    (tmp_path / "sub").mkdir()
    rec = tmp_path / "rec.yaml"
    rec.write_text(GOOD)
    monkeypatch.chdir(tmp_path)
    for spelling in ("./rec.yaml", "sub/../rec.yaml", str(rec)):
        err = cli_error(capsys, "annotate", "rec.yaml", "-o", spelling)
        assert "this is the command's input file" in err
    # through a linked folder: another path, the same file (-o refuses the linked folder
    # itself; the writer's own check still knows the input by its device and inode)
    (tmp_path / "alias").symlink_to(tmp_path)
    err = cli_error(capsys, "annotate", str(rec), "-o", str(tmp_path / "alias" / "rec.yaml"))
    assert f"the folder {tmp_path / 'alias'} is a symlink" in err
    from pepper_tutor.files.writing import WriteError, write_text

    with pytest.raises(WriteError, match="this is the command's input file"):
        write_text(tmp_path / "alias" / "rec.yaml", "x", inputs=[rec])
    os.link(rec, tmp_path / "twin.yaml")
    err = cli_error(capsys, "annotate", str(rec), "-o", str(tmp_path / "twin.yaml"))
    assert "this is the command's input file" in err
    assert rec.read_text() == GOOD and (tmp_path / "twin.yaml").read_text() == GOOD


def test_the_same_inode_by_another_path_is_refused_by_the_writer(tmp_path, monkeypatch):
    """Caught by device and inode even where the resolved paths differ (a bind mount, a
    second mount of one disk): the comparison is by what the file is, not how it is named."""
    rec = tmp_path / "rec.yaml"
    rec.write_text(GOOD)
    out = tmp_path / "out.yaml"
    out.write_text("old")
    real_stat = os.stat

    def same_file(path, *args, **kw):  # out.yaml stands for rec.yaml on another mount
        return real_stat(rec if Path(path) == out else path, *args, **kw)

    monkeypatch.setattr(writing.os, "stat", same_file)
    with pytest.raises(WriteError, match="this is the command's input file"):
        write_text(out, "new", inputs=[rec])
    monkeypatch.undo()
    write_text(out, "new", inputs=[rec])  # a different file is written
    assert out.read_text() == "new" and rec.read_text() == GOOD


def test_a_refused_output_is_said_before_the_analysis_runs(tmp_path, capsys, monkeypatch):
    rec = tmp_path / "rec.yaml"
    rec.write_text(GOOD)
    import pepper_tutor.records.annotate as annotate_module

    def never(*args: object, **kw: object) -> None:
        raise AssertionError("annotated before the output path was checked")

    monkeypatch.setattr(annotate_module, "annotate_file", never)
    err = cli_error(capsys, "annotate", str(rec), "--analyse", "-o", str(rec))
    assert "this is the command's input file" in err


# ---- a file the user could not write ----------------------------------------------------------


def _stat(mode: int, uid: int = 1000, gid: int = 1000) -> os.stat_result:
    return os.stat_result((stat.S_IFREG | mode, 1, 1, 1, uid, gid, 0, 0, 0, 0))


@pytest.mark.parametrize(("mode", "euid", "groups", "writable", "refused"), [
    (0o644, 1000, [1000], True, False),  # my file, writable
    (0o444, 1000, [1000], False, True),  # my file, made read-only
    (0o444, 0, [0], True, True),  # root: access passes, but the owner made it read-only
    (0o644, 0, [0], True, False),  # root, someone's writable file
    (0o664, 2000, [1000], True, False),  # my group may write
    (0o644, 2000, [1000], True, True),  # my group may not (an ACL said yes: the bits say no)
    (0o646, 2000, [3000], True, False),  # others may write
    (0o644, 2000, [3000], False, True),  # a stranger's file
    (0o644, 1000, [1000], False, True),  # a read-only disk, or an ACL: access says no
    (0o444, None, [], True, True),  # no uids (Windows): the read-only flag
])
def test_the_replace_decision(mode, euid, groups, writable, refused):
    reason = replace_refusal(_stat(mode), euid, groups, writable)
    assert (reason is not None) == refused
    if refused:
        assert f"read-only for you (mode {mode:04o})" in reason


@posix_only
def test_a_read_only_output_is_never_replaced(tmp_path, capsys):
    rec = tmp_path / "rec.yaml"
    rec.write_text(GOOD)
    out = tmp_path / "out.md"
    out.write_text("keep me")
    out.chmod(0o444)  # refused even for root, who may write anything (the tests run as root)
    err = cli_error(capsys, "annotate", str(rec), "-f", "markdown", "-o", str(out))
    assert f"{out}: this file is read-only for you (mode 0444)" in err
    assert out.read_text() == "keep me" and stat.S_IMODE(out.stat().st_mode) == 0o444
    out.chmod(0o644)
    assert main(["annotate", str(rec), "-f", "markdown", "-o", str(out)]) == 0
    assert out.read_text().startswith("## ")


# ---- new files: the practice records ------------------------------------------------------


def test_write_new_takes_the_first_free_name_and_replaces_nothing(tmp_path):
    (tmp_path / "a.yaml").write_text("first")
    path = write_new(tmp_path, ["a.yaml", "b.yaml"], b"second")
    assert path == tmp_path / "b.yaml" and path.read_text() == "second"
    assert (tmp_path / "a.yaml").read_text() == "first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"]
    with pytest.raises(WriteError, match="no free name"):
        write_new(tmp_path, ["a.yaml", "b.yaml"], b"third")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"]


def test_write_new_works_where_the_platform_has_no_hard_links(tmp_path, monkeypatch):
    # A browser tab's Python (Pyodide) has no os.link: the page's next hand saves its record.
    (tmp_path / "a.yaml").write_bytes(b"first")
    monkeypatch.delattr(os, "link")
    path = write_new(tmp_path, ["a.yaml", "b.yaml"], b"second")
    assert path == tmp_path / "b.yaml" and path.read_bytes() == b"second"
    assert (tmp_path / "a.yaml").read_bytes() == b"first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"]


def test_write_new_under_a_race_gives_every_writer_its_own_file(tmp_path):
    names = [f"hand-{n:03d}.yaml" for n in range(1, 60)]
    got: list[Path] = []
    barrier = threading.Barrier(8)

    def save(i: int) -> None:
        barrier.wait()
        got.append(write_new(tmp_path, names, f"writer {i}".encode()))

    threads = [threading.Thread(target=save, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 8
    assert sorted(p.read_text() for p in got) == sorted(f"writer {i}" for i in range(8))
    assert not list(tmp_path.glob(".*"))  # no temp file left


def _auto_table(folder: Path, seed: int | None = None, history: object = False) -> PracticeTable:
    return PracticeTable(level="beginner", coach=False, seed=seed, save_dir=folder,
                         history=history, auto=True)  # type: ignore[arg-type]


def _play_and_save(table: PracticeTable) -> Path | None:
    table.play_bots()
    table.finish_hand()
    return table.last_saved


def test_a_second_session_adds_records_instead_of_overwriting(tmp_path):
    folder = tmp_path / "hands"
    history = TableHistory(tmp_path / "h.sqlite")
    first = [_play_and_save(_auto_table(folder, history=history)) for _ in range(2)]
    again = _auto_table(folder, history=history)
    third = _play_and_save(again)
    again.new_hand()
    fourth = _play_and_save(again)
    assert [p.name for p in (*first, third, fourth) if p] == [
        "hand-001.yaml", "hand-002.yaml", "hand-003.yaml", "hand-004.yaml"]
    rows = history.hands(10)
    assert len({r.record for r in rows}) == len(rows) == 4  # one file per history row
    for row in rows:
        assert load_record(str(row.record)).deal


def test_a_seeded_rerun_keeps_the_seed_in_the_name_and_adds_a_suffix(tmp_path):
    folder = tmp_path / "hands"
    one = _play_and_save(_auto_table(folder, seed=7))
    two = _play_and_save(_auto_table(folder, seed=7))
    assert one and two and (one.name, two.name) == ("seed-7-hand-001.yaml",
                                                    "seed-7-hand-001-2.yaml")
    assert one.read_text() == two.read_text()  # the same seed, the same hand


def test_play_auto_twice_into_one_folder_keeps_every_hand(tmp_path, capsys):
    folder = tmp_path / "out"
    for _ in range(2):
        assert main(["play", "--auto", "--hands", "2", "--samples", "2", "--level", "beginner",
                     "--save", str(folder)]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"hand-{n:03d}.yaml" for n in range(1, 5)]
    out = capsys.readouterr().out
    assert out.count("Saved ") == 4 and f"{folder / 'hand-004.yaml'}" in out


@posix_only
def test_a_planted_symlink_or_fifo_is_passed_by(tmp_path):
    folder = tmp_path / "hands"
    folder.mkdir()
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me")
    (folder / "hand-001.yaml").symlink_to(victim)
    os.mkfifo(folder / "hand-002.yaml")
    (folder / "seed-3-hand-001.yaml").symlink_to(tmp_path / "nowhere")  # dangling
    table = _auto_table(folder)
    done = threading.Event()

    def run() -> None:
        _play_and_save(table)
        done.set()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    assert done.wait(60), "the table hung on a FIFO"
    assert table.last_saved == folder / "hand-003.yaml"
    assert victim.read_text() == "keep me"
    assert stat.S_ISFIFO(os.lstat(folder / "hand-002.yaml").st_mode)
    seeded = _play_and_save(_auto_table(folder, seed=3))
    assert seeded == folder / "seed-3-hand-001-2.yaml"
    assert not (tmp_path / "nowhere").exists()


def test_a_failed_save_leaves_no_file_and_tells_the_learner(tmp_path, monkeypatch):
    folder = tmp_path / "hands"
    history = TableHistory(tmp_path / "h.sqlite")
    table = _auto_table(folder, history=history)

    def full_disk(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    real_fdopen = os.fdopen

    def fdopen(fd, *args, **kw):
        fh = real_fdopen(fd, *args, **kw)
        fh.write = lambda data: full_disk(fd, data)  # type: ignore[method-assign]
        return fh

    monkeypatch.setattr(writing.os, "fdopen", fdopen)
    assert _play_and_save(table) is None
    assert table.save_problem and "No space left on device" in table.save_problem
    assert "kept in your history" in table.save_problem
    assert list(folder.iterdir()) == []  # no 0-byte or half record, no temp file
    (row,) = history.hands(10)
    assert row.record is None  # the hand is in the history, with no file
    monkeypatch.undo()
    table.new_hand()
    assert _play_and_save(table) == folder / "hand-001.yaml"
    assert table.save_problem is None


def test_the_terminal_table_says_a_record_was_not_saved(tmp_path, monkeypatch):
    from io import StringIO

    from rich.console import Console

    from pepper_tutor.apps.table import TableApp

    folder = tmp_path / "hands"
    folder.mkdir()
    table = PracticeTable(level="beginner", coach=False, seed=5, save_dir=folder,
                          history=TableHistory(tmp_path / "h.sqlite"))
    while not table.hand_over:
        table.act(table.legal()[0])
    monkeypatch.setattr(writing.os, "link",
                        lambda *a, **k: (_ for _ in ()).throw(OSError(30, "Read-only file "
                                                                          "system")))
    out = StringIO()
    app = TableApp(table, Console(file=out, width=200), lambda prompt: "quit")
    app._told = 0  # as run() sets it
    assert app.after_hand() is False
    text = out.getvalue()
    assert "Warning: hand 1 was not saved as a record" in text and "Saved:" not in text
    assert list(folder.iterdir()) == []


# ---- stale temp files ---------------------------------------------------------------------


def _dead_pid() -> int:
    return int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True).stdout)


@posix_only
def test_cleanup_never_takes_another_targets_live_temp_for_a_dead_one(tmp_path):
    """The probe's case: saving ``report`` deleted the temp file of a live save to
    ``report.2024``, whose name read as ``.report.`` + pid 2024."""
    dead = _dead_pid()
    live_other = tmp_path / f".report.2024.{os.getppid()}.{'a' * 16}.tmp"
    live_other.write_text("someone else's save, running")
    digits_other = tmp_path / f".report.{dead}.{'b' * 16}.{dead}.{'c' * 16}.tmp"
    digits_other.write_text("a save to report.<dead>.bbb…, not to report")
    mine_dead = tmp_path / f".report.{dead}.{'d' * 16}.tmp"
    mine_dead.write_text("half")
    not_ours = [tmp_path / f".report.{dead}.short.tmp",  # not our token
                tmp_path / f".report.{dead}.{'e' * 16}.tmp.bak",
                tmp_path / f"report.{dead}.{'f' * 16}.tmp"]
    for path in not_ours:
        path.write_text("someone's")
    assert stale_temp_files(tmp_path / "report") == [mine_dead]
    write_text(tmp_path / "report", "whole")
    left = {p.name for p in tmp_path.iterdir()}
    assert mine_dead.name not in left
    assert {live_other.name, digits_other.name, *(p.name for p in not_ours)} <= left
    # and saving report.2024 leaves report's files alone
    write_text(tmp_path / "report.2024", "whole")
    assert live_other.exists()


@posix_only
def test_a_live_temp_is_kept_until_it_is_older_than_the_limit(tmp_path):
    live = tmp_path / f".out.md.{os.getppid()}.{'0' * 16}.tmp"
    live.write_text("busy")
    assert stale_temp_files(tmp_path / "out.md") == []
    old = time.time() - writing.STALE_AFTER - 60
    os.utime(live, (old, old))
    assert stale_temp_files(tmp_path / "out.md") == [live]


def test_temp_names_are_exact_even_for_a_very_long_target(tmp_path):
    name = "n" * 240 + ".md"
    write_text(tmp_path / name, "whole")  # the temp name would pass 255 bytes as is
    assert (tmp_path / name).read_text() == "whole"
    assert [p.name for p in tmp_path.iterdir()] == [name]
