"""mkdocs hook: fill the documentation from the package's own sources at build time.

The prose of each page lives in ``docs/*.md``. Where a page needs something the package already
knows (a rule, a preset, a lesson, an example hand, a command-line option) it holds a marker
line such as ``<!-- pepper:rulebook -->``, and this hook replaces the marker with Markdown made
from the package when the site is built. So no rule is typed twice, and the pages cannot drift
from the code: nothing generated is written into the source tree.

The hook also

* adds the notebooks (``notebooks/*.ipynb``, outside ``docs/``) to the build as pages, fills the
  "Notebooks" section of the navigation and writes a virtual ``notebooks/index.md``;
* serves the JSON Schemas and the example hand records as downloads (virtual files);
* points mkdocs-jupyter's cache at a folder named after a hash of the package sources, so a
  change to the engine re-executes the notebooks instead of reusing stale outputs;
* runs the notebooks with ``PEPPER_TUTOR_HOME`` set to an empty temporary folder, so the site
  never shows the progress of whoever built it.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import html
import io
import json
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import fields
from importlib import resources
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
MARKER = re.compile(r"^<!--\s*pepper:([a-z-]+)\s*-->[ \t]*$", re.MULTILINE)
_state: dict[str, Any] = {}


# ---- helpers --------------------------------------------------------------------------------


def _esc(text: object) -> str:
    """Plain text made safe for Markdown (and the HTML inside it)."""
    out = html.escape(" ".join(str(text).split()), quote=False)
    for ch in "\\`*_[]|#<>":
        out = out.replace(ch, "\\" + ch)
    return out


def _rel(page_src: str, target: str) -> str:
    """A link from one docs page to another, relative as mkdocs expects."""
    depth = page_src.count("/")
    return "../" * depth + target


def _rule_link(rule_id: str, page_src: str) -> str:
    return f"[`{rule_id}`]({_rel(page_src, 'rules.md')}#{rule_id})"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line.strip() else "" for line in text.splitlines())


def _pkg_data(*parts: str) -> Path:
    return Path(str(resources.files("pepper_tutor").joinpath("data", *parts)))


def _hand_files() -> list[Path]:
    return sorted(_pkg_data("hands").glob("*.yaml"))


def _notebooks() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def _notebook_heading(path: Path) -> tuple[str, str]:
    """The notebook's H1 and the first paragraph after it (its first Markdown cell)."""
    nb = json.loads(path.read_text("utf-8"))
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        src = "".join(cell.get("source", ""))
        lines = src.strip().splitlines()
        if lines and lines[0].startswith("# "):
            title = lines[0][2:].strip()
            rest = "\n".join(lines[1:]).strip().split("\n\n")[0]
            return title, " ".join(rest.split())
    return path.stem, ""


# ---- the rulebook, presets and switches ------------------------------------------------------


def gen_rulebook(page_src: str) -> str:
    from pepper_tutor.rulebook.book import get_rulebook

    book = get_rulebook()
    out: list[str] = []
    known = {section_id for section_id, _ in book.sections}
    strays = {rule.section for rule in book if rule.section not in known}
    sections = [*book.sections, *((s, s.capitalize()) for s in sorted(strays))]
    for section_id, section_title in sections:
        rules = book.in_section(section_id)
        if not rules:
            continue
        out += [f"## {_esc(section_title)} {{#section-{section_id}}}", ""]
        for rule in rules:
            out += [f"### {_esc(rule.title)} {{#{rule.id}}}", "",
                    f"<small>Rule id `{rule.id}`</small>", "", _esc(rule.text), ""]
            if rule.example:
                out += ['!!! example "Example"', "", "    " + _esc(rule.example.text), ""]
    return "\n".join(out)


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


