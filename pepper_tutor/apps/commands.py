"""Sub-commands beyond the engine's own: annotate (and, as they land, lesson and quiz)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from datetime import date
from typing import Any

__all__ = ["register", "write_output", "check_output", "refuse_ignored", "MAX_HANDS",
           "MAX_NIGHT_NAME", "MAX_SAMPLES", "MAX_QUESTIONS", "MAX_START", "counted"]

#: The most random deals ``analyse --samples`` (and ``play --samples``, per decision,
#: ``puzzles mine --samples``, the tournament's) takes: the advice is already steady long
#: before, and every deal is a full double-dummy solve. The analysis refuses more too
#: (``pepper_tutor.analysis.advice.MAX_SAMPLES``, the same figure: a test keeps them equal;
#: it is not imported here, so that the command line starts without the analysis).
MAX_SAMPLES = 10_000
#: The most hands ``play --auto --hands`` (and ``puzzles mine --hands``, the tournament's
#: ``--deals``) plays in one run (a long tournament is run in parts): a typo of a few zeros
#: is not a week of play.
MAX_HANDS = 10_000
#: The most questions ``quiz --count`` and ``puzzles --count`` ask in one sitting.
MAX_QUESTIONS = 10_000
#: The highest first hand index of ``puzzles mine --start``.
MAX_START = 1_000_000_000
#: The longest night name: it becomes a file name, and file systems stop at 255 bytes.
MAX_NIGHT_NAME = 64


def _whole_number(text: str) -> int:
    # A plain decimal: int() would also take "1_000", " 3 " and Arabic-Indic digits, and
    # refuse a number of 5,000 digits with a message about Python's limit.
    if re.fullmatch(r"-?[0-9]{1,100}", text) is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text[:40]!r}")
    return int(text)


def counted(low: int, high: int, why: str = "") -> Any:
    """An argparse type: a whole number from ``low`` to ``high`` (a bad value is a usage
    error naming the range, exit 2); ``why`` says why the cap is where it is."""
    def count(text: str) -> int:
        n = _whole_number(text)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, not {n:,}"
                                             + (f" ({why})" if why else ""))
        return n

    count.__name__ = "count"  # argparse names the type in its "invalid ... value" message
    return count


#: ``--samples``: 1 to MAX_SAMPLES.
samples_count = counted(1, MAX_SAMPLES, "more deals take far longer and barely move the "
                                        "advice")
#: ``--hands``: 1 to MAX_HANDS.
hands_count = counted(1, MAX_HANDS)
#: ``--count`` of questions or puzzles: 1 to MAX_QUESTIONS.
questions_count = counted(1, MAX_QUESTIONS)


def workers_count(text: str) -> int:
    """``--workers``: 1 to the number of CPUs of this machine."""
    n = _whole_number(text)
    cpus = os.cpu_count() or 1
    if not 1 <= n <= cpus:
        raise argparse.ArgumentTypeError(f"must be from 1 to {cpus} (the CPUs of this "
                                         f"machine), not {n}")
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
    (:mod:`pepper_tutor.files.writing`: regular files and new paths only, through no
    symlinked folder, mode kept, never one of ``inputs``, the files the command read; an
    empty path or one ending in a slash is refused, whatever the format)."""
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    from ..files.writing import write_text

    write_text(output, text, inputs=inputs, through_links=False)


def check_output(output: str | None, inputs: tuple[str, ...] = ()) -> None:
    """Refuse a bad ``-o`` before the work (:func:`write_output` would refuse it after)."""
    if output is None or output == "-":
        return
    from ..files.writing import check_target

    check_target(output, inputs=inputs, through_links=False)


