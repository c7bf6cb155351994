"""The load test (``python -m pepper_tutor.bench.night``), run once in the suite: 50 phones on
loopback join and answer questions for 60 s while a scorekeeper enters hands. Nothing that was
acknowledged may be missing from the night's file; the latency is printed, not asserted (the
benchmark reports it)."""

from __future__ import annotations

import pytest

from pepper_tutor.bench.night import run_load

pytestmark = pytest.mark.slow


def test_fifty_phones_for_a_minute_lose_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_load(phones=50, duration=60)
    with capsys.disabled():
        print("\n" + result.line())
    assert result.errors == []
    assert result.questions >= 10 and result.hands_acked >= 10
    # every phone answered every question: acknowledged, or refused because it had closed
    assert result.answers_acked + result.refused == result.questions * 50
    assert result.answers_stored == result.answers_acked
    assert result.hands_stored == result.hands_acked
    assert result.lost == 0
