"""Questions: one decision put to a learner, judged by the engine, explained by the rulebook.

Owns the step kinds decided by the rules (``steps``: rank, trick winner, legal plays, the
card to play, the score, the game), the judgement steps decided by the analysis
(``choice_steps``: bid, declare, exchange, defend), the step that asks who acts at the table
(``table_steps``), the one reader of what learners type (``answers``), what a first miss
leaves out so it never gives the answer (``answer_free``), the one decision
whether a typed line is a command or an answer (``commands``) and the position a
question shows, every renderer's one source (``situation``).

May import: ``pepper_tutor.analysis``, ``pepper_tutor.rulebook``, ``pepper_tutor.engine``.
Nothing here stores, schedules or shows anything.
"""
