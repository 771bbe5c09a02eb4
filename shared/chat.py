"""Chat text made safe to show on anyone's terminal (pure, no I/O).

A chat line is one line of plain text, cleaned by the one sanitiser of text from
outside (`shared.text.safe_text`: no control character, escape sequence, bidirectional
control or other invisible format character; joiners only inside words; runs of spaces
become one). The host cleans every line it receives (`clean`); the client's decoder
refuses a line that is not clean (`is_clean`).
"""

from __future__ import annotations

from .text import safe_text

MAX_CHAT = 200  # characters in a chat line, once clean
MAX_SAID = 1000  # characters a client may send for one line, before cleaning


def clean(text: str) -> str:
    """`text` as a chat line may show it (`shared.text.safe_text`), trimmed; longer than
    `MAX_SAID`, cut with an ellipsis (the host refuses a line longer than `MAX_CHAT`)."""
    return safe_text(text, MAX_SAID)


def is_clean(text: str) -> bool:
    """Whether `text` is a chat line as `clean` leaves it."""
    return clean(text) == text
