"""Who acts next at the table: the step that asks it, answered by the
engine's hand state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import DECK
from ...engine.seats import Seat
from ...engine.state import HandState, Phase
from ...rulebook.feedback import AnswerError
from .answer_free import AnswerForms
from .steps import Option, Step, Why, WhyWrong

THROWN_IN = "thrown in"
OVER = "the auction is over"


@dataclass
class TableStep(Step[str]):
    """Who acts: the first call, the next call, the first lead, the next dealer, or how many
    cards each player gets. The engine's hand state gives every answer."""

    kind: ClassVar[str] = "table"
    title: ClassVar[str] = "At the table"
    lesson_fields: ClassVar[tuple[str, ...]] = (
        "ask", "dealer", "auction", "trump", "mode", "played", "answer")
    lesson_required: ClassVar[tuple[str, ...]] = ("ask",)
    default_prompt: ClassVar[str] = "Who is it?"
    ask: str = "first-call"  # first-call, next-call, leader, next-dealer, cards, next-player
    dealer: Seat = Seat.W
    auction: tuple[Bid, ...] = ()
    trump: Trump = Trump.H
    mode: Mode | None = None
    played: int = 0  # next-player: cards already in the first trick
    facts_: tuple[str, ...] = field(default=(), repr=False)

    ASKS: ClassVar[tuple[str, ...]] = ("first-call", "next-call", "leader", "next-dealer",
                                       "cards", "next-player")

    def _state(self) -> HandState:
        deck = list(DECK)
        hands = {Seat(i): deck[i * 6:(i + 1) * 6] for i in range(self.rules.players)}
        s = HandState.from_hands(hands, self.rules, self.dealer)
        for call in self.auction:
            s.apply(call)
        if self.ask in ("leader", "next-player"):
            s.apply(self.trump)
            if s.phase is Phase.DECLARE_MODE:
                s.apply(self.mode or Mode.PARTNER)
            if s.phase is Phase.DISCARD:
                s.apply(s.legal_actions()[0])
                s.apply(s.legal_actions()[0])
            if s.phase is Phase.DEFENSE:
                s.apply(Defense.PLAY)
            for _ in range(self.played):
                s.apply(s.legal_actions()[0])
        return s

    def result(self) -> str:
        """The answer as text: a seat word, "thrown in", or "6 each, 6 left out"."""
        if self.ask == "next-dealer":
            return self.dealer.next(self.rules.players).word
        if self.ask == "cards":
            left = len(DECK) - 6 * self.rules.players
            return f"6 each, {left} left out"
        s = self._state()
        if self.ask in ("first-call", "next-call") and s.phase is not Phase.AUCTION:
            return THROWN_IN if s.bidder is None else OVER
        seat = s.to_act
        return seat.word if seat is not None else THROWN_IN

    def parse(self, raw: Any) -> str:
        text = " ".join(str(raw).strip().lower().split())
        if self.ask == "cards":
            numbers = [int(w) for w in text.replace(",", " ").split() if w.isdigit()]
            if len(numbers) == 1:
                numbers.append(0)
            if len(numbers) != 2:
                raise AnswerError("give two numbers: the cards each player holds, then the "
                                  "cards left out, such as 5 4")  # 6 0 is an answer
            return f"{numbers[0]} each, {numbers[1]} left out"
        if text in ("thrown in", "throw in", "redeal", "no one", "nobody", "all pass"):
            return THROWN_IN
        if text in ("over", "the auction is over", "auction over", "done"):
            return OVER
        try:
            return Seat.parse(text).word
        except ValueError:
            raise AnswerError("answer with a seat: N, E, S or W (or north, east, ...)"
                              ) from None

    def is_right(self, answer: str) -> bool:
        return bool(answer == self.result())

    def answer_text(self) -> str:
        return self.result()

    def answer_forms(self) -> AnswerForms:
        result = self.result()
        seats = frozenset(s for s in Seat if s.word == result)
        if self.ask == "cards":
            each, left = result.split(", ")
            return AnswerForms(words=(result, each, left))
        return AnswerForms(seats=seats, words=() if seats else (result,))

    def miss_facts(self, answer: str) -> tuple[str, ...]:
        return (f"Not {answer}.",)

    def example(self) -> str:
        """What to type, shown under the question, never the answer itself."""
        if self.ask == "cards":
            return ("Type the cards each player holds, then the cards left out, such as "
                    "5 4")
        answer = self.result()
        seat = next(x for x in Seat if x.word != answer)
        extra = (", or how the auction ended" if self.ask in ("first-call", "next-call") else "")
        return f"Type a seat, such as {seat} or {seat.word}{extra}"

    def default_cite(self) -> tuple[str, ...]:
        cut = self.rules.preset == "cutthroat"
        if self.ask in ("first-call", "next-call"):
            ids = ["cutthroat.auction" if cut else "bid.order"]
            if self.result() == THROWN_IN:
                ids.append("bid.all-pass")
            if self.rules.dumped_dealer:
                ids.append("variant.dumped-dealer")
            elif self.rules.dealer_must_bid:
                ids.append("variant.dealer-must-bid")
            if self.rules.minimum_bid > 1:
                ids.append("variant.minimum-bid")
            return tuple(ids)
        if self.ask == "leader":
            return ("play.lead", "variant.nt-lead") if self._left_leads() else ("play.lead",)
        if self.ask == "next-player":
            return ("play.turn",)
        if self.ask == "next-dealer":
            return ("game.deal-rotation",)
        return ("deck", "cutthroat.deal" if cut else "deal")

    def _left_leads(self) -> bool:
        """Whether the first trick is the bidder's left's to lead (no trump, variant.nt-lead)."""
        return self.trump is Trump.NT and self.rules.nt_lead == "left_of_bidder"

    def _why(self) -> str:
        answer = self.result()
        if self.ask == "next-dealer":
            return f"The deal moves one seat clockwise, from {self.dealer.word} to {answer}."
        if self.ask == "cards":
            return (f"{self.rules.players} players get six cards each from the 24-card deck; "
                    f"{answer.split(', ')[1]}.")
        if self.ask == "leader":
            if self._left_leads():
                return (f"At no trump this table has the player on the bidder's left lead: "
                        f"{answer} leads to the first trick.")
            return f"The high bidder, {answer}, leads to the first trick."
        if self.ask == "next-player":
            return (f"Play goes clockwise from the leader, passing over a seat that sits out: "
                    f"{answer}.")
        if answer == THROWN_IN:
            return "Everyone passed, so the hand is thrown in and the next player deals."
        if answer == OVER:
            return "Every other player has had their call, so the auction is over."
        return f"The calls go clockwise from the dealer's left, so {answer} calls next."

    def explain_wrong(self, answer: str) -> WhyWrong:
        return (self._why(),), self.cited, None

    def explain_right(self, answer: str | None) -> Why:
        return (self._why(),), self.cited

    def nudge(self) -> str:
        return "Go round the table clockwise, starting from the right seat."

    def options(self) -> list[Option]:
        if self.ask == "cards":
            return []
        seats = [Option(s.word, s.word) for s in Seat if s < self.rules.players]
        if self.ask in ("first-call", "next-call"):
            seats += [Option(THROWN_IN, THROWN_IN), Option(OVER, OVER)]
        return seats

    def problems(self) -> list[str]:
        if self.ask not in self.ASKS:
            return [f"ask must be one of {', '.join(self.ASKS)}"]
        out = self._auction_problems()
        if out:
            return out
        if not 0 <= self.played <= 3 or (self.played and self.ask != "next-player"):
            return [f"played counts the cards already in the first trick (0 to 3, for "
                    f"next-player), not {self.played}"]
        try:
            self.result()
        except ValueError as err:
            return [f"the situation is impossible: {err}"]
        return []

    def _auction_problems(self) -> list[str]:
        """The auction replayed through the engine's checked path: the fast path the answer
        uses takes any call, so a lower bid after a higher one ([4, 3]) would be taught."""
        deck = list(DECK)
        hands = {Seat(i): deck[i * 6:(i + 1) * 6] for i in range(self.rules.players)}
        s = HandState.from_hands(hands, self.rules, self.dealer)
        for i, call in enumerate(self.auction, start=1):
            if s.phase is not Phase.AUCTION:
                return [f"the situation is impossible: call {i} ({call}) comes after the "
                        "auction is over"]
            verdict = s.check(call)
            if not verdict.legal:
                return [f"the situation is impossible: call {i} ({call}) breaks the rules: "
                        + " ".join(verdict.facts)]
            s.apply(call)
        if self.mode is not None and s.high_bid is Bid.BIG_PEPPER:
            return ["the situation is impossible: big pepper is played alone with no "
                    "exchange, so it has no mode"]
        return []