def gen_presets(page_src: str) -> str:
    from pepper_tutor.engine.rules import PRESETS, RuleSet, get_ruleset

    sets = [get_ruleset(p) for p in PRESETS]
    head = "| | " + " | ".join(f"[{p}](#preset.{p})" for p in PRESETS) + " |"
    out = [head, "|---" * (len(PRESETS) + 1) + "|"]
    for f in fields(RuleSet):
        if f.name == "preset":
            continue
        out.append(f"| `{f.name}` | " + " | ".join(_fmt(getattr(r, f.name)) for r in sets) + " |")
    derived: list[tuple[str, Callable[[RuleSet], Any]]] = [
        ("bids, lowest first", lambda r: ", ".join(b.display for b in r.ladder)),
        ("auction goes round until all others pass", lambda r: r.open_auction),
        ("exchange with partner", lambda r: r.has_exchange),
        ("defenders may surrender", lambda r: r.has_surrender),
        ("who scores", lambda r: ", ".join(r.sides)),
    ]
    for label, get in derived:
        out.append(f"| {label} | " + " | ".join(_esc(_fmt(get(r))) for r in sets) + " |")
    out += ["", "What each preset means at the table, as `RuleSet.summary()` puts it:", ""]
    for r in sets:
        out += [f'=== "{r.preset}"', ""]
        out += ["    - " + _esc(line) for line in r.summary().splitlines()]
        out.append("")
    return "\n".join(out)


# The values tried for each switch: get_ruleset() says which of them a preset accepts.
_SWITCH_TRIALS: dict[str, tuple[Any, ...]] = {
    "players": (1, 2, 3, 4, 5, 6), "target": (50,), "minimum_bid": (1, 2, 3, 4, 5, 6),
    "all_pass": ("redeal", "dealer_must_bid"), "nt_lead": ("bidder", "left_of_bidder"),
    "signals": ("none", "lions"),
}
_SWITCH_FREE = {"target": "any number of points above 0"}  # too many values to list
# Switches whose effect is not named by RuleSet.rule_ids: the rule that governs them.
_SWITCH_RULES_FALLBACK = {"players": ("cutthroat.deal", "deal"), "target": ("game.target",)}


def gen_switches(page_src: str) -> str:
    from pepper_tutor.engine.rules import PRESETS, SWITCHES, RuleSet, RuleSetError, get_ruleset
    from pepper_tutor.rulebook.book import get_rulebook

    book = get_rulebook()
    out: list[str] = []
    for switch in SWITCHES:
        defaults = {p: RuleSet.preset_defaults(p)[switch] for p in PRESETS}
        trials = _SWITCH_TRIALS.get(switch, (True, False))
        usable: dict[str, list[Any]] = {}
        rule_ids: list[str] = []
        example = None
        for preset in PRESETS:
            base = get_ruleset(preset)
            for value in trials:
                if value == defaults[preset]:
                    continue
                try:
                    changed = get_ruleset(preset, **{switch: value})
                except RuleSetError:
                    continue
                usable.setdefault(preset, []).append(value)
                example = example or (preset, value, changed)
                rule_ids += [i for i in changed.rule_ids
                             if i not in base.rule_ids and i not in rule_ids]
        if not rule_ids:
            rule_ids = [i for i in _SWITCH_RULES_FALLBACK.get(switch, ()) if i in book]
        out += [f"### `{switch}` {{#switch-{switch}}}", ""]
        out += ["| preset | default | may be changed to |", "|---|---|---|"]
        for preset in PRESETS:
            other = ", ".join(f"`{_yaml_inline(v)}`" for v in usable.get(preset, [])) or "—"
            if switch in _SWITCH_FREE and preset in usable:
                other = _SWITCH_FREE[switch]
            out.append(f"| {preset} | `{_yaml_inline(defaults[preset])}` | {other} |")
        out.append("")
        for rid in rule_ids:
            rule = book.get(rid)
            out += [f"> **{_esc(rule.title)}** ({_rule_link(rid, page_src)}): {_esc(rule.text)}",
                    ""]
        if example:
            preset, value, changed = example
            out += [f"In Python `get_ruleset({preset!r}, {switch}={value!r})` gives the rule "
                    f"set named `{changed.name}`; in a lesson or hand record write "
                    f"`rules: {_yaml_inline(changed.to_mapping())}`.", ""]
    return "\n".join(out)


