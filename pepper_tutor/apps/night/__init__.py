"""Game night for a whole table: a host screen, a projector, phones that join, one score sheet.

``pepper-tutor night`` serves :func:`~pepper_tutor.apps.night.server.create_app` with uvicorn
over one SQLite file per night (:mod:`.store`), pushes changes to every screen by server-sent
events (:mod:`.events`) and finds the address phones join at from the network interfaces
(:mod:`.lan`). :mod:`.server` lists the app's routes and middleware: the pages
(:mod:`.pages`), the players (:mod:`.players`, whose names are compared as :mod:`.names`
says), the quiz (:mod:`.quiz`, with the puzzle round
of :mod:`.puzzle_round`), the score sheet (:mod:`.sheet`), the card table (:mod:`.table`,
served by :mod:`.seats`, and a hand's game guide on the projector, :mod:`.guide`), rulings
and the annotator (:mod:`.tools`), tournament night (:mod:`.tournament`, its screens'
figures from :mod:`.tournament_views`) and the parts of pages
that events redraw (:mod:`.parts`), with who is asking (:mod:`.auth`), the checks on every
request (:mod:`.middleware`), how it answers (:mod:`.responses`), what it shares between
requests (:mod:`.state`) and what the pages show (:mod:`.views`).
"""

from __future__ import annotations

import errno
import re
import socket
from pathlib import Path

from ...files.home import tutor_home

__all__ = ["bind_port", "nights_dir", "night_path", "serve", "KEEP_ALIVE", "NAME_LIMIT"]

# Seconds an idle connection stays open. Phones post every few seconds; uvicorn's default (5 s)
# would close connections just as a phone reuses them.
KEEP_ALIVE = 75
# The longest night name: it becomes a file name, and file systems stop at 255 bytes.
NAME_LIMIT = 64


def nights_dir() -> Path:
    """``nights`` in the tutor's home folder (:func:`pepper_tutor.files.home.tutor_home`)."""
    return tutor_home() / "nights"


def night_path(name: str) -> Path:
    """The night's file; the name is kept to letters, digits, dots, dashes and underscores."""
    if len(name) > NAME_LIMIT:
        raise ValueError(f"a night's name has at most {NAME_LIMIT} characters, not "
                         f"{len(name):,}")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name.strip()).strip(".-")
    if not safe:
        raise ValueError(f"{name!r} cannot name a night: use letters, digits and dashes")
    return nights_dir() / f"{safe}.sqlite"


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` for uvicorn, or a ValueError saying why not. Bound
    before anything is printed, so that a port in use or out of range is one line (exit 2)
    rather than the host's secret link followed by uvicorn's tracebacks; and handed to uvicorn
    itself, so that no other program can take the port between the check and the serving."""
    if not 1 <= port <= 65535:
        raise ValueError(f"a port is from 1 to 65535, not {port:,}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # As uvicorn does: a port left in TIME_WAIT by the last night is free again.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise ValueError(f"port {port} is in use by another program: stop it, or give "
                             "another --port") from None
        if err.errno == errno.EACCES:
            raise ValueError(f"port {port} needs administrator rights here: give a port "
                             "above 1023") from None
        raise ValueError(f"cannot serve on {host}:{port}: {err.strerror or err}") from None
    sock.set_inheritable(True)
    return sock


def serve(port: int = 8866, lan: bool = False, address: str | None = None,
          name: str = "tonight", grace: float = 60.0) -> int:
    """Run the night until Ctrl-C; print the host's link, the join link and the room code."""
    import uvicorn

    from ...render.plain import strip_controls
    from .lan import lan_address
    from .server import NightConfig, create_app
    from .store import NightStore

    if address and not lan:
        raise ValueError("--address is where phones reach this computer: give --lan too")
    path = night_path(name)
    if lan:
        shown = address or lan_address()
        if shown is None:
            raise ValueError("no network address found for phones to join: connect to the "
                             "table's Wi-Fi, or give --address")
        bind = "0.0.0.0"
    else:
        shown = address or "127.0.0.1"
        bind = "127.0.0.1"
    sock = bind_port(bind, port)
    try:
        store = NightStore(path)
    except BaseException:
        sock.close()
        raise
    base = f"http://{shown}:{port}"
    app = create_app(store, NightConfig(base, name, grace=grace))
    # The path holds the home folder and the warning names files: neither may act on the
    # terminal (an escape sequence in a folder's name).
    print(strip_controls(f"Game night {name!r}: {path}"))
    if store.warning:
        print(strip_controls(f"  {store.warning}"))
    print(f"  Host (keep this link to yourself): {base}/h/{store.host_token}")
    print(f"  Players join at:                   {base}/join?code={store.room_code}")
    print(f"  Room code:                         {store.room_code}")
    if not lan:
        print("  Only this computer can connect; run with --lan to let phones join.")
    print("Stop with Ctrl-C.", flush=True)
    config = uvicorn.Config(app, host=bind, port=port, log_level="warning",
                            timeout_graceful_shutdown=2, timeout_keep_alive=KEEP_ALIVE,
                            access_log=False)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        store.close()
    return 0
