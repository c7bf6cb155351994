"""Sampled advice for every decision made without seeing the other hands.

The sampling core, which every kind of decision shares: the deals a deciding seat imagines,
consistent with what it knows and kept by the calls it heard (``sampling``, its loop in C
where built: ``native_sampling``); what the deals
showed, in counts, with means, 95% intervals and paired differences (``tally``); solving
each deal double-dummy, here or in a pool of worker processes (``solving``); the options of
one decision, best first, with what each loses and the notes of the assumptions
(``report``); and what a trick count is worth in points, through the calibration
(``worth``).

One module per kind of decision: a call, which also names trumps and the way of playing
(``calls``, over ``auction``: the rest of the auction and the contract that stands after a
call, on each deal); the bidder's discard and the partner's card (``exchange``); play or
surrender (``defense``); a card in play (``play``); and whichever decision the hand waits
on (``dispatch``).

The public names are given here as well, for the layers above.
"""

from .auction import SolvedDeals
from .calls import advise_bid
from .defense import advise_defense
from .dispatch import advise
from .exchange import advise_discard, advise_send
from .play import advise_play
from .report import Advice, OptionAdvice
from .sampling import MAX_SAMPLES, AdviceRequestError, Progress
from .tally import Estimate, TalliedOption, Tally, is_clear

__all__ = [
    "MAX_SAMPLES",
    "Advice",
    "AdviceRequestError",
    "Estimate",
    "OptionAdvice",
    "Progress",
    "SolvedDeals",
    "TalliedOption",
    "Tally",
    "advise",
    "advise_bid",
    "advise_defense",
    "advise_discard",
    "advise_play",
    "advise_send",
    "is_clear",
]
