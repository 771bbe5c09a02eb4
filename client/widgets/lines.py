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

from functools import lru_cache
from typing import Any

from rich.cells import set_cell_size
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual.app import App
from textual.color import Color
from textual.filter import ANSIToTruecolor, LineFilter
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget

from ..rtl import left_to_right, reorders

# Text becomes segments without a terminal: styles are resolved later, per session.
_CONSOLE = Console(width=512, color_system=None, force_terminal=False, legacy_windows=False)


def strip(text: Text, width: int, base: Style | None = None, indent: int = 0) -> Strip:
    """`text` (one line) as exactly `width` cells, with `base` under its own styles, after
    `indent` blank cells (in `base`) of its own.

    Lines are made once per content, for every session: a move changes a line or two
    of a panel, and the rest of it (and many a tile's line) is a line drawn before."""
    return _strip(text.plain, tuple(text.spans), text.style, width, base, indent)


@lru_cache(maxsize=16384)
def _strip(
    plain: str,
    spans: tuple[Span, ...],
    style: str | Style,
    width: int,
    base: Style | None,
    indent: int,
) -> Strip:
    """One `Strip`, not one per step (render, fit, style, indent): a Strip starts seven
    caches of its own."""
    indent = max(0, min(indent, width))
    text = Text(plain, style=style, spans=list(spans))
    segments = list(text.render(_CONSOLE, ""))
    length = text.cell_len
    room = width - indent
    if length < room:
        segments.append(Segment(" " * (room - length)))
    elif length > room:
        segments = _cropped(segments, room)
    styled = base
    if text.style:  # `render` leaves the text's own style to its caller when it has no spans
        own = _CONSOLE.get_style(text.style)
        styled = own if base is None else base + own
    if styled is not None:
        segments = list(Segment.apply_style(segments, styled))
    if indent:
        segments.insert(0, Segment(" " * indent, base))
    return Strip(segments, width)


def _cropped(segments: list[Segment], width: int) -> list[Segment]:
    """The first `width` cells of a line (as `Strip.adjust_cell_length` cuts it)."""
    out: list[Segment] = []
    used = 0
    for segment in segments:
        cells = segment.cell_length
        if used + cells < width:
            out.append(segment)
            used += cells
        else:
            out.append(Segment(set_cell_size(segment.text, width - used), segment.style))
            break
    return out


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


def changed_columns(old: Strip, new: Strip, width: int) -> tuple[int, int]:
    """The columns between the first and the last run of text that differ from `old` to
    `new` (whole runs: a wide character is never cut); the whole line if the two differ
    in length."""
    if old.cell_length != new.cell_length:
        return 0, width
    before, after = list(old), list(new)
    same = min(len(before), len(after))
    head = 0
    while head < same and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < same - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    start = sum(segment.cell_length for segment in after[:head])
    stop = new.cell_length - sum(segment.cell_length for segment in after[len(after) - tail :])
    return (start, stop) if start < stop else (0, width)


@lru_cache(maxsize=4096)
def _in_rgb(style: Style) -> bool:
    """Whether `style` is one `ANSIToTruecolor` gives back as it is: its colours in RGB
    (not a terminal's palette), and not dim with a colour (it blends that into the
    background)."""
    color, bgcolor = style.color, style.bgcolor
    return (
        (color is None or color.triplet is not None)
        and (bgcolor is None or bgcolor.triplet is not None)
        and not (style.dim and color is not None)
    )


def _all_rgb(line: Strip) -> bool:
    """Whether `ANSIToTruecolor` would give `line` back unchanged (see `_in_rgb`; it also
    drops control codes)."""
    return all((style is None or _in_rgb(style)) and not control for _, style, control in line)


@lru_cache(maxsize=256)
def _inner(base_background: Color, background: Color) -> Style:
    """The style of a widget's own blank cells, as Textual's styles cache makes it."""
    return VisualStyle(background=base_background + background).rich_style


