"""Bid signals (the ``signals`` switch, the Lions Club's agreement): the computer players make
them (every 2 they bid holds an ace, every 3 a red jack and a black jack), read them (every
deal they imagine of the unseen cards gives another seat's 2 an ace and its 3 the two jacks),
and the coach names them."""

from __future__ import annotations

import random

import pytest

from pepper_tutor import Bid, Card, HandState, Phase, Seat, get_ruleset
from pepper_tutor.analysis.advice import advise_bid, advise_defense
from pepper_tutor.analysis.advice import solving as advice_module
from pepper_tutor.analysis.inference import deal_for_view
from pepper_tutor.analysis.players import LEVELS, make_player, play_hand
from pepper_tutor.analysis.reasons import signal_words, why
from pepper_tutor.analysis.signals import fits_signals, shown_calls, signal_call
from pepper_tutor.analysis.view import view_of
from pepper_tutor.engine.signals import holds_shown

from .test_random_play import audit

LIONS = get_ruleset("lions-club")
ACES = {s * 6 + 5 for s in range(4)}

# North holds A♣ and two jacks of different colours (J♦, J♠); East holds no ace.
DEAL = {
    "N": ["AC", "JD", "JS", "9H", "TH", "QC"],
    "E": ["9C", "TC", "KC", "9D", "TD", "QD"],
    "S": ["JC", "KD", "AD", "JH", "QH", "KH"],
    "W": ["AH", "9S", "TS", "QS", "KS", "AS"],
}


def _indices(cards: list[str]) -> list[int]:
    return [Card.parse(c).index for c in cards]


def _after(calls: list[str], rules=LIONS) -> HandState:
    state = HandState.from_hands(DEAL, rules, "W")
    for call in calls:
        state.apply(Bid.parse(call))
    return state


# ---- making them ------------------------------------------------------------------------


@pytest.mark.parametrize("hand,call,legal,expect", [
    (["AC", "9D", "TD", "QD", "9H", "TH"], Bid.TWO, "open", Bid.TWO),  # the ace: a 2 is kept
    (["KC", "9D", "TD", "QD", "9H", "TH"], Bid.TWO, "open", Bid.PASS),  # no ace: pass
    (["JC", "JD", "TD", "QD", "9H", "TH"], Bid.THREE, "open", Bid.THREE),
    (["JC", "AD", "TD", "QD", "9H", "TH"], Bid.THREE, "open", Bid.TWO),  # one jack, an ace
    (["JC", "JS", "TD", "QD", "9H", "TH"], Bid.THREE, "open", Bid.PASS),  # both black
    (["JC", "JS", "TD", "AD", "9H", "TH"], Bid.THREE, "over 2", Bid.PASS),  # 2 is not open
    (["JC", "JS", "TD", "QD", "9H", "TH"], Bid.THREE, "dumped", Bid.FOUR),  # no pass
    (["JC", "JD", "TD", "QD", "9H", "TH"], Bid.THREE, "dumped", Bid.THREE),
    (["KC", "9D", "TD", "QD", "9H", "TH"], Bid.FOUR, "open", Bid.FOUR),  # a 4 shows nothing
])
def test_a_call_is_kept_to_the_agreement(hand, call, legal, expect):
    calls = {"open": LIONS.bids_above[Bid.PASS], "over 2": LIONS.bids_above[Bid.TWO],
             "dumped": LIONS.dealer_bids}[legal]
    calls = calls if legal == "dumped" else (Bid.PASS, *calls)
    assert signal_call(LIONS, _indices(hand), call, list(calls)) is expect


def _auction_calls(levels: tuple[str, ...], rules, deals: int, seed: int):
    """The calls computer players make, with the hand each caller was dealt."""
    rng = random.Random(seed)
    made = []
    for i in range(deals):
        state = HandState.deal(rules, Seat(i % 4), rng)
        players = [make_player(levels[(i + k) % len(levels)], rng.randrange(10**6), samples=2)
                   for k in range(4)]
        while state.phase is Phase.AUCTION:
            seat = state.to_act
            call = players[int(seat)].decide(view_of(state, seat))
            made.append((call, [c.index for c in state.dealt(seat)]))
            state.apply(call)
    return made


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_computer_two_holds_an_ace_and_every_three_two_jacks(seed):
    made = _auction_calls(("beginner", "club"), LIONS, 150, seed)
    twos = [hand for call, hand in made if call is Bid.TWO]
    threes = [hand for call, hand in made if call is Bid.THREE]
    assert twos and threes  # the agreement is tested, not skipped
    assert all(ACES & set(hand) for hand in twos)
    assert all(holds_shown(LIONS, Bid.THREE, hand) for hand in threes)
    assert all({2, 20} & set(h) and {8, 14} & set(h) for h in threes)  # black and red jack


def test_without_signals_the_same_players_bid_two_without_an_ace():
    made = _auction_calls(("beginner", "club"), get_ruleset("lions-club", signals="none"),
                          150, 1)
    assert any(not ACES & set(hand) for call, hand in made if call is Bid.TWO)


@pytest.mark.slow
def test_the_expert_keeps_the_agreement_too():
    made = _auction_calls(("expert",), LIONS, 60, 4)
    for call, hand in made:
        assert holds_shown(LIONS, call, hand), (call, hand)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_hands_played_to_the_end_under_the_preset(level):
    """Whole hands by every level: every 2 and 3 backed, every hand legal and scored."""
    rng = random.Random(f"lions {level}")
    signals = 0
    for i in range({"beginner": 200, "club": 100, "expert": 30}[level]):
        state = HandState.deal(LIONS, Seat(i % 4), rng)
        players = [make_player(level, rng.randrange(10**6), samples=1) for _ in range(4)]
        play_hand(state, players)
        audit(state)
        for seat, call in state.calls:
            assert holds_shown(LIONS, call, [c.index for c in state.dealt(seat)])
            signals += call in (Bid.TWO, Bid.THREE)
    assert signals


