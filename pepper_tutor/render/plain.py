"""Text from files made safe to show: no control characters, no terminal escape sequences.

Records, lessons and score sheets are written by other people. Before their text reaches a
terminal it passes :func:`strip_controls`, so an escape sequence in a player's name cannot
clear the screen, retitle the window or plant a hidden link (OSC 8). Standard library only:
the command line's error path uses it without loading rich.
"""

from __future__ import annotations

import re

__all__ = ["strip_controls", "one_line"]

# C0 controls but tab and newline, DEL, C1 controls (0x80-0x9f: CSI and OSC have one-byte
# forms there), and the bidirectional overrides that make text display in another order.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def strip_controls(text: object) -> str:
    """``str(text)`` without control characters (newlines and tabs are kept). The printable
    rest of an escape sequence stays visible, so a tampered name looks tampered."""
    return _CONTROLS.sub("", str(text))


def one_line(text: object) -> str:
    """Text as one line: controls removed, every run of white space (newlines too) one
    space. For names and notes that sit inside a line, a table cell or a list item."""
    return " ".join(strip_controls(text).split())
