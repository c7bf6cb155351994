"""Puzzles shown: the position, the question, the answer's figures, the layout after a miss,
and the theme dashboard; for the terminal (rich) and as HTML (every text escaped).

The facts come from one place (:func:`position_facts`, :func:`feedback_facts`,
:func:`layout_facts`), so the terminal and the notebook say the same sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ..engine.calls import Bid, Mode, Trump
from ..engine.cards import Card
from ..engine.ranking import sort_by_rank
from ..engine.seats import Seat
from ..engine.state import HandState, Phase
from ..rulebook.book import rule_ids_shown, rule_label
from ..teaching.puzzles.puzzle import Puzzle, parse_action
from ..teaching.puzzles.session import Answer
from ..teaching.puzzles.store import ThemeResults
from ..teaching.puzzles.themes import theme_title
from .plain import html_text

if TYPE_CHECKING:  # rich only for the terminal's panels: the page in Pyodide never loads it
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

__all__ = ["QUESTIONS", "position_facts", "question", "action_words", "answers_words",
           "answer_point",
           "figures_words", "feedback_facts", "feedback_lines", "reveal_facts", "layout_facts",
           "puzzle_panel", "feedback_panel", "dashboard_table", "puzzle_html", "feedback_html",
           "dashboard_html"]

QUESTIONS = {
    "bid": "Your call? (pass, 1 to 6, LP, BP)",
    "trump": "Name trumps (C, D, H, S or NT)",
    "mode": "Play with your partner or alone with the exchange? (partner / exchange)",
    "discard": "Which card do you discard?",
    "send": "Which card do you send your partner?",
    "defense": "Play or surrender?",
    "play": "Which card do you play?",
}


def question(puzzle: Puzzle) -> str:
    return QUESTIONS[puzzle.kind]


def _hand(state: HandState, seat: Seat) -> list[Card]:
    trump = state.trump if state.trump is not None else Trump.NT
    return sort_by_rank(state.hand(seat), trump, state.rules.left_bower)


def _trick(seats: Sequence[Seat], cards: Sequence[Card]) -> str:
    return " ".join(f"{s} {c.display}" for s, c in zip(seats, cards, strict=True))


def position_facts(puzzle: Puzzle) -> list[tuple[str, str | list[Card]]]:
    """The position as (label, text or cards) rows, from the seat to act's view."""
    state = puzzle.position()
    me = state.to_act
    assert me is not None
    rows: list[tuple[str, str | list[Card]]] = [
        ("you are", me.word + (" (the dealer)" if state.dealer == me else "")),
        ("dealer", state.dealer.word)]
    calls = ", ".join(f"{s} {b.display}" for s, b in state.calls)
    rows.append(("auction", calls or "nobody has spoken yet"))
    if state.bidder is not None and state.high_bid is not Bid.PASS:
        contract = f"{state.high_bid.display} by {state.bidder.word}"
        if state.trump is not None:
            contract += f", {state.trump.word}"
        if state.mode is not None:
            contract += (", alone with the exchange" if state.mode is Mode.EXCHANGE
                         else ", with partner")
        rows.append(("contract", contract))
    if state.discard is not None and state.to_act == state.bidder:
        rows.append(("you discarded", [state.discard]))
    for number, trick in enumerate(state.tricks, start=1):
        rows.append((f"trick {number}", f"{_trick(trick.seats, trick.cards)} (won by "
                                        f"{trick.winner})"))
    if state.phase is Phase.PLAY:
        now = state.current_trick
        rows.append((f"trick {len(state.tricks) + 1}",
                     _trick([s for s, _ in now], [c for _, c in now]) or "you lead"))
    rows.append(("your hand", _hand(state, me)))
    return rows


def _labelled(words: str, label: str) -> str:
    """``words`` with the analysis's label of the option where it says more (a call's
    contract and way of playing, short: "5 (in ♣ alone)"), not where it only repeats the
    card ("play Q♦")."""
    bare = label.split(" ", 1)[1] if label.startswith(("play ", "discard ", "send ")) else label
    if bare in words.split(" or "):
        return words
    short = label.replace(", exchange and play alone", " alone").replace(
        ", play with partner", " with partner")
    if short.startswith(words + " "):
        short = short[len(words) + 1:]
    return f"{words} ({short})"


