"""Analysis: what perfect play and good judgement would do.

Owns the exact double-dummy solver (``solver``, its search in ``search``, the position types in
``position``), dealing the cards a seat cannot see (``dealing``; a whole hand fitting one
seat's view in ``inference``), a simple model of how people bid (``calling``, which makes
the dealing auction-aware), the table's bid signals as the players make and read them
(``signals``), sampled advice for every decision (``advice``), the measured
correction of double-dummy trick counts to the tricks taken in play (``calibration``),
grading of played cards and decisions (``grading``), the reasons in words (``reasons``),
what one seat may see (``view``), the computer players that decide from it (``players``;
the shares of tricks a hand's count takes double-dummy, which the club player bids by, in
``hand_odds``), the
yardsticks they are measured against: a player of table tips that shares no code with the
analysis (``table_tips``) and an all-seeing one that decides double-dummy on the real cards
(``ceiling``), two choices at one decision played out to the end by players of any of those
levels (``playing_out``), the
choice between the pure and the compiled search (``native``), the life of a pool's worker
processes, which end with their parent (``workers``), and where batch work runs: the
standard library's pool or a Dask cluster, by name (``executors``).

May import: ``pepper_tutor.rulebook``, ``pepper_tutor.engine`` and ``pepper_tutor.files``; it
never reads lessons, records or front ends, so computer players and coaches can sit on top
of it.
"""
