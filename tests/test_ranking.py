"""Known answers for every row of RULES-SPEC's ranking section (rank.* rules)."""

import random

import pytest

from pepper_tutor import Card, Suit, Trump, effective_suit, legal_plays, trick_rank, trick_winner
from pepper_tutor.engine.ranking import bower, sort_by_rank

from . import reference

SUITS = "CDHS"
SISTER = {"C": "S", "S": "C", "D": "H", "H": "D"}


@pytest.mark.parametrize("t", SUITS)
def test_rank_trump_order_right_left_ace_king_queen_ten_nine(t):
    """rank.trump, rank.right-bower, rank.left-bower: seven trumps from the top."""
    order = [f"J{t}", f"J{SISTER[t]}", f"A{t}", f"K{t}", f"Q{t}", f"T{t}", f"9{t}"]
    ranks = [trick_rank(c, t) for c in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7
    assert all(effective_suit(c, t) is Suit.parse(t) for c in order)
    assert bower(f"J{t}", t) == "right" and bower(f"J{SISTER[t]}", t) == "left"


@pytest.mark.parametrize("t", SUITS)
def test_left_bower_belongs_to_trumps_and_its_suit_has_five_cards(t):
    """rank.left-bower / play.left-bower-suit: the printed suit loses its jack."""
    sister = SISTER[t]
    left = f"J{sister}"
    assert effective_suit(left, t) is Suit.parse(t)
    printed = [c for c in (f"{r}{sister}" for r in "9TJQKA")
               if effective_suit(c, t) is Suit.parse(sister)]
    assert len(printed) == 5 and left not in printed


@pytest.mark.parametrize("t", [*SUITS, "NT"])
@pytest.mark.parametrize("s", SUITS)
def test_rank_plain_ace_king_queen_jack_ten_nine(t, s):
    """rank.plain and rank.no-trump: plain suits rank A K Q J 10 9 (jack only if not a bower)."""
    if t == s:
        return
    order = [f"{r}{s}" for r in "AKQJT9" if t == "NT" or not (r == "J" and SISTER[t] == s)]
    ranks = [trick_rank(c, t) for c in order]
    assert ranks == sorted(ranks, reverse=True)
    assert all(effective_suit(c, t) is Suit.parse(s) for c in order)


def test_no_trump_has_no_bowers():
    for s in SUITS:
        assert bower(f"J{s}", "NT") is None
        assert effective_suit(f"J{s}", "NT") is Suit.parse(s)


def test_contract_examples():
    assert trick_winner(["JD", "AH", "9S", "QH"], trump="H") == 0
    assert legal_plays(hand=["JD", "AD", "9S"], led="AH", trump="H") == [Card.parse("JD")]


@pytest.mark.parametrize("cards,trump,winner,why", [
    (["AH", "KH", "JD", "JH"], "H", 3, "right bower beats all"),
    (["AD", "JD", "KD", "QD"], "H", 1, "the left bower is a trump, so it beats the diamonds"),
    (["KS", "AS", "9C", "JS"], "C", 3, "JS is the left bower when clubs are trump"),
    (["QD", "AS", "KD", "9D"], "C", 2, "off-suit ace never wins"),
    (["9D", "AD", "9H"], "H", 2, "lowest trump beats an ace of another suit"),
    (["JD", "AD", "KD", "QD"], "NT", 1, "in no trump the jack is ordinary"),
    (["TC", "JC", "AC"], "S", 1, "spades trump: JC is the left bower and wins"),
    (["9S", "TS"], "D", 1, "two-card trick"),
])
def test_known_tricks(cards, trump, winner, why):
    assert trick_winner(cards, trump) == winner, why


def test_left_bower_follow_cases():
    # It must follow a trump lead.
    assert legal_plays(["JD", "KD", "AS"], "9H", "H") == [Card.parse("JD")]
    # It cannot follow its printed suit.
    assert legal_plays(["JD", "KD", "AS"], "AD", "H") == [Card.parse("KD")]
    # Only the left bower and off cards: a diamond lead leaves everything open.
    assert [str(c) for c in legal_plays(["JD", "AS"], "AD", "H")] == ["JD", "AS"]
    # Leading the left bower leads trumps.
    assert legal_plays(["9H", "AD"], "JD", "H") == [Card.parse("9H")]


def test_engine_agrees_with_reference_on_random_tricks():
    rng = random.Random(7)
    deck = [str(Card.from_index(i)) for i in range(24)]
    for _ in range(5000):
        trump = rng.choice(["C", "D", "H", "S", "NT"])
        cards = rng.sample(deck, rng.choice([2, 3, 4]))
        assert trick_winner(cards, trump) == reference.winner(cards, trump), (cards, trump)
        hand = rng.sample([c for c in deck if c not in cards], 6)
        got = [str(c) for c in legal_plays(hand, cards[0], trump)]
        assert got == reference.legal(hand, cards[0], trump)


def test_sort_by_rank_puts_trumps_first_highest_first():
    got = [str(c) for c in sort_by_rank(["9H", "AS", "JD", "JH", "KD"], "H")]
    assert got == ["JH", "JD", "9H", "KD", "AS"]


def test_every_trump_has_seven_cards():
    for t in Trump:
        n = sum(1 for i in range(24) if t is not Trump.NT
                and effective_suit(Card.from_index(i), t) is t.suit)
        assert n == (0 if t is Trump.NT else 7)
