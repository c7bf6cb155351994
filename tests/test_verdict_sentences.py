"""Every kind of verdict, read as a learner reads it: the exact sentence and its rules.

Each case builds the situation through the engine and checks the whole first fact, so a
broken template ("cannot hand to the bidder it") or a stray phase name shows up here.
"""

import pytest

from pepper_tutor import Bid, Card, HandState, Mode, Seat, Trump, get_ruleset
from pepper_tutor.rulebook.book import RULE_IDS_ENV, get_rule
from pepper_tutor.rulebook.tricks import check_play

DEAL = {
    "N": ["JD", "AH", "KS", "9C", "TD", "QH"],
    "E": ["AS", "QS", "9S", "KD", "QD", "9H"],
    "S": ["JH", "TH", "KH", "AC", "KC", "AD"],
    "W": ["JS", "JC", "TS", "QC", "TC", "9D"],
}
SOUTH_BIDS = [Bid.PASS, Bid.PASS, Bid.FOUR, Bid.PASS]  # West deals: N, E pass, S 4, W pass
EXCHANGE = [*SOUTH_BIDS, Trump.H, Mode.EXCHANGE]
DEFENCE = [*EXCHANGE, Card.parse("AD"), Card.parse("JD")]
CUT = [Bid.TWO, Bid.PASS, Bid.PASS]  # cutthroat for three, South deals: North bids 2


def state(rules="standard", actions=(), dealer=None):
    rules = get_ruleset(rules)
    n = rules.players
    s = HandState.from_hands({k: DEAL[k] for k in "NESW"[:n]}, rules=rules,
                             dealer=dealer or ("W" if n == 4 else "S"))
    for a in actions:
        s.apply(a)
    return s


