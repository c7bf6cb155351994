"""A Game Guide as one HTML file that works on its own.

The page is the guide's steps (:mod:`.guide`) as JSON, with the viewer's CSS and JavaScript
inline (``pepper_tutor/data/guide/``): no request leaves it, no font is fetched, and it
opens from disk. The JavaScript only shows step *i* of the data; its address carries the
step (``#step=N``), so a link opens the same moment.

The docs site's guide page (``try/guide.html``) opens a hand carried in its own address
(``#hand=...&step=N``, :mod:`pepper_tutor.records.hand_link`): :func:`guide_for_link` is
what its Python answers.
"""

from __future__ import annotations

import html
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from ..engine.seats import Seat
from ..records.hand_link import record_from_link
from ..teaching.lessons.step_guide import StepGuide
from .guide import Guide, build_guide, lesson_guide, stops_words
from .plain import html_text, safe_json, strip_controls

__all__ = ["guide_page", "page_of", "guide_json", "guide_frame", "guide_for_link", "guide_for_text",
           "viewer_asset", "parse_fragment", "lesson_guide_html"]


@cache
def viewer_asset(name: str) -> str:
    """The viewer's ``viewer.js`` or ``viewer.css``, as shipped in the package."""
    if name not in ("viewer.js", "viewer.css"):
        raise ValueError(f"the guide viewer has no file {name!r}")
    return resources.files("pepper_tutor").joinpath("data", "guide", name).read_text("utf-8")


def guide_json(guide: Guide, big: bool = False, start: int = 1) -> str:
    """The guide's data as JSON that may stand inside a ``<script>`` element: every ``<``
    is spelled ``\\u003c``, so no text of a record can close the element. ``big`` opens it
    in large print; ``start`` is the step it opens at when its address names none."""
    data: dict[str, Any] = _shown(guide.to_dict())
    data["big"] = big
    data["start"] = start
    return safe_json(data).replace("<", "\\u003c")


def _shown(value: Any) -> Any:
    """The data with every text as it may be shown: direction and invisible formatting
    controls from a record's names and notes removed (the page puts them on screen)."""
    if isinstance(value, str):
        return strip_controls(value)
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_shown(v) for v in value]
    return value


def guide_page(guide: Guide, big: bool = False, start: int = 1,
               assets: str | None = None) -> str:
    """The whole page: one file, no request off it. ``big``: open in large print (the
    projector); ``start``: the step it opens at (1, the deal, unless its address says).
    ``assets``: where a server keeps ``viewer.js`` and ``viewer.css``, for a page whose
    policy runs no inline script (game night's); the data stays in the page."""
    return page_of(guide.title, guide_json(guide, big, start), assets)


def page_of(title: str, data: str, assets: str | None = None) -> str:
    """The page around a guide's data (:func:`guide_json`): what :func:`guide_page` writes,
    for data kept from an earlier build (the docs keep their analysed guides' data)."""
    if assets is None:
        style = f"<style>body{{margin:0}}\n{viewer_asset('viewer.css')}</style>"
        script = "<script>" + viewer_asset("viewer.js").replace("</", "<\\/") + "</script>"
    else:
        where = html.escape(assets)
        style = (f'<style>body{{margin:0}}</style><link rel="stylesheet" '
                 f'href="{where}viewer.css">')
        script = f'<script src="{where}viewer.js"></script>'
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{html_text('Game guide: ' + title)}</title>{style}</head>\n<body>"
            f'<main id="pg"><h1>{html_text(title)}</h1>'
            "<noscript><p>This guide steps through the hand with JavaScript, which is off: "
            "turn it on to see the hand.</p></noscript></main>\n"
            f'<script type="application/json" id="pg-data">{data}</script>\n{script}\n'
            "</body></html>\n")


def guide_frame(page: str, title: str = "Game guide", height: int = 820) -> str:
    """A page shown inside another (a notebook's output, the Play and learn page): an
    ``iframe`` whose ``srcdoc`` is the page, so its script runs on its own."""
    return (f'<iframe class="pepper-guide-frame" title="{html_text(title)}" '
            f'srcdoc="{html.escape(page, quote=True)}" style="width:100%;height:{height}px;'
            'border:1px solid #ccc;border-radius:6px"></iframe>')


@lru_cache(maxsize=16)
def lesson_guide_html(step_guide: StepGuide, height: int = 720) -> str:
    """A lesson step's whole hand inside the step (the notebook's lesson widget, the Play and
    learn page): a line saying what it is and where it opens, then the one-file viewer in a
    frame, opened at that moment. Built once for the lesson as it was read."""
    guide, at = lesson_guide(step_guide)
    frame = guide_frame(guide_page(guide, start=at + 1), f"Game guide: {guide.title}", height)
    label = html_text("A whole hand: " + guide.title)
    return (f'<section class="pepper-step-guide" aria-label="{label}">'
            f"<p><b>A whole hand:</b> {html_text(guide.title)}. It opens at step {at + 1} of "
            f"{len(guide.steps)}: {html_text(guide.steps[at].title)}{stops_words(step_guide)} "
            "Step through it with its buttons, or click inside it and use the arrow keys.</p>"
            + frame + "</section>")



def parse_fragment(fragment: str) -> dict[str, str]:
    """``#hand=...&step=4&seat=E`` as a mapping (the ``#`` is optional)."""
    out: dict[str, str] = {}
    for part in fragment.lstrip("#").split("&"):
        key, _, value = part.partition("=")
        if key:
            out[key] = value
    return out


def guide_for_link(fragment: str) -> str:
    """What the guide page's Python answers for its address: ``{"guide": data}``, or
    ``{"error": one line}`` when the address carries no hand or a hand that does not read.
    ``seat=S`` in the address asks for that seat's view."""
    import json

    from ..files.reading import LoadError

    params = parse_fragment(fragment)
    if not params.get("hand"):
        return json.dumps({"error": "This address carries no hand: a guide's link ends in "
                           "#hand=... (make one with the Copy link button of a guide)."})
    try:
        record = record_from_link(params["hand"])
        seat = Seat.parse(params["seat"]) if params.get("seat") else None
        guide = build_guide(record, seat)
    except LoadError as err:
        return json.dumps({"error": f"The hand in this link does not read: {err}"})
    except ValueError as err:
        return json.dumps({"error": str(err)})
    return '{"guide": ' + guide_json(guide) + "}"


def guide_for_text(text: str, seat: str = "") -> str:
    """What the guide page's Python answers for a record pasted or chosen there:
    ``{"guide": data, "hand": the record as a link}``, or ``{"error": ...}``."""
    import json

    from ..files.reading import LoadError
    from ..records.hand_link import record_to_link
    from ..records.hand_record import parse_record

    try:
        record = parse_record(text, "the record")
        guide = build_guide(record, Seat.parse(seat) if seat else None)
    except LoadError as err:
        return json.dumps({"error": f"This record does not read: {err}"})
    except ValueError as err:
        return json.dumps({"error": str(err)})
    return ('{"guide": ' + guide_json(guide) + ', "hand": '
            + json.dumps(record_to_link(record)) + "}")
