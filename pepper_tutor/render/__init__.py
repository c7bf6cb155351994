"""Renderers: the same facts shown in a terminal, in HTML/SVG, in Markdown and in JSON.

Owns rich terminal output (``terminal``), SVG cards and HTML tricks (``cards_html``), hand
states (``state_html``), lesson steps (``steps_html``), the practice table's seats
(``table_html``), annotations in every format (``annotation``), puzzles, their feedback and the
theme dashboard (``puzzles``), a hand's Game Guide as steps (``guide``), as one page
(``guide_html``) and as the terminal's panel of one step (``guide_terminal``), a tournament's
plan as text and JSON (``tournament``), the words a screen reader says of cards, calls,
events and a hand by suit (``spoken``; the practice table's sentences built from them,
``table_words``; cards in a text spelled out or found, ``card_words``) and text from files
made safe to show in a terminal (``plain``).

May import: ``pepper_tutor.teaching``, ``pepper_tutor.records``, ``pepper_tutor.analysis``,
``pepper_tutor.rulebook``, ``pepper_tutor.engine``, ``pepper_tutor.files``. Renderers decide
how things look, never what the rules say.
"""
