"""Records: hands as people write them down, and what the annotator says about them.

Owns the one reading path for every file the project reads (``reading``: regular files only,
bounded, located errors) and the one writing path (``writing``: whole files, regular files or
new paths only), the ``pepper-hand/1`` reader and writer (``hand_record``), YAML read with
positions for ``file:line:column`` messages (``yamlpos``), the annotator (``annotate``) with
the reasons it gives for a costly card (``reasons``) and the game-night score sheet
(``scoresheet``).

May import: ``pepper_tutor.analysis``, ``pepper_tutor.rulebook``, ``pepper_tutor.engine``
(``Annotation._repr_html_`` imports its renderer lazily, declared in the import contract).
"""
