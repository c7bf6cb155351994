"""The practice table: the coach on positions with known best choices, the table core
(take-back, replay, records, history) and the unattended command line."""

from __future__ import annotations

import sqlite3

import pytest

from pepper_tutor.analysis.grading import THRESHOLDS, Grade, grade_for_loss
from pepper_tutor.apps.cli import main
from pepper_tutor.engine.calls import Bid, Defense, Mode, Trump
from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.state import HandState, Phase
from pepper_tutor.records.annotate import annotate, annotate_file
from pepper_tutor.records.hand_record import load_record
from pepper_tutor.teaching.practice.coach import coach_decision, grade_from_note
from pepper_tutor.teaching.practice.history import HistoryUnreadable, TableHistory
from pepper_tutor.teaching.practice.table import PracticeTable

C = Card.parse
ERRORS = (Grade.MISTAKE, Grade.BLUNDER)


def _state(hands: dict[str, str], dealer: str, actions: list[object]) -> HandState:
    state = HandState.from_hands({s: h.split() for s, h in hands.items()}, dealer=dealer)
    for a in actions:
        state.apply(a)  # type: ignore[arg-type]
    return state


# ---- the coach on positions whose best choice is known ------------------------------------


def test_both_bowers_and_ace_king_bid_high_and_a_pass_is_a_blunder():
    state = _state({"N": "JH JD AH KH AS 9C", "E": "QH TH 9H AC KC QC",
                    "S": "TS 9S QS KS JS JC", "W": "AD KD QD TD 9D TC"}, "W", [])
    passed = coach_decision(state, Bid.PASS, samples=30, seed=1)
    assert passed.grade in ERRORS
    assert isinstance(passed.best, Bid) and passed.best >= Bid.FOUR  # bid high
    assert "both bowers and the A♥ K♥" in passed.reason
    assert passed.loss > 0 and passed.low <= passed.loss <= passed.high
    best = coach_decision(state, passed.best, samples=30, seed=1)
    assert best.grade is Grade.BEST and best.loss == 0


def test_trumping_a_partners_winning_trick_is_a_mistake_and_the_reason_says_so():
    # West leads 9♥, North (South's partner) wins with J♥ so far, East follows; South is
    # void in hearts and last to play. Spades are trumps.
    state = _state({"S": "JS 9C KC AD KD QD", "W": "9H AH AS JC QS 9S",
                    "N": "JH KH TC QC AC 9D", "E": "TH QH KS TS TD JD"}, "S",
                   [Bid.FOUR, Bid.PASS, Bid.PASS, Bid.PASS, Trump.S, Mode.PARTNER,
                    Defense.PLAY, C("9H"), C("JH"), C("TH")])
    assert state.to_act is not None and state.to_act.word == "South"
    trumped = coach_decision(state, C("JS"), samples=30, seed=1)
    assert trumped.grade in ERRORS
    assert "You trumped your partner's winner, the J♥" in trumped.reason
    assert "lets it stand and keeps the J♠ (the right bower)" in trumped.reason
    assert trumped.kind == "defence"
    # A club and a diamond discard are worth the same (within 0.07 of a point over 300
    # deals, whichever set of deals): 30 deals can put 0.3 between them, so ask of 100.
    assert coach_decision(state, C("9C"), samples=100, seed=1).grade is Grade.BEST


def test_discarding_a_trump_instead_of_the_lone_loser_is_a_blunder():
    state = _state({"S": "JH JD AH KH QH 9S", "W": "9H TH AS JC QS KS",
                    "N": "TS JS TC QC AC 9D", "E": "9C KC AD KD QD TD"}, "E",
                   [Bid.LITTLE_PEPPER, Bid.PASS, Bid.PASS, Bid.PASS, Trump.H, Mode.EXCHANGE])
    assert state.phase is Phase.DISCARD
    kept_loser = coach_decision(state, C("QH"), samples=30, seed=1)
    assert kept_loser.grade in ERRORS
    assert kept_loser.kind == "exchange"
    assert "You discarded the Q♥ (a trump) and kept the lone 9♠" in kept_loser.reason
    assert coach_decision(state, C("9S"), samples=30, seed=1).grade is Grade.BEST


