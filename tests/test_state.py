"""The hand state machine: phases, turns, the exchange, sitting out, copy and undo."""

import random

import pytest

from pepper_tutor import Bid, Card, Defense, HandState, Mode, Phase, Seat, Trump, get_ruleset
from pepper_tutor.engine.state import IllegalActionError

from .test_random_play import check_fast_playouts

DEAL = {
    "N": ["JD", "AH", "KS", "9C", "TD", "QH"],
    "E": ["AS", "QS", "9S", "KD", "QD", "9H"],
    "S": ["JH", "TH", "KH", "AC", "KC", "AD"],
    "W": ["JS", "JC", "TS", "QC", "TC", "9D"],
}


def c(text):
    return Card.parse(text)


def fresh(**kw):
    return HandState.from_hands(DEAL, rules=kw.pop("rules", "standard"),
                                dealer=kw.pop("dealer", "W"))


def test_auction_starts_left_of_dealer_and_dealer_speaks_last():
    state = fresh()
    assert state.phase is Phase.AUCTION and state.to_act is Seat.N
    for call in ("pass", "pass", "4"):
        state.apply(Bid.parse(call))
    assert state.to_act is Seat.W
    assert Bid.PASS in state.legal_actions() and Bid.FOUR not in state.legal_actions()
    state.apply(Bid.PASS)
    assert state.phase is Phase.DECLARE_TRUMP and state.to_act is Seat.S
    assert state.bidder is Seat.S and state.high_bid is Bid.FOUR


def test_exchange_hand_from_the_design_contract():
    state = fresh()
    for a in (Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS, Trump.H, Mode.EXCHANGE):
        state.apply(a)
    assert state.phase is Phase.DISCARD and state.to_act is Seat.S
    state.apply(c("AC"))
    assert state.phase is Phase.SEND and state.to_act is Seat.N
    state.apply(c("JD"))
    assert state.sitting_out is Seat.N and c("JD") in state.hand("S")
    assert state.phase is Phase.DEFENSE and state.to_act is Seat.W  # on the bidder's left
    state.apply(Defense.PLAY)
    assert state.phase is Phase.PLAY and state.to_act is Seat.S
    tricks = [["JH", "9D", "9H"], ["JD", "TC", "9S"], ["TH", "QC", "KD"],
              ["KH", "JC", "QD"], ["AD", "JS", "QS"], ["KC", "TS", "AS"]]
    for trick in tricks:
        for card in trick:
            assert state.check(card).legal, state.check(card).explanation
            state.apply(c(card))
    assert state.is_terminal() and state.phase is Phase.SCORED
    assert state.tricks_won() == {"NS": 6, "EW": 0}
    assert state.score is not None and state.score.points == {"NS": 4, "EW": -4}
    assert [t.winner for t in state.tricks] == [Seat.S] * 6
    assert all(len(t.cards) == 3 for t in state.tricks)
    assert all(Seat.N not in t.seats for t in state.tricks)


def test_play_with_partner_four_cards_and_winner_leads():
    state = fresh()
    for a in (Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY):
        state.apply(a)
    assert state.sitting_out is None and state.to_act is Seat.S
    state.apply(c("AC"))  # S leads
    assert state.to_act is Seat.W
    state.apply(c("QC"))
    assert state.to_act is Seat.N
    assert state.legal_actions() == [c("9C")]
    state.apply(c("9C"))
    state.apply(c("9H"))  # E has no club: trumps with the 9H
    assert state.tricks[0].winner is Seat.E and state.to_act is Seat.E


def test_big_pepper_partner_sits_out_no_exchange():
    state = fresh()
    for a in (Bid.PASS, Bid.BIG_PEPPER):
        state.apply(a)
    assert state.legal_actions() == [Bid.PASS]
    state.apply(Bid.PASS)
    state.apply(Bid.PASS)
    state.apply(Trump.C)
    assert state.phase is Phase.DEFENSE and state.sitting_out is Seat.W
    assert state.to_act is Seat.S
    state.apply(Defense.PLAY)
    assert state.to_act is Seat.E and state.active_seats == (Seat.N, Seat.E, Seat.S)


