"""The learner: everything kept of one person's learning.

Owns the learner store (``store``: one SQLite file for lesson progress, answers and review
cards), the review cards scheduled by FSRS (``review_cards``) and the progress view read
from them (``progress``).

May import: ``pepper_tutor.teaching.questions`` and the layers below teaching.
"""
