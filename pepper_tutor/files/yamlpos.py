"""Safe YAML loading that remembers where every value came from (line and column).

Lesson files and hand records are untrusted text. They are read through the one reading
path (:mod:`.reading`), then composed by PyYAML's safe loader with the nesting depth and the
alias expansion counted *while composing* (so nothing recurses or expands past the limits),
and only plain values kept: any other tag is refused where it is written. Every problem found
then or later names the file, line and column of the value it is about.
"""

from __future__ import annotations

import hashlib
import pickle
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .reading import MAX_BYTES, LoadError, Problem, decode_utf8, read_bytes

__all__ = ["Problem", "LoadError", "Located", "ProblemCollector", "load_located", "read_file",
           "MAX_BYTES", "MAX_DEPTH", "precompose", "use_precomposed"]

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

    def word(self, path: KeyPath, raw: Any, expected: str) -> str | None:
        """A scalar written as text (a word, a number): None, empty, a list or a mapping
        is a problem here, never quietly turned into text such as "None"."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            self.bad(path, f"{_name(path)} is empty; expected {expected}")
            return None
        if isinstance(raw, dict | list):
            self.bad(path, f"expected {expected}, not a {_shape(raw)}")
            return None
        if isinstance(raw, bool):
            self.bad(path, f"expected {expected}, not {str(raw).lower()}")
            return None
        return str(raw)

    def note(self, path: KeyPath, raw: Any) -> str | None:
        """Free text (a note, a reason): text or a number, never a list or a mapping."""
        if raw is None:
            return None
        if isinstance(raw, dict | list):
            self.bad(path, f"{_name(path)} must be text, not a {_shape(raw)}")
            return None
        return str(raw)


def _shape(raw: Any) -> str:
    return "mapping" if isinstance(raw, dict) else "list"


def _name(path: KeyPath) -> str:
    named = [p for p in path if isinstance(p, str)]
    return "this value" if not named or isinstance(path[-1], int) else named[-1]


def read_file(path: str | Path) -> tuple[bytes, str]:
    """The bytes of a file and its name for messages, through the one reading path
    (:mod:`.reading`): a FIFO, device or directory is refused, at most MAX_BYTES + 1 read."""
    return read_bytes(path, MAX_BYTES), str(path)


class _Refused(Exception):
    """A limit or a refused tag found while composing: the message and where."""

    def __init__(self, mark: Any, message: str):
        super().__init__(message)
        self.line: int = mark.line + 1 if mark else 1
        self.column: int = mark.column + 1 if mark else 1
        self.message = message


def _loader_class() -> Any:
    """A SafeLoader whose composer enforces the depth and alias limits as it goes, before
    anything recurses or expands; dates stay text (no implicit timestamps)."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    import yaml

    class LimitedLoader(yaml.SafeLoader):
        def __init__(self, stream: str):
            super().__init__(stream)
            self.depth = 0
            self.values = 0  # values in the document with every alias expanded
            self.sizes: dict[int, tuple[int, int]] = {}  # id(node) -> (values, height)
            self.heights: list[int] = []  # the tallest child so far, per open collection
            self.open_anchors: list[str | None] = []

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()  # type: ignore[no-untyped-call]
                if event.anchor in self.open_anchors:
                    raise _Refused(event.start_mark, f"the alias *{event.anchor} refers to a "
                                                     "value that contains it")
                node = super().compose_node(parent, index)
                size, height = self.sizes.get(id(node), (1, 1))
                self.grow(size, height, event.start_mark)
                return node
            event = self.peek_event()  # type: ignore[no-untyped-call]
            if self.depth >= MAX_DEPTH:
                raise _Refused(event.start_mark, f"nested more than {MAX_DEPTH} levels deep")
            self.depth += 1
            self.heights.append(0)
            self.open_anchors.append(getattr(event, "anchor", None))
            before = self.values
            try:
                node = super().compose_node(parent, index)
            finally:
                self.depth -= 1
                height = self.heights.pop() + 1
                self.open_anchors.pop()
            self.values += 1
            self.sizes[id(node)] = (self.values - before, height)
            self.grow(0, height, event.start_mark)
            return node

        def grow(self, size: int, height: int, mark: Any) -> None:
            self.values += size
            if self.values > MAX_VALUES:
                raise _Refused(mark, f"the document expands to more than {MAX_VALUES:,} "
                                     "values; aliases are not meant for that")
            if self.depth + height > MAX_DEPTH:
                raise _Refused(mark, f"nested more than {MAX_DEPTH} levels deep")
            if self.heights:
                self.heights[-1] = max(self.heights[-1], height)

    LimitedLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    _LOADER = LimitedLoader
    return _LOADER


