"""The lobby's chat: its latest lines, newest at the bottom, and the line being typed.

Lines are plain text (`rich.text.Text`, never markup: ``[b]`` in a line is shown as
typed), each cut to the width with an ellipsis; the sender's name stands out. The
table's chat, in its narrow column beside the moves (`client.widgets.movelog`), wraps
its lines instead (`chat_rows`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from shared.i18n import N_, _
from shared.social import ChatLine

from .lines import LineWidget, strip
from .palette import DIM, fit
from .panels import EDIT, SAY_HINT, edit_line

PLACEHOLDER = N_("say something to the lobby (/mute NAME, /bell)")


class ChatBox(LineWidget):
    """Chat lines, and while the player types, the line being typed at the bottom."""

    DEFAULT_CSS = """
    ChatBox { height: 5; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: tuple[ChatLine, ...] = ()
        self.editing: tuple[str, int] | None = None
        self.hint = _("t: chat")

    def show(self, lines: Sequence[ChatLine]) -> None:
        lines = tuple(lines)
        if lines != self.lines:
            self.lines = lines
            self.redraw()

    def edit(self, line: tuple[str, int] | None) -> None:
        """Show the line being typed (its text and caret), or stop showing it."""
        if line != self.editing:
            self.editing = line
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        room = height - (1 if self.editing is not None else 0)
        out = [_line(x, width, base) for x in self.lines[-room:]] if room > 0 else []
        if not self.lines and room > 0:
            out = [strip(Text(_(" No chat yet. {hint}", hint=self.hint), style=DIM), width, base)]
        out += [strip(Text(""), width, base)] * max(0, room - len(out))
        if self.editing is not None:
            style = base + Style(bgcolor=EDIT)
            out.append(edit_line(*self.editing, width, style, PLACEHOLDER, SAY_HINT))
        return out[:height]


NAME_STYLE = "bold #8fd3ff"


def _line(line: ChatLine, width: int, base: Style) -> Strip:
    out = Text(" ")
    out.append(line.name, style=NAME_STYLE)
    out.append(": ")
    out.append(line.text)
    return strip(fit(out, width), width, base)


@lru_cache(maxsize=4096)
def chat_rows(line: ChatLine, width: int) -> tuple[Text, ...]:
    """A line of a table's chat wrapped to `width` cells (later rows indented): who said
    it (a spectator marked), then what."""
    who = _("{name} (watching)", name=line.name) if line.spectator else line.name
    parts = textwrap.wrap(f"{who}: {line.text}", max(4, width - 1), subsequent_indent="  ")
    out = []
    for i, part in enumerate(parts or [f"{who}:"]):
        row = Text(" " + part)
        if i == 0:
            row.stylize(NAME_STYLE, 1, 1 + len(who))
        out.append(fit(row, width))
    return tuple(out)
