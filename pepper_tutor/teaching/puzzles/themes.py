"""What a puzzle is about: its theme, the rules it cites, its phase, contract and trick.

The theme is the reason the tempting second-best answer is worse, in the vocabulary of
:mod:`pepper_tutor.analysis.reasons` (``trumped-partner``, ``kept-lone-loser``,
``sent-low-trump``, ``overbid``, ...): the one list of reasons the coach already speaks.
Where no rule of thumb explains a card, the theme still says what the choice was between,
from the cards alone: drawing trumps or not, which suit to lead, high or low in a suit, to
trump in or not, which card to throw away. Only where nothing of that kind applies does the
theme name the kind of decision (``card-judgement``, ``call-judgement``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ...analysis.advice import Advice
from ...analysis.reasons import why
from ...engine.calls import Bid, Defense, Mode, Trump
from ...engine.cards import Card, Rank
from ...engine.ranking import (
    EFFECTIVE_SUIT,
    TRICK_POWER,
    TRICK_RANK,
    effective_suit,
    is_trump,
    trump_code,
)
from ...engine.state import Action, HandState, Phase

__all__ = ["THEMES", "FALLBACK", "RULES_OF", "Theme", "card_choice", "theme_of", "theme_title",
           "theme_weight", "hints_at_answer", "theme_holds"]

# Where no reason applies: the kind of judgement, by puzzle kind.
FALLBACK = {"bid": "call-judgement", "trump": "trump-judgement", "mode": "way-judgement",
            "discard": "discard-judgement", "send": "send-judgement",
            "defense": "defense-judgement", "play": "card-judgement"}

# The rule ids each theme cites (ids of the rulebook; tests/test_puzzles.py checks them).
RULES_OF: dict[str, tuple[str, ...]] = {
    "trumped-partner": ("play.trick-winner", "rank.trump"),
    "overtook-partner": ("play.trick-winner",),
    "won-too-high": ("play.trick-winner",),
    "missed-the-trick": ("play.trick-winner", "play.follow-suit"),
    "threw-a-winner": ("play.follow-suit", "play.trick-winner"),
    "led-trump-on-defense": ("play.lead", "rank.trump"),
    "ace-not-cashed": ("play.lead", "rank.plain"),
    "discarded-trump": ("declare.exchange", "rank.trump"),
    "discarded-ace": ("declare.exchange", "rank.plain"),
    "kept-lone-loser": ("declare.exchange", "play.follow-suit"),
    "sent-non-trump": ("declare.exchange", "rank.trump"),
    "sent-low-trump": ("declare.exchange", "rank.trump"),
    "surrendered-too-soon": ("defend.surrender", "score.surrender"),
    "played-a-lost-cause": ("defend.surrender", "score.defenders"),
    "passed-a-making-hand": ("bid.order", "score.bid"),
    "underbid": ("bid.ladder", "score.bid"),
    "overbid": ("bid.ladder", "score.bid"),
    "went-alone": ("declare.exchange", "declare.with-partner"),
    "stayed-with-partner": ("declare.with-partner", "declare.exchange"),
    "weaker-trump": ("declare.trump", "rank.trump"),
    "call-judgement": ("bid.ladder", "score.bid"),
    "trump-judgement": ("declare.trump",),
    "way-judgement": ("declare.exchange", "declare.with-partner"),
    "discard-judgement": ("declare.exchange",),
    "send-judgement": ("declare.exchange",),
    "defense-judgement": ("defend.surrender", "score.defenders"),
    "draw-trumps": ("play.lead", "rank.trump"),
    "trumps-held-back": ("play.lead", "rank.trump"),
    "lead-the-right-suit": ("play.lead",),
    "high-or-low-lead": ("play.lead", "play.trick-winner"),
    "high-or-low-follow": ("play.follow-suit", "play.trick-winner"),
    "trump-in": ("play.follow-suit", "rank.trump"),
    "save-the-trump": ("play.follow-suit", "rank.trump"),
    "which-trump": ("rank.trump", "play.trick-winner"),
    "which-discard": ("play.follow-suit",),
    "card-judgement": ("play.trick-winner",),
}
THEMES = tuple(RULES_OF)

_TITLES = {
    "trumped-partner": "Don't trump your partner", "overtook-partner": "Let partner's card win",
    "won-too-high": "Win cheaply", "missed-the-trick": "Take the trick",
    "threw-a-winner": "Keep your winners", "led-trump-on-defense": "Defenders' leads",
    "ace-not-cashed": "Cash the ace", "discarded-trump": "Keep your trumps",
    "discarded-ace": "Keep your aces", "kept-lone-loser": "Discard the lone loser",
    "sent-non-trump": "Send a trump", "sent-low-trump": "Send your best trump",
    "surrendered-too-soon": "Don't surrender too soon",
    "played-a-lost-cause": "Know when to surrender", "passed-a-making-hand": "Bid your hand",
    "underbid": "Bid it up", "overbid": "Don't overbid", "went-alone": "Stay with partner",
    "stayed-with-partner": "Go alone", "weaker-trump": "Pick the right trump",
    "call-judgement": "Calling judgement", "trump-judgement": "Choosing trumps",
    "way-judgement": "Alone or with partner", "discard-judgement": "The discard",
    "send-judgement": "The card you send", "defense-judgement": "Play or surrender",
    "draw-trumps": "Draw the trumps", "trumps-held-back": "Not yet: keep the trumps",
    "lead-the-right-suit": "Choose the suit to lead", "high-or-low-lead": "Lead high or low",
    "high-or-low-follow": "High or low in the suit led", "trump-in": "Trump in",
    "save-the-trump": "Keep the trump for later", "which-trump": "Which trump to play",
    "which-discard": "Which card to throw away",
    "card-judgement": "Card play",
}


# Themes whose title names the answer of a two-way choice ("Don't surrender too soon": play).
NAMES_THE_ANSWER = frozenset({"surrendered-too-soon", "played-a-lost-cause", "went-alone",
                              "stayed-with-partner"})


def theme_weight(chosen: str | None, solved: bool) -> float:
    """How much a first attempt moves the ratings when the learner chose the theme
    ``chosen`` (None: any theme), as lila's ``PuzzleFinisher`` weighs its themes. A theme's
    title hints at the answer, so a solve tells less than a miss does; a title that names
    the answer tells least; a theme that names only the kind of decision (which the
    question says anyway) hints at nothing, and counts nearly in full."""
    if chosen is None:
        return 1.0
    if chosen in NAMES_THE_ANSWER:
        return 0.1 if solved else 0.4
    if not hints_at_answer(chosen):
        return 0.7 if solved else 0.8
    return 0.2 if solved else 0.7


def hints_at_answer(theme: str) -> bool:
    """Whether knowing the theme hints at the answer: every theme but those that only name
    the kind of decision."""
    return theme not in FALLBACK.values()


def theme_title(theme: str) -> str:
    """A theme in a learner's words (the theme itself when it has no title)."""
    return _TITLES.get(theme, theme.replace("-", " ").capitalize())


