"""Chat text made safe to show on anyone's terminal (pure, no I/O).

A chat line is one line of plain text. Whatever a player sends, what reaches the
others has no control character (C0, DEL, C1), no escape sequence (CSI, OSC, DCS and
the rest: their parameters go too, not only the ESC), no bidirectional override or
isolate and no other invisible formatting character (Unicode category Cf, such as a
zero-width joiner), no surrogate or private-use character, and no line or paragraph
separator; runs of spaces become one. The host cleans every line it receives
(`clean`); the client's decoder refuses a line that is not clean (`is_clean`).
"""

from __future__ import annotations

import re
import unicodedata

MAX_CHAT = 200  # characters in a chat line, once clean
MAX_SAID = 1000  # characters a client may send for one line, before cleaning

# Escape sequences, 7-bit and 8-bit: CSI (ESC [ or 0x9B) with its parameters and final
# byte; OSC, DCS, SOS, PM and APC strings up to their terminator (BEL or ST) or the end;
# any other ESC with the character after it.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\s\S]?",
)
# Controls, formats (bidirectional overrides among them), surrogates, private use, unassigned.
_DROP = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
_SPACES = frozenset(("Zs", "Zl", "Zp"))


def clean(text: str) -> str:
    """`text` as a chat line may show it (see the module docstring), trimmed."""
    text = _ESCAPES.sub("", text)
    out = []
    for ch in text:
        kind = unicodedata.category(ch)
        if ch in "\t\n\r" or kind in _SPACES:
            out.append(" ")
        elif kind not in _DROP:
            out.append(ch)
    return " ".join("".join(out).split())


def is_clean(text: str) -> bool:
    """Whether `text` is a chat line as `clean` leaves it."""
    return clean(text) == text
