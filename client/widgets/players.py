"""The players, one panel each, stacked in playing order under one header of gem letters.

A panel shows, by priority (as many lines as it gets): the name (with the bot's level,
"1st" for the player who starts each round, the prestige), the tokens (six counts and
their total), the bonuses (and cards bought), the reserved cards (ids where the viewer
may see them, ``L2?`` for another's blind one), the nobles in order of how close, the
last turn, then each reserve's cost and what its holder still needs. At the end of the
game the rank and the points' breakdown come second.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip

from shared.cards import LETTERS, card
from shared.i18n import _, per_language_cache
from shared.view import PlayerInfo

from .lines import LineWidget, blank, strip
from .palette import DIM, GOOD, INK, LABEL, chip, fit, pieces

CURRENT = "#1e2a3e"  # the background of the player to move
ACCENT, LAST = "#fea62b", "#e8b500"  # the edge of the player to move, of the last mover
POINTS = "bold #ffd23f"


@dataclass(frozen=True, slots=True)
class PlayerFace:
    """One player as their panel shows them. `short` is the name for narrow panels;
    `nobles` pairs each noble on the table with what this player still lacks for it,
    closest first; `reserve_needs` is what they lack for each visible reserve."""

    info: PlayerInfo
    name: str
    short: str = ""
    bot: str | None = None
    connected: bool = True
    me: bool = False
    current: bool = False
    last_mover: bool = False
    first: bool = False
    last_text: str = ""
    last_short: str = ""  # the same turn for a narrow panel (`describe.short_turn`)
    nobles: tuple[tuple[str, tuple[int, ...]], ...] = ()
    reserve_needs: tuple[tuple[int, ...] | None, ...] = ()
    rank: int = 0  # at the end of the game
    result: str = ""  # at the end: the points' breakdown
    standin: bool = False  # a bot plays this player's seat to the end


Clock = tuple[str, str]  # the time left on a player's clock as shown, and its style
NO_CLOCK: Clock = ("", "")


class Players(LineWidget):
    """The players' column: a header line, then a panel per player, `panel` lines each.
    `cursor` is (panel, reserve) when the cursor is in this column."""

    DEFAULT_CSS = """
    Players { width: 1fr; height: 1fr; }
    """

    def reads_left_to_right(self) -> bool:
        return True  # gems in the grid's order (docs/design.md, "Right to left")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.faces: tuple[PlayerFace, ...] = ()
        self.cursor: tuple[int, int] | None = None
        self.clocks: tuple[Clock, ...] = ()

    def show(
        self,
        faces: tuple[PlayerFace, ...],
        cursor: tuple[int, int] | None,
        clocks: tuple[Clock, ...] = (),
    ) -> None:
        """The panels, the cursor among them, and each player's clock (a timed game: a
        running clock changes only its panel's first line)."""
        if (faces, cursor) == (self.faces, self.cursor) and len(clocks) == len(self.clocks):
            self.tick(clocks)
        elif (faces, cursor, clocks) != (self.faces, self.cursor, self.clocks):
            self.faces, self.cursor, self.clocks = faces, cursor, clocks
            self.redraw()

    def tick(self, clocks: tuple[Clock, ...]) -> None:
        """Only the clocks changed: repaint the name line of each panel whose clock did
        (a running clock's tick: one line, nothing else drawn again)."""
        width, height = self.content_size
        each = max(1, (height - 1) // max(1, len(self.faces)))
        for i, (old, new) in enumerate(zip(self.clocks, clocks, strict=True)):
            y = 1 + i * each
            if old != new and y < len(self._strips):
                self._strips[y] = top_strip(self.faces[i], width, self.rich_style, new)
                self.refresh(Region(0, y, width, 1))
        self.clocks = clocks

    def draw(self, width: int, height: int) -> list[Strip]:
        n = len(self.faces)
        if not n:
            return []
        base = self.rich_style
        each = max(1, (height - 1) // n)
        lines = [header_strip(width, base)]
        for i, face in enumerate(self.faces):
            item = self.cursor[1] if self.cursor is not None and self.cursor[0] == i else None
            panel = panel_strips(face, width, each, item, base)
            clock = self.clocks[i] if i < len(self.clocks) else NO_CLOCK
            if clock != NO_CLOCK and panel:
                panel = (top_strip(face, width, base, clock), *panel[1:])
            lines += panel
        return lines[:height]


def cell_width(width: int) -> int:
    """Cells per count: 3 where a panel has room, else 2."""
    return 3 if width >= 26 else 2


@per_language_cache(maxsize=64)
def header_strip(width: int, base: Style) -> Strip:
    """The gem letters over every panel's counts, and Σ over their totals."""
    cell = cell_width(width - 1)
    out = Text(" " * 4)
    for c in range(6):
        out.append(" " * (cell - 1))
        out.append_text(chip(c))
    out.append("  Σ", style=LABEL)
    return strip(out, width, base)


@per_language_cache(maxsize=4096)
def panel_strips(
    face: PlayerFace, width: int, height: int, item: int | None, base: Style
) -> tuple[Strip, ...]:
    """One player's panel. Its name line shows who is to move (a bar and a tint) and who
    moved last (a thinner bar); only that line changes when the turn passes, so a move
    repaints (and sends) little of the column."""
    lines = panel_lines(face, width - 1, height, item)
    return tuple(
        top_strip(face, width, base) if y == 0 else strip(line, width, base, indent=1)
        for y, line in enumerate(lines)
    )


@per_language_cache(maxsize=4096)
def top_strip(face: PlayerFace, width: int, base: Style, clock: Clock = NO_CLOCK) -> Strip:
    """A panel's name line, with the player's clock: the one line a clock's tick repaints."""
    top = base
    if face.current:
        top = base + Style(bgcolor=CURRENT)
        edge = strip(Text("█", style=ACCENT), 1, top)
    elif face.last_mover:
        edge = strip(Text("▌", style=LAST), 1, base)
    else:
        edge = blank(1, base)
    inner = width - 1
    room = max(12, inner)  # as `panel_lines` lays the other lines out
    return Strip.join([edge, strip(fit(_name_line(face, room, clock), room), inner, top)])


def panel_lines(face: PlayerFace, width: int, height: int, item: int | None = None) -> list[Text]:
    """The panel's text: `height` lines of `width` cells (at least 12)."""
    width = max(12, width)
    p = face.info
    cell = cell_width(width)
    lines = [_name_line(face, width)]
    if face.result:
        lines.append(_result(face, width))
    # TRANSLATORS: "gem", "crd" (cards) and "res" (reserved) are panel labels: 3 cells
    lines.append(_counts(_("gem"), p.tokens, cell, p.token_count))
    lines.append(_counts(_("crd"), p.bonuses, cell, p.cards_bought))
    lines.append(_reserves(face, item))
    if face.nobles:
        lines.append(_nobles(face.nobles, width))
    if face.last_text:  # one line (the whole turn is in the move log)
        # The longest that fits: whole, short, and short without its "last: " label (a
        # language whose label is longer than English's still shows the move whole).
        bare = face.last_short.removeprefix(_("last: "))
        options = (face.last_text, face.last_short, bare)
        last = next((t for t in options if cell_len(t) <= width), face.last_short)
        lines.append(Text(last, style=POINTS if face.last_mover else DIM))
    room = height - len(lines)
    details = [line for i in range(len(p.reserved)) for line in _detail(face, i, width)]
    if 0 < len(details) <= room:
        lines += details
    if p.nobles and height - len(lines) > 0:
        lines.append(
            Text(_("owns {nobles}", nobles=" ".join(f"♛{n}" for n in p.nobles)), style=POINTS)
        )
    lines = [fit(line, width) for line in lines[:height]]
    return lines + [Text("")] * (height - len(lines))


def _result(face: PlayerFace, width: int) -> Text:
    """Where the points come from (R16): the long form if it fits, else the short one."""
    style = POINTS if face.rank == 1 else "bold"
    if len(face.result) <= width:
        return Text(face.result, style=style)
    p = face.info
    nobles = 3 * len(p.nobles)
    short = _("cards {cards}★ nobles {nobles}★", cards=p.prestige - nobles, nobles=nobles)
    if len(short) > width:
        short = _("cards {cards}★ ♛ {nobles}★", cards=p.prestige - nobles, nobles=nobles)
    return Text(short, style=style)


def _name_line(face: PlayerFace, width: int, clock: Clock = NO_CLOCK) -> Text:
    if face.rank:
        marker = Text(f"{face.rank}.", style=POINTS)
    else:
        marker = Text("▶" if face.current else " ", style="bold #4ea1ff" if face.current else "")
    points = Text(f" {face.info.prestige}★", style=POINTS)
    shown, style = clock
    time_left = Text(f" {shown}", style=style) if shown else Text("")
    tag = Text(" " + _("1st"), style=LABEL) if face.first and not face.rank else Text("")
    away = _(" (bot)") if face.standin else "" if face.connected else _(" (away)")
    room = width - marker.cell_len - points.cell_len - time_left.cell_len
    you = _(" (you)") if face.me else ""
    # The longest that fits: the name, a bot's short name ("Medium 3"), without "(you)";
    # with a clock, the "1st" tag goes before the name is cut.
    names = (face.name + you, face.short + you, face.name, face.short)
    tags = (tag, Text("")) if shown else (tag,)
    for tag in tags:
        name = next((n for n in names if n and len(n + away) <= room - tag.cell_len), "")
        if name:
            break
    name = name or face.name
    room -= tag.cell_len
    return marker + fit(Text(name + away, style="bold"), max(1, room)) + tag + time_left + points


# A panel's lines that depend on a few values are kept by them (the Text is shared: never
# changed in place): a move changes one player's tokens, and the other lines stay.


@per_language_cache(maxsize=4096)
def _counts(label: str, counts: tuple[int, ...], cell: int, total: int) -> Text:
    out = Text(label, style=DIM)
    for c in range(6):
        if c < len(counts):
            n = counts[c]
            out.append(f"{n:>{cell}}", style=INK[c] if n else DIM)
        else:
            out.append(" " * cell)
    out.append(f"{total:>3}", style="bold")
    return out


def _reserves(face: PlayerFace, item: int | None) -> Text:
    out = Text(_("res"), style=DIM)
    reserved = face.info.reserved
    if not reserved:
        out.append("▶—" if item is not None else " —", style="bold" if item is not None else DIM)
        return out
    for i, r in enumerate(reserved):
        out.append("▶" if item == i else " ", style="bold")
        style = "reverse" if item == i else ""
        if r.card is None:
            out.append(f"L{r.level}?", style=f"{style} #8a8f98".strip())
        else:
            out.append(r.card, style=INK[card(r.card).colour] + Style.parse(style or "none"))
    return out


@per_language_cache(maxsize=4096)
def _nobles(nobles: tuple[tuple[str, tuple[int, ...]], ...], width: int) -> Text:
    """The nobles on the table, closest first: "♛N7 2U1K  N6 ✓"."""
    out = Text("♛", style=POINTS)
    for i, (nid, lacks) in enumerate(nobles):
        piece = Text(("  " if i else "") + nid + " ", style=DIM)
        piece.append_text(pieces(lacks, False) if any(lacks) else Text("✓", style=GOOD))
        if out.cell_len + piece.cell_len > width:
            break
        out.append_text(piece)
    return out


def _detail(face: PlayerFace, i: int, width: int) -> list[Text]:
    """A reserved card: id, colour, prestige, cost, and what its holder still needs, in
    one line, or two when the panel is narrow."""
    r = face.info.reserved[i]
    if r.card is None:
        return [Text(_(" L{level}? a blind level {level} card", level=r.level), style=DIM)]
    c = card(r.card)
    out = Text(" ")
    out.append(r.card, style="bold")
    out.append(f" {LETTERS[c.colour]}", style=INK[c.colour])
    out.append(f" {c.prestige}★ " if c.prestige else " ", style=POINTS)
    out.append_text(pieces(c.cost, True))
    need = face.reserve_needs[i] if i < len(face.reserve_needs) else None
    if need is None:
        return [out]
    rest = Text()
    gold = face.info.tokens[5]
    if sum(need) <= gold:
        rest.append(
            _("can buy") + (_(" with {sum}*", sum=sum(need)) if any(need) else ""), style=GOOD
        )
    else:
        rest.append(_("you need ") if face.me else "needs ", style=DIM)
        rest.append_text(pieces(need, True))
    if out.cell_len + 3 + rest.cell_len <= width:
        return [out + Text(" · ", style=DIM) + rest]
    return [out, Text("   ") + rest]
