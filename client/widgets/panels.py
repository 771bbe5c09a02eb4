"""Around the board: the status line, the prompt line (and the move line typed on it), and
the note a terminal too small for the table gets."""

from __future__ import annotations

import textwrap

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from shared.i18n import N_, _

from .lines import LineWidget, blank, over, strip, theme_colour
from .palette import DIM, GOLD_BG, GREEN_BG, RED_BG, fit

PLACEHOLDER = N_("a move: take W U G, buy 1-07, reserve deck 2 … or a card id to look at")
CHAT_PLACEHOLDER = N_("say something to the table (/mute NAME, /bell)")
EDIT = "#24304a"  # the move line's background
HINT = N_("Enter plays · Esc closes")
SAY_HINT = N_("Enter says · Esc closes")


class StatusLine(LineWidget):
    """The top line: turn, round, whose turn it is, the final-round flag."""

    DEFAULT_CSS = """
    StatusLine { height: 1; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: tuple[Text, bool, bool] = (Text(""), False, False)

    def show(self, text: Text, mine: bool, final: bool) -> None:
        """Show `text` on the line's colour: green on the viewer's turn, red in the final round."""
        if (text, mine, final) != self.shown:
            self.shown = (text, mine, final)
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        text, mine, final = self.shown
        colour = RED_BG if final else GREEN_BG if mine else theme_colour(self.app, "panel")
        return [padded(text, width, self.rich_style + Style(bgcolor=colour))]


class PromptLine(LineWidget):
    """One line for what the player is doing, card details, why a choice is refused, and
    the move line (":") while the player types a move."""

    DEFAULT_CSS = """
    PromptLine { height: 1; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.said: tuple[str | Text, str] = ("", "")
        self.short: str | None = None  # said instead when `said` does not fit
        self.editing: tuple[str, int] | None = None  # the move line: its text and caret
        self.placeholder = PLACEHOLDER

    def reads_left_to_right(self) -> bool:
        return self.editing is not None  # the move line: notation reads left to right

    def say(self, text: str | Text, kind: str = "", short: str | None = None) -> None:
        """Show `text`; kind is "" (information), "ask" (waiting for Enter) or "error";
        `short`, if given, in its place on a line too narrow for `text`."""
        if ((text, kind), short) != (self.said, self.short):
            self.said, self.short = (text, kind), short
            self.redraw()

    @property
    def plain(self) -> str:
        """What the line says, as plain text (the move being typed while it is open)."""
        if self.editing is not None:
            return self.editing[0]
        text = self.said[0]
        return text if isinstance(text, str) else text.plain

    def edit(self, line: tuple[str, int] | None, placeholder: str = PLACEHOLDER) -> None:
        """Show the move line (its text and the caret's place, `placeholder` while it is
        empty), or stop showing it."""
        if (line, placeholder) != (self.editing, self.placeholder):
            self.editing, self.placeholder = line, placeholder
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        if self.editing is not None:
            hint = SAY_HINT if self.placeholder == CHAT_PLACEHOLDER else HINT
            line = edit_line(
                *self.editing, width, base + Style(bgcolor=EDIT), self.placeholder, hint
            )
            return [line]
        text, kind = self.said
        said = Text(text) if isinstance(text, str) else text
        if self.short is not None and said.cell_len > width - 2:  # `padded`'s margins
            said = Text(self.short)
        if kind == "error":
            style = base + Style(bgcolor=RED_BG, color="#ffd0cc", bold=True)
        elif kind == "ask":
            style = base + Style(bgcolor=GOLD_BG, color="#fff2b0", bold=True)
        else:
            style = over(base, theme_colour(self.app, "boost"))
        return [padded(said, width, style)]


def edit_line(
    text: str,
    caret: int,
    width: int,
    style: Style,
    placeholder: str = PLACEHOLDER,
    hint: str = HINT,
) -> Strip:
    """The move being typed, with the caret as a reversed cell; an example while it is
    empty; at the right, when there is room, the keys that end it. A line longer than
    the width shows the part around the caret."""
    out = Text(" ")
    placeholder, hint = _(placeholder), _(hint)
    if not text:
        out.append(placeholder[0], style="reverse")
        out.append(placeholder[1:], style=DIM)
    else:
        start = max(0, caret - (width - 4))
        out.append(text[start:caret])
        out.append(text[caret : caret + 1] or " ", style="reverse")
        out.append(text[caret + 1 :])
    room = width - out.cell_len - len(hint) - 1
    if room >= 2:
        out.append(" " * room)
        out.append(hint, style=DIM)
    return strip(out, width, style)


def padded(text: Text, width: int, style: Style) -> Strip:
    """`text` with one cell of margin each side, on `style`, `width` cells in all."""
    out = Text(" ")
    out.append_text(text)
    line = strip(fit(out, width - 1), width - 1, style)
    return Strip.join([line, blank(1, style)])


class SizeNote(LineWidget):
    """What the table shows in place of itself when the terminal is too small for it."""

    DEFAULT_CSS = """
    SizeNote { height: 1fr; width: 1fr; display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = ""

    def say(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        rows = textwrap.wrap(self.text, max(8, width - 2)) or [""]
        top = max(0, (height - len(rows)) // 2)
        out = [blank(width, base)] * top
        out += [strip(Text(" " + row, style="bold"), width, base) for row in rows]
        return out[:height]
