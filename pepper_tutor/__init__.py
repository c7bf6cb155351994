"""pepper-tutor: a rules tutor and hand annotator for Pepper, the Iowa cousin of Euchre.

>>> from pepper_tutor import Card, trick_winner, legal_plays
>>> Card.parse("J♦") == Card.parse("jd")
True
>>> trick_winner(["JD", "AH", "9S", "QH"], trump="H")
0
>>> legal_plays(hand=["JD", "AD", "9S"], led="AH", trump="H")
[Card.parse('JD')]
"""

from .calls import Bid, Defense, Mode, Trump
from .cards import DECK, Card, NotationError, Rank, Suit, parse_cards
from .explain import TrickExplanation, Verdict, check_trick_winner, explain_trick
from .match import Match
from .ranking import effective_suit, legal_plays, sort_by_rank, trick_rank, trick_winner
from .rulebook import Rule, get_rule, rulebook
from .rules import RuleSet, RuleSetError, get_ruleset
from .scoring import HandScore, game_status, score_hand
from .seats import Seat
from .state import HandState, IllegalActionError, Phase, Trick

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
    "check_trick_winner",
    "effective_suit",
    "explain_trick",
    "game_status",
    "get_rule",
    "get_ruleset",
    "legal_plays",
    "parse_cards",
    "rulebook",
    "score_hand",
    "sort_by_rank",
    "trick_rank",
    "trick_winner",
]
