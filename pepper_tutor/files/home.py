"""The folder a learner's data lives in: progress, the practice history, game nights.

One rule for every store: ``$PEPPER_TUTOR_HOME`` when it is set, else
``$XDG_DATA_HOME/pepper-tutor``, else ``~/.local/share/pepper-tutor``. An empty variable
counts as unset.

In a browser tab's Python (Pyodide) a folder keeps its files past the tab only on an
IndexedDB-backed mount (Emscripten's IDBFS). The Play and learn page puts the home on one; in
JupyterLite :func:`tutor_home` does, the first time a notebook cell looks for it
(:mod:`~pepper_tutor.files.browser_home`). Everywhere else there files live in memory:
:func:`home_is_kept` tells which.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import browser_home
from .runtime import in_browser

__all__ = ["tutor_home", "home_is_kept"]


def tutor_home() -> Path:
    """``$PEPPER_TUTOR_HOME``, else ``$XDG_DATA_HOME/pepper-tutor`` (``~/.local/share``); in a
    browser tab, kept in IndexedDB from the first look on where it can be (see the module)."""
    named = os.environ.get("PEPPER_TUTOR_HOME")
    if named:
        home = Path(named)
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        home = Path(base) / "pepper-tutor"
    if in_browser():
        browser_home.keep(home)
    return home


def home_is_kept(home: Path) -> bool:
    """False where files under ``home`` are lost when the browser tab closes: in a browser tab,
    unless the folder (or the nearest one above it that exists) is on an IDBFS mount. SQLite on
    JupyterLite's ``/drive`` is broken upstream, so only IDBFS counts."""
    if not in_browser():
        return True
    import pyodide_js  # type: ignore[import-not-found]  # only in Pyodide

    fs = pyodide_js.FS
    place = home
    while not fs.analyzePath(str(place)).exists and place != place.parent:
        place = place.parent
    return bool(fs.lookupPath(str(place)).node.mount.type == fs.filesystems.IDBFS)
