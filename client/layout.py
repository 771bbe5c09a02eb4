"""Where the table goes, for a terminal size and a number of players (pure, no Textual).

The table is two columns between the status line and the prompt line and keys:
on the left the board (nobles, three rows of cards with their decks, the bank,
your reserved cards) with the move log under it, and the table's chat beside the
moves (online); on the right the players, in playing order, one panel each.
Everything a player decides with is on screen at every size from `MIN_COLUMNS` x
`MIN_LINES`; below that the table shows how big the terminal must be. Larger
terminals get wider cards (spaced costs), boxed cards from 38 lines, taller cards
from 48, larger player panels and a longer log.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.i18n import _

MIN_COLUMNS, MIN_LINES = 80, 22  # the smallest terminal that shows the whole table
CHROME = 3  # the status line, the prompt line and the keys


@dataclass(frozen=True, slots=True)
class Geometry:
    """Sizes on the board for one terminal size."""

    card: int  # a card slot, in cells
    deck: int  # the deck (and row label) column
    gap: int  # between two slots
    height: int  # a card's lines: 3 flat, 5 or 6 boxed
    boxed: bool
    row_gap: bool  # a blank line between the parts of the board

    @property
    def width(self) -> int:
        """The board's width: the deck column, then four slots each after a gap."""
        return self.deck + 4 * (self.gap + self.card)

    @property
    def lines(self) -> int:
        """The board's height: nobles (2 lines), three card rows, the bank, your hand."""
        gaps = 4 if self.row_gap else 0  # after the nobles, between rows, before the bank
        return 2 + 3 * self.height + 1 + self.height + gaps


@dataclass(frozen=True, slots=True)
class Layout:
    """The table's layout: `fits` is False below the smallest size (then nothing else
    counts and the screen asks for a bigger terminal)."""

    columns: int
    lines: int
    board: Geometry
    fits: bool
    side: int  # the players' column, in cells
    log: int  # lines of the move log under the board
    panel: int  # lines of each player's panel (after the column's one header line)

    @property
    def chat(self) -> int:
        """The chat's column at the right of the move log, in cells (its rule included):
        two fifths of the board's width, so the moves keep the larger part."""
        return self.board.width * 2 // 5


def geometry(columns: int, lines: int) -> Geometry:
    """Card sizes: wider from 100 columns (spaced costs), 120 and 160; boxed cards from
    38 lines, a fourth line on each card from 48; a blank line between rows from 28."""
    if columns >= 160:
        card, deck = 21, 10
    elif columns >= 120:
        card, deck = 17, 8
    elif columns >= 100:
        card, deck = 15, 6
    else:
        card, deck = 13, 4
    boxed = lines >= 38
    height = 6 if lines >= 48 else 5 if boxed else 3
    return Geometry(card, deck, 1, height, boxed, row_gap=lines >= 28)


def layout(columns: int, lines: int, players: int) -> Layout:
    g = geometry(columns, lines)
    body = lines - CHROME
    side = columns - g.width - 1  # one column of margin between the board and the players
    fits = columns >= MIN_COLUMNS and lines >= MIN_LINES and body >= g.lines + 3
    panel = max(0, (body - 1) // max(1, players))
    return Layout(columns, lines, g, fits, max(0, side), max(0, body - g.lines), panel)


def too_small(columns: int, lines: int) -> str:
    """What the table says when the terminal is smaller than `MIN_COLUMNS` x `MIN_LINES`."""
    return _(
        "The table needs a terminal of at least {MIN_COLUMNS}×{MIN_LINES}; "
        "this one is {columns}×{lines}. Make it bigger to see the table. q "
        "quits, ? shows the keys.",
        MIN_COLUMNS=MIN_COLUMNS,
        MIN_LINES=MIN_LINES,
        columns=columns,
        lines=lines,
    )
