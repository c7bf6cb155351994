"""The screened drill positions: still what the analysis says, dealt without waiting, varied,
and balanced between play and surrender in the defend drill."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pepper_tutor.engine.calls import Defense
from pepper_tutor.engine.rules import get_ruleset
from pepper_tutor.teaching.drills import screened
from pepper_tutor.teaching.drills.positions import (
    JUDGEMENT_DRILLS,
    MARGIN,
    TARGETS,
    answer_class,
    clear_best,
    defend_drill,
    scorings,
    table_words,
)
from pepper_tutor.teaching.drills.quiz import QuizSession
from pepper_tutor.teaching.drills.screened import PRESETS, ScreenedPool, load_screened, step_of

DATA = load_screened()

REGENERATE = ("the screened drill file is stale: run "
              "python -m pepper_tutor.teaching.drills.screened "
              "(see its 'made' entry) and commit pepper_tutor/data/screened-drills.json")


def _sample(k: int = 1) -> list[tuple[str, str, dict]]:
    """A few entries of every kind, preset and scoring named (the same few on every run):
    each is analysed again under the rules its header names."""
    rng = random.Random(13)
    out = []
    for preset in PRESETS:
        for kind in JUDGEMENT_DRILLS:
            by_scoring: dict[str, list[dict]] = {}
            for e in DATA["positions"][preset][kind]:
                by_scoring.setdefault(get_ruleset(e["rules"]).name, []).append(e)
            for scoring in sorted(by_scoring):
                out += [(preset, kind, e) for e in rng.sample(by_scoring[scoring], k)]
    return out


def test_the_file_holds_every_kind_under_every_preset_and_says_how_it_was_made():
    made = DATA["made"]
    assert made["command"].startswith("python -m pepper_tutor.teaching.drills.screened --per-kind ")
    assert "random.Random(" in made["seeds"] and "clear_best" in made["screening"]
    for preset in PRESETS:
        for kind in JUDGEMENT_DRILLS:
            entries = DATA["positions"][preset][kind]
            assert len(entries) >= 20, (preset, kind)
            hands = [json.dumps({k: v for k, v in e.items() if k != "analysis"}) for e in entries]
            assert len(set(hands)) == len(hands)  # every position once


@pytest.mark.parametrize(("preset", "kind", "entry"), _sample(),
                         ids=lambda x: x if isinstance(x, str) else x["hand"])
def test_a_cached_position_still_separates_the_answer_it_claims(preset, kind, entry):
    """Analysed afresh: the same answers clearly best, by the same figures the file stores."""
    fresh = step_of(entry, analyse=True)  # raises when the analysis finds it no longer clear
    assert fresh.rules == get_ruleset(entry["rules"])  # analysed under the rules it names
    assert [str(a) for a in fresh.accept] == entry["accept"], REGENERATE
    top = clear_best(fresh)
    assert top is not None
    runner = next(v for v in fresh.valued() if v.answer not in fresh.accept)
    assert top[-1].worth.mean - runner.worth.mean >= MARGIN
    stored = step_of(entry)  # settled from the stored analysis: the same step
    assert stored.accept == fresh.accept and stored.reason == fresh.reason, REGENERATE
    for mine, now in zip(stored.valued(), fresh.valued(), strict=True):
        assert mine.answer == now.answer, REGENERATE
        assert mine.worth.mean == pytest.approx(now.worth.mean, abs=1e-3), REGENERATE
    wrong = runner.answer
    fb = stored.judge(wrong)  # the reason about that very option, from the stored figures
    assert not fb.correct and stored.choice_words(wrong) in fb.text


def test_a_drill_session_deals_screened_positions_first_without_repeats():
    quiz = QuizSession("bid", seed=1)
    assert quiz.screened is not None
    total = len(quiz.screened) + 1
    cached = {json.dumps(e["hand"]) for e in DATA["positions"]["standard"]["bid"]}
    seen = []
    for _ in range(8):
        q = quiz.question
        assert q is not None and q.accept
        assert json.dumps(" ".join(str(c) for c in q.hand)) in cached  # type: ignore[attr-defined]
        seen.append(q.identity)
        quiz.next_question()
    assert len(set(seen)) == len(seen)
    assert len(quiz.screened) == total - 9
    other = QuizSession("bid", seed=2)  # another learner: another order
    assert other.question is not None and other.question.identity != seen[0]


def test_when_the_screened_positions_run_out_the_drill_deals_live_ones():
    quiz = QuizSession("defend", seed=4)
    assert quiz.screened is not None
    last = next(g for g in quiz.screened.groups.values() if g)[0]
    quiz.screened.groups = {"": [last]}  # one left
    assert quiz.next_question().hand == step_of(last).hand  # type: ignore[attr-defined]
    live = quiz.next_question()
    assert live.accept and len(quiz.screened) == 0  # type: ignore[attr-defined]


def test_rule_sets_without_screened_positions_are_dealt_live():
    assert ScreenedPool.for_drill("bid", get_ruleset("standard", dirty_clubs=True),
                                  random.Random(1)) is None
    assert ScreenedPool.for_drill("tricks", get_ruleset("standard"), random.Random(1)) is None
    assert screened.screened_count("declare", get_ruleset("simple")) >= 20


def test_defend_drills_ask_for_play_and_for_surrender_about_equally():
    answers = Counter()
    for seed in range(40):  # screened positions, as learners get them
        quiz = QuizSession("defend", seed=seed)
        assert quiz.question is not None
        answers[quiz.question.accept[0]] += 1  # type: ignore[attr-defined]
    assert min(answers[Defense.PLAY], answers[Defense.SURRENDER]) >= 0.25 * 40, answers
    live = Counter(defend_drill(random.Random(s), 1, get_ruleset("standard")).accept[0]
                   for s in range(12))  # type: ignore[attr-defined]
    assert min(live[Defense.PLAY], live[Defense.SURRENDER]) >= 0.25 * 12, live


def test_a_surrender_position_says_its_scoring():
    standard = get_ruleset("standard")
    for seed in range(3):
        step = defend_drill(random.Random(seed), 1, standard, want="surrender")
        assert step.accept == (Defense.SURRENDER,)  # type: ignore[attr-defined]
        assert step.rules in scorings("defend", standard)
        assert step.prompt.startswith(table_words(step.rules))
        # The scoring rule that makes the surrender right: the sweep, or simple's trick points.
        assert ("score.sweep" if step.rules == standard else "score.surrender") in step.rule_ids


def test_the_build_aims_at_every_answer_under_every_scoring_alike():
    """Not the shipped file: how it is made. Each class a kind aims at comes under each
    scoring equally, the scorings in the preset's proportion (2 to 1)."""
    for kind, targets in TARGETS.items():
        for preset in PRESETS:
            tables = scorings(kind, get_ruleset(preset))
            runs = [screened.aim(kind, preset, i) for i in range(3 * max(1, len(targets)))]
            count = Counter((rules.name, want) for rules, want in runs)
            if len(tables) == 1:  # defend: the sweep rule only (positions.scorings says why)
                assert {rules for rules, _ in runs} == set(tables)
                assert len({count[tables[0].name, want] for want in targets}) == 1
                continue
            other = tables[-1]
            for want in targets or (None,):
                assert count[tables[0].name, want] == 2 * count[other.name, want] >= 2


