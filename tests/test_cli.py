"""The command line: contract 3's trick and rules commands, and clean failures."""

import json
import subprocess
import sys

import pytest

from pepper_tutor.apps.cli import main
from pepper_tutor.rulebook.book import RULE_IDS_ENV, get_rule


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pepper_tutor", *args], capture_output=True,
                          text=True, timeout=60)


def test_trick_json_is_the_contract():
    proc = run("trick", "--trump", "H", "JD", "AH", "9S", "QH", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["winner_index"] == 0 and data["winning_card"] == "JD"
    assert data["rule"] == "rank.left-bower"
    assert "left bower" in data["explanation"]


def test_trick_text_names_winner_and_rule(capsys, monkeypatch):
    assert main(["trick", "--trump", "NT", "JD", "AD", "KD"]) == 0
    out = capsys.readouterr().out
    text = " ".join(get_rule("rank.no-trump").text.split())[:60]
    assert "A♦" in out and "wins" in out and text in " ".join(out.split())
    assert "rank.no-trump" not in out  # the rule's id only in the rule ids view
    monkeypatch.setenv(RULE_IDS_ENV, "1")
    assert main(["trick", "--trump", "NT", "JD", "AD", "KD"]) == 0
    assert "[rank.no-trump]" in capsys.readouterr().out


@pytest.mark.parametrize("args,message", [
    (["trick", "--trump", "X", "JD", "AH"], "'X' is not a trump"),
    (["trick", "--trump", "H", "JD", "8H"], "'8H' is not a card"),
    (["trick", "--trump", "H", "JD", "JD"], "a card appears twice"),
    (["trick", "--trump", "H", "JD"], "a trick has 2 to 4 cards"),
    (["rules", "rank.nope"], "no rule 'rank.nope'"),
    (["rules", "--search", "zebra"], "no rule mentions"),
])
def test_bad_input_exits_2_with_one_line_and_no_traceback(args, message):
    proc = run(*args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1


def test_unknown_option_exits_2():
    proc = run("trick", "--bogus")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_rules_prints_one_rule_and_the_book(capsys):
    assert main(["rules", "rank.left-bower"]) == 0
    out = capsys.readouterr().out
    assert "rank.left-bower" in out and "left bower" in out.lower()
    assert main(["rules", "--ids"]) == 0
    ids = capsys.readouterr().out
    assert "play.follow-suit" in ids and "variant.dirty-clubs" in ids
    assert main(["rules", "--search", "left", "bower"]) == 0


def test_ascii_fallback(capsys):
    assert main(["--ascii", "trick", "--trump", "H", "JD", "AH"]) == 0
    out = capsys.readouterr().out.splitlines()[0]
    assert "JD" in out and "♦" not in out
