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
from ...render.spoken import card_words, choices_words, hand_words
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
           "table_say", "table_back", "table_deal", "table_grade", "table_view"]


def table_open(request: Request) -> Response:
    form = form_of(request)
    need_host(request)
    night = night_of(request)
    level = form.get("level", "beginner")
    if level not in LEVELS:
        return done(request, f"No level {level[:20]!r}: the levels are {', '.join(LEVELS)}.",
                    400)
    day = date.today() if form.get("daily") == "1" else None
    people = frozenset(s for s in Seat if form.get(f"people_{s}") == "1")
    # The old table stops first, so that nothing it does after is kept over the new one.
    if night.table is not None:
        night.table.close()
        night.table = None
    try:
        table = Table(night.store, level, night.events.publish, night.config.grace, daily=day,
                      people=people)
    except NightError as err:
        night.store.save_table(None)
        night.events.publish("table")
        return refused(request, err)
    night.table = table
    night.events.publish("table")
    start = _how_it_starts(table)
    if day is not None:
        return done(request, f"The daily deal of {day.isoformat()} is open at deal "
                             f"{table.daily_deal} of {DAILY_DEALS}, the same as everyone's "
                             f"today, with {table.level} computer players in the empty seats; "
                             f"the results go on the daily board, not the match's sheet. "
                             f"{start}")
    return done(request, f"The table is open ({table.rules.name} rules, {level} computer "
                         f"players in the empty seats): phones pick a seat on their Table tab. "
                         f"{start}")


def _how_it_starts(table: Table) -> str:
    if table.people:
        seats = ", ".join(s.word for s in sorted(table.people))
        return (f"The first hand is dealt when {seats} "
                f"{'is' if len(table.people) == 1 else 'are'} taken, or when you deal.")
    return "Deal when the people are seated: nothing is played before."



def table_close(request: Request) -> Response:
    form_of(request)
    need_host(request)
    night = night_of(request)
    table = night.table
    if table is None:
        return done(request, "No table is open.", 409)
    table.close(forget=True)
    night.table = None
    night.events.publish("table")
    return done(request, f"The table is closed. {_what_was_kept(table)}")


def _what_was_kept(table: Table) -> str:
    """What the closed table left on the sheet or the board, as it is."""
    with table.lock:
        state = table.state
        unfinished = state is not None and not state.is_terminal()
    left = " The hand in play was not finished: it is on no sheet." if unfinished else ""
    if table.daily is not None:
        day = table.daily.isoformat()
        played = len(table.store.daily_deals(day))
        return (f"{played} of the {day} deals {'is' if played == 1 else 'are'} on the daily "
                f"board.{left}")
    entered = table.entered
    if not entered:
        return f"No hand played at this table went on the sheet.{left}"
    return (f"{entered} hand{'' if entered == 1 else 's'} played at this table "
            f"{'is' if entered == 1 else 'are'} on the sheet.{left}")


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
        return refused(request, err, 409 if "turn, not yours" in str(err) else 400)
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
        return _decide(table, player.id, form.get("action", "")[:40], form.get("confirm") == "1")
    return _player_action(request, act)


def _decide(table: Table, player_id: int, raw: str, confirm: bool) -> str:
    action = table.act(player_id, raw, confirm)
    if action is None:  # the confirm option holds the card
        held = table.held(player_id) or raw
        words = card_words(Card.parse(held), *_trump_of(table))
        state = table.state
        phase = state.phase if state is not None else Phase.PLAY
        if phase is Phase.DISCARD:
            return f"Put {words} aside? Press it again, or type yes, to put it aside."
        if phase is Phase.SEND and state is not None and state.bidder is not None:
            return (f"Pass {words} to {state.bidder.word}? Press it again, or type yes, to "
                    "pass it.")
        return f"Play {words}? Press it again, or type yes, to play it."
    return f"You: {action_text(action)}."


def _trump_of(table: Table) -> tuple[Any, bool]:
    state = table.state
    return (state.trump if state is not None else None), table.rules.left_bower


# The seat's typed command line: its words besides the decisions themselves.
SAY_HELP = ("Type a card (jack of diamonds, JD, the left bower), a call (pass, 4, little "
            "pepper), trumps (hearts, no trump), exchange or partner, play or surrender. "
            "Or: hand (your cards by suit), table (the contract, the trick and whose turn), "
            "yes (play the card you are confirming), deal (the next hand), help.")


