"""When two players' names are the same name: the key a name is compared by.

Two names are taken to be one when a phone on the other side of the room could not tell them
apart: ``Émile`` and ``émile`` and ``Emile``, or ``Alice`` and ``Аlice`` with a Cyrillic
``А``. The key is the name in Unicode's compatibility form (NFKC: ``ﬁ`` is ``fi``, a
full-width ``Ａ`` is ``A``), case-folded, without accents (the combining marks of its NFKD
form), with the Cyrillic and Greek letters that look like Latin ones written as those
(:data:`LOOKALIKES`). This is a deliberately small cousin of Unicode's confusables skeleton
(UTS #39): it covers the letters a name is typed with, not every symbol that resembles
another, and it never refuses a name that is only written in another script (``Ольга`` and
``Olga`` are two names; ``Оlga`` with a Cyrillic ``О`` is ``Olga``).
"""

from __future__ import annotations

import unicodedata

__all__ = ["name_key", "LOOKALIKES"]

# Lower-case Cyrillic and Greek letters (after case folding) and the Latin letter each is
# read as, in small or capital print; and the dotless i.
LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i", "ј": "j",
    "к": "k", "ӏ": "l", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "т": "t", "у": "y",
    "ԝ": "w", "х": "x", "с": "c", "ԁ": "d", "ү": "y",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "m", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ζ": "z",
    # Latin
    "ı": "i",
})


def name_key(name: str) -> str:
    """The key two names are compared by (see the module's note): equal keys, one name."""
    folded = unicodedata.normalize("NFKC", " ".join(name.split())).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", folded)
                   if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", bare).translate(LOOKALIKES)
