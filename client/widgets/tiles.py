"""The table's tiles: a card (face up, reserved, a deck or an empty slot) and a bank pile.

Attributes down: the table screen sets each tile's `face` (a small frozen
value) and its cursor class; a tile only renders what it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from shared.cards import COLOUR_NAMES, LETTERS, card

from .palette import BAD, CHIP, DIM, GOOD, INK, chip, cost_text, fit

CARD, DECK, EMPTY = "card", "deck", "empty"


@dataclass(frozen=True, slots=True)
class CardFace:
    """What a card tile shows.

    ``kind`` is "card", "deck" or "empty"; ``needs`` is the card's last line
    (what the player still needs, or "✓ buy"); ``affordable`` makes it stand
    out; ``fresh`` marks a card new since the last move; ``hidden`` is a blind
    reserve of another player (level only).
    """

    kind: str = EMPTY
    card: str | None = None
    level: int = 0
    count: int = 0
    needs: str = ""
    affordable: bool = False
    fresh: bool = False
    blind: bool = False
    label: str = ""


class CardTile(Widget):
    """One card slot of the table (or a deck, or one of the player's reserved cards)."""

    DEFAULT_CSS = """
    CardTile {
        width: 11;
        height: 3;
        margin-right: 1;
        background: #262b36;
    }
    CardTile.-deck { width: 6; background: #1d2230; }
    CardTile.-empty { background: #181b22; }
    CardTile.-affordable { background: #1f3d2b; }
    CardTile.-cursor { background: #3b4d70; }
    CardTile.-cursor.-affordable { background: #2f6a45; }
    """

    face: reactive[CardFace] = reactive(CardFace, layout=False)
    under_cursor: reactive[bool] = reactive(False, layout=False)

    def watch_under_cursor(self, value: bool) -> None:
        self.set_class(value, "-cursor")

    def watch_face(self, face: CardFace) -> None:
        # One batched class change: a single style update, and none when nothing changed.
        self.update_classes(
            {
                "-deck": face.kind == DECK,
                "-empty": face.kind == EMPTY,
                "-affordable": face.affordable,
                "-fresh": face.fresh,
            }
        )

    def render(self) -> Text:
        face = self.face
        width = max(1, self.content_size.width)
        if face.kind == DECK:
            text = self._deck(face, width)
        elif face.kind == EMPTY or face.card is None:
            text = Text(face.label, style=DIM) if not face.blind else self._blind(face, width)
        else:
            text = self._card(face, width)
        if self.under_cursor:  # a glyph too, so the cursor shows without colour (NO_COLOR)
            text = (
                Text("▶", style="bold #ffffff") + text[1:]
                if text.plain[:1] == " "
                else (Text("▶", style="bold #ffffff") + text)
            )
            lines = text.split("\n")
            lines[0].truncate(width)
            text = Text("\n").join(lines)
        return text

    @staticmethod
    def _deck(face: CardFace, width: int) -> Text:
        roman = "I" * face.level
        top = Text(f" {roman:<{width - 1}}", style="bold")
        middle = Text(f" {'deck' if width < 8 else 'level ' + str(face.level)}", style=DIM)
        n = face.count
        count = f"{n}" if width < 8 else f"{n} left"
        bottom = Text(f" {count if n else 'empty'}", style="bold" if n else DIM)
        return Text("\n").join([top, middle, bottom])

    @staticmethod
    def _blind(face: CardFace, width: int) -> Text:
        top = fit(
            Text(f"level {face.level}" if width >= 7 else f"L{face.level}", style="bold"), width
        )
        return Text("\n").join([top, fit(Text("blind", style=DIM), width), Text("")])

    @staticmethod
    def _card(face: CardFace, width: int) -> Text:
        assert face.card is not None
        c = card(face.card)
        top = Text()
        top.append_text(chip(c.colour, f" {'WUGRK'[c.colour]} "))
        top.append(" ")
        top.append(c.id, style="bold underline #ffd23f" if face.fresh else "bold")
        if c.prestige:
            points = f"{c.prestige}★" if width >= 11 else str(c.prestige)
            gap = width - top.cell_len - len(points)
            if gap >= 1:
                top.append(" " * gap)
                top.append(points, style="bold #ffd23f")
        cost = cost_text(c.cost, width)
        if face.affordable:
            needs = Text(face.needs, style=GOOD)
        elif face.needs:
            pieces = _pieces(face.needs)
            spaced = len(" ".join(pieces))
            if spaced + 5 <= width:
                needs, sep = Text("need ", style=BAD), " "
            elif spaced + 1 <= width:
                needs, sep = Text("-", style=BAD), " "
            else:
                needs, sep = Text("-", style=BAD), ""
            for i, piece in enumerate(pieces):
                colour = LETTERS.find(piece[-1])
                needs.append(sep if i else "")
                needs.append(piece, style=INK[colour] if colour >= 0 else BAD)
        else:
            needs = Text(COLOUR_NAMES[c.colour], style=DIM)
        return Text("\n").join([fit(top, width), fit(cost, width), fit(needs, width)])


def _pieces(text: str) -> list[str]:
    """``2U1K`` → ``["2U", "1K"]``."""
    pieces, current = [], ""
    for ch in text:
        current += ch
        if not ch.isdigit():
            pieces.append(current)
            current = ""
    return pieces


@dataclass(frozen=True, slots=True)
class PileFace:
    """A bank pile: the colour, how many tokens it holds, how many the player has picked."""

    colour: int
    count: int
    picked: int = 0
    held: int | None = None


class TokenTile(Widget):
    """One pile of the bank; the player picks gems from it."""

    DEFAULT_CSS = """
    TokenTile {
        width: 7;
        height: 1;
        margin-right: 1;
    }
    TokenTile.-picked { background: #3d3a1d; }
    TokenTile.-cursor { background: #3b4d70; }
    """

    face: reactive[PileFace] = reactive(lambda: PileFace(0, 0), layout=False)
    under_cursor: reactive[bool] = reactive(False, layout=False)

    def watch_under_cursor(self, value: bool) -> None:
        self.set_class(value, "-cursor")

    def watch_face(self, face: PileFace) -> None:
        self.set_class(face.picked > 0, "-picked")

    def render(self) -> Text:
        face = self.face
        out = Text("▶" if self.under_cursor else " ", style="bold #ffffff")
        out.append_text(chip(face.colour, f" {'WUGRK*'[face.colour]} "))
        out.append(f"{face.count:>2}", style="bold" if face.count else DIM)
        if face.picked:
            out.append(f"+{face.picked}", style=CHIP[5])
        return out
