"""Issue 35's plain text: every bidi and invisible formatting character is stripped (text,
Markdown, HTML, the terminal) or escaped (JSON) in every output, from the one list of
``files/reading.py``; ``-o`` refuses an empty path, a folder's path and a symlinked folder
the same way in every format."""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from pathlib import Path

import pytest

from pepper_tutor.apps.cli import main
from pepper_tutor.files.reading import CONTROL_CHARACTERS
from pepper_tutor.render.plain import html_text, one_line, safe_json, strip_controls

#: One of each kind the issue names, and more of the same family.
INVISIBLE = ("\u200e\u200f\u061c\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u202e"
             "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e\u2028"
             "\u2029\u206a\U000e0001\U000e0041\U0001d173")
NOTE = f"Ann{INVISIBLE}é plays"


def test_the_list_is_every_format_character_of_this_pythons_unicode() -> None:
    missing = [f"U+{c:04X}" for c in range(sys.maxunicode + 1)
               if unicodedata.category(chr(c)) in ("Cf", "Zl", "Zp", "Cc")
               and chr(c) not in "\t\n" and not CONTROL_CHARACTERS.match(chr(c))]
    assert not missing, f"add to files.reading.INVISIBLE (Unicode {unicodedata.unidata_version})"
    kept = [c for c in "aé♦ 1\t\n€\u00a0\ufe0f" if CONTROL_CHARACTERS.match(c)]
    assert not kept  # visible text, tabs, newlines, an emoji's variation selector stay


def test_every_helper_removes_or_escapes_them() -> None:
    for out in (strip_controls(NOTE), one_line(NOTE), html_text(NOTE)):
        assert not any(c in out for c in INVISIBLE), repr(out)
        assert "Anné plays" in out
    data = {"note": NOTE}
    text = safe_json(data)
    assert not any(c in text for c in INVISIBLE) and json.loads(text) == data
    assert "\\u200f" in text and "\\udb40\\udc41" in text  # a tag character: a surrogate pair


def _record(tmp_path: Path, note: str = NOTE) -> str:
    data = (Path(__file__).parent / "data" / "design-example.yaml").read_text()
    old = 'note: "East must follow trumps with the 9."'
    assert old in data
    path = tmp_path / "rec.yaml"
    path.write_text(data.replace(old, f"note: {json.dumps(note, ensure_ascii=False)}"),
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json"])
def test_annotate_output_carries_no_invisible_character(tmp_path: Path, fmt: str,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    record = _record(tmp_path)
    assert main(["annotate", record, "-f", fmt]) == 0
    screen = capsys.readouterr().out
    assert main(["annotate", record, "-f", fmt, "-o", str(tmp_path / "out")]) == 0
    written = (tmp_path / "out").read_text()
    for out in (screen, written):
        assert not any(c in out for c in INVISIBLE), [hex(ord(c)) for c in INVISIBLE
                                                      if c in out]
        assert "Anné plays" in out or ("Ann" in out and "\\u200e" in out)


def test_an_error_message_quoting_a_file_carries_none(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    bad = tmp_path / f"r{INVISIBLE}.yaml"
    bad.write_text("format: pepper-hand/1\nrules: nonsense\n")
    assert main(["annotate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert not any(c in err for c in INVISIBLE) and "pepper-tutor:" in err


def test_text_in_a_page_or_a_puzzle_carries_none() -> None:
    from pepper_tutor.apps.web import _e as web_e
    from pepper_tutor.render.steps_html import _e

    assert _e(NOTE) == web_e(NOTE) == "Anné plays"
    assert html_text(f"<{NOTE}>") == "&lt;Anné plays&gt;"


def test_night_pages_strip_them_from_every_value() -> None:
    pytest.importorskip("jinja2")
    from markupsafe import Markup

    from pepper_tutor.apps.night.state import _plain_value

    assert _plain_value(NOTE) == "Anné plays"
    made = Markup("<b>\u200fkept as made</b>")
    assert _plain_value(made) is made and _plain_value(3) == 3
    from pepper_tutor.apps.night.state import NightConfig, _templates

    env = _templates(NightConfig("http://127.0.0.1:8866/", "tonight")).env
    page = env.from_string("<p>{{ name }}</p>{{ html }}").render(
        name=f"<i>{NOTE}</i>", html=Markup("<b>made</b>"))
    assert page == "<p>&lt;i&gt;Anné plays&lt;/i&gt;</p><b>made</b>"


# ---- -o: the same refusals in every format -------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json"])
def test_an_empty_output_path_is_refused_in_every_format(tmp_path: Path, fmt: str,
                                                         capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.chdir(tmp_path)
    record = _record(tmp_path)
    assert main(["annotate", record, "-f", fmt, "-o", ""]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "an empty path names no file" in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec.yaml"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_folders_path_is_refused_and_makes_no_file(tmp_path: Path, fmt: str,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    record = _record(tmp_path)
    for target, words in ((f"{tmp_path}/newdir/", "this names a folder"),
                          (f"{tmp_path}/newdir{os.sep}", "this names a folder"),
                          (str(tmp_path), "this is a directory"),
                          (f"{tmp_path}/", "this names a folder")):
        assert main(["annotate", record, "-f", fmt, "-o", target]) == 2
        assert words in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec.yaml"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_output_never_goes_through_a_symlinked_folder(tmp_path: Path, fmt: str,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    record = _record(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "deep").mkdir(parents=True)
    (tmp_path / "link").symlink_to(elsewhere)
    monkeypatch.chdir(tmp_path)
    for target in (tmp_path / "link" / "out.txt", tmp_path / "link" / "deep" / "out.txt",
                   Path("link") / "out.txt", Path("link") / "deep" / "out.txt"):
        assert main(["annotate", record, "-f", fmt, "-o", str(target)]) == 2
        assert "is a symlink" in capsys.readouterr().err
    assert not list(elsewhere.rglob("out.txt"))
    assert main(["annotate", record, "-f", fmt, "-o", str(elsewhere / "out.txt")]) == 0
