"""Gem colours and the small text pieces every widget uses.

A colour always comes with its letter (W U G R K *): chips are the letter on
the gem's colour, so the table reads the same colour-blind and with NO_COLOR.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from shared.cards import LETTERS

# Chip styles: letter on the gem's colour (R1).
CHIP: tuple[Style, ...] = (
    Style.parse("bold #111111 on #e6e6e6"),  # W white
    Style.parse("bold #ffffff on #2a64c8"),  # U blue
    Style.parse("bold #ffffff on #17803a"),  # G green
    Style.parse("bold #ffffff on #c22e29"),  # R red
    Style.parse("bold #ffffff on #000000"),  # K black
    Style.parse("bold #111111 on #e8b500"),  # * gold
)
# Letter styles on a dark background.
INK: tuple[Style, ...] = (
    Style.parse("bold #f2f2f2"),
    Style.parse("bold #6ea6ff"),
    Style.parse("bold #4fd27a"),
    Style.parse("bold #ff6b63"),
    Style.parse("bold #a0a0a0"),
    Style.parse("bold #ffd23f"),
)
DIM = Style.parse("#8a8f98")
LABEL = Style.parse("bold #8a8f98")  # row labels and section titles
# Backgrounds that mean the same everywhere.
GREEN_BG = "#1f3d2b"  # yours: your turn, a card you can buy
RED_BG = "#5a2323"  # trouble: a refusal, the final round
GOLD_BG = "#3d3a1d"  # waiting on you: a question, gems picked
GOOD = Style.parse("bold #5fdc7f")
BAD = Style.parse("#e0a05a")


def chip(colour: int, text: str | None = None) -> Text:
    """A gem chip: `text` (default: the letter) on the colour."""
    return Text(text if text is not None else LETTERS[colour], style=CHIP[colour])


def pieces(counts: Sequence[int], spaced: bool, styles: Sequence[Style] = INK) -> Text:
    """Counts per colour as ``2U 1K`` pieces (``2U1K`` if not `spaced`), each in its
    colour's style (`INK`, letters in the colour; `CHIP`, on it)."""
    out = Text()
    for c, n in enumerate(counts):
        if n:
            if out and spaced:
                out.append(" ")
            out.append(f"{n}{LETTERS[c]}", style=styles[c])
    return out


def cost_text(counts: Sequence[int], width: int, chips: bool = True) -> Text:
    """`pieces`, spaced if `width` allows, run together if not."""
    spaced = sum(1 for n in counts if n) * 3 - 1 <= width
    return pieces(counts, spaced, CHIP if chips else INK)


def fit(text: Text, width: int) -> Text:
    """`text` cut or padded to exactly `width` cells."""
    text = text.copy()
    text.truncate(width, overflow="ellipsis", pad=True)
    return text