def theme_named(words: str, themes: Iterable[str]) -> str:
    """The theme among ``themes`` that ``words`` names: its title as a player reads it
    ("draw the trumps", any case, quotes or not) or its name; ``words`` itself when none
    does (the caller says it is not a theme)."""
    def said(text: str) -> str:
        return " ".join(text.replace("’", "'").replace("-", " ").lower().split())
    wanted = said(words.strip().strip("'\""))
    for theme in themes:
        if wanted in (said(theme), said(theme_title(theme))):
            return theme
    return words


@dataclass(frozen=True)
class Theme:
    """What a puzzle tests, for choosing puzzles by theme and for the dashboard."""

    name: str
    rules: tuple[str, ...]
    phase: str
    contract: str | None  # "4 ♥ alone" once the contract is known, else None
    trick: int | None  # the trick's number (1 to 6) for a card, else None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "rules": list(self.rules), "phase": self.phase,
                "contract": self.contract, "trick": self.trick}


def _contract(state: HandState) -> str | None:
    if state.bidder is None or state.high_bid is Bid.PASS:
        return None
    text = f"{state.high_bid.display} by {state.bidder}"
    if state.trump is not None:
        text += f", {state.trump.display}"
    if state.mode is not None:
        text += f", {state.mode.value}"
    return text


def card_choice(state: HandState, tempting: Card, best: Card) -> str | None:
    """What a choice between two cards in the play was about, from the cards alone (no
    judgement of which is better: that is the analysis's)."""
    trump = state.trump
    if trump is None:
        return None
    left = state.rules.left_bower

    def trumps(card: Card) -> bool:
        return trump is not Trump.NT and is_trump(card, trump, left)

    def suit(card: Card) -> object:
        return effective_suit(card, trump, left) if trump is not Trump.NT else card.suit

    trick = state.current_trick
    if not trick:
        seat = state.to_act
        bidders = (seat is not None and state.bidder is not None
                   and state.rules.side_of(seat) == state.rules.side_of(state.bidder))
        if suit(best) == suit(tempting):
            return "high-or-low-lead"
        if bidders and trumps(best) and not trumps(tempting):
            return "draw-trumps"
        if bidders and trumps(tempting) and not trumps(best):
            return "trumps-held-back"
        return "lead-the-right-suit"
    led = suit(trick[0][1])
    if suit(best) == led and suit(tempting) == led:
        return "high-or-low-follow"
    if suit(best) == led or suit(tempting) == led:
        return None  # cannot happen: following suit is forced
    if trumps(best) and trumps(tempting):
        return "which-trump"
    if trumps(best):
        return "trump-in"
    if trumps(tempting):
        return "save-the-trump"
    return "which-discard"


