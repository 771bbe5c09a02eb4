"""The card set (R3, "Card set") and the nobles (R4): static data every side shares.

Colours are indexes 0..4 in the order W U G R K; gold is 5 (R1). This edition
builds every level from the rows of docs/rules.md's card-set table. Each row gives,
for a card of colour ``c``, the tokens it asks of the colour at each *offset*
along the cycle W → U → G → R → K (offset 0 is the card's own colour). Using
the same offsets for all five colours keeps every level balanced: each colour
is asked for the same number of tokens by the same number of cards.

The offsets were chosen so that no card (level, colour, cost, prestige) is one
of the published game's, except in the two rows that leave no choice (level 1's
1-1-1-1 and level 2's 6 of its own colour); this was checked against two
independent public lists of the original cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_

COLOURS = "WUGRK"
LETTERS = "WUGRK*"
GOLD = 5
# This edition's card set (docs/rules.md, "Card set"): a game record names it, so that a
# record is never replayed with other cards. A change to the cards gets a new one.
CARD_SET = "1"
COLOUR_NAMES = (N_("white"), N_("blue"), N_("green"), N_("red"), N_("black"), N_("gold"))


@dataclass(frozen=True, slots=True)
class Card:
    """A development card: its id (``1-07``), level, bonus colour, cost and prestige."""

    id: str
    index: int
    level: int
    colour: int
    cost: tuple[int, int, int, int, int]
    prestige: int

    def cost_text(self) -> str:
        """The cost as letters and counts, e.g. ``2U 1R``."""
        return " ".join(f"{n}{COLOURS[c]}" for c, n in enumerate(self.cost) if n)


@dataclass(frozen=True, slots=True)
class Noble:
    """A noble tile (R4): its id (``N3``), what it asks in bonuses, and 3 prestige."""

    id: str
    index: int
    requires: tuple[int, int, int, int, int]
    prestige: int = 3

    def requires_text(self) -> str:
        return " ".join(f"{n}{COLOURS[c]}" for c, n in enumerate(self.requires) if n)


# (level, prestige, {offset: tokens}) in the order of docs/rules.md's table.
# Offset 0 appears exactly where the table says the own colour is "always",
# never where it says "never", and by choice where it says "free".
ROWS: tuple[tuple[int, int, dict[int, int]], ...] = (
    (1, 0, {1: 2, 3: 1}),  # 2-1
    (1, 0, {4: 3}),  # 3
    (1, 0, {1: 1, 2: 1, 3: 1, 4: 1}),  # 1-1-1-1
    (1, 0, {2: 2, 3: 2}),  # 2-2 (own colour free: not used)
    (1, 0, {1: 1, 2: 1, 3: 2, 4: 1}),  # 2-1-1-1
    (1, 0, {1: 1, 2: 2, 4: 2}),  # 2-2-1
    (1, 0, {0: 1, 2: 1, 3: 3}),  # 3-1-1, own colour as a 1
    (1, 1, {4: 4}),  # 4
    (2, 1, {1: 2, 2: 2, 4: 3}),  # 3-2-2 (own colour free: not used)
    (2, 1, {0: 2, 2: 3, 4: 3}),  # 3-3-2, own colour as the 2
    (2, 2, {4: 5}),  # 5 (own colour free: not used)
    (2, 2, {1: 4, 3: 1, 4: 2}),  # 4-2-1
    (2, 2, {2: 5, 3: 3}),  # 5-3 (own colour free: not used)
    (2, 3, {0: 6}),  # 6 of its own colour
    (3, 3, {1: 5, 2: 3, 3: 3, 4: 3}),  # 5-3-3-3
    (3, 4, {2: 7}),  # 7
    (3, 4, {0: 3, 1: 6, 3: 3}),  # 6-3-3, own colour as a 3
    (3, 5, {0: 3, 1: 7}),  # 7-3, own colour as the 3
)

# Nobles: 4+4 of colours two apart on the cycle, 3+3+3 of offsets 0, 1 and 3.
NOBLE_SHAPES: tuple[dict[int, int], ...] = ({0: 4, 2: 4}, {0: 3, 1: 3, 3: 3})


def _build_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    numbers = {1: 0, 2: 0, 3: 0}
    for level, prestige, offsets in ROWS:
        for colour in range(5):
            cost = [0] * 5
            for offset, n in offsets.items():
                cost[(colour + offset) % 5] = n
            numbers[level] += 1
            cards.append(
                Card(
                    id=f"{level}-{numbers[level]:02d}",
                    index=len(cards),
                    level=level,
                    colour=colour,
                    cost=(cost[0], cost[1], cost[2], cost[3], cost[4]),
                    prestige=prestige,
                )
            )
    return tuple(cards)


def _build_nobles() -> tuple[Noble, ...]:
    nobles: list[Noble] = []
    for shape in NOBLE_SHAPES:
        for colour in range(5):
            req = [0] * 5
            for offset, n in shape.items():
                req[(colour + offset) % 5] = n
            nobles.append(
                Noble(
                    id=f"N{len(nobles) + 1}",
                    index=len(nobles),
                    requires=(req[0], req[1], req[2], req[3], req[4]),
                )
            )
    return tuple(nobles)


CARDS: tuple[Card, ...] = _build_cards()
NOBLES: tuple[Noble, ...] = _build_nobles()
CARD_BY_ID: dict[str, Card] = {c.id: c for c in CARDS}
NOBLE_BY_ID: dict[str, Noble] = {n.id: n for n in NOBLES}
LEVEL_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c.index for c in CARDS if c.level == level) for level in (1, 2, 3)
)


def card(card_id: str) -> Card:
    """The card with this id (``1-07``; ``1-7`` is accepted too). KeyError if none."""
    level, _, number = card_id.partition("-")
    if not (level.isdigit() and number.isdigit()):
        raise KeyError(card_id)
    return CARD_BY_ID[f"{int(level)}-{int(number):02d}"]
