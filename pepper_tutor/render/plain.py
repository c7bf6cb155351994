"""Text from files made safe to show: no control characters, no terminal escape sequences.

Records, lessons and score sheets are written by other people. Before their text reaches a
terminal it passes :func:`strip_controls`, so an escape sequence in a player's name cannot
clear the screen, retitle the window or plant a hidden link (OSC 8). Standard library only:
the command line's error path uses it without loading rich.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..files.reading import CONTROL_CHARACTERS as _CONTROLS

__all__ = ["strip_controls", "one_line", "safe_json"]

#: What JSON output spells as ``\\uXXXX`` although ``ensure_ascii=False`` keeps the rest of
#: the text readable: the C1 controls (some terminals act on them), the bidi marks, embeddings,
#: overrides and isolates (they reorder what a reader sees, "Trojan Source"), and the line and
#: paragraph separators (a line break to JavaScript and many viewers).
_JSON_HIDDEN = re.compile("[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029"
                          "\u202a-\u202e\u2066-\u2069]")


def strip_controls(text: object) -> str:
    """``str(text)`` without control characters (newlines and tabs are kept). The printable
    rest of an escape sequence stays visible, so a tampered name looks tampered."""
    return _CONTROLS.sub("", str(text))


def one_line(text: object) -> str:
    """Text as one line: controls removed, every run of white space (newlines too) one
    space. For names and notes that sit inside a line, a table cell or a list item."""
    return " ".join(strip_controls(text).split())


def safe_json(data: Any, indent: int | None = None) -> str:
    """``json.dumps`` with the text kept readable (``ensure_ascii=False``) but every C1
    control and bidi control escaped as ``\\uXXXX``. They can only stand inside strings
    (JSON's own syntax is ASCII), so the escaped text parses back to the same data."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return _JSON_HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
