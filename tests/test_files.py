"""The files layer: one home rule, one writer for every file, one SQLite foundation."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from pepper_tutor.apps.night import nights_dir
from pepper_tutor.apps.night.store import NightStore
from pepper_tutor.files.database import DamagedDatabase, Schema, connect, look, transaction
from pepper_tutor.files.home import tutor_home
from pepper_tutor.teaching.learner.store import LearnerStore
from pepper_tutor.teaching.practice.history import TableHistory, history_path

PACKAGE = Path(__file__).resolve().parent.parent / "pepper_tutor"


def test_one_home_rule_for_every_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path / "home"))
    assert tutor_home() == tmp_path / "home"
    monkeypatch.setenv("PEPPER_TUTOR_HOME", "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert tutor_home() == tmp_path / "xdg" / "pepper-tutor"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "me"))
    assert tutor_home() == tmp_path / "me" / ".local" / "share" / "pepper-tutor"
    assert history_path() == tutor_home() / "table.sqlite"
    assert nights_dir() == tutor_home() / "nights"
    assert LearnerStore("ann").home == tutor_home()


# Writes that do not go through files/writing.py, each with its reason.
NOT_THE_WRITER = {
    "analysis/native.py": 2,  # build scratch files in the build's own temporary folder
    "bench/night.py": 1,  # the load test's server log, streamed as it runs
    "apps/commands.py": 1,  # rich's console printing to os.devnull
}
WRITES = re.compile(r"os\.replace\(|os\.rename\(|mkstemp\(|\.write_text\(|\.write_bytes\(|"
                    r"open\([^)]*[\"']w")


def test_every_file_the_package_writes_goes_through_the_one_writer() -> None:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = path.relative_to(PACKAGE).as_posix()
        if name.startswith("files/"):
            continue
        hits = len(WRITES.findall(path.read_text("utf-8")))
        if hits:
            found[name] = hits
    assert found == NOT_THE_WRITER


def test_every_sqlite_connection_is_opened_by_the_foundation() -> None:
    opened = sorted(path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")
                    if "sqlite3.connect(" in path.read_text("utf-8"))
    assert opened == ["files/database.py"]


def test_a_transaction_is_all_or_nothing(tmp_path: Path) -> None:
    con = connect(tmp_path / "t.sqlite")
    con.execute("CREATE TABLE t (x INTEGER NOT NULL)")
    with pytest.raises(sqlite3.IntegrityError), transaction(con):
        con.execute("INSERT INTO t VALUES (1)")
        con.execute("INSERT INTO t VALUES (NULL)")
    assert con.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 0
    with transaction(con):
        con.execute("INSERT INTO t VALUES (1)")
    assert con.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 1
    assert con.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_the_look_refuses_a_damaged_or_foreign_file(tmp_path: Path) -> None:
    foreign = tmp_path / "photos.sqlite"
    con = connect(foreign)
    con.execute("CREATE TABLE photos (x)")
    con.close()
    ours = Schema(frozenset({"meta"}), "CREATE TABLE IF NOT EXISTS meta (key, value);")
    with pytest.raises(DamagedDatabase, match="not a pepper-tutor database"):
        look(foreign, ours)
    assert look(foreign, Schema(frozenset({"photos"}), "")).state == "ours"
    connect(tmp_path / "new.sqlite").close()
    assert look(tmp_path / "new.sqlite", ours).state == "new"  # a new file is fine
    assert look(tmp_path / "none.sqlite", ours).state == "missing"
    assert not (tmp_path / "none.sqlite").exists()  # looking makes nothing


def test_a_damaged_night_is_set_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / "friday.sqlite"
    path.write_bytes(b"not a database at all " * 50)
    store = NightStore(path)
    try:
        assert store.warning and "kept as" in store.warning
        code = store.room_code
        assert len(code) == 5
    finally:
        store.close()
    (aside,) = tmp_path.glob("friday.sqlite.damaged-*")
    assert aside.read_bytes().startswith(b"not a database")
    again = NightStore(path)  # the new night resumes, with no warning
    try:
        assert again.warning is None and again.room_code == code
    finally:
        again.close()


def test_a_foreign_database_is_not_taken_for_the_practice_history(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE photos (x)")
    con.commit()
    con.close()
    before = path.read_bytes()
    history = TableHistory(path)
    assert history.warning and "not a pepper-tutor database" in history.warning
    (aside,) = tmp_path.glob("table.sqlite.damaged-*")
    assert aside.read_bytes() == before  # set aside untouched: no schema, no WAL added
    assert history.add_hand("standard", "S", "club", "North 4", 4, []) is not None
    assert len(history.hands()) == 1
