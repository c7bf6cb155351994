"""The score sheet over the web: entering and taking back hands, a new or imported match (and
taking a new one back), and any match's sheet and hands to download."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ...engine.rules import RuleSetError
from ...engine.seats import Seat
from ...records.scoresheet import FORMAT, EntryError, ScoreSheet, SheetError
from .auth import need_host, need_member, need_scorer
from .middleware import form_id, form_of
from .responses import done, refused, write_failed
from .state import night_of
from .store import NightError, StaleSheet
from .views import rules_from_form, sheet_view

__all__ = ["sheet_add", "sheet_undo", "sheet_new", "match_undo", "sheet_import",
           "export_csv", "export_records", "sheet_shape_problem"]


def version_of(form: dict[str, str]) -> int:
    raw = form.get("version", "").strip()
    if not raw.isdigit() or len(raw) > 18:
        raise HTTPException(400, "The form has no sheet version: reload the page.")
    return int(raw)


def stale(request: Request, err: StaleSheet) -> Response:
    sheet, version = night_of(request).store.sheet()
    # The form keeps what was typed, so the page's script redraws only its heading.
    view = sheet_view(sheet, version)
    return done(request, str(err)[:1].upper() + str(err)[1:] + ".", 409, version=version,
                next_hand=None if view["winner"] else len(view["rows"]) + 1,
                next_dealer=view["next_dealer"])


def tricks_of(form: dict[str, str]) -> tuple[int | None, dict[str, int] | None]:
    """The bidder's tricks, or each side's (``tricks_NS``, ...); ValueError if not numbers."""
    tricks: dict[str, int] | None = None
    bidder_tricks: int | None = None
    raw = form.get("tricks", "").strip()
    if raw:
        bidder_tricks = _tricks(raw)
    per_side = {k[7:]: v.strip() for k, v in form.items()
                if k.startswith("tricks_") and v.strip()}
    if per_side:
        tricks = {side: _tricks(v) for side, v in per_side.items()}
    return bidder_tricks, tricks


def _tricks(raw: str) -> int:
    # A few digits at most: the sheet itself says why 7 tricks cannot be (a hand has 6); a
    # number of 20 digits is a slip said the same way as a word.
    if not raw.isdigit() or len(raw) > 3:
        raise ValueError(raw)
    return int(raw)


def sheet_add(request: Request) -> Response:
    form = form_of(request)
    by = need_scorer(request)
    seen = version_of(form)
    night = night_of(request)
    try:
        bidder_tricks, tricks = tricks_of(form)
    except ValueError:
        return done(request, "Not added: tricks are whole numbers from 0 to 6.", 400)
    try:
        hand = night.store.add_hand(seen, by, form.get("bidder") or None,
                                    form.get("bid") or None, form.get("trump") or None,
                                    form.get("mode") or None, form.get("defense") or None,
                                    bidder_tricks, tricks)
    except StaleSheet as err:
        return stale(request, err)
    except EntryError as err:
        return done(request, f"Not added: {err}.", 400)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    pts = hand.score.points if hand.score else {}
    what = ", ".join(f"{s} {p:+d}" for s, p in pts.items()) or "thrown in"
    return done(request, f"Hand {hand.number} added: {what}.", reset=True, version=seen + 1)


def sheet_undo(request: Request) -> Response:
    form = form_of(request)
    need_scorer(request)
    night = night_of(request)
    seen = version_of(form)
    try:
        number = night.store.undo_hand(seen)
    except StaleSheet as err:
        return stale(request, err)
    except EntryError as err:
        return refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    return done(request, f"Hand {number} was taken back.", version=seen + 1)


def sheet_new(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    seen = version_of(form)
    try:
        rules = rules_from_form(form)
        first = Seat.parse(form.get("first_dealer") or "W")
        if first >= rules.players:
            raise RuleSetError(f"{first.word} does not sit at a {rules.players}-player table")
        night.store.new_match(seen, rules, first, form.get("event", "")[:80])
    except StaleSheet as err:
        return stale(request, err)
    except (RuleSetError, ValueError) as err:
        return refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    summary = rules.summary().splitlines()[0].rstrip(".")
    return done(request, f"New match: {summary}. The last one is kept in the list of matches; "
                         "“Take back the new match” undoes this.", reset=True,
                version=seen + 1)


def match_undo(request: Request) -> Response:
    """Take back a new match started by mistake: the match before it is current again."""
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    seen = version_of(form)
    try:
        number = night.store.undo_new_match(seen)
    except StaleSheet as err:
        return stale(request, err)
    except NightError as err:
        return done(request, f"Not taken back: {err}.", 409)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    return done(request, f"Match {number} was taken back: the match before it goes on.",
                reset=True, version=seen + 1)


def sheet_import(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    text = form.get("sheet_json", "")
    if not text.strip():
        return done(request, "Not imported: choose a saved sheet's file, or paste its text.",
                    400)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return done(request, "Not imported: that is not a saved score sheet (it is not JSON: "
                             f"line {err.lineno}, column {err.colno}: {err.msg.lower()}).",
                    400)
    problem = sheet_shape_problem(data)
    if problem:
        return done(request, f"Not imported: {problem}.", 400)
    try:
        sheet = ScoreSheet.from_json(data, Path(form.get("filename") or "imported sheet"))
        seen = version_of(form)
        night.store.new_match(seen, sheet.rules, sheet.first_dealer, sheet.event,
                              sheet.entries)
    except StaleSheet as err:
        return stale(request, err)
    except (ValueError, SheetError, EntryError, RuleSetError) as err:
        return done(request, f"Not imported: {err}", 400)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    return done(request, f"Imported {len(sheet.entries)} hands as a new match.", reset=True,
                version=seen + 1)


def sheet_shape_problem(data: object) -> str | None:
    """What makes ``data`` not a saved sheet, in words (the sheet's own reader then checks
    every value and every hand against the rules)."""
    if not isinstance(data, dict):
        return "that is not a saved score sheet (it has no fields such as rules and hands)"
    if data.get("format") != FORMAT:
        return f"that is not a saved score sheet (its format is not {FORMAT})"
    for key, kinds, what in (("rules", (str, dict), "the rules"),
                             ("first_dealer", (str,), "who dealt first"),
                             ("hands", (list,), "the list of hands")):
        if key not in data:
            return f"the sheet does not say {what} (no {key!r})"
        if not isinstance(data[key], kinds):
            return f"the sheet's {key!r} is not {what}"
    for number, hand in enumerate(data["hands"], 1):
        if not isinstance(hand, dict) or not isinstance(hand.get("dealer"), str):
            return f"hand {number} of the sheet does not say who dealt"
        tricks = hand.get("tricks") or {}
        if not isinstance(tricks, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in tricks.values()):
            return f"hand {number}'s tricks are not whole numbers per side"
    return None


def _match_of(request: Request) -> tuple[ScoreSheet, int | None]:
    """The sheet to download: ``?match=N`` (any match of the night) or the current one."""
    raw = request.query_params.get("match")
    match_id = None
    if raw is not None:
        match_id = form_id({"match": raw}, "match", "match tonight")
    try:
        sheet, _ = night_of(request).store.sheet(match_id)
    except NightError:
        raise HTTPException(404, "No such match tonight.") from None
    return sheet, match_id


def _name(base: str, match_id: int | None, ext: str) -> dict[str, str]:
    name = f"{base}{'' if match_id is None else f'-match-{match_id}'}.{ext}"
    return {"Content-Disposition": f'attachment; filename="{name}"'}


def export_csv(request: Request) -> Response:
    need_member(request)
    sheet, match_id = _match_of(request)
    return Response(sheet.to_csv(), media_type="text/csv; charset=utf-8",
                    headers=_name("pepper-scores", match_id, "csv"))


def export_records(request: Request) -> Response:
    need_member(request)
    sheet, match_id = _match_of(request)
    # A hand played at the table has its whole record (the deal, every card); a hand
    # entered by hand has the partial record the sheet makes.
    played = night_of(request).store.played_records(match_id)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for i, text in enumerate(sheet.to_records(), 1):
            zf.writestr(f"hand-{i:02d}.yaml", played.get(i, text))
    return Response(buffer.getvalue(), media_type="application/zip",
                    headers=_name("pepper-hands", match_id, "zip"))
