"""Marking text a player reads, so one catalog can translate it (issue 34).

`_("Table {table} has no open seat.", table=tid)` marks the English text (the catalog's
key) and fills its fields after translation; `ngettext` does the same for a count.
For now every language reads English: the catalog arrives with the language work.
"""

from __future__ import annotations


def _(message: str, /, **fields: object) -> str:
    """`message` in the reader's language, its ``{fields}`` filled in."""
    return message.format(**fields) if fields else message


def ngettext(singular: str, plural: str, count: int, /, **fields: object) -> str:
    """The form of a message for `count` (the count is also field ``{n}``)."""
    return (singular if count == 1 else plural).format(n=count, **fields)


def N_(message: str, /) -> str:
    """Mark text for the catalog where it is defined; translate it with `_` where shown."""
    return message
