"""Panels around the board: a player, the nobles, the move log, the status and prompt lines."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from shared.cards import NOBLE_BY_ID
from shared.view import PlayerInfo

from .palette import DIM, INK, chip, cost_text, fit


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


class PlayerPanel(Widget):
    """Tokens, bonuses, prestige, cards bought, nobles and reserved cards of one player."""

    DEFAULT_CSS = """
    PlayerPanel {
        width: 1fr;
        height: 5;
        padding: 0 1 0 0;
        border-left: blank;
    }
    PlayerPanel.-current { background: #1e2a3e; border-left: thick $accent; }
    PlayerPanel.-last { border-left: outer #e8b500; }
    PlayerPanel.-current.-last { border-left: thick $accent; }
    """

    face: reactive[PlayerFace | None] = reactive(None, layout=False)

    def watch_face(self, face: PlayerFace | None) -> None:
        # One batched class change: a single style update, and none when nothing changed.
        self.update_classes(
            {"-current": bool(face and face.current), "-last": bool(face and face.last_mover)}
        )

    def render(self) -> Text:
        face = self.face
        if face is None:
            return Text("")
        width = max(10, self.content_size.width)
        height = self.content_size.height
        p = face.info
        lines = [self._name_line(face, width), self._grid_head(width)]
        lines.append(self._row("gem", p.tokens, width, total=f"={p.token_count}"))
        lines.append(self._row("crd", p.bonuses, width, total=f"={p.cards_bought}"))
        lines.append(self._hand_line(face, width))
        if height > 5:
            style = "bold #ffd23f" if face.last_mover else DIM
            wrapped = textwrap.wrap(face.last_text or "—", width) or [""]
            for part in wrapped[: height - 5]:
                lines.append(Text(part, style=style))
        return Text("\n").join(fit(line, width) for line in lines)

    @staticmethod
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

    @staticmethod
    def _cell(width: int) -> int:
        return 3 if width >= 21 else 2 if width < 17 else 3

    def _grid_head(self, width: int) -> Text:
        cell = self._cell(width)
        out = Text("   ")
        for c in range(6):
            if c == 5 and width < 3 + 6 * cell:
                out.append_text(chip(5, "*"))
                break
            out.append(" " * (cell - 1))
            out.append_text(chip(c))
        return out

    def _row(self, label: str, counts: tuple[int, ...], width: int, total: str) -> Text:
        cell = self._cell(width)
        out = Text(label, style=DIM)
        for c, n in enumerate(counts):
            size = cell if not (c == 5 and width < 3 + 6 * cell) else 1
            out.append(f"{n:>{size}}", style=INK[c] if n else DIM)
        if out.cell_len + len(total) + 1 <= width:
            if len(counts) == 5:
                out.append(" " * (cell if width >= 3 + 6 * cell else 1))
            out.append(f" {total}", style="bold")
        return out

    @staticmethod
    def _hand_line(face: PlayerFace, width: int) -> Text:
        out = Text()
        for r in face.info.reserved:
            if r.card is None:
                out.append(f"L{r.level}? ", style=DIM)
            else:
                colour = "WUGRK".find(_colour_letter(r.card))
                out.append(r.card, style=INK[colour])
                out.append("ᵇ " if r.blind else " ", style=DIM)
        if not face.info.reserved:
            out.append("no reserve ", style=DIM)
        for noble in face.info.nobles:
            out.append(f"{noble}♛ ", style="bold #ffd23f")
        return out


def _colour_letter(card_id: str) -> str:
    from shared.cards import card

    return "WUGRK"[card(card_id).colour]


class NobleBar(Widget):
    """The nobles on the table, in table order (R14), each with what it asks."""

    DEFAULT_CSS = """
    NobleBar { height: 1; width: 1fr; }
    """

    nobles: reactive[tuple[str, ...]] = reactive(tuple, layout=False)
    bonuses: reactive[tuple[int, ...] | None] = reactive(None, layout=False)

    def render(self) -> Text:
        width = max(1, self.content_size.width)
        out = Text()
        if not self.nobles:
            return Text("no nobles left", style=DIM)
        prefix = "Nobles " if width >= 7 + 11 * len(self.nobles) else ""
        out.append(prefix, style="bold")
        for i, nid in enumerate(self.nobles):
            noble = NOBLE_BY_ID[nid]
            if i:
                out.append("  " if width >= 60 else " ")
            out.append(f"{nid}♛", style="bold #ffd23f")
            out.append_text(cost_text(noble.requires, 8, chips=True))
        return fit(out, width)


class MoveLog(Widget):
    """The last moves, newest at the bottom; the newest `fresh` lines stand out."""

    DEFAULT_CSS = """
    MoveLog { width: 1fr; height: 1fr; padding: 0 1; }
    """

    lines: reactive[tuple[str, ...]] = reactive(tuple, layout=False)
    fresh: reactive[int] = reactive(0, layout=False)

    def render(self) -> Text:
        width = max(4, self.content_size.width)
        height = max(1, self.content_size.height)
        rows: list[Text] = []
        first_fresh = len(self.lines) - self.fresh
        for i, line in enumerate(self.lines):
            style = "bold #ffd23f" if i >= first_fresh else ("" if i >= first_fresh - 4 else DIM)
            parts = textwrap.wrap(line, width, subsequent_indent="  ") or [""]
            rows.extend(Text(part, style=style) for part in parts)
        if not rows:
            rows = [Text("No moves yet.", style=DIM)]
        return Text("\n").join(rows[-height:])


class StatusLine(Static):
    """The top line: turn, round, whose turn it is, the final-round flag."""

    _shown: Text | None = None

    def show(self, text: Text, mine: bool, final: bool) -> None:
        """Show `text` and the line's colour; does nothing when nothing changed."""
        self.update_classes({"-mine": mine, "-final": final})
        if text != self._shown:
            self._shown = text
            self.update(text, layout=False)  # one line of fixed size: no layout needed

    DEFAULT_CSS = """
    StatusLine { height: 1; width: 1fr; background: $panel; padding: 0 1; }
    StatusLine.-mine { background: #1f3d2b; }
    StatusLine.-final { background: #5a2323; }
    """


class PromptLine(Static):
    """One line for what the player is doing, card details, and why a choice is refused."""

    DEFAULT_CSS = """
    PromptLine { height: 1; width: 1fr; padding: 0 1; background: $boost; }
    PromptLine.-error { background: #5a2323; color: #ffd0cc; text-style: bold; }
    PromptLine.-ask { background: #3d3a1d; color: #fff2b0; text-style: bold; }
    """

    _said: tuple[str | Text, str] | None = None

    def say(self, text: str | Text, kind: str = "") -> None:
        """Show `text`; kind is "" (information), "ask" (waiting for Enter) or "error"."""
        if self._said == (text, kind):
            return  # the same line again: no restyle, no repaint
        self._said = (text, kind)
        self.update_classes({"-error": kind == "error", "-ask": kind == "ask"})
        self.update(text, layout=False)  # one line of fixed size: no layout needed
