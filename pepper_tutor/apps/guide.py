"""Game Guides from the command line and the other front ends: a record in, one page out.

``pepper-tutor annotate HAND.yaml --format viewer -o FILE.html`` writes the page
(:func:`write_guide`); with ``--analyse`` every decision is graded by the coach first, with
a progress bar on the terminal.
"""

from __future__ import annotations

from ..records.hand_record import HandRecord
from ..render.guide import Guide, build_guide
from ..render.guide_html import guide_page

__all__ = ["write_guide", "analysed_guide"]


def analysed_guide(record: HandRecord, seat: str | None = None,
                   samples: int | None = None) -> Guide:
    """The guide with the coach on every decision, a progress bar on stderr meanwhile."""
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("grading every decision", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return build_guide(record, seat, analyse=True, samples=samples, progress=progress)


def write_guide(record: HandRecord, output: str | None, inputs: tuple[str, ...] = (),
                analyse: bool = False) -> None:
    """Write the record's guide (all hands) to ``output`` (``None`` or ``-``: stdout)."""
    from .commands import write_output

    guide = analysed_guide(record) if analyse else build_guide(record)
    write_output(guide_page(guide), output, inputs)
