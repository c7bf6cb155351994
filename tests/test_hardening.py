"""Every bad input from the hardening probe (issue 16): a located message and exit 2, or the
corrected behaviour; output that text from files cannot hijack; writing that never replaces
what it should not."""

from __future__ import annotations

import html
import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pepper_tutor.apps.cli import main

DATA = Path(__file__).parent / "data"
GOOD = (DATA / "design-example.yaml").read_text()
LESSONS = Path(__file__).resolve().parents[1] / "lessons"
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX special files")


def record(tmp_path: Path, text: str, name: str = "hand.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def broken(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return captured.err


# ---- records: the YAML itself ---------------------------------------------------------------

YAML_CASES = [
    ("[" * 495 + "]" * 495, "1:41: nested more than 40 levels deep"),
    ("<<: 1\n", "1:1: merge keys (<<) are not allowed"),
    ("!!binary x: 1\n", "1:1: the tag !!binary is not allowed"),
    ("format: !!timestamp nope\n", "1:9: the tag !!timestamp is not allowed"),
    ("format: pepper-hand/1\nx-a: !!int abc\n", "2:6: 'abc' is not a whole number (!!int)"),
    ("format: pepper-hand/1\nx-a: !!bool maybe\n", "2:6: 'maybe' is not true or false (!!bool)"),
    ("x: !!python/object/apply:os.system [ls]\n", "1:4: the tag !!python/object/apply:os.system"),
    ("a: &x [1, *x]\n", "1:11: the alias *x refers to a value that contains it"),
    ("!!int big: 1\n", "1:1: 'big' is not a whole number (!!int)"),
    ("a: &a [" + ",".join(["1"] * 50) + "]\nb: &b [" + ",".join(["*a"] * 50) + "]\n"
     "c: [" + ",".join(["*b"] * 50) + "]\n", "3:119: the document expands to more than 100,000"),
    ("a: &a " + "[" * 30 + "]" * 30 + "\nb: " + "[" * 20 + "*a" + "]" * 20 + "\n",
     "2:24: nested more than 40 levels deep"),
]


@pytest.mark.parametrize("text,message", YAML_CASES)
def test_bad_yaml_is_located_and_exits_2(tmp_path, capsys, text, message):
    path = record(tmp_path, text)
    err = cli_error(capsys, "annotate", str(path))
    assert f"pepper-tutor: {path}:{message}" in err


def test_all_refused_tags_of_a_file_are_reported_at_once():
    from pepper_tutor.records.hand_record import LoadError, parse_record

    with pytest.raises(LoadError) as err:
        parse_record("a: !!int abc\nb: !!set {x}\nc: !!bool maybe\n", "t.yaml")
    assert [(p.line, p.column) for p in err.value.problems] == [(1, 4), (2, 4), (3, 4)]


def test_dates_stay_as_written():
    from pepper_tutor.records.hand_record import parse_record

    text = broken('meta: {event: "Thursday game night",',
                  'meta: {event: "Thursday game night", date: 2026-03-14,')
    assert parse_record(text, "hand.yaml").meta["date"] == "2026-03-14"


# ---- records: values ------------------------------------------------------------------------

RECORD_CASES = [
    ("trump: H", "trump:", 11, "trump is empty; expected C, D, H, S or NT"),
    ("trump: H", "trump: ''", 11, "trump is empty"),
    ("dealer: W", "dealer:", 4, "dealer is empty; expected a seat"),
    ("dealer: W", "dealer: [W]", 4, "expected a seat: N, E, S or W, not a list"),
    ("rules: standard", "rules: {target: true}", 2, "target must be a whole number, not True"),
    ("rules: standard", "rules: {dirty_clubs: 1}", 2, "dirty_clubs must be true or false"),
    ("rules: standard", "rules:", 2, "rules is empty"),
    ("defense: play", "defense:", 14, "defense is empty"),
    ('note: "East must follow trumps with the 9."', "note: [a, b]", 16,
     "note must be text, not a list"),
    ("players: {N: Ann,", "players: {N: [Ann],", 3, "expected a player's name, not a list"),
]


@pytest.mark.parametrize("old,new,line,message", RECORD_CASES)
def test_bad_record_values_are_located_and_exit_2(tmp_path, capsys, old, new, line, message):
    path = record(tmp_path, broken(old, new))
    err = cli_error(capsys, "annotate", str(path))
    assert f"{path}:{line}:" in err and message in err, err


def test_an_empty_trump_is_never_read_as_no_trump():
    from pepper_tutor.records.hand_record import LoadError, parse_record

    with pytest.raises(LoadError, match="trump is empty"):
        parse_record(broken("trump: H", "trump: ~"), "hand.yaml")


# ---- reading that never stops -------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pepper_tutor", *args], capture_output=True,
                          text=True, timeout=60)


