"""pepper-tutor: a rules tutor and hand annotator for Pepper, the Iowa cousin of Euchre.

The package is arranged by layer (see ``CONTRIBUTING.md``): ``engine`` <- ``rulebook`` <-
``analysis`` <- ``records`` <- ``teaching`` <- ``render`` <- ``apps``. The names below are the
public API; they come from the two lowest layers, so importing ``pepper_tutor`` stays cheap.

>>> from pepper_tutor import Card, trick_winner, legal_plays
>>> Card.parse("J♦") == Card.parse("jd")
True
>>> trick_winner(["JD", "AH", "9S", "QH"], trump="H")
0
>>> legal_plays(hand=["JD", "AD", "9S"], led="AH", trump="H")
[Card.parse('JD')]
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, for type checkers and the API docs
    from .engine.calls import Bid, Defense, Mode, Trump
    from .engine.cards import DECK, Card, NotationError, Rank, Suit, parse_cards
    from .engine.match import Match
    from .engine.ranking import effective_suit, legal_plays, sort_by_rank, trick_rank, trick_winner
    from .engine.rules import RuleSet, RuleSetError, get_ruleset
    from .engine.scoring import HandScore, game_status, score_hand
    from .engine.seats import Seat
    from .engine.state import HandState, IllegalActionError, Phase, Trick
    from .rulebook.book import Rule, get_rule, get_rulebook
    from .rulebook.tricks import TrickExplanation, check_trick_winner, explain_trick
    from .rulebook.verdict import Verdict
    from .rulebook.verdicts import check_action

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "Bid",
    "Card",
    "Defense",
    "HandScore",
    "HandState",
    "IllegalActionError",
    "Match",
    "Mode",
    "NotationError",
    "Phase",
    "Rank",
    "Rule",
    "RuleSet",
    "RuleSetError",
    "Seat",
    "Suit",
    "Trick",
    "TrickExplanation",
    "Trump",
    "Verdict",
    "check_action",
    "check_trick_winner",
    "effective_suit",
    "explain_trick",
    "game_status",
    "get_rule",
    "get_rulebook",
    "get_ruleset",
    "legal_plays",
    "parse_cards",
    "score_hand",
    "sort_by_rank",
    "trick_rank",
    "trick_winner",
]


_PUBLIC: dict[str, str] = {
    "Bid": ".engine.calls",
    "Card": ".engine.cards",
    "check_action": ".rulebook.verdicts",
    "check_trick_winner": ".rulebook.tricks",
    "DECK": ".engine.cards",
    "Defense": ".engine.calls",
    "effective_suit": ".engine.ranking",
    "explain_trick": ".rulebook.tricks",
    "game_status": ".engine.scoring",
    "get_rule": ".rulebook.book",
    "get_rulebook": ".rulebook.book",
    "get_ruleset": ".engine.rules",
    "HandScore": ".engine.scoring",
    "HandState": ".engine.state",
    "IllegalActionError": ".engine.state",
    "legal_plays": ".engine.ranking",
    "Match": ".engine.match",
    "Mode": ".engine.calls",
    "NotationError": ".engine.cards",
    "parse_cards": ".engine.cards",
    "Phase": ".engine.state",
    "Rank": ".engine.cards",
    "Rule": ".rulebook.book",
    "RuleSet": ".engine.rules",
    "RuleSetError": ".engine.rules",
    "score_hand": ".engine.scoring",
    "Seat": ".engine.seats",
    "sort_by_rank": ".engine.ranking",
    "Suit": ".engine.cards",
    "Trick": ".engine.state",
    "trick_rank": ".engine.ranking",
    "trick_winner": ".engine.ranking",
    "TrickExplanation": ".rulebook.tricks",
    "Trump": ".engine.calls",
    "Verdict": ".rulebook.verdict",
}
# Where each public name lives. They load on first use (PEP 562), so that `pepper-tutor --help`
# or one trick does not pay for the whole engine and rulebook: the command line must start
# fast (see `make bench`). `from pepper_tutor import Card` works exactly as an eager import.


def __getattr__(name: str) -> Any:
    if name == "notebook":
        # `from pepper_tutor import notebook` is how the notebooks start; the widgets (and
        # ipywidgets) load only then.
        from .apps import notebook

        return notebook
    if name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pepper_tutor' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC, "notebook"])
