"""Tournament night in real browsers (Playwright + Debian chromium) against ``pepper-tutor
night``: sixteen players join, the host draws eight teams and runs the double-elimination
bracket to its champion from the Tournament tab (one game played at the app's own table and
read from its score sheet, one wrong result taken back), the server is killed (kill -9) and
restarted half way, and the projector and a phone are checked against the night's file after
every result.

Two players are phones in a browser; the other fourteen join over plain HTTP, as the load
test's phones do: a browser each would cost the machine far more and show nothing more.
"""

from __future__ import annotations

import http.cookiejar
import json
import random
import re
import sqlite3
import urllib.parse
import urllib.request
from typing import Any

import pytest

from pepper_tutor.records.bracket import Bracket
from pepper_tutor.records.tournament import tournament_from_json

from .test_night_browser import Screens, add_hand, new_match, night, screens, shot

__all__ = ["night", "screens"]  # the fixtures, used by name

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou",
         "Max", "Ned", "Oz", "Pam")


def join_over_http(night: Any, name: str) -> None:
    """A phone that joins and does nothing more (its cookie is its own)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(night.base_url + "/", timeout=10).close()
    csrf = next(c.value for c in jar if c.name == "pt_csrf")
    body = urllib.parse.urlencode({"csrf": csrf, "code": night.room_code, "name": name})
    req = urllib.request.Request(night.base_url + "/join", body.encode(),
                                 {"Accept": "application/json",
                                  "Content-Type": "application/x-www-form-urlencoded"})
    with opener.open(req, timeout=10) as r:
        assert r.status == 200


def bracket_in_file(night: Any) -> Bracket:
    """The tournament as the night's file holds it (the oracle the screens are checked by)."""
    path = night.home / "nights" / "test-night.sqlite"
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = con.execute("SELECT data FROM tournament").fetchone()
    finally:
        con.close()
    assert row is not None
    found = tournament_from_json(json.loads(row[0]))
    assert isinstance(found, Bracket)
    return found


def team_of(b: Bracket, name: str) -> int:
    return next(i for i, t in enumerate(b.teams) if name in t.players)


def check_screens(night: Any, projector: Any, phone: Any, name: str) -> Bracket:
    """The projector's bracket and next tables, and the phone's next table, against the
    night's file."""
    from playwright.sync_api import expect

    b = bracket_in_file(night)
    for r in b.results:  # every result on the projector's bracket, the winner marked
        game = projector.locator(f".bgame[data-game='{r.game}']")
        expect(game.locator(".bteam.won")).to_contain_text(b.teams[r.winner].name)
    team = team_of(b, name)
    row = projector.locator(f".next-row[data-team='{team}']")
    mine = phone.locator(".tournament-phone")
    expect(mine.locator(".my-team")).to_contain_text(f"Your team: {b.teams[team].name}")
    if b.champion is not None:
        expect(projector.locator(".proj-tournament h1")).to_contain_text(
            f"Champions: {b.teams[b.champion].name}")
        expect(mine.locator(".my-next")).to_contain_text(
            "You are the champions!" if b.champion == team else "Champions:")
        return b
    game = b.next_game(team)
    if game is None:
        expect(row.locator(".note")).to_have_text("is out (2 losses)")
        expect(mine.locator(".my-next")).to_contain_text("Your team is out (2 losses)")
        return b
    other = game.teams[1] if game.teams[0] == team else game.teams[0]
    if game.state == "ready":
        assert other is not None
        where = f"Table {b.tables()[game.id]}"
        expect(row.locator(".where")).to_have_text(where)
        expect(mine.locator(".my-table")).to_have_text(where)
        expect(mine.locator(".my-opponents")).to_have_text(b.teams[other].name)
    else:
        expect(row.locator(".where")).to_have_text(game.id)
        expect(mine.locator(".my-table")).to_have_text(game.id)
    return b


def enter_result(host: Any, game: str, first_wins: bool, scores: tuple[int, int]) -> None:
    """Type the scores in the game's row and press the winner's button: the row goes, and
    what was entered is said at the top of the tab."""
    from playwright.sync_api import expect

    row = host.locator(f".result-row[data-game='{game}']")
    row.locator(".f-score-a").fill(str(scores[0]))
    row.locator(".f-score-b").fill(str(scores[1]))
    row.locator(".won-a" if first_wins else ".won-b").click()
    try:
        expect(host.locator(f".result-row[data-game='{game}']")).to_have_count(0)
    except AssertionError:  # say what the row was told, and what else was being typed
        raise AssertionError(host.evaluate(
            "() => [document.querySelector('[data-part=tournament-host]').innerText, "
            "Array.from(document.querySelectorAll('form[data-dirty]')).map(f => f.outerHTML)]")
            ) from None
    expect(host.locator(".tournament-host h2 + p.msg")).to_contain_text(f"Entered {game}: ")
    expect(host.locator(".result-row .msg").filter(has_text="Entered")).to_have_count(0)


