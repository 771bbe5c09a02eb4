"""The lobby's lists, drawn line by line: the tables (with a selection) and who is online.

The lobby follows every game on the server (a turn, a seat, a new table), and
everyone in the lobby gets each change; so, like the table screen, these lists
repaint only the lines that changed (`LineWidget`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.strip import Strip

from shared.i18n import N_, _, per_language_cache

from .lines import LineWidget, blank, strip
from .palette import DIM, LABEL, fit

# A cell is its text, or its texts longest first: the first that fits its column is drawn
# (the last, cut short, when none does).
Cell = str | tuple[str, ...]
Row = tuple[str, tuple[Cell, ...]]  # a table's id, and its cells
HEADER_BG, STRIPE_BG, CURSOR_BG = "#1e2a3e", "#161a21", "#3b4d70"
MARKED = Style(color="#ffd23f", bold=True)  # the viewer's own row


class TableList(LineWidget):
    """Rows under a header line (the lobby's tables, the leaderboard, a player's games);
    up and down move the selection, which stays on the same row when the list changes.
    The `marked` row (the viewer's own) stands out; `empty` is said when there are none."""

    DEFAULT_CSS = """
    TableList { height: 1fr; }
    """

    def __init__(
        self,
        columns: Sequence[tuple[str, int]],
        *,
        empty: str = N_(" No tables yet: c creates one, g plays at once against bots."),
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.columns = tuple(columns)
        self.empty = empty
        self.marked: str | None = None
        self.rows: tuple[Row, ...] = ()
        self.cursor = 0  # index of the selected row
        self.top = 0  # index of the first row shown

    @property
    def selected(self) -> str | None:
        """The selected table's id (None when there are no tables)."""
        return self.rows[self.cursor][0] if self.rows else None

    def show(self, rows: Sequence[Row], marked: str | None = None) -> None:
        """List `rows`, keeping the selection on the same row when it is still listed."""
        rows = tuple(rows)
        if rows == self.rows and marked == self.marked:
            return
        keep = self.selected
        self.rows, self.marked = rows, marked
        ids = [key for key, _ in rows]
        self.cursor = ids.index(keep) if keep in ids else min(self.cursor, max(0, len(rows) - 1))
        self.redraw()

    class Chosen(Message):
        """A table was double-clicked (the same as Enter on it)."""

    def move(self, delta: int) -> None:
        """Move the selection by `delta` rows (clamped to the list)."""
        cursor = max(0, min(len(self.rows) - 1, self.cursor + delta))
        if cursor != self.cursor:
            self.cursor = cursor
            self.redraw()

    @property
    def page(self) -> int:
        """Rows a page up or down moves: the rows shown, less one kept for context."""
        return max(1, self.content_size.height - 2)

    def on_click(self, event: events.Click) -> None:
        """A click selects a table; a double click opens it."""
        row = self.top + event.y - 1  # the header is line 0
        if event.y >= 1 and row < len(self.rows):
            self.move(row - self.cursor)
            if event.chain >= 2:
                self.post_message(self.Chosen())

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        lines = [
            self._line(
                tuple(_(label) if label else "" for label, _size in self.columns),
                width,
                base,
                header=True,
            )
        ]
        room = max(1, height - 1)
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + room:
            self.top = self.cursor - room + 1
        self.top = max(0, min(self.top, max(0, len(self.rows) - room)))
        if not self.rows:
            none = Text(_(self.empty), DIM)
            return [*lines, strip(none, width, base)]
        for i in range(self.top, min(len(self.rows), self.top + room)):
            if i == self.cursor:
                style = base + Style(bgcolor=CURSOR_BG, bold=True)
            else:
                style = base + Style(bgcolor=STRIPE_BG) if i % 2 else base
            if self.rows[i][0] == self.marked:
                style += MARKED
            lines.append(self._line(self.rows[i][1], width, style))
        return lines

    def _line(
        self, cells: tuple[Cell, ...], width: int, style: Style, header: bool = False
    ) -> Strip:
        return row_strip(sized(self.columns, width), cells, width, style, header)


def sized(columns: tuple[tuple[str, int], ...], width: int) -> tuple[tuple[str, int], ...]:
    """The columns with the one of size 0 given the width the others leave (at least 8)."""
    fixed = sum(size for _, size in columns) + len(columns) + 1
    return tuple((name, size or max(8, width - fixed)) for name, size in columns)


@per_language_cache(maxsize=4096)
def row_strip(
    columns: tuple[tuple[str, int], ...],
    cells: tuple[Cell, ...],
    width: int,
    style: Style,
    header: bool,
) -> Strip:
    """One line of the tables list (cached: every session in the lobby shows the same rows)."""
    out = Text(" ")
    for (_label, size), cell in zip(columns, cells, strict=False):
        out.append_text(fit(Text(fitting(cell, size), style=LABEL if header else ""), size))
        out.append(" ")
    return strip(out, width, style + Style(bgcolor=HEADER_BG) if header else style)


def fitting(cell: Cell, size: int) -> str:
    """The cell's first text that fits in `size` columns, else its last."""
    if isinstance(cell, str):
        return cell
    return next((text for text in cell if cell_len(text) <= size), cell[-1] if cell else "")


class NameList(LineWidget):
    """Names one per line; the last line says how many more when they do not all fit."""

    DEFAULT_CSS = """
    NameList { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names: tuple[str, ...] = ()

    def show(self, names: Sequence[str]) -> None:
        names = tuple(names)
        if names != self.names:
            self.names = names
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        if not self.names:
            return [strip(Text("nobody", style=DIM), width, base)]
        names = list(self.names)
        if len(names) > height:
            more = len(names) - (height - 1)
            names = [*names[: height - 1], _("… and {more} more", more=more)]
        return [strip(Text(name), width, base) for name in names] or [blank(width, base)]
