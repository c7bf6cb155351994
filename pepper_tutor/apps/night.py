"""Game night: one app for a host teaching Pepper at the table (served with Voila).

Four tabs: a projector quiz with big cards, a ruling lookup (what may be played, who wins,
and a rulebook search), a score sheet for the whole match, and the annotator for the hand
just played. The score sheet is saved after every hand and reloads after a restart.
"""

from __future__ import annotations

import base64
import html
import os
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ..engine.calls import Trump
from ..engine.cards import NotationError, parse_cards
from ..engine.rules import RuleSet, RuleSetError, get_ruleset
from ..engine.seats import Seat
from ..records.annotate import annotate
from ..records.hand_record import parse_record
from ..records.scoresheet import EntryError, ScoreSheet
from ..records.yamlpos import LoadError
from ..render.annotation import to_html
from ..render.cards_html import cards_html, trick_html
from ..rulebook.book import get_rulebook
from ..rulebook.tricks import check_play, explain_trick
from .notebook import QuizWidget, _button, _Guard

__all__ = ["GameNight", "sheet_path", "join_banner"]

BIG = 110  # card width for the projector


def sheet_path() -> Path:
    """Where tonight's sheet lives: ``$PEPPER_NIGHT_SHEET``, else under the tutor's home."""
    explicit = os.environ.get("PEPPER_NIGHT_SHEET")
    if explicit:
        return Path(explicit)
    home = os.environ.get("PEPPER_TUTOR_HOME")
    base = Path(home) if home else Path(os.environ.get(
        "XDG_DATA_HOME", Path.home() / ".local" / "share")) / "pepper-tutor"
    return base / "night" / "sheet.json"


def join_banner(url: str | None) -> str:
    """The address to join from a phone, with its QR code, when the app is open to the LAN."""
    if not url:
        return ""
    qr = ""
    try:
        import segno

        qr = segno.make(url, error="m").svg_inline(scale=4)
    except ImportError:  # the QR code is a convenience; the address is what matters
        pass
    return (f'<div class="pepper-join" style="display:flex;gap:16px;align-items:center">'
            f"{qr}<div><b>Join from your phone:</b><br><code>{html.escape(url)}</code></div>"
            "</div>")


def _e(text: object) -> str:
    return html.escape(str(text))


class RulingTab(widgets.VBox):  # type: ignore[misc]
    def __init__(self, guard: _Guard):
        super().__init__()
        self.trump = widgets.Dropdown(options=[("hearts ♥", "H"), ("diamonds ♦", "D"),
                                               ("clubs ♣", "C"), ("spades ♠", "S"),
                                               ("no trump", "NT")], description="Trumps")
        self.trick = widgets.Text(description="Led / played", placeholder="A♦ (or AD K♦)")
        self.hand = widgets.Text(description="My hand", placeholder="J♦ 9♦ A♠")
        self.ask = _button("Rule on it", "pepper-rule", button_style="primary")
        self.words = widgets.Text(description="Search", placeholder="left bower")
        self.search = _button("Search the rulebook", "pepper-search")
        self.out = widgets.HTML()
        for w, c in ((self.trump, "pepper-ruling-trump"), (self.trick, "pepper-ruling-trick"),
                     (self.hand, "pepper-ruling-hand"), (self.words, "pepper-search-words"),
                     (self.out, "pepper-ruling")):
            w.add_class(c)
        self.ask.on_click(guard(lambda _b: self.rule()))
        self.search.on_click(guard(lambda _b: self.find()))
        self.children = [self.trump, self.trick, self.hand, self.ask,
                         widgets.HBox([self.words, self.search]), self.out]

    def rule(self) -> None:
        trump = Trump.parse(self.trump.value)
        try:
            trick = parse_cards(self.trick.value)
            hand = parse_cards(self.hand.value)
        except NotationError as err:
            self.out.value = f'<div class="pepper-fb wrong">{_e(err)}</div>'
            return
        overlap = set(trick) & set(hand)
        if overlap:
            card = next(iter(overlap))
            self.out.value = (f'<div class="pepper-fb wrong">The {_e(card.display)} cannot be '
                              "both played and in your hand.</div>")
            return
        parts = []
        if trick:
            parts.append(trick_html(trick, trump, width=80))
        if len(trick) >= 2:
            why = explain_trick(trick, trump)
            parts.append(f"<p><b>So far the {_e(why.winning_card.display)} is winning.</b> "
                         f"{_e(' '.join(why.facts))}</p>")
        if hand:
            lead = trick[0] if trick else None
            verdicts = [check_play(hand, lead, trump, c) for c in hand]
            allowed = [c for c, v in zip(hand, verdicts, strict=True) if v.legal]
            parts.append("<p><b>You may play:</b></p>" + cards_html(allowed, trump, width=80))
            why_rules: dict[str, str] = {}
            for card, v in zip(hand, verdicts, strict=True):
                if not v.legal:
                    parts.append(f"<p>Not the {_e(card.display)}: {_e(v.facts[0])}</p>")
                for r in v.rules:
                    why_rules.setdefault(r.id, r.text)
            if lead is not None and len(allowed) == len(hand):
                parts.append(f"<p>{_e(verdicts[0].facts[0])}</p>")
            parts += [f'<p class="rule"><code>{_e(rid)}</code> {_e(text)}</p>'
                      for rid, text in why_rules.items()]
        if not parts:
            parts.append("<p>Type the cards played so far and your hand.</p>")
        self.out.value = "".join(parts)

    def find(self) -> None:
        found = get_rulebook().search(self.words.value)
        if not found:
            self.out.value = f"<p>No rule mentions {_e(self.words.value)!s}.</p>"
            return
        self.out.value = "".join(f'<div class="pepper-found"><b>{_e(r.title)}</b> '
                                 f"<code>{_e(r.id)}</code><div>{_e(r.text)}</div></div>"
                                 for r in found)


