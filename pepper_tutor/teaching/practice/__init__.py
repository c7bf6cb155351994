"""Practice: whole hands against computer players, with a coach on every decision.

Owns the practice table (``table``), the coach's grade and reason for one decision
(``coach``), the computer players it seats (``players``), the table's history of hands
and grades (``history``), and the daily deal (``daily``: the same deals and computer players
for everyone on a date, against par) with its board of results (``daily_board``).

May import: ``pepper_tutor.teaching.learner``, ``pepper_tutor.teaching.questions`` and the
layers below teaching.
"""