@posix_only
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_reading_a_device_ends_at_once_with_exit_2(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    for command in ("annotate", "analyse"):
        proc = run(command, device)
        assert proc.returncode == 2
        assert proc.stderr == (f"pepper-tutor: {device}: this is a character device; "
                               "expected a regular file\n")


@posix_only
def test_reading_a_fifo_ends_at_once_with_exit_2(tmp_path):
    fifo = tmp_path / "hand.yaml"
    os.mkfifo(fifo)
    proc = run("annotate", str(fifo))
    assert proc.returncode == 2
    assert "this is a FIFO (named pipe); expected a regular file" in proc.stderr
    proc = run("lesson", "--check", "--no-analysis", str(fifo))
    assert proc.returncode == 2 and "FIFO" in proc.stderr


def test_a_big_file_is_refused_by_its_size(tmp_path, capsys):
    path = tmp_path / "big.yaml"
    with path.open("wb") as fh:
        fh.truncate(50_000_000)  # sparse: costs nothing, and must not be read
    err = cli_error(capsys, "annotate", str(path))
    assert "the file is 50,000,000 bytes; at most 1,000,000 bytes are read" in err


# ---- lessons ------------------------------------------------------------------------------


def lesson_with(tmp_path: Path, source: str, old: str, new: str, name: str) -> Path:
    text = (LESSONS / source).read_text()
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


LESSON_CASES = [
    ("01-bowers.yaml", "    cards: [9H, TH, JH, QH, KH, AH]\n    cite: [deck, deal, rank.plain, "
     "rank.no-trump]", "    cards: [9H, TH, JH, QH, KH, AH]\n    cite: 1", 20,
     "cite must be a rule id or a list of rule ids"),
    ("01-bowers.yaml", "    cite: [deck, deal, rank.plain, rank.no-trump]\n",
     "    cite: [deck, deal, rank.plain, rank.no-trump]\n    wrong: [{answer: JH, "
     "note: no}]\n", 21, "explain steps ask nothing, so they have no wrong answers"),
    ("01-bowers.yaml", "rules: standard", "rules: {target: true}", 8,
     "target must be a whole number, not True"),
    ("01-bowers.yaml", "    cards: [JH, JD]\n    trump: H", "    cards: [JH, JD]\n    trump:",
     30, "trump is empty; expected C, D, H, S or NT"),
    ("05-trumps-and-no-trump.yaml", "hand: [JD, QH, KH, 9H, QS, TC]", "hand: [JD]", 28,
     "the hand holds 1 card; a hand has 6"),
    ("09-scoring.yaml", "    tricks: 5\n", "    tricks: -1\n", 28,
     "tricks must be the bidders' tricks, a number from 0 to 6"),
    ("01-bowers.yaml", "title: Cards and the bowers", 'title: "Cards \\e[2J and bowers"', 4,
     "the control character U+001B"),
]


@pytest.mark.parametrize("source,old,new,line,message", LESSON_CASES)
def test_bad_lessons_are_located_and_the_next_file_still_checked(tmp_path, capsys, source,
                                                                 old, new, line, message):
    bad = lesson_with(tmp_path, source, old, new, "a-bad.yaml")
    good = tmp_path / "b-good.yaml"
    good.write_text((LESSONS / "03-winning-tricks.yaml").read_text())
    assert main(["lesson", "--check", "--no-analysis", str(bad), str(good)]) == 2
    out, err = capsys.readouterr()
    assert f"pepper-tutor: {bad}:{line}:" in err and message in err, err
    assert "Traceback" not in err
    assert str(good) in out  # the file after the bad one was checked, and is fine


# ---- the command line's numbers -----------------------------------------------------------


@pytest.mark.parametrize("args,message", [
    (["--workers", "0"], "--workers: must be from 1 to"),
    (["--workers", "-1"], "--workers: must be from 1 to"),
    (["--workers", "1000"], "--workers: must be from 1 to"),
    (["--workers", "two"], "--workers: expected a whole number, not 'two'"),
    (["--samples", "0"], "--samples: must be from 1 to 10,000, not 0"),
    (["--samples", "1000000"], "--samples: must be from 1 to 10,000, not 1,000,000"),
])
def test_analyse_numbers_are_checked_before_anything_runs(tmp_path, capsys, args, message):
    path = record(tmp_path, GOOD)
    with pytest.raises(SystemExit) as exit_:
        main(["analyse", str(path), *args])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_workers_up_to_the_cpu_count_are_accepted():
    from pepper_tutor.apps.cli import build_parser

    cpus = os.cpu_count() or 1
    args = build_parser().parse_args(["analyse", "x.yaml", "--workers", str(cpus)])
    assert args.workers == cpus


# ---- output that text from a record cannot hijack -----------------------------------------

HOSTILE = broken(
    'meta: {event: "Thursday game night", players: {N: Ann, E: Bo, S: Cy, W: Di}}',
    'meta: {event: "Night \\e[2J\\e]0;owned\\a", players: {N: "[link=https://evil.example/'
    'login]Ann[/link]", E: "[reverse blink]Bo", S: "Cy\\e]8;;https://evil.example\\e\\\\'
    'click\\e]8;;\\e\\\\", W: "<b>Di</b>"}}').replace(
    'note: "East must follow trumps with the 9."',
    'note: "Setext\\n===\\n- **revoke** [x](https://evil.example) <img src=x> # h"')


def test_record_text_reaches_the_terminal_as_plain_text(tmp_path):
    from rich.console import Console

    from pepper_tutor.records.annotate import annotate
    from pepper_tutor.records.hand_record import parse_record
    from pepper_tutor.render.annotation import to_rich

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="truecolor", width=200,
                      emoji=False, highlight=False)
    console.print(to_rich(annotate(parse_record(HOSTILE, "hostile.yaml"))))
    text = out.getvalue()
    assert "\x1b]8" not in text  # no hyperlink, neither from markup nor from the record
    assert "\x1b[2J" not in text and "\x1b]0" not in text and "\a" not in text
    assert "\x1b[5m" not in text and "\x1b[7m" not in text  # no blink, no reverse
    plain = Console(file=io.StringIO(), width=200, emoji=False, highlight=False)
    plain.print(to_rich(annotate(parse_record(HOSTILE, "hostile.yaml"))))
    shown = plain.file.getvalue()  # type: ignore[attr-defined]
    assert "North ([link=https://evil.example/login]Ann[/link])" in shown
    assert "East ([reverse blink]Bo)" in shown
    assert "South (Cy]8;;https://evil.example\\click]8;;\\)" in shown
    assert "\x1b" not in shown