def _cmd_annotate(args: argparse.Namespace) -> int:
    from ..records.annotate import annotate_file
    from ..render.annotation import to_html, to_json, to_markdown, to_rich

    inputs = (args.file,)
    check_output(args.output, inputs)  # a refused path is said before the work
    # the guide grades every decision itself (--analyse): the annotator need not solve too
    annotation = annotate_file(args.file, analyse=args.analyse and args.format != "viewer")
    if args.format == "json":
        write_output(to_json(annotation) + "\n", args.output, inputs)
    elif args.format == "markdown":
        write_output(to_markdown(annotation), args.output, inputs)
    elif args.format == "html":
        write_output(to_html(annotation), args.output, inputs)
    elif args.format == "viewer":
        from .guide import guide_file

        write_output(guide_file(annotation.record, args.analyse), args.output, inputs)
    else:
        from ..render.terminal import make_console

        if args.output is not None and args.output != "-":
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
        refuse_ignored(f"analyse {args.file}", args, ("samples", "seed", "workers"), set(),
                       "a whole hand: every card is graded against perfect play, all hands "
                       "seen, with no sampling")
        annotation = annotate(record, analyse=True)
        graded = [f for f in annotation.findings if f.kind == "costly"]
        console.print(to_rich(annotation, args.ascii))
        console.print(f"{len(graded)} card{'s' if len(graded) != 1 else ''} cost tricks "
                      "against perfect play." if graded else
                      "Every card kept the most tricks possible for its side.")
        return 0
    args.samples = 200 if args.samples is None else args.samples
    args.workers = 1 if args.workers is None else args.workers
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
    refuse_ignored("lesson --check" if args.check else "lesson", args,
                   ("no_analysis", "learner"), {"no_analysis"} if args.check else {"learner"})
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
            found = found or _guides_giving_away(lesson)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as err:
            found = [Problem(lesson.file, 1, 1, f"cannot check this lesson: {err!r}")]
        problems += found
        if not found:
            print(strip_controls(f"ok  {lesson.id:24} {len(lesson.steps):2} steps  "
                                 f"{lesson.file}"))
    for problem in problems:
        print(f"pepper-tutor: {strip_controls(problem)}", file=sys.stderr)
    return 2 if problems else 0


def _guides_giving_away(lesson: Any) -> list[Any]:
    """Each step whose whole hand, as the learner is shown it, gives the step's answer away
    (the guide's words are render's, so this check is made here, after ``check_lesson``)."""
    from ..files.yamlpos import Problem
    from ..render.guide import guide_gives_away

    out = []
    for step in lesson.steps:
        guide = lesson.guide_of(step)
        if guide is not None and (why := guide_gives_away(step, guide)):
            out.append(Problem(lesson.file, guide.until_line or guide.line or step.line, 1,
                               f"step {step.id} ({step.kind}): {guide.words}, shown until "
                               f"{guide.until.text}, gives the answer away: {why}; end it "
                               "earlier with until (a step that asks stops at its at moment "
                               "unless until says)"))
    return out


def _cmd_quiz(args: argparse.Namespace) -> int:
    from .tutor import run_quiz

    return run_quiz(args.kind, args.seed, args.count, ascii=args.ascii, learner=args.learner)


def _cmd_review(args: argparse.Namespace) -> int:
    from .tutor import run_review

    return run_review(args.learner, ascii=args.ascii, seed=args.seed)


def _cmd_progress(args: argparse.Namespace) -> int:
    from .tutor import run_progress

    return run_progress(args.learner, ascii=args.ascii)


#: The options of ``play`` each way of playing reads; any other given is refused (exit 2)
#: rather than silently doing nothing.
_PLAY_OPTIONS = {
    "play": {"level", "alone", "rules", "seat", "coach", "samples", "seed",
                           "save", "new"},
    "play --auto": {"level", "alone", "rules", "seat", "seed", "hands", "save", "samples"},
    "play --daily": {"coach", "samples", "save", "date"},
    "play --daily --history": {"date"},
    "play --history": set(),
}
#: Why a way of playing has no use for an option, where there is more to say.
_PLAY_WHY = {
    "play --daily": "the daily deal is the same for everyone: standard rules, dealt from the "
               "date, against club players, you sitting South",
    "play": "--hands is for --auto",
    "play --auto": "--auto plays unattended, grading every decision",
}
#: The defaults of the options given as None, so that one typed can be told from none.
_PLAY_DEFAULTS = {"level": "club", "alone": "analysis", "rules": "standard", "seat": "S",
                  "hands": 1}


def _play_mode(args: argparse.Namespace) -> str:
    if args.daily:
        if args.auto:
            raise ValueError("the daily deal is yours to play: --auto plays no daily")
        return "play --daily --history" if args.history else "play --daily"
    if args.date is not None:
        raise ValueError("--date picks the daily deal's date: give --daily too")
    if args.history:
        if args.auto:
            raise ValueError("--history shows your figures and plays nothing: give "
                             "--history or --auto, not both")
        return "play --history"
    return "play --auto" if args.auto else "play"


def refuse_ignored(mode: str, args: argparse.Namespace, options: tuple[str, ...],
                   reads: set[str] | frozenset[str], why: str | None = None) -> None:
    """Refuse (one line, exit 2) any of ``options`` given (not None, not False) that the
    way of running ``mode`` does not read: an option that silently does nothing lets a
    person believe it did something."""
    unused = [name for name in options if getattr(args, name) not in (None, False)
              and name not in reads]
    if unused:
        flags = ", ".join(f"--{name.replace('_', '-')}" for name in unused)
        raise ValueError(f"{mode}: {flags} {'does' if len(unused) == 1 else 'do'} "
                         f"nothing here{f' ({why})' if why else ''}; leave "
                         f"{'it' if len(unused) == 1 else 'them'} out")