def test_a_tiny_build_balances_each_scoring_and_states_it(tmp_path):
    data = screened.build(6, "fair", ["standard"], ["defend"])
    entries = data["positions"]["standard"]["defend"]
    by_scoring: dict[str, Counter[str]] = {}
    for e in entries:
        rules = get_ruleset(e["rules"])
        step = step_of(e)
        assert step.prompt.startswith(table_words(rules))
        by_scoring.setdefault(rules.name, Counter())[answer_class(step)] += 1
    # Under the sweep rule only: where a made bid scores every trick a surrender pays only
    # against a 1 or a 2, which the players never open with, so every answer there would be
    # "play" and the header naming the scoring would give it away. Either answer, equally.
    assert set(by_scoring) == {"standard"}
    swept = by_scoring["standard"]
    assert swept["play"] == swept["surrender"] >= 1, by_scoring


def test_the_command_writes_a_file_the_pool_reads(tmp_path):
    out = tmp_path / "screened.json"
    assert screened.main(["--per-kind", "2", "--kinds", "defend", "--presets", "standard",
                          "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["format"] == screened.FORMAT and "--per-kind 2" in data["made"]["command"]
    entries = data["positions"]["standard"]["defend"]
    assert {e["accept"][0] for e in entries} == {"play", "surrender"}  # even: play, odd: not
    for e in entries:
        assert step_of(e).accept == step_of(e, analyse=True).accept


@pytest.mark.parametrize("kind", ["declare", "exchange"])
def test_judgement_drills_deal_under_simple_rules(kind):
    """Simple Pepper's bids stop at 5: a drill's bid comes from the rules' own ladder."""
    from pepper_tutor.teaching.drills.quiz import make_question

    simple = get_ruleset("simple")
    step = make_question(kind, random.Random(3), 1, simple)
    assert step.bid in simple.ladder and not step.problems()  # type: ignore[attr-defined]


def test_an_entry_that_cannot_be_read_is_passed_over():
    good = DATA["positions"]["standard"]["exchange"][0]
    broken = {**good, "hand": "JH JH"}  # not six cards: its question cannot be built
    pool = ScreenedPool("exchange", random.Random(1), {"": [good, dict(good, kind="nope"),
                                                            broken]})
    step = pool.draw(1)
    assert step is not None and [str(a) for a in step.accept] == good["accept"]
    assert pool.draw(2) is None


def _tiny_build(**where) -> dict:
    data = screened.build(2, "exec", ["simple"], ["bid", "defend"], **where)
    data["made"].pop("seconds")  # the one figure that depends on where it ran
    return data


def test_a_tiny_build_is_the_same_in_this_process_and_on_the_default_executor():
    here = _tiny_build()
    assert here == _tiny_build(executor="local")
    assert [e["kind"] for e in here["positions"]["simple"]["defend"]] == ["defend"] * 2


@pytest.mark.slow
def test_a_tiny_build_is_the_same_on_a_dask_local_cluster():
    pytest.importorskip("distributed")
    assert _tiny_build(executor="dask-local:2") == _tiny_build(executor="local")


def test_the_command_takes_an_executor_or_jobs_not_both(capsys):
    with pytest.raises(SystemExit):
        screened.main(["--jobs", "2", "--executor", "local:2"])
    with pytest.raises(SystemExit):
        screened.main(["--executor", "ray"])
    assert "--executor ray" in capsys.readouterr().err
