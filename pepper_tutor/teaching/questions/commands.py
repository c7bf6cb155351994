"""Commands or answers: the one decision every front end makes about a typed line.

A line that answers the question in front of the learner is the answer, whatever command it
could also spell: ``S`` is South where South is a seat of the trick, ``q`` the queen where one
queen is held. Commands are spelled out (``skip``, ``hint``, ``reveal``, ``quit``); the short
forms work where they are no answer, and a colon makes any line a command (``:s`` skips,
``:q`` quits, wherever the learner is). A command that counts a miss (``skip``) has no bare
letter at all, since its letter names a seat or a suit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...rulebook.feedback import AnswerError

__all__ = ["Command", "read_command", "command_help", "colon_note", "answers", "PREFIX",
           "HINT", "RULE", "REVEAL", "SKIP", "BACK", "QUIT", "STEP_COMMANDS"]

#: Typed before a command, it is read as that command even where it would answer.
PREFIX = ":"


@dataclass(frozen=True)
class Command:
    """A command's name, the words read as it, the short forms read as it only where they
    answer nothing, and the short forms read only after the prefix (``:s``)."""

    name: str
    words: tuple[str, ...]
    short: tuple[str, ...] = ()
    prefixed: tuple[str, ...] = ()
    says: str = ""


HINT = Command("hint", ("hint",), ("h",), says="a nudge, then more")
RULE = Command("rule", ("rule", "rules", "why", "more"), says="the rule in full")
REVEAL = Command("reveal", ("reveal",), ("r", "?"), says="the answer (counts as a miss)")
# "s" names South and spades: skipping counts a miss, so it is never read from a bare letter.
SKIP = Command("skip", ("skip",), (), ("s",), says="the next question (counts as a miss)")
BACK = Command("back", ("back",), ("b",), says="the step before")
QUIT = Command("quit", ("quit", "exit"), ("q",), says="stop here")
STEP_COMMANDS = (HINT, RULE, REVEAL, SKIP, BACK, QUIT)


def _plain(raw: str) -> str:
    return " ".join(raw.lower().split())


def _named(text: str, commands: Sequence[Command], prefixed: bool) -> str | None:
    for command in commands:
        forms = command.words + command.short + (command.prefixed if prefixed else ())
        if text in forms:
            return command.name
    return None


def read_command(raw: str, commands: Sequence[Command],
                 is_answer: Callable[[str], bool]) -> str | None:
    """The name of the command ``raw`` gives, or ``None`` when it is an answer (or nothing
    this list knows, for the answer reader to explain). ``is_answer`` says whether the step
    in front of the learner reads ``raw`` as an answer; it is asked only when ``raw`` could
    be a command, so a slow reader costs nothing on ordinary answers."""
    text = _plain(raw)
    if text.startswith(PREFIX):
        return _named(text[len(PREFIX):].strip(), commands, prefixed=True)
    name = _named(text, commands, prefixed=False)
    if name is None or is_answer(raw):
        return None
    return name


def answers(parse: Callable[[str], Any]) -> Callable[[str], bool]:
    """``is_answer`` for :func:`read_command` from a step's reader: true when it reads the
    text without an :class:`AnswerError`."""
    def is_answer(raw: str) -> bool:
        try:
            parse(raw)
        except AnswerError:
            return False
        return True
    return is_answer


def command_help(commands: Sequence[Command], lead: str = "Type your answer, or",
                 is_answer: Callable[[str], bool] | None = None) -> str:
    """One line listing the commands with their short forms. The colon that makes a line a
    command is named only where it matters: where ``is_answer`` (the step's reader) takes
    one of the short forms as an answer ("s is South here")."""
    parts = []
    for command in commands:
        shorts = [*command.short, *(PREFIX + p for p in command.prefixed)]
        parts.append(command.name + (f" ({', '.join(shorts)})" if shorts else ""))
    line = f"{lead}: {' · '.join(parts)}."
    note = colon_note(commands, is_answer) if is_answer is not None else ""
    return f"{line} {note}" if note else line


def colon_note(commands: Sequence[Command], is_answer: Callable[[str], bool]) -> str:
    """Where a command's letter answers the step (``s`` for South): say the colon makes it
    the command; elsewhere nothing."""
    clash = _answering_short(commands, is_answer)
    if clash is None:
        return ""
    return f"Here {clash} is an answer: type {PREFIX}{clash} for the command."


def _answering_short(commands: Sequence[Command],
                     is_answer: Callable[[str], bool]) -> str | None:
    """The first short form of ``commands`` that the step would read as an answer."""
    for command in commands:
        for short in (*command.short, *command.prefixed):
            if short.isalpha() and is_answer(short):
                return short
    return None
