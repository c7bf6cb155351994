"""Judgement steps: the bid, the declaration, the exchange card and the defense.

The author lists the accepted answers and says why; the engine checks that each is legal and
explains any answer that breaks a rule. A legal answer that the author did not accept gets the
author's note for it, or the author's reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from ...analysis.calling import best_suit
from ...analysis.reasons import (
    bid_facts,
    bid_right_facts,
    compare_facts,
    declare_facts,
    defend_facts,
    exchange_facts,
    lower_first,
    trump_holding,
    worse_words,
)
from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import DECK, Card, NotationError
from ...engine.seats import Seat
from ...engine.state import HandState, Phase
from ...rulebook.feedback import AnswerError, Feedback
from ...rulebook.verdict import Verdict, action_text
from .answer_free import AnswerForms
from .answers import card_example, read_call, read_cards, read_choice
from .situation import Situation
from .steps import AnswerT, Option, Step, Why, WhyWrong, _bower_words

if TYPE_CHECKING:  # the search is imported where a step is first analysed, not with the lessons
    from ...analysis.advice import Advice, Estimate, OptionAdvice

__all__ = ["ChoiceStep", "BidStep", "DeclareStep", "ExchangeStep", "DefendStep", "Valued",
           "clearly_worse"]


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


def _callers(dealer: Seat, calls: int, players: int) -> list[Seat]:
    """The seats that made the first ``calls`` calls, from the dealer's left."""
    return [Seat((dealer + 1 + i) % players) for i in range(calls)]


def _win_the_bid(state: HandState, bidder: Seat, bid: Bid) -> None:
    """The auction in which ``bidder`` makes the only bid, ``bid``, and every other seat
    passes."""
    while state.phase is Phase.AUCTION and state.to_act is not bidder:
        state.apply(Bid.PASS)
    v = state.check(bid)
    if not v.legal:
        raise ValueError(" ".join(v.facts))
    state.apply(bid)
    while state.phase is Phase.AUCTION:
        state.apply(Bid.PASS)


@dataclass(frozen=True)
class Valued:
    """One answer a learner can give, and what the analysis finds it worth: the analysed
    line that follows it best (for a bid, the best trump and way of playing at that level)."""

    answer: Any
    option: OptionAdvice

    @property
    def worth(self) -> Estimate:
        """The decider's expected points less the other side's (or the points, where the
        net cannot be known), with the 95% interval."""
        return self.option.net or self.option.score


def clearly_worse(better: Valued, worse: Valued) -> bool:
    """True when ``worse`` trails ``better`` by more than the analysis's 95% interval (the
    wider of the two: both are measured on the same sampled deals, so their difference
    varies less than either)."""
    a, b = better.worth, worse.worth
    return a.mean - b.mean > max(a.half_width, b.half_width)


