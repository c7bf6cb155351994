"""mkdocs hook: show bare ``>>>`` examples in docstrings as highlighted code.

The package's docstrings carry doctest examples without Markdown fences (pytest runs them with
``--doctest-modules``). Markdown would read ``>>>`` as three nested quotes, so this adds a small
Markdown preprocessor, used by the pages and by mkdocstrings alike, that fences every such
example as ``pycon``. Examples already inside a fence are left alone.
"""

from __future__ import annotations

import re
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority

_FENCE = re.compile(r"^\s*(```|~~~)")


class _DoctestFences(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fence: str | None = None
        i = 0
        while i < len(lines):
            line = lines[i]
            m = _FENCE.match(line)
            if m:
                if fence is None:
                    fence = m.group(1)
                elif line.strip().startswith(fence):
                    fence = None
            elif fence is None and line.startswith(">>> ") and (not out or not out[-1].strip()):
                block = []
                while i < len(lines) and lines[i].strip():
                    block.append(lines[i])
                    i += 1
                out += ["```pycon", *block, "```", ""]
                continue
            out.append(line)
            i += 1
        return out


class DoctestFences(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # before pymdownx.superfences (priority 32) so that it highlights the new fences
        md.preprocessors.register(_DoctestFences(md), "pepper_doctest_fences", 40)


@event_priority(100)  # before mkdocstrings copies the list of extensions in its on_config
def on_config(config: Any) -> Any:
    config.markdown_extensions.append(DoctestFences())
    return config
