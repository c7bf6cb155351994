"""Sub-commands beyond the engine's own: annotate (and, as they land, lesson and quiz)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["register", "write_output"]


def write_output(text: str, output: str | None) -> None:
    """Print, or write the whole text to a file atomically (a failure leaves the old file)."""
    from pathlib import Path

    if output is None or output == "-":
        sys.stdout.write(text)
        return
    import tempfile

    target = Path(output)
    fd, tmp = tempfile.mkstemp(dir=target.parent or Path("."), prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _cmd_annotate(args: argparse.Namespace) -> int:
    from ..records.annotate import annotate_file
    from ..render.annotation import to_html, to_json, to_markdown, to_rich

    annotation = annotate_file(args.file, analyse=args.analyse)
    if args.format == "json":
        write_output(to_json(annotation) + "\n", args.output)
    elif args.format == "markdown":
        write_output(to_markdown(annotation), args.output)
    elif args.format == "html":
        write_output(to_html(annotation), args.output)
    else:
        from ..render.terminal import make_console

        if args.output and args.output != "-":
            from rich.console import Console

            console = Console(record=True, width=110, file=open(os.devnull, "w"))  # noqa: SIM115
            console.print(to_rich(annotation, args.ascii))
            write_output(console.export_text(), args.output)
        else:
            make_console(args.ascii).print(to_rich(annotation, args.ascii))
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    """A finished hand: every card graded. An unfinished one: advice for the next decision,
    seen from the seat to act (its own cards, what has been played, voids shown)."""
    from rich.progress import Progress

    from ..analysis.advice import advise
    from ..records.annotate import annotate
    from ..records.hand_record import load_record, record_to_state
    from ..render.annotation import to_rich
    from ..render.terminal import make_console

    if args.samples < 1:
        raise ValueError("--samples must be at least 1")
    record = load_record(args.file)
    console = make_console(args.ascii)
    state = record_to_state(record)
    if state.is_terminal() or not record.deal:
        if not record.deal:
            raise ValueError(f"{args.file}: the record has no deal, so there is nothing to "
                             "analyse")
        annotation = annotate(record, analyse=True)
        graded = [f for f in annotation.findings if f.kind == "costly"]
        console.print(to_rich(annotation, args.ascii))
        console.print(f"{len(graded)} card{'s' if len(graded) != 1 else ''} cost tricks "
                      "against perfect play." if graded else
                      "Every card kept the most tricks possible for its side.")
        return 0
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(f"solving {args.samples} deals", total=args.samples)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            advice = advise(state, samples=args.samples, seed=args.seed, progress=progress,
                            workers=args.workers)
        except KeyboardInterrupt:  # the workers are already stopped: say so in one line
            bar.stop()
            print("pepper-tutor: analysis stopped (Ctrl-C); no advice given", file=sys.stderr)
            return 130
    print(advice)
    return 0


def _cmd_lesson(args: argparse.Namespace) -> int:
    if args.check:
        return _check_lessons(args.names, analysis=not args.no_analysis)
    from .tutor import run_tutor

    if len(args.names) > 1:
        raise ValueError("name one lesson at a time")
    return run_tutor(args.names[0] if args.names else None, learner=args.learner,
                     ascii=args.ascii)


def _check_lessons(paths: list[str], analysis: bool = True) -> int:
    from pathlib import Path

    from ..records.yamlpos import LoadError, Problem
    from ..teaching.lessons import check_lesson, lesson_files, load_lesson

    files = [Path(p) for p in paths] if paths else lesson_files()
    lessons = []
    problems: list[Problem] = []
    for path in files:
        try:
            lessons.append(load_lesson(path))
        except LoadError as err:
            problems += err.problems
    known = {lesson.id for lesson in lessons}
    if not paths:
        ids = [lesson.id for lesson in lessons]
        for lesson in lessons:
            if ids.count(lesson.id) > 1:
                problems.append(Problem(lesson.file, 1, 1, f"two lessons have the id "
                                                           f"{lesson.id!r}"))
    for lesson in lessons:
        # The analysis is seeded with a bounded sample: the same verdict on every run.
        found = check_lesson(lesson, known if not paths else None, analysis=analysis)
        problems += found
        if not found:
            print(f"ok  {lesson.id:24} {len(lesson.steps):2} steps  {lesson.file}")
    for problem in problems:
        print(f"pepper-tutor: {problem}", file=sys.stderr)
    return 2 if problems else 0


def _cmd_quiz(args: argparse.Namespace) -> int:
    from .tutor import run_quiz

    return run_quiz(args.kind, args.seed, args.count, ascii=args.ascii)


def voila_command(notebook: Path, port: int, lan: bool, token: str | None) -> list[str]:
    """The Voila command line: loopback unless asked, and never on the LAN without a token."""
    if lan and not token:
        raise ValueError("opening the app to the local network needs a token")
    cmd = [sys.executable, "-m", "voila", notebook.name, "--no-browser", f"--port={port}",
           "--Voila.port_retries=0", f"--Voila.ip={'0.0.0.0' if lan else '127.0.0.1'}",
           "--show_tracebacks=False"]
    if token:
        cmd.append(f"--token={token}")
    return cmd


def lan_address() -> str:
    """This machine's address as other machines on the network see it (no packet is sent)."""
    import socket

    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        address = "127.0.0.1"
    return address


