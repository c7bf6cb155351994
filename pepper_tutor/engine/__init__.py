"""The engine: the rules of Pepper as code, and nothing else.

Owns cards, seats and calls with their notation, the ranking (the one source of truth for the
bowers: effective suit and trick rank), rule sets and their switches, scoring, one hand as a
state machine (``HandState``) and a match to the target.

May import: the standard library only. Nothing here knows of the rulebook's texts, lessons,
renderers or front ends. Two kinds of method reach upward, lazily, inside the method and
declared in the import contract (``pyproject.toml``): the notebook reprs (``_repr_svg_``,
``_repr_html_``) import their renderer, and ``HandState.check`` imports the verdicts, the
way python-chess's ``Board._repr_svg_`` imports ``chess.svg``.
"""

from .calls import Bid, Defense, Mode, Trump
from .cards import DECK, Card, NotationError, Rank, Suit, parse_cards
from .match import Match
from .ranking import effective_suit, legal_plays, sort_by_rank, trick_rank, trick_winner
from .rules import RuleSet, RuleSetError, get_ruleset
from .scoring import HandScore, game_status, score_hand
from .seats import Seat
from .state import HandState, IllegalActionError, Phase, Trick

__all__ = [
    "DECK", "Bid", "Card", "Defense", "HandScore", "HandState", "IllegalActionError", "Match",
    "Mode", "NotationError", "Phase", "Rank", "RuleSet", "RuleSetError", "Seat", "Suit",
    "Trick", "Trump", "effective_suit", "game_status", "get_ruleset", "legal_plays",
    "parse_cards", "score_hand", "sort_by_rank", "trick_rank", "trick_winner",
]
