"""The move log: every turn of the game, newest at the bottom, scrollable with a
selection (the cursor's "moves" place), and at the end of the game the results above it;
beside the moves, in a column of its own, the table's chat (its latest lines).

Each line names cards by id followed by their colour and prestige, ``2-14 (G 2★)``; the
selected line's card shows face up beside your hand (`client.widgets.board`). Chat has
its own column so that it never pushes a move out of view, and the count in the title
counts turns only (news of the table, a time-out, shows among them but is not a turn).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from shared.cards import COLOURS, LETTERS, card
from shared.i18n import _
from shared.social import ChatLine

from .chatbox import chat_rows
from .lines import LineWidget, strip
from .palette import DIM, INK, LABEL

CARD_ID = re.compile(r"\b([123]-\d\d)\b")
SELECTED = "#2c3b58"
Notes = tuple[tuple[str, str], ...]  # lines above the moves: (text, style)
FRESH = "bold #ffd23f"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the log: its words, the cards it names, the seat that played it (None
    for a line about the game); `kind` is "" for a turn, "news" for what happened to a
    seat (a time-out, a bot standing in)."""

    text: str
    cards: tuple[str, ...] = ()
    seat: int | None = None
    kind: str = ""


KIND_STYLES = {"news": "italic #d8b4fe"}
RULE = Text("│", style=DIM)  # between the moves and the chat


def decorated(text: str) -> str:
    """`text` with each card id followed by its colour and prestige: ``2-14 (G 2★)``."""

    def add(m: re.Match[str]) -> str:
        c = card(m.group(1))
        points = f" {c.prestige}★" if c.prestige else ""
        return f"{m.group(1)} ({LETTERS[c.colour]}{points})"

    return CARD_ID.sub(add, text)


@lru_cache(maxsize=8192)
def wrapped(text: str, width: int, style: str, selected: bool) -> tuple[Text, ...]:
    """A log entry as lines of `width` cells: the card tags in their colours, later lines
    indented, the selected entry marked (a glyph too, for NO_COLOR)."""
    words = decorated(text)
    parts = textwrap.wrap(words, max(4, width - 1), subsequent_indent="  ") or [""]
    out = []
    for i, part in enumerate(parts):
        line = Text(("▶" if selected and i == 0 else " ") + part, style=style)
        for c in range(5):
            line.highlight_regex(rf"\({COLOURS[c]}( \d★)?\)", INK[c])
        out.append(line)
    return tuple(out)


