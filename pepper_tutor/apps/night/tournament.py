"""Tournament night over the web: the host starts a tournament (partners drawn blind from the
players who joined, or entered; a double-elimination bracket or a progressive movement),
enters each table's result (typed, or read from the night's score sheet when the game is
played at the app's own table), takes the last one back, starts a round's clock and ends the
tournament; and the parts that show it: the host's, the projector's and each phone's (its
team's next table).

Every change goes through the night's store in one transaction (the tournament is kept whole
in the night's file), so a restarted server shows what was there. The tournament's refusals
(:class:`~pepper_tutor.records.teams.TournamentError`) and the store's (:class:`.NightError`)
are answered with their reason and a 4xx: a result in twice, a round that is over or not yet
started, a game whose teams are not known yet are conflicts (409); a wrong winner, an unknown
game or a draw that cannot be made are bad input (400).
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ...engine.seats import Seat
from ...records.bracket import Bracket
from ...records.movement import MAX_ROUNDS, MINUTES, MOVES, Movement
from ...records.teams import (
    MAX_TEAMS,
    EnteredTwice,
    NotReady,
    RoundOver,
    Team,
    TournamentError,
    draw_teams,
    parse_names,
    parse_teams,
)
from ...records.tournament import Tournament, sheet_result
from ...render.tournament import plan_text
from .auth import need_host
from .middleware import form_int, form_of
from .responses import done, page, write_failed
from .state import Night, night_of
from .store import NightError, StaleSheet
from .tournament_views import (
    bracket_columns,
    clock_view,
    last_result,
    next_tables,
    playable,
    standings_rows,
    summary,
    team_of,
)

__all__ = ["tournament_start", "tournament_result", "tournament_table", "tournament_sheet",
           "tournament_undo", "tournament_clock", "tournament_end", "host_part",
           "phone_part", "projector_part", "shown", "phone_view", "PART"]

PART = "tournament"  # the event every change publishes
SCORE_LIMIT = 9999  # a game's score, either sign: a typo of a few digits is refused
_CONFLICTS = (EnteredTwice, RoundOver, NotReady, NightError)


def _refused(request: Request, err: ValueError) -> Response:
    status = 409 if isinstance(err, _CONFLICTS) else 400
    return done(request, f"Not done: {err}.", status)


def _changed(night: Night, message: str, request: Request) -> Response:
    night.events.publish(PART)
    return done(request, message)


# ---- starting and ending --------------------------------------------------------------------

def _teams(night: Night, form: dict[str, str]) -> tuple[tuple[Team, ...], int | None]:
    if form.get("how") == "entered":
        return parse_teams(form.get("teams", "")), None
    names = parse_names(form.get("players", ""))
    if not names:
        names = [p.name for p in night.store.players()]
    seed = form_int(form, "seed", 0, 10**9, "The draw's seed", default=-1)
    if seed < 0:  # none given: one is chosen, and shown, so the same draw can be made again
        seed = secrets.randbelow(10**6)
    return draw_teams(names, seed), seed


def _new_tournament(night: Night, form: dict[str, str]) -> Tournament:
    teams, seed = _teams(night, form)
    if form.get("format", "bracket") == "bracket":
        return Bracket(teams, seed=seed)
    if form.get("format") != "progressive":
        raise TournamentError("a tournament is a 'bracket' or 'progressive'")
    move = form.get("move", "winners")
    if move not in MOVES:
        raise TournamentError(f"teams move as {' or '.join(MOVES)}")
    rounds = form_int(form, "rounds", 1, MAX_ROUNDS, "The number of rounds", default=8)
    minutes = form_int(form, "minutes", MINUTES[0], MINUTES[1], "A round's minutes",
                       default=30)
    return Movement(teams, rounds, minutes, "all" if move == "all" else "winners", seed=seed)


def tournament_start(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        tournament = _new_tournament(night, form)
        night.store.start_tournament(tournament)
    except (TournamentError, NightError) as err:
        return _refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    return _changed(night, f"Started: {summary(tournament)}. Every phone shows its team's "
                           "table.", request)


def tournament_end(request: Request) -> Response:
    form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        if night.store.tournament() is None:
            raise NightError("no tournament has been started tonight")
        night.store.end_tournament()
    except NightError as err:
        return _refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    return _changed(night, "The tournament is over and put away: its results are no longer "
                           "on the screens.", request)


# ---- results ----------------------------------------------------------------------------

def _scores(form: dict[str, str]) -> tuple[int, int] | None:
    a, b = (form.get(k, "").strip() for k in ("score_a", "score_b"))
    if not a and not b:
        return None
    if not a or not b:
        raise HTTPException(400, "Give both teams' scores, or neither.")
    return (form_int(form, "score_a", -SCORE_LIMIT, SCORE_LIMIT, "A score"),
            form_int(form, "score_b", -SCORE_LIMIT, SCORE_LIMIT, "A score"))


def _entered(night: Night, t: Tournament) -> str:
    said = last_result(t) or ""
    if t.over:
        if isinstance(t, Bracket) and t.champion is not None:
            return f"Entered {said}. {t.teams[t.champion].name} are the champions!"
        return f"Entered {said}. That was the last round: the standings are final."
    return f"Entered {said}."


def tournament_result(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    game = form.get("game", "").strip()[:20]
    try:
        winner = form_int(form, "winner", 0, MAX_TEAMS - 1, "The winner (a team's number)")
        t = night.store.record_result(game, winner, _scores(form))
    except (TournamentError, NightError) as err:
        return _refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    return _changed(night, _entered(night, t), request)


def tournament_undo(request: Request) -> Response:
    form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        before = night.store.tournament()
        said = last_result(before) if before is not None else None
        night.store.undo_result()
    except (TournamentError, NightError) as err:
        return _refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    return _changed(night, f"Taken back: {said}. Enter it again as it was.", request)


def tournament_clock(request: Request) -> Response:
    """Start the clock of the round being played (the teams are at their tables)."""
    form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        t = night.store.tournament()
        if t is None:
            raise NightError("no tournament has been started tonight")
        if not isinstance(t, Movement):
            raise NightError("a bracket's games are played to the target, without a clock")
        if t.over:
            raise NightError("every round has been played")
        night.store.note_tournament("clock", {"round": t.current, "started": time.time()})
    except NightError as err:
        return _refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    return _changed(night, f"Round {t.current}'s clock is running: {t.minutes} minutes.",
                    request)


# ---- the game at the app's own table ---------------------------------------------------------

def tournament_table(request: Request) -> Response:
    """Play a game at the app's table: a new match on the night's sheet (the current match's
    rules), its North-South the team the host chose; its sheet gives the result later."""
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    game = form.get("game", "").strip()[:20]
    try:
        t = night.store.tournament()
        if t is None:
            raise NightError("no tournament has been started tonight")
        row = next((r for r in playable(t) if r.id == game), None)
        if row is None:
            raise NotReady(f"{game or 'that game'} is not a game to be played now")
        a, b = row.teams
        assert a is not None and b is not None
        ns = form_int(form, "north_south", 0, MAX_TEAMS - 1, "North-South (a team's number)",
                      default=a)
        if ns not in (a, b):
            raise NightError("North-South is one of the two teams of that game")
        ew = b if ns == a else a
        sheet, version = night.store.sheet()
        event = (f"Tournament {game}: {t.teams[ns].name} (North-South) v {t.teams[ew].name} "
                 "(East-West)")
        night.store.new_match(version, sheet.rules, Seat.parse("W"), event[:80])
        match_id = night.store.matches()[0].id
        night.store.note_tournament("at_table", {"game": game, "north_south": ns,
                                                 "match": match_id})
    except (TournamentError, NightError) as err:
        if isinstance(err, StaleSheet):
            err = NightError("the sheet changed at that moment: press it again")
        return _refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    return _changed(night, f"{game} is at the app's table: match {match_id} on the score "
                           f"sheet, {t.teams[ns].name} North-South. Enter its result from the "
                           "sheet when the game is won.", request)


def _at_table(night: Night, t: Tournament) -> dict[str, Any] | None:
    """The game played at the app's table and its sheet as it stands, while that game
    still waits for its result."""
    note = night.store.tournament_notes().get("at_table")
    if not isinstance(note, dict):
        return None
    row = next((r for r in playable(t) if r.id == note.get("game")), None)
    if row is None:
        return None
    try:
        sheet, _ = night.store.sheet(int(note["match"]))
    except (NightError, KeyError, TypeError, ValueError):
        return None
    ns = int(note["north_south"])
    ew = row.teams[1] if row.teams[0] == ns else row.teams[0]
    assert ew is not None
    totals = sheet.totals if sheet.rules.partnerships else {}
    return {"game": row.id, "table": row.table, "match": int(note["match"]),
            "ns": t.teams[ns].name, "ew": t.teams[ew].name,
            "totals": totals, "hands": len(sheet.entries), "winner": sheet.winner,
            "target": sheet.rules.target}


def tournament_sheet(request: Request) -> Response:
    """Enter the result of the game at the app's table from its score sheet."""
    form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        t = night.store.tournament()
        if t is None:
            raise NightError("no tournament has been started tonight")
        note = night.store.tournament_notes().get("at_table")
        if not isinstance(note, dict):
            raise NightError("no game is being played at the app's table")
        game, ns = str(note["game"]), int(note["north_south"])
        sheet, _ = night.store.sheet(int(note["match"]))
        winner, scores = sheet_result(t, game, sheet, ns)
        t = night.store.record_result(game, winner, scores)
        night.store.note_tournament("at_table", None)
    except (TournamentError, NightError) as err:
        return _refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    return _changed(night, _entered(night, t) + " (from the score sheet)", request)


