"""The documentation site: it builds offline with --strict, covers what the package has, its
code examples run, and in a browser the notebook pages show their cards and search works.

The site is built once per session (about 15 s with the notebooks executed, 5 s when
mkdocs-jupyter's cache, keyed by a hash of the package sources, is warm).
"""

from __future__ import annotations

import doctest
import functools
import html
import http.server
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DEAD_PROXY = "http://127.0.0.1:9"  # nothing listens there: any HTTP(S) fetch fails at once


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", NO_PROXY="127.0.0.1,localhost",
               no_proxy="127.0.0.1,localhost")
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):  # no network for the build
        env[var] = env[var.lower()] = DEAD_PROXY
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{proc.stderr[-6000:]}", pytrace=False)
    return out


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text("utf-8")


def _ids(page_html: str) -> set[str]:
    return {html.unescape(m) for m in re.findall(r'\bid="([^"]+)"', page_html)}


# ---- the build ------------------------------------------------------------------------------


@pytest.mark.slow
def test_site_builds_strict_and_offline(site: Path) -> None:
    for path in ("", "getting-started", "rules", "lessons", "lesson-format", "hands", "cli",
                 "api", "notebooks", "browser", "try", "lite"):
        assert (site / path / "index.html").is_file(), path
    assert (site / "assets" / "widgets" / "embed.js").is_file()
    assert (site / "schemas" / "lesson.schema.json").is_file()
    assert (site / "search" / "search_index.json").is_file()
    assert "fonts.googleapis.com" not in _page(site, "")


@pytest.mark.slow
def test_every_notebook_is_a_page_with_local_widget_js(site: Path) -> None:
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks
    with_widgets = 0
    for nb in notebooks:
        page = _page(site, f"notebooks/{nb.stem}")
        assert "jp-OutputArea-output" in page, f"{nb.name}: no outputs from the build-time run"
        assert "unpkg.com" not in page
        assert (site / "notebooks" / nb.stem / nb.name).is_file()  # the .ipynb to download
        if "application/vnd.jupyter.widget-state+json" in page:
            assert "../../assets/widgets/embed.js" in page
            with_widgets += 1
    assert with_widgets, "no notebook page carries widget state"


@pytest.mark.slow
def test_every_notebook_has_an_open_in_jupyterlite_link_beside_it(site: Path) -> None:
    index = _page(site, "notebooks")
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        link = (f'href="../lite/lab/index.html?workspace={nb.stem[:2]}&amp;path={nb.name}">'
                "Open in JupyterLite</a>")
        assert link in index, nb.name
        if (site / "lite" / "jupyter-lite.json").exists():  # built with make lite first
            assert (site / "lite" / "files" / nb.name).is_file(), nb.name


# ---- the generated pages cover the package --------------------------------------------------


@pytest.mark.slow
def test_every_rule_has_an_anchor_on_the_rules_page(site: Path) -> None:
    from pepper_tutor.engine.rules import PRESETS, SWITCHES
    from pepper_tutor.rulebook.book import get_rulebook

    page = html.unescape(_page(site, "rules"))
    ids = _ids(page)
    book = get_rulebook()
    assert len(book) > 30
    missing = [rule.id for rule in book if rule.id not in ids]
    assert not missing, f"rules without an anchor: {missing}"
    for rule in book:  # the rule's own words are there, not a paraphrase
        assert rule.text.split(".")[0] in page, rule.id
    assert all(f"switch-{s}" in ids for s in SWITCHES)
    assert all(f"preset.{p}" in ids for p in PRESETS)


@pytest.mark.slow
def test_every_lesson_is_in_the_catalogue(site: Path) -> None:
    from pepper_tutor.teaching.lessons.files import all_lessons

    page = html.unescape(_page(site, "lessons"))
    ids = _ids(page)
    lessons = all_lessons()
    assert lessons
    for lesson in lessons:
        assert lesson.id in ids, lesson.id
        assert lesson.title in page, lesson.title
        assert f"pepper-tutor lesson {lesson.id}" in page
    assert "lesson.schema.json" in _page(site, "lesson-format")


@pytest.mark.slow
def test_every_example_hand_is_on_the_hands_page(site: Path) -> None:
    from importlib import resources

    from pepper_tutor.records.annotate import annotate_file

    page = html.unescape(_page(site, "hands"))
    ids = _ids(page)
    hands = sorted(Path(str(resources.files("pepper_tutor") / "data" / "hands")).glob("*.yaml"))
    assert hands
    for path in hands:
        assert f"hand-{path.stem}" in ids, path.name
        assert path.name in page
        assert (site / "hands" / path.name).is_file()
        assert annotate_file(path).title in page, path.name


@pytest.mark.slow
def test_every_example_hand_is_a_guide_that_steps_as_the_annotator_says(site: Path) -> None:
    """``make docs`` writes a game guide of every example hand and of every hand written out
    in a docs page, linked from beside the hand, with the coach on every decision; each
    guide's tricks, winners, rules and score are the annotator's."""
    from pepper_tutor.records.annotate import annotate
    from pepper_tutor.records.hand_record import load_record, parse_record

    from .test_guide import HANDS, page_data, tricks_of

    sys.path.insert(0, str(DOCS / "hooks"))
    try:
        from generate import docs_page_hands  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(DOCS / "hooks"))
    records = {p.stem: load_record(p) for p in HANDS}
    records |= {name: parse_record(text) for name, text in docs_page_hands()}
    assert "hands-1" in records  # the record of docs/hands.md, key by key
    hands_page = _page(site, "hands")
    for name, record in records.items():
        guide = site / "guides" / f"{name}.html"
        assert guide.is_file(), name
        assert f"guides/{name}.html" in hands_page, name
        data = page_data(guide.read_text("utf-8"))
        expected = annotate(record).to_dict()
        assert tricks_of(data) == [
            {"cards": [c["card"] for c in t["cards"]], "winner": t["winner"],
             "rule": t["rule"]} for t in expected["tricks"] if t["complete"]], name
        end = data["steps"][-1]
        for side, points in (expected["score"] or {}).items():
            assert f"{side} {points:+d}" in end["title"], name
        assert data["analysed"], name  # narrated: the coach's words at each decision
        decisions = [s for s in data["steps"] if s["kind"] not in ("deal", "score")]
        assert all(s["coach"] for s in decisions), name