def test_all_pass_is_thrown_in():
    state = fresh()
    for _ in range(4):
        state.apply(Bid.PASS)
    assert state.phase is Phase.THROWN_IN and state.is_terminal() and state.score is None
    assert state.legal_actions() == []


def test_dealer_must_bid_when_stuck():
    from pepper_tutor import get_ruleset

    stuck = HandState.from_hands(DEAL, get_ruleset("standard", minimum_bid=3,
                                                   all_pass="dealer_must_bid"), "W")
    for _ in range(3):
        assert Bid.TWO not in stuck.legal_actions()
        stuck.apply(Bid.PASS)
    assert stuck.dealer_must_bid_now()
    assert Bid.PASS not in stuck.legal_actions() and stuck.legal_actions()[0] is Bid.THREE


def test_dirty_clubs_forbids_surrender_only_with_clubs():
    from pepper_tutor import get_ruleset
    for trump, allowed in ((Trump.C, False), (Trump.S, True), (Trump.NT, True)):
        state = HandState.from_hands(DEAL, get_ruleset("standard", dirty_clubs=True), "W")
        for a in (Bid.TWO, Bid.PASS, Bid.PASS, Bid.PASS, trump, Mode.PARTNER):
            state.apply(a)
        assert (Defense.SURRENDER in state.legal_actions()) is allowed