# Documents composed ahead of time, by the SHA-256 of their text: the browser build ships the
# package's own lessons and hands composed (PyYAML's pure-Python composer takes seconds over
# them in a browser tab). Only texts the build composed are found here; every other text is
# parsed as usual.
_PRECOMPOSED: dict[str, bytes] = {}


def _text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def precompose(paths: Iterable[Path]) -> bytes:
    """The documents at ``paths`` composed, for :func:`use_precomposed` (a build step)."""
    table = {}
    for path in paths:
        text = decode_utf8(read_bytes(path), str(path), "YAML")
        doc = load_located(text, str(path))
        table[_text_key(text)] = pickle.dumps((doc.data, doc.positions))
    return pickle.dumps(table)


def use_precomposed(blob: bytes) -> int:
    """Take the documents :func:`precompose` made (a file of the same build as this package,
    served with it; never a learner's file); how many."""
    table = pickle.loads(blob)
    _PRECOMPOSED.update(table)
    return len(table)


def load_located(raw: bytes | str, file: str) -> Located:
    """Parse one YAML document safely. Raises :class:`LoadError` with the position of a
    syntax error, an empty file, text that is not UTF-8, a value too deep or expanding too
    far (checked while composing), or a tag outside the plain ones (str, int, float, bool,
    null, map, seq). Every refused tag and every bad value is reported at once."""
    import yaml

    if isinstance(raw, bytes):
        if len(raw) > MAX_BYTES:
            raise LoadError([Problem(file, 0, 0, f"the file is {len(raw):,} bytes; at most "
                                                 f"{MAX_BYTES:,} bytes are read")])
        text = decode_utf8(raw, file, "YAML")
    else:
        text = raw
        if len(text) > MAX_BYTES:
            raise LoadError([Problem(file, 0, 0, f"the text is {len(text):,} characters; at "
                                                 f"most {MAX_BYTES:,} are read")])
    if "\x00" in text:
        raise LoadError([Problem(file, 0, 0, "the file holds binary data; expected YAML text")])
    if _PRECOMPOSED:
        found = _PRECOMPOSED.get(_text_key(text))
        if found is not None:
            known, where = pickle.loads(found)  # the build's own output: see use_precomposed
            return Located(file, known, where)
    loader = None
    try:
        loader = _loader_class()(text)
        node = loader.get_single_node()
    except yaml.reader.ReaderError as err:
        before = text[: err.position]
        line, column = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        raise LoadError([Problem(file, line, column, f"the character U+{err.character:04X} is "
                                                     "not allowed in YAML text")]) from None
    except _Refused as err:
        raise LoadError([Problem(file, err.line, err.column, err.message)]) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = (err.problem or err.context or "not valid YAML").strip()
        raise LoadError([Problem(file, line, col, f"YAML syntax error: {what}")]) from None
    except yaml.YAMLError as err:
        raise LoadError([Problem(file, 1, 1, f"YAML error: {err}")]) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise LoadError([Problem(file, 1, 1, "the file is empty; expected a YAML mapping")])
    positions: dict[KeyPath, tuple[int, int]] = {}
    problems: list[Problem] = []
    data = _convert(node, (), positions, problems, file)
    if problems:
        raise LoadError(problems)
    return Located(file, data, positions)


