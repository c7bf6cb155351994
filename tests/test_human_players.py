"""Computer players that play like people: a beginner's mistakes are human ones, the club
player goes alone when the analysis clearly says so, a player raises its own partner only
when that is clearly worth more, the going-alone setting, and the table's conventions where
the analysis is indifferent."""

from __future__ import annotations

import random

import pytest

from pepper_tutor import Bid, Card, Defense, HandState, Mode, Phase, Trump
from pepper_tutor.analysis.advice import Advice, Estimate, OptionAdvice
from pepper_tutor.analysis.calling import trump_count
from pepper_tutor.analysis.players import (
    CONVENTIONS,
    ClubPlayer,
    conventions,
    make_player,
    partner_floor,
)
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.cards import DECK
from pepper_tutor.engine.ranking import bower
from pepper_tutor.engine.seats import Seat


def _defending(seed: int) -> HandState:
    """A random deal up to East's play-or-surrender against North's 4 in a random suit."""
    rng = random.Random(seed)
    state = HandState.deal("standard", Seat.W, rng)
    state.apply(Bid.FOUR)
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(Trump(rng.randrange(4)))
    state.apply(Mode.PARTNER)
    assert state.phase is Phase.DEFENSE
    return state


def test_a_beginner_never_surrenders_holding_a_bower():
    held = 0
    for seed in range(300):
        state = _defending(seed)
        view = view_of(state)
        if not any(bower(c, state.trump) for c in view.hand):
            continue
        held += 1
        for k in range(8):  # its slips too: eight players with different luck
            assert make_player("beginner", seed * 10 + k).decide(view) is Defense.PLAY
    assert held >= 50


def test_a_beginners_slips_in_defence_are_thin_hands_only():
    """It surrenders only hands with at most one trump or ace, never a strong one."""
    for seed in range(300):
        view = view_of(_defending(seed))
        for k in range(4):
            if make_player("beginner", seed * 10 + k).decide(view) is Defense.SURRENDER:
                trumps = [c for c in view.hand if c.suit.value == view.trump.value
                          or bower(c, view.trump)]
                aces = [c for c in view.hand if c.rank.name == "ACE" and c not in trumps]
                assert len(trumps) + len(aces) <= 1, view.hand


def test_a_beginner_bids_a_pepper_only_with_the_cards_for_it():
    """Over thousands of auction calls: a pepper only with six trumps-or-aces and both
    bowers, never by a slip."""
    peppers = 0
    rng = random.Random(5)
    for i in range(3000):
        state = HandState.deal("standard", Seat(i % 4), rng)
        while state.phase is Phase.AUCTION:
            view = view_of(state)
            call = make_player("beginner", i * 4 + int(state.to_act)).decide(view)
            if isinstance(call, Bid) and call.is_pepper:
                peppers += 1
                hand = [c.index for c in view.hand]
                assert max(trump_count(hand, t) for t in range(4)) >= 2
                best = max(range(4), key=lambda t: trump_count(hand, t))
                assert sum(1 for c in view.hand if bower(c, Trump(best))) == 2, view.hand
            state.apply(call)
    # A pepper hand is rare; the beginner does bid one when it holds it.
    hand = ["JH", "JD", "AH", "KH", "QH", "AS"]
    state = HandState.from_hands({"N": hand, "E": ["9H", "TH", "QS", "KS", "9S", "TS"],
                                  "S": ["9C", "TC", "QC", "KC", "JC", "AC"],
                                  "W": ["JS", "AD", "QD", "KD", "TD", "9D"]}, dealer="W")
    assert make_player("beginner", 1).decide(view_of(state)) is Bid.LITTLE_PEPPER


def _declaring(hand: list[str], bid: Bid, trump: Trump) -> HandState:
    rest = [str(c) for c in DECK if str(c) not in hand]
    state = HandState.from_hands({"N": hand, "E": rest[:6], "S": rest[6:12], "W": rest[12:]},
                                 dealer="W")
    state.apply(bid)
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(trump)
    assert state.phase is Phase.DECLARE_MODE
    return state


@pytest.mark.parametrize("seed", range(3))
def test_the_club_player_takes_the_exchange_unless_partner_is_clearly_better(seed):
    # Both bowers, the A♥ Q♥ and the A♠: with the partner's best trump in place of the K♦
    # the bidder takes all six more often than the pair does with partner's hand in play;
    # over 200 deals the analysis finds the exchange better (+5.4 against +4.3 net), never
    # partner clearly better. (Over the club player's 40 deals the lead is inside the
    # exchange's interval, so the "rarely" setting, exchange only when clearly better, may
    # take partner: its rule is tested on constructed advice below.)
    strong = _declaring(["JH", "JD", "AH", "QH", "KD", "AS"], Bid.FOUR, Trump.H)
    assert make_player("club", seed).decide(view_of(strong)) is Mode.EXCHANGE
    # Two low trumps and nothing else: partner's tricks are needed.
    thin = _declaring(["9H", "TH", "9C", "TC", "9S", "TS"], Bid.TWO, Trump.H)
    assert make_player("club", seed).decide(view_of(thin)) is Mode.PARTNER