@dataclass
class ChoiceStep(Step[AnswerT]):
    """Steps whose accepted answers the author gives; the engine checks their legality and
    the sampled analysis their worth (:meth:`analysis_problems`)."""

    accept: tuple[Any, ...] = ()
    reason: str = ""
    reasons: dict[str, str] = field(default_factory=dict)  # key(answer) -> why it is right
    analysis_samples: int = 0  # sampled deals for this step's analysis (0: the default)
    analysis_trumps: tuple[Trump, ...] = ()  # a bid's analysis in these trumps only (drills)
    disagree: str = ""  # the author's reason for departing from the analysis, shown with it
    # a drill's whole deal, seat by seat, so its auction can be checked against the players
    deal: tuple[tuple[Card, ...], ...] = ()

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

    def is_right(self, answer: AnswerT) -> bool:
        return answer in self.accept and self.verdict(answer).legal

    def answer_text(self) -> str:
        return " or ".join(action_text(a) for a in self.accept)

    def answer_forms(self) -> AnswerForms:
        words: list[str] = []
        for a in self.accept:
            words += [action_text(a), *(o.label for o in self.choices() if o.value == a)]
            if isinstance(a, Bid) and a is not Bid.PASS:
                words += [f"bid {a.display}", f"bidding {a.display}", f"a {a.display}"]
            if isinstance(a, Trump):
                words.append(a.word.rstrip("s") if a is not Trump.NT else "no-trump")
            if a == "alone":
                words += ["play alone", "playing alone", "go alone", "going alone"]
        cards = frozenset(a for a in self.accept if isinstance(a, Card))
        trump = getattr(self, "trump", None)
        # "you hold the left bower" names the card to send as surely as J♦ does
        roles = tuple(w for c in cards for w in _bower_words(c, trump, self.rules)
                      ) if isinstance(trump, Trump) else ()
        return AnswerForms(cards=cards, words=tuple(w for w in dict.fromkeys(words)
                                                    if not isinstance(w, Card)), roles=roles)

    def miss_facts(self, answer: AnswerT) -> tuple[str, ...]:
        verdict = self.verdict(answer)
        if not verdict.legal:
            return tuple(verdict.facts)
        return (f"{self.choice_words(answer)} is allowed, but it is not the best choice "
                "here.",)

    def choices(self) -> list[Option]:
        """Every answer of this kind of decision, legal here or not."""
        return []

    def options(self) -> list[Option]:
        """What a front end offers: the answers the rules allow here, and an illegal one
        only where the author wrote a note for it (a lesson teaching that rule). A choice
        the rules refuse, offered without a word, is a trap ("play alone" for a bid of 2,
        where going alone comes only with the exchange)."""
        return [o for o in self.choices()
                if self.verdict(o.value).legal or self.key(o.value) in self.wrong]

    def read_option(self, raw: Any) -> Any | None:
        # what is typed is read among every choice: one not offered is judged, not refused
        return read_choice(raw, [(o.value, o.label) for o in self.choices() if not o.is_card])

    def legal_answers(self) -> list[Any]:
        """Every answer the rules allow here, in the order the step offers them."""
        return [o.value for o in self.choices() if self.verdict(o.value).legal]

    def example_options(self) -> list[Option]:
        """Choices the rules allow here first: a learner may read the example as a
        suggestion, so it names, say, a bid that cannot top the standing one only when
        the answer is the one legal choice."""
        legal = self.legal_answers()
        options = super().example_options()
        return sorted(options, key=lambda o: o.value not in legal)  # stable: legal first

    def tested_rules(self) -> tuple[str, ...]:
        # a choice the rules refuse is explained by the rule that refuses it (the analysis's
        # verdicts are judgements, which review reads from the judgement itself)
        refused = (self.verdict(o.value) for o in self.choices())
        return tuple(dict.fromkeys(r for v in refused if not v.legal for r in v.rule_ids))

    def explain_wrong(self, answer: AnswerT) -> WhyWrong:
        verdict = self.verdict(answer)
        if not verdict.legal:
            return verdict.facts, verdict.rule_ids, None
        if self.wrong.get(self.key(answer)):
            return (), (), None  # the author's note for this answer is the verdict
        why = self.analysis_reason(answer)
        if why:
            return (why,), ("analysis.double-dummy",), None
        return (f"{self.choice_words(answer)} is allowed, but it is not the best choice "
                "here.",) + ((self.reason,) if self.reason else ()), (), None

    def explain_right(self, answer: AnswerT | None) -> Why:
        if answer is not None and self.reasons.get(self.key(answer)):
            return (self.reasons[self.key(answer)],), ()
        return ((self.reason,) if self.reason else ()), ()

    # ---- the analysis ------------------------------------------------------------------------

    # The hint shows the very figures lesson --check verified: seeded and bounded (quick in
    # CI); a close call in the check is looked at again with three times as many deals.
    ANALYSIS_SAMPLES: ClassVar[int] = 40
    CHECK_SAMPLES: ClassVar[int] = ANALYSIS_SAMPLES
    SEED: ClassVar[int] = 0

    @property
    def has_analysis(self) -> bool:
        """A judgement to analyse: more than one answer is allowed (where the rules leave
        one, as big pepper's "alone" or dirty clubs' "play", the rules are the lesson)."""
        try:
            return len(self.legal_answers()) > 1
        except (ValueError, NotationError):
            return False

    def analysis(self, samples: int | None = None, seed: int | None = None) -> Advice:
        """Sampled double-dummy advice for this decision, seen from the learner's seat
        (cached: the same situation gives the same figures)."""
        n = samples or self.analysis_samples or self.ANALYSIS_SAMPLES
        seed = self.SEED if seed is None else seed
        cache: dict[tuple[int, int], Advice] = self.__dict__.setdefault("_advice", {})
        if (n, seed) not in cache:
            from ...analysis.advice import advise, advise_bid

            state = self.state()
            # Every option over every deal: the lesson check compares the accepted answers'
            # intervals with the best's, which an option dropped early would widen.
            if self.analysis_trumps and state.phase in (Phase.AUCTION, Phase.DECLARE_TRUMP):
                cache[n, seed] = advise_bid(state, samples=n, seed=seed,
                                            trumps=self.analysis_trumps, drop_worse=False)
            else:
                cache[n, seed] = advise(state, samples=n, seed=seed, drop_worse=False)
        return cache[n, seed]

    def use_analysis(self, advice: Advice) -> None:
        """Take a stored analysis of this very situation as the step's own (the screened
        drill positions): hints, reasons and answers then come without solving, at the
        deals it was made with (a file made before a drill took more deals still reads)."""
        self.analysis_samples = advice.samples
        self.__dict__.setdefault("_advice", {})[advice.samples, self.SEED] = advice

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        return False

    def value_of(self, answer: Any, samples: int | None = None,
                 seed: int | None = None) -> Valued | None:
        """What the analysis finds this answer worth (the best line that follows it)."""
        for option in self.analysis(samples, seed).options:  # best first
            if self.matches(option, answer):
                return Valued(answer, option)
        return None

    def valued(self, samples: int | None = None, seed: int | None = None) -> list[Valued]:
        """Every legal answer the analysis can value, best first."""
        found = [self.value_of(a, samples, seed) for a in self.legal_answers()]
        return sorted((v for v in found if v is not None), key=lambda v: -v.worth.mean)

    def accepted_options(self, advice: Advice) -> list[OptionAdvice]:
        """The analysed options that match one of the accepted answers."""
        return [o for o in advice.options if any(self.matches(o, a) for a in self.accept)]

    def analysis_problems(self, samples: int | None = None,
                          seed: int | None = None) -> list[str]:
        """Where the lesson and the analysis disagree (``lesson --check`` fails on these):
        an accepted answer worse than the best by more than the 95% interval, or an answer
        within it of an accepted best that is not accepted. A close call is looked at again
        with three times the deals before it counts."""
        if not self.has_analysis:
            return []
        found = self._analysis_problems(samples, seed)
        if self.disagree:  # the author says why not: only a stale note is a problem
            return [] if found else ["the step says it departs from the analysis "
                                     "(disagree: ...), but the analysis agrees with it: "
                                     "remove the note"]
        return found

    def _analysis_problems(self, samples: int | None, seed: int | None) -> list[str]:
        n = samples or self.CHECK_SAMPLES
        values = self.valued(n, seed)
        if not values:
            return []

        def settled(a: Any, b: Any) -> tuple[Valued, Valued, int] | None:
            """The pair valued again with more deals, when the first look was close."""
            for k in (n, 3 * n):
                va, vb = self.value_of(a, k, seed), self.value_of(b, k, seed)
                if va is None or vb is None:
                    return None
                if va.worth.mean < vb.worth.mean:
                    va, vb = vb, va
                if clearly_worse(va, vb):
                    return va, vb, k
            return None

        best = values[0]
        out = []
        for answer in self.accept:
            if answer == best.answer:
                continue
            found = settled(best.answer, answer)
            if found and found[1].answer == answer:
                top, mine, k = found
                out.append(f"the lesson accepts {action_text(answer)} ({_figure(mine)}), but "
                           f"{action_text(top.answer)} is better by more than the "
                           f"analysis's 95% interval ({_figure(top)}, {k} deals)")
        accepted = [v for v in values if v.answer in self.accept]
        if accepted and not out:
            mine = accepted[0]
            for v in values:
                if v.answer in self.accept or settled(mine.answer, v.answer):
                    continue
                again, other = self.value_of(mine.answer, 3 * n, seed), self.value_of(
                    v.answer, 3 * n, seed)
                figures = (f"{_figure(other)} against {_figure(again)}, {3 * n} deals"
                           if again and other else f"{3 * n} deals")
                out.append(f"{action_text(v.answer)} is within the analysis's 95% interval of "
                           f"{action_text(mine.answer)} ({figures}), but only "
                           f"{action_text(mine.answer)} is accepted: accept both, with a "
                           "reason for each, or change the position")
        return out

    def analysis_gap(self, samples: int | None = None
                     ) -> tuple[OptionAdvice, OptionAdvice] | None:
        """(the best accepted line, the best line) when the analysis clearly prefers an
        answer the lesson does not accept; ``None`` otherwise."""
        values = self.valued(samples)
        mine = [v for v in values if v.answer in self.accept]
        if not values or not mine or not clearly_worse(values[0], mine[0]):
            return None
        return mine[0].option, values[0].option

    def analysis_reason(self, answer: Any, samples: int | None = None) -> str | None:
        """Why this (legal) answer is worse, from the analysis, in words: "Passing gives up
        about 2 points: with J♠ K♠ A♦ and the exchange you expect about 3.4 tricks in ♠"."""
        if not self.has_analysis:
            return None
        values = self.valued(samples)
        mine = self.value_of(answer, samples)
        if not values or mine is None or mine.answer == values[0].answer:
            return None
        best = values[0]
        return worse_words(self.choice_words(answer), self.choice_words(best.answer),
                           mine.worth.mean, best.worth.mean - mine.worth.mean,
                           self.describe(mine, best))

    def describe(self, mine: Valued, best: Valued) -> str:
        """The facts behind the comparison, from the analysis (subclasses say it better)."""
        return compare_facts(mine.option, best.option, best.answer)

    def right_facts(self, answer: Valued, runner: Valued) -> str:
        """Why ``answer`` (a right one) beats the runner-up, its own facts first."""
        return self.describe(answer, runner)

    def analysis_hint(self) -> str:
        values = self.valued()
        advice = self.analysis()
        lines = [f"What would the analysis do? It dealt the cards you cannot see {advice.samples}"
                 " times, to fit what you know, and played each deal out perfectly. Best first,"
                 " by the points your side can expect against the other side (± the 95% "
                 "interval):"]
        lines += [f"  {i}. {action_text(v.answer)}: {_figure(v)}"
                  f"{'  (' + v.option.label + ')' if v.option.label != str(v.answer) else ''}"
                  for i, v in enumerate(values[:4], 1)]
        lines.append("It is a second opinion: it plays as if everyone could see every card.")
        if self.disagree:
            lines.append(f"This lesson departs from it here: {self.disagree}")
        return "\n".join(lines)

    def choice_words(self, answer: Any) -> str:
        """The answer as the start of a sentence: "Bidding 5", "Sending the K♠"."""
        text = action_text(answer)
        return text[0].upper() + text[1:]

    def judge(self, raw: Any) -> Feedback:
        feedback = super().judge(raw)
        answer = self.parse(raw)
        if feedback.correct:
            own = self.reasons.get(self.key(answer))
            if own:  # the author's reason for this very answer says the most
                feedback = replace(feedback, author_note=own)
        elif feedback.answer_reason and feedback.answer_reason.endswith(
                f" over {lower_first(self.choice_words(answer))}.") and (
                self.analysis_reason(answer) in feedback.verdict):
            # "5 is best, by about 4 points over passing." after "Passing gives up about 4
            # points against bidding 5: ...": the verdict has said it already.
            feedback = replace(feedback, answer_reason=None)
        return feedback

    def answer_reason(self) -> str | None:
        return self.reason or None

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
        out += self._common_problems()
        return out

    def _common_problems(self) -> list[str]:
        out = []
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
        if len(self.accept) > 1:
            missing = [action_text(a) for a in self.accept if not self.reasons.get(self.key(a))]
            if missing:
                out.append("a step that accepts several answers needs a reason for each "
                           f"(accept: [{{answer: ..., reason: ...}}]); none for "
                           f"{', '.join(missing)}")
        return out