CASES = [
    ("not your turn", lambda: state().check("1", seat="S"), False, ("play.turn", "bid.order"),
     "It is North's turn to bid or pass; South must wait."),
    ("a bid", lambda: state().check("2"), True, ("bid.must-top",), "North bids 2."),
    ("a bid topping", lambda: state(actions=[Bid.TWO]).check("3"), True, ("bid.must-top",),
     "East bids 3, topping 2 by North."),
    ("a pass", lambda: state().check("pass"), True, ("bid.order",), "North passes."),
    ("a pass in cutthroat", lambda: state("cutthroat").check("pass"), True, ("bid.order",),
     "North passes; a pass is final in cutthroat."),
    ("a bid too low", lambda: state(actions=[Bid.THREE]).check("2"), False, ("bid.must-top",),
     "The standing bid is 3 by North; 2 does not top it. East must bid higher or pass."),
    ("the stuck dealer", lambda: state(
        get_ruleset("standard", minimum_bid=3, all_pass="dealer_must_bid"),
        [Bid.PASS] * 3).check("pass"), False, ("variant.dealer-must-bid", "bid.all-pass"),
     "Everyone before the dealer has passed and this table sticks the dealer: West must bid "
     "at least 3."),
    ("below the minimum", lambda: state(get_ruleset("standard", minimum_bid=3)).check("2"),
     False, ("variant.minimum-bid", "bid.ladder"),
     "This table's lowest bid is 3, so 2 is not a bid here (the bids are 3, 4, 5, 6, little "
     "pepper, big pepper)."),
    ("off the ladder", lambda: state("simple").check("6"), False,
     ("bid.ladder", "preset.simple"),
     "6 is not a bid in simple Pepper: the bids are 1, 2, 3, 4, 5, little pepper, big pepper."),
    ("text of another kind", lambda: state().check("JH"), False, ("bid.order",),
     "'JH' is not what this step needs: it is North's turn to bid or pass."),
    ("an enum of another kind", lambda: state().check(Trump.NT), False, ("bid.order",),
     "No trump is not what this step needs: it is North's turn to bid or pass."),
    ("naming no trump", lambda: state(actions=SOUTH_BIDS).check("NT"), True,
     ("declare.trump",),
     "South names no trump: no bowers this hand, and every suit ranks ace down to 9."),
    ("naming a suit", lambda: state(actions=SOUTH_BIDS).check("H"), True, ("declare.trump",),
     "South names hearts: the J♥ is the right bower and the J♦ the left bower."),
    ("naming a suit, no left bower", lambda: state("cutthroat", CUT).check("H"), True,
     ("declare.trump", "variant.left-bower"),
     "North names hearts: the J♥ is the highest trump; this table plays without a left "
     "bower, so the J♦ stays a diamond."),
    ("the exchange", lambda: state(actions=[*SOUTH_BIDS, Trump.H]).check("exchange"), True,
     ("declare.exchange",), "South chooses to exchange and play alone."),
    ("with partner", lambda: state(actions=[*SOUTH_BIDS, Trump.H]).check("partner"), True,
     ("declare.with-partner",), "South chooses to play with partner."),
    ("no exchange in cutthroat", lambda: state("cutthroat", [*CUT, Trump.H]).check("exchange"),
     False, ("preset.cutthroat",),
     "Cutthroat has no exchange: the bidder names trumps and everyone plays the cards dealt."),
    ("no exchange in big pepper", lambda: state(
        actions=[Bid.BIG_PEPPER, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H]).check("exchange"),
     False, ("declare.big-pepper",),
     "The bid is big pepper, so North plays alone with the six cards dealt: there is no "
     "exchange, and the partner does not play."),
    ("no surrender in cutthroat", lambda: state("cutthroat", [*CUT, Trump.H]).check(
        "surrender"), False, ("preset.cutthroat",),
     "Cutthroat has no surrender: every player plays the hand out."),
    ("a discard", lambda: state(actions=EXCHANGE).check("AD"), True, ("declare.exchange",),
     "South discards the A♦ face down; it is out of play."),
    ("a discard not held", lambda: state(actions=EXCHANGE).check("9D"), False,
     ("declare.exchange",),
     "South does not hold the 9♦, so cannot discard it. South holds J♥ 10♥ K♥ A♣ K♣ A♦."),
    ("the card sent", lambda: state(actions=[*EXCHANGE, Card.parse("AD")]).check("JD"), True,
     ("declare.exchange",), "North hands the J♦ to the bidder and sits out."),
    ("a card not held to send", lambda: state(actions=[*EXCHANGE, Card.parse("AD")]).check(
        "AS"), False, ("declare.exchange",),
     "North does not hold the A♠, so cannot hand it to the bidder. North holds J♦ A♥ K♠ 9♣ "
     "10♦ Q♥."),
    ("a surrender", lambda: state(actions=DEFENCE).check("surrender"), True,
     ("defend.surrender", "score.surrender"), "The defenders surrender: the hand ends unplayed."),
    ("playing on", lambda: state(actions=DEFENCE).check("play"), True, ("defend.surrender",),
     "The defenders play the hand out."),
    ("dirty clubs", lambda: state(get_ruleset("standard", dirty_clubs=True),
                                  [*SOUTH_BIDS, Trump.C, Mode.PARTNER]).check("surrender"),
     False, ("variant.dirty-clubs", "defend.surrender"),
     "Clubs are trumps and this table plays dirty clubs, so the defenders may not surrender: "
     "they must play the hand out."),
    ("a hand thrown in", lambda: state(actions=[Bid.PASS] * 4).check("1"), False,
     ("bid.all-pass",),
     "The hand is over: everyone passed and it was thrown in; nothing more can be done in it."),
    # One trick (the same verdicts as HandState.check in the play phase).
    ("a card not held", lambda: check_play(["JD", "KD"], None, "H", "AS"), False,
     ("play.own-cards",), "You do not hold the A♠; you hold J♦ K♦."),
    ("a lead", lambda: check_play(["JD", "KD"], None, "H", "KD"), True, ("play.lead",),
     "You lead the K♦."),
    ("leading the left bower", lambda: check_play(["JD", "KD"], None, "H", "JD"), True,
     ("play.lead",), "You lead the J♦; leading the left bower leads trumps."),
    ("following", lambda: check_play(["JD", "KD"], "AD", "H", "KD"), True,
     ("play.follow-suit",), "The K♦ follows diamonds."),
    ("void", lambda: check_play(["JD", "KS"], "AC", "H", "KS"), True, ("play.follow-suit",),
     "You have no clubs left, so any card may be played."),
    ("the left bower follows trumps", lambda: check_play(["JD", "KD"], "9H", "H", "JD"), True,
     ("play.follow-suit",), "Hearts are trumps, so the J♦ is the left bower and follows hearts."),
    ("a revoke holding the left bower", lambda: check_play(["JD", "KD"], "9H", "H", "KD"),
     False, ("play.follow-suit", "play.left-bower-suit"),
     "Hearts are trumps, so the J♦ is the left bower and counts as a heart; you hold it, so "
     "you must follow hearts with it."),
    ("the left bower cannot follow its printed suit",
     lambda: check_play(["JD", "KD"], "AD", "H", "JD"), False,
     ("play.follow-suit", "play.left-bower-suit"),
     "Hearts are trumps, so the J♦ is the left bower, a heart: it cannot follow diamonds. You "
     "hold K♦, so you must play it."),
    ("a revoke", lambda: check_play(["QC", "KD"], "AD", "H", "QC"), False,
     ("play.follow-suit",), "Diamonds were led and you hold K♦, so you must follow diamonds."),
    ("a revoke to a left bower lead", lambda: check_play(["9H", "KD"], "JD", "H", "KD"), False,
     ("play.follow-suit", "play.left-bower-suit"),
     "The J♦ led is the left bower, so trumps were led. You hold 9♥, so you must follow "
     "trumps."),
    ("following a left bower lead", lambda: check_play(["9H", "KD"], "JD", "H", "9H"), True,
     ("play.follow-suit", "play.left-bower-suit"),
     "The J♦ led is the left bower, so trumps were led. The 9♥ follows trumps."),
    ("a revoke, third person", lambda: check_play(["QC", "KD"], "AD", "H", "QC", Seat.E,
                                                  second_person=False), False,
     ("play.follow-suit",), "Diamonds were led and East holds K♦, so East must follow diamonds."),
    ("the plain jack follows its suit",
     lambda: check_play(["JD", "KD"], "AD", "H", "JD", left_bower=False), True,
     ("play.follow-suit", "variant.left-bower"),
     "This table plays without a left bower, so the J♦ is an ordinary diamond and follows "
     "diamonds."),
]


@pytest.mark.parametrize("name,make,legal,rules,sentence", CASES, ids=[c[0] for c in CASES])
def test_each_kind_of_verdict_reads_right(name, make, legal, rules, sentence, monkeypatch):
    verdict = make()
    assert verdict.legal is legal
    assert verdict.rule_ids == rules
    assert verdict.facts[0] == sentence
    text = verdict.explanation
    for rule_id in rules:  # each rule is quoted, by its id only in the rule ids view
        assert get_rule(rule_id).text in text and f"[{rule_id}]" not in text
    monkeypatch.setenv(RULE_IDS_ENV, "1")
    assert all(f"[{rule_id}] {get_rule(rule_id).text}" in verdict.explanation
               for rule_id in rules)
    monkeypatch.delenv(RULE_IDS_ENV)
    if not legal and verdict.alternatives:
        assert "Allowed instead: " in text
    for fact in verdict.facts:  # sentences, never a template's leftovers
        assert fact[0].isupper() or fact[0] in "'0123456789"
        assert fact.endswith(".") and "{" not in fact and "  " not in fact
        assert "hand to the bidder it" not in fact
