"""Benchmarks of the paths people wait on: ``python -m pepper_tutor.bench`` (``make bench``).

One module per path measured (``engine``, ``analysis``, ``teaching``, ``table``, ``night``,
``startup``, ``guide``: a hand's game guide with and without the coach, ``puzzles``: mining
throughput on each executor; ``tournament_night``: a result entered at tournament night and
the tournament read back; ``tournament`` plays the computer players against each other;
``ladder`` plays every pairing of them, the reference player of table tips and the
all-seeing ceiling; ``margins`` splits a pairing's margin by contract; ``calibration`` sets
the make rates the advice predicts beside contracts played out; ``hand_odds`` the calling
model's count beside the tricks double-dummy play takes, the shares the club player bids by;
``signals`` the Lions Club's bid signals, with and without; ``strong_calls`` what the
computer players hold when they make a strong call, beside what the analysis imagines they
hold; ``panels`` the words of every coach panel, per screen and kind of decision;
``intervals`` whether two seeds' grades of the same choices hold together; ``playouts`` the
puzzles' answers played out to the end), each with a ``benches()`` list of functions that
take a time budget in seconds and return one printed line; ``timing`` holds the shared
helpers, ``loopback`` the small HTTP client the night's load test speaks to its server with.
Benchmarks may import every layer; nothing imports them.
"""