def _figure(v: Valued) -> str:
    w = v.worth
    return f"{w.mean:+.1f} exactly" if w.samples == 0 else f"{w.mean:+.1f} ± {w.half_width:.1f}"


@dataclass
class BidStep(ChoiceStep[Bid]):
    kind: ClassVar[str] = "bid"
    title: ClassVar[str] = "Your call"
    lesson_fields: ClassVar[tuple[str, ...]] = (
        "hand", "dealer", "auction", "accept", "reason", "disagree")
    lesson_required: ClassVar[tuple[str, ...]] = ("hand", "accept", "reason")
    default_prompt: ClassVar[str] = "What do you call?"
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
        # "bid 5" reads as 5: it is how the answer is written (answer_text); "I pass" as at
        # the table (the one reader of calls)
        call = read_call(raw, "bid")
        assert isinstance(call, Bid)
        return call

    def answer_text(self) -> str:
        """"bid 5" or "pass": a bare "5" would not say that it is a call."""
        return " or ".join("pass" if a is Bid.PASS else f"bid {action_text(a)}"
                           for a in self.accept)

    def choice_words(self, answer: Any) -> str:
        return "Passing" if answer is Bid.PASS else f"Bidding {action_text(answer)}"

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        return option.bid is answer or (answer is Bid.PASS and option.label == "pass")

    def value_of(self, answer: Any, samples: int | None = None,
                 seed: int | None = None) -> Valued | None:
        """A pass is worth 0; a bid, the best trump and way of playing at that level (the
        advice values every level on the same sampled deals)."""
        option = self.analysis(samples, seed).choice(answer)
        return None if option is None else Valued(answer, option)

    def legal_answers(self) -> list[Any]:
        state = self.state()
        return [b for b in state.legal_actions() if isinstance(b, Bid)]

    def describe(self, mine: Valued, best: Valued) -> str:
        return bid_facts(mine.answer, mine.option, best.answer, best.option, self.hand,
                         self.rules.left_bower)

    def right_facts(self, answer: Valued, runner: Valued) -> str:
        return bid_right_facts(answer.answer, answer.option, runner.answer, runner.option,
                               self.hand, self.rules.left_bower)

    def key(self, answer: Bid) -> str:
        return str(answer)

    def default_cite(self) -> tuple[str, ...]:
        variants = tuple(r for r in self.rules.rule_ids if r.startswith("variant."))
        return ("bid.must-top", "bid.ladder", *variants)

    def nudge(self) -> str:
        """The position's own facts: the hand in its best suit and what a bid must top."""
        suit = Trump(best_suit(self.rules, [c.index for c in self.hand]))
        held = trump_holding(self.hand, suit, self.rules.left_bower)
        standing = max((b for b in self.auction if b is not Bid.PASS), default=None)
        if standing is None:
            stands = "No one has bid yet"
        else:
            who = next(s for s, b in zip(_callers(self.dealer, len(self.auction),
                                              self.rules.players), self.auction, strict=True)
                   if b is standing)
            partner = " (your partner)" if self.rules.partnerships and \
                self.rules.players == 4 and who == self.seat.partner else ""
            stands = f"{who.word}{partner} has bid {standing.display}"
        return (f"You hold {held}. {stands}: how many tricks can your side count on, and is "
                "that more than the bid standing?")

    def choices(self) -> list[Option]:
        return [Option(b, b.display) for b in (Bid.PASS, *self.rules.ladder)]

    def situation(self) -> Situation:
        return Situation(hand=self.hand, dealer=self.dealer, auction=self.auction,
                         seat=self.seat)


