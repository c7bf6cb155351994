"""The left bower switch in every part: ranking, following suit, verdicts and their facts,
the solver, quizzes, lesson steps, annotations and the rulebook.

The 2-4 player seed ranks the trump suit 9, 10, queen, king, ace, jack: only the jack of
trumps is promoted. The cutthroat preset follows it; a table may switch the left bower on
there, or off elsewhere. Known answer: with hearts trumps and no left bower, the J♦ follows
diamonds and loses to the A♦.
"""

import os
import random

import pytest

import pepper_tutor
from pepper_tutor import (
    Bid,
    Card,
    HandState,
    Phase,
    Seat,
    Suit,
    Trump,
    effective_suit,
    get_ruleset,
    legal_plays,
    sort_by_rank,
    trick_rank,
    trick_winner,
)
from pepper_tutor.analysis.position import Position, TranspositionTable
from pepper_tutor.analysis.solver import position_from_state, solve
from pepper_tutor.engine.ranking import bower, is_trump, trump_code
from pepper_tutor.rulebook.book import get_rule
from pepper_tutor.rulebook.tricks import check_play, explain_trick, why_higher
from pepper_tutor.teaching.drills.quiz import make_question
from pepper_tutor.teaching.questions.steps import LegalPlaysStep, RankStep, TrickWinnerStep

from . import reference

SISTER = {"C": "S", "S": "C", "D": "H", "H": "D"}
CUTTHROAT = get_ruleset("cutthroat")


def c(text):
    return Card.parse(text)


# ---- rule sets -----------------------------------------------------------------------------


def test_cutthroat_follows_its_seed_and_a_table_can_switch_it_on():
    assert get_ruleset("standard").left_bower and get_ruleset("simple").left_bower
    assert not CUTTHROAT.left_bower
    on = get_ruleset("cutthroat", left_bower=True)
    assert on.left_bower and on.name == "cutthroat+left_bower"
    assert on.to_mapping() == {"preset": "cutthroat", "left_bower": True}
    off = get_ruleset({"preset": "standard", "left_bower": False})
    assert off.name == "standard+left_bower=False" and "variant.left-bower" in off.rule_ids
    assert "variant.left-bower" in CUTTHROAT.rule_ids
    assert "no left bower" in CUTTHROAT.summary()
    with pytest.raises(ValueError, match="left_bower must be true or false"):
        get_ruleset("cutthroat", left_bower="yes")


# ---- ranking ---------------------------------------------------------------------------------