def _option(label: str, mean: float, half: float, **named) -> OptionAdvice:
    e = Estimate(mean, mean - half, mean + half, 40)
    return OptionAdvice(label, None, e, e, **named)


def test_the_going_alone_setting_rarely_goes_alone_on_a_close_call():
    exchange = _option("4 in ♥, exchange and play alone", 1.2, 1.5, bid=Bid.FOUR,
                       trump=Trump.H, mode=Mode.EXCHANGE)
    partner = _option("4 in ♥, play with partner", 0.8, 1.5, bid=Bid.FOUR, trump=Trump.H,
                      mode=Mode.PARTNER)
    close = Advice("declare", Seat.N, "NS", 40, (exchange, partner))
    assert ClubPlayer(random.Random(1), alone="analysis")._way(close) is Mode.EXCHANGE
    assert ClubPlayer(random.Random(1), alone="rarely")._way(close) is Mode.PARTNER
    clear = Advice("declare", Seat.N, "NS", 40, (
        _option(exchange.label, 5.0, 1.0, bid=Bid.FOUR, trump=Trump.H, mode=Mode.EXCHANGE),
        partner))
    assert ClubPlayer(random.Random(1), alone="rarely")._way(clear) is Mode.EXCHANGE
    with pytest.raises(ValueError, match="expected one of analysis, rarely"):
        make_player("club", 1, alone="always")


def _behind_partner() -> HandState:
    """South, the dealer, holds two aces and a king after partner North bid 4."""
    state = HandState.from_hands({"E": ["9H", "TH", "QS", "KS", "9S", "TS"],
                                  "S": ["AC", "AD", "KC", "9C", "TD", "QD"],
                                  "W": ["TC", "QC", "JC", "QH", "9D", "KD"],
                                  "N": ["JH", "JD", "AH", "KH", "AS", "JS"]}, dealer="S")
    for call in (Bid.PASS, Bid.FOUR, Bid.PASS):  # West passes, North 4, East passes
        state.apply(call)
    assert state.to_act is Seat.S
    return state


def test_partners_standing_contract_is_the_floor_a_raise_must_clear():
    view = view_of(_behind_partner())
    # Partner's 4 with the two aces' tricks added: all six, the side's 4 and the
    # defenders' -4 for taking none.
    assert partner_floor(view) == 8.0
    player = ClubPlayer(random.Random(1))
    passing = _option("pass", 0.0, 0.0)
    raise_ = _option("6 in NT, play with partner", 9.5, 2.0, bid=Bid.SIX, trump=Trump.NT,
                     mode=Mode.PARTNER)
    advice = Advice("bid", Seat.S, "NS", 40, (raise_, passing))
    assert not player._over_partner(view, advice, raise_)  # not clearly above 2
    big = _option("6 in NT, play with partner", 11.0, 1.0, bid=Bid.SIX, trump=Trump.NT,
                  mode=Mode.PARTNER)
    assert player._over_partner(view, Advice("bid", Seat.S, "NS", 40, (big, passing)), big)
    assert partner_floor(view_of(_defending(1))) is None


@pytest.mark.parametrize("level", ["club", "expert"])
@pytest.mark.parametrize("seed", range(2))
def test_no_level_overbids_partners_four_with_two_aces(level, seed):
    view = view_of(_behind_partner())
    assert make_player(level, seed).decide(view) is Bid.PASS


def _on_lead(hands: dict[str, list[str]], bid: Bid, mode: Mode, plays: list[str],
             discard: str | None = None) -> HandState:
    """North bids ``bid`` in hearts, the others pass; then ``plays``."""
    state = HandState.from_hands(hands, dealer="W")
    state.apply(bid)
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(Trump.H)
    state.apply(mode)
    if state.phase is Phase.DISCARD:
        state.apply(Card.parse(discard) if discard else state.hand(Seat.N)[-1])
        state.apply(state.hand(Seat.S)[0])
    state.apply(Defense.PLAY)
    for card in plays:
        state.apply(Card.parse(card))
    return state


HANDS = {"N": ["JH", "AH", "KH", "9S", "AC", "AD"], "E": ["9H", "TH", "TC", "KS", "9C", "TD"],
         "S": ["JD", "AS", "QS", "KC", "QC", "9D"], "W": ["QH", "JS", "TS", "JC", "KD", "QD"]}