def table_say(request: Request) -> Response:
    """The seat's typed command: a decision in words, or one of the words of SAY_HELP."""
    def act(table: Table, player: Any, form: dict[str, str]) -> str:
        text = " ".join(form.get("text", "").split())[:60]
        word = text.lower().strip(" .!?")
        if word in ("", "help", "?"):
            return SAY_HELP
        if word in ("hand", "my hand", "cards"):
            return _hand_said(table, player.id)
        if word in ("table", "trick", "where", "turn", "what"):
            return _table_said(table, player.id)
        # A deal or a decision that went in is said by the table's own event ("South
        # bids 4."), once: no reply besides.
        if word == "deal":
            table.deal()
            return ""
        if word in ("yes", "y", "confirm"):
            held = table.held(player.id)
            if held is None:
                raise NightError("no card is waiting for a yes: type the card to play")
            _decide(table, player.id, held, False)
            return ""
        told = _decide(table, player.id, text, form.get("confirm") == "1")
        return "" if told.startswith("You: ") else told
    return _player_action(request, act)


def _hand_said(table: Table, player_id: int) -> str:
    with table.lock:
        seat, state = table.seat_of(player_id), table.state
        if seat is None:
            raise NightError("you are watching: claim a seat to hold cards")
        if state is None:
            return "No hand is dealt yet."
        return hand_words(view_of(state, seat).hand, *_trump_of(table))


def _table_said(table: Table, player_id: int) -> str:
    with table.lock:
        seat, state = table.seat_of(player_id), table.state
        if state is None:
            return "No hand is dealt yet."
        parts = [f"{_contract(state)}."]
        trick = state.current_trick
        if trick:
            trump, left = _trump_of(table)
            parts.append("On the table: " + "; ".join(
                f"{s.word}, {card_words(c, trump, left)}" for s, c in trick) + ".")
        won = ", ".join(f"{side} {n}" for side, n in state.tricks_won().items())
        parts.append(f"Tricks: {won}.")
        if seat is not None:
            parts.append(_turn_said(table, state, seat) or
                         (f"{state.to_act.word} to play." if state.to_act is not None
                          else "The hand is over."))
        return " ".join(parts)


_TASKS = {Phase.AUCTION: "bid", Phase.DECLARE_TRUMP: "name trumps",
          Phase.DECLARE_MODE: "choose how to play", Phase.DEFENSE: "choose: play or surrender",
          Phase.PLAY: "play a card"}


def _turn_said(table: Table, state: Any, seat: Seat) -> str:
    """The seat's turn in words with every choice it has, said so it can be typed back; ""
    when it is not the seat's turn."""
    seen = view_of(state, seat)
    if not seen.my_turn:
        return ""
    _, ask = _exchange(state, seat)
    task = ask.split(":")[0] if ask else f"Your turn to {_TASKS.get(state.phase, 'act')}"
    return f"{task}. You may: {choices_words(seen.legal)}."


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

def _card(card: Card, trump: Any = None, left_bower: bool = True) -> dict[str, Any]:
    return {"value": str(card), "label": card.display, "red": card.is_red,
            "suit": card.suit.plural, "words": card_words(card, trump, left_bower)}


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


def _exchange(state: Any, mine: Seat | None) -> tuple[str, str]:
    """In the exchange: what the table says is going on, and what the seat to act is asked
    to do (in words: it is not a card to lead), else two empty strings."""
    bidder, partner = state.bidder, state.partner_of_bidder
    if state.phase is Phase.DISCARD and bidder is not None and partner is not None:
        if mine == bidder:
            return ("The exchange: you put one card aside, face down; then "
                    f"{partner.word} passes you one.",
                    "Put one card aside, face down: tap it (nobody else sees it).")
        return (f"The exchange: {bidder.word} puts one card aside, face down; then "
                f"{partner.word} passes {bidder.word} one, face down.", "")
    if state.phase is Phase.SEND and bidder is not None and partner is not None:
        if mine == partner:
            return (f"The exchange: send one card to your partner {bidder.word}, face down. "
                    "You sit out this hand once it is sent.",
                    f"Send one card to your partner {bidder.word}, face down: tap it.")
        if mine == bidder:
            return (f"The exchange: {partner.word} is sending you one card, face down.", "")
        return (f"The exchange: {partner.word} passes {bidder.word} one card, face down.", "")
    return "", ""