def test_surrender_ends_unplayed():
    state = fresh()
    for a in (Bid.THREE, Bid.PASS, Bid.PASS, Bid.PASS, Trump.S, Mode.PARTNER,
              Defense.SURRENDER):
        state.apply(a)
    assert state.phase is Phase.SCORED and state.tricks == []
    assert state.score.points == {"NS": 3, "EW": 0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cutthroat_open_auction_and_trick_size(players):
    state = HandState.deal("cutthroat" if players == 3 else {"preset": "cutthroat",
                                                              "players": players},
                           dealer="N", rng=5)
    assert len(state.undealt) == 24 - 6 * players
    first = Seat.N.next(players)
    assert state.to_act is first
    state.apply(Bid.ONE)
    others = [s for s in state.seats if s is not first]
    for _ in others:
        state.apply(Bid.PASS)
    assert state.phase is Phase.DECLARE_TRUMP and state.bidder is first
    state.apply(Trump.NT)
    assert state.phase is Phase.PLAY and state.to_act is first
    for _ in range(players):
        state.apply(state.legal_actions()[0])
    assert len(state.tricks[0].cards) == players


def test_cutthroat_auction_goes_round_until_all_others_pass():
    from pepper_tutor import get_ruleset
    state = HandState.deal(get_ruleset("cutthroat", players=4), dealer="W", rng=1)
    for call in (Bid.ONE, Bid.TWO, Bid.PASS, Bid.PASS):  # N, E, S, W
        state.apply(call)
    assert state.phase is Phase.AUCTION and state.to_act is Seat.N
    state.apply(Bid.THREE)
    assert state.to_act is Seat.E  # S and W passed for good
    state.apply(Bid.PASS)
    assert state.phase is Phase.DECLARE_TRUMP and state.bidder is Seat.N


def test_copy_is_independent_and_undo_restores():
    state = fresh()
    for a in (Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY):
        state.apply(a)
    twin = state.copy()
    state.apply(c("JH"))
    assert twin.current_trick == [] and state.current_trick == [(Seat.S, c("JH"))]
    assert state.undo() == c("JH")
    assert state.current_trick == [] and c("JH") in state.hand("S")
    assert state.to_act is Seat.S and len(state.history) == 7
    while state.history:
        state.undo()
    assert state.phase is Phase.AUCTION and state.hand("N") == twin.dealt("N")
    with pytest.raises(IndexError):
        state.undo()


def test_from_hands_validates_the_deal():
    bad = dict(DEAL, N=["JD", "AH", "KS", "9C", "TD"])
    with pytest.raises(ValueError, match="N holds 5 cards"):
        HandState.from_hands(bad)
    twice = dict(DEAL, N=["JS", "AH", "KS", "9C", "TD", "QH"])
    with pytest.raises(ValueError, match="JS is dealt to both"):
        HandState.from_hands(twice)


def test_playout_finishes_with_legal_cards():
    rng = random.Random(3)
    state = fresh()
    for a in (Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS, Trump.H, Mode.EXCHANGE, c("AC"), c("JD"),
              Defense.PLAY):
        state.apply(a)
    twin = state.copy()
    state.playout(rng)
    assert state.is_terminal() and len(state.tricks) == 6
    for action in state.history[len(twin.history):]:
        assert action in twin.legal_actions()
        twin.apply(action)
    assert twin.score == state.score


def test_applying_after_the_end_raises():
    state = fresh()
    for _ in range(4):
        state.apply(Bid.PASS)
    with pytest.raises(IllegalActionError):
        state.apply(Bid.ONE)


def test_play_checked_raises_with_the_explanation():
    state = fresh()
    state.apply(Bid.FOUR)
    with pytest.raises(IllegalActionError, match="does not top"):
        state.play_checked("3")
    state.play_checked("5")
    assert state.high_bid is Bid.FIVE


# ---- the edges: a dealer at the table, minimum bids, a card not held ---------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_a_dealer_not_at_the_table_is_refused(players):
    from pepper_tutor import get_ruleset

    rules = get_ruleset("cutthroat", players=players, all_pass="dealer_must_bid")
    with pytest.raises(ValueError, match="dealer must sit at the table: W"):
        HandState.deal(rules, "W", rng=1)
    hands = {s: DEAL[s] for s in "NESW"[:players]}
    with pytest.raises(ValueError, match="dealer must sit at the table"):
        HandState.from_hands(hands, rules=rules, dealer="W")
    # A seat at the table deals, and stick-the-dealer then sticks that seat.
    state = HandState.deal(rules, Seat(players - 1), rng=1)
    for _ in range(players - 1):
        state.apply(Bid.PASS)
    assert state.to_act == Seat(players - 1) and Bid.PASS not in state.legal_actions()


@pytest.mark.parametrize("minimum", [2, 5, 6, 0, True, "3"])
def test_minimum_bid_is_one_three_or_four(minimum):
    from pepper_tutor import get_ruleset
    from pepper_tutor.engine.rules import RuleSetError

    with pytest.raises(RuleSetError, match="minimum_bid must be 1, 3 or 4"):
        get_ruleset("standard", minimum_bid=minimum)


@pytest.mark.parametrize("minimum", [1, 3, 4])
def test_minimum_bids_allowed(minimum):
    from pepper_tutor import get_ruleset

    assert get_ruleset("cutthroat", minimum_bid=minimum).ladder[0] == Bid(minimum)


def test_apply_of_a_card_not_held_changes_nothing():
    state = fresh()
    for a in (Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY):
        state.apply(a)
    before = (list(state.history), state.hand("S"), state.to_act)
    assert state.to_act is Seat.S
    with pytest.raises(IllegalActionError, match=r"South does not hold the A♠.*nothing was"):
        state.apply(c("AS"))
    assert (state.history, state.hand("S"), state.to_act) == before
    state.apply(c("JH"))  # the hand goes on as if the mistake had not happened
    assert state.history[-1] == c("JH") and state.undo() == c("JH")


def test_apply_of_a_discard_not_held_changes_nothing():
    state = fresh()
    for a in (Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS, Trump.H, Mode.EXCHANGE):
        state.apply(a)
    before = list(state.history)
    with pytest.raises(IllegalActionError, match="does not hold the 9♦"):
        state.apply(c("9D"))
    assert state.history == before and state.phase is Phase.DISCARD


# ---- the left bower switch in the hand ------------------------------------------------------


def _to_play(rules, trump):
    state = HandState.from_hands({s: DEAL[s] for s in "NES"}, rules=rules, dealer="S")
    state.apply(Bid.TWO)  # North
    state.apply(Bid.PASS)
    state.apply(Bid.PASS)
    state.apply(trump)
    return state


def test_without_a_left_bower_the_jack_follows_its_printed_suit():
    """Cutthroat (the seed): hearts trumps, J♦ is a diamond; a table may switch it back."""
    from pepper_tutor import get_ruleset

    state = _to_play("cutthroat", Trump.H)
    assert state.phase is Phase.PLAY and state.to_act is Seat.N
    state.apply(c("TD"))  # North leads a diamond; East holds K♦ Q♦ and must follow
    assert set(state.legal_actions()) == {c("KD"), c("QD")}
    # North's J♦ leads diamonds without the switch, trumps with it.
    off = _to_play("cutthroat", Trump.H)
    off.apply(c("JD"))
    assert set(off.legal_actions()) == {c("KD"), c("QD")}
    on = _to_play(get_ruleset("cutthroat", left_bower=True), Trump.H)
    on.apply(c("JD"))
    assert set(on.legal_actions()) == {c("9H")}


def test_check_in_the_play_names_the_switch():
    state = _to_play("cutthroat", Trump.H)
    state.apply(c("TD"))
    verdict = state.check("9H")
    assert not verdict.legal and verdict.alternatives == (c("KD"), c("QD"))
    assert state.check("KD").legal
    state.apply(c("KD"))
    # South holds A♦, so South must follow diamonds; J♥ would be a heart either way.
    verdict = state.check("JH")
    assert not verdict.legal and "must follow diamonds" in verdict.facts[0]


def test_playout_is_the_same_as_repeated_apply():
    for seed in range(30):
        rules = ("standard", "cutthroat")[seed % 2]
        state = HandState.deal(rules, Seat.N, rng=seed)
        rng = random.Random(seed)
        while state.phase is not Phase.PLAY:
            if state.phase is Phase.DEFENSE:
                state.apply(Defense.PLAY)
                continue
            legal = state.legal_actions()
            bids = [a for a in legal if a is not Bid.PASS]
            state.apply(bids[0] if state.phase is Phase.AUCTION and bids else rng.choice(legal))
        for _ in range(seed % 5):  # start some playouts in the middle of a trick
            state.apply(state.legal_actions()[0])
        check_fast_playouts(state, seed)


def test_check_refuses_an_action_of_another_kind():
    """Enums compare as ints: Trump.NT (4) must not pass for a bid of 4."""
    state = fresh()
    verdict = state.check(Trump.NT)
    assert not verdict.legal and verdict.action is None
    assert "No trump is a choice of trumps, but the auction needs a bid." in verdict.facts
    assert not state.check(Seat.E).legal and not state.check(Defense.PLAY).legal
    assert not state.check(True).legal
    assert state.check(Bid.FOUR).legal and state.check(4).legal
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS):
        state.apply(a)
    assert state.phase is Phase.DECLARE_TRUMP
    verdict = state.check(Bid.TWO)  # a bid of 2 is not diamonds
    assert not verdict.legal and "naming trumps needs a choice of trumps" in verdict.facts[1]
    assert state.check(Trump.D).legal