def _net(x: float) -> str:
    return f"{round(x, 1) + 0.0:+.1f}"  # never "-0.0"


def _way_of(label: str) -> str:
    """How an option's contract is played, from the analysis's label ("4 in ♦, exchange and
    play alone", "big pepper in ♦, alone", "4 in NT, play with partner")."""
    return "alone" if "alone" in label else "with partner"


def figures_words(puzzle: Puzzle) -> str:
    """The answer with what it is worth, and the tempting option's worth beside it."""
    best = puzzle.options[0]
    if puzzle.kind == "mode":  # the contract is on the table: the way says it all
        text = f"{_cap(answers_words(puzzle))} is worth {_net(best['net'][0])} net points a hand"
        tempting = puzzle.option(puzzle.tempting)
        if tempting is not None:
            text += (f"; the tempting {action_words(puzzle, puzzle.tempting)} "
                     f"{_net(tempting['net'][0])}")
        return text + "."
    if puzzle.kind == "trump":  # the bid is on the table: the trump and its way say it
        text = (f"{_cap(answers_words(puzzle))} {_way_of(best['label'])} is worth "
                f"{_net(best['net'][0])} net points a hand")
        tempting = puzzle.option(puzzle.tempting)
        if tempting is not None:
            text += (f"; the tempting {action_words(puzzle, puzzle.tempting)} "
                     f"{_way_of(tempting['label'])} {_net(tempting['net'][0])}")
        return text + "."
    text = (f"{_cap(_labelled(answers_words(puzzle), best['label']))} is worth "
            f"{_net(best['net'][0])} net points a hand")
    tempting = puzzle.option(puzzle.tempting)
    if tempting is not None:
        tempting_words = _labelled(action_words(puzzle, puzzle.tempting), tempting["label"])
        text += f"; the tempting {tempting_words} {_net(tempting['net'][0])}"
    return text + "."


def due_words(due: datetime, now: datetime | None) -> str:
    """When a review comes back, in words a learner reads at a glance: "in 10 minutes",
    "in 5 hours", "tomorrow", "in 4 days" (the date itself where ``now`` is not known)."""
    if now is None:
        return f"on {due:%Y-%m-%d}"
    seconds = max(0.0, (due - now).total_seconds())
    minutes = round(seconds / 60)
    if minutes < 2:
        return "in a minute"
    if minutes < 60:
        return f"in {minutes} minutes"
    hours = round(seconds / 3600)
    if hours < 20:
        return "in an hour" if hours == 1 else f"in {hours} hours"
    days = max(1, round(seconds / 86400))
    return "tomorrow" if days == 1 else f"in {days} days"


def feedback_facts(answer: Answer, reveal: bool = False,
                   ask: str = "type a for the answer") -> list[str]:
    """What to tell after an answer: right or not, the figures, the rating; with
    ``reveal`` (or when right) the answer, the tempting option and the theme. ``ask`` says
    how the answer is asked for (a key in the terminal, a button elsewhere)."""
    p = answer.puzzle
    said = action_words(p, answer.action)
    point = answer_point(p, answer.action) if answer.correct else None
    lines = [f"Right: {said}." + (f" {point}" if point else "") if answer.correct else
             f"{_cap(said)} is not best: the streak ends here." if answer.over else
             f"{_cap(said)} is not best: try again, or {ask}."]
    if answer.correct or reveal:
        lines.append(("" if answer.correct else "The answer: ") + figures_words(p))
        # in a player's words: the theme's and rules' ids only in the rule ids view
        theme = f"{theme_title(p.theme)} ({p.theme})" if rule_ids_shown() else theme_title(
            p.theme)
        rules = "; ".join(rule_label(r) for r in p.rules_cited)
        lines.append(f"Theme: {theme}" + (f". Rules: {rules}." if rules else "."))
    lines.append(answer.rating_words())
    if answer.result.scheduled is not None:
        lines.append("This theme comes back in your review "
                     + due_words(answer.result.scheduled, answer.result.at) + ".")
    if answer.over:
        lines.append(f"Streak over: {answer.streak} solved in a row" + _best(answer) + ".")
    elif answer.streak:
        lines.append(f"Streak: {answer.streak}" + _best(answer) + ".")
    return lines