def table_view(night: Night, player_id: int | None) -> dict[str, Any] | None:
    """The table as ``player_id``'s phone may see it (None: the projector, face down)."""
    table = night.table
    if table is None:
        return None
    q = night.store.question()
    asking = q is not None and q.is_open
    with table.lock:
        state = table.state
        mine = table.seat_of(player_id) if player_id is not None else None
        base: dict[str, Any] = {
            "news": table.news, "level": table.level, "asking": asking,
            "mine": mine.word if mine is not None else None, "away": False,
            "state": f"{table.version}-{q.id if asking and q else 0}", "hand": [],
            "options": [], "my_turn": False, "grades": None, "daily": None,
            "totals": table.store.sheet()[0].totals, "exchange": "", "ask": "",
            "people": [s.word for s in sorted(table.people)],
            "said": table.said_since(0), "key": table.key, "hand_words": "",
            "turn_words": ""}
        if table.daily is not None:
            base["daily"] = {"day": table.daily.isoformat(), "deal": table.daily_deal,
                             "deals": DAILY_DEALS,
                             **daily_board(table.store.daily_deals(table.daily.isoformat()))}
        if mine is not None:
            base["away"] = table.seats[mine].away
        if state is None:
            return _before_the_deal(table, mine, base)
        turn = state.to_act
        seats = [{"seat": s.word, "code": str(s), "name": info.name or "computer",
                  "computer": not table.human(s), "away": info.away,
                  "held": len(state.hand(s)), "turn": s == turn, "mine": s == mine}
                 for s, info in table.seats.items()]
        exchange, ask = _exchange(state, mine)
        view: dict[str, Any] = {
            **base, "seats": seats, "dealt": True,
            "contract": _contract(state), "over": state.is_terminal(),
            "turn": turn.word if turn is not None else None,
            "trick": [{"seat": s.word, **_card(c, *_trump_of(table))}
                      for s, c in state.current_trick],
            "won": state.tricks_won(), "exchange": exchange,
            "ask": ask if turn == mine else "",
            "calls": ", ".join(f"{s.word} {_label(b)}" for s, b in state.calls)}
        if state.tricks and not state.current_trick:
            last = state.tricks[-1]
            view["trick"] = [{"seat": s.word, **_card(c, *_trump_of(table))}
                             for s, c in zip(last.seats, last.cards, strict=True)]
        if mine is not None:
            seen = view_of(state, mine)
            view.update(hand=[_card(c, *_trump_of(table)) for c in seen.hand],
                        my_turn=seen.my_turn,
                        options=_options(state.phase, seen.legal) if seen.my_turn else [],
                        hand_words=hand_words(seen.hand, *_trump_of(table)),
                        turn_words=_turn_said(table, state, mine),
                        # said again only after another decision, not on any redraw
                        turn_key=f"{table.key}-{table.hands_played}-{len(table.decisions)}")
            view["grades"] = table.grades.get((table.hands_played, mine), "none")
            view["state"] += f"-{view['grades'] is None}"
        return view


def _before_the_deal(table: Table, mine: Seat | None, view: dict[str, Any]) -> dict[str, Any]:
    """The table open, no hand dealt yet: who sits where, and what the first deal waits
    for."""
    view["seats"] = [{"seat": s.word, "code": str(s), "name": info.name or "computer",
                      "computer": not table.human(s), "away": info.away, "held": 0,
                      "turn": False, "mine": s == mine, "kept": s in table.people}
                     for s, info in table.seats.items()]
    free = [s.word for s in sorted(table.people) if not table.human(s)]
    if free:
        wait = (f"The first hand is dealt when {', '.join(free)} "
                f"{'is' if len(free) == 1 else 'are'} taken (or when the host deals).")
    else:
        wait = "The first hand is dealt when the host deals."
    view.update(dealt=False, contract="Waiting for the deal", over=False, turn=None,
                trick=[], won={side: 0 for side in table.rules.sides}, calls="",
                waiting=wait)
    return view
