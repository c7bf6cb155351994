"""Game Guides: the steps of a hand from the engine and the annotator, one seat's view with no
hidden card in it, a record in a link, and the one-file page ``annotate --format viewer``
writes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pepper_tutor.engine.cards import Card
from pepper_tutor.engine.seats import Seat
from pepper_tutor.records.annotate import annotate
from pepper_tutor.records.hand_link import record_from_link, record_to_link
from pepper_tutor.records.hand_record import dump_record, load_record, parse_record
from pepper_tutor.render.guide import build_guide, cards_named
from pepper_tutor.render.guide_html import guide_for_link, guide_page

ROOT = Path(__file__).resolve().parents[1]
HANDS = sorted((ROOT / "pepper_tutor" / "data" / "hands").glob("*.yaml"))


def page_data(page: str) -> dict:
    """The steps a page carries, read back out of it as a browser would."""
    m = re.search(r'<script type="application/json" id="pg-data">(.*?)</script>', page, re.S)
    assert m, "the page carries no guide data"
    return json.loads(m.group(1))


def tricks_of(data: dict) -> list[dict]:
    """Each trick as the page shows it at its last card: the cards, the winner, the rule."""
    return [{"cards": [c for _, c in s["table"]], "winner": s["winner"], "rule": s["rule"]}
            for s in data["steps"] if s["kind"] == "card" and s["winner"]]


@pytest.mark.parametrize("path", HANDS, ids=lambda p: p.stem)
def test_every_example_hand_steps_as_the_annotator_says(path: Path) -> None:
    record = load_record(path)
    expected = annotate(record).to_dict()
    data = page_data(guide_page(build_guide(record)))
    assert tricks_of(data) == [
        {"cards": [c["card"] for c in t["cards"]], "winner": t["winner"], "rule": t["rule"]}
        for t in expected["tricks"] if t["complete"]]
    end = data["steps"][-1]
    assert end["kind"] == "score"
    if expected["score"] is not None:
        for side, points in expected["score"].items():
            assert f"{side} {points:+d}" in end["title"]
        assert end["won"] == expected["tricks_won"]
    # one step per call and per card, the deal and the score
    calls = len(expected["auction"])
    cards = sum(len(t["cards"]) for t in expected["tricks"])
    assert sum(s["kind"] == "call" for s in data["steps"]) == calls
    assert sum(s["kind"] == "card" for s in data["steps"]) == cards
    assert data["steps"][0]["kind"] == "deal"


def test_a_trick_step_names_its_winner_and_rule_in_words() -> None:
    data = build_guide(load_record(ROOT / "pepper_tutor/data/hands/exchange-made.yaml")).to_dict()
    last_of_first = next(s for s in data["steps"] if s["kind"] == "card" and s["winner"])
    assert last_of_first["rule"] == "rank.right-bower"
    assert "South wins trick 1 with the J♥" in " ".join(last_of_first["lines"])
    assert "right bower" in last_of_first["rule_text"]
    # said with the card in words, for a screen reader
    assert last_of_first["say"].startswith("East plays the ten of hearts.")
    assert "South wins trick 1 with the jack of hearts" in last_of_first["say"]


def test_the_revoke_is_marked_on_its_card() -> None:
    data = build_guide(load_record(ROOT / "pepper_tutor/data/hands/revoke.yaml")).to_dict()
    marked = [s for s in data["steps"] if s["finding"]]
    assert [s["title"] for s in marked] == ["West plays the K♠."]
    assert "Revoke" in " ".join(marked[0]["lines"])


def hidden_from(record, seat: Seat) -> set[Card]:
    """The cards ``seat`` never sees in the hand: dealt to others, never played, and not
    shown to it in the exchange."""
    a = annotate(record)
    seen = set(record.deal[seat]) | {e.value for t in record.tricks for e in t}
    if seat in (a.bidder, a.sitting_out) and a.passed is not None:
        seen.add(a.passed)
    if seat == a.bidder and a.discard is not None:
        seen.add(a.discard)
    return {c for hand in record.deal.values() for c in hand} - seen


def named_anywhere(text: str, card: Card) -> bool:
    """The card in notation (``TH``, ``10H``), with its symbol (``10♥``) or in words."""
    spelled = [str(card), card.display, f"{card.display[:-1]}{card.suit.letter}"]
    words = f"{card.rank.word} of {card.suit.plural}"
    return any(re.search(rf"(?<![A-Za-z0-9]){re.escape(s)}(?![A-Za-z0-9])", text)
               for s in spelled) or words.lower() in text.lower()


@pytest.mark.parametrize("path", HANDS, ids=lambda p: p.stem)
def test_a_seat_view_holds_no_hidden_card(path: Path) -> None:
    record = load_record(path)
    for seat in (Seat(i) for i in range(record.rules.players)):
        page = guide_page(build_guide(record, seat))
        hidden = hidden_from(record, seat)
        leaked = [str(c) for c in hidden if named_anywhere(page, c)]
        assert not leaked, f"{path.stem}, {seat.word}'s view names {leaked}"
        data = page_data(page)
        assert data["view"] == str(seat)
        for step in data["steps"]:
            for other, held in step["hands"].items():
                assert isinstance(held, int) or other == str(seat)


def test_the_all_hands_view_keeps_the_notes_a_seat_view_leaves_out() -> None:
    record = load_record(ROOT / "pepper_tutor/data/hands/exchange-made.yaml")
    everything = guide_page(build_guide(record))
    east = guide_page(build_guide(record, "E"))
    assert "The lone nine of clubs" in everything  # the discard's note names the 9♣
    assert "The lone nine of clubs" not in east
    assert "South lays a card aside, face down." in east
    assert "South lays the 9♣ aside, face down." in everything


def test_a_seat_view_leaves_out_a_title_or_name_that_names_a_hidden_card() -> None:
    record = load_record(ROOT / "pepper_tutor/data/hands/exchange-made.yaml")
    record.meta["event"] = "The night South threw the 9C away"
    record.meta["players"] = {**record.meta["players"], "W": "Bev (nine of clubs)"}
    east = build_guide(record, "E")
    assert east.title == "A hand of Pepper" and east.names[Seat.W] == "West"
    assert "9C" in build_guide(record).title  # all hands: the record's own words


def test_cards_named_reads_notation_symbols_words_and_bowers() -> None:
    from pepper_tutor.engine.calls import Trump

    text = "The JD, then 10♦, the ace of spades and the left bower; not ADHOC, JDX or 'as'."
    assert cards_named(text, Trump.parse("H")) == {Card.parse(c) for c in
                                                   ("JD", "TD", "AS")}
    assert cards_named("the right bower", Trump.parse("C")) == {Card.parse("JC")}
    assert cards_named("no cards here: 10 tricks, A and J") == set()


def test_a_record_round_trips_through_a_link() -> None:
    for path in HANDS:
        record = load_record(path)
        link = record_to_link(record)
        assert re.fullmatch(r"[A-Za-z0-9_-]+", link)
        assert dump_record(record_from_link(link)) == dump_record(record)


@pytest.mark.parametrize("bad, says", [
    ("", "not base64url"), ("a+b/", "not base64url"), ("AAAA", "damaged or cut short"),
    (record_to_link(load_record(HANDS[0]))[:-12], "cut short"),
])
def test_a_bad_link_is_one_clear_line(bad: str, says: str) -> None:
    with pytest.raises(ValueError, match=says) as err:
        record_from_link(bad)
    assert "\n" not in str(err.value)


def test_a_link_that_unpacks_to_too_much_is_refused() -> None:
    import base64
    import zlib

    bomb = base64.urlsafe_b64encode(zlib.compress(b"#" * 10_000_000)).decode().rstrip("=")
    with pytest.raises(ValueError, match="more than 64 KB"):
        record_from_link(bomb)


def test_the_guide_page_answers_for_its_address() -> None:
    record = load_record(ROOT / "pepper_tutor/data/hands/revoke.yaml")
    answer = json.loads(guide_for_link(f"#hand={record_to_link(record)}&step=4&seat=E"))
    assert answer["guide"]["view"] == "E"
    assert "error" in json.loads(guide_for_link("#step=3"))
    wrong = parse_record("format: pepper-hand/1\ndealer: W\nauction: [pass, pass, pass, pass]\n")
    text = record_to_link(wrong).replace("A", "B")
    assert "error" in json.loads(guide_for_link(f"#hand={text}"))


def test_record_text_cannot_close_the_data_script() -> None:
    record = load_record(ROOT / "pepper_tutor/data/hands/revoke.yaml")
    record.meta["event"] = "</script><script>alert(1)</script>"
    page = guide_page(build_guide(record))
    assert "<script>alert(1)" not in page
    assert page_data(page)["title"].startswith("</script><script>alert(1)")


def test_a_saved_practice_hand_shows_its_grades(tmp_path: Path) -> None:
    """A record the practice table saved carries its grades in its notes: the guide shows
    them as the coach's, on the learner's decisions."""
    text = (ROOT / "tests" / "data" / "graded-hand.yaml")
    record = load_record(text)
    data = build_guide(record).to_dict()
    graded = [s for s in data["steps"] if s["coach"]]
    assert graded and all(s["coach"]["source"] == "record" for s in graded)
    assert {s["coach"]["grade"] for s in graded} <= {"Best", "Good", "Inaccuracy", "Mistake",
                                                     "Blunder"}


@pytest.mark.slow
def test_an_analysed_guide_grades_every_decision_with_a_strip() -> None:
    record = load_record(ROOT / "pepper_tutor/data/hands/exchange-made.yaml")
    guide = build_guide(record, analyse=True, samples=30)
    data = guide.to_dict()
    decisions = [s for s in data["steps"] if s["kind"] not in ("deal", "score")]
    assert all(s["coach"] and s["coach"]["grade"] for s in decisions)
    strips = [s["coach"]["strip"] for s in decisions if s["coach"].get("strip")]
    assert strips
    for strip in strips:
        assert sum(cell["played"] for cell in strip) == 1
        if "dd" in strip[0]:  # the play: double-dummy beside the seat's figures
            assert all(0 <= cell["dd"] <= 6 for cell in strip)
    east = build_guide(record, "E", analyse=True, samples=30).to_dict()
    assert all(s["coach"] is None for s in east["steps"] if s["seat"] not in (None, "E"))
    assert all("dd" not in cell for s in east["steps"] if s["coach"]
               for cell in s["coach"].get("strip", []))


def test_annotate_writes_one_file_with_no_request_off_it(tmp_path: Path) -> None:
    out = tmp_path / "guide.html"
    run = subprocess.run([sys.executable, "-m", "pepper_tutor", "annotate",
                          str(HANDS[0]), "--format", "viewer", "-o", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    page = out.read_text("utf-8")
    assert page.startswith("<!doctype html>")
    assert not re.search(r'\b(src|href)\s*=', page), "the page loads nothing"
    assert "@import" not in page and "url(" not in page
    assert page_data(page)["steps"]


def test_annotate_viewer_refuses_a_bad_record_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pepper-hand/1\ndealer: Q\n", "utf-8")
    run = subprocess.run([sys.executable, "-m", "pepper_tutor", "annotate", str(bad),
                          "--format", "viewer", "-o", str(tmp_path / "x.html")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr and "bad.yaml" in run.stderr
    assert not (tmp_path / "x.html").exists()


def test_every_guide_a_lesson_names_is_an_example_hand() -> None:
    """A lesson links the example hands it names (``x-guides``) as game guides in the docs'
    catalogue: each must be a hand the docs build a guide of."""
    import yaml

    named = {}
    for path in sorted((ROOT / "lessons").glob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        named[path.stem] = data.get("x-guides", [])
    assert any(named.values())
    stems = {p.stem for p in HANDS}
    for lesson, names in named.items():
        assert set(names) <= stems, f"{lesson} names {set(names) - stems}"


def test_the_play_and_learn_page_opens_its_table_hands_as_guides(tmp_path: Path) -> None:
    """After a hand at the page's practice table a link opens its guide (the hand, with the
    coach's grades, in the link); once saved, the home page lists it under Game guides."""
    import html as html_lib

    from pepper_tutor.apps.web import WebApp

    app = WebApp(home=tmp_path, seed=5, coach_samples=4)
    app.handle("table-level", "beginner")
    reply = json.loads(app.handle("table"))
    for _ in range(60):
        if "After the hand" in reply["html"]:
            break
        choices = re.findall(r'data-act="play" data-value="([ac]:\w+)"(?![^>]*disabled)',
                             reply["html"])
        assert choices, reply["html"][-2000:]
        reply = json.loads(app.handle("play", choices[0]))  # a card the rules allow
        assert "error" not in reply, reply["error"]
    hrefs = re.findall(r'class="pepper-guide-hand"[^>]*href="([^"]+)"', reply["html"])
    assert len(hrefs) == 1
    href = html_lib.unescape(hrefs[0])
    assert href.startswith("guide.html#hand=") and href.endswith("&step=1")
    hand = record_from_link(href.split("hand=", 1)[1].split("&", 1)[0])
    table = app.table
    assert table is not None
    assert dump_record(hand) == dump_record(table.record())
    graded = [s for s in build_guide(hand).steps if s.coach is not None]
    assert graded and all(s.seat == table.seat for s in graded)  # the learner's grades
    home = json.loads(app.handle("next-hand"))
    home = json.loads(app.handle("home"))
    assert "Game guides" in home["html"] and 'href="guide.html"' in home["html"]
    saved = re.findall(r'class="pepper-guide-saved" href="([^"]+)"', home["html"])
    assert len(saved) == 1
    link = html_lib.unescape(saved[0]).split("hand=", 1)[1].split("&", 1)[0]
    assert [e.value for t in record_from_link(link).tricks for e in t] == \
        [e.value for t in hand.tricks for e in t]


