"""The score sheet over the web: entering and taking back hands, a new or imported match, and
the sheet and its hands to download."""

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
from ...records.scoresheet import EntryError, ScoreSheet, SheetError
from .auth import need_host, need_member, need_scorer
from .middleware import form_of
from .responses import done, refused, write_failed
from .state import night_of
from .store import StaleSheet
from .views import rules_from_form, sheet_view

__all__ = ["sheet_add", "sheet_undo", "sheet_new", "sheet_import", "export_csv",
           "export_records"]


def version_of(form: dict[str, str]) -> int:
    try:
        return int(form.get("version", ""))
    except ValueError:
        raise HTTPException(400, "The form has no sheet version: reload the page.") from None


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
        bidder_tricks = int(raw)
    per_side = {k[7:]: v.strip() for k, v in form.items()
                if k.startswith("tricks_") and v.strip()}
    if per_side:
        tricks = {side: int(v) for side, v in per_side.items()}
    return bidder_tricks, tricks


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
    return done(request, f"Hand {hand.number} added: {what}.", reset=True)


def sheet_undo(request: Request) -> Response:
    form = form_of(request)
    need_scorer(request)
    night = night_of(request)
    try:
        number = night.store.undo_hand(version_of(form))
    except StaleSheet as err:
        return stale(request, err)
    except EntryError as err:
        return refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    return done(request, f"Hand {number} was taken back.")


def sheet_new(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    try:
        rules = rules_from_form(form)
        first = Seat.parse(form.get("first_dealer") or "W")
        if first >= rules.players:
            raise RuleSetError(f"{first.word} does not sit at a {rules.players}-player table")
        night.store.new_match(version_of(form), rules, first, form.get("event", "")[:80])
    except StaleSheet as err:
        return stale(request, err)
    except (RuleSetError, ValueError) as err:
        return refused(request, err)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    return done(request, f"New match: {rules.summary().splitlines()[0]}.", reset=True)


def sheet_import(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    text = form.get("sheet_json", "")
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a score sheet (a JSON object was expected)")
        sheet = ScoreSheet.from_json(data, Path(form.get("filename") or "imported sheet"))
        night.store.new_match(version_of(form), sheet.rules, sheet.first_dealer, sheet.event,
                              sheet.entries)
    except StaleSheet as err:
        return stale(request, err)
    except (ValueError, SheetError, EntryError, RuleSetError) as err:
        return done(request, f"Not imported: {err}", 400)
    except sqlite3.Error as err:
        return write_failed(request, err)
    night.events.publish("sheet")
    return done(request, f"Imported {len(sheet.entries)} hands as a new match.", reset=True)


def export_csv(request: Request) -> Response:
    need_member(request)
    sheet, _ = night_of(request).store.sheet()
    return Response(sheet.to_csv(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="pepper-scores.csv"'})


def export_records(request: Request) -> Response:
    need_member(request)
    sheet, _ = night_of(request).store.sheet()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for i, text in enumerate(sheet.to_records(), 1):
            zf.writestr(f"hand-{i:02d}.yaml", text)
    return Response(buffer.getvalue(), media_type="application/zip",
                    headers={"Content-Disposition": 'attachment; filename="pepper-hands.zip"'})
