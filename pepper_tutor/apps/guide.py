"""Game Guides from the command line and the other front ends: a record in, one page out.

``pepper-tutor annotate HAND.yaml --format viewer -o FILE.html`` writes the page
(:func:`guide_file`); with ``--analyse`` every decision is graded by the coach first, with
a progress bar on the terminal. The Play and learn page links its hands to the docs site's
guide page (:func:`guide_href`, :func:`saved_hands_html`); the notebooks show a guide with
:func:`pepper_tutor.apps.notebook.guide`.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the guide loads the coach and the analysis: only when one is made
    from ..records.hand_record import HandRecord
    from ..render.guide import Guide

__all__ = ["guide_file", "analysed_guide", "guide_href", "saved_hands_html"]


def analysed_guide(record: HandRecord, seat: str | None = None,
                   samples: int | None = None) -> Guide:
    """The guide with the coach on every decision, a progress bar on stderr meanwhile."""
    from rich.console import Console
    from rich.progress import Progress

    from ..render.guide import build_guide

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("grading every decision", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return build_guide(record, seat, analyse=True, samples=samples, progress=progress)


def guide_file(record: HandRecord, analyse: bool = False) -> str:
    """The record's guide (all hands) as one page: what ``--format viewer`` writes."""
    from ..render.guide import build_guide
    from ..render.guide_html import guide_page

    return guide_page(analysed_guide(record) if analyse else build_guide(record))


def guide_href(record: HandRecord, page: str = "guide.html") -> str:
    """The address of the docs site's guide page opening ``record`` at its deal."""
    from ..records.hand_link import record_to_link

    return f"{page}#hand={record_to_link(record)}&step=1"


def saved_hands_html(folder: Path, shown: int = 10) -> str:
    """The Play and learn page's "Game guides" part: open any record, or one of the
    practice table's saved hands (the latest ``shown``), each a link to its guide."""
    from ..files.reading import LoadError
    from ..records.hand_record import load_record

    links = []
    files = sorted(folder.glob("*.yaml"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in files[:shown]:
        try:
            record = load_record(path)
        except (LoadError, OSError):
            continue  # a damaged file is the table's to report, not this list's
        event = record.meta.get("event") if isinstance(record.meta, dict) else None
        links.append(f'<li><a class="pepper-guide-saved" href="{html.escape(guide_href(record))}"'
                     f' target="_blank" rel="noopener">{html.escape(str(event or path.stem))}'
                     "</a></li>")
    saved = (f'<p>Your hands at the practice table:</p><ul class="pepper-guides">'
             f"{''.join(links)}</ul>" if links else "")
    return ("<h2>Game guides</h2><p>Step through a whole hand, from the deal to the score, "
            "with the rules and the coach on every card. A guide's address carries its hand: "
            "send it to a friend.</p>" + saved
            + '<p><a class="pepper-btn pepper-open-guide" href="guide.html" target="_blank" '
              'rel="noopener">Open a hand record</a></p>')
