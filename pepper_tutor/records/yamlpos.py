"""Safe YAML loading that remembers where every value came from (line and column).

Lesson files and hand records are untrusted text: they are parsed with PyYAML's safe
composer only, with limits on size and nesting, and every problem found later can name
the file, line and column of the value it is about.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .reading import MAX_BYTES, LoadError, Problem, read_bytes

__all__ = ["Problem", "LoadError", "Located", "ProblemCollector", "load_located", "read_file",
           "MAX_BYTES", "MAX_DEPTH"]

MAX_DEPTH = 40
MAX_VALUES = 100_000

KeyPath = tuple[str | int, ...]


@dataclass
class Located:
    """A parsed document: plain Python values plus the position of each by path."""

    file: str
    data: Any
    positions: dict[KeyPath, tuple[int, int]]

    def where(self, path: KeyPath) -> tuple[int, int]:
        """Line and column (1-based) of the value at ``path``, or of its nearest parent."""
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, (1, 1))

    def problem(self, path: KeyPath, message: str) -> Problem:
        line, column = self.where(path)
        return Problem(self.file, line, column, message)


class ProblemCollector:
    """Base for the readers of lessons and records: gathers every problem, then fails once
    with all of them in file order."""

    def __init__(self, doc: Located):
        self.doc = doc
        self.problems: list[Problem] = []

    def bad(self, path: KeyPath, message: str) -> None:
        self.problems.append(self.doc.problem(path, message))

    def fail_if_any(self) -> None:
        if self.problems:
            raise LoadError(sorted(self.problems, key=lambda p: (p.line, p.column)))


def read_file(path: str | Path) -> tuple[bytes, str]:
    """The bytes of a file and its name for messages, through the one reading path
    (:mod:`.reading`): a FIFO, device or directory is refused, at most MAX_BYTES + 1 read."""
    return read_bytes(path, MAX_BYTES), str(path)


def load_located(raw: bytes | str, file: str) -> Located:
    """Parse one YAML document safely. Raises :class:`LoadError` with the position of a
    syntax error, an empty file, text that is not UTF-8, or a document too big or too deep."""
    import yaml

    if isinstance(raw, bytes):
        if len(raw) > MAX_BYTES:
            raise LoadError([Problem(file, 1, 1, f"the file is {len(raw):,} bytes; at most "
                                                 f"{MAX_BYTES:,} are read")])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            line = raw[: err.start].count(b"\n") + 1
            raise LoadError([Problem(file, line, 1, "the file is not UTF-8 text (byte "
                                                    f"{err.start}); expected YAML")]) from None
    else:
        text = raw
        if len(text) > MAX_BYTES:
            raise LoadError([Problem(file, 1, 1, f"the text is {len(text):,} characters; at "
                                                 f"most {MAX_BYTES:,} are read")])
    if "\x00" in text:
        raise LoadError([Problem(file, 1, 1, "the file holds binary data; expected YAML text")])
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = (err.problem or err.context or "not valid YAML").strip()
        raise LoadError([Problem(file, line, col, f"YAML syntax error: {what}")]) from None
    except yaml.YAMLError as err:
        raise LoadError([Problem(file, 1, 1, f"YAML error: {err}")]) from None
    if node is None:
        raise LoadError([Problem(file, 1, 1, "the file is empty; expected a YAML mapping")])
    positions: dict[KeyPath, tuple[int, int]] = {}
    problems: list[Problem] = []
    data = _convert(node, (), 0, positions, problems, file)
    if len(positions) > MAX_VALUES:
        raise LoadError([Problem(file, 1, 1, f"the document expands to more than "
                                             f"{MAX_VALUES:,} values; aliases are not "
                                             "meant for that")])
    if problems:
        raise LoadError(problems[:1])
    return Located(file, data, positions)


def _convert(node: Any, path: KeyPath, depth: int, positions: dict[KeyPath, tuple[int, int]],
             problems: list[Problem], file: str) -> Any:
    import yaml

    mark = node.start_mark
    positions[path] = (mark.line + 1, mark.column + 1)
    if len(positions) > MAX_VALUES:
        return None  # an alias bomb: stop expanding, the caller reports it
    if depth > MAX_DEPTH:
        problems.append(Problem(file, mark.line + 1, mark.column + 1,
                                f"nested more than {MAX_DEPTH} levels deep"))
        return None
    if not isinstance(node, yaml.ScalarNode) and node.tag not in _PLAIN_TAGS:
        problems.append(Problem(file, mark.line + 1, mark.column + 1,
                                f"the tag {node.tag!r} is not allowed; expected plain values"))
        return None
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, str | int) or isinstance(key, bool):
                km = key_node.start_mark
                problems.append(Problem(file, km.line + 1, km.column + 1,
                                        "a mapping key must be a plain word"))
                continue
            key = str(key)
            positions[(*path, key)] = (key_node.start_mark.line + 1,
                                       key_node.start_mark.column + 1)
            if key in out:
                km = key_node.start_mark
                problems.append(Problem(file, km.line + 1, km.column + 1,
                                        f"the key {key!r} appears twice"))
            out[key] = _convert(value_node, (*path, key), depth + 1, positions, problems, file)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, i), depth + 1, positions, problems, file)
                for i, item in enumerate(node.value)]
    try:
        return _scalar(node)
    except yaml.YAMLError:
        problems.append(Problem(file, mark.line + 1, mark.column + 1,
                                f"the tag {node.tag!r} is not allowed; expected plain values"))
        return None


def _scalar(node: Any) -> Any:
    global _SCALARS
    if _SCALARS is None:
        import yaml

        _SCALARS = yaml.SafeLoader("")  # used only for its safe scalar constructors
    value = _SCALARS.construct_object(node, deep=True)
    _SCALARS.constructed_objects.clear()
    return value


_SCALARS: Any = None
_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")