def test_record_text_in_the_terminal_through_the_command_line(tmp_path):
    path = record(tmp_path, HOSTILE)
    proc = run("annotate", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "\a" not in proc.stdout
    assert "[link=https://evil.example/login]Ann[/link]" in proc.stdout


def test_record_text_in_markdown_adds_no_structure(tmp_path):
    from pepper_tutor.records.annotate import annotate
    from pepper_tutor.records.hand_record import parse_record
    from pepper_tutor.render.annotation import to_markdown

    md = to_markdown(annotate(parse_record(HOSTILE, "hostile.yaml")))
    assert ("- *Trick 1, E 9♥:* Setext === - \\*\\*revoke\\*\\* \\[x\\](https&#58;//evil&#46;"
            "example) &lt;img src=x&gt; \\# h") in md
    assert ("| North (\\[link=https&#58;//evil&#46;example/login\\]Ann\\[/link\\]) |"
            in md)
    assert "| West (&lt;b&gt;Di&lt;/b&gt;) |" in md
    assert "\x1b" not in md and "\a" not in md
    assert not any(line.startswith(("===", "- **revoke", "#  h")) for line in md.splitlines())
    import markdown  # mkdocs' own Markdown: what the notes turn into when published

    page = markdown.markdown(md, extensions=["tables"])
    assert "evil.example" in html.unescape(page) and "href=" not in page
    assert "<img" not in page and "<b>Di" not in page and "<h1>" not in page
    assert "<strong>revoke" not in page


def test_record_text_in_html_stays_escaped():
    from pepper_tutor.records.annotate import annotate
    from pepper_tutor.records.hand_record import parse_record
    from pepper_tutor.render.annotation import to_html

    page = to_html(annotate(parse_record(HOSTILE, "hostile.yaml")))
    assert "&lt;b&gt;Di&lt;/b&gt;" in page and "<img src=x>" not in page
    assert "\x1b" not in page


def test_error_messages_do_not_pass_escape_sequences_on(tmp_path, capsys):
    path = record(tmp_path, broken("dealer: W", 'dealer: "\\e[2JQ"'))
    err = cli_error(capsys, "annotate", str(path))
    assert "\x1b" not in err and "is not a seat" in err


# ---- annotate -o --------------------------------------------------------------------------


@pytest.fixture
def good_record(tmp_path: Path) -> Path:
    return record(tmp_path, GOOD)


@posix_only
def test_output_refuses_a_symlink_and_leaves_its_target(tmp_path, good_record, capsys):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "out.md"
    link.symlink_to(target)
    err = cli_error(capsys, "annotate", str(good_record), "-f", "markdown", "-o", str(link))
    assert f"{link}: this is a symlink (to {target})" in err
    assert link.is_symlink() and target.read_text() == "keep me"


@posix_only
def test_output_refuses_a_fifo_a_directory_and_a_device(tmp_path, good_record, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    err = cli_error(capsys, "annotate", str(good_record), "-o", str(fifo))
    assert "this is a FIFO (named pipe); expected a regular file or a new path" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    err = cli_error(capsys, "annotate", str(good_record), "-o", str(tmp_path))
    assert "this is a directory" in err
    if os.geteuid() == 0:  # only root may make a device node: a copy of /dev/null
        node = tmp_path / "null"
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        err = cli_error(capsys, "annotate", str(good_record), "-o", str(node))
        assert "this is a character device" in err
        assert stat.S_ISCHR(os.lstat(node).st_mode)


@posix_only
def test_output_keeps_the_mode_and_refuses_hard_links(tmp_path, good_record, capsys):
    out = tmp_path / "out.md"
    out.write_text("old")
    out.chmod(0o644)
    assert main(["annotate", str(good_record), "-f", "markdown", "-o", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o644 and out.read_text().startswith("## ")
    out.chmod(0o640)
    assert main(["annotate", str(good_record), "-f", "json", "-o", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640 and out.read_text().startswith("{")
    os.link(out, tmp_path / "other-name.md")
    err = cli_error(capsys, "annotate", str(good_record), "-o", str(out))
    assert "this file has 2 hard links" in err
    assert (tmp_path / "other-name.md").read_text().startswith("{")


@posix_only
def test_a_new_output_file_gets_the_usual_mode(tmp_path, good_record):
    out = tmp_path / "new.html"
    old = os.umask(0o022)
    try:
        assert main(["annotate", str(good_record), "-f", "html", "-o", str(out)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_a_failed_save_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    from pepper_tutor.files import writing

    out = tmp_path / "out.md"
    out.write_text("old")

    def fail(*args: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C at the worst moment

    monkeypatch.setattr(writing.os, "replace", fail)
    with pytest.raises(KeyboardInterrupt):
        writing.write_text(out, "new")
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md"]


@posix_only
def test_stale_temp_files_are_cleaned_up_by_the_next_save(tmp_path):
    from pepper_tutor.files.writing import write_text

    out = tmp_path / "out.md"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stale = [tmp_path / f".out.md.{dead}.{i:016x}.tmp" for i in range(3)]
    for path in stale:
        path.write_text("half")
    alive = tmp_path / f".out.md.{os.getppid()}.{'a' * 16}.tmp"  # a save running elsewhere
    alive.write_text("busy")
    other = tmp_path / f".notes.md.{dead}.{'b' * 16}.tmp"  # another file's: not ours
    other.write_text("half")
    write_text(out, "whole")
    assert out.read_text() == "whole"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [out.name, alive.name, other.name])


def test_killed_saves_leave_nothing_behind_after_the_next_one(tmp_path):
    """A save killed with SIGKILL leaves its temp file; the next save removes it, so kills
    never pile up (the probe found 227 temp files after 250 kills)."""
    if sys.platform == "win32":
        pytest.skip("POSIX signals")
    out = tmp_path / "out.txt"
    code = ("import os, sys\n"
            "from pepper_tutor.files import writing\n"
            "real = writing.os.replace\n"
            "def die(*a):\n"
            "    os.kill(os.getpid(), 9)\n"
            "writing.os.replace = die\n"
            f"writing.write_text({str(out)!r}, 'x' * 100000)\n")
    for _ in range(5):
        proc = subprocess.run([sys.executable, "-c", code], timeout=60)
        assert proc.returncode == -9
        assert len(list(tmp_path.glob(".out.txt.*.tmp"))) == 1
    from pepper_tutor.files.writing import write_text

    write_text(out, "done")
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
