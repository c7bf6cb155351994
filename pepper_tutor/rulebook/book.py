"""The project's rulebook: every rule in our own words, each with a stable id.

The texts live in ``pepper_tutor/data/rulebook.yaml`` (shipped with the package) so that
explanations, lessons, the annotator and the docs site all quote the same words.

>>> get_rule("rank.left-bower").title
'The left bower'
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["Example", "Rule", "Rulebook", "UnknownRuleError", "get_rule", "get_rulebook", "quote"]


class UnknownRuleError(KeyError):
    """A rule id the rulebook does not have."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Example:
    text: str
    check: dict[str, Any] | None = None


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    title: str
    text: str
    example: Example | None = None

    def quote(self) -> str:
        """The rule as explanations cite it: ``rank.left-bower: The jack ...``."""
        return f"{self.id}: {self.text}"


@dataclass(frozen=True)
class Rulebook:
    sections: tuple[tuple[str, str], ...]
    rules: dict[str, Rule] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules.values())

    def __len__(self) -> int:
        return len(self.rules)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.rules

    def get(self, rule_id: str) -> Rule:
        try:
            return self.rules[rule_id]
        except KeyError:
            close = difflib.get_close_matches(rule_id, list(self.rules), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UnknownRuleError(f"no rule {rule_id!r} in the rulebook{hint}") from None

    def in_section(self, section: str) -> list[Rule]:
        return [r for r in self.rules.values() if r.section == section]

    def search(self, words: str) -> list[Rule]:
        """Rules whose id, title or text contain every word (case-insensitive)."""
        terms = words.lower().split()
        found = []
        for rule in self.rules.values():
            hay = " ".join((rule.id, rule.title, rule.text,
                            rule.example.text if rule.example else "")).lower()
            if all(t in hay for t in terms):
                found.append(rule)
        return found


def _load(text: str) -> Rulebook:
    import yaml  # imported here so that `import pepper_tutor` stays quick

    data = yaml.safe_load(text)
    sections = tuple((s["id"], s["title"]) for s in data["sections"])
    rules: dict[str, Rule] = {}
    for item in data["rules"]:
        ex = item.get("example")
        example = Example(" ".join(ex["text"].split()), ex.get("check")) if ex else None
        rules[item["id"]] = Rule(item["id"], item["section"], item["title"],
                                 " ".join(item["text"].split()), example)
    return Rulebook(sections, rules)


@lru_cache(maxsize=1)
def get_rulebook() -> Rulebook:
    """The packaged rulebook (loaded once)."""
    text = resources.files("pepper_tutor").joinpath("data/rulebook.yaml").read_text("utf-8")
    return _load(text)


def get_rule(rule_id: str) -> Rule:
    return get_rulebook().get(rule_id)


def quote(rule_id: str) -> str:
    return get_rule(rule_id).quote()
