"""Analysis: what perfect play and good judgement would do.

Owns the exact double-dummy solver (``solver``, its search in ``search``, the position types in
``position``), dealing the cards a seat cannot see (``dealing``), sampled advice for every
decision (``advice``) and grading of played cards (``grading``).

May import: ``pepper_tutor.rulebook`` and ``pepper_tutor.engine``; it never reads lessons,
records or front ends, so computer players and coaches can sit on top of it.
"""