def test_the_maker_leads_trumps():
    view = view_of(_on_lead(HANDS, Bid.FOUR, Mode.PARTNER, []))
    assert view.seat is Seat.N
    assert conventions(view) == {CONVENTIONS[0]: Card.parse("JH").index}  # its highest


def test_the_makers_partner_leads_the_left_bower_or_returns_the_suit_partner_led():
    # North leads the 9♠, East the K♠, South wins with the A♠ and is on lead.
    state = _on_lead(HANDS, Bid.FOUR, Mode.PARTNER, ["9S", "KS", "AS", "TS"])
    view = view_of(state)
    assert view.seat is Seat.S and not view.trick
    found = conventions(view)
    assert found[CONVENTIONS[1]] == Card.parse("JD").index  # the left bower, to the maker
    assert found[CONVENTIONS[2]] == Card.parse("QS").index  # partner's spades, back
    assert CONVENTIONS[0] not in found and CONVENTIONS[3] not in found


def test_a_defender_keeps_an_ace_rather_than_lead_it_into_a_lone_bidder():
    hands = {"N": ["JH", "JD", "AH", "KH", "QH", "9S"],
             "E": ["AS", "KS", "AC", "TH", "9C", "QD"],
             "S": ["TC", "QC", "KC", "JC", "9D", "TD"],
             "W": ["9H", "JS", "TS", "QS", "KD", "AD"]}
    # North alone (the Q♥ laid aside) leads the 9♠; East wins with the K♠ over West's Q♠.
    state = _on_lead(hands, Bid.FIVE, Mode.EXCHANGE, ["9S", "KS", "QS"], discard="QH")
    view = view_of(state)
    assert view.seat is Seat.E and not view.trick
    assert conventions(view) == {CONVENTIONS[3]: Card.parse("9C").index}
    # Against partner and bidder both, no such caution.
    state = _on_lead(HANDS, Bid.FOUR, Mode.PARTNER, ["9S", "KS", "AS", "TS"])
    assert CONVENTIONS[3] not in conventions(view_of(state))


def test_a_sampling_player_follows_a_convention_only_among_cards_worth_the_same():
    from pepper_tutor.analysis.players import _by_convention

    view = view_of(_on_lead(HANDS, Bid.FOUR, Mode.PARTNER, []))

    def card(text: str, mean: float) -> OptionAdvice:
        return _option(f"play {text}", mean, 0.5, card=Card.parse(text))

    tied = Advice("play", Seat.N, "NS", 16, (card("AC", 3.0), card("JH", 3.0), card("9S", 1.0)))
    assert _by_convention(view, tied) == Card.parse("JH")
    apart = Advice("play", Seat.N, "NS", 16, (card("AC", 3.0), card("JH", 2.5),
                                               card("9S", 1.0)))
    assert _by_convention(view, apart) is None


def test_the_coach_names_a_convention_the_learner_follows():
    from pepper_tutor.teaching.practice.coach import coach_decision

    hands = {"N": ["JH", "JD", "AH", "KH", "QH", "9S"], "E": ["9H", "TH", "QS", "KS", "AS", "TS"],
             "S": ["9C", "TC", "QC", "KC", "JC", "AC"], "W": ["JS", "9D", "TD", "QD", "KD", "AD"]}
    state = _on_lead(hands, Bid.FOUR, Mode.PARTNER, [])  # North, the maker, on lead
    verdict = coach_decision(state, Card.parse("JH"), samples=20, seed=1)
    assert verdict.grade in ("Best", "Good")
    assert verdict.convention.startswith("Leading trumps when you called them")
    assert verdict.reason.startswith(verdict.convention)
    assert verdict.convention in verdict.note
    plain = coach_decision(state, Card.parse("9S"), samples=20, seed=1)
    assert plain.convention == ""


def test_the_going_alone_setting_reaches_the_table_and_the_command(capsys):
    from pepper_tutor.apps.cli import main
    from pepper_tutor.teaching.practice.table import PracticeTable

    table = PracticeTable(seed=2, coach=False, history=False, alone="rarely")
    assert {bot.alone for bot in table.bots.values()} == {"rarely"}
    with pytest.raises(ValueError, match="going-alone setting"):
        PracticeTable(seed=2, coach=False, history=False, alone="often")
    assert main(["play", "--auto", "--alone", "rarely", "--hands", "1", "--seed", "2"]) == 0
    with pytest.raises(SystemExit) as usage:
        main(["play", "--auto", "--alone", "often"])
    assert usage.value.code == 2
    assert "--alone" in capsys.readouterr().err
