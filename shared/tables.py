"""Tables worked out once from the cards, for the engine's and the bots' hot paths.

Per card index: its colour, prestige, level and nonzero cost pairs. And
affordability (R10) for every card at once, as arithmetic on one integer: each
card has a 5-bit *lane* (card ``i`` at bits ``5i..5i+4``). ``shortfalls(bonus,
tokens)`` adds, lane by lane, the gems a player lacks for each card; the table
for colour ``c`` is indexed by the player's buying power in it (bonuses plus
gems), which past 7 (the largest cost of one colour) changes nothing. A card's
shortfall is at most 14, so lanes never carry into each other. Adding ``15 - gold``
to every lane sets a lane's top bit exactly when gold cannot cover the
shortfall, so ``unaffordable`` gives, in one integer, every card the player
cannot buy.
"""

from __future__ import annotations

from .cards import CARDS, NOBLES

COST_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((c, n) for c, n in enumerate(card.cost) if n) for card in CARDS
)
COLOUR: tuple[int, ...] = tuple(card.colour for card in CARDS)
PRESTIGE: tuple[int, ...] = tuple(card.prestige for card in CARDS)
LEVEL: tuple[int, ...] = tuple(card.level for card in CARDS)
NOBLE_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((c, n) for c, n in enumerate(noble.requires) if n) for noble in NOBLES
)
FEWEST_BONUSES_FOR_A_NOBLE = min(sum(noble.requires) for noble in NOBLES)  # 8 (R4)

LANE_BITS = 5
TOP_BIT: tuple[int, ...] = tuple(1 << (LANE_BITS * i + 4) for i in range(len(CARDS)))
TOP_BITS = sum(TOP_BIT)
_MOST_ONE_COLOUR = max(max(card.cost) for card in CARDS)  # 7
_MOST_SHORT = max(sum(card.cost) for card in CARDS)  # 14, so lanes stay below 32
POWER_CAP = 64  # powers this high or more are read by the slow path (`shortfall_of`)
_ONES = sum(1 << (LANE_BITS * i) for i in range(len(CARDS)))
assert _MOST_SHORT + 15 < 1 << LANE_BITS


def _lanes(values: list[int]) -> int:
    return sum(v << (LANE_BITS * i) for i, v in enumerate(values))


# SHORT[c][v]: in card i's lane, max(0, cost of i in colour c - v).
SHORT: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        _lanes([max(0, card.cost[c] - min(v, _MOST_ONE_COLOUR)) for card in CARDS])
        for v in range(POWER_CAP)
    )
    for c in range(5)
)
# SLACK[g]: 15 - g in every lane, so that a lane reaches 16 exactly when gold g is short.
SLACK: tuple[int, ...] = tuple(_ONES * (15 - g) for g in range(16))


SHIFT: tuple[int, ...] = tuple(LANE_BITS * i for i in range(len(CARDS)))
LANE = (1 << LANE_BITS) - 1


def shortfalls(bonus: tuple[int, ...], tokens: tuple[int, ...]) -> int:
    """Every card's shortfall before gold, lane by lane: card i's is
    ``shortfalls(...) >> SHIFT[i] & LANE``. Pass zero tokens for the cost after bonuses."""
    try:
        return (
            SHORT[0][bonus[0] + tokens[0]]
            + SHORT[1][bonus[1] + tokens[1]]
            + SHORT[2][bonus[2] + tokens[2]]
            + SHORT[3][bonus[3] + tokens[3]]
            + SHORT[4][bonus[4] + tokens[4]]
        )
    except IndexError:  # a power past the tables: no state of a real game
        short = [sum(max(0, n - bonus[c] - tokens[c]) for c, n in pairs) for pairs in COST_PAIRS]
        return _lanes(short)


def unaffordable(bonus: tuple[int, ...], tokens: tuple[int, ...]) -> int:
    """The `TOP_BIT` of every card this player cannot buy (R10: bonuses, then gems, then
    gold for the whole shortfall)."""
    try:
        return TOP_BITS & (
            SHORT[0][bonus[0] + tokens[0]]
            + SHORT[1][bonus[1] + tokens[1]]
            + SHORT[2][bonus[2] + tokens[2]]
            + SHORT[3][bonus[3] + tokens[3]]
            + SHORT[4][bonus[4] + tokens[4]]
            + SLACK[tokens[5]]
        )
    except IndexError:  # a power past the tables, or 16 gold or more: no state of a real game
        return sum(TOP_BIT[i] for i in range(len(CARDS)) if shortfall_of(i, bonus, tokens) > 0)


def shortfall_of(idx: int, bonus: tuple[int, ...], tokens: tuple[int, ...]) -> int:
    """Gems the player lacks for card `idx` beyond what their gold covers (R10); 0 if they
    can buy it."""
    short = 0
    for c, n in COST_PAIRS[idx]:
        d = n - bonus[c] - tokens[c]
        if d > 0:
            short += d
    return max(0, short - tokens[5])


def payment(idx: int, bonus: tuple[int, ...], tokens: tuple[int, ...]) -> tuple[int, ...]:
    """R10's fixed payment for card `idx`: six counts, gems after bonuses and then gold for
    the whole shortfall. The caller checks that the gold is there (`unaffordable`).
    `shared.steps.buy` inlines the same loop: a call there made a buy ply 20-40% slower."""
    pay = [0, 0, 0, 0, 0, 0]
    for c, n in COST_PAIRS[idx]:
        n -= bonus[c]
        if n > 0:
            have = tokens[c]
            if n > have:
                pay[c] = have
                pay[5] += n - have
            else:
                pay[c] = n
    return tuple(pay)


def visiting_noble(bonus: tuple[int, ...], nobles: tuple[int, ...]) -> int | None:
    """R14: the first noble of `nobles` (table order) whose demand the bonuses meet.
    `shared.steps.visit_noble` inlines the same loop, on the engine's hot path."""
    for noble in nobles:
        for c, n in NOBLE_PAIRS[noble]:
            if bonus[c] < n:
                break
        else:
            return noble
    return None