@pytest.mark.parametrize("t", "CDHS")
def test_without_the_switch_trumps_are_jack_ace_king_queen_ten_nine(t):
    order = [f"J{t}", f"A{t}", f"K{t}", f"Q{t}", f"T{t}", f"9{t}"]
    ranks = [trick_rank(x, t, left_bower=False) for x in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 6
    assert bower(f"J{t}", t, left_bower=False) == "right"
    sister = SISTER[t]
    jack = f"J{sister}"
    assert effective_suit(jack, t, left_bower=False) is Suit.parse(sister)
    assert not is_trump(jack, t, left_bower=False) and bower(jack, t, left_bower=False) is None
    plain = [f"{r}{sister}" for r in "AKQJT9"]
    assert sort_by_rank(plain, t, left_bower=False) == [c(x) for x in plain]


def test_seed_known_answer_jack_of_diamonds_follows_diamonds_and_loses_to_the_ace():
    assert trick_winner(["AD", "JD"], "H", left_bower=False) == 0
    assert trick_winner(["AD", "JD"], "H") == 1  # the left bower, where it is switched on
    assert legal_plays(["JD", "KD", "AS"], "9H", "H", left_bower=False) == [
        c("JD"), c("KD"), c("AS")]
    assert legal_plays(["JD", "KD", "AS"], "AD", "H", left_bower=False) == [c("JD"), c("KD")]
    assert legal_plays(["JD", "KD", "AS"], "9H", "H") == [c("JD")]


def test_trump_codes_and_no_trump():
    assert trump_code(Trump.H) == 2 and trump_code(Trump.H, left_bower=False) == 7
    assert trump_code(Trump.NT, left_bower=False) == trump_code(Trump.NT) == 4
    with pytest.raises(ValueError):
        trump_code(9)


@pytest.mark.parametrize("left", [True, False])
def test_random_tricks_agree_with_the_reference(left):
    rng = random.Random(7)
    deck = [str(x) for x in (c(f"{r}{s}") for r in "9TJQKA" for s in "CDHS")]
    for _ in range(3000):
        trump = rng.choice(["C", "D", "H", "S", "NT"])
        cards = rng.sample(deck, rng.choice((2, 3, 4)))
        assert trick_winner(cards, trump, left) == reference.winner(cards, trump, left)
        hand = rng.sample([x for x in deck if x not in cards], 5)
        got = [str(x) for x in legal_plays(hand, cards[0], trump, left)]
        assert got == reference.legal(hand, cards[0], trump, left)


# ---- verdicts and their facts ---------------------------------------------------------------


def test_check_play_explains_the_plain_jack():
    v = check_play(["JD", "KD", "AS"], "AD", "H", "AS", left_bower=False)
    assert not v.legal and "variant.left-bower" in v.rule_ids
    assert v.facts[0] == ("Diamonds were led and you hold J♦ K♦, so you must follow "
                          "diamonds. This table plays without a left bower: the J♦ is an "
                          "ordinary diamond, not a trump.")
    v = check_play(["JD", "KD", "AS"], "AD", "H", "JD", left_bower=False)
    assert v.legal and v.facts[0] == ("This table plays without a left bower, so the J♦ is an "
                                      "ordinary diamond and follows diamonds.")
    v = check_play(["JD", "KD", "AS"], "9H", "H", "AS", left_bower=False)
    assert v.legal and v.facts[0] == ("You have no trumps left: this table plays without a left "
                                      "bower, so the J♦ is an ordinary diamond. Any card may be "
                                      "played.")


def test_explain_trick_and_why_higher_without_the_left_bower():
    why = explain_trick(["AD", "JD", "KD"], "H", left_bower=False)
    assert why.winner_index == 0 and why.rule_id == "play.trick-winner"
    assert any("ordinary diamond, not a trump" in f for f in why.facts)
    fact, rule = why_higher("AH", "KH", "H", left_bower=False)
    assert rule == "rank.trump" and "J♥ A♥ K♥ Q♥ 10♥ 9♥" in fact
    fact, rule = why_higher("9H", "JD", "H", left_bower=False)
    assert rule == "rank.trump" and fact.startswith("The 9♥ is a trump and the J♦ is not")
    with pytest.raises(ValueError):
        why_higher("9H", "JD", "H")  # the left bower outranks the 9 where it is on


def _three(rules):
    state = HandState.deal(rules, Seat.S, rng=5)
    state.apply(Bid.TWO)
    state.apply(Bid.PASS)
    state.apply(Bid.PASS)
    return state


def test_declaring_trumps_states_the_ranking_of_the_table():
    v = _three(CUTTHROAT).check(Trump.H)
    assert v.legal and v.facts[0] == ("North names hearts: the J♥ is the highest trump; this "
                                      "table plays without a left bower, so the J♦ stays a "
                                      "diamond.")
    assert v.rule_ids == ("declare.trump", "variant.left-bower")
    v = _three(get_ruleset("cutthroat", left_bower=True)).check(Trump.H)
    assert v.facts[0] == "North names hearts: the J♥ is the right bower and the J♦ the left bower."
    said = _three(CUTTHROAT).check(Trump.S).explanation  # the rule quoted, in words
    assert get_rule("variant.left-bower").text in said and "[variant.left-bower]" not in said


# ---- the solver -----------------------------------------------------------------------------


def test_solver_ranks_by_the_switch():
    """North leads J♦ against East's A♥, hearts trumps: the left bower wins, a diamond loses."""
    hands = [["JD"], ["AH"]]
    assert solve(Position.from_cards(hands, "N", "H", "N")).tricks == 1
    assert solve(Position.from_cards(hands, "N", "H", "N", left_bower=False)).tricks == 0
    # One table serves both, kept apart by the trump code.
    table = TranspositionTable()
    hands = [["JD", "9C"], ["AH", "TC"]]
    for left, expect in ((True, 1), (False, 0), (True, 1)):
        assert solve(Position.from_cards(hands, "N", "H", "N", left_bower=left),
                     table).tricks == expect


def test_position_from_state_carries_the_switch():
    state = _three(CUTTHROAT)
    state.apply(Trump.H)
    assert state.phase is Phase.PLAY
    position = position_from_state(state)
    assert not position.left_bower and position.code == 7
    solution = solve(position)
    # Replaying the solver's best line through the engine gives the solver's count.
    while not state.is_terminal():
        best = solve(position_from_state(state)).best_cards[0]
        state.apply(best)
    assert state.tricks_won()["N"] == solution.tricks


# ---- quizzes and lesson steps -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["tricks", "legal", "bowers"])
def test_quiz_answers_follow_the_rule_set(kind):
    rng = random.Random(11)
    for n in range(600):
        q = make_question(kind, rng, n, rules=CUTTHROAT)
        t = str(q.trump)
        if kind == "tricks":
            cards = [str(x) for x in q.trick]
            assert str(q.winner()) == cards[reference.winner(cards, t, left=False)]
        elif kind == "legal":
            hand = [str(x) for x in q.hand]
            assert sorted(str(x) for x in q.legal()) == sorted(
                reference.legal(hand, str(q.trick[0]), t, left=False))
        else:
            expect = sorted((str(x) for x in q.cards),
                            key=lambda x: -reference.strength(x, t, left=False))
            assert [str(x) for x in q.order()] == expect and not q.problems()


def test_lesson_steps_judge_and_explain_by_the_rule_set():
    step = TrickWinnerStep(id="t", prompt="?", trump=Trump.H, trick=(c("AD"), c("JD")),
                           rules=CUTTHROAT)
    assert step.winner() is c("AD") and step.judge("AD").correct
    feedback = step.judge("JD")
    assert not feedback.correct and "the J♦ is an ordinary diamond, not a trump" in " ".join(
        feedback.facts)
    standard = TrickWinnerStep(id="t", prompt="?", trump=Trump.H, trick=(c("AD"), c("JD")))
    assert standard.winner() is c("JD")
    step = LegalPlaysStep(id="l", prompt="?", trump=Trump.H, trick=(c("9H"),),
                          hand=(c("JD"), c("KD"), c("AS")), rules=CUTTHROAT)
    assert set(step.legal()) == {c("JD"), c("KD"), c("AS")}
    step = RankStep(id="r", prompt="?", trump=Trump.H, cards=(c("9H"), c("JD"), c("AH")),
                    rules=CUTTHROAT)
    assert not step.problems()
    assert step.order() == [c("AH"), c("9H"), c("JD")]  # the J♦ is no trump: below them all
    feedback = step.judge("JD AH 9H")
    assert not feedback.correct
    assert feedback.facts[0].startswith("You put the J♦ above the A♥. The A♥ is a trump and "
                                        "the J♦ is not")
    step = RankStep(id="r", prompt="?", trump=Trump.H, cards=(c("QD"), c("JD"), c("TD")),
                    rules=CUTTHROAT)
    assert step.order() == [c("QD"), c("JD"), c("TD")]
    assert "no left bower" in step.nudge()


# ---- annotations and the example hand ----------------------------------------------------------


def test_cutthroat_example_hand_teaches_the_plain_jack():
    from pepper_tutor.records.annotate import annotate_file

    path = os.path.join(os.path.dirname(pepper_tutor.__file__), "data", "hands",
                        "cutthroat-three.yaml")
    notes = annotate_file(path)
    second = notes.tricks[1]
    assert second.winner is Seat.N and str(second.winning_card) == "AS"
    assert any("ordinary club, not a trump" in f for f in second.facts)


# ---- the sampled advice solves with the table's ranking -----------------------------------------


@pytest.mark.parametrize(("left", "tricks"), [(True, 1), (False, 0)])
def test_card_advice_solves_by_the_switch(left, tricks):
    """East led the A♦, hearts trumps: North's J♦ takes it only where it is the left bower.
    Two players, the last trick: East won the first five with clubs, North threw spades."""
    from pepper_tutor.analysis.advice import advise_play

    rules = get_ruleset("cutthroat", players=2, left_bower=left)
    state = HandState.from_hands({"N": ["JD", "9S", "TS", "QS", "KS", "AS"],
                                  "E": ["AD", "AC", "KC", "QC", "TC", "9C"]}, rules, "N")
    state.apply(Bid.parse("3"))  # East bids, North passes, East names hearts
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(Trump.H)
    for card in ["AC", "9S", "KC", "TS", "QC", "QS", "TC", "KS", "9C", "AS", "AD"]:
        state.apply(Card.parse(card))
    advice = advise_play(state, 4, seed=1)
    # the side's tricks, one per card
    assert tuple(o.tricks.mean for o in advice.options if o.tricks) == (tricks,)


@pytest.mark.parametrize("left", [True, False])
def test_voids_read_from_play_follow_the_switch(left):
    """The J♦ played to a diamond lead shows a void in diamonds only where it is a trump."""
    from pepper_tutor.analysis.dealing import void_masks

    rules = get_ruleset("cutthroat", players=4, partnerships=True, left_bower=left)
    hands = {"N": ["AD", "9S", "TS", "QS", "KS", "AS"], "E": ["JD", "9C", "TC", "QC", "KC", "AC"],
             "S": ["9D", "TD", "QD", "KD", "9H", "TH"], "W": ["JH", "QH", "KH", "AH", "JC", "JS"]}
    state = HandState.from_hands(hands, rules, "W")
    state.apply(Bid.parse("3"))  # North bids, the others pass
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)
    state.apply(Trump.H)
    state.apply(Card.parse("AD"))
    state.apply(Card.parse("JD"))
    diamonds = sum(1 << c.index for c in pepper_tutor.DECK
                   if c.suit is Suit.DIAMONDS and c.rank is not pepper_tutor.Rank.JACK)
    assert bool(void_masks(state)[int(Seat.E)] & diamonds) is left


