"""Teaching: lessons, drills and the learner's progress.

Owns lesson steps checked by the engine (``steps``, ``choice_steps``), lesson files
(``lessons``), the lesson runtime with its hint ladder (``session``), saved progress
(``progress``) and generated quizzes (``quiz``).

May import: ``pepper_tutor.records`` (located YAML), ``pepper_tutor.analysis``,
``pepper_tutor.rulebook`` and ``pepper_tutor.engine``. No renderer, no front end: the same
session drives the terminal, the notebooks and the web.
"""
