import pickle

import pytest

from pepper_tutor import DECK, Bid, Card, Defense, Mode, NotationError, Seat, Trump, parse_cards


@pytest.mark.parametrize("text", ["JD", "jd", "J♦", "j♦", "Jd", " JD ", "J♢"])
def test_card_aliases_parse_to_the_same_card(text):
    assert Card.parse(text) is Card.parse("JD")
    assert str(Card.parse(text)) == "JD"


@pytest.mark.parametrize("text,canonical", [("10H", "TH"), ("10♥", "TH"), ("th", "TH"),
                                            ("9c", "9C"), ("A♠", "AS"), ("qs", "QS")])
def test_ten_and_symbols(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("bad", ["", "J", "8H", "JX", "11H", "JHH", "1H", "♥J"])
def test_bad_card_raises_a_value_error_naming_it(bad):
    with pytest.raises(NotationError) as err:
        Card.parse(bad)
    assert isinstance(err.value, ValueError)
    assert repr(bad) in str(err.value)


def test_deck_is_24_distinct_cards_that_round_trip():
    assert len(DECK) == 24 == len(set(DECK))
    for card in DECK:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.display) is card
        assert eval(repr(card)) is card
        assert pickle.loads(pickle.dumps(card)) is card
    assert {c.rank.display for c in DECK} == {"9", "10", "J", "Q", "K", "A"}


def test_cards_are_immutable():
    with pytest.raises(AttributeError):
        Card.parse("JH").index = 3  # type: ignore[misc]


def test_display_form():
    assert Card.parse("TD").display == "10♦"
    assert Card.parse("JH").display == "J♥"
    assert Card.parse("JH").is_red and not Card.parse("JS").is_red


def test_parse_cards_from_text_or_list():
    assert parse_cards("JD, AH 9S") == [Card.parse("JD"), Card.parse("AH"), Card.parse("9S")]
    assert parse_cards(["10♦"]) == [Card.parse("TD")]


@pytest.mark.parametrize("text,trump", [("H", Trump.H), ("hearts", Trump.H), ("♥", Trump.H),
                                        ("NT", Trump.NT), ("no-trump", Trump.NT),
                                        ("no trump", Trump.NT), ("c", Trump.C),
                                        ("Spades", Trump.S)])
def test_trump_notation(text, trump):
    assert Trump.parse(text) is trump
    assert Trump.parse(str(trump)) is trump


@pytest.mark.parametrize("text,bid", [("pass", Bid.PASS), ("4", Bid.FOUR), (4, Bid.FOUR),
                                      ("LP", Bid.LITTLE_PEPPER),
                                      ("little pepper", Bid.LITTLE_PEPPER),
                                      ("big-pepper", Bid.BIG_PEPPER), ("bp", Bid.BIG_PEPPER),
                                      ("six", Bid.SIX)])
def test_bid_notation(text, bid):
    assert Bid.parse(text) is bid
    assert Bid.parse(str(bid)) is bid


@pytest.mark.parametrize("bad", ["7", "0", "pepper", "", 9])
def test_bad_bid(bad):
    with pytest.raises(NotationError, match="not a bid"):
        Bid.parse(bad)


def test_seat_arithmetic():
    assert Seat.N.next() is Seat.E and Seat.W.next() is Seat.N
    assert Seat.E.next(players=2) is Seat.N
    assert Seat.S.next(players=3) is Seat.N
    assert Seat.N.partner is Seat.S and Seat.E.partner is Seat.W
    assert [str(s) for s in Seat.S.iter_from()] == ["S", "W", "N", "E"]
    assert Seat.parse("west") is Seat.W
    assert Seat.N.team == "NS" and Seat.W.team == "EW"
    with pytest.raises(NotationError, match="'X'"):
        Seat.parse("X")


def test_mode_and_defense_notation():
    assert Mode.parse("with partner") is Mode.PARTNER
    assert Mode.parse("exchange") is Mode.EXCHANGE
    assert Defense.parse("Surrender") is Defense.SURRENDER
    with pytest.raises(NotationError):
        Mode.parse("trade")
