"""mkdocs hook: the notebook pages load nothing from the internet.

nbconvert (inside mkdocs-jupyter) writes CDN addresses into every notebook page:

* ``https://unpkg.com/@jupyter-widgets/html-manager@.../dist/embed-amd.js``, the script that
  draws the saved widget state. Without it the widgets silently vanish offline. We serve
  ``docs/assets/widgets/embed.js`` instead: ``dist/embed.js`` of the npm package
  ``@jupyter-widgets/html-manager`` 1.0.15 (BSD-3-Clause; self-contained, core widgets only,
  no RequireJS needed), committed with its fonts so that building needs no npm. To refresh it:
  ``npm pack @jupyter-widgets/html-manager@1.0.15`` and copy ``package/dist/embed.js``,
  ``embed.js.LICENSE.txt`` and ``*.woff2`` into ``docs/assets/widgets/``.
* MathJax from cdnjs, in some nbconvert versions. The notebooks have no formulas, so the tag
  is dropped.

nbconvert's Mermaid loader also names cdnjs, but it only fetches anything when a notebook
contains a Mermaid diagram, and ours do not; the browser test checks that a notebook page
makes no request that leaves the site.
"""

from __future__ import annotations

import re
from typing import Any

from mkdocs.exceptions import PluginError

WIDGETS_JS = "assets/widgets/embed.js"
# the html-manager, and the fallback nbconvert names for widget state older than ipywidgets 7
_UNPKG = re.compile(r"https://unpkg\.com/@jupyter-(?:widgets/html-manager|js-widgets)@[^'\"]*"
                    r"/dist/embed(?:-amd)?\.js")
_MATHJAX = re.compile(r'<script src="https://cdnjs\.cloudflare\.com/ajax/libs/mathjax/[^"]*">'
                      r"\s*</script>")


def on_post_page(output: str, page: Any, config: Any) -> str:
    if "jupyter-wrapper" not in output:  # not a notebook page
        return output
    depth = page.url.count("/")  # "notebooks/01-cards-and-bowers/" -> 2
    output = _UNPKG.sub("../" * depth + WIDGETS_JS, output)
    output = _MATHJAX.sub("", output)
    if "unpkg.com" in output or re.search(r"<script[^>]+src=[\"']https?://", output):
        raise PluginError(f"{page.file.src_uri}: the page still loads a script from a CDN")
    return output


def on_post_build(config: Any) -> None:
    from pathlib import Path

    if not (Path(config.site_dir) / WIDGETS_JS).is_file():
        raise PluginError(f"{WIDGETS_JS} is missing from the site: the notebook widgets would "
                          "not render (see docs/hooks/offline.py)")
