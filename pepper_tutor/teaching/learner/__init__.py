"""The learner: everything kept of one person's learning.

Owns the learner store (``store``: one SQLite file for lesson progress, answers and review
cards), what one answer changes as values (``attempts``: an ``Attempt``, recorded in one
transaction, and a lesson's typed ``LessonProgress``), when a review card is due again
(``scheduling``, FSRS), the review cards (``review_cards``) and the progress view read from
them (``progress``).

May import: ``pepper_tutor.teaching.questions`` and the layers below teaching.
"""