def test_the_only_legal_choice_is_not_graded():
    state = _state({"S": "JH JD AH KH QH 9S", "W": "9H TH AS JC QS KS",
                    "N": "TS JS TC QC AC 9D", "E": "9C KC AD KD QD TD"}, "E",
                   [Bid.BIG_PEPPER])
    verdict = coach_decision(state, Bid.PASS)
    assert verdict.forced and verdict.grade is Grade.BEST and verdict.samples == 0


def test_grade_thresholds_are_ordered_and_read_back_from_notes():
    bounds = [b for b, _ in THRESHOLDS]
    assert bounds == sorted(bounds)
    assert [grade_for_loss(x) for x in (0, 0.2, 0.5, 1, 10)] == list(Grade)
    for g in Grade:
        assert grade_from_note(f"{g}: whatever follows") is g
    assert grade_from_note("a note someone wrote") is None


# ---- the table core ---------------------------------------------------------------------


def _table(tmp_path, **kw) -> PracticeTable:
    kw.setdefault("coach_samples", 6)
    return PracticeTable(seed=kw.pop("seed", 11), level=kw.pop("level", "beginner"),
                         save_dir=tmp_path / "hands", history=TableHistory(tmp_path / "h.sqlite"),
                         **kw)


def _play_out(table: PracticeTable) -> None:
    while not table.hand_over:
        table.act(table.legal()[0])


def test_an_illegal_action_gets_the_verdict_and_changes_nothing(tmp_path):
    table = _table(tmp_path)
    before = list(table.state.history)
    result = table.act("a card is not a call")
    assert not result.verdict.legal and result.coach is None
    assert result.verdict.rule_ids and result.verdict.alternatives
    assert table.state.history == before


def test_take_back_and_replay_from_a_decision_keep_the_cards(tmp_path):
    table = _table(tmp_path)
    deal = {s: table.state.dealt(s) for s in table.state.seats}
    first = table.legal()[0]
    at = len(table.state.history)
    result = table.act(first)
    assert result.coach is not None
    taken = table.take_back()
    assert taken.action == first and len(table.state.history) == at and table.learner_to_act
    assert not table.learner_decisions
    _play_out(table)
    mine = len(table.learner_decisions)
    assert mine >= 2
    table.replay_from(2)
    assert len(table.learner_decisions) == 1 and table.learner_to_act
    assert {s: table.state.dealt(s) for s in table.state.seats} == deal
    with pytest.raises(ValueError, match="no decision 9"):
        table.replay_from(9)


def test_a_played_hand_saves_a_record_that_annotate_reads_with_the_same_grades(tmp_path):
    table = _table(tmp_path)
    _play_out(table)
    graded = table.graded()
    assert graded
    result = table.next_hand()
    assert result.number == 1
    path = table.saved[0]
    record = load_record(path)
    annotation = annotate(record)
    read: list[tuple[str, str | None, Grade | None]] = []
    for call in annotation.auction:
        if call.note:
            read.append((str(call.call), call.glyph, grade_from_note(call.note)))
    for where, note in annotation.notes:
        read.append((where, None, grade_from_note(note)))
    for trick in annotation.tricks:
        for pc in trick.cards:
            if pc.note:
                read.append((str(pc.card), pc.glyph, grade_from_note(pc.note)))
    assert [g for _, _, g in read] == [d.coach.grade for d in graded if d.coach]
    glyphs = [x for _, x, _ in read if x]
    assert glyphs == [d.coach.grade.glyph for d in graded if d.coach and d.coach.grade.glyph
                      and d.phase in (Phase.AUCTION, Phase.PLAY)]
    # the record plays back to the same result, and the history has the hand
    assert annotate_file(path).score == dict(result.points)
    rows = table.history.hands() if table.history else []
    assert len(rows) == 1 and rows[0].record == str(path)
    figures = table.history.figures() if table.history else []
    assert {f.kind for f in figures} <= {"bidding", "exchange", "defence", "play"}
    assert sum(f.decisions for f in figures) == len(graded)


def test_the_review_puts_the_worst_decisions_first(tmp_path):
    table = _table(tmp_path, seed=3)
    _play_out(table)
    review = table.review()
    losses = [d.coach.loss for d in review.worst if d.coach]
    assert losses == sorted(losses, reverse=True)
    assert all(d.coach and d.coach.grade.is_error for d in review.worst)
    assert len(review.tricks) == len(table.state.tricks)
    assert "graded" in review.summary