@dataclass
class DeclareStep(ChoiceStep[Trump | Mode]):
    """``choose: trump`` (name trumps) or ``choose: mode`` (exchange, partner, or alone)."""

    kind: ClassVar[str] = "declare"
    title: ClassVar[str] = "Trumps and the way of playing"
    lesson_fields: ClassVar[tuple[str, ...]] = (
        "choose", "hand", "bid", "trump", "accept", "reason", "disagree")
    lesson_required: ClassVar[tuple[str, ...]] = ("choose", "accept", "reason")
    default_prompt: ClassVar[str] = "What do you declare?"
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
            return read_call(raw, "trump")
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
        return out + self._common_problems()

    def is_right(self, answer: Trump | Mode) -> bool:
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

    def choice_words(self, answer: Any) -> str:
        if answer == "alone":
            return "Playing alone"
        if isinstance(answer, Mode):
            return "Taking the exchange" if answer is Mode.EXCHANGE else "Playing with partner"
        return "Calling no trump" if answer is Trump.NT else f"Naming {answer.word}"

    def describe(self, mine: Valued, best: Valued) -> str:
        return declare_facts(self.choose, mine.option, best.answer, best.option, self.hand,
                             self.rules.left_bower)

    def default_cite(self) -> tuple[str, ...]:
        if self.choose == "trump":
            return ("declare.trump",)
        if self.bid is Bid.BIG_PEPPER:
            return ("declare.big-pepper",)
        return ("declare.exchange", "declare.with-partner")

    def nudge(self) -> str:
        if self.choose == "trump":
            counts = ", ".join(trump_holding(self.hand, t, self.rules.left_bower)
                               for t in (Trump.C, Trump.D, Trump.H, Trump.S))
            return (f"Counting both jacks of a colour: {counts}; and "
                    f"{trump_holding(self.hand, Trump.NT)}. Which carries {self.bid.display}?")
        held = trump_holding(self.hand, self.trump, self.rules.left_bower)
        return (f"You hold {held}, for {self.bid.display}: would one card from partner make it "
                "alone, or do you need partner's whole hand?")

    def choices(self) -> list[Option]:
        if self.choose == "trump":
            return [Option(t, "no trump" if t is Trump.NT else f"{t.display} {t.word}")
                    for t in Trump]
        return [Option(Mode.EXCHANGE, Mode.EXCHANGE.display),
                Option(Mode.PARTNER, Mode.PARTNER.display), Option("alone", "play alone")]

    def situation(self) -> Situation:
        return Situation(hand=self.hand, bid=self.bid,
                         trump=self.trump if self.choose == "mode" else None)


