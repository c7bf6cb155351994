"""Sub-commands beyond the engine's own: annotate (and, as they land, lesson and quiz)."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import date
from typing import Any

__all__ = ["register", "write_output", "MAX_HANDS", "MAX_NIGHT_NAME", "MAX_SAMPLES"]

#: The most random deals ``analyse --samples`` (and ``play --samples``, per decision) takes:
#: the advice is already steady long before, and every deal is a full double-dummy solve.
MAX_SAMPLES = 10_000
#: The most hands ``play --auto --hands`` plays in one run (a long tournament is
#: ``python -m pepper_tutor.bench tournament``): a typo of a few zeros is not a week of play.
MAX_HANDS = 10_000
#: The longest night name: it becomes a file name, and file systems stop at 255 bytes.
MAX_NIGHT_NAME = 64


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def samples_count(text: str) -> int:
    """``--samples``: 1 to MAX_SAMPLES (a bad value is a usage error, exit 2)."""
    n = _whole_number(text)
    if not 1 <= n <= MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_SAMPLES:,}, not {n:,} (more "
                                         "deals take far longer and barely move the advice)")
    return n


def workers_count(text: str) -> int:
    """``--workers``: 1 to the number of CPUs of this machine."""
    n = _whole_number(text)
    cpus = os.cpu_count() or 1
    if not 1 <= n <= cpus:
        raise argparse.ArgumentTypeError(f"must be from 1 to {cpus} (the CPUs of this "
                                         f"machine), not {n}")
    return n


def positive_count(text: str) -> int:
    n = _whole_number(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
    return n


def hands_count(text: str) -> int:
    """``--hands``: 1 to MAX_HANDS."""
    n = _whole_number(text)
    if not 1 <= n <= MAX_HANDS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_HANDS:,}, not {n:,}")
    return n


def day_date(text: str) -> date:
    """``play --date``: a calendar date as YYYY-MM-DD."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"a date as YYYY-MM-DD, such as 2026-12-02, not "
                                         f"{text[:20]!r}") from None


def port_number(text: str) -> int:
    """``night --port``: a TCP port, 1 to 65535 (whether it is free is checked by binding it
    before anything is printed: see :func:`pepper_tutor.apps.night.bind_port`)."""
    n = _whole_number(text)
    if not 1 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 1 to 65535, not {n:,}")
    return n


def host_address(text: str) -> str:
    """``night --address``: an IP address or a host name this computer can resolve (it is
    printed in the join link, so a typo would send every phone nowhere)."""
    import ipaddress
    import socket

    value = text.strip()
    try:
        ipaddress.ip_address(value)
        return value
    except ValueError:
        pass
    # A host name: letters, digits, dashes and dots only (RFC 1123), and it must resolve.
    if (not value or len(value) > 253
            or not all(c.isascii() and (c.isalnum() or c in "-.") for c in value)):
        raise argparse.ArgumentTypeError(f"expected an IP address or a host name, not {text!r}")
    try:
        socket.getaddrinfo(value, None)
    except (OSError, UnicodeError):
        raise argparse.ArgumentTypeError(f"{text!r} is not an IP address, and no host of that "
                                         "name can be found") from None
    return value