def test_a_damaged_history_is_set_aside_like_every_store(tmp_path):
    bad = tmp_path / "table.sqlite"
    junk = b"not a database, but somebody's file" * 100
    bad.write_bytes(junk)
    history = TableHistory(bad)
    assert history.warning and "kept as" in history.warning and str(tmp_path) in history.warning
    (aside,) = tmp_path.glob("table.sqlite.damaged-*")
    assert aside.read_bytes() == junk  # kept byte for byte
    assert history.add_hand("standard", "S", "club", "North 4", 4, []) is not None
    assert len(TableHistory(bad).hands()) == 1


def test_a_newer_history_is_left_alone(tmp_path):
    path = tmp_path / "table.sqlite"
    TableHistory(path).add_hand("standard", "S", "club", "North 4", 4, [])
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(HistoryUnreadable, match="newer pepper-tutor"):
        TableHistory(path)
    assert path.read_bytes() == before


def test_the_history_is_written_one_hand_per_transaction(tmp_path):
    history = TableHistory(tmp_path / "h.sqlite")
    with pytest.raises(ValueError):
        history.add_hand("standard", "S", "club", "North 4", 4,
                         [("play", "AS", "Best", 0.0), ("play", "AS")])  # type: ignore[list-item]
    assert history.hands() == []  # the failed hand left nothing behind
    history.add_hand("standard", "S", "club", "North 4", 4, [("play", "AS", "Mistake", 2.0),
                                                             ("play", "9C", "Best", 0.0)])
    (play,) = history.figures()
    assert (play.kind, play.decisions, play.points_lost, play.errors) == ("play", 2, 1.0, 1)


def test_play_auto_writes_graded_records(tmp_path, capsys):
    out = tmp_path / "auto"
    code = main(["play", "--auto", "--seed", "4", "--hands", "2", "--save", str(out),
                 "--samples", "5", "--level", "beginner"])
    assert code == 0
    files = sorted(out.glob("*.yaml"))
    assert len(files) == 2
    text = capsys.readouterr().out
    assert "Hand 1:" in text and "Hand 2:" in text and "decisions graded" in text
    notes = [pc.note for f in files for t in annotate_file(f).tricks for pc in t.cards
             if pc.note] + [c.note for f in files for c in annotate_file(f).auction if c.note]
    assert notes and all(grade_from_note(n) is not None for n in notes)


