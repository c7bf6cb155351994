"""Issue 35's record and lesson findings: a hand record's ``meta.players`` names only seats at
its table, once each, and its ``score_before`` is a game still on; a lesson step names only
seats at its table (three-handed cutthroat has no West), so ``lesson --check`` fails it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pepper_tutor.apps.cli import main
from pepper_tutor.records.hand_record import LoadError, parse_record

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = yaml.safe_load((Path(__file__).parent / "data" / "design-example.yaml").read_text())


def _load(**changes: object) -> None:
    data = {**EXAMPLE, **changes}
    parse_record(yaml.safe_dump(data, allow_unicode=True), "rec.yaml")


@pytest.mark.parametrize("players,words", [
    ({"N": "Ann", "X": "Bo"}, "'X' is not a seat"),
    ({"N": "Ann", "North ": "Bo"}, "N is named twice"),
    ({"N": "Ann", "n": "Bo"}, "N is named twice"),
    ({"N": "Ann", "north": "Bo"}, "N is named twice"),
    ({"N": "Ann", "": "Bo"}, "is empty"),
    ({"N": "Ann", 3: "Bo"}, "is not a seat"),
    ({"N": "Ann", "NS": "Bo"}, "is not a seat"),
])
def test_meta_players_names_only_seats_at_the_table(players: dict[object, str], words: str
                                                    ) -> None:
    with pytest.raises(LoadError, match=words) as err:
        _load(meta={"players": players})
    assert "rec.yaml:" in str(err.value)


def test_meta_players_of_a_three_handed_table_has_no_west() -> None:
    three = yaml.safe_load((ROOT / "pepper_tutor" / "data" / "hands" / "cutthroat-three.yaml"
                            ).read_text())
    three["meta"] = {"players": {"N": "Ann", "E": "Bo", "S": "Cy", "W": "Di"}}
    with pytest.raises(LoadError, match="W is not at a 3-player table"):
        parse_record(yaml.safe_dump(three), "three.yaml")
    three["meta"] = {"players": {"N": "Ann", "E": "Bo", "S": "Cy"}}
    parse_record(yaml.safe_dump(three), "three.yaml")


def test_good_players_still_load() -> None:
    _load(meta={"players": {"N": "Ann", "E": "Bo", "S": "Cy", "W": "Di"}})
    _load(meta={"players": {"S": "Cy"}})


@pytest.mark.parametrize("before", [{"NS": 42, "EW": 3}, {"NS": 3, "EW": 60},
                                    {"NS": 10**12, "EW": 0}])
def test_score_before_past_the_target_is_refused(before: dict[str, int]) -> None:
    with pytest.raises(LoadError, match="at or past the target of 42: the game was already "
                                        "over"):
        _load(score_before=before)


@pytest.mark.parametrize("before", [{"NS": 41, "EW": -20}, {"NS": 44, "EW": 45},
                                    {"NS": 0, "EW": 0}])
def test_score_before_of_a_game_still_on_loads(before: dict[str, int]) -> None:
    _load(score_before=before)  # two sides past the target: the overtime hand is played


def test_lesson_check_fails_the_cutthroat_lesson_with_bidder_west(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "lessons" / "10-variants.yaml").read_text()
    step = text.index("id: cutthroat-made")
    bad = text[:step] + text[step:].replace("bidder: N", "bidder: W", 1)
    path = tmp_path / "10-variants.yaml"
    path.write_text(bad)
    assert main(["lesson", "--check", "--no-analysis", str(path)]) == 2
    err = capsys.readouterr().err
    assert "W is not at a 3-player table" in err and f"{path}:" in err
    for seat_key, seat in (("dealer: S", "dealer: W"), ("seats: [N, E, S]", "seats: [N, E, W]")):
        assert seat_key in text
        path.write_text(text.replace(seat_key, seat))
        assert main(["lesson", "--check", "--no-analysis", str(path)]) == 2
        assert "W is not at a 3-player table" in capsys.readouterr().err
    path.write_text(text)
    assert main(["lesson", "--check", "--no-analysis", str(path)]) == 0
