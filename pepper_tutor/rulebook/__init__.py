"""The rulebook: the rules in the project's words, and verdicts that quote them.

Owns the rule texts by stable id (``data/rulebook.yaml`` and its loader, ``book``), the
verdict value (legal or not, the rule ids, the facts of the position, the alternatives:
``verdict``), the checks on one trick (``tricks``) and on a whole hand (``verdicts``), the
feedback sentences built from them (``feedback``) and the rulebook's worked examples checked
against the engine (``known_answers``).

May import: ``pepper_tutor.engine`` and ``pepper_tutor.files``.
"""
