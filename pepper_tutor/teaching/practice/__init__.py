"""Practice: whole hands against computer players, with a coach on every decision.

Owns the practice table (``table``), the coach's grade and reason for one decision
(``coach``), the computer players it seats (``players``) and the table's history of hands
and grades (``history``).

May import: ``pepper_tutor.teaching.learner``, ``pepper_tutor.teaching.questions`` and the
layers below teaching.
"""
