"""The ``pepper-tutor`` command line.

Every sub-command turns bad input into a one-line message per problem on stderr and exit
status 2; no Python traceback reaches the user.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

__all__ = ["UsageError", "main"]


class UsageError(Exception):
    """Bad input from the user: the message is shown as it is, with exit status 2."""


def _cmd_trick(args: argparse.Namespace) -> int:
    from ..engine.calls import Trump
    from ..engine.cards import parse_cards
    from ..rulebook.tricks import explain_trick

    trump = Trump.parse(args.trump)
    cards = parse_cards(" ".join(args.cards))  # "jack of diamonds" arrives as three words
    if len(set(cards)) != len(cards):
        raise UsageError("a card appears twice in the trick: " + " ".join(args.cards))
    if not 2 <= len(cards) <= 4:
        raise UsageError(f"a trick has 2 to 4 cards, not {len(cards)}")
    why = explain_trick(cards, trump)
    if args.json:
        print(json.dumps(why.to_dict(), ensure_ascii=False))
        return 0
    from rich.text import Text

    from ..render.terminal import card_text, cards_text, make_console
    from ..rulebook.book import get_rule, rule_tag

    console = make_console(args.ascii)
    head = Text(f"{trump.word.capitalize()} trumps" if trump is not Trump.NT else "No trump")
    head.append(": ")
    head.append_text(cards_text(cards, args.ascii))
    head.append("  →  ")
    head.append_text(card_text(why.winning_card, args.ascii, "underline"))
    head.append(f" wins (card {why.winner_index + 1}, in play order).")
    console.print(head)
    for fact in why.facts:
        console.print(Text("• " + fact))
    rule = get_rule(why.rule_id)
    console.print(Text(rule_tag(rule.id), style="dim").append(rule.text, style="italic"))
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    from ..render.terminal import make_console, rule_panel, rulebook_group
    from ..rulebook.book import get_rulebook

    asked = [what for what, given in (("a rule id or words", bool(args.id)),
                                      ("--search", args.search is not None),
                                      ("--ids", args.ids)) if given]
    if len(asked) > 1:  # one would be shown and the others silently dropped
        raise UsageError(f"rules: give {' or '.join(asked)}, one at a time")
    book = get_rulebook()
    console = make_console(args.ascii)
    if args.search is not None:
        words = " ".join(args.search)
        if not words.strip():
            raise UsageError("give a word to search the rules for, such as: rules --search "
                             "bower")
        found = book.search(words)
        if not found:
            raise UsageError(f"no rule mentions {' '.join(args.search)!r}")
        console.print(rulebook_group(book, found))
        return 0
    if args.id:  # "" is no rule id, not a request for the whole book
        words = " ".join(args.id).strip()
        if not words:
            raise UsageError("give a rule id such as rank.left-bower, or no id for the whole "
                             "rulebook (rules --ids lists them)")
        if words in book or ("." in words and " " not in words):  # an id, maybe mistyped
            console.print(rule_panel(book.get(words)))
            return 0
        # Free words: the rules they name, best named first ("left bower": rank.left-bower).
        found = book.search(words)
        if not found:
            near = book.nearest(words)
            hint = f"; did you mean {', '.join(near)}?" if near else \
                " (rules --ids lists the ids)"
            raise UsageError(f"no rule id or rule text matches {words!r}{hint}")
        console.print(rule_panel(found[0]) if len(found) == 1
                      else rulebook_group(book, found))
        return 0
    if args.ids:
        for rule in book:
            print(f"{rule.id:28} {rule.title}")
        return 0
    console.print(rulebook_group(book))
    return 0


Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pepper-tutor",
        description="A rules tutor and hand annotator for Pepper.")
    parser.add_argument("--ascii", action="store_true",
                        help="letters instead of suit symbols (for plain terminals)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("trick", help="who wins a trick, and why")
    p.add_argument("--trump", "-t", required=True, help="C, D, H, S or NT")
    p.add_argument("cards", nargs="+", help="the cards in play order, e.g. JD AH 9S QH")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.set_defaults(handler=_cmd_trick)

    p = sub.add_parser("rules", help="print the rulebook or one rule")
    p.add_argument("id", nargs="*", metavar="ID or WORD",
                   help="a rule id such as rank.left-bower, or words to look for")
    p.add_argument("--search", "-s", nargs="+", metavar="WORD", help="rules mentioning WORDs")
    p.add_argument("--ids", action="store_true", help="list the rule ids only")
    p.set_defaults(handler=_cmd_rules)

    from . import commands as cli_extra
    cli_extra.register(sub)
    from . import puzzles as puzzles_cli
    puzzles_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    handler: Handler = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (UsageError, ValueError, KeyError, OSError) as err:
        # ValueError covers NotationError, RuleSetError and the loaders' errors; KeyError
        # covers UnknownRuleError. Each message is already written for a person.
        from ..render.plain import strip_controls  # file names and values come from users

        message = strip_controls(str(err)).strip() or err.__class__.__name__
        for line in message.splitlines():
            print(f"pepper-tutor: {line}", file=sys.stderr)
        return 2
    except Exception as err:  # a bug of ours: say so in one line, keep the traceback opt-in
        if os.environ.get("PEPPER_TUTOR_DEBUG"):
            raise
        print(f"pepper-tutor: internal error: {err!r} (set PEPPER_TUTOR_DEBUG=1 for details)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