def restart(night: Any) -> None:
    from .servers import start_night

    restarted = start_night(night.home, port=int(night.base_url.rsplit(":", 1)[1]))
    night.proc = restarted.proc


def test_eight_drawn_teams_to_the_champion_through_a_kill_9(screens: Screens, night: Any
                                                            ) -> None:
    from playwright.sync_api import expect

    host = screens.host()
    projector = screens.projector(host)
    ann, bob = screens.phone("Ann"), screens.phone("Bob")
    for name in NAMES[2:]:
        join_over_http(night, name)
    # the night's rules: games to 8, so the game at the app's table is a few hands
    host.click("[data-tab=sheet]")
    host.locator("details.new-match summary").click()
    host.locator("input.f-target").fill("8")
    new_match(host)
    # the draw, from the players who joined
    host.click("[data-tab=tournament]")
    form = host.locator("form.start-tournament")
    expect(form).to_contain_text("16 joined")
    for name in NAMES:
        expect(form.locator(".f-players")).to_contain_text(name)
    form.locator(".f-seed").fill("34")
    form.locator(".start-tournament-button").click()
    expect(host.locator(".tournament-host h2")).to_have_text(
        "Double elimination, 8 teams (partners drawn blind, seed 34)")
    expect(host.locator(".result-row")).to_have_count(4)
    expect(projector.locator(".bgame-ready")).to_have_count(4)
    b = check_screens(night, projector, ann, "Ann")
    assert sorted(p for t in b.teams for p in t.players) == sorted(NAMES)
    shot(projector, "tournament-projector-start")
    shot(ann, "tournament-phone-start")

    rng = random.Random(34)
    wrong_done = at_table_done = killed = False
    steps = 0
    while b.champion is None:
        row = host.locator(".result-row").first
        game = row.get_attribute("data-game")
        assert game is not None
        first_wins = rng.random() < 0.5
        win, lose = rng.randint(31, 40), rng.randint(0, 30)
        scores = (win, lose) if first_wins else (lose, win)
        if not wrong_done:
            # a score that says the other team won: refused in the row, nothing entered
            row.locator(".f-score-a").fill(str(scores[1]))
            row.locator(".f-score-b").fill(str(scores[0]))
            row.locator(".won-a" if first_wins else ".won-b").click()
            expect(row.locator(".msg")).to_contain_text("with fewer points")
            assert len(bracket_in_file(night).results) == len(b.results)
            # the wrong winner entered, seen, and taken back
            enter_result(host, game, not first_wins, scores[::-1])
            undo = host.locator("button.undo-result-button")
            undo.click()
            expect(host.locator(".tournament-host")).to_contain_text("Press again to take back")
            undo.click()
            expect(host.locator(f".result-row[data-game='{game}']")).to_have_count(1)
            expect(projector.locator(f".bgame[data-game='{game}'] .bteam.won")).to_have_count(0)
            assert bracket_in_file(night).results == b.results
            wrong_done = True
            enter_result(host, game, first_wins, scores)
        elif not at_table_done and steps >= 3:
            # this game at the app's own table: its score sheet gives the result
            row.locator("button.play-here-button").click()
            expect(host.locator(".at-table")).to_contain_text(f"At the app's table: {game}")
            host.click("[data-tab=sheet]")
            while host.locator(".winner").count() == 0:
                add_hand(host, "North", "3", "hearts", "with partner", "play", "6")
            host.click("[data-tab=tournament]")
            host.locator("button.from-sheet-button").click()
            expect(host.locator(".at-table")).to_have_count(0)
            expect(host.locator(f".result-row[data-game='{game}']")).to_have_count(0)
            entered = bracket_in_file(night).results[-1]
            ns = b.game(game).teams[0]  # the first team sat North-South, and took every trick
            assert entered.game == game and entered.winner == ns
            at_table_done = True
        else:
            enter_result(host, game, first_wins, scores)
        steps += 1
        b = check_screens(night, projector, ann, "Ann")
        if steps == 7 and not killed:
            # the server dies half way: the screens say so, and come back as they were
            night.kill()
            expect(projector.locator("body.offline")).to_have_count(1)
            restart(night)
            expect(projector.locator("body.offline")).to_have_count(0, timeout=20_000)
            assert bracket_in_file(night) == b
            host.reload()
            host.wait_for_selector("body[data-ready='1']")
            host.click("[data-tab=tournament]")
            expect(host.locator(".tournament-host h2")).to_contain_text("seed 34")
            ann.reload()
            ann.wait_for_selector("body[data-ready='1']")
            b = check_screens(night, projector, ann, "Ann")
            shot(projector, "tournament-projector-after-restart")
            killed = True
    assert killed and wrong_done and at_table_done
    assert len(b.results) in (14, 15)  # 2n - 2, or 2n - 1 with the deciding game
    check_screens(night, projector, bob, "Bob")
    expect(host.locator(".champion")).to_contain_text(b.teams[b.champion].name)
    shot(projector, "tournament-projector-champion")
    shot(ann, "tournament-phone-end")
    shot(host, "tournament-host-end")
    # ended: off every screen
    end = host.locator("button.end-tournament-button")
    end.click()
    end.click()
    expect(host.locator("form.start-tournament")).to_have_count(1)
    expect(projector.locator(".proj-tournament")).to_have_count(0)
    expect(ann.locator(".tournament-phone")).to_have_count(0)