def _convert(node: Any, path: KeyPath, positions: dict[KeyPath, tuple[int, int]],
             problems: list[Problem], file: str) -> Any:
    """Plain Python values from a composed (already size- and depth-checked) node."""
    import yaml

    mark = node.start_mark
    positions[path] = (mark.line + 1, mark.column + 1)
    if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and node.tag not in _PLAIN_TAGS:
        problems.append(Problem(file, mark.line + 1, mark.column + 1, _tag_refused(node)))
        return None
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            km = key_node.start_mark
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _KEY_TAGS:
                message = (_tag_refused(key_node) if key_node.tag not in _SCALAR_TAGS
                           else "a mapping key must be a plain word")
                problems.append(Problem(file, km.line + 1, km.column + 1, message))
                continue
            try:
                key = str(_scalar(key_node))
            except _SCALAR_ERRORS:
                problems.append(_not_a(key_node, file))
                continue
            if _SURROGATE.search(key):
                problems.append(_surrogate(key, km, file))
                continue
            positions[(*path, key)] = (km.line + 1, km.column + 1)
            if key in out:
                problems.append(Problem(file, km.line + 1, km.column + 1,
                                        f"the key {key!r} appears twice"))
            out[key] = _convert(value_node, (*path, key), positions, problems, file)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, i), positions, problems, file)
                for i, item in enumerate(node.value)]
    if node.tag not in _SCALAR_TAGS:
        problems.append(Problem(file, mark.line + 1, mark.column + 1, _tag_refused(node)))
        return None
    try:
        value = _scalar(node)
    except _SCALAR_ERRORS:
        problems.append(_not_a(node, file))
        return None
    if isinstance(value, str) and _SURROGATE.search(value):
        problems.append(_surrogate(value, mark, file))
        return None
    return value


# A lone surrogate ("\ud800" in a double-quoted YAML string) is no character: it cannot be
# written as UTF-8, so it breaks every output (terminal, JSON, HTML, a saved file). Refused
# where it is read, with its place, for lessons and records alike.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate(value: str, mark: Any, file: str) -> Problem:
    found = _SURROGATE.search(value)
    code = ord(found.group()) if found else 0
    return Problem(file, mark.line + 1, mark.column + 1,
                   f"the text holds a lone surrogate (U+{code:04X}), which is not a "
                   "character; write the character itself")


# What PyYAML's scalar constructors raise for text that does not fit an explicit tag
# (``!!int abc``: ValueError, ``!!bool maybe``: KeyError); yaml.YAMLError is a ValueError.
_SCALAR_ERRORS = (ValueError, KeyError, TypeError, AttributeError)


def _not_a(node: Any, file: str) -> Problem:
    short = node.tag.replace("tag:yaml.org,2002:", "!!", 1)
    mark = node.start_mark
    return Problem(file, mark.line + 1, mark.column + 1,
                   f"{node.value!r} is not {_SCALAR_TAGS[node.tag]} ({short})")


def _tag_refused(node: Any) -> str:
    tag = str(node.tag)
    if tag == "tag:yaml.org,2002:merge":
        return "merge keys (<<) are not allowed; write the keys out"
    short = tag.replace("tag:yaml.org,2002:", "!!", 1)
    return (f"the tag {short} is not allowed; expected plain values (text, numbers, true/false, "
            "lists and mappings)")


def _scalar(node: Any) -> Any:
    global _SCALARS
    if _SCALARS is None:
        import yaml

        _SCALARS = yaml.SafeLoader("")  # used only for its safe scalar constructors
    if node.tag == "tag:yaml.org,2002:str":
        return node.value
    value = _SCALARS.construct_object(node, deep=True)
    _SCALARS.constructed_objects.clear()
    return value


_SCALARS: Any = None
_LOADER: Any = None
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")
_SCALAR_TAGS = {"tag:yaml.org,2002:str": "text", "tag:yaml.org,2002:int": "a whole number",
                "tag:yaml.org,2002:float": "a number", "tag:yaml.org,2002:bool": "true or false",
                "tag:yaml.org,2002:null": "null"}
_KEY_TAGS = ("tag:yaml.org,2002:str", "tag:yaml.org,2002:int")
