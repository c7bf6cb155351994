"""Computer players: every level decides every part of a hand legally, under every preset
and switch, from a view that holds nothing the seat may not see; and the coach's reasons
name the fact behind a graded mistake.

Every level plays over a thousand hands a run across the presets and switches (84 a preset
and switch for club and expert, 250 for the beginner). Club and expert play those on a
budget of one sampled deal a decision (``make_player(level, seed, samples=1)``): the same
code chooses every action (the auction model, the dealing of the unseen cards, the advice
and its solver), only over one deal instead of 10 to 30, which is what makes a thousand
hands affordable. What one deal does not reach (the advice stopping early once the best
choice is clear, and bid advice dropping options shown worse, which look from the 10th
deal) is played by a few more hands at each level's full budget. Every action is checked
legal and every view sealed in all of them. ``PEPPER_TUTOR_PLAYER_HANDS=10`` (a
multiplier) plays ten times as many.
"""

from __future__ import annotations

import dataclasses
import os
import random
import zlib

import pytest

from pepper_tutor import Bid, Card, Defense, HandState, Mode, Phase, Trump, get_ruleset
from pepper_tutor.analysis.advice import advise
from pepper_tutor.analysis.grading import grade_decision
from pepper_tutor.analysis.inference import deal_for_view
from pepper_tutor.analysis.players import LEVELS, make_player, play_hand
from pepper_tutor.analysis.reasons import why
from pepper_tutor.analysis.view import SeatView, view_of
from pepper_tutor.engine.seats import Seat
from pepper_tutor.engine.state import Trick

from .test_random_play import CONFIGS, audit

SCALE = int(os.environ.get("PEPPER_TUTOR_PLAYER_HANDS", "1"))
HANDS = {"beginner": 250 * SCALE, "club": 84 * SCALE, "expert": 84 * SCALE}
BUDGET = {"beginner": None, "club": 1, "expert": 1}  # sampled deals a decision, at most
FULL_BUDGET_HANDS = {"club": 4 * SCALE, "expert": 1 * SCALE}


class Checked:
    """Seats a player, checking that every decision is legal and every view is sealed."""

    def __init__(self, level: str, seed: int, state_ref: list[HandState],
                 samples: int | None = None) -> None:
        self.player = make_player(level, seed, samples)
        self.level = level
        self.state_ref = state_ref

    def decide(self, view: SeatView):
        state = self.state_ref[0]
        assert_sealed(view, state)
        action = self.player.decide(view)
        assert action in state.legal_actions(), (self.level, state.phase, action)
        return action