class ScoreTab(widgets.VBox):  # type: ignore[misc]
    def __init__(self, guard: _Guard, path: Path):
        super().__init__()
        self.guard = guard
        self.sheet = ScoreSheet.open(path)
        self.message = widgets.HTML()
        self.message.add_class("pepper-sheet-message")
        self.table = widgets.HTML()
        self.table.add_class("pepper-sheet")
        self.status = widgets.HTML()
        self.status.add_class("pepper-sheet-status")
        # setting up a match
        self.preset = widgets.Dropdown(options=["standard", "simple", "cutthroat"],
                                       description="Preset")
        self.players = widgets.Dropdown(options=[4, 3, 2], description="Players")
        self.target = widgets.IntText(value=0, description="Target")
        self.dirty = widgets.Checkbox(description="dirty clubs")
        self.minimum = widgets.Dropdown(options=[1, 3, 4], description="Min bid")
        self.stick = widgets.Checkbox(description="dealer must bid")
        self.swyg = widgets.Checkbox(description="score what you get")
        self.first = widgets.Dropdown(options=["N", "E", "S", "W"], value="W",
                                      description="First deal")
        self.new = _button("New match", "pepper-new-match", button_style="danger")
        self.new.on_click(guard(lambda _b: self.new_match()))
        # entering a hand
        self.bidder = widgets.Dropdown(description="Bidder")
        self.bid = widgets.Dropdown(description="Bid")
        self.trump = widgets.Dropdown(options=[("—", ""), ("hearts", "H"), ("diamonds", "D"),
                                               ("clubs", "C"), ("spades", "S"),
                                               ("no trump", "NT")],
                                      description="Trumps")
        self.mode = widgets.Dropdown(options=[("—", ""), ("exchange", "exchange"),
                                              ("with partner", "partner")],
                                     description="Way")
        self.defense = widgets.Dropdown(options=[("—", ""), ("play", "play"),
                                                 ("surrender", "surrender")],
                                        description="Defence")
        self.tricks = widgets.Text(description="Bidders' tricks", placeholder="4")
        self.add = _button("Add hand", "pepper-add-hand", button_style="primary")
        self.undo = _button("Undo last hand", "pepper-undo-hand")
        self.export_csv = _button("Export CSV", "pepper-export-csv")
        self.export_records = _button("Export hand records", "pepper-export-records")
        for w, c in ((self.preset, "pepper-sheet-preset"), (self.target, "pepper-sheet-target"),
                     (self.bidder, "pepper-bidder"), (self.bid, "pepper-bid"),
                     (self.trump, "pepper-trump"), (self.mode, "pepper-mode"),
                     (self.defense, "pepper-defense"), (self.tricks, "pepper-tricks"),
                     (self.players, "pepper-sheet-players"), (self.first, "pepper-sheet-first"),
                     (self.dirty, "pepper-sheet-dirty")):
            w.add_class(c)
        self.add.on_click(guard(lambda _b: self.add_hand()))
        self.undo.on_click(guard(lambda _b: self.undo_hand()))
        self.export_csv.on_click(guard(lambda _b: self.export("csv")))
        self.export_records.on_click(guard(lambda _b: self.export("records")))
        setup = widgets.VBox([widgets.HBox([self.preset, self.players, self.target]),
                              widgets.HBox([self.minimum, self.first]),
                              widgets.HBox([self.dirty, self.stick, self.swyg]), self.new])
        self.setup = widgets.Accordion(children=[setup], titles=("Rules for a new match",))
        entry = widgets.VBox([widgets.HBox([self.bidder, self.bid, self.trump],
                                           layout=widgets.Layout(flex_flow="row wrap")),
                              widgets.HBox([self.mode, self.defense, self.tricks],
                                           layout=widgets.Layout(flex_flow="row wrap")),
                              widgets.HBox([self.add, self.undo, self.export_csv,
                                            self.export_records])])
        self.children = [self.setup, self.status, entry, self.message, self.table]
        if self.sheet.warning:
            self.message.value = f'<div class="pepper-fb wrong">{_e(self.sheet.warning)}</div>'
        self.refresh()

    def rules_from_setup(self) -> RuleSet:
        switches: dict[str, Any] = {"minimum_bid": self.minimum.value}
        preset = self.preset.value
        if preset == "cutthroat":
            switches["players"] = self.players.value
        if self.target.value:
            switches["target"] = self.target.value
        if self.dirty.value:
            switches["dirty_clubs"] = True
        if self.stick.value:
            switches["all_pass"] = "dealer_must_bid"
        if self.swyg.value:
            switches["score_what_you_get"] = True
        return get_ruleset(preset, **switches)

    def new_match(self) -> None:
        try:
            rules = self.rules_from_setup()
        except RuleSetError as err:
            self.message.value = f'<div class="pepper-fb wrong">{_e(err)}</div>'
            return
        path = self.sheet.path
        assert path is not None
        if self.sheet.entries:  # keep the old match beside the new one
            self.sheet.save()
            n = 1
            while path.with_name(f"{path.stem}-{n}.json").exists():
                n += 1
            os.replace(path, path.with_name(f"{path.stem}-{n}.json"))
        self.sheet = ScoreSheet(rules, Seat.parse(self.first.value), path)
        self.sheet.save()
        self.message.value = f"<p>New match: {_e(rules.summary())}</p>"
        self.refresh()

    def add_hand(self) -> None:
        raw = self.tricks.value.strip()
        bidder_tricks: int | None = None
        tricks: dict[str, int] | None = None
        try:
            if raw:
                if raw.lstrip("-").isdigit():
                    bidder_tricks = int(raw)
                else:
                    words = raw.replace(",", " ").split()
                    tricks = {words[i].upper(): int(words[i + 1])
                              for i in range(0, len(words) - 1, 2)}
            hand = self.sheet.add_simple(self.bidder.value or None, self.bid.value or None,
                                         self.trump.value, self.mode.value,
                                         self.defense.value, bidder_tricks, tricks)
        except (EntryError, ValueError) as err:
            self.message.value = f'<div class="pepper-fb wrong">Not added: {_e(err)}.</div>'
            return
        pts = hand.score.points if hand.score else {}
        self.message.value = ("<p>Hand {} added: {}.</p>".format(
            hand.number, _e(", ".join(f"{s} {p:+d}" for s, p in pts.items()) or "thrown in")))
        self.tricks.value = ""
        self.refresh()

    def undo_hand(self) -> None:
        try:
            self.sheet.undo()
        except EntryError as err:
            self.message.value = f'<div class="pepper-fb wrong">{_e(err)}</div>'
            return
        self.message.value = "<p>The last hand was taken back.</p>"
        self.refresh()

    def export(self, kind: str) -> None:
        path = self.sheet.path
        assert path is not None
        if kind == "csv":
            text = self.sheet.to_csv()
            out = path.with_suffix(".csv")
            out.write_text(text, "utf-8")
            data = base64.b64encode(text.encode()).decode()
            self.message.value = (f'<p>Saved {_e(out)} · <a download="pepper-scores.csv" '
                                  f'href="data:text/csv;base64,{data}">download</a></p>')
            return
        folder = path.parent / f"{path.stem}-records"
        folder.mkdir(parents=True, exist_ok=True)
        for i, text in enumerate(self.sheet.to_records(), 1):
            (folder / f"hand-{i:02d}.yaml").write_text(text, "utf-8")
        self.message.value = (f"<p>Wrote {len(self.sheet.entries)} partial hand records to "
                              f"{_e(folder)}.</p>")

    def refresh(self) -> None:
        rules = self.sheet.rules
        seats = [Seat(i) for i in range(rules.players)]
        self.bidder.options = [("— all passed —", "")] + [(s.word, str(s)) for s in seats]
        self.bid.options = [("pass", "")] + [(b.display, str(b)) for b in rules.ladder]
        self.bidder.value = self.bid.value = ""
        self.tricks.description = ("Bidders' tricks" if len(rules.sides) == 2
                                   else "Tricks (N 3 E 2 S 1)")
        hands = self.sheet.scored()
        sides = list(rules.sides)
        head = "".join(f"<th>{_e(s)}</th>" for s in sides)
        rows = []
        for h in hands:
            e = h.entry
            pts = h.score.points if h.score else {}
            why = (h.score.reasons if h.score else {})
            contract = ("all passed" if e.bid is None or e.bidder is None else
                        f"{e.bidder.word} {e.bid.display}"
                        f"{' ' + e.trump.word if e.trump is not None else ''}"
                        f"{', ' + str(e.mode) if e.mode else ''}"
                        f"{', ' + str(e.defense) if e.defense else ''}")
            cells = "".join(
                f'<td title="{_e(why.get(s, ""))}">{pts.get(s, 0):+d}'
                f'<div style="font-size:.8em;color:#666">'
                f'{_e(h.score.rules.get(s, "") if h.score else "")}</div></td>'
                for s in sides)
            running = "".join(f"<td><b>{h.totals[s]}</b></td>" for s in sides)
            rows.append(f'<tr class="pepper-sheet-row"><td>{h.number}</td>'
                        f"<td>{e.dealer}</td><td>{_e(contract)}</td>"
                        f"<td>{_e(_tricks_words(e.tricks))}</td>{cells}{running}</tr>")
        self.table.value = (
            '<div style="overflow-x:auto"><table style="border-collapse:collapse" border="1" '
            'cellpadding="4"><tr><th>#</th><th>Dealer</th><th>Contract</th><th>Tricks</th>'
            f"{head}{head}</tr>" + "".join(rows) + "</table></div>")
        totals = self.sheet.totals
        status = self.sheet.status
        line = " · ".join(f"{s} <b>{totals[s]}</b>" for s in sides)
        if status.winner:
            verdict = f'<div class="pepper-winner"><b>{_e(status.winner)} win the match!</b></div>'
        elif status.overtime:
            verdict = ('<div class="pepper-overtime">Both reached the target on the same hand: '
                       "one more hand decides (game.tie).</div>")
        else:
            verdict = f"<div>Next deal: <b>{self.sheet.next_dealer.word}</b></div>"
        self.status.value = (f"<div>{_e(rules.summary().splitlines()[0])}</div>"
                             f'<div class="pepper-totals">Totals: {line}</div>{verdict}')
        self.add.disabled = status.winner is not None


