"""The game-night app driven from Python, and the launcher's command line."""

from pathlib import Path

import pytest

from pepper_tutor.apps.commands import voila_command
from pepper_tutor.apps.night import GameNight, join_banner


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("PEPPER_NIGHT_SHEET", str(tmp_path / "sheet.json"))
    return GameNight()


def test_ruling_lookup(app):
    r = app.ruling
    r.trump.value, r.trick.value, r.hand.value = "H", "A♦", "J♦ 9♦ A♠"
    r.ask.click()
    assert "You may play" in r.out.value and "Not the J♦" in r.out.value
    assert "play.left-bower-suit" in r.out.value
    r.trick.value, r.hand.value = "9H JD", "QH"
    r.ask.click()
    assert "So far the J♦ is winning" in r.out.value
    r.hand.value = "J♦ 8♥"
    r.ask.click()
    assert "&#x27;8♥&#x27; is not a card" in r.out.value and app.errors == []


def test_score_sheet_tab_refuses_and_reloads(app, tmp_path, monkeypatch):
    sc = app.score
    sc.bidder.value, sc.bid.value, sc.trump.value = "N", "3", "H"
    sc.mode.value, sc.defense.value, sc.tricks.value = "partner", "play", "7"
    sc.add.click()
    assert "cannot take 7 tricks" in sc.message.value and sc.sheet.entries == []
    sc.tricks.value = "4"
    sc.add.click()
    assert "Hand 1 added: NS +3, EW +2" in sc.message.value
    again = GameNight()
    assert "Totals: NS <b>3</b> · EW <b>2</b>" in again.score.status.value
    sc.undo.click()
    assert GameNight().score.sheet.entries == []


def test_exports_write_files(app, tmp_path):
    sc = app.score
    sc.bidder.value, sc.bid.value, sc.trump.value = "E", "LP", "S"
    sc.mode.value, sc.defense.value = "exchange", "surrender"
    sc.add.click()
    sc.export_csv.click()
    assert (tmp_path / "sheet.csv").read_text().startswith("hand,dealer")
    sc.export_records.click()
    assert (tmp_path / "sheet-records" / "hand-01.yaml").exists()


def test_annotate_tab_escapes_and_reports_lines(app):
    a = app.annotate
    a.text.value = "format: pepper-hand/1\ndealer: <script>\n"
    a.go.click()
    assert "<script>" not in a.out.value and "pasted record:2:9" in a.out.value


def test_projector_quiz_levels(app):
    q = app.quiz
    q.level.value = "easy"
    q.kind_picker.value = "score"
    assert q.quiz.kind == "score" and not q.quiz.hard and q.panel.boxes
    q.reveal_button.click()
    assert "The answer" in q.feedback.value


def test_launcher_is_loopback_unless_asked_and_never_lan_without_a_token():
    cmd = voila_command(Path("night.ipynb"), 8866, lan=False, token=None)
    assert "--Voila.ip=127.0.0.1" in cmd and not any(c.startswith("--token") for c in cmd)
    lan = voila_command(Path("night.ipynb"), 8866, lan=True, token="t0k")
    assert "--Voila.ip=0.0.0.0" in lan and "--token=t0k" in lan
    with pytest.raises(ValueError, match="needs a token"):
        voila_command(Path("night.ipynb"), 8866, lan=True, token=None)


def test_join_banner_shows_address_and_qr():
    banner = join_banner("http://192.0.2.7:8866/?token=abc")
    assert "http://192.0.2.7:8866/?token=abc" in banner and "<svg" in banner
    assert join_banner(None) == ""
