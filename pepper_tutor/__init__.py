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

from types import ModuleType

from .engine.calls import Bid, Defense, Mode, Trump
from .engine.cards import DECK, Card, NotationError, Rank, Suit, parse_cards
from .engine.match import Match
from .engine.ranking import effective_suit, legal_plays, sort_by_rank, trick_rank, trick_winner
from .engine.rules import RuleSet, RuleSetError, get_ruleset
from .engine.scoring import HandScore, game_status, score_hand
from .engine.seats import Seat
from .engine.state import HandState, IllegalActionError, Phase, Trick
from .rulebook.book import Rule, get_rule, get_rulebook
from .rulebook.verdicts import (
    TrickExplanation,
    Verdict,
    check_action,
    check_trick_winner,
    explain_trick,
)

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


def __getattr__(name: str) -> ModuleType:
    # `from pepper_tutor import notebook` is how the notebooks start; the widgets (and
    # ipywidgets) load only then, so the command line and plain scripts start fast.
    if name == "notebook":
        from .apps import notebook

        return notebook
    raise AttributeError(f"module 'pepper_tutor' has no attribute {name!r}")