def _tricks_words(tricks: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in tricks.items())


class AnnotateTab(widgets.VBox):  # type: ignore[misc]
    def __init__(self, guard: _Guard):
        super().__init__()
        self.text = widgets.Textarea(placeholder="Paste a pepper-hand/1 record here",
                                     layout=widgets.Layout(width="100%", height="200px"))
        self.text.add_class("pepper-record-text")
        self.upload = widgets.FileUpload(accept=".yaml,.yml", multiple=False)
        self.go = _button("Annotate", "pepper-annotate", button_style="primary")
        self.out = widgets.HTML()
        self.out.add_class("pepper-annotation")
        self.go.on_click(guard(lambda _b: self.run()))
        self.upload.observe(guard(lambda _c: self.from_upload()), names="value")
        self.children = [self.text, widgets.HBox([self.upload, self.go]), self.out]

    def from_upload(self) -> None:
        files = self.upload.value
        if files:
            self.text.value = bytes(files[0]["content"]).decode("utf-8", "replace")
            self.run()

    def run(self) -> None:
        try:
            record = parse_record(self.text.value, "pasted record")
        except LoadError as err:
            self.out.value = "".join(f'<div class="pepper-fb wrong">{_e(p)}</div>'
                                     for p in err.problems)
            return
        self.out.value = to_html(annotate(record), standalone=False)


