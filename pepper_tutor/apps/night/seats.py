"""The table over the web: the host opens and closes it, phones claim a seat, play their
decisions by tap, take their seat back, and open the coach's grades after the hand; and what
a phone, the host and the projector are shown of it (:func:`table_view`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ...analysis.players import LEVELS
from ...analysis.view import view_of
from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import Card
from ...engine.seats import Seat
from ...engine.state import Phase
from ...rulebook.verdict import action_text
from ...teaching.practice.daily import DAILY_DEALS
from .auth import is_host, need_host, player_of
from .middleware import form_of
from .responses import done, refused
from .state import Night, night_of
from .store import NightError
from .table import Table
from .views import daily_board

__all__ = ["table_open", "table_close", "table_claim", "table_leave", "table_play",
           "table_back", "table_deal", "table_grade", "table_view"]


def table_open(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    level = form.get("level", "beginner")
    if level not in LEVELS:
        return done(request, f"No level {level[:20]!r}: the levels are {', '.join(LEVELS)}.",
                    400)
    day = date.today() if form.get("daily") == "1" else None
    try:
        table = Table(night.store, level, night.events.publish, night.config.grace, daily=day)
    except NightError as err:
        return refused(request, err)
    old, night.table = night.table, table
    if old is not None:
        old.close()
    night.events.publish("table")
    if day is not None:
        return done(request, f"The daily deal of {day.isoformat()} is open: {DAILY_DEALS} "
                             f"deals, the same as everyone's today, with {table.level} "
                             "computer players in the empty seats. The results go on the "
                             "daily board, not the match's sheet.")
    return done(request, f"The table is open ({table.rules.name} rules, {level} computer "
                         "players in the empty seats): phones pick a seat on their Table tab.")


def table_close(request: Request) -> Response:
    form_of(request)
    need_host(request)
    night = night_of(request)
    if night.table is None:
        return done(request, "No table is open.", 409)
    night.table.close()
    night.table = None
    night.events.publish("table")
    return done(request, "The table is closed; the hands played are on the sheet.")


def _table(night: Night) -> Table:
    if night.table is None:
        raise NightError("no table is open: the host opens one")
    return night.table


def _player_action(request: Request, act: Any) -> Response:
    """Run ``act(table, player, form)`` for the phone asking; a refusal is said on it."""
    form = form_of(request)
    player = player_of(request)
    if player is None:
        return done(request, "Join the night first: only players sit at the table.", 403)
    try:
        message = act(_table(night_of(request)), player, form)
    except NightError as err:
        return refused(request, err, 409 if "turn" in str(err) else 400)
    return done(request, message)


def table_claim(request: Request) -> Response:
    def act(table: Table, player: Any, form: dict[str, str]) -> str:
        try:
            seat = Seat.parse(form.get("seat", ""))
        except ValueError:
            raise NightError("pick a seat: North, East, South or West") from None
        table.claim(player.id, player.name, seat)
        return f"You sit {seat.word}."
    return _player_action(request, act)


def table_leave(request: Request) -> Response:
    def act(table: Table, player: Any, form: dict[str, str]) -> str:
        seat = table.leave(player.id)
        return f"You left {seat.word}: a computer player sits there now."
    return _player_action(request, act)


def table_play(request: Request) -> Response:
    def act(table: Table, player: Any, form: dict[str, str]) -> str:
        return f"You: {action_text(table.act(player.id, form.get('action', '')[:40]))}."
    return _player_action(request, act)


def table_back(request: Request) -> Response:
    def act(table: Table, player: Any, form: dict[str, str]) -> str:
        seat = table.back(player.id)
        return f"Welcome back: {seat.word}'s seat is yours again."
    return _player_action(request, act)


def table_grade(request: Request) -> Response:
    def act(table: Table, player: Any, form: dict[str, str]) -> str:
        table.grade(player.id)
        return "The coach is grading your decisions: they come up here in a moment."
    return _player_action(request, act)


def table_deal(request: Request) -> Response:
    form_of(request)
    night = night_of(request)
    player = player_of(request)
    try:
        table = _table(night)
        if not is_host(request) and (player is None or table.seat_of(player.id) is None):
            raise NightError("only the host or a player at the table deals")
        table.deal()
    except NightError as err:
        return refused(request, err, 409)
    return done(request, "Dealt: the next hand is on.")


# ---- what each screen is shown ---------------------------------------------------------------

def _card(card: Card) -> dict[str, Any]:
    return {"value": str(card), "label": card.display, "red": card.is_red}


def _options(phase: Phase, legal: tuple[Any, ...]) -> list[dict[str, str]]:
    """The buttons of a decision that is not a card: calls, trumps, the way, the defence."""
    kind = {Phase.AUCTION: "bid", Phase.DECLARE_TRUMP: "trump", Phase.DECLARE_MODE: "mode",
            Phase.DEFENSE: "defense"}.get(phase)
    if kind is None:
        return []
    return [{"value": f"{kind}:{a}", "label": _label(a)} for a in legal]


def _label(action: Any) -> str:
    if isinstance(action, Bid):
        return "pass" if action is Bid.PASS else f"bid {action.display}"
    if isinstance(action, Trump):
        return "no trump" if action is Trump.NT else f"{action.word} {action.display}"
    if isinstance(action, Mode | Defense):
        return action_text(action)
    return str(action)


def _contract(state: Any) -> str:
    if state.bidder is None:
        return "Bidding"
    parts = [f"{state.bidder.word} bid {state.high_bid.display}"]
    if state.trump is not None:
        parts.append("no trump" if state.trump is Trump.NT else f"{state.trump.word} "
                     f"{state.trump.display}")
    if state.mode is not None:
        parts.append(action_text(state.mode))
    return ", ".join(parts)


def table_view(night: Night, player_id: int | None) -> dict[str, Any] | None:
    """The table as ``player_id``'s phone may see it (None: the projector, face down)."""
    table = night.table
    if table is None:
        return None
    with table.lock:
        state = table.state
        assert state is not None
        mine = table.seat_of(player_id) if player_id is not None else None
        turn = state.to_act
        seats = [{"seat": s.word, "code": str(s), "name": info.name or "computer",
                  "computer": not table.human(s), "away": info.away,
                  "held": len(state.hand(s)), "turn": s == turn, "mine": s == mine}
                 for s, info in table.seats.items()]
        view: dict[str, Any] = {
            "seats": seats, "news": table.news, "level": table.level,
            "contract": _contract(state), "over": state.is_terminal(),
            "turn": turn.word if turn is not None else None,
            "trick": [{"seat": s.word, **_card(c)} for s, c in state.current_trick],
            "won": state.tricks_won(), "totals": table.store.sheet()[0].totals,
            "calls": ", ".join(f"{s.word} {_label(b)}" for s, b in state.calls),
            "mine": mine.word if mine is not None else None, "away": False,
            "state": f"{table.version}", "hand": [], "options": [], "my_turn": False,
            "grades": None, "daily": None}
        if table.daily is not None:
            view["daily"] = {"day": table.daily.isoformat(), "deal": table.daily_deal,
                             "deals": DAILY_DEALS,
                             **daily_board(table.store.daily_deals(table.daily.isoformat()))}
        if state.tricks and not state.current_trick:
            last = state.tricks[-1]
            view["trick"] = [{"seat": s.word, **_card(c)} for s, c in zip(last.seats,
                                                                           last.cards,
                                                                           strict=True)]
        if mine is not None:
            seen = view_of(state, mine)
            view.update(hand=[_card(c) for c in seen.hand], my_turn=seen.my_turn,
                        away=table.seats[mine].away,
                        options=_options(state.phase, seen.legal) if seen.my_turn else [])
            view["grades"] = table.grades.get((table.hands_played, mine), "none")
            view["state"] += f"-{view['grades'] is None}"
        return view
