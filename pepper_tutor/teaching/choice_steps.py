"""Judgement steps: the bid, the declaration, the exchange card and the defence.

The author lists the accepted answers and says why; the engine checks that each is legal and
explains any answer that breaks a rule. A legal answer that the author did not accept gets the
author's note for it, or the author's reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..analysis.advice import Advice, OptionAdvice, advise
from ..engine.calls import Bid, Defense, Mode, Trump
from ..engine.cards import DECK, Card, NotationError
from ..engine.seats import Seat
from ..engine.state import HandState, Phase
from ..rulebook.feedback import AnswerError, Feedback
from ..rulebook.verdict import Verdict, action_text
from .answers import card_example, read_cards
from .steps import Option, Step

__all__ = ["BidStep", "DeclareStep", "ExchangeStep", "DefendStep"]


# ---- judgement steps: bid, declare, exchange, defend ----------------------------------------


def _deal_around(known: Mapping[Seat, Sequence[Card]], players: int) -> dict[Seat, list[Card]]:
    """A full deal in which the known hands are as given and the rest are filled in order.
    Legality of calls never depends on the unseen cards, so any filling will do."""
    used = {c for hand in known.values() for c in hand}
    spare = [c for c in DECK if c not in used]
    deal: dict[Seat, list[Card]] = {}
    for i in range(players):
        seat = Seat(i)
        if seat in known:
            deal[seat] = list(known[seat])
        else:
            deal[seat], spare = spare[:6], spare[6:]
    return deal


@dataclass
class _ChoiceStep(Step):
    """Steps whose accepted answers the author gives; the engine checks their legality."""

    accept: tuple[Any, ...] = ()
    reason: str = ""

    def state(self) -> HandState:
        raise NotImplementedError

    def parse_value(self, raw: Any) -> Any:
        raise NotImplementedError

    def parse(self, raw: Any) -> Any:
        chosen = self.read_option(raw)
        if chosen is not None:
            return chosen
        try:
            return self.parse_value(raw)
        except NotationError as err:
            raise AnswerError(str(err)) from None

    def verdict(self, answer: Any) -> Any:
        return self.state().check(answer)

    def is_right(self, answer: Any) -> bool:
        return answer in self.accept and self.verdict(answer).legal

    def answer_text(self) -> str:
        return " or ".join(action_text(a) for a in self.accept)

    def explain_wrong(self, answer: Any) -> tuple[tuple[str, ...], tuple[str, ...], str | None]:
        verdict = self.verdict(answer)
        if not verdict.legal:
            return verdict.facts, verdict.rule_ids, None
        facts = (f"{self.choice_words(answer)} is allowed, but it is not the best choice "
                 "here.",) + ((self.reason,) if self.reason else ())
        return facts, (), None

    def explain_right(self, answer: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return ((self.reason,) if self.reason else ()), ()

    ANALYSIS_SAMPLES: ClassVar[int] = 60

    @property
    def has_analysis(self) -> bool:
        return True

    def analysis(self, samples: int | None = None, seed: int = 0) -> Advice:
        """Sampled double-dummy advice for this decision, seen from the learner's seat
        (cached: the same situation gives the same figures)."""
        n = samples or self.ANALYSIS_SAMPLES
        cache: dict[int, Advice] = self.__dict__.setdefault("_advice", {})
        if n not in cache:
            cache[n] = advise(self.state(), samples=n, seed=seed)
        return cache[n]

    def accepted_options(self, advice: Advice) -> list[OptionAdvice]:
        """The analysed options that match one of the accepted answers."""
        return [o for o in advice.options if any(self.matches(o, a) for a in self.accept)]

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        return False

    def analysis_hint(self) -> str:
        advice = self.analysis()
        top = advice.options[:3]
        lines = [f"What would the analysis do? Over {advice.samples} random deals of the "
                 "cards you cannot see, each played out perfectly, the best choices are:"]
        lines += [f"  {o.label}: about {o.score.mean:+.1f} points" for o in top]
        lines.append("It is a second opinion: it plays as if everyone could see every card.")
        return "\n".join(lines)

    def analysis_gap(self, samples: int | None = None
                     ) -> tuple[OptionAdvice, OptionAdvice] | None:
        """(the best accepted option, the best option) when the analysis clearly prefers
        something the lesson does not accept; ``None`` otherwise."""
        advice = self.analysis(samples)
        accepted = self.accepted_options(advice)
        if not accepted:
            return None
        mine, best = accepted[0], advice.best
        worth_mine, worth_best = mine.net or mine.score, best.net or best.score
        margin = max(2.0, worth_best.half_width + worth_mine.half_width)
        return (mine, best) if worth_best.mean - worth_mine.mean > margin else None

    def choice_words(self, answer: Any) -> str:
        """The answer as the start of a sentence: "Bidding 5", "Sending the K♠"."""
        text = action_text(answer)
        return text[0].upper() + text[1:]

    def judge(self, raw: Any) -> Feedback:
        feedback = super().judge(raw)
        if not feedback.correct and feedback.author_note and not feedback.rule_ids:
            # The author's words for this exact answer say it better than the generic line.
            feedback = replace(feedback, facts=())
        return feedback

    def problems(self) -> list[str]:
        out = []
        if not self.accept:
            out.append("a judgement step needs accepted answers (accept: [...])")
        try:
            state = self.state()
        except (ValueError, NotationError) as err:
            return [*out, f"the situation is impossible: {err}"]
        for answer in self.accept:
            verdict = state.check(answer)
            if not verdict.legal:
                out.append(f"the accepted answer {action_text(answer)} breaks the rules: "
                           + " ".join(verdict.facts))
        for key in self.wrong:
            try:
                value = self.parse_value(key)
            except NotationError as err:
                out.append(f"the wrong answer {key!r} cannot be read: {err}")
                continue
            if value in self.accept:
                out.append(f"{key!r} is listed both as accepted and as wrong")
        if not self.reason.strip():
            out.append("a judgement step needs a reason (why the accepted answers are right)")
        return out


@dataclass
class BidStep(_ChoiceStep):
    kind: ClassVar[str] = "bid"
    hand: tuple[Card, ...] = ()
    dealer: Seat = Seat.W
    auction: tuple[Bid, ...] = ()

    @property
    def seat(self) -> Seat:
        n = self.rules.players
        return Seat((self.dealer + 1 + len(self.auction)) % n)

    def state(self) -> HandState:
        s = HandState.from_hands(_deal_around({self.seat: self.hand}, self.rules.players),
                                 self.rules, self.dealer)
        for call in self.auction:
            v = s.check(call)
            if not v.legal:
                raise ValueError(f"the auction so far breaks the rules: {' '.join(v.facts)}")
            s.apply(call)
        if s.phase is not Phase.AUCTION or s.to_act is not self.seat:
            raise ValueError("the auction is already over before your call")
        return s

    def parse_value(self, raw: Any) -> Bid:
        return Bid.parse(raw)

    def choice_words(self, answer: Any) -> str:
        return "Passing" if answer is Bid.PASS else f"Bidding {action_text(answer)}"

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        return option.bid is answer or (answer is Bid.PASS and option.label == "pass")

    def key(self, answer: Any) -> str:
        return str(answer)

    def default_cite(self) -> tuple[str, ...]:
        variants = tuple(r for r in self.rules.rule_ids if r.startswith("variant."))
        return ("bid.must-top", "bid.ladder", *variants)

    def nudge(self) -> str:
        return ("Count your sure tricks: bowers, the ace of your long suit, and what a partner "
                "might send.")

    def options(self) -> list[Option]:
        return [Option(b, b.display) for b in (Bid.PASS, *self.rules.ladder)]

    def situation(self) -> dict[str, Any]:
        return {"hand": self.hand, "dealer": self.dealer, "auction": self.auction,
                "seat": self.seat}


@dataclass
class DeclareStep(_ChoiceStep):
    """``choose: trump`` (name trumps) or ``choose: mode`` (exchange, partner, or alone)."""

    kind: ClassVar[str] = "declare"
    choose: str = "trump"
    hand: tuple[Card, ...] = ()
    bid: Bid = Bid.FOUR
    trump: Trump = Trump.H  # the trump already named, for choose: mode

    def state(self) -> HandState:
        s = HandState.from_hands(_deal_around({Seat.N: self.hand}, self.rules.players),
                                 self.rules, Seat.W)
        v = s.check(self.bid)
        if not v.legal:
            raise ValueError(" ".join(v.facts))
        s.apply(self.bid)
        while s.phase is Phase.AUCTION:
            s.apply(Bid.PASS)
        if self.choose == "mode":
            s.apply(self.trump)
        return s

    def parse_value(self, raw: Any) -> Any:
        if self.choose == "trump":
            return Trump.parse(raw)
        if str(raw).strip().lower() == "alone":
            return "alone"
        return Mode.parse(raw)

    def verdict(self, answer: Any) -> Any:
        state = self.state()
        if answer == "alone":
            if state.phase is not Phase.DECLARE_MODE:
                return Verdict(True, None, Seat.N, ("declare.big-pepper",),
                               ("Big pepper is played alone with the six cards dealt.",))
            return Verdict(False, None, Seat.N, ("declare.exchange", "declare.with-partner"),
                           ("Below big pepper the bidder either exchanges one card with "
                            "partner and plays alone, or plays with partner; there is no "
                            "going alone without the exchange.",),
                           (Mode.EXCHANGE, Mode.PARTNER))
        return state.check(answer)

    def problems(self) -> list[str]:
        if self.choose not in ("trump", "mode"):
            return ["choose must be trump or mode"]
        out = []
        for answer in self.accept:
            verdict = self.verdict(answer)
            if not verdict.legal:
                out.append(f"the accepted answer {action_text(answer)} breaks the rules: "
                           + " ".join(verdict.facts))
        if not self.accept:
            out.append("a judgement step needs accepted answers (accept: [...])")
        if not self.reason.strip():
            out.append("a judgement step needs a reason (why the accepted answers are right)")
        return out

    def is_right(self, answer: Any) -> bool:
        return answer in self.accept and self.verdict(answer).legal

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        if self.choose == "trump":
            return option.trump is answer
        if answer == "alone":
            return option.mode is None and option.bid is Bid.BIG_PEPPER
        return option.mode is answer

    def answer_text(self) -> str:
        return " or ".join("play alone" if a == "alone" else action_text(a)
                           for a in self.accept)

    def default_cite(self) -> tuple[str, ...]:
        if self.choose == "trump":
            return ("declare.trump",)
        if self.bid is Bid.BIG_PEPPER:
            return ("declare.big-pepper",)
        return ("declare.exchange", "declare.with-partner")

    def nudge(self) -> str:
        if self.choose == "trump":
            return "Which suit gives you the most trumps, counting both jacks of its colour?"
        return "Would one card from partner make your hand, or do you need partner's tricks?"

    def options(self) -> list[Option]:
        if self.choose == "trump":
            return [Option(t, "no trump" if t is Trump.NT else f"{t.display} {t.word}")
                    for t in Trump]
        return [Option(Mode.EXCHANGE, Mode.EXCHANGE.display),
                Option(Mode.PARTNER, Mode.PARTNER.display), Option("alone", "play alone")]

    def situation(self) -> dict[str, Any]:
        return {"hand": self.hand, "bid": self.bid,
                **({"trump": self.trump} if self.choose == "mode" else {})}


@dataclass
class ExchangeStep(_ChoiceStep):
    """As the bidder, which card to discard; as the partner, which card to send."""

    kind: ClassVar[str] = "exchange"
    role: str = "bidder"
    hand: tuple[Card, ...] = ()
    trump: Trump = Trump.H
    bid: Bid = Bid.FOUR

    def state(self) -> HandState:
        me = Seat.N if self.role == "bidder" else Seat.S
        s = HandState.from_hands(_deal_around({me: self.hand}, 4), self.rules, Seat.W)
        for action in (self.bid, Bid.PASS, Bid.PASS, Bid.PASS, self.trump, Mode.EXCHANGE):
            v = s.check(action)
            if not v.legal:
                raise ValueError(" ".join(v.facts))
            s.apply(action)
        if self.role == "partner":
            s.apply(s.hand(Seat.N)[0])
        return s

    def choice_words(self, answer: Any) -> str:
        verb = "Discarding" if self.role == "bidder" else "Sending"
        return f"{verb} the {action_text(answer)}"

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        return option.card is answer

    def parse_value(self, raw: Any) -> Card:
        cards = read_cards(raw)
        if len(cards) != 1:
            raise AnswerError("name one card, such as J♦ or JD")
        return cards[0]

    def problems(self) -> list[str]:
        out = [] if self.role in ("bidder", "partner") else ["role must be bidder or partner"]
        return out + super().problems()

    def default_cite(self) -> tuple[str, ...]:
        return ("declare.exchange",)

    def nudge(self) -> str:
        if self.role == "bidder":
            return "Which card is least likely to take a trick once trumps are known?"
        return "Your partner plays alone: which one card helps most in that trump suit?"

    def options(self) -> list[Option]:
        return [Option(c, c.display, True) for c in self.hand]

    def example(self) -> str:
        verb = "discard" if self.role == "bidder" else "send"
        return f"Type the card to {verb}, such as {card_example(self.hand)}"

    def situation(self) -> dict[str, Any]:
        return {"hand": self.hand, "trump": self.trump, "bid": self.bid, "role": self.role}


@dataclass
class DefendStep(_ChoiceStep):
    kind: ClassVar[str] = "defend"
    hand: tuple[Card, ...] = ()
    trump: Trump = Trump.H
    bid: Bid = Bid.FOUR
    mode: Mode = Mode.EXCHANGE

    def state(self) -> HandState:
        known = {Seat.E: self.hand} if self.hand else {}
        s = HandState.from_hands(_deal_around(known, 4), self.rules, Seat.W)
        s.apply(self.bid)
        while s.phase is Phase.AUCTION:
            s.apply(Bid.PASS)
        s.apply(self.trump)
        if s.phase is Phase.DECLARE_MODE:
            s.apply(self.mode)
        if s.phase is Phase.DISCARD:
            s.apply(s.hand(Seat.N)[-1])
            s.apply(s.hand(Seat.S)[0])
        if s.phase is not Phase.DEFENSE:
            raise ValueError("these rules have no defenders' decision")
        return s

    def parse_value(self, raw: Any) -> Defense:
        return Defense.parse(raw)

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        return option.defense is answer

    def default_cite(self) -> tuple[str, ...]:
        return ("defend.surrender", "variant.dirty-clubs") if self.rules.dirty_clubs else (
            "defend.surrender", "score.sweep")

    def nudge(self) -> str:
        return "Can you and your partner see one trick between you? Is surrender even allowed?"

    def options(self) -> list[Option]:
        return [Option(Defense.PLAY, "play"), Option(Defense.SURRENDER, "surrender")]

    def situation(self) -> dict[str, Any]:
        return {"hand": self.hand, "trump": self.trump, "bid": self.bid}