def _cards_in(value: object) -> set[Card]:
    """Every card reachable from a value (through tuples, mappings, tricks)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, Trick):
        return set(value.cards)
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, (tuple, list)):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def assert_sealed(view: SeatView, state: HandState) -> None:
    """The view holds only cards the seat may know: its own, those played, the exchange
    cards it took part in."""
    seat = view.seat
    allowed = set(state.dealt(seat)) | set(state.hand(seat))
    allowed |= {c for t in state.tricks for c in t.cards} | {c for _, c in state.current_trick}
    if seat == state.bidder:
        allowed |= {c for c in (state.discard, state.passed) if c is not None}
    if state.bidder is not None and state.partner_of_bidder == seat and state.passed:
        allowed.add(state.passed)
    seen = set()
    for f in dataclasses.fields(view):
        seen |= _cards_in(getattr(view, f.name))
    assert seen <= allowed, f"{seat} sees {sorted(map(str, seen - allowed))}"


def _play_checked(level: str, preset: str, switches: dict, hands: int,
                  samples: int | None) -> None:
    rules = get_ruleset(preset, **switches)
    rng = random.Random(zlib.crc32(f"{level} {preset} {sorted(switches.items())}".encode()))
    for i in range(hands):
        state = HandState.deal(rules, Seat(i % rules.players), rng)
        ref = [state]
        players = [Checked(level, rng.randrange(10**6), ref, samples)
                   for _ in range(rules.players)]
        play_hand(state, players)
        assert state.is_terminal()
        audit(state)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("preset,switches", CONFIGS)
@pytest.mark.slow
def test_every_level_plays_legal_hands(level, preset, switches):
    """Club and expert on one sampled deal a decision (see the module notes)."""
    _play_checked(level, preset, switches, HANDS[level], BUDGET[level])


@pytest.mark.parametrize("level", ["club", "expert"])
@pytest.mark.parametrize("preset,switches", CONFIGS)
@pytest.mark.slow
def test_sampling_levels_play_legal_hands_at_full_budget(level, preset, switches):
    _play_checked(level, preset, switches, FULL_BUDGET_HANDS[level], None)


def test_a_budget_caps_the_samples_and_keeps_heuristic_decisions():
    club = make_player("club", 1, samples=2)
    expert = make_player("expert", 1, samples=2)
    assert (club.play_samples, club.defense_samples, club.bid_samples) == (2, 2, 0)
    assert (expert.bid_samples, expert.play_samples, expert.exchange_samples) == (2, 2, 0)
    assert make_player("expert", 1).bid_samples == 40
    with pytest.raises(ValueError, match="at least one sample"):
        make_player("club", 1, samples=0)


def _midway(seed: int, rules="standard") -> list[HandState]:
    """Every position of a hand played by beginners."""
    state = HandState.deal(rules, Seat.W, random.Random(seed))
    players = [make_player("beginner", seed + k) for k in range(4)]
    positions = []
    while not state.is_terminal():
        positions.append(state.copy())
        state.apply(players[int(state.to_act)].decide(view_of(state)))
    return positions


@pytest.mark.parametrize("seed", range(6))
def test_players_decide_alike_whatever_the_hidden_cards(seed):
    """Redeal the hidden cards in another way that fits the same view: the view is equal,
    and players with the same seed make the same decision. So nothing hidden is read."""
    rng = random.Random(seed)
    for state in _midway(seed)[::3]:
        view = view_of(state)
        other = deal_for_view(view, rng)
        assert view_of(other) == view
        for level in ("beginner", "club"):
            a = make_player(level, 5).decide(view)
            b = make_player(level, 5).decide(view_of(other))
            assert a == b


def test_the_view_hides_the_exchange_from_the_defenders():
    state = HandState.from_hands({"N": ["JH", "JD", "AH", "9H", "AS", "QC"],
                                  "E": ["TH", "QS", "KS", "9S", "TS", "9C"],
                                  "S": ["TC", "KC", "JC", "KH", "QH", "9D"],
                                  "W": ["AC", "JS", "QD", "KD", "TD", "AD"]}, dealer="W")
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.EXCHANGE,
              Card.parse("QC"), Card.parse("KH")):
        state.apply(a)
    east, north, south = view_of(state, Seat.E), view_of(state, Seat.N), view_of(state, Seat.S)
    assert east.discard is None and east.passed is None and None in east.actions
    assert north.discard == Card.parse("QC") and north.passed == Card.parse("KH")
    assert south.passed == Card.parse("KH") and south.discard is None
    assert_sealed(east, state)
    assert deal_for_view(east, random.Random(1)).phase is state.phase


@pytest.mark.parametrize("rules", ["standard", get_ruleset("cutthroat", players=4)])
def test_advice_from_a_view_is_the_advice_from_any_hand_that_fits_it(rules):
    """The advice reads only the deciding seat's view: given the view, the whole hand it
    came from, or another hand dealt to fit it, it says the same for the same seed. So a
    player may hand it the view and need not deal a whole hand first."""
    rng = random.Random(7)
    checked = 0
    for state in _midway(3, rules)[::2]:
        view = view_of(state)
        if len(view.legal) < 2:
            continue
        advice = advise(view, 4, seed=1)
        assert advice == advise(state, 4, seed=1)
        assert advice == advise(deal_for_view(view, rng), 4, seed=1)
        checked += 1
    assert checked >= 5
    state = _midway(3, rules)[0]
    with pytest.raises(ValueError, match="advice is for the seat to act"):
        advise(view_of(state, Seat.E), 4)  # North calls first


@pytest.mark.parametrize("level", ["club", "expert"])
def test_a_computer_players_decision_deals_the_hidden_cards_once(level, monkeypatch):
    """One dealer of the unseen cards a decision, the advice's: no whole hand is dealt
    first to hand the advice a state (which would deal the cards twice)."""
    from pepper_tutor.analysis.dealing import Dealer

    made: list[int] = []
    original = Dealer.__init__

    def counted(self, pool, buckets):
        made.append(len(pool))
        original(self, pool, buckets)

    monkeypatch.setattr(Dealer, "__init__", counted)
    sampled = 0
    for seed in range(3):
        state = HandState.deal("standard", Seat.W, random.Random(seed))
        players = [make_player(level, seed + k, samples=2) for k in range(4)]
        while not state.is_terminal():
            view = view_of(state)
            made.clear()
            action = players[int(state.to_act)].decide(view)
            assert len(made) <= 1, (level, state.phase, len(made))
            if state.phase is Phase.PLAY and len(view.hand) > 1 and len(view.legal) > 1:
                assert len(made) == 1  # every sampling level samples a card to play
            sampled += len(made)
            state.apply(action)
    assert sampled >= 10


def test_make_player_refuses_an_unknown_level():
    with pytest.raises(ValueError, match="expected one of beginner, club, expert"):
        make_player("grandmaster")


# ---- the coach's reasons on positions with known best choices ---------------------------


def _trumping_partner() -> HandState:
    state = HandState.from_hands({"N": ["JH", "AH", "KH", "AS", "AC", "AD"],
                                  "E": ["9H", "TH", "QS", "KS", "9S", "TS"],
                                  "S": ["9C", "TC", "QC", "KC", "JC", "JD"],
                                  "W": ["QH", "JS", "QD", "KD", "TD", "9D"]}, dealer="W")
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.PARTNER, Defense.PLAY,
              Card.parse("AS"), Card.parse("9S")):
        state.apply(a)
    return state


def test_trumping_partners_winning_trick_is_a_mistake_with_its_reason():
    state = _trumping_partner()
    advice = advise(state, 60, seed=1)
    assert grade_decision(advice, Card.parse("9C")).grade == "Best"
    assert grade_decision(advice, Card.parse("JD")).grade in ("Mistake", "Blunder")
    reason = why(state, Card.parse("JD"), advice=advice)
    assert reason is not None and reason.fact == "trumped-partner"
    assert "your partner's winner, the A♠" in reason.text


def test_discarding_a_trump_instead_of_a_lone_loser():
    state = HandState.from_hands({"N": ["JH", "JD", "AH", "9H", "AS", "QC"],
                                  "E": ["TH", "QS", "KS", "9S", "TS", "9C"],
                                  "S": ["TC", "KC", "JC", "KH", "QH", "9D"],
                                  "W": ["AC", "JS", "QD", "KD", "TD", "AD"]}, dealer="W")
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.EXCHANGE):
        state.apply(a)
    advice = advise(state, 60, seed=1)
    assert advice.best.card == Card.parse("QC")
    assert grade_decision(advice, Card.parse("QC")).grade == "Best"
    assert grade_decision(advice, Card.parse("9H")).grade in ("Mistake", "Blunder")
    reason = why(state, Card.parse("9H"), advice=advice)
    assert reason is not None and reason.fact == "discarded-trump" and "lone Q♣" in reason.text


def test_both_bowers_and_ace_king_of_trumps_bid_high():
    state = HandState.from_hands({"E": ["JH", "JD", "AH", "KH", "AS", "AC"],
                                  "S": ["TH", "QS", "KS", "9S", "TS", "9C"],
                                  "W": ["TC", "KC", "JC", "QH", "9H", "9D"],
                                  "N": ["QC", "JS", "QD", "KD", "TD", "AD"]}, dealer="N")
    advice = advise(state, 60, seed=1)
    assert advice.best.bid is not None and advice.best.bid >= Bid.SIX
    assert grade_decision(advice, advice.best.bid).grade == "Best"
    assert grade_decision(advice, Bid.PASS).grade == "Blunder"
    reason = why(state, Bid.PASS, advice=advice)
    assert reason is not None and reason.fact == "passed-a-making-hand"
    # the point: what the hand holds, and that the high bid makes
    assert reason.text.startswith("you hold both bowers and the A♥ K♥"), reason.text
    assert reason.text.endswith("makes in 100% of deals"), reason.text


@pytest.mark.parametrize("level", ["club", "expert"])
def test_the_sampling_levels_play_with_partner_only_when_it_is_clearly_better(level):
    """The two ways are valued over the same few dozen deals and playing with partner varies
    more from deal to deal, so a small lead for partner is taken as luck: the exchange,
    unless partner leads by more than the wider interval and a point. ``rarely`` turns it
    round: partner unless the exchange is clearly better."""
    from pepper_tutor.analysis.advice import Advice, Estimate, OptionAdvice

    def ways(partner_mean: float, half: float) -> Advice:
        alone = OptionAdvice("4 in ♥, exchange and play alone", None,
                             Estimate(2.0, 1.6, 2.4, 40), Estimate(2.0, 1.6, 2.4, 40),
                             trump=Trump.H, mode=Mode.EXCHANGE)
        partner_worth = Estimate(partner_mean, partner_mean - half, partner_mean + half, 40)
        partner = OptionAdvice("4 in ♥, play with partner", None, partner_worth,
                               partner_worth, trump=Trump.H, mode=Mode.PARTNER)
        ranked = sorted((alone, partner), key=lambda o: -o.net.mean)
        return Advice("declare", Seat.S, "NS", 40, tuple(ranked))

    player = make_player(level, 1)
    rarely = make_player(level, 1, alone="rarely")
    assert player._way(ways(2.6, 1.2)) is Mode.EXCHANGE  # ahead, not clearly
    assert player._way(ways(2.9, 0.3)) is Mode.EXCHANGE  # clear of the intervals, not a point
    assert player._way(ways(4.0, 0.6)) is Mode.PARTNER  # clearly better
    assert rarely._way(ways(2.6, 1.2)) is Mode.PARTNER
    assert rarely._way(ways(0.5, 0.4)) is Mode.EXCHANGE


def test_the_expert_takes_each_call_at_the_low_side_of_its_estimate():
    """A call that looks best only on a wide interval loses to a sure one a little lower:
    the expert ranks calls by mean less its caution times the half-width."""
    from pepper_tutor.analysis.advice import Advice, Estimate, OptionAdvice
    from pepper_tutor.analysis.players import ExpertPlayer, cautious_best

    lucky = OptionAdvice("5 in ♥, exchange and play alone", None, Estimate(2.0, -2.0, 6.0, 40),
                         Estimate(2.0, -2.0, 6.0, 40), bid=Bid.FIVE)
    steady = OptionAdvice("4 in ♥, play with partner", None, Estimate(1.5, 1.0, 2.0, 40),
                          Estimate(1.5, 1.0, 2.0, 40), bid=Bid.FOUR)
    advice = Advice("bid", Seat.S, "NS", 40, (lucky, steady))
    assert advice.best is lucky
    assert cautious_best(advice, 0.0) is lucky
    assert cautious_best(advice, ExpertPlayer.caution) is steady
    # Without a net (cutthroat), the points themselves are taken at their low side.
    bare = [OptionAdvice(o.label, None, o.score, None, bid=o.bid) for o in (lucky, steady)]
    assert cautious_best(Advice("bid", Seat.S, "S", 40, tuple(bare)), 1.0) is bare[1]


def _partner_to_send(partner: list[str], east: list[str]) -> HandState:
    """North bids 4, names clubs and goes alone with the exchange; South, its partner,
    holding ``partner``, is to send a card."""
    state = HandState.from_hands({"N": ["JC", "JS", "AC", "TC", "9C", "AH"],
                                  "E": east,
                                  "S": partner,
                                  "W": ["JH", "KH", "TS", "QS", "KS", "AS"]}, dealer="W")
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.C, Mode.EXCHANGE):
        state.apply(a)
    state.apply(make_player("expert", 1).decide(view_of(state)))  # North's discard
    assert state.phase is Phase.SEND and state.to_act is Seat.S
    return state


@pytest.mark.parametrize("seed", range(4))
def test_the_sampling_players_send_the_highest_trump(seed):
    """The K♣ does every job the Q♣ does for a lone bidder in clubs and more, whatever the
    unseen cards: a player that sends the Q♣ (or its plain ace) has let double-dummy play,
    which sees where every card is, call them equal."""
    state = _partner_to_send(["QC", "KC", "JD", "9H", "QH", "9S"],
                             ["9D", "TD", "QD", "KD", "AD", "TH"])
    for level in ("club", "expert"):
        assert make_player(level, seed).decide(view_of(state)) == Card.parse("KC")
    state = _partner_to_send(["QC", "KC", "AD", "9H", "QH", "9S"],
                             ["9D", "TD", "QD", "KD", "JD", "TH"])
    assert make_player("expert", seed).decide(view_of(state)) == Card.parse("KC")