@dataclass
class ExchangeStep(ChoiceStep[Card]):
    """As the bidder, which card to discard; as the partner, which card to send."""

    kind: ClassVar[str] = "exchange"
    title: ClassVar[str] = "The exchange"
    lesson_fields: ClassVar[tuple[str, ...]] = (
        "role", "hand", "trump", "bid", "accept", "reason", "disagree")
    lesson_required: ClassVar[tuple[str, ...]] = ("role", "hand", "trump", "accept", "reason")
    default_prompt: ClassVar[str] = "Which card do you discard?"
    role: str = "bidder"
    hand: tuple[Card, ...] = ()
    trump: Trump = Trump.H
    bid: Bid = Bid.FOUR
    bidder: Seat = Seat.N  # the seat that won the bid (the others pass)
    dealer: Seat = Seat.W

    @property
    def seat(self) -> Seat:
        return self.bidder if self.role == "bidder" else self.bidder.partner

    def state(self) -> HandState:
        s = HandState.from_hands(_deal_around({self.seat: self.hand}, 4), self.rules,
                                 self.dealer)
        _win_the_bid(s, self.bidder, self.bid)
        for action in (self.trump, Mode.EXCHANGE):
            v = s.check(action)
            if not v.legal:
                raise ValueError(" ".join(v.facts))
            s.apply(action)
        if self.role == "partner":
            s.apply(s.hand(self.bidder)[0])
        return s

    def choice_words(self, answer: Any) -> str:
        verb = "Discarding" if self.role == "bidder" else "Sending"
        return f"{verb} the {action_text(answer)}"

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        return option.card is answer

    def describe(self, mine: Valued, best: Valued) -> str:
        return exchange_facts(self.role, mine.answer, mine.option, best.answer, best.option,
                              self.trump, self.rules.left_bower)

    def parse_value(self, raw: Any) -> Card:
        cards = read_cards(raw, self.hand, self.trump, self.rules.left_bower)
        if len(cards) != 1:
            raise AnswerError("name one card, such as J♦ or JD")
        return cards[0]

    def problems(self) -> list[str]:
        out = [] if self.role in ("bidder", "partner") else ["role must be bidder or partner"]
        return out + super().problems()

    def default_cite(self) -> tuple[str, ...]:
        return ("declare.exchange",)

    def nudge(self) -> str:
        held = trump_holding(self.hand, self.trump, self.rules.left_bower)
        if self.role == "bidder":
            return (f"You hold {held}, and play alone for {self.bid.display}: which card is "
                    "least likely to take a trick?")
        where = "in no trump" if self.trump is Trump.NT else f"with {self.trump.word} trumps"
        return (f"You hold {held}. Your partner plays alone for {self.bid.display} {where}: "
                "which one card of yours helps most there?")

    def choices(self) -> list[Option]:
        return [Option(c, c.display, True) for c in self.hand]

    def example(self) -> str:
        verb = "discard" if self.role == "bidder" else "send"
        return f"Type the card to {verb}, such as {card_example(self.hand)}"

    def situation(self) -> Situation:
        return Situation(hand=self.hand, trump=self.trump, bid=self.bid, role=self.role,
                         bidder=self.bidder, seat=self.seat)


