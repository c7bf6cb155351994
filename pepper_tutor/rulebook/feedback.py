"""What a learner sees after an answer: right or not, why, the rule, what follows.

Short first, long on request. The verdict comes first, in a sentence or two with the facts
(the lesson author's note for this exact answer when there is one, else the engine's facts);
the rules it rests on follow as labels (``rule: rank.left-bower``). The full text of a rule is
quoted only where :attr:`Feedback.quote_ids` asks for it (a lesson quotes a rule the first
time it comes up) or when the learner asks (:meth:`Feedback.parts` with ``full=True``: the
``rule`` command in the terminal, the toggle in the notebook).

Shared by lessons, quizzes and every front end (terminal, notebook, game night), which all
render :meth:`Feedback.parts`, so the order, and "The answer: ..." said once, is the same
everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from .book import get_rule

__all__ = ["Feedback", "AnswerError", "ANSWER_PREFIX"]

ANSWER_PREFIX = "The answer: "


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

    @property
    def quotes(self) -> list[tuple[str, str]]:
        """(rule id, rule text) for each rule the feedback rests on."""
        return [(rid, get_rule(rid).text) for rid in self.rule_ids]

    @property
    def verdict(self) -> tuple[str, ...]:
        """The sentences that say why: the author's note for this answer if there is one
        (it says it better than the engine's facts), else the facts."""
        return (self.author_note,) if self.author_note else self.facts

    def parts(self, full: bool = False) -> list[tuple[str, str]]:
        """``(kind, text)`` in reading order. Kinds: ``headline``, ``verdict``,
        ``consequence``, ``answer``, ``why`` (the reason for the right answer), ``more`` (facts
        the short form leaves out), ``rules`` (the labels) and ``quote`` (a rule in full, as
        ``"id: text"``). ``full`` adds every fact and quotes every rule."""
        out = [("headline", self.headline)]
        out += [("verdict", v) for v in self.verdict]
        if self.consequence:
            out.append(("consequence", self.consequence))
        if self.revealed and not self.correct:
            if self.answer_text and not self.headline.startswith(ANSWER_PREFIX):
                out.append(("answer", ANSWER_PREFIX + self.answer_text))
            if self.answer_reason and self.answer_reason not in self.verdict:
                out.append(("why", self.answer_reason))
        if full and self.author_note:
            out += [("more", f) for f in self.facts]
        if self.rule_ids:
            out.append(("rules", "rule: " + " · ".join(self.rule_ids)))
        quoted = self.rule_ids if full else tuple(r for r in self.rule_ids
                                                   if r in self.quote_ids)
        out += [("quote", f"{rid}: {get_rule(rid).text}") for rid in quoted]
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
