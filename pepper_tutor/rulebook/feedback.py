"""What a learner sees after an answer: right or not, why, the rule quoted, what follows.

Shared by lessons, quizzes and every front end (terminal, notebook, game night).
"""

from __future__ import annotations

from dataclasses import dataclass

from .book import get_rule

__all__ = ["Feedback", "AnswerError"]


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

    @property
    def quotes(self) -> list[tuple[str, str]]:
        """(rule id, rule text) for each rule the feedback rests on."""
        return [(rid, get_rule(rid).text) for rid in self.rule_ids]

    @property
    def text(self) -> str:
        """Everything, in reading order, as plain text."""
        parts = [self.headline]
        if self.author_note:
            parts.append(self.author_note)
        parts += list(self.facts)
        if self.consequence:
            parts.append(self.consequence)
        parts += [f"[{rid}] {text}" for rid, text in self.quotes]
        if self.revealed and self.answer_text:
            parts.append(f"The answer: {self.answer_text}")
        return "\n".join(parts)
