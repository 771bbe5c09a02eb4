"""Editing a line typed on a screen (the table's move and chat line, the lobby's chat):
the keys that move the caret and delete, and printable characters inserted at the caret
(pure, no Textual). A key types a printable character, or a joiner a language needs (ZWNJ
in Persian words); a paste goes through `shared.text.safe_text`, as the host's copy will."""

from __future__ import annotations

from collections.abc import Callable

from shared.text import JOINERS, safe_text

Line = tuple[str, int]  # the text, and the caret's place in it

# Editing keys: (text, caret) -> (text, caret).
EDITING: dict[str, Callable[[str, int], Line]] = {
    "backspace": lambda t, i: (t[: i - 1] + t[i:], i - 1) if i else (t, i),
    "delete": lambda t, i: (t[:i] + t[i + 1 :], i),
    "left": lambda t, i: (t, max(0, i - 1)),
    "right": lambda t, i: (t, min(len(t), i + 1)),
    "home": lambda t, i: (t, 0),
    "ctrl+a": lambda t, i: (t, 0),
    "end": lambda t, i: (t, len(t)),
    "ctrl+e": lambda t, i: (t, len(t)),
    "ctrl+u": lambda t, i: (t[i:], 0),
    "ctrl+k": lambda t, i: (t[:i], i),
}


def edited(line: Line, key: str, character: str | None, limit: int) -> Line:
    """`line` after a key: an editing key, or a printable `character` (while the text is
    shorter than `limit`); anything else leaves it as it was."""
    text, caret = line
    if key in EDITING:
        return EDITING[key](text, caret)
    if character and _typable(character) and len(text) < limit:
        return text[:caret] + character + text[caret:], caret + 1
    return line


def pasted(line: Line, text: str, limit: int) -> Line:
    """`line` with pasted `text` at the caret, as `shared.text.safe_text` leaves it (one
    line; an escape sequence goes whole, not only its ESC), up to `limit` in all."""
    text = safe_text(text, limit)
    typed, caret = line
    text = text[: limit - len(typed)]
    return typed[:caret] + text + typed[caret:], caret + len(text)


def _typable(ch: str) -> bool:
    return ch.isprintable() or ch in JOINERS
