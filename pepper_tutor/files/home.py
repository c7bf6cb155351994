"""The folder a learner's data lives in: progress, the practice history, game nights.

One rule for every store: ``$PEPPER_TUTOR_HOME`` when it is set, else
``$XDG_DATA_HOME/pepper-tutor``, else ``~/.local/share/pepper-tutor``. An empty variable
counts as unset.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["tutor_home"]


def tutor_home() -> Path:
    """``$PEPPER_TUTOR_HOME``, else ``$XDG_DATA_HOME/pepper-tutor`` (``~/.local/share``)."""
    home = os.environ.get("PEPPER_TUTOR_HOME")
    if home:
        return Path(home)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "pepper-tutor"
