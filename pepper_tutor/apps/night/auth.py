"""Who is asking: the host, a player, or nobody.

:class:`NightAuth` is the backend of Starlette's ``AuthenticationMiddleware``: it reads the
host's or the player's cookie once per request and sets ``request.user`` (a :class:`HostUser`
or a :class:`PlayerUser`) and ``request.auth.scopes`` (``host``; ``player``, with
``scorekeeper`` for a player the host made one). The ``need_*`` gates refuse with the message
a page shows.
"""

from __future__ import annotations

import secrets

from starlette.authentication import AuthCredentials, AuthenticationBackend, BaseUser
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

from .state import HOST_COOKIE, PLAYER_COOKIE, night_of
from .store import Player

__all__ = ["NightAuth", "HostUser", "PlayerUser", "is_host", "player_of", "need_host",
           "need_member", "need_scorer"]


class HostUser(BaseUser):
    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return "host"


class PlayerUser(BaseUser):
    def __init__(self, player: Player):
        self.player = player

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return self.player.name


class NightAuth(AuthenticationBackend):
    """The host by the token in the host's cookie, a player by the player's cookie (looked up
    in the store's memory of the players, on the event loop: no file is read)."""

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        if conn.scope["path"].startswith("/static/"):
            return None  # the script and the style sheet are for everyone
        night = night_of(conn)
        token = conn.cookies.get(HOST_COOKIE, "")
        if token and secrets.compare_digest(token, night.host_token):
            return AuthCredentials(["host"]), HostUser()
        token = conn.cookies.get(PLAYER_COOKIE, "")
        if not token:
            return None
        player = night.store.cached_player(token)  # from memory: no thread, no file
        if player is None:
            return None
        scopes = ["player", "scorekeeper"] if player.scorekeeper else ["player"]
        return AuthCredentials(scopes), PlayerUser(player)


def is_host(conn: HTTPConnection) -> bool:
    return "host" in conn.auth.scopes


def player_of(conn: HTTPConnection) -> Player | None:
    user = conn.user
    return user.player if isinstance(user, PlayerUser) else None


def need_host(conn: HTTPConnection) -> None:
    if not is_host(conn):
        raise HTTPException(403, "Only the host can do that (open the host's link).")


def need_member(conn: HTTPConnection) -> Player | None:
    if is_host(conn):
        return None
    player = player_of(conn)
    if player is None:
        raise HTTPException(403, "Join the night first: open the join page and type the "
                                 "room code.")
    return player


def need_scorer(conn: HTTPConnection) -> str:
    """Who is entering: the host, or a player the host made scorekeeper."""
    if is_host(conn):
        return "host"
    player = player_of(conn)
    if player is None or not player.scorekeeper:
        raise HTTPException(403, "Only the host or a scorekeeper can change the sheet.")
    return player.name