def test_play_history_shows_the_figures(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    assert main(["play", "--history"]) == 0
    assert "No hands in your history yet" in capsys.readouterr().out
    TableHistory().add_hand("standard", "S", "club", "North 4 in hearts with partner", 4,
                            [("play", "AS", "Mistake", 1.0), ("bidding", "4", "Best", 0.0)])
    assert main(["play", "--history"]) == 0
    out = capsys.readouterr().out
    assert "North 4" in out and "1.00" in out and "0.50" in out and "bidding" in out


def test_play_rejects_bad_arguments(capsys):
    assert main(["play", "--seat", "Q"]) == 2
    assert "not a seat" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:  # a usage error, as analyse --samples 0 is
        main(["play", "--auto", "--hands", "0"])
    assert usage.value.code == 2
    assert "--hands" in capsys.readouterr().err
    assert main(["play", "--rules", "cutthroat", "--seat", "W", "--auto"]) == 2
    assert "not at a 3-player table" in capsys.readouterr().err


# ---- seats, the exchange, hints and resuming a match ----------------------------------------


def _until(table: PracticeTable, done, limit: int = 60) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        if done(table) or table.hand_over:
            return
        table.act(table.legal()[0])


def test_the_seats_mark_you_your_partner_the_opponents_and_the_trick(tmp_path):
    # Seed 4: a hand the learner plays in (with seed 3 partner North now goes alone with the
    # exchange, as the analysis says, and South sits out the whole hand).
    table = PracticeTable(seed=4, coach=False, history=TableHistory(tmp_path / "h.sqlite"))
    seats = {v.seat.word: v for v in table.seats_view()}
    assert [seats[w].role for w in ("North", "East", "South", "West")] == \
        ["partner", "opponent", "you", "opponent"]
    assert seats["South"].name == "You" and seats["South"].to_act
    assert sum(v.to_act for v in seats.values()) == 1
    assert seats[table.state.dealer.word].dealer
    _until(table, lambda t: bool(t.state.current_trick) and t.learner_to_act)
    cards = {v.seat: v.card for v in table.seats_view() if v.card is not None}
    assert cards == dict(table.state.current_trick)  # each card at its seat


def test_the_bidder_alone_is_told_which_card_partner_sent(tmp_path):
    table = PracticeTable(seed=3, coach=False, history=False)
    assert table.exchange_text() is None
    table.act(Bid.LITTLE_PEPPER)  # South holds five spades: alone, with an exchange
    _until(table, lambda t: t.state.passed is not None)
    sent = table.state.passed
    assert sent is not None and sent in table.state.hand(table.seat)
    assert table.exchange_text() == (f"North (partner) sent you the {sent.display}; you "
                                     f"discarded the {table.state.discard.display}.")  # type: ignore[union-attr]


def test_a_hint_suggests_the_best_choice_and_that_decision_is_not_graded(tmp_path):
    history = TableHistory(tmp_path / "h.sqlite")
    table = PracticeTable(seed=3, coach=True, coach_samples=8, history=history)
    hint = table.hint()
    assert not hint.forced and hint.best in table.legal()
    assert hint.text.startswith("The coach suggests ") and "Worth: " in hint.reason
    result = table.act(hint.best)
    assert result.coach is None and table.learner_decisions[0].hinted
    assert table.grade_last() is None  # the coach does not grade its own advice
    table.coach = False
    _until(table, lambda t: False)
    table.next_hand()
    (row,) = history.hands()
    graded = table.learner_decisions  # the new hand's: none yet
    assert graded == [] and row.decisions == 0  # the hinted call is not in the history


def test_a_match_resumes_with_its_totals_hands_and_the_hand_in_progress(tmp_path):
    path = tmp_path / "h.sqlite"
    table = PracticeTable(seed=3, coach=False, history=TableHistory(path))
    _until(table, lambda t: False)
    table.next_hand()
    totals = dict(table.match.totals)
    assert any(totals.values())
    table.act(table.legal()[0])
    saved = TableHistory(path).unfinished_match("standard")
    assert saved is not None and saved.hands == 1 and saved.totals == totals
    again = PracticeTable.resume(saved, coach=False, history=TableHistory(path))
    assert again.match.totals == totals and again.hand_number == 2
    assert again.match.dealer == table.match.dealer
    assert again.state.history == table.state.history
    assert again.state.hand(again.seat) == table.state.hand(table.seat)
    _until(again, lambda t: False)
    assert again.next_hand().number == 2  # numbered on from the hands counted before
    assert len(TableHistory(path).match_hands(saved.id)) == 2


def test_a_history_from_before_matches_opens_and_gains_them(tmp_path):
    path = tmp_path / "table.sqlite"
    con = sqlite3.connect(path)
    con.executescript(  # version 1: hands and decisions, the version row saying 1
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO meta VALUES ('schema', '1');"
        "CREATE TABLE hands (id INTEGER PRIMARY KEY, played_at TEXT NOT NULL, rules TEXT NOT "
        "NULL, seat TEXT NOT NULL, level TEXT NOT NULL, contract TEXT NOT NULL, points INTEGER "
        "NOT NULL, record TEXT);"
        "CREATE TABLE decisions (hand_id INTEGER NOT NULL REFERENCES hands(id), kind TEXT NOT "
        "NULL, action TEXT NOT NULL, grade TEXT NOT NULL, loss REAL NOT NULL);"
        "INSERT INTO hands VALUES (1, '2026-01-01T00:00:00+00:00', 'standard', 'S', 'club', "
        "'North 4', 4, NULL);")
    con.close()
    history = TableHistory(path)
    assert history.warning is None and len(history.hands()) == 1
    assert history.unfinished_match() is None
    table = PracticeTable(seed=3, coach=False, history=history)
    table.act(table.legal()[0])
    assert history.unfinished_match() is not None
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("2",)


def test_a_hint_between_two_equal_choices_says_both_are_as_good():
    table = PracticeTable(seed=3, level="beginner", coach=False, coach_samples=8,
                          history=False)
    table.act(Bid.PASS)  # North plays alone: South sends a card, and two are worth the same
    assert table.state.phase is Phase.SEND
    hint = table.hint()
    assert "is as good here" in hint.best_label
    assert hint.best in table.legal()
