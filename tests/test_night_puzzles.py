"""Game night's puzzle round: a puzzle of the shipped set asked to the room as a timed
question, answered from the phones, ranked on the projector."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pepper_tutor.apps.night.puzzle_round import pick_puzzle, puzzle_step, puzzle_themes
from pepper_tutor.apps.night.store import NightError, NightStore
from pepper_tutor.engine.cards import DECK
from pepper_tutor.render.puzzles import action_words, figures_words, layout_facts
from pepper_tutor.teaching.puzzles.bank import bank_puzzles

from .night_clients import JSON, host_client, player_client


def _theme_with_a_layout() -> str:
    """A theme of the shipped set whose first puzzle has a layout to show after a miss."""
    return next(p.theme for p in bank_puzzles() if p.layout)


def test_the_room_solves_a_puzzle_of_the_theme_and_the_projector_ranks_them(
        night_app: Any, night_store: NightStore) -> None:
    host, hcsrf = host_client(night_app, night_store)
    theme = _theme_with_a_layout()
    assert f'value="{theme}"' in host.get("/host").text  # the host's theme choice
    phones = {n: player_client(night_app, night_store, n) for n in ("Ann", "Bo", "Cy")}
    r = host.post("/quiz/ask", data={"csrf": hcsrf, "kind": "puzzle", "theme": theme,
                                     "level": "easy", "seconds": "30"}, headers=JSON)
    assert r.status_code == 200, r.text
    q = night_store.question()
    assert q is not None and q.kind == "puzzle" and q.puzzle is not None
    puzzle = next(p for p in bank_puzzles() if p.id == q.puzzle)
    assert puzzle.theme == theme
    legal = [str(a) for a in puzzle.position().legal_actions()]
    page = phones["Ann"][0].get("/part/quiz-phone").text
    offered = re.findall(r'name="answer" value="([^"]+)"', page)
    assert sorted(offered) == sorted(legal)  # the legal options, each a button
    assert "data-remaining" in page  # the timer
    right = puzzle.answers[0]
    wrong = next(a for a in legal if a not in puzzle.answers)
    illegal = (next(str(c) for c in DECK if str(c) not in legal)
               if puzzle.kind in ("play", "discard", "send") else "nonsense")
    ann, acsrf = phones["Ann"]
    r = ann.post("/quiz/answer", data={"csrf": acsrf, "question": str(q.id),
                                       "answer": illegal}, headers=JSON)
    assert r.status_code == 400 and "one of" in r.json()["message"]
    for name, answer in (("Ann", right), ("Bo", wrong)):
        client, csrf = phones[name]
        r = client.post("/quiz/answer", data={"csrf": csrf, "question": str(q.id),
                                              "answer": answer}, headers=JSON)
        assert r.status_code == 200, r.text
    counts = {a["name"]: bool(a["correct"]) for a in night_store.answers(q.id)}
    assert counts == {"Ann": True, "Bo": False}
    host.post("/quiz/close", data={"csrf": hcsrf}, headers=JSON)
    shown = host.get("/part/projector").text
    assert "1 of 2 right" in shown
    assert figures_words(puzzle).split(" (")[0] in shown.replace("&#39;", "'")
    if puzzle.layout:  # where the tempting option fails, every hand shown
        for line in layout_facts(puzzle):
            assert line.strip().split(":")[0] in shown
    else:
        assert "Here is a layout" not in shown
    board = re.findall(r'<span class="who">([^<]+)</span>', shown.split("Leaderboard")[1])
    assert board[0] == "Ann"
    assert action_words(puzzle, wrong) in shown  # the room's answers, as a player says them
    assert "Right!" in ann.get("/part/quiz-phone").text
    bo_page = phones["Bo"][0].get("/part/quiz-phone").text
    assert "Not this time" in bo_page and action_words(puzzle, wrong) in bo_page
    assert "did not answer" in phones["Cy"][0].get("/part/quiz-phone").text


def test_a_puzzle_question_is_the_same_puzzle_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite"
    first = NightStore(path)
    q = first.ask("puzzle", True, "standard", None)
    first.close()
    again = NightStore(path)
    try:
        back = again.question()
        assert back is not None and back.puzzle == q.puzzle
        assert back.step().identity == q.step().identity
    finally:
        again.close()


def test_a_puzzle_is_asked_once_a_night_and_a_spent_theme_is_refused_in_words(
        night_store: NightStore) -> None:
    theme, _, n = puzzle_themes()[-1]  # the smallest theme
    asked = {night_store.ask("puzzle", i % 2 == 0, "standard", None, theme=theme).puzzle
             for i in range(n)}
    assert len(asked) == n
    with pytest.raises(NightError, match="every puzzle of that theme was asked tonight"):
        night_store.ask("puzzle", True, "standard", None, theme=theme)
    with pytest.raises(NightError, match="no puzzle theme"):
        night_store.ask("puzzle", True, "standard", None, theme="no-such-theme")


def test_easy_puzzles_are_rated_below_hard_ones() -> None:
    easy = [pick_puzzle(seed, None, False, set()) for seed in range(30)]
    hard = [pick_puzzle(seed, None, True, set()) for seed in range(30)]
    assert all(p is not None for p in easy + hard)
    assert max(p.rating for p in easy if p) <= min(p.rating for p in hard if p)
    assert len({p.id for p in hard if p}) > 1  # drawn, not always the same one


def test_every_kind_of_puzzle_offers_its_legal_options_and_judges_by_its_answers() -> None:
    seen: set[str] = set()
    for p in bank_puzzles():
        if p.kind in seen:
            continue
        seen.add(p.kind)
        step = puzzle_step(p.id)
        values = [str(o.value) for o in step.options()]
        assert sorted(values) == sorted(str(a) for a in p.position().legal_actions())
        assert all(step.is_right(step.parse(a)) for a in p.answers)
        assert all(not step.judge(v).correct for v in values if v not in p.answers)
        assert step.reveal().rule_ids == p.rules_cited
    assert {"play", "defense"} <= seen
