"""The keys of the moment, on the bottom line: what each key does now (a click presses it).

The table's keys change with what the player is doing (choosing a card, picking gems,
giving tokens back, watching, the game over), so the screen hands this line the keys
that apply; it draws them itself, in one line, like the other line widgets.
"""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual import events
from textual.strip import Strip

from .lines import LineWidget, strip

Keys = tuple[tuple[str, str, str], ...]  # (key to press, how it shows, what it does)
Spans = tuple[tuple[int, int, str], ...]  # where each key shows: start, end, key
KEY_STYLE = Style.parse("bold #ffd23f")
TEXT_STYLE = Style.parse("#c8ccd4")


@lru_cache(maxsize=512)
def keys_line(keys: Keys, width: int, base: Style) -> tuple[Strip, Spans]:
    """The keys as one line (those that fit), and where each one is (start, end, key)."""
    out = Text(" ")
    spans = []
    for key, shown, what in keys:
        piece = Text()
        piece.append(shown, style=KEY_STYLE)
        piece.append(f" {what}", style=TEXT_STYLE)
        if out.cell_len + piece.cell_len > width:
            break
        start = out.cell_len
        out.append_text(piece)
        spans.append((start, out.cell_len, key))
        out.append("  ")
    return strip(out, width, base), tuple(spans)


class KeyBar(LineWidget):
    """One line of keys; `show` replaces them."""

    DEFAULT_CSS = """
    KeyBar { height: 1; width: 1fr; background: $panel; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys: Keys = ()

    def show(self, keys: Keys) -> None:
        if keys != self.keys:
            self.keys = keys
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        return [keys_line(self.keys, width, self.rich_style)[0]]

    @property
    def plain(self) -> str:
        return "  ".join(f"{shown} {what}" for _, shown, what in self.keys)

    def on_click(self, event: events.Click) -> None:
        _, spans = keys_line(self.keys, self.content_size.width, self.rich_style)
        for start, end, key in spans:
            if start <= event.x < end and key:  # "w u g r k" stands for several keys
                self.app.simulate_key(key)
                return
