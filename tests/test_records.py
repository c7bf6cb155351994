"""pepper-hand/1 records: loading, every kind of broken record, writing back."""

import random
from pathlib import Path

import pytest

from pepper_tutor.apps.cli import main
from pepper_tutor.records.annotate import annotate
from pepper_tutor.records.hand_record import LoadError, dump_record, load_record, parse_record

DATA = Path(__file__).parent / "data"
GOOD = (DATA / "design-example.yaml").read_text()


def broken(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


def problems(text: str | bytes) -> list[str]:
    with pytest.raises(LoadError) as err:
        parse_record(text, "hand.yaml")
    return [str(p) for p in err.value.problems]


def test_the_design_example_loads():
    record = parse_record(GOOD, "hand.yaml")
    assert str(record.dealer) == "W" and record.trump.value.name == "H"
    assert record.tricks[0][2].note == "East must follow trumps with the 9."


BROKEN = [
    ("N: [JD, AH,", "N: [JD, 8H,", 6, "'8H' is not a card"),
    ("E: [AS, QS,", "E: [JD, QS,", 7, "JD is dealt twice (to N and to E)"),
    ("S: [JH, TH, KH, AC, KC, AD]", "S: [JH, TH, KH, AC, KC]", 8, "S is dealt 5 cards"),
    ("auction: [pass, pass, 4, pass]", "auction: [pass, 5, 4, pass]", 10,
     "does not top it"),
    ("auction: [pass, pass, 4, pass]", "auction: [pass, pass, 7, pass]", 10, "7 is not a bid"),
    ("exchange: {discard: AC, passed: JD}", "exchange: {discard: KD, passed: JD}", 13,
     "South does not hold the K♦"),
    ("exchange: {discard: AC, passed: JD}", "exchange: {discard: AC, passed: JS}", 13,
     "North does not hold the J♠"),
    ("  - [JD, TC, 9S]\n  - [TH, QC, KD]\n  - [KH, JC, QD]\n  - [AD, JS, QS]",
     "  - [JD, QS, 9S]\n  - [TH, QC, KD]\n  - [KH, JC, QD]\n  - [AD, JS, TC]", 17,
     "QS: it is W's turn to play, but E holds it"),
    ("  - [KC, TS, AS]", "  - [AC, TS, AS]", 21, "AC was discarded in the exchange"),
    ("  - [TH, QC, KD]", "  - [TH, QC, 9H]", 18, "9H is played twice (trick 1 and trick 3)"),
    ("  - [KH, JC, QD]", "  - [KH, JC, QD, QH]", 19, "trick 4 has 4 cards; expected 3"),
    ("  - [KH, JC, QD]", "  - [KH, JC]", 19, "trick 4 has 2 cards; expected 3"),
    ("score_before:", "colour: red\nscore_before:", 23, "unknown key 'colour'"),
    ("score: {NS: 4, EW: -4}", "score: {NS: 6, EW: -4}", 22,
     "result.score.NS: the record says 6, the rules give 4"),
    ("tricks: {NS: 6, EW: 0}", "tricks: {NS: 5, EW: 1}", 22,
     "result.tricks.EW: the record says 1, the rules give 0"),
    ("trump: H", "trump: X", 11, "'X' is not a trump"),
    ("  - [KC, TS, AS]", "  - [KC, TS, AS", 22, "YAML syntax error"),
    ("dealer: W", "dealer: Q", 4, "'Q' is not a seat"),
    ("glyph: \"!\"", "glyph: \"!!!\"", 16, "glyph '!!!' is not one of"),
    ("defense: play", "defense: maybe", 14, "'maybe' is not a defence"),
    ("mode: exchange", "mode: exchange\nx-teacher: fine to add", 0, ""),
]


@pytest.mark.parametrize("old,new,line,message", BROKEN)
def test_each_problem_names_its_line(old, new, line, message):
    text = broken(old, new)
    if not message:
        parse_record(text, "hand.yaml")  # x- keys are allowed
        return
    found = problems(text)
    assert any(message in p and p.startswith(f"hand.yaml:{line}:") for p in found), found


@pytest.mark.parametrize("old,new,line,message", [c for c in BROKEN if c[3]])
def test_each_problem_exits_2_from_the_command_line(tmp_path, capsys, old, new, line, message):
    path = tmp_path / "hand.yaml"
    path.write_text(broken(old, new))
    assert main(["annotate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{line}:" in err and message in err and "Traceback" not in err


def test_every_problem_is_reported_at_once():
    text = broken("N: [JD, AH,", "N: [JD, 8H,").replace("trump: H", "trump: X").replace(
        "score_before:", "colour: red\nscore_before:")
    found = problems(text)
    assert len(found) == 3
    assert [int(p.split(":")[1]) for p in found] == sorted(int(p.split(":")[1]) for p in found)


GARBAGE = [
    (b"", "the file is empty"),
    (b"\xff\xfe\x00garbage\x81", "not UTF-8"),
    (b"\x00\x01\x02", "binary data"),
    ("[" * 200 + "]" * 200, "nested more than"),
    ("x" * 1_100_000, "at most 1,000,000"),
    ("- just\n- a list\n", "expected a mapping"),
    ("format: pepper-hand/2\n", "format must be pepper-hand/1"),
    ("a: &a [1,2,3,4,5,6,7,8,9]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
     "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
     "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n", "aliases"),
    ("!!python/object/apply:os.system ['echo hi']\n", "is not allowed"),
]


@pytest.mark.parametrize("raw,message", GARBAGE)
def test_garbage_is_refused_cleanly(raw, message):
    found = problems(raw)
    assert any(message in p for p in found), found


@pytest.mark.parametrize("text,message", [
    ("!!python/object/apply:os.system ['echo hi']\n", "is not allowed"),
    (GOOD.replace("trump: H", "trump: [H"), "YAML syntax error"),
])
def test_cli_exits_2_with_file_line_and_no_traceback(tmp_path, capsys, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert main(["annotate", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and f"{path}:" in err and "Traceback" not in err


def test_missing_file_exits_2(capsys):
    assert main(["annotate", "/nonexistent/hand.yaml"]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_round_trip_keeps_notes_glyphs_and_rule_ids():
    text = broken("  - [JD, TC, 9S]", "  - [{card: J♦, rule: rank.left-bower, glyph: '!!'}, "
                                      "10♣, 9s]")
    record = parse_record(text, "hand.yaml")
    out = dump_record(record)
    assert "J♦" not in out and "card: JD" in out and "rank.left-bower" in out
    again = parse_record(out, "again.yaml")
    assert dump_record(again) == out
    assert again.tricks[1][0].glyph == "!!" and again.tricks[0][2].note == record.tricks[0][2].note
    assert again.meta == record.meta and again.score_before == {"NS": 30, "EW": 12}


def test_partial_records_load_as_far_as_they_go():
    cut = GOOD.split("  - [AD, JS, QS]")[0].replace("result:", "x-result:")
    record = parse_record(cut + "  - [AD, JS]\n", "partial.yaml")
    a = annotate(record)
    assert not a.complete and len(a.tricks) == 5 and not a.tricks[-1].complete
    assert a.score is None and a.made is None
    only_auction = "\n".join(GOOD.splitlines()[:10]) + "\n"
    a = annotate(parse_record(only_auction, "bid.yaml"))
    assert a.status.startswith("in progress") and a.bidder is not None and a.tricks == ()


def test_a_thrown_in_hand():
    text = "\n".join(GOOD.splitlines()[:9]) + "\nauction: [pass, pass, pass, pass]\n"
    a = annotate(parse_record(text, "thrown.yaml"))
    assert a.status == "thrown-in" and a.score is None and "thrown in" in a.contract_text()


def test_load_record_reads_files(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text(GOOD)
    assert load_record(path).file == str(path)


@pytest.mark.slow
def test_random_hands_round_trip_through_records():
    """Many random complete hands written as records and read back agree with the engine."""
    from pepper_tutor import HandState, get_ruleset
    from pepper_tutor.records.hand_record import record_from_state

    rng = random.Random(5)
    presets = [get_ruleset("standard"), get_ruleset("standard", dirty_clubs=True),
               get_ruleset("simple"), get_ruleset("cutthroat"),
               get_ruleset("cutthroat", players=2), get_ruleset("cutthroat", players=4)]
    for i in range(3000):
        rules = presets[i % len(presets)]
        state = HandState.deal(rules, rng.randrange(rules.players), rng)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        record = record_from_state(state, meta={"n": i})
        a = annotate(parse_record(dump_record(record), f"random-{i}.yaml"))
        assert [t.winner for t in a.tricks] == [t.winner for t in state.tricks]
        assert a.tricks_won == state.tricks_won()
        assert a.score == (state.score.points if state.score else None)
        assert not a.findings


@pytest.mark.parametrize("raw,message", GARBAGE)
def test_garbage_exits_2_from_the_command_line(tmp_path, capsys, raw, message):
    path = tmp_path / "hand.yaml"
    path.write_bytes(raw.encode() if isinstance(raw, str) else raw)
    assert main(["annotate", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and f"{path}:" in err and "Traceback" not in err


def test_the_replay_walks_the_record_in_order_once():
    from pepper_tutor.records.hand_record import Replay, Step, TrickEnd, record_to_state

    record = parse_record(GOOD, "hand.yaml")
    replay = Replay(record)
    events = list(replay)
    steps = [e.where for e in events if isinstance(e, Step)]
    assert steps[:7] == [("auction", 0), ("auction", 1), ("auction", 2), ("auction", 3),
                         ("trump",), ("mode",), ("exchange", "discard")]
    assert steps[7:9] == [("exchange", "passed"), ("defense",)]
    assert steps[9:] == [("tricks", t, i) for t in range(6) for i in range(3)]
    ends = [e for e in events if isinstance(e, TrickEnd)]
    assert [e.index for e in ends] == list(range(6)) and ends[0].leader.name == "S"
    assert all(e.trick is not None for e in ends)
    assert replay.stop is None and replay.state.is_terminal()
    assert record_to_state(record).score == replay.state.score
    with pytest.raises(RuntimeError):
        list(replay)


def test_without_the_deal_the_replay_passes_two_unknown_cards():
    from pepper_tutor.records.hand_record import Replay, Step

    text = "\n".join(line for line in GOOD.splitlines()
                     if not line.startswith(("deal:", "  N", "  E", "  S", "  W", "exchange",
                                             "tricks", "  -", "result")))
    replay = Replay(parse_record(text, "sheet.yaml"))
    steps = [e for e in replay if isinstance(e, Step)]
    assert [(s.where, s.entry) for s in steps[-3:-1]] == [(("exchange", "discard"), None),
                                                         (("exchange", "passed"), None)]
    assert steps[-1].where == ("defense",) and replay.stop is None
    assert str(replay.state.phase) == "play"


@pytest.mark.parametrize("cut,kind,where", [
    ("trump: H", "missing", ("trump",)),
    ("auction: [pass, pass, 4, pass]", "missing", ("auction",)),
])
def test_the_replay_stops_where_the_record_does(cut, kind, where):
    from pepper_tutor.records.hand_record import Replay

    text = GOOD.split(cut)[0]
    if cut.startswith("auction"):
        text += "auction: [pass, pass, 4]\n"
    replay = Replay(parse_record(text, "cut.yaml"))
    list(replay)
    assert replay.stop is not None and (replay.stop.kind, replay.stop.where) == (kind, where)
