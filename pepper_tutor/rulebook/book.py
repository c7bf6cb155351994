"""The project's rulebook: every rule in our own words, each with a stable id.

The texts live in ``pepper_tutor/data/rulebook.yaml`` (shipped with the package) so that
explanations, lessons, the annotator and the docs site all quote the same words.

>>> get_rule("rank.left-bower").title
'The left bower'
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, NamedTuple

__all__ = ["Example", "Rule", "Rulebook", "UnknownRuleError", "get_rule", "get_rulebook", "quote",
           "rule_label", "rule_ids_shown", "rule_tag", "RULE_IDS_ENV"]


class UnknownRuleError(KeyError, ValueError):
    """A rule id the rulebook does not have (a ValueError too, as every refusal of the
    public API is; a KeyError as it always was)."""

    def __str__(self) -> str:
        return str(self.args[0])


# Plain NamedTuples rather than dataclasses: these load on every command-line start, and
# building dataclasses (with the `inspect` module they import) costs it about 20 ms.


class Example(NamedTuple):
    text: str
    check: dict[str, Any] | None = None


class Rule(NamedTuple):
    id: str
    section: str
    title: str
    text: str
    example: Example | None = None

    def quote(self) -> str:
        """The rule as explanations cite it: ``rank.left-bower: The jack ...``."""
        return f"{self.id}: {self.text}"


class Rulebook:
    """Every rule by id, in the rulebook's order, and the sections they belong to."""

    __slots__ = ("rules", "sections")

    def __init__(self, sections: tuple[tuple[str, str], ...],
                 rules: dict[str, Rule] | None = None) -> None:
        self.sections = sections
        self.rules: dict[str, Rule] = dict(rules or {})

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules.values())

    def __len__(self) -> int:
        return len(self.rules)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.rules

    def get(self, rule_id: str) -> Rule:
        if not isinstance(rule_id, str):
            raise UnknownRuleError(f"{rule_id!r} is not a rule id (ids are text such as "
                                   "rank.left-bower)")
        try:
            return self.rules[rule_id]
        except KeyError:
            import difflib  # only for a mistyped id

            close = difflib.get_close_matches(rule_id, list(self.rules), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UnknownRuleError(f"no rule {rule_id!r} in the rulebook{hint}") from None

    def in_section(self, section: str) -> list[Rule]:
        return [r for r in self.rules.values() if r.section == section]

    def search(self, words: str) -> list[Rule]:
        """Rules whose id, title or text contain every word (case-insensitive)."""
        if not isinstance(words, str):
            raise UnknownRuleError(f"{words!r} is not text to search the rules for")
        terms = words.lower().split()
        found = []
        for rule in self.rules.values():
            hay = " ".join((rule.id, rule.title, rule.text,
                            rule.example.text if rule.example else "")).lower()
            if all(t in hay for t in terms):
                found.append(rule)

        def named(rule: Rule) -> tuple[int, int]:
            # The words that name a rule (its id, its title) count before its body text:
            # "left bower" is rank.left-bower, not every rule that mentions the left bower.
            id_words = set(rule.id.lower().replace(".", " ").replace("-", " ").split())
            title_words = set(rule.title.lower().split())
            return (-sum(t in id_words for t in terms), -sum(t in title_words for t in terms))
        return sorted(found, key=named)

    def nearest(self, words: str, n: int = 3) -> list[str]:
        """The ids closest to ``words``: what to suggest when nothing matches."""
        import difflib  # only when nothing matched

        key = "-".join(words.lower().split())
        tails = {r.id.split(".", 1)[-1]: r.id for r in self.rules.values()}
        close = difflib.get_close_matches(key, list(tails), n=n, cutoff=0.5)
        return [tails[t] for t in close] or difflib.get_close_matches(
            key, list(self.rules), n=n, cutoff=0.4)


RULEBOOK_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                             "data", "rulebook.yaml")
# A plain path, not importlib.resources or pathlib: the package ships as files, and those
# modules alone would cost the command line's start about 20 ms.


def _parse_yaml(text: str) -> Any:
    import yaml  # imported here so that `import pepper_tutor` stays quick

    # libyaml's C loader when PyYAML was built with it (about ten times faster); the
    # pure-Python safe loader otherwise, same result.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)


