"""Lessons: scripted walks through the rules.

Owns lesson files, read with ``file:line`` errors and checked step by step against the engine
(``files``), the whole hand a step may show beside it (``step_guide``), and the lesson
session every front end shares: order, tries, the hint ladder, saved progress (``session``).

May import: ``pepper_tutor.teaching.learner``, ``pepper_tutor.teaching.questions`` and the
layers below teaching.
"""
