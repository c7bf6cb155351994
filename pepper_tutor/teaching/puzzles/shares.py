"""What the bank's answers are, by kind: a bank whose answer a learner can guess from the
kind of question alone teaches the guess, not the game.

:func:`answer_shares` gives, per kind, how often each answer is the answer (a card's kind by
what the card is: the highest legal card or another; a trump by a suit or no trump);
:func:`highest_share` how often the highest legal card is an answer of a play puzzle.
``python -m pepper_tutor.teaching.puzzles.shares [FILE]`` prints both for the shipped bank (or
FILE), with the puzzles the selection holds back (``make puzzles`` does after a build);
``tests/test_puzzles_bank.py`` keeps them (:mod:`.selection` makes them so).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ...engine.cards import Card
from .bank import bank_puzzles, load_bank
from .classes import CARD_KINDS, class_of, highest_of
from .puzzle import Puzzle
from .selection import CAP, HIGHEST_CAP

__all__ = ["CARD_KINDS", "answer_class", "highest_card", "answer_shares", "counts",
           "highest_share", "random_share", "main"]


def highest_card(p: Puzzle, lowest: bool = False) -> Card:
    """The puzzle's legal card that bids highest for the trick (``lowest``: lowest)."""
    return highest_of(p.position(), lowest)


def answer_class(p: Puzzle) -> str:
    """The puzzle's answer as a class a guess could name (:func:`~.classes.class_of`)."""
    return class_of(p.kind, p.position(), p.answers)


def answer_shares(puzzles: Sequence[Puzzle]) -> dict[str, dict[str, float]]:
    """Per kind, the share of each answer class, largest first."""
    out: dict[str, dict[str, float]] = {}
    for kind, classes in counts(puzzles).items():
        total = sum(classes.values())
        out[kind] = {k: n / total for k, n in classes.most_common()}
    return out


def counts(puzzles: Sequence[Puzzle]) -> dict[str, Counter[str]]:
    """Per kind, how many puzzles each answer class answers."""
    out: dict[str, Counter[str]] = {}
    for p in puzzles:
        out.setdefault(p.kind, Counter())[answer_class(p)] += 1
    return dict(sorted(out.items()))


def highest_share(puzzles: Sequence[Puzzle]) -> float:
    """The share of play puzzles the highest legal card answers."""
    play = [p for p in puzzles if p.kind == "play"]
    return sum(str(highest_card(p)) in p.answers for p in play) / len(play) if play else 0.0


def random_share(puzzles: Sequence[Puzzle]) -> float:
    """The share of play puzzles a legal card drawn at random answers, on average."""
    play = [p for p in puzzles if p.kind == "play"]
    return sum(len(p.answers) / p.data["legal"] for p in play) / len(play) if play else 0.0


def main(argv: Sequence[str] | None = None) -> None:
    """Print the shares of the shipped bank (or of the file named first in ``argv``) and
    how many puzzles of each kind the selection holds back and how many were refuted when
    played out."""
    args = list(sys.argv[1:] if argv is None else argv)
    path = Path(args[0]) if args else None
    puzzles = bank_puzzles(path)
    data = load_bank(path)
    held = Counter(p["kind"] for p in data.get("held", []))
    refuted = Counter(p["kind"] for p in data.get("refuted", []))
    print(f"The bank's answers by kind ({len(puzzles)} puzzles; held back so that no class "
          f"answers more than {CAP} of a kind, the highest card more than {HIGHEST_CAP} of "
          f"the play puzzles: {sum(held.values())}):")
    shipped = counts(puzzles)
    for kind in sorted({*shipped, *held, *refuted}):
        classes = shipped.get(kind, Counter())
        total = sum(classes.values())
        shares = ", ".join(f"{k} {n} ({100 * n / total:.0f}%)" for k, n in classes.most_common())
        print(f"  {kind:<8}{total:>5}: {shares or 'none shipped'}"
              + (f" ({held[kind]} held back)" if held[kind] else "")
              + (f" ({refuted[kind]} refuted when played out)" if refuted[kind] else ""))
    print(f"  the highest legal card answers {100 * highest_share(puzzles):.0f}% of play "
          f"puzzles (a legal card at random {100 * random_share(puzzles):.0f}%)")


if __name__ == "__main__":
    main()
