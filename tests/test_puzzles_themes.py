"""A puzzle's theme, where no rule of thumb names the mistake, says what the choice was
between, from the cards alone (teaching/puzzles/themes.py: card_choice); a rule of thumb's
theme is kept only where its title is true of the answer (theme_holds)."""

from __future__ import annotations

import pytest

from pepper_tutor.engine.calls import Bid, Defense, Mode, Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.engine.state import HandState, Phase
from pepper_tutor.teaching.puzzles.themes import RULES_OF, card_choice, theme_holds, theme_title

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


# What a theme's title says must be true of the answer (themes.py: theme_holds): a theme
# that would say otherwise gives way to what the choice was between.
@pytest.mark.parametrize(("trump", "played", "theme", "best", "tempting", "holds"), [
    # North leads the 10♦; East's Q♦ takes it, the 9♦ does not.
    (Trump.H, ["TD"], "missed-the-trick", "QD", "9D", True),
    (Trump.H, ["TD"], "missed-the-trick", "9D", "QD", False),
    # North leads the 9♣; each of East's clubs takes it: the queen is the cheap one.
    (Trump.H, ["9C"], "won-too-high", "QC", "AC", True),
    (Trump.H, ["9C"], "won-too-high", "AC", "QC", False),  # the answer is the dearer card
    (Trump.H, ["9C"], "missed-the-trick", "AC", "QC", False),  # the queen takes it as well
    # Spades trumps: West, void in clubs, behind partner East's winning A♣.
    (Trump.S, ["9C", "AC", "TC"], "trumped-partner", "9H", "9S", True),
    (Trump.S, ["9C", "AC", "TC"], "trumped-partner", "JC", "9S", False),  # trumps it too
    # East, void in spades, throws a card on North's A♠.
    (Trump.H, ["AS"], "threw-a-winner", "9D", "AC", True),
    (Trump.H, ["AS"], "threw-a-winner", "AC", "9D", False),
    # North leads.
    (Trump.H, [], "ace-not-cashed", "AS", "KS", True),
    (Trump.H, [], "ace-not-cashed", "KS", "AS", False),
    (Trump.H, [], "draw-trumps", "JH", "AS", True),  # a theme of the cards: true as found
])
def test_a_theme_holds_only_where_its_title_is_true_of_the_answer(trump, played, theme, best,
                                                                   tempting, holds):
    state = position(trump, played)
    assert theme_holds(state, theme, Card.parse(best), Card.parse(tempting)) is holds


def test_a_call_theme_holds_only_for_the_call_its_title_names():
    state = position(Trump.H, [])
    assert theme_holds(state, "surrendered-too-soon", Defense.PLAY, Defense.SURRENDER)
    assert not theme_holds(state, "surrendered-too-soon", Defense.SURRENDER, Defense.PLAY)
    assert theme_holds(state, "stayed-with-partner", Mode.EXCHANGE, Mode.PARTNER)
    assert not theme_holds(state, "went-alone", Mode.EXCHANGE, Mode.PARTNER)
    assert theme_holds(state, "underbid", Bid.FIVE, Bid.FOUR)
    assert not theme_holds(state, "overbid", Bid.FIVE, Bid.FOUR)
    assert not theme_holds(state, "passed-a-making-hand", Bid.PASS, Bid.FOUR)
