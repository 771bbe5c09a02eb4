"""The board, one widget: the nobles (with what you still lack for each), three rows of
cards with their decks, the bank and your reserved cards (with a card looked up beside
them), the cursor on one square.

Its sizes come from `client.layout.geometry` (the screen sets the widget's own size).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from shared.i18n import _, per_language_cache

from ..layout import Geometry, geometry
from .lines import LineWidget, blank, strip
from .palette import DIM, GOOD, LABEL, cost_text, fit, pieces
from .tiles import FLAT_CURSOR, CardFace, PileFace, card_strips, pile_strip

NOBLE_ROW, BANK_ROW, MINE_ROW = 0, 4, 5  # cursor rows; the card rows are 1 to 3
CROWN = "bold #ffd23f"


@dataclass(frozen=True, slots=True)
class NobleFace:
    """A noble on the table: its id, what it asks, and what the viewer still lacks (None
    for a spectator)."""

    id: str
    requires: tuple[int, ...]
    lacks: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class BoardFace:
    """What the board shows: card rows (deck first) top to bottom, the bank's piles, the
    viewer's three reserve slots (None for a spectator), the nobles, a card looked up."""

    rows: tuple[tuple[CardFace, ...], ...] = ()
    piles: tuple[PileFace, ...] = ()
    mine: tuple[CardFace, ...] | None = None
    nobles: tuple[NobleFace, ...] = field(default=())
    look: CardFace | None = None


@per_language_cache(maxsize=1024)
def noble_strips(
    nobles: tuple[NobleFace, ...], cursor: int | None, width: int, base: Style
) -> tuple[Strip, Strip]:
    """The nobles in table order (R14), each above what the viewer still lacks for it."""
    if not nobles:
        line = strip(Text(_(" no nobles left (R14)"), style=DIM), width, base)
        return line, blank(width, base)
    slot = width // len(nobles)
    tops, bottoms = [], []
    for i, noble in enumerate(nobles):
        here = cursor == i
        style = base + Style(bgcolor=FLAT_CURSOR) if here else base
        crown = "♛" if slot >= 14 else ""
        top = Text("▶" if here else " ", style="bold")
        top.append(f"{crown}{noble.id} ", style=CROWN)
        wants = cost_text(noble.requires, slot - top.cell_len - 1)
        top.append_text(wants)
        bottom = Text(" ")
        if noble.lacks is not None:
            if any(noble.lacks):
                bottom.append(_("you "), style=DIM)
                spaced = len(bottom) + 3 * sum(1 for n in noble.lacks if n) <= slot - 1
                bottom.append_text(pieces(noble.lacks, spaced))
            else:
                bottom.append(_("you ✓"), style=GOOD)
        tops.append(strip(fit(top, slot - 1), slot - 1, style))
        bottoms.append(strip(fit(bottom, slot - 1), slot - 1, style))
        tops.append(blank(1, base))
        bottoms.append(blank(1, base))
    return (
        Strip.join(tops).adjust_cell_length(width, base),
        Strip.join(bottoms).adjust_cell_length(width, base),
    )


class Board(LineWidget):
    """The board, drawn from a `BoardFace` and the cursor; `show` repaints what changed."""

    DEFAULT_CSS = """
    Board { height: auto; }
    """

    def reads_left_to_right(self) -> bool:
        return True  # the card grid stays (docs/design.md, "Right to left")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.face = BoardFace()
        self.cursor: tuple[int, int] | None = (0, 0)  # None: the cursor is elsewhere

    def show(self, face: BoardFace, cursor: tuple[int, int] | None) -> None:
        if face != self.face or cursor != self.cursor:
            self.face, self.cursor = face, cursor
            self.redraw()

    @property
    def geometry(self) -> Geometry:
        size = self.screen.size
        return geometry(size.width, size.height)

    def draw(self, width: int, height: int) -> list[Strip]:
        g = self.geometry
        base = self.rich_style
        face = self.face
        empty = blank(width, base)
        lines = list(noble_strips(face.nobles, self._at(NOBLE_ROW), min(width, g.width), base))
        lines = [line.adjust_cell_length(width, base) for line in lines]
        for r, row in enumerate(face.rows):
            if g.row_gap:
                lines.append(empty)
            lines += row_strips(row, self._at(r + 1), g, width, base)
        if g.row_gap:
            lines.append(empty)
        lines.append(bank_strip(face.piles, self._at(BANK_ROW), g, width, base))
        lines += hand_strips(face.mine, face.look, self._at(MINE_ROW), g, width, base)
        return lines[:height]

    def _at(self, r: int) -> int | None:
        """The cursor's column on cursor row `r` (None: it is not on that row)."""
        return self.cursor[1] if self.cursor is not None and self.cursor[0] == r else None


