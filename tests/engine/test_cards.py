"""The card set (R3, R4 and docs/rules.md "Card set"): every structural property, checked
against the table as docs/rules.md writes it, and the ids pinned by a data file."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from shared import CARD_BY_ID, CARDS, NOBLE_BY_ID, NOBLES, card
from shared.cards import COLOURS

DATA = Path(__file__).parent / "data"

# docs/rules.md "Card set", row by row: (level, cost shape, prestige, own colour in the cost).
# The own-colour rule is None for "never", a count for "always (as that count)", and
# "free" when either is allowed.
TABLE: list[tuple[int, str, int, int | str | None]] = [
    (1, "2-1", 0, None),
    (1, "3", 0, None),
    (1, "1-1-1-1", 0, None),
    (1, "2-2", 0, "free"),
    (1, "2-1-1-1", 0, None),
    (1, "2-2-1", 0, None),
    (1, "3-1-1", 0, 1),
    (1, "4", 1, None),
    (2, "3-2-2", 1, "free"),
    (2, "3-3-2", 1, 2),
    (2, "5", 2, "free"),
    (2, "4-2-1", 2, None),
    (2, "5-3", 2, "free"),
    (2, "6", 3, 6),
    (3, "5-3-3-3", 3, None),
    (3, "7", 4, None),
    (3, "6-3-3", 4, 3),
    (3, "7-3", 5, 3),
]
# per level: (tokens asked of each colour in all, cards asking for each colour)
BALANCE = {1: (33, 20), 2: (41, 13), 3: (43, 10)}


def shape(cost: tuple[int, ...]) -> str:
    return "-".join(str(n) for n in sorted((n for n in cost if n), reverse=True))


def test_r3_ninety_cards_forty_thirty_twenty() -> None:
    assert len(CARDS) == 90
    assert Counter(c.level for c in CARDS) == {1: 40, 2: 30, 3: 20}
    assert [c.index for c in CARDS] == list(range(90))


def test_r3_one_colour_a_cost_without_gold_and_zero_to_five_prestige() -> None:
    for c in CARDS:
        assert c.colour in range(5)
        assert len(c.cost) == 5 and all(n >= 0 for n in c.cost) and sum(c.cost) > 0
        assert 0 <= c.prestige <= 5


def test_card_set_every_card_belongs_to_a_row_of_the_table() -> None:
    rows = {(level, s): (prestige, own) for level, s, prestige, own in TABLE}
    for c in CARDS:
        assert (c.level, shape(c.cost)) in rows, f"{c.id} has no row"
        prestige, own = rows[c.level, shape(c.cost)]
        assert c.prestige == prestige, c.id
        if own is None:
            assert c.cost[c.colour] == 0, f"{c.id} asks for its own colour"
        elif own != "free":
            assert c.cost[c.colour] == own, f"{c.id} should ask {own} of its own colour"


@pytest.mark.parametrize(("level", "cost_shape", "prestige", "own"), TABLE)
def test_card_set_one_card_of_each_colour_per_row(
    level: int, cost_shape: str, prestige: int, own: object
) -> None:
    cards = [c for c in CARDS if c.level == level and shape(c.cost) == cost_shape]
    assert sorted(c.colour for c in cards) == [0, 1, 2, 3, 4]
    assert {c.prestige for c in cards} == {prestige}


@pytest.mark.parametrize("level", [1, 2, 3])
def test_card_set_colours_are_balanced_within_a_level(level: int) -> None:
    cards = [c for c in CARDS if c.level == level]
    assert Counter(c.colour for c in cards) == {colour: len(cards) // 5 for colour in range(5)}
    tokens, askers = BALANCE[level]
    for colour in range(5):
        assert sum(c.cost[colour] for c in cards) == tokens, COLOURS[colour]
        assert sum(1 for c in cards if c.cost[colour]) == askers, COLOURS[colour]


def test_card_set_no_two_cards_alike() -> None:
    assert len({(c.level, c.colour, c.cost) for c in CARDS}) == 90


def test_r4_ten_nobles_of_three_prestige() -> None:
    assert len(NOBLES) == 10
    assert all(n.prestige == 3 for n in NOBLES)
    assert len({n.requires for n in NOBLES}) == 10


def test_r4_five_nobles_ask_4_4_and_five_ask_3_3_3() -> None:
    shapes = Counter(shape(n.requires) for n in NOBLES)
    assert shapes == {"4-4": 5, "3-3-3": 5}
    for colour in range(5):
        fours = [n for n in NOBLES if shape(n.requires) == "4-4" and n.requires[colour]]
        threes = [n for n in NOBLES if shape(n.requires) == "3-3-3" and n.requires[colour]]
        assert (len(fours), len(threes)) == (2, 3), COLOURS[colour]


def test_card_set_ids_are_stable() -> None:
    """Ids appear in saved games and logs: each must keep naming the same card."""
    lines = (DATA / "cards.txt").read_text().split("\n")
    expected = [line for line in lines if line and not line.startswith("#")]
    actual = [f"{c.id} {COLOURS[c.colour]} {c.prestige} {c.cost_text()}" for c in CARDS]
    actual += [f"{n.id} {n.requires_text()}" for n in NOBLES]
    assert actual == expected


def test_card_set_ids_read_both_ways() -> None:
    assert card("1-07") is card("1-7") is CARD_BY_ID["1-07"]
    assert [c.id for c in CARDS[:2]] == ["1-01", "1-02"]
    assert CARDS[-1].id == "3-20"
    assert NOBLE_BY_ID["N3"].index == 2 and NOBLES[-1].id == "N10"
    for bad in ("0-01", "1-41", "4-01", "1-", "x-1", "107"):
        with pytest.raises(KeyError):
            card(bad)
