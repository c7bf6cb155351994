"""mkdocs hook: the site's two browser builds go in as built, and the site links to them.

* the Play and learn page (``web/build.py``, ``make web``, ``build/web/``) into ``site/try/``;
* the notebooks in JupyterLite (``web/lite.py``, ``make lite``, ``build/lite/``) into
  ``site/lite/``.

Each is its own app (Pyodide in a Web Worker), not a themed page. ``make docs`` builds both
first; a build run without one (``mkdocs build`` alone) gets a page in its place that says
what to run instead.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

BUILD = Path(__file__).resolve().parents[2] / "build"
# folder in site/ -> (the build's folder, a file every finished build has, its name, its command)
APPS = {"try": (BUILD / "web", "manifest.json", "Play and learn page", "make web"),
        "lite": (BUILD / "lite", "jupyter-lite.json", "notebooks' JupyterLite site",
                 "make lite")}


def on_post_build(config: Any) -> None:
    for folder, (built, marker, name, command) in APPS.items():
        target = Path(config["site_dir"]) / folder
        if target.exists():
            shutil.rmtree(target)
        if (built / marker).exists():
            shutil.copytree(built, target)
            continue
        target.mkdir(parents=True)
        (target / "index.html").write_text(
            f'<!doctype html><meta charset="utf-8"><title>pepper-tutor</title><p>The {name} '
            f"was not built into this copy of the site: run <code>{command}</code> and build "
            "the site again (<code>make docs</code> does both).</p>", encoding="utf-8")