def _yaml_inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ---- lessons --------------------------------------------------------------------------------


def _lesson_notebooks() -> dict[str, list[Path]]:
    """Lesson id -> the notebooks that run it with ``notebook.lesson("id")``."""
    found: dict[str, list[Path]] = {}
    for nb in _notebooks():
        for lesson_id in re.findall(r"lesson\(\\?[\"']([a-z0-9-]+)\\?[\"']", nb.read_text("utf-8")):
            found.setdefault(lesson_id, []).append(nb)
    return found


def lesson_guides(path: Path) -> list[str]:
    """The example hands a lesson names to step through as game guides (its ``x-guides``)."""
    import yaml

    data = yaml.safe_load(path.read_text("utf-8"))
    names = data.get("x-guides", []) if isinstance(data, dict) else []
    return [str(n) for n in names] if isinstance(names, list) else []


def _step_guides(lesson: Any, page_src: str) -> str:
    """The lesson's steps that show an example hand (their ``guide:``), each linked to that
    hand's guide in the docs at the step it opens at."""
    from pepper_tutor.render.guide import lesson_guide
    from pepper_tutor.teaching.lessons.step_guide import example_hands

    links = []
    for step in lesson.steps:
        guide = lesson.guide_of(step)
        if guide is None or guide.hand not in example_hands():
            continue  # a hand of the lesson's own has no guide page in the docs
        at = lesson_guide(guide)[1]
        links.append(f"step `{step.id}`: [{_esc(guide.hand)} at {_esc(guide.at.text)}]"
                     f"({_rel(page_src, f'guides/{guide.hand}.html')}#step={at + 1})")
    return ", ".join(links)


def gen_lessons(page_src: str) -> str:
    from pepper_tutor.teaching.lessons.files import all_lessons

    lessons = all_lessons()
    titles = {lesson.id: lesson.title for lesson in lessons}
    in_notebooks = _lesson_notebooks()
    out = ["| # | Lesson | Id | Steps | Takes first |", "|---|---|---|---|---|"]
    for n, lesson in enumerate(lessons, 1):
        req = ", ".join(f"[{_esc(titles.get(r, r))}](#{r})" for r in lesson.requires) or "—"
        out.append(f"| {n} | [{_esc(lesson.title)}](#{lesson.id}) | `{lesson.id}` | "
                   f"{len(lesson.steps)} | {req} |")
    out.append("")
    for lesson in lessons:
        kinds = Counter(step.kind for step in lesson.steps)
        cited: list[str] = []
        for rid in (*lesson.rules.rule_ids,
                    *(rid for step in lesson.steps for rid in step.rules.rule_ids),
                    *(rid for step in lesson.steps for rid in step.cited)):
            if rid not in cited:
                cited.append(rid)
        out += [f"## {_esc(lesson.title)} {{#{lesson.id}}}", "", _esc(lesson.summary), ""]
        facts = [
            ("Run it", f"`pepper-tutor lesson {lesson.id}`"),
            ("File", f"`lessons/{Path(lesson.file).name}`"),
            ("Rules", f"`{lesson.rules.name}`"),
            ("Take first", ", ".join(f"[{_esc(titles.get(r, r))}](#{r})"
                                      for r in lesson.requires) or "nothing"),
            ("Steps", f"{len(lesson.steps)}: " + ", ".join(
                f"{count} {kind}" for kind, count in kinds.most_common())),
            ("Rules used", ", ".join(_rule_link(r, page_src) for r in cited)),
        ]
        guides = lesson_guides(Path(lesson.file))
        if guides:
            facts.append(("Step through a hand", ", ".join(
                f"[{_esc(name)}]({_rel(page_src, f'guides/{name}.html')})"
                for name in guides)))
        beside = _step_guides(lesson, page_src)
        if beside:
            facts.append(("A whole hand beside a step", beside))
        nbs = in_notebooks.get(lesson.id, [])
        if nbs:
            facts.append(("In the notebooks", ", ".join(
                f"[{_esc(_notebook_heading(nb)[0])}]"
                f"({_rel(page_src, 'notebooks/' + nb.name)})" for nb in nbs)))
        out += [f"- **{key}:** {value}" for key, value in facts]
        out.append("")
    return "\n".join(out)


