"""The coach's reasons are true and specific, checked against the actual deal.

Over every decision of the shipped example hands and a few hundred decisions of self-play
hands dealt into each kind of contract (trumps and no trump, with partner and alone, little
and big pepper), every choice the rules allow is graded and given the coach's reason, and:

- no sentence in a no-trump hand names a trump, a ruff or a bower;
- no sentence to the big pepper bidder names a partner (who sits out), and none to a
  defender names the bidder's partner;
- a trick said to be won "for sure" is won whatever the other hands hold in the actual deal
  (every card the seats still to play could legally play loses to it), and no other
  certainty ("a sure trick", "a sure winner") is claimed;
- every clearly worse choice (Mistake or Blunder) has a fact beyond the figures;
- no option is compared with itself ("Worth: the Q♥ +3.0, the Q♥ +3.0"), and what the
  figures mean is said apart (once, then on request), never in the reason.
"""

from __future__ import annotations

import random
import re
from importlib import resources

import pytest

from pepper_tutor import Bid, Card, HandState, Mode, Phase, Trump
from pepper_tutor.analysis.advice import advise
from pepper_tutor.analysis.grading import grade_decision
from pepper_tutor.analysis.players import make_player
from pepper_tutor.analysis.reasons import decision_fact, decision_reason
from pepper_tutor.engine.ranking import trick_winner
from pepper_tutor.engine.seats import Seat
from pepper_tutor.records.hand_record import Replay, Step, load_record
from pepper_tutor.teaching.practice.coach import _action_of

SAMPLES = 6  # enough to rank the options; the sentences, not the figures, are under test


def _example_positions() -> list[HandState]:
    out = []
    folder = resources.files("pepper_tutor").joinpath("data", "hands")
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".yaml"):
            continue
        record = load_record(str(entry))
        if record.rules.preset != "standard" or not record.deal:
            continue  # the coach sits at the four-handed partnership table
        replay = Replay(record)
        for item in replay:
            if isinstance(item, Step) and len(replay.state.legal_actions()) > 1:
                out.append(replay.state.copy())
    return out


CONTRACTS = [(Bid.FOUR, Trump.H, Mode.PARTNER), (Bid.FOUR, Trump.S, Mode.EXCHANGE),
             (Bid.THREE, Trump.NT, Mode.PARTNER), (Bid.FIVE, Trump.NT, Mode.EXCHANGE),
             (Bid.LITTLE_PEPPER, Trump.D, Mode.PARTNER), (Bid.BIG_PEPPER, Trump.C, None),
             (Bid.BIG_PEPPER, Trump.NT, None)]


def _self_play_positions(seed: int) -> list[HandState]:
    """Every decision of beginner-played hands dealt into each kind of contract, the
    auction included (the bid is the first seat's; the others pass)."""
    out = []
    for k, (bid, trump, mode) in enumerate(CONTRACTS):
        rng = random.Random(seed * 100 + k)
        state = HandState.deal("standard", Seat(rng.randrange(4)), rng)
        out.append(state.copy())
        state.apply(bid)
        while state.phase is Phase.AUCTION:
            out.append(state.copy())
            state.apply(Bid.PASS)
        out.append(state.copy())
        state.apply(trump)
        if mode is not None:
            out.append(state.copy())
            state.apply(mode)
        players = [make_player("beginner", seed * 10 + i) for i in range(4)]
        from pepper_tutor.analysis.view import view_of

        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                out.append(state.copy())
            state.apply(players[int(state.to_act)].decide(view_of(state)))
    return out


def _sure_claims_hold(state: HandState, text: str) -> None:
    """Every "X wins this trick for sure" holds in the actual deal; no other certainty."""
    assert not re.search(r"sure (trick|winner)", text), text
    for name in re.findall(r"The (\S+) wins this trick for sure", text):
        card = Card.parse(name)
        trick = [c for _, c in state.current_trick] + [card]
        seat = state.to_act
        later = [s for s in state.active_seats if s not in
                 {p for p, _ in state.current_trick} and s != seat]
        for other in later:  # every card a later seat could play loses to it
            probe = state.copy()
            probe.apply(card)
            while probe.to_act != other:
                probe.apply(probe.legal_actions()[0])
            for reply in probe.legal_actions():
                cards = [c for _, c in probe.current_trick] + [reply]
                assert trick_winner(cards, state.trump, state.rules.left_bower) == \
                    len(trick) - 1, (text, str(reply))


def _can_be_beaten_holds(state: HandState, text: str) -> None:
    """Every "the X can be beaten" is so in the actual deal: another seat in play holds a
    higher card of its suit, or (for a plain card in a trump contract) a trump."""
    from pepper_tutor.engine.ranking import is_trump, trick_rank

    lb = state.rules.left_bower
    for name in re.findall(r"the (\S+) can be beaten", text):
        card = Card.parse(name)
        trump = state.trump
        if trump is None:
            continue
        assert trump is not None
        others = [c for s in state.active_seats if s != state.to_act for c in state.hand(s)]
        mine_trump = is_trump(card, trump, lb)

        def suit(c: Card, trump: Trump = trump) -> object:
            return "trump" if is_trump(c, trump, lb) else c.suit

        assert any((suit(c) == suit(card) and trick_rank(c, trump, lb) > trick_rank(
            card, trump, lb)) or (not mine_trump and is_trump(c, trump, lb))
            for c in others), text


