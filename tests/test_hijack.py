"""Text from people never acts (issue 27): a learner's name, a home path or a typed answer
is shown as written, never as rich markup or terminal control; Markdown output makes no link
of a bare URL, host or address; JSON output spells the bidi and C1 controls as escapes."""

from __future__ import annotations

import html
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console

from pepper_tutor.apps.cli import main
from pepper_tutor.apps.tutor import Tutor
from pepper_tutor.teaching.learner.review_cards import ReviewDeck
from pepper_tutor.teaching.learner.store import LearnerStore

LINK = "[link=https://evil.example/login]Ann[/link]"
ESCAPES = "\x1b]0;owned\x07\x1b[2J"
NAMES = [LINK, "[/]", "Bo[/bold]", f"Cy{ESCAPES}", "[bold red]Di"]


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()  # a real terminal as far as rich knows: links and colours are emitted
    return Console(file=out, force_terminal=True, color_system="standard", width=200), out


def _visible(text: str) -> str:
    """What a terminal shows: the output without rich's own colour codes (SGR only)."""
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _acts_not(out: str) -> None:
    assert "\x1b]8;" not in out  # no hyperlink planted
    assert "\x1b]0;" not in out and "\x07" not in out and "\x1b[2J" not in out


def _inputs(*lines: str):
    it = iter(lines)
    return lambda prompt: next(it)


@pytest.mark.parametrize("name", NAMES)
def test_the_learners_name_is_shown_as_written_in_progress_and_the_lesson_menu(tmp_path, name):
    store = LearnerStore(name, tmp_path)
    console, out = _console()
    tutor = Tutor(store, console, _inputs("q"))
    tutor.show_progress()
    assert tutor.menu() == 0
    text = out.getvalue()
    _acts_not(text)
    shown = _visible(text)
    clean = name.replace(ESCAPES, "]0;owned[2J")  # controls gone, the printable rest kept
    assert f"Progress · {clean}" in shown
    assert f"pepper-tutor lessons · {clean}" in shown


@pytest.mark.parametrize("via", ["--learner", "USER"])
def test_a_markup_name_does_not_crash_the_command_line(tmp_path, monkeypatch, capsys, via):
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    args = ["progress"]
    if via == "USER":
        monkeypatch.setenv("USER", "[/]")
    else:
        args += ["--learner", "[/]"]
    assert main(args) == 0  # was: internal error, exit 1
    captured = capsys.readouterr()
    assert "Progress · [/]" in captured.out and "internal error" not in captured.err


def test_a_markup_home_path_in_a_warning_is_shown_as_written(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "[bold"
    blocker.write_text("a file where the home folder would go")
    home = blocker / "[/]home"  # cannot be made: the warning names it
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(home))
    assert main(["progress", "--learner", "ann"]) == 1  # shown, but nothing is kept
    out = capsys.readouterr().out
    assert "nothing will be saved" in " ".join(out.split())
    assert "[bold" in out and "[/]home" in "".join(out.split())


def _due_review(tmp_path: Path) -> LearnerStore:
    store = LearnerStore("ann", tmp_path)
    ReviewDeck(store).missed(["rank.left-bower"], "quiz bowers",
                             at=datetime.now(UTC) - timedelta(days=2))
    return store


@pytest.mark.parametrize("typed", ["[/]", LINK, f"J{ESCAPES}H"])
def test_a_typed_review_answer_is_quoted_as_written(tmp_path, typed):
    store = _due_review(tmp_path)
    console, out = _console()
    tutor = Tutor(store, console, _inputs(typed, "q"))
    assert tutor.review(seed=1) is False  # quit after the message, no crash
    text = out.getvalue()
    _acts_not(text)
    assert "I could not read that" in _visible(text)
    if typed == "[/]":
        assert "[/]" in _visible(text)


def test_a_typed_answer_in_a_quiz_and_a_lesson_is_quoted_as_written(tmp_path):
    from pepper_tutor.apps.tutor import run_quiz

    console, out = _console()
    assert run_quiz("tricks", seed=1, count=1, console=console, input_fn=_inputs(LINK, "q"),
                    learner=f"[/]{ESCAPES}") == 0
    _acts_not(out.getvalue())


# ---- Markdown and JSON -------------------------------------------------------------------


HOSTILE_NOTES = {
    "url": "see https://evil.example/login now",
    "www": "or www.evil.example/login",
    "host": "or evil.example",
    "mail": "write to ann@evil.example",
    "mailto": "mailto:ann@evil.example",
    "angle": "<https://evil.example>",
}


def _annotation(note: str, tmp_path: Path) -> str:
    data = (Path(__file__).parent / "data" / "design-example.yaml").read_text()
    old = 'note: "East must follow trumps with the 9."'
    assert old in data
    path = tmp_path / "rec.yaml"
    path.write_text(data.replace(old, f"note: {json.dumps(note)}"))
    return str(path)


@pytest.mark.parametrize("kind", sorted(HOSTILE_NOTES))
def test_markdown_makes_no_link_of_a_bare_url_host_or_address(tmp_path, capsys, kind):
    import markdown

    note = HOSTILE_NOTES[kind]
    assert main(["annotate", _annotation(note, tmp_path), "-f", "markdown"]) == 0
    md = capsys.readouterr().out
    for extensions in (["tables"], ["tables", "pymdownx.magiclink"]):  # mkdocs, with links
        page = markdown.markdown(md, extensions=extensions)
        assert "href=" not in page and "<a " not in page, (extensions, page)
        assert note in html.unescape(page)  # the reader sees exactly what was written


def test_markdown_leaves_ordinary_text_alone():
    from pepper_tutor.render.annotation import _md

    assert _md("Note: 1.5 points lost. Then the end.") == "Note: 1.5 points lost. Then the end."


HIDDEN = "\u202eevil\u202c \u2066x\u2069 \u200e\u200f \x85\x9b31m \u061c \u2028"


def test_json_spells_bidi_and_c1_controls_as_escapes(tmp_path, capsys):
    # the record reader strips C0 controls; the bidi and C1 ones reach the annotation
    assert main(["annotate", _annotation(f"Ann é {HIDDEN}", tmp_path), "-f", "json"]) == 0
    out = capsys.readouterr().out
    for ch in HIDDEN:
        if not ch.isascii():
            assert ch not in out, repr(ch)
    assert "Ann é" in out  # the rest stays readable (ensure_ascii stays off)
    assert "\\u202e" in out and "\\u0085" in out and "\\u200f" in out
    notes = [c.get("note") for t in json.loads(out)["tricks"] for c in t["cards"]]
    assert any(n and n.startswith("Ann é") for n in notes)
