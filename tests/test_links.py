"""Every link in the README, the contributor notes, the changelog and the docs pages resolves.

A quick check without building the site (``tests/test_docs.py`` builds it with ``--strict``,
which also fails on a broken link, but takes a while). Links are read from the Markdown as it
is written, and for the docs pages also with the parts ``docs/hooks/generate.py`` fills in at
build time: a relative link names a file that exists (for a docs page, one in ``docs/`` or
one the hook adds to the site, a game guide among them), an anchor names a heading or an
``{#id}`` of its page. Files named in code spans (``CONTRIBUTING.md``,
``pepper_tutor/data/rulebook.yaml``) exist too. Web addresses are not fetched (the tests run
offline); they must be well formed.
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from functools import cache
from pathlib import Path
from types import ModuleType
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TOP = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"]
PAGES = sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.parts)

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# [text](target "title"), ![alt](target), the text may hold [brackets] of its own
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
ATTR_ID = re.compile(r"\{[^}]*#([\w.:-]+)[^}]*\}")
HTML_ID = re.compile(r"""\bid=["']([^"']+)["']""")
# a file named in a code span: a top-level Markdown file, or a path from a top-level folder
MENTION = re.compile(r"^(?:[\w.-]+\.md|(?:pepper_tutor|docs|lessons|notebooks|tests|\.ci)"
                     r"(?:/[\w.*-]+)*/?)$")


@cache
def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "hooks" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def _page_text(src: str) -> str:
    """A docs page as the site renders it: its markers filled in by the hook."""
    hook = _hook()
    if src == "notebooks/index.md":
        return str(hook.notebooks_index())
    text = (DOCS / src).read_text("utf-8")
    return str(hook.MARKER.sub(lambda m: hook.GENERATORS[m.group(1)](src), text))


def _site_file(src: str) -> Path | None:
    """A docs-relative path on the site: a file in docs/, or one the hook adds (on_files)."""
    if (DOCS / src).is_file():
        return DOCS / src
    folder, _, name = src.partition("/")
    added = {"notebooks": ROOT / "notebooks" / name,
             "schemas": ROOT / "pepper_tutor" / "data" / name,
             "hands": ROOT / "pepper_tutor" / "data" / "hands" / name}
    if src == "notebooks/index.md":
        return DOCS / src  # generated: no file, but a page
    if folder == "guides" and name.endswith(".html"):  # a game guide the hook builds
        hook = _hook()
        made = {p.stem for p in hook._hand_files()} | {n for n, _ in hook.docs_page_hands()}
        return DOCS / "guides.md" if name.removesuffix(".html") in made else None
    path = added.get(folder)
    return path if path is not None and "/" not in name and path.is_file() else None


def _slug(text: str) -> str:
    """Python-Markdown's toc slug (the docs) and GitHub's agree on plain headings."""
    text = re.sub(r"[`*]|\\(?=\S)", "", ATTR_ID.sub("", text))
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _without_code(text: str) -> str:
    return CODE_SPAN.sub(" ", FENCE.sub("", text))


def _anchors(text: str) -> set[str]:
    body = FENCE.sub("", text)
    ids = set(ATTR_ID.findall(body)) | set(HTML_ID.findall(body))
    for heading in HEADING.findall(body):
        ids.add(_slug(heading))
    return ids


def _links(text: str) -> list[str]:
    bare = _without_code(text)
    return LINK.findall(bare) + REFERENCE.findall(bare)


def _mentions(text: str) -> list[str]:
    spans = [m.group(2).strip() for m in CODE_SPAN.finditer(FENCE.sub("", text))]
    return [s for s in spans if MENTION.match(s)]


def _problem(target: str, page: str, is_docs: bool) -> str | None:
    """Why a link from a page (docs-relative for the docs, else repo-relative) fails, if it does."""
    parts = urlsplit(target)
    if parts.scheme in ("http", "https"):
        return None if parts.netloc and "." in parts.netloc else "not a web address"
    if parts.scheme == "mailto":
        return None
    if parts.scheme:
        return f"unexpected scheme {parts.scheme}:"
    here = str(Path(page).parent) if "/" in page else ""
    path = unquote(parts.path)
    if path:
        joined = Path(here, path).as_posix() if here else path
        resolved = _normalise(joined)
        if resolved is None:
            return "leaves the folder"
        if is_docs:
            if _site_file(resolved.rstrip("/")) is None and not (DOCS / resolved).is_dir():
                return f"no such page or file on the site ({resolved})"
        elif not (ROOT / resolved).exists():
            return f"no such file ({resolved})"
    else:
        resolved = page
    if parts.fragment and resolved.endswith(".md"):
        text = _page_text(resolved) if is_docs else (ROOT / resolved).read_text("utf-8")
        if unquote(parts.fragment) not in _anchors(text):
            return f"no anchor #{parts.fragment} in {resolved}"
    return None


def _normalise(path: str) -> str | None:
    out: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None
            out.pop()
        else:
            out.append(part)
    return "/".join(out) + ("/" if path.endswith("/") else "")


def _check(text: str, page: str, is_docs: bool) -> list[str]:
    problems = [f"{page}: ({t}) {why}" for t in _links(text)
                if (why := _problem(t, page, is_docs))]
    for name in _mentions(text):
        found = list(ROOT.glob(name.rstrip("/"))) or (is_docs and list(DOCS.glob(name)))
        if not found:
            problems.append(f"{page}: `{name}` names no file of the repository")
    return problems


@pytest.mark.parametrize("path", TOP, ids=lambda p: p.name)
def test_every_link_in_the_top_level_notes_resolves(path: Path) -> None:
    assert _check(path.read_text("utf-8"), path.name, is_docs=False) == []


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_link_in_a_docs_page_resolves(path: Path) -> None:
    src = path.relative_to(DOCS).as_posix()
    assert _check(_page_text(src), src, is_docs=True) == []


def test_every_link_in_the_notebooks_index_resolves() -> None:
    assert _check(_page_text("notebooks/index.md"), "notebooks/index.md", is_docs=True) == []


def test_the_checker_finds_broken_links_and_missing_files() -> None:
    text = ("See [the spec](RULES-SPEC.md), [rules](docs/rules.md#no-such-heading), "
            "[ok](docs/rules.md), `RULES-SPEC.md` and `pepper_tutor/nothing.py`.\n"
            "```\n[in code](nowhere.md)\n```\n")
    problems = _check(text, "README.md", is_docs=False)
    assert problems == [
        "README.md: (RULES-SPEC.md) no such file (RULES-SPEC.md)",
        "README.md: (docs/rules.md#no-such-heading) no anchor #no-such-heading in docs/rules.md",
        "README.md: `RULES-SPEC.md` names no file of the repository",
        "README.md: `pepper_tutor/nothing.py` names no file of the repository",
    ]
    page = "See [rule](rules.md#rank.left-bower), [bad](rules.md#rank.no-such-rule).\n"
    assert _check(page, "index.md", is_docs=True) == [
        "index.md: (rules.md#rank.no-such-rule) no anchor #rank.no-such-rule in rules.md"]
