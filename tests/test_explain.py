"""Every verdict kind names its rule ids, quotes the rulebook and states the facts."""

from pepper_tutor import (
    Bid,
    Card,
    Defense,
    HandState,
    Mode,
    Seat,
    Trump,
    check_trick_winner,
    explain_trick,
    get_rule,
    get_ruleset,
)

from .test_state import DEAL


def at_play(trump=Trump.H, mode=Mode.PARTNER, rules="standard", deal=DEAL):
    state = HandState.from_hands(deal, rules, "W")
    for a in (Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS, trump, mode, Defense.PLAY):
        state.apply(a)
    return state


def assert_quotes(verdict, *rule_ids):
    assert verdict.rule_ids[: len(rule_ids)] == rule_ids
    for rid in rule_ids:
        assert get_rule(rid).text in verdict.explanation


def test_out_of_turn():
    state = HandState.from_hands(DEAL, "standard", "W")
    v = state.check("3", seat="E")
    assert not v and v.seat is Seat.E
    assert "North's turn" in v.explanation
    assert_quotes(v, "play.turn")
    assert Bid.PASS in v.alternatives


# Trick 1 of this deal has S lead the A♣; W plays Q♣; N holds 9♣ and must follow.
LEFT_DEAL = {
    "N": ["JD", "KD", "AS", "TC", "9C", "QS"],
    "E": ["AH", "9S", "TS", "KS", "QD", "9D"],
    "S": ["JH", "TH", "KH", "AC", "KC", "AD"],
    "W": ["JS", "JC", "9H", "QC", "QH", "TD"],
}


def test_left_bower_must_follow_a_trump_lead():
    state = at_play(deal=LEFT_DEAL)
    state.apply(Card.parse("TH"))  # S leads a trump
    state.apply(Card.parse("9H"))  # W follows
    v = state.check("KD")  # N holds J♦, the only trump
    assert not v
    assert_quotes(v, "play.follow-suit", "play.left-bower-suit")
    assert ("Hearts are trumps, so the J♦ is the left bower and counts as a heart; you hold it, "
            "so you must follow hearts with it") in v.explanation
    assert v.alternatives == (Card.parse("JD"),)


def test_left_bower_cannot_follow_its_printed_suit():
    state = at_play(deal=LEFT_DEAL)
    state.apply(Card.parse("AD"))  # S leads a diamond
    state.apply(Card.parse("TD"))
    v = state.check("JD")  # N has K♦ to follow with
    assert not v
    assert_quotes(v, "play.follow-suit", "play.left-bower-suit")
    assert "cannot follow diamonds" in v.explanation
    assert v.alternatives == (Card.parse("KD"),)


def test_plain_revoke_lists_the_followers():
    state = at_play()
    state.apply(Card.parse("AC"))  # S leads a club
    state.apply(Card.parse("QC"))
    v = state.check("AH")  # N holds 9♣
    assert not v and "Clubs were led and you hold 9♣" in v.explanation
    assert_quotes(v, "play.follow-suit")


def test_legal_play_facts():
    state = at_play(deal=LEFT_DEAL)
    state.apply(Card.parse("TH"))
    state.apply(Card.parse("9H"))
    v = state.check("JD")
    assert v and "left bower and follows hearts" in v.facts[0]


def test_card_not_held():
    state = at_play()
    v = state.check("AS")
    assert not v and "You do not hold the A♠" in v.explanation
    assert "South does not hold the A♠" in state.check("AS", second_person=False).explanation
    assert_quotes(v, "play.own-cards")


def test_bid_not_topping_and_not_on_the_ladder():
    state = HandState.from_hands(DEAL, "standard", "W")
    state.apply(Bid.FOUR)
    v = state.check("3")
    assert not v and "The standing bid is 4 by North; 3 does not top it" in v.explanation
    assert_quotes(v, "bid.must-top")
    assert Bid.FIVE in v.alternatives and Bid.PASS in v.alternatives

    simple = HandState.from_hands(DEAL, "simple", "W")
    v = simple.check("6")
    assert not v and "the bids are 1, 2, 3, 4, 5, little pepper, big pepper" in v.explanation
    assert_quotes(v, "bid.ladder", "preset.simple")

    minimum = HandState.from_hands(DEAL, get_ruleset("standard", minimum_bid=3), "W")
    v = minimum.check("2")
    assert not v and "lowest bid is 3" in v.explanation
    assert_quotes(v, "variant.minimum-bid")


