"""Puzzles: positions mined from played hands where one answer is clearly best.

Owns what a position must show to be kept (``validation``: two runs of the sampled analysis,
the thresholds), what a puzzle is about (``themes``), the layout shown after a miss
(``layouts``), one puzzle's stored form and typed value (``puzzle``), the miner that plays
hands and validates their decisions on any executor (``miner``), the shipped file of
puzzles and its build (``bank``), the class an answer falls in and the class each kind's
guess names (``classes``), the fair selection that caps each class's share of a kind
(``selection``), how often each answer is the answer in each kind of the bank
(``shares``), Glicko-2 ratings for learner and puzzle (``glicko``), the learner's puzzle
store with ratings, attempts and review cards (``store``) and the puzzle session: choosing
by theme and rating, streaks, the theme dashboard, the misses brought back (``session``).

May import: ``pepper_tutor.teaching.practice`` (the table's history of hands),
``pepper_tutor.teaching.review``, the wings below them and the layers below teaching.
"""
