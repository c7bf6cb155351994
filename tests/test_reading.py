"""The one reading path: non-regular files refused before opening, bounded reads, located
errors. These run in well under a second each: a hang here is the bug being tested."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

from pepper_tutor.files.reading import (
    LoadError,
    Problem,
    parse_json,
    read_bytes,
    read_json,
    read_text,
)

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX special files")


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    f = tmp_path / "a.yaml"
    f.write_bytes(b"x" * 100)
    assert read_bytes(f) == b"x" * 100


def test_exactly_the_limit_is_allowed_one_more_byte_is_not(tmp_path: Path) -> None:
    f = tmp_path / "a"
    f.write_bytes(b"y" * 10)
    assert read_bytes(f, limit=10) == b"y" * 10
    f.write_bytes(b"y" * 11)
    with pytest.raises(LoadError, match=r"11 bytes; at most 10 bytes are read"):
        read_bytes(f, limit=10)


@posix_only
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_without_reading(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"{device} does not exist here")
    with pytest.raises(LoadError) as err:
        read_bytes(device)
    assert str(err.value) == f"{device}: this is a character device; expected a regular file"


@posix_only
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(LoadError, match=r"pipe.yaml: this is a FIFO \(named pipe\); expected"):
        read_bytes(fifo)


def test_a_directory_and_a_missing_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="this is a directory; expected a regular file"):
        read_bytes(tmp_path)
    with pytest.raises(LoadError, match=r"nope.yaml: cannot read the file: No such file"):
        read_bytes(tmp_path / "nope.yaml")


@posix_only
def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as sock:
        try:
            sock.bind(str(path))
        except OSError:
            pytest.skip("cannot bind a unix socket here")
        with pytest.raises(LoadError, match="this is a socket"):
            read_bytes(path)


@posix_only
def test_a_symlink_to_a_regular_file_reads_the_file_and_to_a_device_is_refused(
        tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("a: 1\n")
    (tmp_path / "link.yaml").symlink_to(real)
    assert read_bytes(tmp_path / "link.yaml") == b"a: 1\n"
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    with pytest.raises(LoadError, match="character device"):
        read_bytes(tmp_path / "zero.yaml")


def test_a_file_whose_size_lies_is_still_bounded() -> None:
    # Files under /proc report size 0 but have content: the read itself must stop.
    proc = Path("/proc/self/maps")
    if not proc.exists():
        pytest.skip("no /proc here")
    with pytest.raises(LoadError, match="too big; at most 10 bytes are read"):
        read_bytes(proc, limit=10)


def test_text_not_utf8_is_located(tmp_path: Path) -> None:
    f = tmp_path / "t.yaml"
    f.write_bytes(b"a: 1\nbb: \xff\n")
    with pytest.raises(LoadError) as err:
        read_text(f, expected="YAML")
    assert err.value.problems == [Problem(str(f), 2, 5, "the file is not UTF-8 text (byte 9); "
                                                        "expected YAML")]


def test_text_with_a_nul_is_binary(tmp_path: Path) -> None:
    f = tmp_path / "t"
    f.write_bytes(b"ok\x00")
    with pytest.raises(LoadError, match="binary data"):
        read_text(f)


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    f = tmp_path / "t"
    f.write_bytes("\ufeffhello".encode())
    assert read_text(f) == "hello"


def test_json_errors_have_line_and_column(tmp_path: Path) -> None:
    f = tmp_path / "p.json"
    f.write_text('{"a": 1,\n "b": }\n')
    with pytest.raises(LoadError) as err:
        read_json(f)
    (problem,) = err.value.problems
    assert (problem.line, problem.column) == (2, 7)
    assert str(problem).startswith(f"{f}:2:7: not valid JSON")
    f.write_text('{"a": [1, 2, "]]]"]}')
    assert read_json(f) == {"a": [1, 2, "]]]"]}


def test_deep_json_is_refused_not_a_recursion_error() -> None:
    with pytest.raises(LoadError, match="nested more than 64 levels"):
        parse_json("[" * 100_000 + "]" * 100_000, "deep.json")


def test_whole_file_problems_print_without_a_line() -> None:
    assert str(Problem("f.yaml", 0, 0, "gone")) == "f.yaml: gone"
    assert str(Problem("f.yaml", 3, 4, "bad")) == "f.yaml:3:4: bad"

