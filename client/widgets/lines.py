"""Widgets that draw whole lines themselves (Textual's line API), repainting only what changed.

The table redraws after every key and every move, for every player the server
hosts, in one process. A screen of many small widgets costs Textual a restyle
per class change and a render per widget on every update; so the table is a
few `LineWidget`s instead. Each computes its lines as `Strip`s from plain
values (`draw`), keeps what it drew, and on `redraw` repaints only the lines
that differ. Pieces that repeat (a card tile, a player panel) are cached by
value across sessions: the server draws the same card once for everyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.color import Color
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

# Text becomes segments without a terminal: styles are resolved later, per session.
_CONSOLE = Console(width=512, color_system=None, force_terminal=False, legacy_windows=False)


def strip(text: Text, width: int, base: Style | None = None) -> Strip:
    """`text` (one line) as exactly `width` cells, with `base` under its own styles."""
    segments: Iterable[Segment] = text.render(_CONSOLE, "")
    line = Strip(list(segments), text.cell_len).adjust_cell_length(width)
    if text.style:  # `render` leaves the text's own style to its caller when it has no spans
        own = _CONSOLE.get_style(text.style)
        base = own if base is None else base + own
    return line.apply_style(base) if base is not None else line


def blank(width: int, base: Style | None = None) -> Strip:
    return Strip.blank(width, base)


def over(base: Style, colour: str) -> Style:
    """`base` with `colour` (which may be translucent, e.g. ``#FFFFFF0A``) painted on its
    background."""
    under = Color.from_rich_color(base.bgcolor) if base.bgcolor else Color(0, 0, 0)
    return base + Style(bgcolor=(under + Color.parse(colour)).hex)


_THEMES: dict[tuple[str, str], str] = {}


def theme_colour(app: App[Any], name: str) -> str:
    """A colour of the app's theme (``panel``, ``boost``…), computed once per theme."""
    key = (app.theme, name)
    if key not in _THEMES:
        _THEMES[key] = app.get_css_variables()[name]
    return _THEMES[key]


class LineWidget(Widget):
    """A widget drawn line by line from `draw`; `redraw` repaints the lines that changed."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips: list[Strip] = []

    def draw(self, width: int, height: int) -> list[Strip]:
        """The widget's lines for a content area of `width` x `height` (at most `height`)."""
        raise NotImplementedError

    def redraw(self) -> None:
        """Draw again; refresh only the lines that differ from the last drawing."""
        width, height = self.content_size
        if not self.is_mounted or width <= 0 or height <= 0:
            return  # drawn at the first resize
        new = self.draw(width, height)
        old, self._strips = self._strips, new
        y, end = 0, max(len(old), len(new))
        while y < end:
            if y < len(old) and y < len(new) and old[y] == new[y]:
                y += 1
                continue
            first = y
            while y < end and not (y < len(old) and y < len(new) and old[y] == new[y]):
                y += 1
            self.refresh(Region(0, first, width, y - first))  # content coordinates

    def render_line(self, y: int) -> Strip:
        if y < len(self._strips):
            return self._strips[y]
        return blank(self.content_size.width, self.rich_style)

    def on_resize(self) -> None:
        self._strips = []
        self.redraw()
        self.refresh()