def test_a_movement_with_its_round_clock_and_standings_on_every_screen(
        screens: Screens, night: Any, browser: Any) -> None:
    """A progressive movement of four entered teams: the round clock counts down on the
    projector, the host's tab and a phone, the standings follow the results; the tournament
    tab and the phone's team pass axe-core (WCAG 2.1 AA)."""
    from playwright.sync_api import expect

    from .axe import assert_accessible

    # contexts that let axe-core's script in past the page's script policy
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    phone_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, bypass_csp=True)
    try:
        host = host_ctx.new_page()
        host.goto(night.host_link)
        host.wait_for_selector("body[data-ready='1']")
        projector = screens.projector(host)
        phone = phone_ctx.new_page()
        phone.goto(night.join_link)
        phone.fill("input[name=name]", "Cy")
        phone.click("button[type=submit]")
        phone.wait_for_selector("body[data-ready='1']")
        host.click("[data-tab=tournament]")
        form = host.locator("form.start-tournament")
        assert_accessible(host, include=".tournament-host")
        form.locator(".f-how-entered").check()
        form.locator(".f-teams").fill("Ann & Bob, Cy & Di, Eve & Fay, Gus & Hal")
        form.locator(".f-format").select_option("progressive")
        form.locator(".f-rounds").fill("2")
        form.locator(".f-minutes").fill("20")
        form.locator(".start-tournament-button").click()
        expect(host.locator(".tournament-host h2")).to_have_text(
            "Progressive movement, 4 teams, 2 rounds of 20 minutes, winners move up "
            "(as entered)")
        expect(projector.locator(".round-clock-box")).to_contain_text(
            "the clock starts when the host starts it")
        mine = phone.locator(".tournament-phone")
        expect(mine.locator(".my-table")).to_have_text("Table 1")
        expect(mine.locator(".my-opponents")).to_have_text("Ann & Bob")
        host.locator("button.clock-button").click()
        for screen in (projector, host, phone):
            clock = screen.locator(".round-clock")
            expect(clock).to_have_text(re.compile(r"^(20:00|19:5\d)$"))
            expect(clock).to_have_text(re.compile(r"^19:5\d$"), timeout=5_000)  # it runs
        assert_accessible(host, include=".tournament-host")
        assert_accessible(phone, include=".tournament-phone")
        shot(projector, "tournament-movement-projector")
        shot(phone, "tournament-movement-phone")
        results = (("R1-T1", "won-b", (12, 21)), ("R1-T2", "won-a", (25, 20)))
        for game, button, scores in results:
            row = host.locator(f".result-row[data-game='{game}']")
            row.locator(".f-score-a").fill(str(scores[0]))
            row.locator(".f-score-b").fill(str(scores[1]))
            row.locator(f".{button}").click()
            expect(host.locator(f".result-row[data-game='{game}']")).to_have_count(0)
        # round 2: Cy & Di won at table 1 and stay; Eve & Fay come up from table 2
        expect(mine.locator(".my-table")).to_have_text("Table 1")
        expect(mine.locator(".my-opponents")).to_have_text("Eve & Fay")
        # level on points, Eve & Fay ahead on total score (25 to 21)
        expect(mine.locator(".my-team")).to_contain_text("2 points, rank 2")
        expect(projector.locator(".proj-tournament h1")).to_contain_text("Round 2 of 2")
        expect(projector.locator(".standing-row").first).to_contain_text("Eve & Fay")
        expect(projector.locator(".standing-row").nth(1)).to_contain_text("Cy & Di")
        expect(projector.locator(".round-clock-box")).to_contain_text("the clock starts")
    finally:
        host_ctx.close()
        phone_ctx.close()