def _cache_file(source: str) -> str | None:
    """Where the parsed rulebook is kept between runs, named after the source's size and time.

    Importing PyYAML alone costs more than the rest of ``pepper-tutor trick`` together, so,
    like Python's own ``.pyc`` files, the parsed rulebook is kept as JSON in the user's cache
    folder (``$PEPPER_TUTOR_CACHE``, else ``$XDG_CACHE_HOME/pepper-tutor``, else
    ``~/.cache/pepper-tutor``). A changed rulebook has another name, so it is parsed afresh."""
    try:
        st = os.stat(source)
        root = os.environ.get("PEPPER_TUTOR_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
            "pepper-tutor")
    except (OSError, RuntimeError):
        return None
    return os.path.join(root, f"rulebook-{st.st_size}-{st.st_mtime_ns}.json")


def _load_data(source: str) -> Any:
    cache = _cache_file(source)
    if cache is not None:
        try:
            with open(cache, encoding="utf-8") as fh:
                return json.load(fh)
        except (OSError, ValueError):
            pass  # no cache yet, or a damaged one: parse the YAML and write it again
    with open(source, encoding="utf-8") as fh:
        data = _parse_yaml(fh.read())
    if cache is not None:
        _write_cache(cache, data)
    return data


def _write_cache(cache: str, data: Any) -> None:
    """Write the cache through the one writer (whole or not at all, no half-written file
    left behind), imported here because only a first start writes it."""
    from ..files.writing import write_text

    try:
        text = json.dumps(data, ensure_ascii=False)
        if json.loads(text) != data:  # only plain data is cached; anything else is re-parsed
            return
        folder = os.path.dirname(cache)
        os.makedirs(folder, exist_ok=True)
        _remove_stale_temp_files(folder)
        write_text(cache, text)
    except (OSError, TypeError, ValueError):  # the writer's refusals are ValueErrors
        pass  # a read-only home or a full disk only costs the next start its speed


def _remove_stale_temp_files(folder: str, older_than: float = 600.0) -> None:
    """Temp files of writes that were killed part way (another writer's are younger).

    The writer cleans up after earlier saves to the same path only; the cache's name changes
    with the rulebook's size and time, so a killed write of an older cache is swept here."""
    import time

    for name in os.listdir(folder):
        if name.startswith(".rulebook-"):
            path = os.path.join(folder, name)
            try:
                if time.time() - os.path.getmtime(path) > older_than:
                    os.remove(path)
            except OSError:
                pass  # gone already, or not ours to remove


def _build(data: Any) -> Rulebook:
    sections = tuple((s["id"], s["title"]) for s in data["sections"])
    rules: dict[str, Rule] = {}
    for item in data["rules"]:
        ex = item.get("example")
        example = Example(" ".join(ex["text"].split()), ex.get("check")) if ex else None
        rules[item["id"]] = Rule(item["id"], item["section"], item["title"],
                                 " ".join(item["text"].split()), example)
    return Rulebook(sections, rules)


@lru_cache(maxsize=1)
def get_rulebook() -> Rulebook:
    """The packaged rulebook (loaded once per process)."""
    return _build(_load_data(RULEBOOK_FILE))


def get_rule(rule_id: str) -> Rule:
    return get_rulebook().get(rule_id)


def quote(rule_id: str) -> str:
    return get_rule(rule_id).quote()


#: Set to 1 to see each rule's id beside its title on every screen (the "rule ids" view, for
#: authors and teachers who cite rules by id); learners see titles only.
RULE_IDS_ENV = "PEPPER_TUTOR_RULE_IDS"


def rule_ids_shown() -> bool:
    return os.environ.get(RULE_IDS_ENV, "").strip() not in ("", "0")


def rule_label(rule_id: str) -> str:
    """How a rule is named on a learner's screen: its title ("Defenders who take nothing"),
    with its id ("score.sweep") only in the opt-in rule ids view (:data:`RULE_IDS_ENV`)."""
    rulebook = get_rulebook()
    title = rulebook.get(rule_id).title if rule_id in rulebook else rule_id
    return f"{title} ({rule_id})" if rule_ids_shown() and title != rule_id else title


def rule_tag(rule_id: str) -> str:
    """What goes before a rule's quoted text: ``"[score.sweep] "`` in the rule ids view,
    else nothing (the text says what the rule is; a title before it could name a hint's
    answer)."""
    return f"[{rule_id}] " if rule_ids_shown() else ""