# ---- the parts ----------------------------------------------------------------------------

NO_STORE = {"Cache-Control": "no-store"}


def shown(t: Tournament, notes: dict[str, Any]) -> dict[str, Any]:
    """What the host's tab and the projector both show of ``t`` (``notes``: what the store
    keeps beside it, :meth:`~.store.NightStore.tournament_notes`)."""
    # Teams by name, as people look for their own.
    by_name = sorted(next_tables(t), key=lambda n: n.name.casefold())
    ctx: dict[str, Any] = {"t": t, "summary": summary(t), "next": by_name,
                           "playable": playable(t),
                           "clock": clock_view(t, notes)}
    if isinstance(t, Bracket):
        ctx["columns"] = bracket_columns(t)
        ctx["champion"] = None if t.champion is None else t.teams[t.champion].name
    else:
        ctx["standings"] = standings_rows(t)
        ctx["round"] = t.current
    return ctx


def host_part(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    need_host(request)
    t = night.store.tournament()
    ctx["players"] = [p.name for p in night.store.players()]
    ctx["moves"] = MOVES
    if t is not None:
        ctx.update(shown(t, night.store.tournament_notes()))
        ctx.update(plan=plan_text(t), last=last_result(t), at_table=_at_table(night, t))
    return page(request, "_tournament-host.html", ctx)


def projector_part(request: Request, night: Night, ctx: dict[str, Any]) -> Response | None:
    """The projector's tournament screen, or None when there is no tournament."""
    t = night.store.tournament()
    if t is None:
        return None
    ctx.update(shown(t, night.store.tournament_notes()))
    return page(request, "_tournament-projector.html", ctx)


def phone_view(t: Tournament, name: str, notes: dict[str, Any]) -> dict[str, Any]:
    """What the phone of the player called ``name`` shows: its team and next table."""
    team = team_of(t, name)
    ctx: dict[str, Any] = {"t": t, "summary": summary(t), "team": team,
                           "clock": clock_view(t, notes)}
    if team is not None:
        ctx["mine"] = next_tables(t)[team]
        ctx["team_name"] = t.teams[team].name
        if isinstance(t, Bracket):
            ctx["losses"] = t.losses()[team]
            ctx["champion"] = None if t.champion is None else t.teams[t.champion].name
        else:
            ctx["standing"] = next(s for s in standings_rows(t)
                                   if s["name"] == t.teams[team].name)
    return ctx


def phone_part(request: Request, night: Night, ctx: dict[str, Any]) -> Response:
    """The phone's team and its next table (nothing at all without a tournament)."""
    player = ctx["player"]
    if player is None:
        raise HTTPException(404, "The phone's tournament is for players.")
    t = night.store.tournament()
    if t is None:
        return HTMLResponse("", headers=NO_STORE)
    ctx.update(phone_view(t, player.name, night.store.tournament_notes()))
    return page(request, "_tournament-phone.html", ctx)