def test_card_pictures_name_the_left_bower_only_where_the_table_has_one():
    from pepper_tutor.render.cards_html import cards_html, label
    from pepper_tutor.render.state_html import hand_state_html

    jd = Card.parse("JD")
    assert label(jd, Trump.H) == "jack of diamonds, left bower"
    assert label(jd, Trump.H, left_bower=False) == "jack of diamonds"
    assert label(Card.parse("JH"), Trump.H, left_bower=False) == "jack of hearts, right bower"
    # Without the left bower the J♦ is a plain diamond: no trump tag on its picture.
    assert ">T</text>" in cards_html([jd], Trump.H)
    assert ">T</text>" not in cards_html([jd], Trump.H, left_bower=False)
    hands = {"N": "JD 9S TS QS KS AS", "E": "9D TD QD KD AD JS",
             "S": "9H TH JH QH KH AH"}
    state = HandState.from_hands({s: h.split() for s, h in hands.items()}, "cutthroat")
    state.apply(Bid.FOUR)
    state.apply(Bid.PASS)
    state.apply(Bid.PASS)
    state.apply(Trump.H)
    shown = hand_state_html(state)
    assert "jack of diamonds</title>" in shown and "left bower" not in shown


@pytest.mark.parametrize("left", [True, False])
def test_rules_of_thumb_rank_the_jack_by_the_switch(left):
    """The calling model, the exchange rules, the coach's holding words and its reasons for
    a card sent: with hearts trumps the J♦ is a trump only where the left bower is on."""
    from pepper_tutor import Mode
    from pepper_tutor.analysis.calling import hand_tricks
    from pepper_tutor.analysis.dealing import discard_rule, send_rule
    from pepper_tutor.analysis.reasons import trump_holding, why_exchange

    def idx(text):
        return [Card.parse(c).index for c in text.split()]

    hand = [Card.parse(c) for c in ["JH", "JD", "AH", "9C", "TS", "QS"]]
    assert trump_holding(hand, Trump.H, left) == (
        "both bowers and the A♥: three trumps in hearts" if left
        else "the right bower and the A♥: two trumps in hearts")
    with_left, without = hand_tricks(idx("JH JD AH 9C TS QS"), 2), hand_tricks(
        idx("JH JD AH 9C TS QS"), 2, False)
    assert with_left > without
    # The partner sends its best trump: the left bower, or else the A♥.
    sent = send_rule(idx("JD AH 9C TC QC KS"), 2, left)
    assert Card.from_index(sent) == Card.parse("JD" if left else "AH")
    # The bidder discards from a short plain suit: the J♦ is one only without the switch.
    dropped = discard_rule(idx("JH AH KH JD AS KS"), 2, left)
    assert Card.from_index(dropped) == Card.parse("KS" if left else "JD")
    rules = get_ruleset("standard", left_bower=left)
    state = HandState.from_hands({"N": ["JH", "AH", "KH", "QH", "AS", "KS"],
                                  "E": ["9C", "TC", "JC", "QC", "KC", "AC"],
                                  "S": ["JD", "9H", "9D", "TD", "QD", "KD"],
                                  "W": ["TH", "9S", "TS", "JS", "QS", "AD"]}, rules)
    for action in (Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.EXCHANGE,
                   Card.parse("KS")):
        state.apply(action)
    assert state.phase is Phase.SEND
    reason = why_exchange(state, Card.parse("JD"), Card.parse("9H"))
    if left:
        assert reason is None  # the left bower is South's best trump
    else:
        # Without the switch the J♦ is a plain diamond: the reason names that misreading.
        assert reason is not None and reason.fact == "jack-not-a-bower"
        assert "J♦ is no bower" in reason.text and "9♥" in reason.text


def test_the_drills_hand_count_follows_the_left_bower_switch():
    """The one hand-strength model (analysis/calling.py), which the drills deal by: with
    hearts trumps the J♦ counts as a trump, and as the second-highest one, only where the
    left bower is on."""
    from pepper_tutor.analysis.calling import best_suit, count_tricks, trump_count, trump_strength

    hand = [Card.parse(c).index for c in ["JH", "JD", "AH", "9C", "TS", "QS"]]
    on, off = get_ruleset("standard"), get_ruleset("standard", left_bower=False)
    assert (trump_count(hand, 2), trump_count(hand, 2, False)) == (3, 2)
    assert trump_strength(on, hand, 2) > trump_strength(off, hand, 2)
    assert best_suit(on, hand) == best_suit(off, hand) == 2
    # Both bowers and the ace are three top trumps; without the switch the J♥ and A♥ are
    # two, and the J♦ is a plain card.
    assert (count_tricks(on, hand), count_tricks(off, hand)) == (4, 3)
