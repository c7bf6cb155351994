"""Benchmarks of the paths people wait on: ``python -m pepper_tutor.bench`` (``make bench``).

One module per layer measured (``engine``, ``analysis``, ``teaching``, ``startup``), each
with a ``benches()`` list of functions that take a time budget in seconds and return one
printed line; ``timing`` holds the shared helpers. Benchmarks may import every layer; nothing
imports them.
"""
