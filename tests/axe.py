"""axe-core (from npm, pinned in the Makefile) run on a page in the browser tests.

``make test`` installs it into ``.cache/axe`` first (the ``$(AXE)`` target). Where it is
missing a test that checks a page fails on CI (``CI=true``) and is skipped elsewhere, with the
command that installs it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE_MIN_JS = Path(__file__).resolve().parent.parent / ".cache/axe/node_modules/axe-core/axe.min.js"
# WCAG 2.1 A and AA, the level the pages are held to.
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
_INSTALL = "make .cache/axe/node_modules/axe-core/axe.min.js"


def _axe_path() -> Path:
    if AXE_MIN_JS.is_file():
        return AXE_MIN_JS
    message = f"axe-core is not installed ({AXE_MIN_JS}); run: {_INSTALL}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def serious_violations(page: Any, *, include: str | None = None) -> list[str]:
    """The serious and critical WCAG 2.1 AA violations on the page as drawn now.

    Each is ``"rule-id: target, target ..."`` so that a failing assert names the elements.
    ``include`` limits the check to one part of the page (a CSS selector). The page's context
    must be made with ``bypass_csp=True`` where the page sends a script-src policy (game night).
    """
    path = _axe_path()
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(path))
    found: list[dict[str, Any]] = page.evaluate(
        """async ([include, tags]) => {
          const r = await axe.run(include ? {include: [include]} : document,
                                  {runOnly: {type: 'tag', values: tags}});
          return r.violations
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({id: v.id, targets: v.nodes.map(n => n.target.join(' '))}));
        }""",
        [include, WCAG_21_AA],
    )
    return [f"{v['id']}: {', '.join(v['targets'][:5])}" for v in found]


def assert_accessible(page: Any, *, include: str | None = None) -> None:
    """Fail with the violations' rule ids and elements where axe finds a serious one."""
    violations = serious_violations(page, include=include)
    assert violations == [], "axe-core, WCAG 2.1 AA:\n" + "\n".join(violations)
