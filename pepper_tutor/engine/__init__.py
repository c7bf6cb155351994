"""The engine: the rules of Pepper as code, and nothing else.

Owns cards (``cards``), seats (``seats``) and calls (``calls``) with their notation, the
ranking (``ranking``: the one source of truth for the bowers, effective suit and trick rank),
rule sets and their switches (``rules``), what a bid shows where the table plays bid
signals (``signals``), scoring (``scoring``), one hand as a state machine
(``state``: ``HandState``, with public read accessors for everything the layers above need)
and a match to the target (``match``).

May import: the standard library only. Nothing here knows of the rulebook's texts, lessons,
renderers or front ends. The public names are re-exported, lazily, by ``pepper_tutor``
itself, so that importing one engine module stays cheap. Two kinds of method reach upward,
lazily, inside the method and declared in the import contract (``pyproject.toml``): the
notebook reprs (``_repr_svg_``, ``_repr_html_``) import their renderer, and
``HandState.check`` imports the verdicts, the way python-chess's ``Board._repr_svg_``
imports ``chess.svg``.
"""