# A row's lines are cached by value, as its tiles are: a key moves the cursor in one row
# (or none), a move changes a card or two, and the other rows are lines drawn before.
@per_language_cache(maxsize=2048)
def row_strips(
    row: tuple[CardFace, ...], cursor: int | None, g: Geometry, width: int, base: Style
) -> tuple[Strip, ...]:
    """A card row: its deck `g.deck` cells wide, then its cards, `width` cells a line."""
    tiles = _tiles(row, cursor, g, base, g.deck)
    lines = (_side_by_side(tiles[0][y], tiles[1:], y, g, base) for y in range(g.height))
    return tuple(Strip.join(parts).adjust_cell_length(width, base) for parts in lines)


@per_language_cache(maxsize=1024)
def hand_strips(
    mine: tuple[CardFace, ...] | None,
    look: CardFace | None,
    cursor: int | None,
    g: Geometry,
    width: int,
    base: Style,
) -> tuple[Strip, ...]:
    """Your reserved cards under the card columns (none for a spectator), then a card
    looked up (if any) in the fourth column, set apart by a bar."""
    tiles = _tiles(mine or (), cursor, g, base, 0)
    shown = card_strips(look, g.card, g.height, False, g.boxed, base) if look is not None else None
    label = _("Hand") if mine is not None else ""
    out = []
    for y in range(g.height):
        name = Text(label if y == 0 else "", style=LABEL)
        parts = _side_by_side(strip(name, g.deck, base), tiles, y, g, base)
        if shown is not None:
            missing = 3 - len(tiles)
            parts.append(blank(missing * (g.card + g.gap), base))
            parts.append(strip(Text("▕", style=DIM), g.gap or 1, base))
            parts.append(shown[y])
        out.append(Strip.join(parts).adjust_cell_length(width, base))
    return tuple(out)


@per_language_cache(maxsize=1024)
def bank_strip(
    piles: tuple[PileFace, ...], cursor: int | None, g: Geometry, width: int, base: Style
) -> Strip:
    """The bank's line: its label in the deck column, then a pile per colour, gold last."""
    parts = [strip(Text(_("Bank"), style=LABEL), g.deck, base)]
    each = max(7, (g.width - g.deck) // 6)
    for c, pile in enumerate(piles):
        parts.append(pile_strip(pile, each, cursor == c, base))
    return Strip.join(parts).adjust_cell_length(width, base)


def _side_by_side(
    first: Strip, tiles: Sequence[tuple[Strip, ...]], y: int, g: Geometry, base: Style
) -> list[Strip]:
    """Line `y` of a row: `first`, then each tile's line `y` after a gap."""
    gap = [blank(g.gap, base)] if g.gap else []
    parts = [first]
    for tile in tiles:
        parts += gap
        parts.append(tile[y])
    return parts


def _tiles(
    row: Sequence[CardFace], cursor: int | None, g: Geometry, base: Style, first: int
) -> list[tuple[Strip, ...]]:
    """A row's tiles; the first `first` cells wide (the deck), the others card-wide."""
    return [
        card_strips(
            face, first if c == 0 and first else g.card, g.height, cursor == c, g.boxed, base
        )
        for c, face in enumerate(row)
    ]
