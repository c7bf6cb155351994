"""Slow, obvious re-statements of RULES-SPEC used to cross-check the engine's fast tables.

Written from the spec's sentences, independent of pepper_tutor.engine.ranking and .scoring.
"""

from __future__ import annotations

SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
PLAIN_ORDER = ["A", "K", "Q", "J", "T", "9"]
TRUMP_ORDER = ["A", "K", "Q", "T", "9"]


def suit_of(card: str, trump: str, left: bool = True) -> str:
    """``left``: the left bower switch (cutthroat's seed has no left bower)."""
    rank, suit = card[0], card[1]
    if left and trump != "NT" and rank == "J" and suit == SAME_COLOUR[trump]:
        return trump
    return suit


def strength(card: str, trump: str, left: bool = True) -> int:
    """Higher is stronger, comparable only within one effective suit."""
    rank, suit = card[0], card[1]
    if trump != "NT" and suit_of(card, trump, left) == trump:
        if rank == "J":
            return 100 if suit == trump else 99
        return 50 - TRUMP_ORDER.index(rank)
    return 50 - PLAIN_ORDER.index(rank)


def winner(cards: list[str], trump: str, left: bool = True) -> int:
    trumps = [i for i, c in enumerate(cards)
              if trump != "NT" and suit_of(c, trump, left) == trump]
    if trumps:
        return max(trumps, key=lambda i: strength(cards[i], trump, left))
    led = suit_of(cards[0], trump, left)
    followers = [i for i, c in enumerate(cards) if suit_of(c, trump, left) == led]
    return max(followers, key=lambda i: strength(cards[i], trump, left))


def legal(hand: list[str], led: str | None, trump: str, left: bool = True) -> list[str]:
    if led is None:
        return list(hand)
    same = [c for c in hand if suit_of(c, trump, left) == suit_of(led, trump, left)]
    return same or list(hand)


def value(preset: str, bid: str) -> int:
    if bid == "LP":
        return 7 if preset == "standard" else 6
    if bid == "BP":
        return 14 if preset == "standard" else 12
    return int(bid)


def score(preset: str, bid: str, bidder: str, tricks: dict[str, int], surrendered: bool,
          swyg: bool = False) -> dict[str, int]:
    """Points per side, straight from the spec's tables."""
    out = {}
    need = 6 if bid in ("LP", "BP") else int(bid)
    v = value(preset, bid)
    others = [s for s in tricks if s != bidder]
    if surrendered:
        out[bidder] = v
        for s in others:
            out[s] = 0
        return out
    t = tricks[bidder]
    made = t >= need
    if preset == "standard":
        if bid in ("LP", "BP"):
            out[bidder] = v if t == 6 else -v
        else:
            out[bidder] = (t if swyg else v) if made else -v
        d = sum(tricks[s] for s in others)
        for s in others:
            if bid in ("LP", "BP"):
                out[s] = v if d >= 1 else -v
            else:
                out[s] = tricks[s] if d >= 1 else -v
    elif preset == "simple":
        if made:
            out[bidder] = {"LP": 6, "BP": 12}.get(bid, t)
        else:
            out[bidder] = -12 if bid == "BP" else -6
        for s in others:
            out[s] = tricks[s]
    else:  # cutthroat
        if made:
            out[bidder] = {"LP": 6, "BP": 12}.get(bid, t)
        else:
            out[bidder] = -v
        for s in others:
            out[s] = tricks[s]
    return out