class MoveLog(LineWidget):
    """The log under a title; `selected` (an entry's index) scrolls it, else it shows the
    newest; the newest `fresh` entries stand out; `notes` (the results, a hint) come
    first, each wrapped to the whole width; `chat` (None: no chat, offline or a replay)
    in the right-hand `chat_width` cells, beside the moves."""

    DEFAULT_CSS = """
    MoveLog { height: 1fr; padding: 0 0 0 0; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: tuple[LogEntry, ...] = ()
        self.fresh = 0
        self.selected: int | None = None
        self.notes: Notes = ()
        self.chat: tuple[ChatLine, ...] | None = None
        self.chat_width = 0
        self.top = 0  # the first entry shown while one is selected

    def show(
        self,
        entries: tuple[LogEntry, ...],
        fresh: int,
        selected: int | None = None,
        notes: Notes = (),
    ) -> None:
        shown = (entries, fresh, selected, notes)
        if shown != (self.entries, self.fresh, self.selected, self.notes):
            self.entries, self.fresh, self.selected, self.notes = shown
            self.redraw()

    def show_chat(self, lines: tuple[ChatLine, ...] | None, width: int) -> None:
        """The chat beside the moves, in a column `width` cells wide (None: no column)."""
        if (lines, width) != (self.chat, self.chat_width):
            self.chat, self.chat_width = lines, width
            self.redraw()

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(e.text for e in self.entries)

    def _style(self, i: int) -> str:
        first_fresh = len(self.entries) - self.fresh
        if i >= first_fresh:
            return FRESH
        return "" if i >= first_fresh - 4 else "#8a8f98"

    def _rows(self, i: int, width: int) -> tuple[Text, ...]:
        entry = self.entries[i]
        style = KIND_STYLES.get(entry.kind) or self._style(i)
        return wrapped(entry.text, width, style, i == self.selected)

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        chat = self.chat
        side = min(self.chat_width, width // 2) if chat is not None else 0
        left = width - side
        lines = [self._title(left, side, base)]
        for text, style in self.notes:
            for part in textwrap.wrap(text, max(4, width - 1)) or [""]:
                lines.append(strip(Text(" " + part, style=style), width, base))
        room = height - len(lines)
        if room <= 0:
            return lines[:height]
        moves = self._moves(left, room, base)
        if chat is None:
            return [*lines, *moves]
        moves += [strip(Text(""), left, base)] * (room - len(moves))
        said = self._chat(chat, side, room, base)
        return [*lines, *(Strip.join((m, c)) for m, c in zip(moves, said, strict=True))]

    def _title(self, left: int, side: int, base: Style) -> Strip:
        """ "Moves  17 · Tab to look back" (turns only), and over the chat "Chat"."""
        title = Text(" " + _("Moves"), style=LABEL)
        if self.entries:
            turns = sum(1 for e in self.entries if not e.kind)
            if self.selected is not None:
                at = sum(1 for e in self.entries[: self.selected + 1] if not e.kind)
                title.append(_("  {at} of {turns} · ↑↓ PgUp PgDn", at=at, turns=turns), style=DIM)
            else:
                title.append(_("  {turns} · Tab to look back", turns=turns), style=DIM)
        if not side:
            return strip(title, left, base)
        chat = Text.assemble(RULE, (" " + _("Chat"), LABEL))
        return Strip.join((strip(title, left, base), strip(chat, side, base)))

    def _moves(self, width: int, room: int, base: Style) -> list[Strip]:
        """`room` lines of moves, `width` cells wide (beside the chat, wrapped a cell
        short of its rule)."""
        if not self.entries:
            return [strip(Text(_(" No moves yet."), style=DIM), width, base)]
        sel = self.selected
        out = []
        wrap = width - 1 if self.chat is not None else width
        for text, on_selected in self._window(wrap, room):
            line = strip(text, width, base)
            if on_selected and sel is not None:
                line = line.apply_style(Style(bgcolor=SELECTED))
            out.append(line)
        return out

    def _chat(self, chat: tuple[ChatLine, ...], width: int, room: int, base: Style) -> list[Strip]:
        """The chat's newest lines that fit whole in `room` lines, each wrapped, after a
        rule (the newest at least begins, however long)."""
        rows: list[Text] = []
        for line in reversed(chat):
            more = chat_rows(line, width - 1)
            if len(rows) + len(more) > room:
                rows = rows or list(more[:room])
                break
            rows[:0] = more
        if not chat:
            rows = [Text(_(" No chat yet. c: chat"), style=DIM)]
        rows = rows[-room:] + [Text("")] * max(0, room - len(rows))
        return [strip(Text.assemble(RULE, row), width, base) for row in rows]

    def _window(self, width: int, room: int) -> list[tuple[Text, bool]]:
        """The rows that fit in `room` lines: the newest, or around the selected entry."""
        n = len(self.entries)
        sel = self.selected
        if sel is None:
            out: list[tuple[Text, bool]] = []
            i = n - 1
            while i >= 0 and len(out) < room:
                out = [(r, False) for r in self._rows(i, width)] + out
                i -= 1
            return out[-room:]
        at = max(0, min(n - 1, sel))  # -1: before the first entry (a replay's deal)
        top = min(self.top, at)
        while top < at and sum(len(self._rows(j, width)) for j in range(top, at + 1)) > room:
            top += 1
        self.top = top
        out = []
        j = top
        while j < n and len(out) < room:
            out += [(r, j == sel) for r in self._rows(j, width)]
            j += 1
        return out[:room]
