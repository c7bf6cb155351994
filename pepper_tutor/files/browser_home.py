"""Keeping the learner's folder in a browser tab where nobody else keeps it (JupyterLite).

In a browser tab's Python (Pyodide) files live in memory and go with the tab, unless their
folder is an IndexedDB-backed mount (Emscripten's IDBFS), copied to IndexedDB after a change
(``FS.syncfs(false)``) and back when a Python starts (``FS.syncfs(true)``). The Play and learn
page's worker does that in JavaScript for the whole of its home. JupyterLite's kernels do not,
and SQLite on their ``/drive`` is broken upstream, so this module does it for them:

- :func:`keep` puts the mount on the home the first time a store looks for it, and loads what
  IndexedDB kept *before* any store reads a file there. IndexedDB only answers later, so
  this needs a Python that can wait for a JavaScript promise (``pyodide.ffi.run_sync``), as a
  notebook cell can; where it cannot (a widget's callback) the home stays in memory and the
  notebooks say so (:func:`~pepper_tutor.files.home.home_is_kept`).
- :func:`saved` copies the folder to IndexedDB after each change: queued, never waited for,
  so an answer's feedback does not wait on the browser's storage.
- Each notebook has a kernel of its own, each with its own copy of the folder in memory, and
  a copy is written to IndexedDB whole. So a kernel that saved tells the others (a
  ``BroadcastChannel``), and they load the folder again while their learner is elsewhere;
  otherwise an answer in an older notebook's kernel would put back its stale copy over what
  was answered since in another.
- SQLite on these mounts runs in rollback-journal mode (:func:`journal_mode`), not WAL: a
  connection then notices at its next read that another kernel's copy replaced the file,
  where WAL's shared-memory index would not.

Anything IndexedDB refuses is said in :data:`problems`, for the notebooks' notice. Outside a
browser every function here does nothing.
"""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # asyncio is imported only where it runs: in a browser tab
    import asyncio

from .runtime import in_browser

__all__ = ["keep", "saved", "kept_by_us", "journal_mode", "problems"]

#: What went wrong keeping the folder, in a person's words, oldest first.
problems: list[str] = []


@dataclass
class _Mount:
    """One folder this Python mounted: its queue of copies and its channel to other kernels."""

    place: str
    busy: asyncio.Lock
    channel: Any = None
    listener: Any = None
    save_waiting: bool = False
    # The copies under way: held here, since the event loop keeps only weak references.
    running: set[asyncio.Future[None]] = field(default_factory=set)

    def start(self, work: Coroutine[Any, Any, None]) -> None:
        import asyncio

        task = asyncio.ensure_future(work)
        self.running.add(task)
        task.add_done_callback(self.running.discard)


_mounts: dict[str, _Mount] = {}


def _fs() -> Any:
    import pyodide_js  # type: ignore[import-not-found,unused-ignore]  # Pyodide

    return pyodide_js.FS


def _on_idbfs(place: Path) -> bool:
    fs = _fs()
    while not fs.analyzePath(str(place)).exists and place != place.parent:
        place = place.parent
    return bool(fs.lookupPath(str(place)).node.mount.type == fs.filesystems.IDBFS)


def _mount_of(path: Path) -> _Mount | None:
    for place in (path, *path.parents):
        mount = _mounts.get(str(place))
        if mount is not None:
            return mount
    return None


def kept_by_us(path: Path) -> bool:
    """True when ``path`` lies in a folder this module keeps (so it saves it after changes)."""
    return bool(_mounts) and _mount_of(path) is not None


def journal_mode(path: Path) -> str:
    """SQLite's journal mode for a database at ``path``: WAL, but the rollback journal on a
    folder this module keeps (see the module)."""
    return "DELETE" if kept_by_us(path) else "WAL"


def _syncfs(populate: bool) -> asyncio.Future[None]:
    import asyncio

    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found,unused-ignore]

    done: asyncio.Future[None] = asyncio.get_event_loop().create_future()

    def finish(err: Any = None) -> None:
        if done.done():
            return
        if err:
            done.set_exception(OSError(str(getattr(err, "message", None) or err)))
        else:
            done.set_result(None)

    _fs().syncfs(populate, create_once_callable(finish))
    return done


def keep(home: Path) -> None:
    """Keep ``home`` in IndexedDB from now on, with what was kept there loaded first; nothing
    outside a browser, where it is kept already, or where this Python cannot wait (see the
    module)."""
    if not in_browser() or str(home) in _mounts or _mount_of(home) is not None:
        return
    from pyodide.ffi import can_run_sync, run_sync  # type: ignore[import-not-found,unused-ignore]

    fs = _fs()
    if not can_run_sync() or _on_idbfs(home):
        return
    fs.mkdirTree(str(home))
    try:
        fs.mount(fs.filesystems.IDBFS, {}, str(home))
    except Exception as err:  # a JavaScript error: said, and the home stays in memory
        problems.append(f"this browser cannot keep your progress ({err})")
        return
    try:
        run_sync(_syncfs(True))
    except Exception as err:  # IndexedDB refused (a private window)
        fs.unmount(str(home))
        problems.append(f"this browser does not let the notebook keep your progress ({err})")
        return
    import asyncio

    mount = _Mount(str(home), asyncio.Lock())
    _mounts[mount.place] = mount
    _listen(mount)


def _listen(mount: _Mount) -> None:
    """Load the folder again whenever another kernel says it saved it."""
    try:
        from js import BroadcastChannel  # type: ignore[import-not-found,unused-ignore]
        from pyodide.ffi import create_proxy  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return
    mount.channel = BroadcastChannel.new(f"pepper-tutor:{mount.place}")
    mount.listener = create_proxy(lambda _event: mount.start(_load(mount)))
    mount.channel.onmessage = mount.listener


async def _load(mount: _Mount) -> None:
    async with mount.busy:
        try:
            await _syncfs(True)
        except OSError as err:
            problems.append(f"your progress from another notebook could not be read ({err})")


async def _save(mount: _Mount) -> None:
    mount.save_waiting = True
    async with mount.busy:
        # A save queued behind this one's start copies the same folder: one is enough.
        if not mount.save_waiting:
            return
        mount.save_waiting = False
        try:
            await _syncfs(False)
        except OSError as err:
            problems.append(f"your last answer could not be kept in this browser ({err})")
            return
    if mount.channel is not None:
        mount.channel.postMessage("saved")


def saved(path: Path) -> None:
    """A change was committed to ``path``: copy its folder to IndexedDB soon."""
    if not in_browser():
        return
    mount = _mount_of(path)
    if mount is not None:
        mount.start(_save(mount))
