"""Text from files made safe to show: no control characters, no terminal escape sequences,
no bidi or invisible formatting characters.

Records, lessons and score sheets are written by other people. Before their text reaches a
terminal, Markdown, HTML (:func:`html_text`) or JSON (:func:`safe_json`, which escapes
them) it passes :func:`strip_controls`, so an escape sequence in a player's name cannot
clear the screen, retitle the window or plant a hidden link (OSC 8), and a right-to-left
mark or a zero-width space cannot make a note read in another order or two names look
alike. Standard library only: the command line's error path uses it without loading rich.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from ..files.reading import CONTROL_CHARACTERS as _CONTROLS
from ..files.reading import INVISIBLE

__all__ = ["strip_controls", "one_line", "safe_json", "html_text"]

#: What JSON output spells as ``\\uXXXX`` although ``ensure_ascii=False`` keeps the rest of
#: the text readable: the C1 controls (some terminals act on them) and every invisible
#: formatting character (:data:`~pepper_tutor.files.reading.INVISIBLE`: the bidi marks,
#: embeddings, overrides and isolates reorder what a reader sees, "Trojan Source"; the
#: zero-width ones hide text; the line and paragraph separators are line breaks to
#: JavaScript and many viewers).
_JSON_HIDDEN = re.compile(f"[\u0080-\u009f{INVISIBLE}]")


def strip_controls(text: object) -> str:
    """``str(text)`` without control characters (newlines and tabs are kept). The printable
    rest of an escape sequence stays visible, so a tampered name looks tampered."""
    return _CONTROLS.sub("", str(text))


def html_text(text: object, quote: bool = True) -> str:
    """Text for HTML: controls and invisible formatting characters removed, then escaped.
    Every page and widget puts text from files (and what people type) through this."""
    return html.escape(strip_controls(text), quote=quote)


def one_line(text: object) -> str:
    """Text as one line: controls removed, every run of white space (newlines too) one
    space. For names and notes that sit inside a line, a table cell or a list item."""
    return " ".join(strip_controls(text).split())


def safe_json(data: Any, indent: int | None = None) -> str:
    """``json.dumps`` with the text kept readable (``ensure_ascii=False``) but every C1
    control and bidi control escaped as ``\\uXXXX``. They can only stand inside strings
    (JSON's own syntax is ASCII), so the escaped text parses back to the same data."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return _JSON_HIDDEN.sub(lambda m: _json_escape(m.group()), text)


def _json_escape(char: str) -> str:
    """``\\uXXXX``; a character past U+FFFF (the tag characters) as JSON spells it, a
    UTF-16 surrogate pair."""
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