def _check_play_options(args: argparse.Namespace) -> str:
    """The way of playing asked for, once every option given is one it reads."""
    mode = _play_mode(args)
    refuse_ignored(mode, args, ("level", "alone", "rules", "seat", "coach", "samples", "seed",
                                "hands", "save", "new", "date"),
                   _PLAY_OPTIONS[mode], _PLAY_WHY.get(mode))
    for name, value in _PLAY_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.save is not None:  # a save that cannot happen is said now, not after each hand
        from ..files.writing import check_folder

        check_folder(args.save)
    return mode


def _cmd_play(args: argparse.Namespace) -> int:
    from .table import run_auto, run_play, show_history

    mode = _check_play_options(args)
    if args.daily:
        from .daily import run_daily, show_board

        if args.history:
            from ..render.terminal import make_console
            from ..teaching.practice.daily_board import DailyBoard

            return show_board(make_console(args.ascii), DailyBoard(), args.date)
        more = {"samples": args.samples} if args.samples is not None else {}
        return run_daily(args.date, args.coach, save=args.save, ascii=args.ascii, **more)
    if mode == "play --history":
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
    p.add_argument("--format", "-f", choices=("text", "json", "markdown", "html", "viewer"),
                   default="text", help="output format (default: text for the terminal; "
                   "viewer: a Game Guide, one HTML file that steps through the hand)")
    p.add_argument("--output", "-o", help="write to this file instead of the screen")
    p.add_argument("--analyse", "--analyze", action="store_true",
                   help="also grade every card against perfect play (all hands seen)")
    p.set_defaults(handler=_cmd_annotate)

    p = sub.add_parser("analyse", aliases=["analyze"],
                       help="advice for the next decision of a record, or grades of a hand")
    p.add_argument("file", help="a pepper-hand/1 record: a whole hand, or one that stops at "
                                "the decision to analyse")
    # Defaults of None, filled in for a position: a whole hand refuses them (no sampling).
    p.add_argument("--samples", type=samples_count, default=None,
                   help=f"random deals of the unseen cards (1 to {MAX_SAMPLES:,}; default 200)")
    p.add_argument("--seed", type=int, default=None, help="the same seed, the same advice")
    p.add_argument("--workers", type=workers_count, default=None,
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
    p.add_argument("--count", type=questions_count, default=None,
                   help=f"stop after this many questions (1 to {MAX_QUESTIONS:,})")
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
    # Defaults of None, filled in by _check_play_options: an option the way of playing
    # does not read is refused only when it was typed.
    p.add_argument("--level", choices=("beginner", "club", "expert"), default=None,
                   help="the computer players' strength (default: club)")
    p.add_argument("--alone", choices=("analysis", "rarely"), default=None,
                   help="when the computer players go alone with the exchange: unless the "
                        "analysis finds playing with partner clearly better (default), or "
                        "rarely: only when the analysis finds the exchange clearly better")
    p.add_argument("--rules", default=None,
                   help="standard (default), simple, cutthroat or lions-club")
    p.add_argument("--seat", default=None, help="your seat: N, E, S or W (default: S)")
    p.add_argument("--coach", action="store_true",
                   help="grade every decision as you make it (else: type coach)")
    p.add_argument("--samples", type=samples_count, default=None,
                   help="deals of the unseen cards the coach solves per decision "
                        f"(1 to {MAX_SAMPLES:,}; default: as many as the drills grade on; "
                        "fewer grade faster and less surely)")
    p.add_argument("--seed", type=int, default=None, help="the same seed, the same deals")
    p.add_argument("--auto", action="store_true",
                   help="computer players at every seat; play unattended")
    p.add_argument("--hands", type=hands_count, default=None,
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
    p.add_argument("--rounds", type=counted(1, 100, "a night has fewer rounds"), default=None,
                   help="progressive: the number of rounds (default 8)")
    p.add_argument("--minutes", type=counted(1, 600, "a round of ten hours at most"), default=None,
                   help="progressive: each round's minutes (default 30)")
    p.add_argument("--move", choices=("winners", "all"), default=None,
                   help="progressive: winners move up a table (default), or all move by a "
                        "fixed schedule")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(handler=_cmd_tournament)
