"""Small parts every notebook widget uses: a button with CSS classes, and a guard that turns a
failing callback into a message in the widget instead of silence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..render.plain import html_text

__all__ = ["_Guard", "_button"]


def _button(label: str, *classes: str, **kw: Any) -> widgets.Button:
    b = widgets.Button(description=label, **kw)
    for c in classes:
        b.add_class(c)
    return b


class _Guard:
    """Runs callbacks so that an exception becomes a readable message, never silence."""

    def __init__(self, show: Callable[[str], None]):
        self.show = show
        self.errors: list[BaseException] = []

    def __call__(self, fn: Callable[..., None]) -> Callable[..., None]:
        def run(*args: Any) -> None:
            try:
                fn(*args)
            except Exception as err:  # shown to the learner and kept for tests
                self.errors.append(err)
                self.show(f'<div class="pepper-error" style="color:#a00"><b>Something went '
                          f"wrong:</b> {html_text(str(err) or type(err).__name__)}</div>")
        return run