def answer_point(puzzle: Puzzle, action: str) -> str | None:
    """The point of an answer, from the position: a card's role ("The J♣ is the left
    bower."), or for a call what the hand holds in the contract it leads to ("You hold four
    trumps with both bowers.")."""
    from ..analysis.reasons import call_point, card_role

    state = puzzle.position()
    chosen = parse_action(puzzle.kind, action)
    if isinstance(chosen, Card):
        role = card_role(state, chosen)
        return f"The {chosen.display} is {role}." if role else None
    trump = chosen if isinstance(chosen, Trump) else state.trump
    if trump is None:  # a call: the trump of the contract the analysis plays it in
        label = next((o["label"] for o in puzzle.options
                      if o["label"].split(" in ")[0] == action_words(puzzle, action)), "")
        trump = next((t for t in Trump if f" in {t.display}" in label), None)
    me = state.to_act
    if trump is None or me is None:
        return None
    return f"You hold {call_point(state.hand(me), trump, state.rules.left_bower)}."


def _best(answer: Answer) -> str:
    if answer.best > answer.streak:
        return f" (your best: {answer.best})"
    return " (your best streak)" if answer.streak else ""


def reveal_facts(puzzle: Puzzle) -> list[str]:
    """The answer shown on request, then the layout."""
    return ["The answer: " + figures_words(puzzle), *layout_facts(puzzle)]


def action_words(puzzle: Puzzle, text: str) -> str:
    """An answer as a player says it: J♠, no trump, 4, little pepper, exchange, surrender."""
    action = parse_action(puzzle.kind, text)
    if isinstance(action, Card):
        return action.display
    if isinstance(action, Trump):
        return action.word
    if isinstance(action, Bid):
        return action.display
    if isinstance(action, Mode):
        return "alone with the exchange" if action is Mode.EXCHANGE else "with partner"
    return str(action)


def answers_words(puzzle: Puzzle) -> str:
    return " or ".join(action_words(puzzle, a) for a in puzzle.answers)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def layout_facts(puzzle: Puzzle, name_best: bool = True) -> list[str]:
    """The sampled layout where the tempting answer fails and the best one succeeds. Without
    ``name_best`` (after a miss the learner may still retry) the last line says what the
    tempting answer and the best one get, but not which answer is best."""
    layout = puzzle.layout
    if not layout:
        return []
    good, bad = layout["best"], layout["tempting"]
    tempting = action_words(puzzle, puzzle.tempting)
    lines = [f"Here is a layout where {tempting} loses (every hand shown):"]
    trump = puzzle.position().trump or Trump.NT
    lines += [f"  {Seat.parse(seat).word}: "
              + " ".join(c.display for c in sort_by_rank(cards.split(), trump))
              for seat, cards in layout["hands"].items()]
    if name_best:
        lines.append(f"{_cap(answers_words(puzzle))}: the bidders take {good['tricks']} tricks "
                     f"({good['net']:+.0f} net points for your side). {_cap(tempting)}: "
                     f"{bad['tricks']} ({bad['net']:+.0f}). Every seat plays its best.")
    else:
        lines.append(f"{_cap(tempting)}: the bidders take {bad['tricks']} tricks "
                     f"({bad['net']:+.0f} net for your side); with the best answer, "
                     f"{good['tricks']} ({good['net']:+.0f}), every seat playing its best.")
    return lines


def feedback_lines(answer: Answer, reveal: bool = False,
                   ask: str = "press Show answer") -> list[str]:
    """The feedback's facts, then the layout as far as it may be shown (:func:`_after_miss`):
    what a page with a Show answer button tells after an answer."""
    return feedback_facts(answer, reveal, ask) + _after_miss(answer, reveal)


