"""Teaching: what a learner is asked, and what is kept of their answers.

Owns seven wings, each a subpackage whose ``__init__`` says what it holds and may import:
``questions`` (steps, answers, the situation a question shows), ``learner`` (the learner
store, review cards, progress), ``lessons`` (lesson files and the lesson session),
``drills`` (quizzes, judgement drills, screened positions), ``review`` (what brings a miss
back), ``practice`` (the practice table, its coach, its computer players and history) and
``puzzles`` (positions mined from played hands, rated, themed and brought back).
The wings import downward only, in that order from ``questions`` up (``lessons`` beside
``drills``, ``review`` beside ``practice``, ``puzzles`` on top): the ``teaching-wings``
contract in ``pyproject.toml``. Beside the wings, ``progress_file`` is the learner's whole
progress (the learner store with the puzzle ratings) as one file to download and load back.

May import: ``pepper_tutor.records``, ``pepper_tutor.analysis``, ``pepper_tutor.rulebook``,
``pepper_tutor.engine`` and ``pepper_tutor.files``. No renderer, no front end: the same
sessions drive the terminal, the notebooks and the web.
"""
