"""A verdict: the answer to "may I do this?", with the rule ids, the facts and the alternatives.

A plain value shared by the checks on one trick (:mod:`.tricks`) and on a whole hand
(:mod:`.verdicts`); its explanation quotes the rulebook by id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..engine.calls import Bid, Mode, Trump
from ..engine.cards import Card
from ..engine.seats import Seat
from .book import Rule, get_rule, rule_tag

if TYPE_CHECKING:
    from ..engine.state import Action

__all__ = ["Verdict", "action_text"]


def action_text(action: Action | Seat) -> str:
    """How an action reads to a person: ``J♥``, ``little pepper``, ``hearts``, ``surrender``."""
    if isinstance(action, Card):
        return action.display
    if isinstance(action, Bid):
        return action.display
    if isinstance(action, Trump):
        return action.word
    if isinstance(action, Mode):
        return action.display
    if isinstance(action, Seat):
        return action.word
    return str(action)


class Verdict(NamedTuple):
    """The answer to "may I do this?": legal or not, the facts, the rules, the alternatives."""

    legal: bool
    action: Action | None
    seat: Seat | None
    rule_ids: tuple[str, ...]
    facts: tuple[str, ...]
    alternatives: tuple[Action, ...] = ()

    def __bool__(self) -> bool:
        return self.legal

    @property
    def rules(self) -> list[Rule]:
        return [get_rule(r) for r in self.rule_ids]

    @property
    def rule_id(self) -> str | None:
        return self.rule_ids[0] if self.rule_ids else None

    @property
    def explanation(self) -> str:
        """Facts first, then each rule quoted (with its id in the rule ids view), then what
        may be done instead."""
        parts = list(self.facts)
        parts += [f"{rule_tag(r.id)}{r.text}" for r in self.rules]
        if not self.legal and self.alternatives:
            parts.append("Allowed instead: " + ", ".join(action_text(a)
                                                         for a in self.alternatives) + ".")
        return "\n".join(parts)

    def to_dict(self) -> dict[str, object]:
        return {"legal": self.legal,
                "action": None if self.action is None else str(self.action),
                "seat": None if self.seat is None else str(self.seat),
                "rules": list(self.rule_ids), "facts": list(self.facts),
                "alternatives": [str(a) for a in self.alternatives],
                "explanation": self.explanation}