def _trick_power(state: HandState) -> tuple[Callable[[Card], int], int, bool]:
    """A card's power in the trick as it stands, the power of the card winning it, and
    whether that card is the partner's of the seat to act."""
    code = trump_code(state.trump if state.trump is not None else Trump.NT,
                      state.rules.left_bower)
    trick = state.current_trick
    led = EFFECTIVE_SUIT[code][trick[0][1].index]
    powers = TRICK_POWER[code][led]
    seat, card = max(trick, key=lambda sc: powers[sc[1].index])
    mover = state.to_act
    partner = (mover is not None and seat != mover
               and state.rules.side_of(seat) == state.rules.side_of(mover))
    return (lambda c: powers[c.index]), powers[card.index], partner


def theme_holds(state: HandState, theme: str, best: Action, tempting: Action) -> bool:
    """Whether what the theme's title says is true of the answer ``best`` against
    ``tempting`` at ``state``: "Take the trick" only when the answer beats the cards on the
    table and the tempting card does not; "Win cheaply" when both win and the answer is the
    lower; "Don't trump your partner" and "Let partner's card win" when the answer leaves
    partner's winning card be; "Keep your winners", "Keep your trumps", "Keep your aces"
    when the answer keeps them; "Cash the ace" an ace led; "Send your best trump" the top
    trump; a title naming a call when the answer is that call. A theme of the cards alone
    (:func:`card_choice`) holds by how it is found; the others name only the kind."""
    trump = state.trump
    left = state.rules.left_bower

    def trumps(card: Action) -> bool:
        return (isinstance(card, Card) and trump is not None and trump is not Trump.NT
                and is_trump(card, trump, left))

    def plain_ace(card: Action) -> bool:
        return isinstance(card, Card) and card.rank is Rank.ACE and not trumps(card)

    if theme in ("missed-the-trick", "won-too-high", "trumped-partner", "overtook-partner"):
        if not (isinstance(best, Card) and isinstance(tempting, Card) and state.current_trick):
            return False
        power, top, partner = _trick_power(state)
        if theme == "missed-the-trick":
            return not partner and power(best) > top >= power(tempting)
        if theme == "won-too-high":
            return top < power(best) < power(tempting)
        return partner and power(best) < top < power(tempting)
    if theme == "threw-a-winner":
        return plain_ace(tempting) and not plain_ace(best)
    if theme == "discarded-trump":
        return trumps(tempting) and not trumps(best)
    if theme == "discarded-ace":
        return plain_ace(tempting) and not plain_ace(best)
    if theme == "ace-not-cashed":
        return plain_ace(best) and not state.current_trick
    if theme == "led-trump-on-defense":
        return trumps(tempting) and not trumps(best)
    if theme == "sent-non-trump":
        return trumps(best) and not trumps(tempting)
    if theme == "sent-low-trump":
        return trumps(best) and trumps(tempting) and _top_trump(state) == best
    said = {"surrendered-too-soon": Defense.PLAY, "played-a-lost-cause": Defense.SURRENDER,
            "went-alone": Mode.PARTNER, "stayed-with-partner": Mode.EXCHANGE}
    if theme in said:
        return best is said[theme]
    if theme == "passed-a-making-hand":
        return tempting is Bid.PASS and best is not Bid.PASS
    if theme in ("underbid", "overbid"):
        if not (isinstance(best, Bid) and isinstance(tempting, Bid)):
            return False
        return best > tempting if theme == "underbid" else best < tempting
    return True


def _top_trump(state: HandState) -> Card | None:
    seat = state.to_act
    trump = state.trump
    if seat is None or trump is None or trump is Trump.NT:
        return None
    left = state.rules.left_bower
    held = [c for c in state.hand(seat) if is_trump(c, trump, left)]
    code = trump_code(trump, left)
    return max(held, key=lambda c: TRICK_RANK[code][c.index]) if held else None


def theme_of(state: HandState, kind: str, tempting: Action, best: Action,
             advice: Advice, answers: Sequence[Action] = ()) -> Theme:
    """The theme of a puzzle at ``state`` whose tempting answer is ``tempting``: the
    coach's reason the tempting answer is worse where its title holds of the answer and of
    every other answer worth as much (``answers``; :func:`theme_holds`), else what the
    choice was between."""
    reason = why(state, tempting, best, advice)
    if (reason is not None and reason.fact in RULES_OF
            and all(theme_holds(state, reason.fact, a, tempting) for a in (best, *answers))):
        name = reason.fact
    elif kind == "play" and isinstance(tempting, Card) and isinstance(best, Card):
        name = card_choice(state, tempting, best) or FALLBACK[kind]
    else:
        name = FALLBACK[kind]
    trick = len(state.tricks) + 1 if state.phase is Phase.PLAY else None
    return Theme(name, RULES_OF[name], state.phase.value, _contract(state), trick)
