"""Front ends: what a person runs.

Owns the ``pepper-tutor`` command line (``cli``: the parser and the light commands;
``commands``: the heavier ones, imported only when used), the terminal tutor (``tutor``), the
notebook widgets (``notebook``, with the parts widgets share in ``widget_parts``), the
practice table in the terminal (``table``; its daily deal, ``daily``) and in a notebook
(``table_widget``), the puzzles'
command line (``puzzles``), the puzzles in the terminal (``puzzles_terminal``) and in a
notebook (``puzzles_widget``), the Play and learn page's Python side, which runs in a browser
tab (``web``), the Game Guides' files and links (``guide``), and game night (``night``).

May import every other layer; nothing imports this one. Kept free of re-exports so that
starting the command line imports only what the chosen subcommand needs.
"""