class LineWidget(Widget):
    """A widget drawn line by line from `draw`; `redraw` repaints the lines that changed."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips: list[Strip] = []
        self._filtered: dict[int, tuple[Strip, Strip]] = {}  # by line: drawn, as filtered
        self._filtered_by: tuple[tuple[LineFilter, ...], Color] | None = None

    def draw(self, width: int, height: int) -> list[Strip]:
        """The widget's lines for a content area of `width` x `height` (at most `height`)."""
        raise NotImplementedError

    def reads_left_to_right(self) -> bool:
        """Whether this part stays as on a left-to-right screen for a right-to-left reader
        (the card grid, the players' panels, the move line: docs/design.md, "Right to
        left"); the words in it still read right."""
        return False

    def get_line_filters(self) -> list[LineFilter]:
        filters = list(super().get_line_filters())
        return left_to_right(filters) if self.reads_left_to_right() else filters

    def redraw(self) -> None:
        """Draw again; refresh only the lines that differ from the last drawing, and on
        each only the columns that differ (a cursor key changes two cards of a row; the
        whole line where a right-to-left layout moves its cells)."""
        width, height = self.content_size
        if not self.is_mounted or width <= 0 or height <= 0:
            return  # drawn at the first resize
        new = list(self.draw(width, height))  # its own list: unchanged lines are put back
        old, self._strips = self._strips, new
        if not old:
            self.refresh()  # the first drawing (or the first at a new size): all of it
            return
        filters = self.get_line_filters()
        for y in range(max(len(old), len(new))):
            if y >= len(old) or y >= len(new):
                self.refresh(Region(0, y, width, 1))  # content coordinates
            elif old[y] != new[y]:
                if reorders(filters, old[y].text + new[y].text):
                    start, stop = 0, width  # laid out: cells moved from where they were drawn
                else:
                    start, stop = changed_columns(old[y], new[y], width)
                self.refresh(Region(start, y, stop - start, 1))
            else:
                new[y] = old[y]  # the line as it was filtered for the screen (`render_lines`)

    def render_line(self, y: int) -> Strip:
        if y < len(self._strips):
            return self._strips[y]
        return blank(self.content_size.width, self.rich_style)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Textual's rendering of the lines in `crop`, without its styles cache when the
        widget is plain (no border, outline, padding, tint, hatch or opacity: the table's
        widgets): the lines drawn are the lines shown, filtered as Textual filters them.

        Textual (8.2.8, pinned) would wrap each line in a new `Strip` with caches of its
        own, after a dozen style look-ups a line; here a line is the `Strip` drawn, shared
        by every session that shows it. (Its cache stays right for a widget styled later:
        every refresh marks its lines dirty there.) `tests/client/test_tui_redraw.py`
        compares the two."""
        if self.BLANK or not self._plain():
            return super().render_lines(crop)
        width, height = self.region.size
        base_background, background = self.background_colors
        inner = _inner(base_background, background)
        filters = tuple(self.get_line_filters())
        if (filters, background) != self._filtered_by:
            self._filtered_by, self._filtered = (filters, background), {}
        lines = []
        for y in crop.line_range:
            line = self.render_line(y) if y < height else blank(width, inner)
            line = line.adjust_cell_length(width, inner)
            lines.append(self._filter(y, line, filters, background) if filters else line)
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            lines = [line.crop(x1, x2) for line in lines]
        return lines

    def _filter(
        self, y: int, line: Strip, filters: tuple[LineFilter, ...], background: Color
    ) -> Strip:
        """Line `y` through the app's filters, kept while the line drawn there is the same:
        a line shared by many sessions keeps few filtered copies in itself (one per
        session's filter), so this widget keeps its own, line by line."""
        seen = self._filtered.get(y)
        if seen is not None and seen[0] is line:
            return seen[1]
        shown = line
        for line_filter in filters:
            if type(line_filter) is ANSIToTruecolor and _all_rgb(shown):
                continue  # the table's colours are RGB: it would change nothing
            shown = shown.apply_filter(line_filter, background)
        self._filtered[y] = (line, shown)
        return shown

    def _plain(self) -> bool:
        """Whether Textual's styles would leave the drawn lines as they are."""
        styles = self.styles
        return (
            not any(edge for edge, _ in styles.border)
            and not any(edge for edge, _ in styles.outline)
            and not any(styles.padding)
            and styles.text_opacity == 1.0
            and not styles.tint.a
            and (not styles.has_rule("hatch") or styles.hatch == "none")
            and self.opacity == 1.0
            and not (self.auto_links and self.hover_style.link_id)
        )

    def on_resize(self) -> None:
        self._strips = []
        self.redraw()