@dataclass
class DefendStep(ChoiceStep[Defense]):
    kind: ClassVar[str] = "defend"
    title: ClassVar[str] = "Play or surrender?"
    lesson_fields: ClassVar[tuple[str, ...]] = (
        "hand", "trump", "bid", "mode", "accept", "reason", "disagree")
    lesson_required: ClassVar[tuple[str, ...]] = ("trump", "bid", "accept", "reason")
    default_prompt: ClassVar[str] = "Do you play or surrender?"
    hand: tuple[Card, ...] = ()
    trump: Trump = Trump.H
    bid: Bid = Bid.FOUR
    mode: Mode = Mode.EXCHANGE
    bidder: Seat = Seat.N  # the seat that won the bid (the others pass)
    dealer: Seat = Seat.W

    @property
    def seat(self) -> Seat:
        """The defender who decides: the one on the bidder's left."""
        return self.bidder.next()

    def state(self) -> HandState:
        known = {self.seat: self.hand} if self.hand else {}
        s = HandState.from_hands(_deal_around(known, 4), self.rules, self.dealer)
        _win_the_bid(s, self.bidder, self.bid)
        s.apply(self.trump)
        if s.phase is Phase.DECLARE_MODE:
            s.apply(self.mode)
        if s.phase is Phase.DISCARD:
            s.apply(s.hand(self.bidder)[-1])
            s.apply(s.hand(self.bidder.partner)[0])
        if s.phase is not Phase.DEFENSE:
            raise ValueError("these rules have no defenders' decision")
        return s

    def parse_value(self, raw: Any) -> Defense:
        call = read_call(raw, "defense")  # "we play", "surrender", as at the table
        assert isinstance(call, Defense)
        return call

    def matches(self, option: OptionAdvice, answer: Any) -> bool:
        return option.defense is answer

    def choice_words(self, answer: Any) -> str:
        return "Surrendering" if answer is Defense.SURRENDER else "Playing"

    def describe(self, mine: Valued, best: Valued) -> str:
        return defend_facts(self.rules, self.bid, mine.answer, mine.option, best.option)

    def right_facts(self, answer: Valued, runner: Valued) -> str:
        # What the other answer gives away is the case for this one.
        return self.describe(runner, answer)

    def default_cite(self) -> tuple[str, ...]:
        return ("defend.surrender", "variant.dirty-clubs") if self.rules.dirty_clubs else (
            "defend.surrender", "score.sweep")

    def nudge(self) -> str:
        held = trump_holding(self.hand, self.trump, self.rules.left_bower)
        need = self.bid.tricks
        stake = "all six" if need >= 6 else f"{need} of the six tricks"
        simple = (" Under simple scoring bidders who make their bid score every trick they "
                  "take." if self.rules.preset == "simple" else
                  " Here bidders who make their bid score every trick they take."
                  if self.rules.score_what_you_get else "")
        return (f"You hold {held}. {self.bidder.word} needs {stake}; how many can you and "
                f"your partner take?{simple}")

    def choices(self) -> list[Option]:
        return [Option(Defense.PLAY, "play"), Option(Defense.SURRENDER, "surrender")]

    def situation(self) -> Situation:
        return Situation(hand=self.hand, trump=self.trump, bid=self.bid, bidder=self.bidder,
                         seat=self.seat)