# ---- reading them ---------------------------------------------------------------------


@pytest.mark.parametrize("auction", [False, True])
def test_the_imagined_deals_give_a_two_bidder_an_ace(auction):
    view = view_of(_after(["2"]), Seat.E)
    for seed in range(60):
        deal = deal_for_view(view, random.Random(seed), auction=auction)
        assert ACES & {c.index for c in deal.dealt(Seat.N)}


@pytest.mark.parametrize("auction", [False, True])
def test_the_imagined_deals_give_a_three_bidder_a_jack_of_each_colour(auction):
    view = view_of(_after(["3"]), Seat.E)
    for seed in range(60):
        deal = deal_for_view(view, random.Random(seed), auction=auction)
        assert holds_shown(LIONS, Bid.THREE, [c.index for c in deal.dealt(Seat.N)])


def test_without_signals_a_two_bidder_is_dealt_no_ace_at_times():
    view = view_of(_after(["2"], get_ruleset("lions-club", signals="none")), Seat.E)
    hands = [deal_for_view(view, random.Random(seed)).dealt(Seat.N) for seed in range(60)]
    assert any(not ACES & {c.index for c in hand} for hand in hands)


def _solved_deals(monkeypatch) -> list[list[list[int]]]:
    """Record every deal the advice solves."""
    seen: list[list[list[int]]] = []
    solve = advice_module._solve_one

    def recording(work, context, deal, tables):
        seen.append([list(h) for h in deal])
        return solve(work, context, deal, tables)

    monkeypatch.setattr(advice_module, "_solve_one", recording)
    return seen


@pytest.mark.parametrize("auction", [False, True])
def test_the_bid_advice_deals_honour_partners_and_opponents_signals(monkeypatch, auction):
    # North bids 2, East 3: South's advice deals North an ace and East two jacks.
    state = _after(["2", "3"])
    view = view_of(state, Seat.S)
    seen = _solved_deals(monkeypatch)
    advice = advise_bid(view, 20, seed=5, auction=auction, trumps=[])
    assert seen and any("bid signals" in n for n in advice.notes)
    others = [0, 1, 3]  # the buckets: North, East, West
    for deal in seen:
        hands = dict(zip(others, deal, strict=False))
        assert ACES & set(hands[0])
        assert holds_shown(LIONS, Bid.THREE, hands[1])


def test_the_defense_advice_deals_honour_the_bidders_signal(monkeypatch):
    # East bids 2 over North's pass and plays with partner; South decides to defend.
    state = HandState.from_hands(DEAL, LIONS, "W")
    for action in ("pass", "2", "pass", "pass"):
        state.apply(Bid.parse(action))
    state.apply(state.legal_actions()[0])  # clubs
    from pepper_tutor import Mode

    state.apply(Mode.PARTNER)
    assert state.phase is Phase.DEFENSE and state.to_act is Seat.S
    seen = _solved_deals(monkeypatch)
    advise_defense(view_of(state, Seat.S), 20, seed=3, auction=False)
    assert seen
    for deal in seen:  # the buckets: the seats other than South, in order
        assert ACES & set(dict(zip([0, 1, 3], deal, strict=False))[1])


def test_the_reading_skips_the_viewers_own_signal_and_unknown_seats():
    calls = [(Seat.N, Bid.TWO), (Seat.E, Bid.THREE), (Seat.S, Bid.FOUR)]
    assert shown_calls(LIONS, calls, viewer=0) == ((1, Bid.THREE),)
    assert shown_calls(get_ruleset("standard"), calls, viewer=0) == ()
    assert fits_signals(LIONS, [(1, Bid.THREE)], {0: []})  # East not dealt: not judged
    assert not fits_signals(LIONS, [(1, Bid.THREE)], {1: _indices(["JC", "JS"])})


# ---- the coach names them ----------------------------------------------------------------


def test_the_coach_names_the_signals_read_and_the_ones_made():
    state = _after(["2", "3"])  # South to call, partner North bid 2, East 3
    words = signal_words(state, Bid.FOUR)
    assert words == ("Your partner's 2 showed an ace; East's 3 showed a red jack and a black "
                     "jack.")
    state = _after([])  # North to call, holding A♣, J♦, J♠
    assert signal_words(state, Bid.TWO) == "A bid of 2 shows an ace: you hold A♣."
    assert signal_words(state, Bid.THREE) == ("A bid of 3 shows a red jack and a black jack: "
                                              "you hold J♦ J♠.")
    assert signal_words(state, Bid.FOUR) is None
    assert signal_words(_after([], get_ruleset("standard")), Bid.TWO) is None


def test_a_false_signal_is_the_coachs_reason():
    state = _after(["pass"])  # East to call, holding no ace and no jack
    reason = why(state, Bid.TWO)
    assert reason is not None and reason.fact == "false-signal"
    assert "a bid of 2 shows an ace, which you do not hold" in reason.text
    assert why(_after(["pass"], get_ruleset("standard")), Bid.TWO) is None


def test_the_coachs_sentence_for_a_call_names_the_signals():
    from pepper_tutor import Trump
    from pepper_tutor.analysis.reasons import decision_fact

    state = _after(["2", "3"])  # South to call, partner North bid 2, East 3
    advice = advise_bid(state, 10, seed=1, trumps=[Trump.H])
    passing = advice.option("pass")
    best = advice.best
    action = best.bid if best is not passing else Bid.PASS
    text = decision_fact(state, action, action, best, passing, advice)
    assert "Your partner's 2 showed an ace; East's 3 showed a red jack and a black jack." in text
