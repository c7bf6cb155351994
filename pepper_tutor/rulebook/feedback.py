"""What a learner sees after an answer: right or not, why, the rule, what follows.

Short first, long on request. The verdict comes first, in a sentence or two with the facts
(the lesson author's note for this exact answer when there is one, else the engine's facts);
the rules it rests on follow, named by their titles ("Rule: The left bower") once the answer
is right or given, never on a first miss (a title can name the answer); rule ids
(``rank.left-bower``) appear only in the opt-in rule ids view (:data:`~.book.RULE_IDS_ENV`).
The full text of a rule is quoted only where :attr:`Feedback.quote_ids` asks for it (a lesson
quotes a rule the first time it comes up) or when the learner asks (:meth:`Feedback.parts`
with ``full=True``: the ``rule`` command in the terminal, the toggle in the notebook).

Shared by lessons, quizzes and every front end (terminal, notebook, game night), which all
render :meth:`Feedback.parts`, so the order, and "The answer: ..." said once, is the same
everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .book import get_rule, rule_ids_shown

__all__ = ["Feedback", "AnswerError", "ANSWER_PREFIX", "sentences"]

ANSWER_PREFIX = "The answer: "
# The most words a verdict panel's short form uses for the reason behind a revealed answer;
# the rest of the reason opens on request. Panels stay short enough to read at a glance.
PANEL_WORDS = 55

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences (at a full stop, question or exclamation mark and a space)."""
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


def _said(sentence: str) -> str:
    """A sentence as compared for repeats: case, spacing and the closing stop ignored."""
    return " ".join(sentence.lower().rstrip(".!?").split())


class AnswerError(ValueError):
    """An answer that cannot be read at all (not a wrong answer: a typo). Ask again."""


@dataclass(frozen=True)
class Feedback:
    correct: bool
    headline: str  # "Right." / "Not quite." / "The answer: ..."
    facts: tuple[str, ...] = ()
    rule_ids: tuple[str, ...] = ()
    consequence: str | None = None
    author_note: str | None = None  # the lesson author's words for this exact answer
    answer_text: str = ""  # the right answer, in words
    revealed: bool = False
    answer_reason: str | None = None  # why the right answer is right (shown with a reveal)
    quote_ids: tuple[str, ...] = ()  # rules to quote in full in the short form
    # rules named by their labels whose text would give the answer away (a first miss):
    # quoted once the answer is given
    held_back: tuple[str, ...] = ()

    @property
    def first_miss(self) -> bool:
        """A wrong answer before the answer is given: no rule is named yet."""
        return not self.correct and not self.revealed

    def rule_name(self, rule_id: str) -> str:
        """How a rule is named on this panel: its id in the rule ids view; else its title,
        or just "Rule" on a first miss (a title such as "The left bower" names the answer)."""
        if rule_ids_shown():
            return rule_id
        return "Rule" if self.first_miss else get_rule(rule_id).title

    @property
    def quotes(self) -> list[tuple[str, str]]:
        """(name, rule text) for each rule the feedback can quote: every rule it rests on,
        less those whose text would give the answer away on a first miss."""
        return [(self.rule_name(rid), get_rule(rid).text) for rid in self.rule_ids
                if rid not in self.held_back]

    def _rules_label(self, quoted: tuple[str, ...]) -> str | None:
        """The line naming the rules: ids in the rule ids view; else, under a right answer,
        the titles of the rules not quoted under the panel (a quote carries its own title).
        A miss names none in the panel: on a first miss a title can name the answer, and once
        the answer is given the panel is for it (the rules open by title on request)."""
        if rule_ids_shown():
            return "rule: " + " · ".join(self.rule_ids) if self.rule_ids else None
        named = [get_rule(r).title for r in self.rule_ids if r not in quoted]
        return "Rule: " + " · ".join(named) if named and self.correct else None

    @property
    def _label_words(self) -> int:
        label = self._rules_label(self.quote_ids)
        return len(label.split()) if label else 0

    @property
    def verdict(self) -> tuple[str, ...]:
        """The sentences that say why: the author's note for this answer if there is one
        (it says it better than the engine's facts), else the facts."""
        return (self.author_note,) if self.author_note else self.facts

    def parts(self, full: bool = False) -> list[tuple[str, str]]:
        """``(kind, text)`` in reading order. Kinds: ``headline``, ``verdict``,
        ``consequence``, ``answer``, ``why`` (the reason for the right answer), ``more`` (facts
        the short form leaves out), ``rules`` (the names) and ``quote`` (a rule in full, as
        ``"name: text"``, see :meth:`rule_name`). ``full`` adds every fact and quotes every rule."""
        # Each sentence is said once: the reason for the right answer is often the very facts
        # the verdict gave (a trick's winner, the rule's consequence), and a learner reading
        # the panel should not meet the same sentence twice.
        said: set[str] = set()
        out: list[tuple[str, str]] = []

        def say(kind: str, text: str) -> None:
            fresh = [s for s in sentences(text) if _said(s) not in said]
            said.update(_said(s) for s in fresh)
            if fresh:
                out.append((kind, " ".join(fresh)))

        say("headline", self.headline)
        for v in self.verdict:
            say("verdict", v)
        if self.consequence:
            say("consequence", self.consequence)
        if self.revealed and not self.correct:
            if self.answer_text and not self.headline.startswith(ANSWER_PREFIX):
                say("answer", ANSWER_PREFIX + self.answer_text)
            if self.answer_reason:
                why = [x for x in sentences(self.answer_reason) if _said(x) not in said]
                # Short first: the reason's first sentences, as many as the panel has room
                # for; the rest is there on request (``full``), after it.
                room = PANEL_WORDS - sum(len(t.split()) for _, t in out) - self._label_words
                kept = 0
                while kept < len(why) and len(" ".join(why[:kept + 1]).split()) <= room:
                    kept += 1
                say("why", " ".join(why[:kept]))
                if full:
                    say("more", " ".join(why[kept:]))
        if full and self.author_note:
            for f in self.facts:
                say("more", f)
        quoted = tuple(r for r in self.rule_ids if (full or r in self.quote_ids)
                       and r not in self.held_back)
        label = self._rules_label(quoted)
        if label:
            out.append(("rules", label))
        out += [("quote", f"{self.rule_name(rid)}: {get_rule(rid).text}") for rid in quoted]
        return out

    @property
    def text(self) -> str:
        """The short form as plain text (what a learner sees first)."""
        return "\n".join(text for _, text in self.parts())

    @property
    def full_text(self) -> str:
        """Everything, every rule quoted: what the learner gets on asking for more."""
        return "\n".join(text for _, text in self.parts(full=True))

    @property
    def words(self) -> int:
        """Words in the verdict panel: the short form without the rule quotes, which every
        front end shows apart, under the panel. The feedback length targets use this."""
        return sum(len(text.split()) for kind, text in self.parts() if kind != "quote")
