"""The one way the project reads a file it did not write itself.

Records, lessons, score sheets and progress imports all come through here, so every one of
them gets the same protection:

- anything that is not a regular file (a directory, a FIFO, a device such as ``/dev/zero``,
  a socket) is refused *before* it is opened, so reading can neither block nor run forever;
- at most ``limit + 1`` bytes are read, so a huge or endless file costs at most that much
  memory and time, and the message says how much is allowed;
- problems are :class:`LoadError` (a ``ValueError``) carrying :class:`Problem` values that
  name the file, and the line and column when there is one: the command line prints them
  one a line and exits with status 2.

A symlink to a regular file is read like the file itself: the check is on what it points to.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Problem", "LoadError", "MAX_BYTES", "CONTROL_CHARACTERS", "INVISIBLE", "file_kind",
           "read_bytes", "read_text", "read_json", "parse_json", "decode_utf8"]

#: The default limit: far above any real record, lesson or sheet, far below harm.
MAX_BYTES = 1_000_000

#: JSON nesting deeper than this is refused (the decoder would otherwise recurse until
#: Python's own limit and fail with a RecursionError).
MAX_JSON_DEPTH = 64


#: The invisible formatting characters (Unicode's "format" category, Cf, as of Unicode 14,
#: with the line and paragraph separators): every bidirectional control (the marks U+200E,
#: U+200F and U+061C, the embeddings and overrides U+202A-U+202E, the isolates
#: U+2066-U+2069), which make text display in another order than it reads ("Trojan
#: Source"), and the zero-width and invisible ones (U+200B-U+200D, U+2060-U+2064, U+FEFF,
#: the soft hyphen, the tag characters U+E0000-U+E007F, ...), which hide text or make two
#: names that look the same differ. ``tests/test_plain_text.py`` checks the list against the
#: running Python's Unicode database.
INVISIBLE = ("\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
             "\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd"
             "\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
             "\U000e0001\U000e0020-\U000e007f")

#: Characters that have no place in text read from a file: C0 controls but tab and newline,
#: DEL, C1 controls (0x80-0x9f: CSI and OSC have one-character forms there), and the
#: invisible formatting characters (:data:`INVISIBLE`). The one list every output strips
#: (``render/plain.py``) and the lesson reader refuses.
CONTROL_CHARACTERS = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE}]")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, where it is, and what was expected.

    ``line`` 0 means the problem is about the file as a whole (it cannot be read, it is too
    big); it then prints as ``file: message``."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        if self.line <= 0:
            return f"{self.file}: {self.message}"
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class LoadError(ValueError):
    """A file that cannot be used; carries every problem found, one per line in ``str``."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


def _whole_file(file: str, message: str) -> LoadError:
    return LoadError([Problem(file, 0, 0, message)])


def file_kind(mode: int) -> str:
    """A person's word for the kind of file a ``st_mode`` describes."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode):
        return "a regular file"
    return "not a regular file"


def read_bytes(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or a :class:`LoadError`.

    Never opens a FIFO or device, and never reads more than ``limit + 1`` bytes (the one
    extra byte tells a file of exactly ``limit`` bytes from a bigger one, including files
    whose reported size is wrong, such as those under /proc)."""
    name = str(path)
    try:
        info = os.stat(path)
    except OSError as err:
        raise _whole_file(name, f"cannot read the file: {err.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise _whole_file(name, f"this is {file_kind(info.st_mode)}; expected a regular file")
    if info.st_size > limit:
        raise _too_big(name, info.st_size, limit)
    # O_NONBLOCK: if the path was swapped for a FIFO since the check, opening must not wait
    # for a writer (the fstat below then refuses it). It changes nothing for regular files.
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise _whole_file(name, f"cannot read the file: {err.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _whole_file(name, f"this is {file_kind(info.st_mode)}; expected a regular "
                                    "file")
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            try:
                chunk = os.read(fd, min(1 << 16, limit + 1 - got))
            except OSError as err:
                raise _whole_file(name, f"cannot read the file: {err.strerror}") from None
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise _too_big(name, None, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _too_big(name: str, size: int | None, limit: int) -> LoadError:
    said = f"the file is {size:,} bytes" if size is not None else "the file is too big"
    return _whole_file(name, f"{said}; at most {limit:,} bytes are read")


def decode_utf8(raw: bytes, file: str, expected: str = "text") -> str:
    """UTF-8 text (a leading byte-order mark dropped), or a located :class:`LoadError`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        before = raw[: err.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        raise LoadError([Problem(file, line, column, f"the file is not UTF-8 text (byte "
                                                     f"{err.start}); expected {expected}")]
                        ) from None
    return text.removeprefix("\ufeff")


def read_text(path: str | Path, limit: int = MAX_BYTES, expected: str = "text") -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes; see :func:`read_bytes`.
    Text holding NUL bytes is refused as binary data."""
    name = str(path)
    text = decode_utf8(read_bytes(path, limit), name, expected)
    if "\x00" in text:
        raise _whole_file(name, f"the file holds binary data; expected {expected}")
    return text


def read_json(path: str | Path, limit: int = MAX_BYTES) -> Any:
    """The JSON value of a regular file of at most ``limit`` bytes, or a :class:`LoadError`
    with the line and column of a syntax error. Nesting is capped at ``MAX_JSON_DEPTH``."""
    return parse_json(read_text(path, limit, "JSON"), str(path))


def parse_json(text: str, file: str) -> Any:
    """JSON text to a value; errors as :class:`LoadError` with line and column."""
    import json

    depth = _json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise _whole_file(file, f"the JSON is nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise LoadError([Problem(file, err.lineno, err.colno, f"not valid JSON: {err.msg}")]
                        ) from None
    except (RecursionError, ValueError) as err:  # huge numbers, nesting missed above
        raise _whole_file(file, f"not valid JSON: {err}") from None


def _json_depth(text: str) -> int:
    """The deepest bracket nesting outside strings (an upper bound on the value's depth)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
