"""Around the board: the players, the move log, the status line and the prompt line."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from shared.cards import card
from shared.view import PlayerInfo

from .lines import LineWidget, blank, over, strip, theme_colour
from .palette import DIM, GOLD_BG, GREEN_BG, INK, LABEL, RED_BG, chip, fit


@dataclass(frozen=True, slots=True)
class PlayerFace:
    """One player as their panel shows them."""

    info: PlayerInfo
    name: str
    bot: str | None = None
    connected: bool = True
    me: bool = False
    current: bool = False
    last_mover: bool = False
    last_text: str = ""


PLACEHOLDER = "a move: take W U G, buy 1-07, reserve deck 2 …"
EDIT = "#24304a"  # the move line's background
HINT = "Enter plays · Esc closes"
CURRENT = "#1e2a3e"  # the background of the player to move
ACCENT, LAST = "#fea62b", "#e8b500"  # the edge of the player to move, of the last mover


class PlayerStrip(LineWidget):
    """The players side by side: tokens, bonuses, prestige, cards bought, nobles, reserves."""

    DEFAULT_CSS = """
    PlayerStrip { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.faces: tuple[PlayerFace, ...] = ()

    def show(self, faces: tuple[PlayerFace, ...]) -> None:
        if faces != self.faces:
            self.faces = faces
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        n = len(self.faces)
        if not n:
            return []
        base = self.rich_style
        edges = [i * width // n for i in range(n + 1)]  # equal shares, as Textual's 1fr
        columns = [
            panel_strips(face, edges[i + 1] - edges[i], height, base)
            for i, face in enumerate(self.faces)
        ]
        return [Strip.join([column[y] for column in columns]) for y in range(height)]


@lru_cache(maxsize=2048)
def panel_strips(face: PlayerFace, width: int, height: int, base: Style) -> tuple[Strip, ...]:
    """One player's panel: an edge (who is to move, who moved last), the lines, a margin."""
    if face.current:
        base = base + Style(bgcolor=CURRENT)
        edge = strip(Text("█", style=ACCENT), 1, base)
    elif face.last_mover:
        edge = strip(Text("▌", style=LAST), 1, base)
    else:
        edge = blank(1, base)
    inner = width - 2
    margin = blank(1, base)
    return tuple(
        Strip.join([edge, strip(line, inner, base), margin])
        for line in panel_lines(face, inner, height)
    )


def panel_lines(face: PlayerFace, width: int, height: int) -> list[Text]:
    """The panel's text, `height` lines of `width` cells (at least 10)."""
    width = max(10, width)
    p = face.info
    lines = [_name_line(face, width), _grid_head(width)]
    lines.append(_row("gem", p.tokens, width, total=f"={p.token_count}"))
    lines.append(_row("crd", p.bonuses, width, total=f"={p.cards_bought}"))
    lines.append(_hand_line(face, width))
    if height > 5:
        style = "bold #ffd23f" if face.last_mover else DIM
        wrapped = textwrap.wrap(face.last_text or "—", width) or [""]
        for part in wrapped[: height - 5]:
            lines.append(Text(part, style=style))
    lines = [fit(line, width) for line in lines[:height]]
    return lines + [Text("")] * (height - len(lines))


def _name_line(face: PlayerFace, width: int) -> Text:
    marker = "▶ " if face.current else "  "
    name = face.name + (" (you)" if face.me else "")
    if face.bot and width >= 24:
        name += f" ·{face.bot}"
    if not face.connected:
        name += " (away)"
    points = f"{face.info.prestige}★"
    out = Text(marker, style="bold #4ea1ff" if face.current else "")
    room = width - len(marker) - len(points) - 1
    out.append(fit(Text(name, style="bold"), max(1, room)))
    out.append(" ")
    out.append(points, style="bold #ffd23f")
    return out


def _cell(width: int) -> int:
    return 3 if width >= 21 else 2 if width < 17 else 3


def _grid_head(width: int) -> Text:
    cell = _cell(width)
    out = Text("   ")
    for c in range(6):
        if c == 5 and width < 3 + 6 * cell:
            out.append_text(chip(5, "*"))
            break
        out.append(" " * (cell - 1))
        out.append_text(chip(c))
    return out


def _row(label: str, counts: tuple[int, ...], width: int, total: str) -> Text:
    cell = _cell(width)
    out = Text(label, style=DIM)
    for c, n in enumerate(counts):
        size = cell if not (c == 5 and width < 3 + 6 * cell) else 1
        out.append(f"{n:>{size}}", style=INK[c] if n else DIM)
    # Cards have no gold column: a gap lines their total up with the tokens' when it fits.
    gap = (cell if width >= 3 + 6 * cell else 1) if len(counts) == 5 else 0
    if out.cell_len + gap + 1 + len(total) <= width:
        out.append(" " * gap)
    elif out.cell_len + 1 + len(total) > width:
        return out  # no room for the total
    out.append(f" {total}", style="bold")
    return out


def _hand_line(face: PlayerFace, width: int) -> Text:
    out = Text()
    for r in face.info.reserved:
        if r.card is None:
            out.append(f"L{r.level}? ", style=DIM)
        else:
            out.append(r.card, style=INK[card(r.card).colour])
            out.append("ᵇ " if r.blind else " ", style=DIM)
    if not face.info.reserved:
        out.append("no reserve ", style=DIM)
    for noble in face.info.nobles:
        out.append(f"{noble}♛ ", style="bold #ffd23f")
    return out


class MoveLog(LineWidget):
    """The last moves under a title, newest at the bottom; the newest `fresh` stand out."""

    DEFAULT_CSS = """
    MoveLog { padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: tuple[str, ...] = ()
        self.fresh = 0

    def show(self, lines: tuple[str, ...], fresh: int) -> None:
        if (lines, fresh) != (self.lines, self.fresh):
            self.lines, self.fresh = lines, fresh
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        rows: list[Text] = []
        first_fresh = len(self.lines) - self.fresh
        for i, line in enumerate(self.lines):
            style = "bold #ffd23f" if i >= first_fresh else ("" if i >= first_fresh - 4 else DIM)
            parts = textwrap.wrap(line, width, subsequent_indent="  ") or [""]
            rows.extend(Text(part, style=style) for part in parts)
        if not rows:
            rows = [Text("No moves yet.", style=DIM)]
        title = Text("Moves", style=LABEL)
        return [strip(row, width, base) for row in [title, *rows[-(height - 1) :]]][:height]


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
        self.editing: tuple[str, int] | None = None  # the move line: its text and caret

    def say(self, text: str | Text, kind: str = "") -> None:
        """Show `text`; kind is "" (information), "ask" (waiting for Enter) or "error"."""
        if (text, kind) != self.said:
            self.said = (text, kind)
            self.redraw()

    @property
    def plain(self) -> str:
        """What the line says, as plain text (the move being typed while it is open)."""
        if self.editing is not None:
            return self.editing[0]
        text = self.said[0]
        return text if isinstance(text, str) else text.plain

    def edit(self, line: tuple[str, int] | None) -> None:
        """Show the move line (its text and the caret's place), or stop showing it."""
        if line != self.editing:
            self.editing = line
            self.redraw()

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        if self.editing is not None:
            return [_move_line(*self.editing, width, base + Style(bgcolor=EDIT))]
        text, kind = self.said
        if kind == "error":
            style = base + Style(bgcolor=RED_BG, color="#ffd0cc", bold=True)
        elif kind == "ask":
            style = base + Style(bgcolor=GOLD_BG, color="#fff2b0", bold=True)
        else:
            style = over(base, theme_colour(self.app, "boost"))
        return [padded(Text(text) if isinstance(text, str) else text, width, style)]


def _move_line(text: str, caret: int, width: int, style: Style) -> Strip:
    """The move being typed, with the caret as a reversed cell; an example while it is
    empty; at the right, when there is room, the keys that end it."""
    out = Text(" ")
    if not text:
        out.append(PLACEHOLDER[0], style="reverse")
        out.append(PLACEHOLDER[1:], style=DIM)
    else:
        out.append(text[:caret])
        out.append(text[caret : caret + 1] or " ", style="reverse")
        out.append(text[caret + 1 :])
    room = width - out.cell_len - len(HINT) - 1
    if room >= 2:
        out.append(" " * room)
        out.append(HINT, style=DIM)
    return strip(out, width, style)


def padded(text: Text, width: int, style: Style) -> Strip:
    """`text` with one cell of margin each side, on `style`, `width` cells in all."""
    out = Text(" ")
    out.append_text(text)
    line = strip(fit(out, width - 1), width - 1, style)
    return Strip.join([line, blank(1, style)])
