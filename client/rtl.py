"""Right-to-left reading in the app: which lines `client.bidi` lays out, and how the
terminal is told (issue 34; docs/design.md, "Right to left").

Textual wraps a widget's text, then draws each of its lines as a `Strip`; every line of
every widget then passes through the app's line filters. The narrowest place to lay out
right-to-left text after wrapping and before the frame is written is one filter:
`BidiFilter`. For a right-to-left reader it lays out every line with a right-to-left
paragraph direction (prose right-aligned, a list's columns and the key bar mirrored);
the parts that stay as on a left-to-right screen (the card grid, the players' panels,
the move line) keep a left-to-right direction (`LineWidget.reads_left_to_right`), where
only the right-to-left words in them are turned to read right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.color import Color
from textual.filter import LineFilter

from .bidi import Base, Mode, has_right_to_left, is_right_to_left, reorder_runs

# The terminal-wg BiDi recommendation: BDSM (ECMA-48's mode 8) reset is explicit mode
# (cells shown as sent), set is implicit mode (the terminal lays lines out, its default);
# SCP (``CSI n SP k``) is the paragraph direction: 1 left to right, 0 the default. An app
# that lays out its own lines asks for explicit mode, left to right, on starting, and
# leaves implicit mode and the default direction on leaving.
EXPLICIT = "\x1b[8l\x1b[1 k"
IMPLICIT = "\x1b[8h\x1b[0 k"


def _same(a: Style | None, b: Style | None) -> bool:
    return a is b or a == b


class BidiFilter(LineFilter):
    """Lays out one drawn line of a widget (`client.bidi.reorder_runs`), styles and all,
    with the paragraph direction `base`. Stateless: one of each is shared by every
    session (a drawn line keeps its filtered copies per filter)."""

    def __init__(self, base: Base) -> None:
        super().__init__()
        self.base: Base = base

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if any(segment.control for segment in segments):
            return segments
        runs = reorder_runs([(s.text, s.style) for s in segments], self.base, _same)
        if runs is None:
            return segments
        return [Segment(text, style) for text, style in runs]

    def __repr__(self) -> str:
        return f"BidiFilter({self.base!r})"


RIGHT_TO_LEFT = BidiFilter("R")
LEFT_TO_RIGHT = BidiFilter("L")


def left_to_right(filters: Sequence[LineFilter]) -> list[LineFilter]:
    """`filters` for a part that stays left to right (a right-to-left word in it still
    reads right)."""
    return [LEFT_TO_RIGHT if f is RIGHT_TO_LEFT else f for f in filters]


def reorders(filters: Sequence[LineFilter], text: str | None = None) -> bool:
    """Whether one of `filters` moves cells within a line (within `text`, if given: a
    left-to-right part moves only the cells of its right-to-left words)."""
    return any(
        isinstance(f, BidiFilter) and (text is None or f.base == "R" or has_right_to_left(text))
        for f in filters
    )


@dataclass
class TextLayout:
    """How this session shows right-to-left text: `right_to_left` is the flag read from
    the language (the screen mirrors); `mode` is the player's answer to "which line reads
    right" (None until asked), kept with the language."""

    right_to_left: bool = False
    mode: Mode | None = None

    @classmethod
    def of(cls, language: str, mode: Mode | None = None) -> TextLayout:
        return cls(is_right_to_left(language), mode)

    @property
    def must_ask(self) -> bool:
        """A right-to-left language whose way of showing is not known yet."""
        return self.right_to_left and self.mode is None

    def filters(self) -> list[LineFilter]:
        """The filters the app adds to Textual's: in visual mode, every line laid out (a
        right-to-left reader's screen mirrored; another reader's left to right, with
        someone's Persian chat reading right); in logical mode none: the terminal does it."""
        if self.mode != "visual":
            return []
        return [RIGHT_TO_LEFT if self.right_to_left else LEFT_TO_RIGHT]

    def sequence(self) -> str:
        """What the terminal is sent for this layout: explicit mode when the app lays
        lines out (a bidi-aware terminal must not reorder them again), else implicit."""
        return EXPLICIT if self.mode == "visual" else IMPLICIT


def tell_terminal(app: App[Any], sequence: str) -> None:
    """Send `sequence` to the app's terminal, as Textual's own `App.bell` does (through
    the driver: the SSH channel, or the local terminal offline); nothing when headless."""
    driver = app._driver
    if driver is not None and not app.is_headless:
        driver.write(sequence)
