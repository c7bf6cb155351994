"""Drills: endless generated questions.

Owns the quiz kinds and the quiz session (``quiz``), the judgement and rules drills dealt
from random positions (``positions``) and the judgement positions screened ahead of time
(``screened``).

May import: ``pepper_tutor.teaching.learner``, ``pepper_tutor.teaching.questions`` and the
layers below teaching.
"""
