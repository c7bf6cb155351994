"""The rulebook: the rules in the project's words, and verdicts that quote them.

Owns the rule texts by stable id (``data/rulebook.yaml`` and its loader, ``book``), the
verdict value (legal or not, the rule ids, the facts of the position, the alternatives:
``verdict``), the checks on one trick (``tricks``) and on a whole hand (``verdicts``), and the
feedback sentences built from them (``feedback``). The rulebook's worked examples are
checked against the engine by the test suite (``tests/known_answers.py``).

May import: ``pepper_tutor.engine`` and ``pepper_tutor.files``.
"""
