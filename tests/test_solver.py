"""The double-dummy solver against a plain exhaustive minimax on the same ranking tables."""

from __future__ import annotations

import random

import pytest

from pepper_tutor import Bid, Card, Defense, HandState, Mode, Seat, Trump
from pepper_tutor.analysis.solver import (
    Position,
    TranspositionTable,
    position_from_state,
    solve,
    solve_state,
    takes_at_least,
    tricks_of,
)
from pepper_tutor.engine.ranking import EFFECTIVE_SUIT, winner_of

# ---- the reference: every legal card, every reply, no pruning, no tricks --------------------


def legal(hand: list[int], trick: list[tuple[int, int]], trump: int) -> list[int]:
    if not trick:
        return list(hand)
    led = EFFECTIVE_SUIT[trump][trick[0][1]]
    return [c for c in hand if EFFECTIVE_SUIT[trump][c] == led] or list(hand)


def minimax(hands: list[list[int]], trick: list[tuple[int, int]], seat: int, p: Position) -> int:
    """Tricks the side takes from here: the side picks its best card, the others the worst."""
    if not hands[seat]:
        return 0
    active = p.active_seats
    results = []
    for card in legal(hands[seat], trick, p.trump):
        hands[seat].remove(card)
        now = [*trick, (seat, card)]
        if len(now) == len(active):
            winner = now[winner_of([c for _, c in now], p.trump)][0]
            result = (winner in p.side) + minimax(hands, [], winner, p)
        else:
            result = minimax(hands, now, active[(active.index(seat) + 1) % len(active)], p)
        hands[seat].append(card)
        results.append((card, result))
    pick = max if seat in p.side else min
    return pick(r for _, r in results)


def card_values(p: Position) -> dict[int, int]:
    hands = [list(h) for h in p.hands]
    trick = list(p.trick)
    seat = p.to_play
    out = {}
    for card in legal(hands[seat], trick, p.trump):
        hands[seat].remove(card)
        now = [*trick, (seat, card)]
        active = p.active_seats
        if len(now) == len(active):
            winner = now[winner_of([c for _, c in now], p.trump)][0]
            out[card] = (winner in p.side) + minimax(hands, [], winner, p)
        else:
            out[card] = minimax(hands, now, active[(active.index(seat) + 1) % len(active)], p)
        hands[seat].append(card)
    return out


def random_position(rng: random.Random, players: int, out: int | None, tricks: int,
                    trump: int) -> Position:
    """``tricks`` cards to every active seat, then a random legal start of the trick."""
    active = [s for s in range(players) if s != out]
    deck = list(range(24))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for i, s in enumerate(active):
        hands[s] = deck[i * tricks:(i + 1) * tricks]
    seat = rng.choice(active)
    trick: list[tuple[int, int]] = []
    for _ in range(rng.randrange(len(active))):
        card = rng.choice(legal(hands[seat], trick, trump))
        hands[seat].remove(card)
        trick.append((seat, card))
        seat = active[(active.index(seat) + 1) % len(active)]
    if players == 4 and out is None and rng.random() < 0.5:
        side = frozenset({0, 2})
    else:
        side = frozenset(rng.sample(active, rng.randrange(1, len(active))))
    return Position(tuple(tuple(h) for h in hands), tuple(trick), seat, trump, side,
                    players, out)


SHAPES = [(2, None), (3, None), (4, None), (4, 0), (4, 1), (4, 2), (4, 3)]


@pytest.mark.parametrize(("players", "out"), SHAPES)
def test_solver_agrees_with_minimax_on_small_positions(players: int, out: int | None) -> None:
    rng = random.Random(players * 10 + (out if out is not None else 9))
    checked = 0
    for i in range(90):
        tricks = 1 + i % 3
        p = random_position(rng, players, out, tricks, trump=i % 5)
        solution = solve(p)
        values = card_values(p)
        best = minimax([list(h) for h in p.hands], list(p.trick), p.to_play, p)
        assert solution.tricks == best, p
        assert {v.card.index: v.tricks for v in solution.values} == values, p
        for v in solution.values:
            assert v.cost == (best - v.tricks if p.to_play in p.side else v.tricks - best)
        assert takes_at_least(p, best) and not takes_at_least(p, best + 1)
        checked += 1
    assert checked == 90


def test_solver_agrees_with_minimax_on_four_trick_endings() -> None:
    rng = random.Random(7)
    for i in range(12):
        players, out = SHAPES[i % len(SHAPES)]
        p = random_position(rng, players, out, 4, trump=i % 5)
        assert solve(p).tricks == minimax([list(h) for h in p.hands], list(p.trick),
                                          p.to_play, p)