def test_copy_sets_every_slot_and_shares_no_list():
    state = fresh()
    for a in (Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY):
        state.apply(a)
    state.apply(state.legal_actions()[0])
    twin = state.copy()
    for name in HandState.__slots__:
        mine, theirs = getattr(state, name), getattr(twin, name)
        assert mine == theirs, name
        if isinstance(mine, list) and name != "_suits":  # _suits is a shared ranking table
            assert mine is not theirs, name


def test_deal_shuffles_exactly_as_random_shuffle():
    """The inlined shuffle draws the same numbers: a seed deals what it always dealt."""
    from pepper_tutor import get_ruleset

    for seed in range(200):
        rules = get_ruleset("cutthroat", players=2 + seed % 3) if seed % 2 else "standard"
        state = HandState.deal(rules, "N", rng=seed)
        deck = list(range(24))
        random.Random(seed).shuffle(deck)
        n = state.players
        assert [[c.index for c in state.dealt(s)] for s in state.seats] == [
            sorted(deck[6 * i:6 * i + 6]) for i in range(n)]
        assert [c.index for c in state.undealt] == sorted(deck[6 * n:])


@pytest.mark.parametrize(("players", "dealer"), [(4, "W"), (3, "S"), (2, "E")])
def test_the_default_dealer_is_the_last_seat_at_the_table(players, dealer):
    rules = get_ruleset("cutthroat", players=players) if players < 4 else get_ruleset()
    state = HandState.deal(rules, rng=3)
    assert str(state.dealer) == dealer and str(state.to_act) == "N"


