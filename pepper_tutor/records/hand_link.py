"""A hand record in a link: the record's canonical text, compressed, in base64url.

A Game Guide's address carries the hand it shows (``#hand=...&step=N``), in the fragment, so
no server ever sees it and a link opens the same hand at the same step for anyone. The text
is :func:`~.hand_record.dump_record`'s canonical YAML (notes and glyphs kept, comments
dropped), deflated with zlib and spelled in base64url without padding: a six-trick hand with
notes is a few hundred characters.

>>> from pepper_tutor.records.hand_record import parse_record
>>> record = parse_record("format: pepper-hand/1\\ndealer: W\\n"
...                       "auction: [pass, pass, pass, pass]\\n")
>>> link = record_to_link(record)
>>> record_from_link(link).dealer
<Seat.W: 3>
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from .hand_record import HandRecord, dump_record, parse_record

__all__ = ["record_to_link", "record_from_link", "MAX_LINK_TEXT"]

#: The most text a link's record may unpack to: a record with every note written out is a
#: few kilobytes, and a link that unpacks to more is refused before it fills the memory.
MAX_LINK_TEXT = 64 * 1024
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


def record_to_link(record: HandRecord) -> str:
    """The record as the ``hand=`` value of a guide's address."""
    packed = zlib.compress(dump_record(record).encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def record_from_link(text: str, source: str = "the link") -> HandRecord:
    """The record a ``hand=`` value carries, validated as a file would be. A value that is
    not one raises ``ValueError`` saying so in one line (a record that does not read raises
    the reader's :class:`~pepper_tutor.files.reading.LoadError`, with ``source`` as the
    file)."""
    text = text.strip()
    if not text or not _BASE64URL.fullmatch(text):
        raise ValueError(f"{source}: the hand in this link is not base64url text "
                         "(letters, digits, - and _)")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(packed, MAX_LINK_TEXT)
    except (binascii.Error, zlib.error) as err:
        raise ValueError(f"{source}: the hand in this link is damaged or cut short "
                         f"({err})") from None
    if unpacker.unconsumed_tail:
        raise ValueError(f"{source}: the hand in this link unpacks to more than "
                         f"{MAX_LINK_TEXT // 1024} KB, more than any hand record")
    if not unpacker.eof:
        raise ValueError(f"{source}: the hand in this link is cut short")
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{source}: the hand in this link is not text") from None
    return parse_record(decoded, source)
