"""The keys of the moment, on the bottom line: what each key does now (a click presses it).

The table's keys change with what the player is doing (choosing a card, picking gems,
giving tokens back, watching, the game over), so the screen hands this line the keys
that apply; it draws them itself, in one line, like the other line widgets. On a line
too narrow for them all, the keys the screen calls spare (the help lists them) give
way first, so that the last ones (help, quit) stay.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.strip import Strip

from shared.i18n import _, per_language_cache

from ..rtl import RIGHT_TO_LEFT
from .lines import LineWidget, strip

Keys = tuple[tuple[str, str, str], ...]  # (key to press, how it shows, what it does)
Spans = tuple[tuple[int, int, str], ...]  # where each key shows: start, end, key
KEY_STYLE = Style.parse("bold #ffd23f")
TEXT_STYLE = Style.parse("#c8ccd4")


def _cells(keys: Keys) -> int:
    """The width of `keys` as one line: a leading space, two between keys."""
    return 1 + sum(cell_len(f"{shown} {what}") + 2 for _, shown, what in keys) - 2 * bool(keys)


def translated(keys: Keys) -> Keys:
    """`keys` with what each does in the reader's language (`shared.i18n`)."""
    return tuple((key, shown, _(what)) for key, shown, what in keys)


KEPT = frozenset({"question_mark", "q"})  # help and quit: on every key line, in any language


def fitted(keys: Keys, width: int, spare: tuple[str, ...] = ()) -> Keys:
    """`keys` less the `spare` ones (by key, the first named giving way first) that a
    line of `width` cells has no room for; if a longer language still needs room, the
    last keys before `?` and `q` give way too (the help lists every key)."""
    for key in spare:
        if _cells(keys) <= width:
            break
        keys = tuple(k for k in keys if k[0] != key)
    while _cells(keys) > width and any(k[0] not in KEPT for k in keys[1:]):
        last = max(i for i, k in enumerate(keys) if i and k[0] not in KEPT)
        keys = keys[:last] + keys[last + 1 :]
    return keys


@per_language_cache(maxsize=512)
def keys_line(
    keys: Keys, width: int, base: Style, spare: tuple[str, ...] = ()
) -> tuple[Strip, Spans]:
    """The keys as one line (those that fit, the `spare` ones giving way first), and
    where each one is (start, end, key)."""
    keys = fitted(translated(keys), width, spare)
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
        self.spare: tuple[str, ...] = ()

    def show(self, keys: Keys, spare: tuple[str, ...] = ()) -> None:
        """The keys to show; `spare`: the keys (by key) that give way on a narrow line."""
        if (keys, spare) != (self.keys, self.spare):
            self.keys, self.spare = keys, spare
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        return [keys_line(self.keys, width, self.rich_style, self.spare)[0]]

    @property
    def plain(self) -> str:
        """The keys shown, as plain text."""
        keys = fitted(translated(self.keys), self.content_size.width, self.spare)
        return "  ".join(f"{shown} {what}" for _, shown, what in keys)

    def on_click(self, event: events.Click) -> None:
        width = self.content_size.width
        _, spans = keys_line(self.keys, width, self.rich_style, self.spare)
        x = event.x
        if RIGHT_TO_LEFT in self.get_line_filters():
            x = width - 1 - x  # the keys are mirrored, each key as a block
        for start, end, key in spans:
            if start <= x < end and key:  # "w u g r k" stands for several keys
                self.app.simulate_key(key)
                return