def _after_miss(answer: Answer, reveal: bool) -> list[str]:
    """What follows a miss's feedback: with ``reveal`` the whole layout; after a retryable
    miss with the tempting answer, one line on what it loses (the tricks and points against
    the best answer's, unnamed): a learner about to try again needs what is wrong with the
    answer, not every hand, which the answer shows."""
    if answer.correct:
        return []
    if reveal:
        return layout_facts(answer.puzzle)
    if answer.action == answer.puzzle.tempting:
        return layout_facts(answer.puzzle, name_best=False)[-1:]
    return []


# ---- the terminal ---------------------------------------------------------------------------


def _cards(cards: Sequence[Card], ascii: bool) -> Text:
    from rich.text import Text

    from .terminal import card_text

    out = Text()
    for i, c in enumerate(cards):
        out.append(" " if i else "")
        out.append_text(card_text(c, ascii))
    return out


def puzzle_panel(puzzle: Puzzle, number: int, rating: float, ascii: bool = False) -> Panel:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", justify="right")
    grid.add_column()
    for label, value in position_facts(puzzle):
        grid.add_row(label, _cards(value, ascii) if isinstance(value, list) else Text(value))
    grid.add_row("", Text(question(puzzle), style="bold cyan"))
    return Panel(grid, title=f"Puzzle {number} · rated {puzzle.rating:.0f} · you "
                             f"{rating:.0f}", title_align="left")


def feedback_panel(answer: Answer, reveal: bool = False) -> Panel:
    from rich.panel import Panel
    from rich.text import Text

    lines = feedback_facts(answer, reveal)
    body = Text(lines[0], style="bold green" if answer.correct else "bold red")
    for line in lines[1:]:
        body.append("\n" + line)
    for line in _after_miss(answer, reveal):
        body.append("\n" + line, style="" if reveal else "dim")
    return Panel(body, title="Puzzle", title_align="left")


def dashboard_table(results: Sequence[ThemeResults]) -> Table:
    from rich.table import Table

    table = Table(title="Your puzzle themes, weakest first")
    for col in ("theme", "tried", "solved", "performance"):
        table.add_column(col, justify="left" if col == "theme" else "right")
    for r in results:
        # in a player's words: the theme's id only in the rule ids view
        theme = f"{theme_title(r.theme)} ({r.theme})" if rule_ids_shown() else theme_title(
            r.theme)
        table.add_row(theme, str(r.tried), str(r.solved), str(r.performance))
    return table


# ---- HTML -----------------------------------------------------------------------------------


def _html_cards(cards: Sequence[Card]) -> str:
    return " ".join(f'<span style="color:{"#c00" if c.is_red else "#000"}">'
                    f"{html_text(c.display)}</span>" for c in cards)


def puzzle_html(puzzle: Puzzle, number: int, rating: float) -> str:
    rows = "".join(
        f"<tr><th style='text-align:right;color:#666'>{html_text(label)}</th><td>"
        f"{_html_cards(value) if isinstance(value, list) else html_text(value)}</td></tr>"
        for label, value in position_facts(puzzle))
    return (f"<div class='pepper-puzzle'><b>Puzzle {number}</b> · rated "
            f"{puzzle.rating:.0f} · you {rating:.0f}<table>{rows}</table>"
            f"<p><b>{html_text(question(puzzle))}</b></p></div>")


def feedback_html(answer: Answer, reveal: bool = False) -> str:
    lines = feedback_lines(answer, reveal)
    color = "#070" if answer.correct else "#b00"
    head, rest = lines[0], lines[1:]
    return (f"<div class='pepper-feedback'><b style='color:{color}'>{html_text(head)}</b>"
            + "".join(f"<br>{html_text(x)}" for x in rest) + "</div>")


def dashboard_html(results: Sequence[ThemeResults]) -> str:
    rows = "".join(f"<tr><td>{html_text(theme_title(r.theme))}</td><td>{r.tried}</td>"
                   f"<td>{r.solved}</td><td>{r.performance}</td></tr>" for r in results)
    return ("<table><tr><th>theme</th><th>tried</th><th>solved</th><th>performance</th></tr>"
            f"{rows}</table>")