def grace_seconds(text: str) -> float:
    """``night --grace``: seconds, from 1 to 3600."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--grace is a number of seconds, not {text!r}"
                                         ) from None
    if not 1 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"--grace is from 1 to 3600 seconds, not {text}")
    return value


def night_name(text: str) -> str:
    """``night --name``: at most MAX_NIGHT_NAME characters, with a letter or digit."""
    if len(text) > MAX_NIGHT_NAME:
        raise argparse.ArgumentTypeError(f"a night's name has at most {MAX_NIGHT_NAME} "
                                         f"characters, not {len(text):,}")
    if not any(c.isascii() and c.isalnum() for c in text):
        raise argparse.ArgumentTypeError(f"{text!r} cannot name a night: use letters, digits "
                                         "and dashes")
    return text


def write_output(text: str, output: str | None, inputs: tuple[str, ...] = ()) -> None:
    """Print, or replace the file whole through the one writing path
    (:mod:`pepper_tutor.files.writing`: regular files and new paths only, mode kept, never
    one of ``inputs``, the files the command read)."""
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    from ..files.writing import write_text

    write_text(output, text, inputs=inputs)


def _cmd_annotate(args: argparse.Namespace) -> int:
    from ..records.annotate import annotate_file
    from ..render.annotation import to_html, to_json, to_markdown, to_rich

    inputs = (args.file,)
    if args.output and args.output != "-":  # a refused path is said before the work
        from ..files.writing import check_target

        check_target(args.output, inputs=inputs)
    annotation = annotate_file(args.file, analyse=args.analyse)
    if args.format == "json":
        write_output(to_json(annotation) + "\n", args.output, inputs)
    elif args.format == "markdown":
        write_output(to_markdown(annotation), args.output, inputs)
    elif args.format == "html":
        write_output(to_html(annotation), args.output, inputs)
    else:
        from ..render.terminal import make_console

        if args.output and args.output != "-":
            from rich.console import Console

            console = Console(record=True, width=110, file=open(os.devnull, "w"))  # noqa: SIM115
            console.print(to_rich(annotation, args.ascii))
            write_output(console.export_text(), args.output, inputs)
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

    from ..files.yamlpos import LoadError, Problem
    from ..render.plain import strip_controls
    from ..teaching.lessons.files import check_lesson, lesson_files, load_lesson

    files = [Path(p) for p in paths] if paths else lesson_files()
    lessons = []
    problems: list[Problem] = []
    for path in files:
        try:
            lessons.append(load_lesson(path))
        except LoadError as err:
            problems += err.problems
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as err:
            # The reader refuses every bad input it knows with its place; one it does not
            # know is still this file's problem, and the check goes on to the next file.
            problems.append(Problem(str(path), 1, 1, f"cannot read this lesson: {err!r}"))
    known = {lesson.id for lesson in lessons}
    if not paths:
        ids = [lesson.id for lesson in lessons]
        for lesson in lessons:
            if ids.count(lesson.id) > 1:
                problems.append(Problem(lesson.file, 1, 1, f"two lessons have the id "
                                                           f"{lesson.id!r}"))
    for lesson in lessons:
        # The analysis is seeded with a bounded sample: the same verdict on every run.
        try:
            found = check_lesson(lesson, known if not paths else None, analysis=analysis)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as err:
            found = [Problem(lesson.file, 1, 1, f"cannot check this lesson: {err!r}")]
        problems += found
        if not found:
            print(strip_controls(f"ok  {lesson.id:24} {len(lesson.steps):2} steps  "
                                 f"{lesson.file}"))
    for problem in problems:
        print(f"pepper-tutor: {strip_controls(problem)}", file=sys.stderr)
    return 2 if problems else 0


def _cmd_quiz(args: argparse.Namespace) -> int:
    from .tutor import run_quiz

    return run_quiz(args.kind, args.seed, args.count, ascii=args.ascii, learner=args.learner)


def _cmd_review(args: argparse.Namespace) -> int:
    from .tutor import run_review

    return run_review(args.learner, ascii=args.ascii, seed=args.seed)


def _cmd_progress(args: argparse.Namespace) -> int:
    from .tutor import run_progress

    return run_progress(args.learner, ascii=args.ascii)


def _cmd_play(args: argparse.Namespace) -> int:
    from .table import run_auto, run_play, show_history

    if args.date is not None and not args.daily:
        raise ValueError("--date picks the daily deal's date: give --daily too")
    if args.daily:
        from .daily import run_daily, show_board

        if args.auto:
            raise ValueError("the daily deal is yours to play: --auto plays no daily")
        if args.history:
            from ..render.terminal import make_console
            from ..teaching.practice.daily_board import DailyBoard

            return show_board(make_console(args.ascii), DailyBoard(), args.date)
        return run_daily(args.date, args.coach, args.samples, args.save, args.ascii)
    if args.history:
        from ..render.terminal import make_console

        return show_history(make_console(args.ascii))
    if args.auto:
        return run_auto(args.level, args.rules, args.seat, args.seed, args.hands, args.save,
                        args.samples, alone=args.alone)
    return run_play(args.level, args.rules, args.seat, args.coach, args.seed, args.samples,
                    args.save, args.ascii, new=args.new, alone=args.alone)


#: What game night imports beyond the core: the ``night`` extra of pyproject.toml.
NIGHT_PACKAGES = ("starlette", "uvicorn", "ifaddr", "segno", "jinja2")


def _cmd_night(args: argparse.Namespace) -> int:
    import importlib.util

    missing = [name for name in NIGHT_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        print(f"pepper-tutor night needs {', '.join(missing)}, which are not installed: "
              "pip install 'pepper-tutor[night]'", file=sys.stderr)
        return 2
    from .night import serve

    return serve(args.port, args.lan, args.address, args.name, args.grace)


def _cmd_tournament(args: argparse.Namespace) -> int:
    import secrets

    from ..records.bracket import Bracket
    from ..records.movement import Movement
    from ..records.teams import draw_teams, parse_names, parse_teams
    from ..records.tournament import Tournament
    from ..render.tournament import plan_data, plan_text

    progressive = args.format == "progressive"
    if not progressive and (args.rounds is not None or args.minutes is not None
                            or args.move is not None):
        print("pepper-tutor: --rounds, --minutes and --move are for --format progressive",
              file=sys.stderr)
        return 2
    seed = None
    if args.players is not None:
        # No seed given: one is chosen and printed, so the same draw can be made again.
        seed = secrets.randbelow(10**6) if args.seed is None else args.seed
        teams = draw_teams(parse_names(args.players), seed)
    else:
        if args.seed is not None:
            print("pepper-tutor: --seed draws partners from --players; --teams are kept as "
                  "entered", file=sys.stderr)
            return 2
        teams = parse_teams(args.teams)
    tournament: Tournament = (
        Movement(teams, 8 if args.rounds is None else args.rounds,
                 30 if args.minutes is None else args.minutes, args.move or "winners",
                 seed=seed)
        if progressive else Bracket(teams, seed=seed))
    if args.json:
        from ..render.plain import safe_json

        print(safe_json(plan_data(tournament), indent=2))
    else:
        sys.stdout.write(plan_text(tournament))
    return 0


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
    p.add_argument("--samples", type=samples_count, default=200,
                   help=f"random deals of the unseen cards (1 to {MAX_SAMPLES:,}; default 200)")
    p.add_argument("--seed", type=int, default=None, help="the same seed, the same advice")
    p.add_argument("--workers", type=workers_count, default=1,
                   help="processes to use (1 to the number of CPUs; default 1)")
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
    p.add_argument("--count", type=positive_count, default=None,
                   help="stop after this many questions")
    p.add_argument("--learner", default=None, help="whose answers to save (default: you)")
    p.set_defaults(handler=_cmd_quiz)

    p = sub.add_parser("review", help="the reviews due: missed rules, each in a new position")
    p.add_argument("--learner", default=None, help="whose reviews (default: you)")
    p.add_argument("--seed", type=int, default=None, help="the same seed, the same positions")
    p.set_defaults(handler=_cmd_review)

    p = sub.add_parser("progress", help="rules mastered, reviews due, streaks, lessons done")
    p.add_argument("--learner", default=None, help="whose progress (default: you)")
    p.set_defaults(handler=_cmd_progress)

    p = sub.add_parser("play", help="play hands against computer players, with a coach")
    p.add_argument("--level", choices=("beginner", "club", "expert"), default="club",
                   help="the computer players' strength (default: club)")
    p.add_argument("--alone", choices=("analysis", "rarely"), default="analysis",
                   help="when the computer players go alone with the exchange: as the "
                        "analysis says (default), or rarely: only when clearly better")
    p.add_argument("--rules", default="standard",
                   help="standard (default), simple, cutthroat or lions-club")
    p.add_argument("--seat", default="S", help="your seat: N, E, S or W (default: S)")
    p.add_argument("--coach", action="store_true",
                   help="grade every decision as you make it (else: type coach)")
    p.add_argument("--samples", type=samples_count, default=None,
                   help="deals of the unseen cards the coach solves per decision "
                        f"(1 to {MAX_SAMPLES:,}; default: as many as the drills grade on; "
                        "fewer grade faster and less surely)")
    p.add_argument("--seed", type=int, default=None, help="the same seed, the same deals")
    p.add_argument("--auto", action="store_true",
                   help="computer players at every seat; play unattended")
    p.add_argument("--hands", type=hands_count, default=1,
                   help=f"with --auto: how many hands (1 to {MAX_HANDS:,}; default 1)")
    p.add_argument("--save", metavar="DIR", help="write each hand's record into DIR")
    p.add_argument("--history", action="store_true",
                   help="show your figures: points lost per decision, by kind and by hand")
    p.add_argument("--new", action="store_true",
                   help="start a new match without offering to resume the one in progress")
    p.add_argument("--daily", action="store_true",
                   help="the daily deal: the day's 4 deals, the same for everyone, against "
                        "the same club players, your net points against par (with "
                        "--history: your days on the board)")
    p.add_argument("--date", type=day_date, default=None, metavar="YYYY-MM-DD",
                   help="with --daily: that day's deals instead of today's")
    p.set_defaults(handler=_cmd_play)

    p = sub.add_parser("night", help="game night for a table: host screen, projector quiz, "
                                     "phones that join, one live score sheet")
    p.add_argument("--port", type=port_number, default=8866,
                   help="the port to serve on (1 to 65535; default 8866)")
    p.add_argument("--lan", action="store_true",
                   help="let phones on the local network join (default: this computer only)")
    p.add_argument("--address", type=host_address, default=None,
                   help="the address phones use to reach this computer (default: found from "
                        "the network interfaces)")
    p.add_argument("--name", type=night_name, default="tonight",
                   help="which night: each name has its own file; the same name resumes it")
    p.add_argument("--grace", type=grace_seconds, default=60.0,
                   help="seconds a sleeping phone keeps its seat at the table before a "
                        "computer player takes it (default 60)")
    p.set_defaults(handler=_cmd_night)

    p = sub.add_parser("tournament", help="tournament night without the server: draw "
                                          "partners, print the bracket or each round's tables")
    # One action for now; the host's running of the night is game night's (pepper-tutor
    # night). A positional rather than sub-parsers, so the options are on the command's page.
    p.add_argument("action", choices=("plan",),
                   help="plan: print the draw and the double-elimination bracket, or the "
                        "progressive movement's tables per round")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--players", metavar="NAMES",
                     help='players to draw into teams of two: "Ann, Bob, Cy, Di"')
    who.add_argument("--teams", metavar="TEAMS",
                     help='teams as entered, in seed order: "Ann & Bob, Cy & Di"')
    p.add_argument("--seed", type=int, default=None,
                   help="with --players: the same seed, the same draw (default: a new one, "
                        "printed)")
    p.add_argument("--format", choices=("bracket", "progressive"), default="bracket",
                   help="a double-elimination bracket of single games (default), or a "
                        "progressive movement of timed rounds at numbered tables")
    p.add_argument("--rounds", type=positive_count, default=None,
                   help="progressive: the number of rounds (default 8)")
    p.add_argument("--minutes", type=positive_count, default=None,
                   help="progressive: each round's minutes (default 30)")
    p.add_argument("--move", choices=("winners", "all"), default=None,
                   help="progressive: winners move up a table (default), or all move by a "
                        "fixed schedule")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(handler=_cmd_tournament)