def gen_lesson_schema(page_src: str) -> str:
    schema = _pkg_data("lesson.schema.json").read_text("utf-8")
    link = _rel(page_src, "schemas/lesson.schema.json")
    return "\n".join([
        f"Download: [`lesson.schema.json`]({link}) (JSON Schema; the same file ships in the "
        "package as `pepper_tutor/data/lesson.schema.json`).", "",
        '??? note "The schema in full"', "", "    ```json", _indent(schema.rstrip()),
        "    ```", ""])


# ---- hand records ---------------------------------------------------------------------------

_RULE_REF = re.compile(r"`([a-z][a-z0-9.-]*)`|\\?\[([a-z][a-z0-9.-]*)\\?\](?!\()")


def _link_rules(markdown: str, page_src: str) -> str:
    from pepper_tutor.rulebook.book import get_rulebook

    book = get_rulebook()

    def sub(m: re.Match[str]) -> str:
        rid = m.group(1) or m.group(2)
        return _rule_link(rid, page_src) if rid in book else m.group(0)

    return _RULE_REF.sub(sub, markdown)


def _blank_before_lists(markdown: str) -> str:
    """Python-Markdown needs a blank line between a paragraph and a list that follows it."""
    out: list[str] = []
    for line in markdown.splitlines():
        if (line.startswith("- ") and out and out[-1].strip()
                and not out[-1].startswith(("- ", "  "))):
            out.append("")
        out.append(line)
    return "\n".join(out)


