"""Text from files made safe to show: no control characters, no terminal escape sequences.

Records, lessons and score sheets are written by other people. Before their text reaches a
terminal it passes :func:`strip_controls`, so an escape sequence in a player's name cannot
clear the screen, retitle the window or plant a hidden link (OSC 8). Standard library only:
the command line's error path uses it without loading rich.
"""

from __future__ import annotations

from ..files.reading import CONTROL_CHARACTERS as _CONTROLS

__all__ = ["strip_controls", "one_line"]


def strip_controls(text: object) -> str:
    """``str(text)`` without control characters (newlines and tabs are kept). The printable
    rest of an escape sequence stays visible, so a tampered name looks tampered."""
    return _CONTROLS.sub("", str(text))


def one_line(text: object) -> str:
    """Text as one line: controls removed, every run of white space (newlines too) one
    space. For names and notes that sit inside a line, a table cell or a list item."""
    return " ".join(strip_controls(text).split())
