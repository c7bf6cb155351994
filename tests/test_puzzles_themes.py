"""A puzzle's theme, where no rule of thumb names the mistake, says what the choice was
between, from the cards alone (teaching/puzzles/themes.py: card_choice)."""

from __future__ import annotations

import pytest

from pepper_tutor.engine.calls import Bid, Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.engine.state import HandState, Phase
from pepper_tutor.teaching.puzzles.themes import RULES_OF, card_choice, theme_title

# East has no spades.
HANDS = {"N": ["JH", "AH", "AS", "KS", "9C", "TD"], "E": ["JD", "QD", "QC", "KC", "AC", "9D"],
         "S": ["QH", "TS", "QS", "TC", "AD", "KD"], "W": ["9H", "TH", "KH", "JS", "JC", "9S"]}


def position(trump: Trump, played: list[str], left: bool = True) -> HandState:
    """North bids 3 and names ``trump``; then ``played`` (North leads)."""
    rules = get_ruleset("cutthroat", players=4, partnerships=True, left_bower=left)
    state = HandState.from_hands(HANDS, rules, "W")
    state.apply(Bid.parse("3"))
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(trump)
    assert state.to_act is not None and str(state.to_act) == "N"
    for card in played:
        state.apply(Card.parse(card))
    return state


@pytest.mark.parametrize(("trump", "played", "tempting", "best", "theme"), [
    (Trump.H, [], "AS", "JH", "draw-trumps"),  # the bidder leads a trump or a side ace
    (Trump.H, [], "JH", "AS", "trumps-held-back"),
    (Trump.H, [], "AS", "KS", "high-or-low-lead"),
    (Trump.H, [], "9C", "AS", "lead-the-right-suit"),
    (Trump.H, ["AS", "QC"], "TS", "QS", "high-or-low-follow"),
    (Trump.H, ["AS"], "QC", "JD", "trump-in"),  # East is void in spades, holds one trump
    (Trump.H, ["AS"], "JD", "QC", "save-the-trump"),
    (Trump.H, ["AS"], "9D", "QC", "which-discard"),
    (Trump.D, ["AS"], "JD", "9D", "which-trump"),
    (Trump.NT, ["9C"], "QC", "AC", "high-or-low-follow"),
    (Trump.NT, ["AS"], "9D", "QC", "which-discard"),  # no trumps: a void only throws away
])
def test_the_choice_is_named_by_what_it_was_between(trump, played, tempting, best, theme):
    state = position(trump, played)
    assert card_choice(state, Card.parse(tempting), Card.parse(best)) == theme
    assert theme in RULES_OF and theme_title(theme) != theme


def test_the_jack_is_a_trump_only_where_the_table_has_a_left_bower():
    assert card_choice(position(Trump.H, ["AS"], left=False), Card.parse("QC"),
                       Card.parse("JD")) == "which-discard"


def test_every_card_theme_is_titled_and_cites_rules():
    for theme in ("draw-trumps", "trumps-held-back", "lead-the-right-suit", "high-or-low-lead",
                  "high-or-low-follow", "trump-in", "save-the-trump", "which-trump",
                  "which-discard"):
        assert RULES_OF[theme] and theme_title(theme)[0].isupper()