def test_a_notebook_shows_a_guide_in_a_frame_and_saves_it(tmp_path: Path) -> None:
    import html as html_lib

    pytest.importorskip("ipywidgets")
    from pepper_tutor.apps.notebook import guide

    view = guide(HANDS[0], seat="N", step=5)
    shown = view._repr_html_()
    m = re.fullmatch(r'<iframe class="pepper-guide-frame" title="[^"]*" srcdoc="([^"]*)".*',
                     shown, re.S)
    assert m, shown[:300]
    data = page_data(html_lib.unescape(m.group(1)))
    assert data["start"] == 5 and data["view"] == "N"
    out = view.save(tmp_path / "hand.html")
    assert page_data(out.read_text("utf-8")) == data


def test_direction_controls_in_a_record_never_reach_the_guide() -> None:
    """A name or a note with a right-to-left override or an invisible mark is shown plain."""
    import json
    import re
    from pathlib import Path

    from pepper_tutor.records.hand_record import parse_record
    from pepper_tutor.render.guide import build_guide
    from pepper_tutor.render.guide_html import guide_page

    path = Path(__file__).resolve().parent.parent / "pepper_tutor/data/hands/big-pepper-set.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("Butch", "Bu\u202etch").replace("Knights", "Kni\u200fghts\u2066")
    page = guide_page(build_guide(parse_record(text)))
    data = json.loads(re.search(r'id="pg-data">(.*?)</script>', page, re.S).group(1))
    shown = page + json.dumps(data, ensure_ascii=False)
    assert not re.search("[\u200e\u200f\u202a-\u202e\u2066-\u2069]", shown)
    assert "Butch" in shown