class GameNight(widgets.VBox):  # type: ignore[misc]
    """The whole app. ``join_url`` is shown with a QR code when the app is on the LAN."""

    def __init__(self, path: Path | None = None, join_url: str | None = None):
        super().__init__()
        self.add_class("pepper-night")
        self.errors_box = widgets.HTML()
        self.guard = _Guard(lambda m: setattr(self.errors_box, "value", m))
        self.quiz = QuizWidget(card_width=BIG, save=False)  # a room, not one learner
        self.ruling = RulingTab(self.guard)
        self.score = ScoreTab(self.guard, path or sheet_path())
        self.annotate = AnnotateTab(self.guard)
        self.tabs = widgets.Tab(children=[self.quiz, self.ruling, self.score, self.annotate],
                                titles=("Projector quiz", "Ruling", "Score sheet",
                                        "Annotate a hand"))
        banner = widgets.HTML(join_banner(join_url or os.environ.get("PEPPER_NIGHT_URL")))
        style = widgets.HTML("<style>.pepper-night .widget-dropdown select,"
                             ".pepper-night .widget-text input{font-size:16px}</style>")
        self.children = [style, banner, self.errors_box, self.tabs]

    @property
    def errors(self) -> list[BaseException]:
        return self.guard.errors + self.quiz.errors