@pytest.mark.slow
def test_cli_page_lists_every_command_and_option(site: Path) -> None:
    import argparse

    from pepper_tutor.apps.cli import build_parser

    page = html.unescape(_page(site, "cli"))
    ids = _ids(page)
    parser = build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert subs
    for name, sub in subs[0].choices.items():
        assert name in ids, name
        for action in sub._actions:
            for option in action.option_strings:
                assert option in page, f"{name} {option}"
    assert "J♦ wins" in page  # an example was run at build time


@pytest.mark.slow
def test_api_page_documents_the_public_names(site: Path) -> None:
    import pepper_tutor

    ids = _ids(_page(site, "api"))
    missing = []
    for name in pepper_tutor.__all__:
        module = getattr(getattr(pepper_tutor, name), "__module__", "")
        if module.startswith("pepper_tutor.") and f"{module}.{name}" not in ids:
            missing.append(f"{module}.{name}")
    assert not missing, f"not in the API reference: {missing}"


# ---- the examples in the docs run -----------------------------------------------------------

DOC_FILES = sorted(p for p in DOCS.rglob("*.md") if ">>> " in p.read_text("utf-8"))


def test_the_docs_have_examples() -> None:
    names = {p.relative_to(DOCS).as_posix() for p in DOC_FILES}
    assert {"index.md", "getting-started.md", "rules.md", "hands.md", "api.md",
            "lessons/index.md"} <= names


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_docs_examples_run(path: Path) -> None:
    result = doctest.testfile(str(path), module_relative=False, name=path.name,
                              optionflags=doctest.ELLIPSIS, raise_on_error=False, report=True,
                              encoding="utf-8")
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} example(s) in {path.name} failed (see stdout)"


def test_hand_record_examples_in_the_docs_are_valid() -> None:
    from pepper_tutor.records.hand_record import parse_record

    blocks = re.findall(r"```yaml\n(format: pepper-hand/1\n.*?)```",
                        (DOCS / "hands.md").read_text("utf-8"), re.DOTALL)
    assert blocks
    for text in blocks:
        parse_record(text, "hands.md")


# ---- in a browser ---------------------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(site: Path) -> Iterator[str]:
    from .servers import free_port

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()),
                                            functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


def _offline(page, base: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Refuse every request that leaves the site, and list them."""
    outside: list[str] = []

    def route(r) -> None:  # type: ignore[no-untyped-def]
        if r.request.url.startswith((base, "data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    return outside


@pytest.mark.browser
@pytest.mark.slow
def test_notebook_page_shows_cards_and_widgets(site_url: str, page) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    outside = _offline(page, site_url)
    page.goto(f"{site_url}/notebooks/01-cards-and-bowers/")
    output = page.locator(".jp-OutputArea-output")
    # the SVG cards printed by the build-time run
    expect(output.locator("svg.pepper-card-svg").first).to_be_visible()
    assert output.locator("svg.pepper-card-svg").count() >= 8
    # the lesson widget, drawn from its saved state by the vendored embed.js
    widget = page.locator(".jupyter-widgets").filter(has=page.locator("svg.pepper-card-svg"))
    expect(widget.first).to_be_visible()
    expect(page.locator(".jupyter-widgets button", has_text="Hint").first).to_be_visible()
    widget.first.scroll_into_view_if_needed()
    assert not outside, f"requests that left the site: {outside}"


@pytest.mark.browser
@pytest.mark.slow
def test_rules_page_search_finds_left_bower(site_url: str, page) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    outside = _offline(page, site_url)
    page.goto(f"{site_url}/rules/")
    expect(page.locator("[id='rank.left-bower']")).to_be_attached()
    box = page.locator("input.md-search__input")
    box.click()
    # the search index loads in a web worker; a query typed before it is ready is lost
    expect(page.locator(".md-search-result__meta")).not_to_contain_text(
        "Initializing", timeout=30_000)
    box.press_sequentially("left bower", delay=20)
    result = page.locator(".md-search-result__item", has_text=re.compile("left bower", re.I))
    expect(result.first).to_be_visible(timeout=30_000)
    links = page.locator(".md-search-result__link")
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    assert any(re.search(r"/rules/(\?[^#]*)?#rank\.left-bower$", h) for h in hrefs), hrefs
    assert not outside, f"requests that left the site: {outside}"


@pytest.mark.slow
def test_schema_download_is_the_packaged_file(site: Path) -> None:
    from importlib import resources

    packaged = (resources.files("pepper_tutor") / "data" / "lesson.schema.json").read_text("utf-8")
    served = (site / "schemas" / "lesson.schema.json").read_text("utf-8")
    assert json.loads(served) == json.loads(packaged)
