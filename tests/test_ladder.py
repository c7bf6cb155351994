"""The strength ladder's yardsticks: the reference player of table tips, the all-seeing
ceiling, and the ladder bench that pairs every level."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from pepper_tutor import Bid, Card, Defense, HandState, Mode, Phase, Seat, Trump
from pepper_tutor.analysis.ceiling import CeilingPlayer
from pepper_tutor.analysis.players import play_hand
from pepper_tutor.analysis.solver import solve_state
from pepper_tutor.analysis.table_tips import TableTipsPlayer, suit_count
from pepper_tutor.analysis.view import view_of
from pepper_tutor.bench import ladder
from pepper_tutor.bench.tournament import LADDER

PACKAGE = Path(__file__).resolve().parent.parent / "pepper_tutor"


def _view(state: HandState):
    assert state.to_act is not None
    return view_of(state, state.to_act)


def _deal(hands: dict[str, str], dealer: str) -> HandState:
    return HandState.from_hands({seat: cards.split() for seat, cards in hands.items()},
                                dealer=dealer)


def _auction_to(state: HandState, seat: Seat) -> None:
    """Everyone passes until ``seat`` is to call."""
    while state.to_act != seat:
        state.apply(Bid.PASS)


# ---- the reference player ---------------------------------------------------------------


def test_the_reference_player_imports_nothing_of_the_analysis_but_the_view():
    tree = ast.parse((PACKAGE / "analysis" / "table_tips.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= {"__future__", "collections.abc", "engine.calls", "engine.cards",
                        "engine.ranking", "engine.state", "view"}, imported


def test_the_table_tips_count_bowers_the_ace_length_and_side_aces():
    hand = [Card.parse(c) for c in ("JH", "JD", "KH", "9S", "AS", "9C")]
    # Both bowers, the king of trumps (half), the ace of spades, one for partner.
    assert suit_count(hand, Trump.H) == 4.5
    assert suit_count(hand, Trump.H, partner=False) == 3.5
    # From the fourth trump on, each counts whole: J♥ J♦ A♥ 10♥ 9♥ are five tricks.
    longer = [Card.parse(c) for c in ("JH", "JD", "AH", "9H", "TH", "9C")]
    assert suit_count(longer, Trump.H, partner=False) == 5.0
    # No trump: the aces, and a king beside its ace.
    aces = [Card.parse(c) for c in ("AS", "KS", "AC", "AD", "9H", "TH")]
    assert suit_count(aces, Trump.NT, partner=False) == 4.0


def test_the_reference_player_bids_its_count_and_passes_junk():
    state = _deal({"N": "JH JD AH 9H 9S 9C", "E": "TS JS QS KS 9D TD",
                                  "S": "KH QH TH QD KD AD", "W": "JC QC KC AC TC AS"}, "W")
    assert TableTipsPlayer().decide(_view(state)) is Bid.FIVE  # 3 + a fourth trump + partner
    state.apply(Bid.FIVE)
    assert TableTipsPlayer().decide(_view(state)) is Bid.PASS  # East: nothing to count


def test_the_reference_player_bids_over_its_partner_only_two_tricks_better():
    state = _deal({"N": "9D TD QD 9S TS 9C", "E": "QS KS 9H TH JC QC",
                                  "S": "JH JD KH QH AC AS", "W": "AH KC TC KD AD JS"}, "W")
    state.apply(Bid.FOUR)  # North
    state.apply(Bid.PASS)  # East
    # South counts both bowers, the king (half), the queen (a fourth trump), two aces and
    # partner: 6.5, so 6, two over partner's 4.
    assert TableTipsPlayer().decide(_view(state)) is Bid.SIX
    state = _deal({"N": "9D TD QD 9S TS 9C", "E": "QS KS 9H TH JC QC",
                                  "S": "JH JD KH QH AC KD", "W": "AH KC TC AS AD JS"}, "W")
    state.apply(Bid.FIVE)
    state.apply(Bid.PASS)
    assert TableTipsPlayer().decide(_view(state)) is Bid.PASS  # 5.5 is not two over 5


def test_the_reference_player_goes_alone_sends_its_best_trump_and_keeps_its_aces():
    state = _deal({"N": "JH JD AH 9H AS 9C", "E": "TS JS QS KS 9D TD",
                                  "S": "KH QH TH QD KD AD", "W": "JC QC KC AC TC 9S"}, "W")
    state.apply(Bid.FIVE)
    _auction_to(state, Seat.N)
    state.apply(Trump.H)
    assert TableTipsPlayer().decide(_view(state)) is Mode.EXCHANGE
    state.apply(Mode.EXCHANGE)
    # North discards its lowest card outside trumps, never the ace: the 9♣.
    assert TableTipsPlayer().decide(_view(state)) == Card.parse("9C")
    state.apply(Card.parse("9C"))
    assert TableTipsPlayer().decide(_view(state)) == Card.parse("KH")  # South's best trump


def test_the_reference_player_defends_only_with_a_trick_in_sight():
    state = _deal({"N": "JH JD AH 9H AS 9C", "E": "TS JS QS KS 9D TD",
                                  "S": "KH QH TH QD KD AD", "W": "JC QC KC AC TC 9S"}, "W")
    state.apply(Bid.FIVE)
    _auction_to(state, Seat.N)
    state.apply(Trump.H)
    state.apply(Mode.PARTNER)
    assert state.phase is Phase.DEFENSE
    seat = state.to_act
    view = _view(state)
    sees = any(c.rank.name == "ACE" for c in view.hand)
    expected = Defense.PLAY if sees else Defense.SURRENDER
    assert TableTipsPlayer().decide(view) is expected, (seat, view.hand)


@pytest.mark.parametrize("rules", ["standard", "simple"])
def test_reference_players_play_whole_hands_legally(rules):
    for i in range(150):
        state = HandState.deal(rules, Seat(i % 4), random.Random(i))
        players = [TableTipsPlayer() for _ in range(4)]

        def legal(state: HandState, action: object) -> None:
            assert action in state.legal_actions()

        play_hand(state, players, on_decision=legal)
        assert state.is_terminal()


# ---- the ceiling --------------------------------------------------------------------------


def _ceiling_table(state: HandState) -> list[CeilingPlayer]:
    players = [CeilingPlayer() for _ in range(4)]
    for p in players:
        p.see(state)
    return players


def test_the_ceiling_plays_a_double_dummy_best_card_at_every_turn():
    for i in range(4):
        state = HandState.deal("standard", Seat(i), random.Random(100 + i))
        players = _ceiling_table(state)

        def best(state: HandState, action: object) -> None:
            if state.phase is Phase.PLAY and len(state.legal_actions()) > 1:
                mine = state.rules.side_of(state.to_act)
                side = [s for s in state.seats if state.rules.side_of(s) == mine]
                assert action in solve_state(state, side).best_cards

        play_hand(state, players, on_decision=best)
        assert state.is_terminal()


def test_the_ceiling_surrenders_to_a_sweep_and_plays_against_a_set():
    # North holds every top heart and both black aces' worth of tricks: six tricks on
    # any play. The defenders lose the bid's 4 by playing, nothing by surrendering.
    hands = {"N": "JH JD AH KH QH AS", "E": "9S TS 9C TC 9D TD",
             "S": "QS KS QC KC QD KD", "W": "JS JC AC AD 9H TH"}
    state = _deal(hands, "W")
    state.apply(Bid.FOUR)
    _auction_to(state, Seat.N)
    state.apply(Trump.H)
    state.apply(Mode.PARTNER)
    players = _ceiling_table(state)
    assert players[int(state.to_act)].decide(_view(state)) is Defense.SURRENDER
    # The same cards against a 6 no trump by East, who cannot take six: play.
    state = _deal(hands, "N")
    state.apply(Bid.SIX)  # East
    _auction_to(state, Seat.E)
    state.apply(Trump.NT)
    state.apply(Mode.PARTNER)
    players = _ceiling_table(state)
    assert players[int(state.to_act)].decide(_view(state)) is Defense.PLAY


def test_the_ceiling_bids_a_contract_its_side_makes_on_the_real_cards():
    hands = {"N": "JH JD AH KH QH AS", "E": "9S TS 9C TC 9D TD",
             "S": "QS KS QC KC QD KD", "W": "JS JC AC AD 9H TH"}
    state = _deal(hands, "W")
    players = _ceiling_table(state)
    call = players[0].decide(_view(state))
    # North takes all six in hearts with partner, or alone: a pepper is worth most.
    assert call in (Bid.LITTLE_PEPPER, Bid.BIG_PEPPER)


def test_the_ceiling_refuses_a_hand_it_was_not_shown():
    state = HandState.deal("standard", "W", 1)
    with pytest.raises(ValueError, match="shown"):
        CeilingPlayer().decide(_view(state))
    with pytest.raises(ValueError, match="partnerships"):
        CeilingPlayer().see(HandState.deal("cutthroat", None, 1))


# ---- the ladder bench -------------------------------------------------------------------


def test_the_ladder_pairs_every_level_the_stronger_first():
    pairs = ladder.pairings()
    assert len(pairs) == 10 and set(pairs) == {(b, a) for i, a in enumerate(LADDER)
                                               for b in LADDER[i + 1:]}
    assert ladder.pairings(["ceiling", "reference"]) == [("ceiling", "reference")]


def test_a_short_ladder_is_the_same_in_this_process_and_on_a_pool_and_writes_its_page(
        tmp_path, capsys):
    pairs = [("reference", "beginner"), ("ceiling", "reference")]
    here = ladder.ladder(pairs, 6, 3, executor=None)
    pooled = ladder.ladder(pairs, 6, 3, executor="local:2")
    assert [r.pairing for r in here] == [r.pairing for r in pooled]
    ceiling = here[1].pairing
    assert ceiling.mean > 0  # all-seeing against table tips, on the same cards
    out = tmp_path / "ladder.md"
    ladder.main(["--deals", "4", "--slow-deals", "3", "--pairs",
                 "reference:beginner,ceiling:beginner", "--executor", "local", "--docs",
                 str(out)])
    text = out.read_text(encoding="utf-8")
    # The ceiling's pairing plays --slow-deals, the others --deals; the page says both.
    assert "| reference | beginner | 4 |" in text and "| ceiling | beginner | 3 |" in text
    assert "--deals 4 --slow-deals 3" in text
    assert "(its load average at the end: " in text  # every pairing played by this run
    # and the ceiling's pairings may be given a count of their own
    ladder.main(["--deals", "4", "--slow-deals", "3", "--ceiling-deals", "2", "--pairs",
                 "expert:beginner,ceiling:beginner", "--executor", "local", "--docs",
                 str(out)])
    text = out.read_text(encoding="utf-8")
    assert "| expert | beginner | 3 |" in text and "| ceiling | beginner | 2 |" in text
    assert "--deals 4 --slow-deals 3 --ceiling-deals 2" in text
    assert "club ahead of reference by at least 0.5 a hand: not played" in text
    assert "written:" in capsys.readouterr().out


def test_a_stopped_ladder_resumes_from_its_records_playing_only_what_is_missing(
        tmp_path, capsys, monkeypatch):
    records = tmp_path / "ladder.jsonl"
    args = ["--deals", "4", "--seed", "5", "--pairs", "reference:beginner,club:beginner",
            "--executor", "local", "--records", str(records)]
    ladder.main([*args[:5], "reference:beginner", *args[6:]])  # the run that was stopped
    first = capsys.readouterr().out
    kept = ladder.read_records(str(records))
    assert list(kept) == [("reference", "beginner", 4, 5, "standard",
                           ladder.players_fingerprint())]
    played = []
    real = ladder.duplicate

    def counting(first: str, second: str, *rest, **named):  # type: ignore[no-untyped-def]
        played.append((first, second))
        return real(first, second, *rest, **named)

    monkeypatch.setattr(ladder, "duplicate", counting)
    out = tmp_path / "ladder.md"
    ladder.main([*args, "--docs", str(out)])
    assert played == [("club", "beginner")]  # the recorded pairing is not played again
    said = capsys.readouterr().out
    ref = next(line for line in first.splitlines() if "reference vs beginner" in line)
    assert ref.split("(")[0] in said and f"from {records}" in said
    assert len(ladder.read_records(str(records))) == 2
    text = out.read_text(encoding="utf-8")
    assert "| reference | beginner | 4 |" in text and "| club | beginner | 4 |" in text
    # the page does not give this run's load for a pairing an earlier run played
    assert "1 of the 2 were played by earlier runs" in text and "load average" not in text
    # another seed or deal count is another match: nothing is taken from the records
    played.clear()
    ladder.main([*args[:3], "6", *args[4:]])
    assert played == [("reference", "beginner"), ("club", "beginner")]
    # and so are other players: what was recorded before their code changed is played again
    played.clear()
    monkeypatch.setattr(ladder, "players_fingerprint", lambda: "other players")
    ladder.main(args)
    assert played == [("reference", "beginner"), ("club", "beginner")]


def test_a_records_file_that_is_not_the_ladders_is_refused_by_name_and_line(tmp_path, capsys):
    records = tmp_path / "ladder.jsonl"
    records.write_text('{"first": "club"}\n', encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        ladder.main(["--deals", "2", "--pairs", "reference:beginner", "--records",
                     str(records)])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"{records}, line 1: expected a pairing's record" in err


def test_the_goals_are_met_only_by_the_margin_with_the_interval_above_zero():
    from pepper_tutor.bench.tournament import Pairing

    def rung(first, second, mean, low):
        return ladder.Rung(Pairing(first, second, 100, mean, low, 2 * mean - low), 1.0)

    met, short, wide = (ladder.goals([rung("club", "reference", m, lo)])[0]
                        for m, lo in ((0.6, 0.1), (0.4, 0.1), (0.6, -0.1)))
    assert met.met and not short.met and not wide.met
    assert "NOT met" in str(short)


def test_the_ladder_refuses_a_level_it_does_not_know(capsys):
    with pytest.raises(SystemExit):
        ladder.main(["--levels", "club,grandmaster"])
    assert "grandmaster" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ladder.main(["--pairs", "club:reference:expert"])
    assert "--pairs: club:reference:expert is not two of" in capsys.readouterr().err


@pytest.mark.slow
def test_a_short_ladder_is_the_same_on_a_dask_local_cluster():
    pytest.importorskip("distributed")
    # The club player samples its decisions: its seeds, too, come from the deal alone.
    pairs = [("reference", "beginner"), ("ceiling", "reference"), ("club", "reference")]
    assert ([r.pairing for r in ladder.ladder(pairs, 4, 9, executor="dask-local:2")]
            == [r.pairing for r in ladder.ladder(pairs, 4, 9, executor="local")])