def _cmd_night(args: argparse.Namespace) -> int:
    import importlib.util
    import secrets
    import subprocess
    from pathlib import Path

    if importlib.util.find_spec("voila") is None:
        raise ValueError("game night needs Voila: pip install 'pepper-tutor[night]'")
    notebook = Path(args.notebook)
    if not notebook.is_file():
        raise ValueError(f"{notebook}: no such notebook (run from the project folder, or give "
                         "--notebook)")
    token = secrets.token_urlsafe(12) if args.lan else None
    cmd = voila_command(notebook.resolve(), args.port, args.lan, token)
    env = dict(os.environ)
    if args.sheet:
        env["PEPPER_NIGHT_SHEET"] = str(Path(args.sheet).resolve())
    if args.lan:
        url = f"http://{lan_address()}:{args.port}/?token={token}"
        env["PEPPER_NIGHT_URL"] = url
        print(f"Game night is open to the local network. Join at: {url}")
    else:
        print(f"Game night on this computer only: http://127.0.0.1:{args.port}/")
    return subprocess.call(cmd, cwd=notebook.resolve().parent, env=env)


def register(sub: Any) -> None:
    p = sub.add_parser("annotate", help="replay a hand record and explain every trick")
    p.add_argument("file", help="a pepper-hand/1 YAML record")
    p.add_argument("--format", "-f", choices=("text", "json", "markdown", "html"),
                   default="text", help="output format (default: text for the terminal)")
    p.add_argument("--output", "-o", help="write to this file instead of the screen")
    p.add_argument("--analyse", "--analyze", action="store_true",
                   help="also grade every card against perfect play (all hands seen)")
    p.set_defaults(handler=_cmd_annotate)

    p = sub.add_parser("analyse", aliases=["analyze"],
                       help="advice for the next decision of a record, or grades of a hand")
    p.add_argument("file", help="a pepper-hand/1 record: a whole hand, or one that stops at "
                                "the decision to analyse")
    p.add_argument("--samples", type=int, default=200, help="random deals of the unseen cards")
    p.add_argument("--seed", type=int, default=None, help="the same seed, the same advice")
    p.add_argument("--workers", type=int, default=1, help="processes to use (1 or 2)")
    p.set_defaults(handler=_cmd_analyse)

    p = sub.add_parser("lesson", help="run a lesson in the terminal, or check lesson files")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="a lesson id (no name: a menu); with --check, lesson files")
    p.add_argument("--check", action="store_true",
                   help="validate lesson files and verify every step with the engine")
    p.add_argument("--no-analysis", action="store_true",
                   help="with --check: skip comparing judgement steps with the sampled "
                        "analysis (a step it contradicts fails the check)")
    p.add_argument("--learner", default=None, help="whose progress to use (default: you)")
    p.set_defaults(handler=_cmd_lesson)

    # The kinds are checked when the quiz starts (an unknown one is exit 2 with the list):
    # importing the quiz generators here would slow every command's start.
    p = sub.add_parser("quiz", help="generated drills: who wins, what may be played, ...")
    p.add_argument("kind", nargs="?", default="tricks",
                   help="tricks (default), legal, bowers, score; judgement drills: bid, "
                        "declare, exchange, defend; rules drills: table, game, variants")
    p.add_argument("--seed", type=int, default=None, help="the same seed, the same questions")
    p.add_argument("--count", type=int, default=None, help="stop after this many questions")
    p.set_defaults(handler=_cmd_quiz)

    p = sub.add_parser("night", help="the game-night app in the browser (Voila)")
    p.add_argument("--lan", action="store_true",
                   help="open to the local network, with a token and a QR code to join")
    p.add_argument("--port", type=int, default=8866)
    p.add_argument("--sheet", help="the score sheet file (default: under your tutor home)")
    p.add_argument("--notebook", default="notebooks/game-night.ipynb")
    p.set_defaults(handler=_cmd_night)
