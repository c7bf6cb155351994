"""Rulings and the annotator for everyone at the night (nothing is stored)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...files.yamlpos import LoadError
from ...records.annotate import annotate
from ...records.hand_record import parse_record
from ...render.annotation import to_html as annotation_html
from ...render.plain import html_text
from .auth import need_member
from .middleware import form_of
from .views import ruling_html, search_html

__all__ = ["ruling", "annotate_record"]


def ruling(request: Request) -> Response:
    form = form_of(request)
    need_member(request)
    if form.get("words") is not None and form.get("search"):
        out = search_html(form.get("words", "")[:100])
    else:
        out = ruling_html(form.get("trump", "H"), form.get("trick", "")[:80],
                          form.get("hand", "")[:80])
    return JSONResponse({"ok": True, "html": out})


def annotate_record(request: Request) -> Response:
    form = form_of(request)
    need_member(request)
    try:
        record = parse_record(form.get("record", ""), "pasted record")
    except LoadError as err:
        out = "".join(f'<div class="pepper-fb wrong">{html_text(p)}</div>'
                      for p in err.problems)
        return JSONResponse({"ok": False, "html": out, "message": "The record has "
                             "problems: see below."}, 400)
    return JSONResponse({"ok": True, "html": annotation_html(annotate(record),
                                                             standalone=False)})
