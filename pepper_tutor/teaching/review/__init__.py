"""Review: bringing every miss back as a fresh question.

Owns the review session (``session``: the due cards, each asked as a new position of the
same rule), a lesson step dealt again in other suits (``respell``) and the table rules a
learner has met (``taught``).

May import: ``pepper_tutor.teaching.lessons``, ``pepper_tutor.teaching.drills``, the wings
below them and the layers below teaching.
"""
