"""The practice-table widget's game layer, in this process (issue 37, item 6): the same layer
as the Play and learn page, where JupyterLab allows it. A whole hand played by typed lines
alone, deciding from what the live region says and nothing else; the hand read suit by
suit; large print; a decision that counts only when confirmed."""

from __future__ import annotations

import html
import re

from pepper_tutor.apps.table_widget import TableWidget
from pepper_tutor.engine.state import Phase
from pepper_tutor.render.spoken import hand_words
from pepper_tutor.teaching.practice.table import PracticeTable

SEED = 11


def _widget() -> TableWidget:
    return TableWidget(PracticeTable("standard", "S", "beginner", coach=True, seed=SEED,
                                     save_dir=None, history=False, coach_samples=4))


def _said(w: TableWidget) -> str:
    """What the live region says now (its words only)."""
    assert 'role="status" aria-live="polite"' in w.said.value
    return html.unescape(re.sub(r"<[^>]+>", "", w.said.value))


def _type(w: TableWidget, line: str) -> str:
    w.command.value = line  # as Enter sends it: the box then empties itself
    assert w.command.value == "" and not w.errors, w.errors
    return _said(w)


def _decide(said: str) -> str:
    """A choice from the words heard: the first one offered, typed as it was said."""
    options = said.rsplit("You may choose: ", 1)[1].rstrip(".").split(", ")
    return "play" if "play" in options else options[0]


def test_a_whole_hand_by_typed_lines_from_the_live_region_alone() -> None:
    w = _widget()
    said = _said(w)
    assert said.startswith("You sit South") and "You may choose: " in said, said
    said = _type(w, "hand")
    t = w.table
    assert said == hand_words(t.state.hand(t.seat), t.state.trump, t.state.rules.left_bower)
    heard = [said]
    for _ in range(40):
        if "The hand is over" in said:
            break
        if "You may choose: " not in said:
            said = _type(w, "choices")
            heard.append(said)
            continue
        said = _type(w, _decide(said))
        heard.append(said)
        assert "Not allowed" not in said and "could not read" not in said, said
    assert "The hand is over" in said, heard
    every = " ".join(heard)
    assert not re.search(r"(?:10|[9TJQKA])[♣♦♥♠]", every)  # every card in words
    tricks = [int(n) for n in re.findall(r"wins? trick (\d)", every)]
    assert tricks == list(range(1, len(tricks) + 1)) and tricks, every  # each trick once
    played = re.findall(r"(?:plays?|leads?) (the \w+ of \w+)", every)
    assert len(played) == len(set(played)) >= 3 * len(tricks), played  # each card once
    assert _type(w, "next").startswith("Hand 1 counted")


def test_read_my_hand_large_print_and_a_decision_confirmed() -> None:
    w = _widget()
    t = w.table
    w.read_button.click()
    assert _said(w) == hand_words(t.state.hand(t.seat), t.state.trump)
    w.large_toggle.value = True
    assert "pepper-large" in w._dom_classes and _said(w) == "Large print: on."
    w.confirm_toggle.value = True
    assert _said(w) == "Confirm each decision: on."
    assert t.learner_to_act and t.state.phase is Phase.AUCTION
    first = w.choices.children[0]
    first.click()  # chosen, not counted
    assert not t.learner_decisions
    assert re.match(r"\w.*\? Choose it again, press Confirm or type yes", _said(w)), _said(w)
    assert "pepper-chosen" in w.choices.children[0]._dom_classes  # drawn anew, marked
    confirm = w.choices.children[-1]
    assert "pepper-confirm" in confirm._dom_classes
    assert confirm.description.startswith("Confirm: ")
    confirm.click()
    assert len(t.learner_decisions) == 1 and _said(w).startswith("You ")
    # typed: chosen, then no, then chosen and yes
    while t.learner_to_act and not t.hand_over:
        said = _type(w, "choices")
        line = _decide(said)
        before = len(t.learner_decisions)
        assert "? Choose it again" in _type(w, line)
        assert _type(w, "no") == "Not done: choose again."
        assert "? Choose it again" in _type(w, line)
        assert len(t.learner_decisions) == before
        _type(w, "yes")
        assert len(t.learner_decisions) == before + 1
        break
    w.large_toggle.value = False
    assert "pepper-large" not in w._dom_classes