def test_playout_from_hands_in_any_order_plays_only_legal_cards():
    hands = {"N": "AS KS 9H JD QC TC", "E": "9S TS JS QH KH AH", "S": "QS 9D TD QD KD AD",
             "W": "9C JC KC AC TH JH"}
    state = HandState.from_hands({s: h.split()[::-1] for s, h in hands.items()})
    for action in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY):
        state.apply(action)
    for seed in range(20):
        fast = state.copy()
        fast.playout(random.Random(seed))
        replay = state.copy()
        for card in fast.history[len(state.history):]:
            replay.play_checked(card)  # raises if the playout chose an illegal card
        assert replay.tricks == fast.tricks and replay.score == fast.score
        assert state.random_tricks(random.Random(seed)) == [
            fast.tricks_won_by_seat()[s] for s in fast.seats]


def _snapshot_agrees(state):
    """The snapshot says what the public accessors say, in card indices and seat numbers."""
    from pepper_tutor.engine.ranking import trump_code

    now = state.snapshot()
    assert now.to_act == (-1 if state.to_act is None else int(state.to_act))
    assert now.bidder == (-1 if state.bidder is None else int(state.bidder))
    assert now.trump == (-1 if state.trump is None else int(state.trump))
    assert now.code == (-1 if state.trump is None
                        else trump_code(state.trump, state.rules.left_bower))
    assert now.out == (-1 if state.sitting_out is None else int(state.sitting_out))
    assert now.hands == tuple(tuple(c.index for c in state.hand(s)) for s in state.seats)
    assert now.trick == tuple((int(s), c.index) for s, c in state.current_trick)
    assert now.won == tuple(state.tricks_won_by_seat()[s] for s in state.seats)
    return now


@pytest.mark.parametrize("rules", ["standard", "cutthroat"])
def test_a_snapshot_reads_the_state_in_indices_and_is_its_own(rules):
    """The snapshot the analysis reads agrees with the public accessors at every step of a
    hand (the exchange and a partner sitting out included), and is a value: later actions
    leave it as it was, and it cannot be changed."""
    for seed in range(6):
        rng = random.Random(seed)
        state = HandState.deal(rules, rng=rng)
        if rules == "standard":
            for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump(seed % 5),
                      (Mode.EXCHANGE, Mode.PARTNER)[seed % 2]):
                state.apply(a)
        first = _snapshot_agrees(state)
        held = tuple(tuple(c.index for c in state.hand(s)) for s in state.seats)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            _snapshot_agrees(state)
        assert first.hands == held and state.snapshot() != first
        with pytest.raises(AttributeError):
            first.to_act = 0  # type: ignore[misc]
    early = fresh().snapshot()
    assert (early.bidder, early.trump, early.code, early.out, early.trick) == (-1, -1, -1, -1, ())
