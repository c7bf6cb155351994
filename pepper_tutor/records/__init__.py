"""Records: hands as people write them down, and what the annotator says about them.

Owns the ``pepper-hand/1`` reader and writer (``hand_record``), the annotator
(``annotate``, whose reasons in words come from ``pepper_tutor.analysis.reasons``), the
game-night score sheet (``scoresheet``), a record carried in a link (``hand_link``), and
tournament night: drawn teams (``teams``), the double-elimination bracket (``bracket``), the
progressive movement (``movement``) and the one value that is either (``tournament``). Files
are read, written and parsed as located YAML through ``pepper_tutor.files``.

May import: ``pepper_tutor.analysis``, ``pepper_tutor.rulebook``, ``pepper_tutor.engine``,
``pepper_tutor.files`` (``Annotation._repr_html_`` imports its renderer lazily, declared in
the import contract).
"""
