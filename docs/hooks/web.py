"""mkdocs hook: the Play and learn page (``web/``, built by ``make web``) goes into ``site/try/``.

The page is its own app (a Web Worker running pepper-tutor in Pyodide), not a themed page:
it is copied as built, and the site links to it. ``make docs`` builds it first; a build run
without it (``mkdocs build`` alone) gets a page that says what to run instead.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

BUILT = Path(__file__).resolve().parents[2] / "build" / "web"


def on_post_build(config: Any) -> None:
    target = Path(config["site_dir"]) / "try"
    if target.exists():
        shutil.rmtree(target)
    if (BUILT / "manifest.json").exists():
        shutil.copytree(BUILT, target)
        return
    target.mkdir(parents=True)
    (target / "index.html").write_text(
        '<!doctype html><meta charset="utf-8"><title>Play and learn</title><p>The Play and '
        "learn page was not built into this copy of the site: run <code>make web</code> and "
        "build the site again (<code>make docs</code> does both).</p>", encoding="utf-8")