def _check(state: HandState, counts: dict[str, int]) -> None:
    advice = advise(state, SAMPLES, seed=0)
    by_net = all(o.net is not None for o in advice.options)
    best = advice.best
    best_action = _action_of(best, state.phase)
    seat = state.to_act
    assert seat is not None
    for action in state.legal_actions():
        mine = advice.choice(action)
        if mine is None:
            continue
        grade = grade_decision(advice, mine).grade
        reason = decision_reason(state, action, best_action, best, mine, advice, by_net)
        fact = decision_fact(state, action, best_action, best, mine, advice)
        counts["reasons"] += 1
        words = reason.lower()
        if state.trump is Trump.NT and state.phase is not Phase.AUCTION:
            bare = words.replace("no trump", "").replace(" nt", "")
            assert not re.search(r"trump|ruff|bower", bare), reason
            counts["no trump"] += 1
        if state.high_bid is Bid.BIG_PEPPER and state.phase is not Phase.AUCTION:
            if seat == state.bidder:
                assert "partner" not in words, reason
            assert "bidder's partner" not in words, reason
            counts["big pepper"] += 1
        if action is Bid.BIG_PEPPER:
            assert "from your partner" not in fact.lower(), reason
        _sure_claims_hold(state, reason)
        _can_be_beaten_holds(state, reason)
        counts["for sure"] += "for sure" in words
        if grade in ("Mistake", "Blunder"):
            assert fact, (str(action), reason)
            counts["clearly worse"] += 1
        named = re.findall(r"(?:Worth[^:]*|After [^:]*): (.+?) [+-][\d.]+(?: \([^)]*\))?, "
                           r"(.+?) [+-][\d.]", reason)
        for a, b in named:
            assert a.lower() != b.lower(), reason
        # the figures' meaning is said apart, once (figures_meaning), never in the reason
        assert "net points" not in words and "deals" not in words, reason


@pytest.mark.slow
def test_every_reason_is_true_over_the_example_hands_and_self_play():
    positions = _example_positions()
    assert len(positions) >= 60
    for seed in range(3):
        positions += _self_play_positions(seed)
    counts = {"reasons": 0, "no trump": 0, "big pepper": 0, "for sure": 0,
              "clearly worse": 0}
    for state in positions:
        _check(state, counts)
    assert len(positions) >= 300
    # Each check met its case many times over.
    assert counts["no trump"] >= 100 and counts["big pepper"] >= 30
    assert counts["clearly worse"] >= 100


def test_a_jack_of_the_other_colour_sent_is_named_no_bower():
    state = HandState.from_hands({"N": ["JD", "AD", "KD", "AS", "AC", "AH"],
                                  "E": ["9H", "TH", "QS", "KS", "9S", "TS"],
                                  "S": ["JC", "9D", "QC", "KC", "TC", "9C"],
                                  "W": ["QH", "JS", "JH", "QD", "TD", "KH"]}, dealer="W")
    for a in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.D, Mode.EXCHANGE,
              Card.parse("AH")):
        state.apply(a)
    assert state.phase is Phase.SEND
    advice = advise(state, 20, seed=0)
    best_action = _action_of(advice.best, state.phase)
    jc = Card.parse("JC")
    fact = decision_fact(state, jc, best_action, advice.best, advice.choice(jc), advice)
    assert "J♣ is no bower with diamonds trumps" in fact, fact
    assert "9♦" in fact  # the trump it should have sent


def test_a_pass_behind_partners_bid_is_the_fact_against_a_raise():
    state = HandState.from_hands({"E": ["9H", "TH", "QS", "KS", "9S", "TS"],
                                  "S": ["AC", "AD", "KC", "9C", "TD", "QD"],
                                  "W": ["TC", "QC", "JC", "QH", "9D", "KD"],
                                  "N": ["JH", "JD", "AH", "KH", "AS", "JS"]}, dealer="S")
    for call in (Bid.PASS, Bid.FOUR, Bid.PASS):
        state.apply(call)
    from pepper_tutor.analysis.advice import Advice, Estimate, OptionAdvice
    from pepper_tutor.analysis.reasons import why

    e = Estimate(2.0, 1.0, 3.0, 40)
    passing = OptionAdvice("pass", None, e, e)
    six = OptionAdvice("6 in NT, play with partner", None, Estimate(0.0, -1.0, 1.0, 40),
                       Estimate(0.0, -1.0, 1.0, 40), bid=Bid.SIX, trump=Trump.NT,
                       mode=Mode.PARTNER)
    reason = why(state, Bid.SIX, advice=Advice("bid", Seat.S, "NS", 40, (passing, six)))
    assert reason is not None and reason.fact == "overbid-partner"
    assert "partner's 4 stands if you pass" in reason.text
    assert "A♣ A♦" in reason.text