def test_a_table_shared_across_deals_gives_the_same_answers() -> None:
    # Rank-relative keys make an entry hold for any deal of the same kind: one table per
    # kind serves many deals, and must still agree with the minimax on every one.
    rng = random.Random(3)
    for trump in range(5):
        for players, out in ((4, None), (4, 2), (3, None)):
            table = TranspositionTable()
            for i in range(12):
                p = random_position(rng, players, out, 2 + i % 2, trump)
                p = Position(p.hands, p.trick, p.to_play, trump, frozenset({0}), players, out)
                shared = solve(p, table)
                assert shared == solve(p)
                assert shared.tricks == minimax([list(h) for h in p.hands], list(p.trick),
                                                p.to_play, p)
            assert len(table) > 0


def test_the_fast_path_for_sampled_advice_gives_the_checked_answers() -> None:
    # Sampled advice builds its positions unchecked and asks for values alone; the same
    # positions through the checked constructor and the full solve must agree.
    rng = random.Random(11)
    for i in range(60):
        players, out = SHAPES[i % len(SHAPES)]
        p = random_position(rng, players, out, 1 + i % 4, trump=i % 5)
        trusted = Position.trusted(p.hands, p.trick, p.to_play, p.trump, p.side, p.players,
                                   p.out, p.left_bower)
        assert trusted == p and hash(trusted) == hash(p)
        assert tricks_of(trusted, TranspositionTable()) == solve(p).tricks


def test_the_table_is_reset_when_a_card_changes_hands() -> None:
    a = Position.from_cards([["JH", "AC"], ["AH", "9C"]], "N", "H", "N")
    b = Position.from_cards([["AH", "9C"], ["JH", "AC"]], "N", "H", "N")
    table = TranspositionTable()
    assert solve(a, table).tricks == 2
    assert solve(b, table).tricks == 0  # same cards, other owners: the table must not answer


def test_equivalent_cards_share_a_value_and_bowers_come_from_the_tables() -> None:
    # Hearts trumps: the J♦ is the left bower, so N's K♥ and Q♥ are equivalent (A♥ is gone)
    # and the J♦ beats E's A♥ even though it is printed a diamond.
    p = Position.from_cards([["JD", "KH", "QH"], ["AH", "9S", "TS"]], "N", "H", "N")
    solution = solve(p)
    assert solution.value("KH") == solution.value("QH") == 2
    assert solution.value("JD") == 3 == solution.tricks
    lead = Position.from_cards([["JD", "9S"], ["AH", "TS"]], "E", "H", "E")
    assert solve(lead).value("AH") == 1  # A♥ loses to the left bower, then T♠ wins


def test_a_full_deal_from_a_hand_state() -> None:
    state = HandState.deal("standard", Seat.W, random.Random(11))
    for action in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.S, Mode.PARTNER,
                   Defense.PLAY):
        state.apply(action)
    solution = solve_state(state)
    assert solution.side == (Seat.N, Seat.S) and solution.to_play is Seat.N
    assert len(solution.values) == 6 and solution.best_cards
    # Playing the best card keeps the value; the solver's count then holds at every step.
    while not state.is_terminal():
        s = solve_state(state, card_values=True)
        state.apply(s.best_cards[0])
        if not state.is_terminal():
            assert solve_state(state, card_values=False).total == s.total
    assert state.tricks_won()["NS"] == solution.total
    assert "take" in str(solution)


def test_exchange_hand_three_card_tricks_from_a_state() -> None:
    state = HandState.deal("standard", Seat.W, random.Random(5))
    for action in (Bid.THREE, Bid.PASS, Bid.PASS, Bid.PASS, Trump.NT, Mode.EXCHANGE):
        state.apply(action)
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    state.apply(Defense.PLAY)
    p = position_from_state(state)
    assert p.out == 2 and p.hands[2] == () and p.side == frozenset({0, 2})
    assert solve_state(state).tricks == solve(p).tricks
    rng = random.Random(6)
    for _ in range(7):  # two tricks and a card in, the minimax is quick enough
        state.apply(rng.choice(state.legal_actions()))
    p = position_from_state(state)
    assert len(p.trick) == 1 and p.tricks_left == 4
    solution = solve_state(state)
    assert solution.tricks == minimax([list(h) for h in p.hands], list(p.trick), p.to_play, p)
    assert {v.card.index: v.tricks for v in solution.values} == card_values(p)
    assert solution.total == solution.tricks + state.tricks_won()["NS"]


def test_bad_positions_are_refused() -> None:
    with pytest.raises(ValueError, match="holds"):
        Position.from_cards([["JH", "9C"], ["AH"]], "N", "H", "N")
    with pytest.raises(ValueError, match="repeated"):
        Position.from_cards([["JH"], ["JH"]], "N", "H", "N")
    with pytest.raises(ValueError, match="in turn"):
        Position.from_cards([["JH"], ["AH"], ["9H"]], "E", "H", "N", trick=[("S", "TH")])
    with pytest.raises(KeyError):
        solve(Position.from_cards([["JH"], ["AH"]], "N", "H", "N")).value(Card.parse("9C"))