def test_dealer_may_not_pass_when_stuck():
    rules = get_ruleset("standard", minimum_bid=4, all_pass="dealer_must_bid")
    state = HandState.from_hands(DEAL, rules, "W")
    for _ in range(3):
        state.apply(Bid.PASS)
    v = state.check("pass")
    assert not v and "must bid at least 4" in v.explanation
    assert_quotes(v, "variant.dealer-must-bid")


def test_no_exchange_under_big_pepper():
    state = HandState.from_hands(DEAL, "standard", "W")
    for a in (Bid.BIG_PEPPER, Bid.PASS, Bid.PASS, Bid.PASS, Trump.S):
        state.apply(a)
    v = state.check("exchange")
    assert not v and "big pepper" in v.explanation and "no exchange" in v.explanation
    assert_quotes(v, "declare.big-pepper")


def test_discarding_or_sending_a_card_not_held():
    state = HandState.from_hands(DEAL, "standard", "W")
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.EXCHANGE):
        state.apply(a)
    v = state.check("JH")  # N discards a card S holds
    assert not v and "North does not hold the J♥" in v.explanation
    assert_quotes(v, "declare.exchange")
    state.apply(Card.parse("9C"))
    v = state.check("JD")  # S, the partner, does not hold J♦
    assert not v and "South does not hold the J♦" in v.explanation
    assert state.check("JH")


def test_surrender_forbidden_by_dirty_clubs():
    state = HandState.from_hands(DEAL, get_ruleset("standard", dirty_clubs=True), "W")
    for a in (Bid.TWO, Bid.PASS, Bid.PASS, Bid.PASS, Trump.C, Mode.PARTNER):
        state.apply(a)
    v = state.check("surrender")
    assert not v and "Clubs are trumps" in v.explanation
    assert_quotes(v, "variant.dirty-clubs", "defend.surrender")
    assert v.alternatives == (Defense.PLAY,)


def test_cutthroat_has_no_surrender_or_exchange():
    state = HandState.deal("cutthroat", "S", rng=2)
    state.apply(Bid.TWO)
    state.apply(Bid.PASS)
    state.apply(Bid.PASS)
    v = state.check("exchange")
    assert not v and v.rule_id == "preset.cutthroat"


def test_wrong_trick_winner():
    v = check_trick_winner(["JD", "AH", "9S", "QH"], "H", claimed=1)
    assert not v and "The A♥ does not win this trick" in v.explanation
    assert "left bower with hearts trump, second only to the J♥" in v.explanation
    assert_quotes(v, "rank.left-bower", "play.trick-winner")
    assert v.alternatives == (Card.parse("JD"),)
    assert check_trick_winner(["JD", "AH", "9S", "QH"], "H", claimed=0)


def test_trick_explanations_name_the_deciding_fact():
    why = explain_trick(["QD", "AS", "KD", "9D"], "C")
    assert why.rule_id == "play.trick-winner" and why.winner_index == 2
    assert any("A♠ cannot win" in f for f in why.facts)
    why = explain_trick(["AD", "JD", "KD"], "NT")
    assert why.rule_id == "rank.no-trump" and why.winning_card == Card.parse("AD")
    assert any("ordinary jack" in f for f in why.facts)
    why = explain_trick(["9D", "AD", "9H"], "H")
    assert why.rule_id == "rank.trump" and "only trump" in why.facts[0]
    why = explain_trick(["AS", "KS", "JS", "9D"], "S")
    assert why.rule_id == "rank.right-bower"


def test_unparseable_action_is_a_verdict_not_an_exception():
    state = HandState.from_hands(DEAL, "standard", "W")
    v = state.check("JH")
    assert not v and "not a bid" in v.explanation and v.rule_id == "bid.order"
    assert v.to_dict()["legal"] is False


def test_explain_trick_checks_seats_against_cards():
    """One seat per card: a short or long list is a clear error, not an IndexError."""
    import pytest

    from pepper_tutor import Seat, check_trick_winner, explain_trick

    with pytest.raises(ValueError, match=r"1 seat given for 2 cards: give one seat per card"):
        explain_trick(["KH", "9C"], "C", [Seat.S])
    with pytest.raises(ValueError, match=r"3 seats given for 2 cards"):
        check_trick_winner(["KH", "9C"], "C", 1, [Seat.S, Seat.W, Seat.N])
    with pytest.raises(ValueError, match="at most 4 cards"):
        explain_trick(["KH", "9C", "TC", "AC", "QC"], "C")
    with pytest.raises(ValueError, match="the same card twice"):
        explain_trick(["KH", "KH"], "C")
    why = explain_trick(["KH", "9C"], "C", [Seat.S, Seat.W])
    assert why.winner_index == 1 and "(West)" in why.facts[0]
