"""What advice reports: the options of one decision, best first, and what each loses.

Options are ranked by ``net``, the decision maker's points less the mean of the other sides'
points: the game is a race, so points handed to the other side count against you. Where
``net`` cannot be known (a non-bidder in three- or four-handed cutthroat, whose rivals' split
of the tricks the solver does not fix) they are ranked by ``score``. Each option carries
its paired loss against the best over the same deals, and the report its notes: the
assumptions it was made under, stated every time.

Assumptions:

- Play is double-dummy: once the cards are dealt, everyone plays as if they could see them
  all. That flatters the defenders and the bidder alike, and is the usual yardstick.
  Contracts' trick counts are then taken as the tricks expected in play by people who
  cannot see the cards (:mod:`pepper_tutor.analysis.calibration`, :mod:`.worth`).
- The partner in an exchange sends by a simple rule: the highest trump held, else the highest
  card (:func:`~pepper_tutor.analysis.dealing.send_rule`). Where the bidder's discard is
  not the decision being advised, it follows
  :func:`~pepper_tutor.analysis.dealing.discard_rule` (the lowest card of the shortest
  plain suit, keeping aces).
- Bid advice assumes the defenders play: a surrender only ever gives the bidders as much.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import Card
from ...engine.seats import Seat
from .tally import Estimate, Outcome, TalliedOption, Tally, in_the_race, loss_of_choice


@dataclass(frozen=True)
class OptionAdvice:
    """One option and what it is worth to the side deciding.

    The fields naming the option are set as the decision needs: ``bid``, ``trump`` and
    ``mode`` for a bid (``mode`` is ``None`` for pass, for big pepper, which is played alone
    without an exchange, and in cutthroat); ``card`` to discard, send or play; ``defense``.
    ``tricks`` counts the side's tricks over the whole hand (``None`` where no tricks are
    played, as for a surrender, or not counted: a big pepper is only solved for the sweep),
    ``score`` its points for the hand, ``net`` those points less the mean of the other
    sides' points (``None`` when that cannot be known).
    """

    label: str
    tricks: Estimate | None
    score: Estimate
    net: Estimate | None
    bid: Bid | None = None
    trump: Trump | None = None
    mode: Mode | None = None
    card: Card | None = None
    defense: Defense | None = None
    makes: float | None = None  # share of sampled deals in which the contract is made
    # What choosing this option loses against the best, in net (else points), paired over
    # the deals both were solved on, with its 95% interval allowing for the best (and a
    # bid's trump and way of playing) being picked on those deals (tally.loss_of_choice).
    # Far narrower than the two options' own intervals, which share the deals.
    loss: Estimate | None = None
    # The report's best less this one, paired, with no allowance for the pick (exactly 0
    # for the best): the figure the computer players' rules were set by.
    paired: Estimate | None = None

    def __str__(self) -> str:
        tricks = f"tricks {self.tricks}, " if self.tricks is not None else ""
        net = f", net {self.net}" if self.net is not None else ""
        return f"{self.label}: {tricks}points {self.score}{net}"


@dataclass(frozen=True)
class Advice:
    """The options of one decision, best first, with the sampling facts and assumptions."""

    decision: str  # "bid", "declare", "discard", "send", "defense" or "play"
    seat: Seat
    side: str  # whose figures these are: "NS", "EW", or a seat in cutthroat
    samples: int
    options: tuple[OptionAdvice, ...]
    notes: tuple[str, ...] = ()
    # Bid advice lists one level per trump and way of playing; every level is kept here.
    candidates: tuple[OptionAdvice, ...] = ()

    @property
    def best(self) -> OptionAdvice:
        return self.options[0]

    def choice(self, action: object) -> OptionAdvice | None:
        """The option for an action a player took: the card, the defense, or for a bid the
        best option at that level (a trump or way of playing names the best option with
        it). ``None`` when the advice has no such option."""
        for o in (*self.candidates, *self.options):  # candidates: every level, best first
            if action in (o.card, o.defense) and action is not None:
                return o
            if action is o.bid and self.decision == "bid":
                return o
            if action is not None and action in (o.trump, o.mode) and self.decision == "declare":
                return o
        return None

    def option(self, label: str) -> OptionAdvice:
        """The option with this label (``"send J♥"``, ``"surrender"``, ``"pass"``)."""
        for o in self.options:
            if o.label == label:
                return o
        raise KeyError(f"no option {label!r}: {', '.join(o.label for o in self.options)}")

    def __str__(self) -> str:
        head = (f"{self.decision.capitalize()} advice for {self.seat} ({self.side}), "
                f"{self.samples} sampled deal{'s' if self.samples != 1 else ''}, "
                "95% intervals:")
        width = max(len(o.label) for o in self.options)
        lines = [head]
        for i, o in enumerate(self.options):
            tricks = f"tricks {o.tricks}" if o.tricks is not None else "tricks -"
            net = f"   net {o.net}" if o.net is not None else ""
            mark = "*" if i == 0 else " "
            fewer = (f"   ({o.score.samples} deals)"
                     if 0 < o.score.samples < self.samples else "")
            lines.append(f" {mark} {o.label:<{width}}   {tricks:<18} points {o.score}{net}"
                         f"{fewer}")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)



MIN_SHARE_DEALS = 30
"""Deals an option must be solved on before the advice says how often it makes."""


def _with_losses(tally: Tally, ranked: Sequence[OptionAdvice],
                 tallied: Mapping[str, TalliedOption],
                 groups: Mapping[str, Sequence[TalliedOption]] | None = None,
                 found: dict[tuple[int, ...], Estimate | None] | None = None,
                 best: str | None = None) -> tuple[OptionAdvice, ...]:
    """The options with what each loses against the best of all the ``tallied`` options,
    paired over the same deals, its interval accounting for the best being picked on those
    deals (:func:`~.tally.loss_of_choice`). ``groups`` gives, by label, the ways the
    option's choice may be played where there are several (a bid in every trump): its loss
    is then the choice's, the best way taken, also picked on those deals. ``found`` keeps
    each group's figure for another call over the same tally. Each also gets its plain
    paired difference from ``best`` (the label of the report's best; default the first)."""
    racing = in_the_race(tally, list(tallied.values()))
    memo: dict[tuple[int, ...], Estimate | None] = {} if found is None else found
    top_label = ranked[0].label if best is None else best
    top = tallied.get(top_label)
    out = []
    for o in ranked:
        own = tallied.get(o.label)
        mine = groups.get(o.label) if groups is not None else None
        if mine is None:
            mine = [own] if own is not None else []
        key = tuple(id(c) for c in mine)
        if key not in memo:
            memo[key] = loss_of_choice(tally, mine, racing) if mine else None
        out.append(replace(o, loss=memo[key],
                           paired=_paired(tally, top, own, o.label == top_label)))
    return tuple(out)


def _paired(tally: Tally, top: TalliedOption | None, mine: TalliedOption | None,
            is_best: bool) -> Estimate | None:
    """The best's worth less ``mine``'s, paired over the deals both were solved on."""
    if is_best:
        return Estimate.exact(0.0)
    if top is None or mine is None:
        return None
    found = tally.paired(top, mine)
    if found is None and top.column is None and mine.column is None:
        return Estimate.exact(top.value(0) - mine.value(0))
    return None if found is None else found[0]


def _play_note(calibrated: bool) -> str:
    if calibrated:
        return ("play is solved double-dummy on each sampled deal, then each trick count is "
                "taken as the tricks expected in play by people who cannot see the cards "
                "(the measured calibration)")
    return _DOUBLE_DUMMY



def _net_choices(worth: Sequence[tuple[float, float]], columns: int) -> list[TalliedOption]:
    """One choice per column, worth the net points for the bidders' tricks (``worth``:
    ``(points, net)`` per trick count)."""
    return [TalliedOption(k, lambda n: worth[n][1]) for k in range(columns)]


def _losses(tally: Tally, options: Sequence[OptionAdvice],
            worth: Sequence[tuple[float, float]] | Callable[[int], float]
            ) -> tuple[OptionAdvice, ...]:
    """The options ranked, each with its paired loss against the best: one column each
    (in the given order), every column worth the same function of its trick count."""
    ranked = _ranked(options)
    value = (worth if callable(worth) else (lambda n: worth[n][1]))
    tallied = {o.label: TalliedOption(k, value) for k, o in enumerate(options)}
    return _with_losses(tally, ranked, tallied)


def _stopped(until_clear: bool, tally: Tally, samples: int) -> tuple[str, ...]:
    if until_clear and tally.deals < samples:
        return (f"sampling stopped after {tally.deals} deals: the best option was already "
                "clear at 95%",)
    return ()


def _same(row: Sequence[Outcome]) -> Sequence[Outcome]:
    """A sample that is already a row of trick counts, one per option."""
    return row


def _one(tricks: int) -> tuple[int]:
    """A sample of one trick count: the tally's one column."""
    return (tricks,)



def _option(label: str, tally: Tally, column: int,
            points: Callable[[Any], tuple[float, float]] | None = None, *,
            scores: Callable[[Any], float] | None = None,
            tricks: Callable[[Any], float] | None = float, bid: Bid | None = None,
            trump: Trump | None = None, mode: Mode | None = None, card: Card | None = None,
            defense: Defense | None = None, makes: float | None = None,
            spread: float = 0.0) -> OptionAdvice:
    """An option from its column of the tally: ``points(n)`` gives ``(points, net)`` for
    the trick count ``n`` solved there, or bare ``scores(n)`` where the net is unknown;
    ``tricks(n)`` the side's tricks (``None``: not reported). For a bid, ``makes``
    defaults to the share of deals with the bid's tricks. ``spread``: the net's standard
    error beyond the deals' own (:attr:`~.tally.TalliedOption.spread`)."""
    counts = tally.counts(column)
    if makes is None and bid is not None and bid is not Bid.PASS and tricks is not None:
        makes = sum(counts[bid.tricks:]) / sum(counts)
    if tally.solved(column) < MIN_SHARE_DEALS:
        makes = None  # "makes in 100% of deals" is not a finding over a handful of deals
    if points is not None:
        score = tally.estimate(column, lambda n: points(n)[0])
        net: Estimate | None = tally.estimate(column, lambda n: points(n)[1]).widened(spread)
    else:
        score, net = tally.estimate(column, scores or (lambda n: 0.0)), None
    return OptionAdvice(label, None if tricks is None else tally.estimate(column, tricks),
                        score, net, bid=bid, trump=trump, mode=mode, card=card,
                        defense=defense, makes=makes)


def _ranked(options: Sequence[OptionAdvice]) -> tuple[OptionAdvice, ...]:
    """Best first: by net where every option has one, else by points; then by tricks."""
    by_net = all(o.net is not None for o in options)

    def key(o: OptionAdvice) -> tuple[float, float]:
        main = o.net.mean if by_net and o.net is not None else o.score.mean
        return (-main, -(o.tricks.mean if o.tricks is not None else 0.0))

    return tuple(sorted(options, key=key))


_DOUBLE_DUMMY = "play is double-dummy on each sampled deal (everyone plays as if seeing all)"
_SEND_NOTE = "the partner's card is the rule's: the highest trump held, else the highest card"
_DISCARD_NOTE = ("the bidder's discard is the rule's: the lowest card of the shortest plain "
                 "suit, keeping aces")