def _hand_intro(path: Path) -> str:
    lines = []
    for line in path.read_text("utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    return " ".join(lines)


def gen_hands(page_src: str) -> str:
    from pepper_tutor.records.annotate import annotate_file
    from pepper_tutor.render.annotation import to_markdown

    out: list[str] = []
    for path in _hand_files():
        body = to_markdown(annotate_file(path)).strip()
        title, _, rest = body.partition("\n")
        if not title.startswith("## "):  # the renderer's layout changed: keep our anchor anyway
            title, rest = f"## {path.stem}", body
        out += [f"{title} {{#hand-{path.stem}}}", "",
                f"`{path.name}` · [download]({_rel(page_src, 'hands/' + path.name)}) · "
                f"[step through it as a game guide]"
                f"({_rel(page_src, 'guides/' + path.stem + '.html')}) · "
                f"`pepper-tutor annotate {path.name}`", ""]
        intro = _hand_intro(path)
        if intro:
            out += [f"*{_esc(intro)}*", ""]
        out += [_link_rules(_blank_before_lists(rest.strip()), page_src), ""]
        out += [f'??? abstract "The record as written: {path.name}"', "", "    ```yaml",
                _indent(path.read_text("utf-8").rstrip()), "    ```", ""]
    return "\n".join(out)


def gen_hand_list(page_src: str) -> str:
    from pepper_tutor.records.hand_record import load_record

    out = []
    for path in _hand_files():
        rec = load_record(path)
        out.append(f"- [`{path.stem}`](#hand-{path.stem}) ({rec.rules.name}): "
                   f"{_esc(_hand_intro(path))}")
    return "\n".join(out) + "\n"


def gen_annotation_schema(page_src: str) -> str:
    link = _rel(page_src, "schemas/annotation.schema.json")
    return (f"The JSON output (`--format json`, format `pepper-annotation/1`) is described by "
            f"[`annotation.schema.json`]({link}), shipped in the package as "
            "`pepper_tutor/data/annotation.schema.json`.\n")


# ---- game guides -----------------------------------------------------------------------------

# A hand written out in a docs page (a ```yaml block holding a pepper-hand/1 record).
_RECORD_BLOCK = re.compile(r"^```yaml\n(format: pepper-hand/1\n.*?)^```[ \t]*$",
                           re.MULTILINE | re.DOTALL)
# How many deals the coach grades each decision of a docs guide on (the table's count).
GUIDE_SAMPLES = None


def _page_name(src_uri: str) -> str:
    return src_uri.removesuffix(".md").replace("/", "-")


def docs_page_hands() -> list[tuple[str, str]]:
    """Every hand record written out in a docs page: (guide name, record text), named
    after the page and the block's place in it (``hands-1``)."""
    docs = ROOT / "docs"
    out = []
    for page in sorted(docs.rglob("*.md")):
        name = _page_name(page.relative_to(docs).as_posix())
        for n, m in enumerate(_RECORD_BLOCK.finditer(page.read_text("utf-8")), 1):
            out.append((f"{name}-{n}", m.group(1)))
    return out


def guide_pages() -> dict[str, str]:
    """Guide name -> its page: every example hand of the package and every hand written
    out in a docs page, with the coach on every decision. The guides' data is kept in
    .cache/guides/ under a hash of the package's sources (the viewer's own files aside: a
    change to how the page looks grades nothing again) and of the record."""
    from pepper_tutor.records.hand_record import parse_record
    from pepper_tutor.render.guide import build_guide
    from pepper_tutor.render.guide_html import guide_json, page_of

    package = ROOT / "pepper_tutor"
    viewer = {package / "data" / "guide", package / "render" / "guide_html.py"}
    sources = [p for p in sorted(package.iterdir()) if p not in viewer and p.name != "data"]
    sources += [p for p in sorted((package / "data").iterdir()) if p not in viewer]
    cache = ROOT / ".cache" / "guides" / _source_hash(sources)
    records = [(p.stem, p.read_text("utf-8"), f"pepper_tutor/data/hands/{p.name}")
               for p in _hand_files()]
    records += [(name, text, f"docs/{name}.yaml") for name, text in docs_page_hands()]
    pages = {}
    for name, text, file in records:
        kept = cache / f"{name}-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"
        if not kept.exists():
            guide = build_guide(parse_record(text, file), analyse=True, samples=GUIDE_SAMPLES)
            cache.mkdir(parents=True, exist_ok=True)
            kept.write_text(json.dumps({"title": guide.title, "data": guide_json(guide)}),
                            "utf-8")
        saved = json.loads(kept.read_text("utf-8"))
        pages[name] = page_of(saved["title"], saved["data"])
    return pages


def _guide_links(markdown: str, page_src: str) -> str:
    """After each hand record written out in a page, a link to its guide."""
    stem = _page_name(page_src)
    count = 0

    def link(m: re.Match[str]) -> str:
        nonlocal count
        count += 1
        target = _rel(page_src, f"guides/{stem}-{count}.html")
        return (f"{m.group(0)}\n\n[Step through this hand as a game guide]({target})"
                "{ .pepper-guide-link }\n")

    return _RECORD_BLOCK.sub(link, markdown)


# ---- command line ---------------------------------------------------------------------------


def _parser_with_width(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    def fmt(prog: str) -> argparse.HelpFormatter:
        return argparse.HelpFormatter(prog, width=88, max_help_position=32)

    parser.formatter_class = fmt
    return parser


def _options_table(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    formatter = parser._get_formatter()
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.option_strings:
            name = ", ".join(f"`{o}`" for o in action.option_strings)
            if action.nargs != 0:
                name += f" `{formatter._format_args(action, action.dest.upper())}`"
        else:
            name = f"`{formatter._format_args(action, action.dest)}`"
        text = formatter._expand_help(action) if action.help else ""
        extra = []
        if action.choices and not isinstance(action.choices, dict):
            extra.append("one of " + ", ".join(f"`{c}`" for c in action.choices))
        if action.required:
            extra.append("required")
        if action.default not in (None, False, argparse.SUPPRESS, []) and action.nargs != 0:
            extra.append(f"default `{action.default}`")
        rows.append(f"| {name} | {_esc(text)}" + (f" ({'; '.join(extra)})" if extra else "")
                    + " |")
    if not rows:
        return []
    return ["| argument | meaning |", "|---|---|", *rows, ""]


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append((name, helps.get(name, ""), sub))
    return out


def gen_cli(page_src: str) -> str:
    from pepper_tutor.apps.cli import build_parser

    parser = _parser_with_width(build_parser())
    out = ["## `pepper-tutor`", "", _esc(parser.description or ""), "", "```text",
           parser.format_usage().strip(), "```", ""]
    out += _options_table(parser)
    out += ["| command | what it does |", "|---|---|"]
    for name, help_text, _sub in _subcommands(parser):
        out.append(f"| [`{name}`](#{name}) | {_esc(help_text)} |")
    out.append("")
    for name, help_text, sub in _subcommands(parser):
        _parser_with_width(sub)
        sentence = help_text[:1].upper() + help_text[1:] + "."
        out += [f"## `pepper-tutor {name}` {{#{name}}}", "", _esc(sentence), "",
                "```text", sub.format_usage().strip(), "```", ""]
        out += _options_table(sub)
    return "\n".join(out)


CLI_EXAMPLES = (
    ("trick", "--trump", "H", "JD", "AH", "9S", "QH"),
    ("trick", "--trump", "H", "JD", "AH", "9S", "QH", "--json"),
    ("rules", "rank.left-bower"),
    ("trick", "--trump", "H", "JD", "JD"),
)


def gen_cli_examples(page_src: str) -> str:
    from pepper_tutor.apps.cli import main

    out = []
    for argv in CLI_EXAMPLES:
        stdout, stderr = io.StringIO(), io.StringIO()
        env = {"COLUMNS": "78", "NO_COLOR": "1", "TERM": "dumb"}
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                status = main(list(argv))
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        text = (stdout.getvalue() + stderr.getvalue()).rstrip()
        shown = f"$ pepper-tutor {' '.join(argv)}\n{text}"
        if status:
            shown += f"\n$ echo $?\n{status}"
        out += ["```console", shown.replace("```", "'''"), "```", ""]
    return "\n".join(out)


# ---- getting started ------------------------------------------------------------------------


def gen_readme_commands(page_src: str) -> str:
    readme = (ROOT / "README.md").read_text("utf-8")
    m = re.search(r"```bash\n(.*?)```", readme, re.DOTALL)
    if not m:
        raise PluginError("README.md has no ```bash block with the set-up commands")
    return f"```bash\n{m.group(1)}```\n"


# ---- notebooks ------------------------------------------------------------------------------


# From notebooks/index.html to a notebook in the JupyterLite site that docs/hooks/web.py copies.
# A workspace per notebook: JupyterLite restores its workspace's open notebooks at each visit,
# each with a kernel of its own, so one shared workspace would start a kernel for every
# notebook opened from these links before (the ninth link took 60 s to start, not 10).
LITE_LINK = "../lite/lab/index.html?workspace={stem}&amp;path={name}"  # HTML: &amp;


def notebooks_index() -> str:
    out = ["# Notebooks", "",
           "The Jupyter notebooks teach the game with pictures of the cards and lessons you "
           "click through. On this site each one is shown as it looked after a fresh run when "
           "the site was built, so the cards and the first step of every lesson are there; the "
           "buttons only answer in a live kernel. To use them for real, run `make lab` in a "
           "checkout of the project (JupyterLab opens on the `notebooks/` folder), or "
           "**Open in JupyterLite** beside a notebook: the same notebook, running in your "
           "browser with nothing to install (see [Play in your browser](../browser.md)).", ""]
    for nb in _notebooks():
        title, blurb = _notebook_heading(nb)
        # our own notebooks: Markdown kept; the JupyterLite site (site/lite/, web/lite.py) is
        # no page of the docs, so its link is plain HTML
        out += [f"- [{_esc(title)}]({nb.name}) · "
                f'<a class="pepper-lite" href="{LITE_LINK.format(stem=nb.stem[:2], name=nb.name)}">Open in '
                f"JupyterLite</a>: {blurb}"]
    return "\n".join(out) + "\n"


GENERATORS: dict[str, Callable[[str], str]] = {
    "rulebook": gen_rulebook,
    "presets": gen_presets,
    "switches": gen_switches,
    "lessons": gen_lessons,
    "lesson-schema": gen_lesson_schema,
    "hands": gen_hands,
    "hand-list": gen_hand_list,
    "annotation-schema": gen_annotation_schema,
    "cli": gen_cli,
    "cli-examples": gen_cli_examples,
    "readme-commands": gen_readme_commands,
}


# ---- mkdocs events --------------------------------------------------------------------------


def _source_hash(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for base in paths:
        for p in sorted(base.rglob("*")) if base.is_dir() else [base]:
            if p.is_file() and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(ROOT)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()[:16]


def on_config(config: Any) -> Any:
    # the notebooks' own navigation section
    for item in config.nav or []:
        if isinstance(item, dict) and "Notebooks" in item:
            item["Notebooks"] = [{"Overview": "notebooks/index.md"}] + [
                {_notebook_heading(nb)[0]: f"notebooks/{nb.name}"} for nb in _notebooks()]
    # re-run the notebooks when the package changes, not only when a notebook does
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is not None and plugin.config.get("cache"):
        base = ROOT / ".cache" / "mkdocs-jupyter"
        key = _source_hash([ROOT / "pepper_tutor", ROOT / "lessons", ROOT / "pyproject.toml"])
        plugin.config["cache_dir"] = str(base / key)
        if base.is_dir():  # drop caches of older sources (left alone for an hour, in case
            for old in base.iterdir():  # another build is still using one)
                if (old.is_dir() and old.name != key and re.fullmatch(r"[0-9a-f]{16}", old.name)
                        and time.time() - old.stat().st_mtime > 3600):
                    shutil.rmtree(old, ignore_errors=True)
    # a clean learner for the build-time run of the notebooks
    if "home" not in _state:
        _state["home"] = tempfile.mkdtemp(prefix="pepper-docs-home-")
        _state["saved_home"] = os.environ.get("PEPPER_TUTOR_HOME")
        os.environ["PEPPER_TUTOR_HOME"] = _state["home"]
    return config


@event_priority(100)  # before mkdocs-jupyter's on_files, which wraps every .ipynb it sees
def on_files(files: Files, config: Any) -> Files:
    site, urls = config.site_dir, config.use_directory_urls
    for nb in _notebooks():
        files.append(File(f"notebooks/{nb.name}", str(ROOT), site, urls))
    files.append(File.generated(config, "notebooks/index.md", content=notebooks_index()))
    for name in ("lesson.schema.json", "annotation.schema.json"):
        files.append(File.generated(config, f"schemas/{name}",
                                    abs_src_path=str(_pkg_data(name))))
    for path in _hand_files():
        files.append(File.generated(config, f"hands/{path.name}", abs_src_path=str(path)))
    for name, page in guide_pages().items():
        files.append(File.generated(config, f"guides/{name}.html", content=page))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    src = page.file.src_uri

    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in GENERATORS:
            raise PluginError(f"{src}: unknown marker pepper:{name} "
                              f"(known: {', '.join(sorted(GENERATORS))})")
        return GENERATORS[name](src)

    return _guide_links(MARKER.sub(sub, markdown), src)


def on_shutdown() -> None:
    home = _state.pop("home", None)
    if home:
        shutil.rmtree(home, ignore_errors=True)
        saved = _state.pop("saved_home", None)
        if saved is None:
            os.environ.pop("PEPPER_TUTOR_HOME", None)
        else:
            os.environ["PEPPER_TUTOR_HOME"] = saved
