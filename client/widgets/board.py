"""The board, one widget: the nobles, three rows of cards with their decks, the bank and
the viewer's reserved cards, with the cursor on one square.

Its layout follows the terminal's size: wider cards from 100 columns, a blank
line between the rows from 30 lines, boxed cards from 38.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from shared.cards import NOBLE_BY_ID

from .lines import LineWidget, blank, strip
from .palette import DIM, LABEL, cost_text, fit
from .tiles import CardFace, PileFace, card_strips, pile_strip

WIDE_AT, MEDIUM_AT, TALL_AT = 100, 30, 38  # terminal columns and lines


@dataclass(frozen=True, slots=True)
class Geometry:
    """Where things go on the board, for one terminal size."""

    card: int  # a card slot
    deck: int  # a deck
    gap: int  # between two slots
    pile: int  # a bank pile (one cell to the next pile)
    label: int  # "Bank", "Your hand"
    height: int  # a row of cards: 3 lines flat, 5 boxed
    boxed: bool
    row_gap: bool  # a blank line after the level 3 and level 2 rows


def geometry(columns: int, lines: int) -> Geometry:
    wide, tall = columns >= WIDE_AT, lines >= TALL_AT
    if tall:
        card, deck, gap = (16, 10, 0) if wide else (13, 8, 0)
    else:
        card, deck, gap = (15, 9, 1) if wide else (11, 6, 1)
    return Geometry(  # the board's own width is CSS (#board in splendor.tcss)
        card=card,
        deck=deck,
        gap=gap,
        pile=10 if wide else 7,
        label=10 if wide else 7,
        height=5 if tall else 3,
        boxed=tall,
        row_gap=lines >= MEDIUM_AT,
    )


@dataclass(frozen=True, slots=True)
class BoardFace:
    """What the board shows: card rows (deck first) top to bottom, the bank's piles, the
    viewer's three reserve slots (None for a spectator), the nobles."""

    rows: tuple[tuple[CardFace, ...], ...] = ()
    piles: tuple[PileFace, ...] = ()
    mine: tuple[CardFace, ...] | None = None
    nobles: tuple[str, ...] = field(default=())


@lru_cache(maxsize=1024)
def noble_strip(nobles: tuple[str, ...], width: int, base: Style) -> Strip:
    """The nobles on the table, in table order (R14), each with what it asks."""
    if not nobles:
        return strip(Text("no nobles left", style=DIM), width, base)
    out = Text()
    prefix = "Nobles " if width >= 7 + 11 * len(nobles) else ""
    out.append(prefix, style="bold")
    for i, nid in enumerate(nobles):
        noble = NOBLE_BY_ID[nid]
        if i:
            out.append("  " if width >= 60 else " ")
        out.append(f"{nid}♛", style="bold #ffd23f")
        out.append_text(cost_text(noble.requires, 8, chips=True))
    return strip(fit(out, width), width, base)


class Board(LineWidget):
    """The board, drawn from a `BoardFace` and the cursor; `show` repaints what changed."""

    DEFAULT_CSS = """
    Board { height: 100%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.face = BoardFace()
        self.cursor = (0, 0)

    def show(self, face: BoardFace, cursor: tuple[int, int]) -> None:
        if face != self.face or cursor != self.cursor:
            self.face, self.cursor = face, cursor
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        size = self.screen.size
        g = geometry(size.width, size.height)
        base = self.rich_style
        face = self.face
        empty = blank(width, base)
        lines = [noble_strip(face.nobles, width, base), empty]
        gap = [blank(g.gap, base)] if g.gap else []
        for r, row in enumerate(face.rows):
            lines += self._row(row, r, g, width, base, gap)
            if g.row_gap and r < len(face.rows) - 1:
                lines.append(empty)
        lines.append(empty)
        lines.append(self._bank(face.piles, g, width, base))
        if face.mine is not None:
            lines += self._row(face.mine, len(face.rows) + 1, g, width, base, gap, "Your\nhand")
        return lines[:height]

    def _row(
        self,
        row: Sequence[CardFace],
        r: int,
        g: Geometry,
        width: int,
        base: Style,
        gap: list[Strip],
        label: str | None = None,
    ) -> list[Strip]:
        tiles = [
            card_strips(
                face,
                g.card if c or label else g.deck,
                g.height,
                self.cursor == (r, c),
                g.boxed,
                base,
            )
            for c, face in enumerate(row)
        ]
        names = label.split("\n") if label else []
        out = []
        for y in range(g.height):
            parts = []
            if label is not None:
                name = names[y] if y < len(names) else ""
                parts.append(strip(Text(name, style=LABEL), g.label, base))
            for tile in tiles:
                parts.append(tile[y])
                parts += gap
            out.append(Strip.join(parts).adjust_cell_length(width, base))
        return out

    def _bank(self, piles: Sequence[PileFace], g: Geometry, width: int, base: Style) -> Strip:
        bank_row = len(self.face.rows)
        parts = [strip(Text("Bank", style=LABEL), g.label, base)]
        spacer = blank(1, base)
        for c, pile in enumerate(piles):
            parts.append(pile_strip(pile, g.pile, self.cursor == (bank_row, c), base))
            parts.append(spacer)
        return Strip.join(parts).adjust_cell_length(width, base)
