"""Grouping players at tables: the sizes of a round's tables, and the grouping that
repeats the fewest meetings, closest to the given order (standing, or seed).

A search with a bound (branch and bound, depth first in the given order), so the first
grouping found is the one a director would make by hand (1-2-3-4, 5-6-7-8) and a better
one replaces it only when it repeats fewer meetings. It stops after looking at `budget` tables with
the best found: exact for club sizes, as the tests check against brute force.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

Cost = Callable[[str, str], int]


@dataclass(frozen=True, slots=True)
class Grouping:
    """Tables found, their total cost, and whether the search was whole (`exact`: no
    grouping costs less) or stopped at its budget with the best it had."""

    tables: list[tuple[str, ...]]
    cost: int
    exact: bool


def table_sizes(players: int, per_table: int) -> list[int]:
    """Tables for `players`: as few as tables of at most `per_table` allow, their sizes
    differing by one at most, the larger first (9 at 4 a table: 3, 3, 3; 7: 4, 3). Only
    tables of 2 can leave one player over: the list then ends with a 1, a bye (R2: a
    game needs 2)."""
    if not 2 <= per_table <= 4:
        raise ValueError(f"a table seats 2 to 4, not {per_table}")
    if players <= 0:
        return []
    count = -(-players // per_table)
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def group(
    players: Sequence[str], sizes: Sequence[int], cost: Cost, budget: int = 200_000
) -> Grouping:
    """`players` (in order of preference: the first sit together) at tables of `sizes`
    (summing to their number), with the least total `cost` over the pairs at a table
    (how often two have met); ties go to the grouping closest to the order."""
    if sum(sizes) != len(players):
        raise ValueError("the tables' sizes must seat every player")
    order = {p: i for i, p in enumerate(players)}
    best: list[tuple[str, ...]] = []
    best_cost = [-1]
    steps = [0]

    def search(left: list[str], sizes_left: list[int], tables: list[tuple[str, ...]],
               spent: int) -> None:  # fmt: skip
        if best_cost[0] >= 0 and (spent >= best_cost[0] or steps[0] >= budget):
            return
        if not left:
            best[:] = tables
            best_cost[0] = spent
            return
        head, rest = left[0], left[1:]
        options = []
        for size in dict.fromkeys(sizes_left):  # the head may sit at any size left
            for mates in combinations(rest, size - 1):
                steps[0] += 1
                table = (head, *mates)
                add = sum(cost(a, b) for a, b in combinations(table, 2))
                options.append((add, [order[m] for m in mates], -size, table))
        options.sort(key=lambda o: (o[0], o[1], o[2]))
        for add, _, _, table in options:
            if best_cost[0] >= 0 and spent + add >= best_cost[0]:
                break  # sorted by cost: nothing after is better
            taken = set(table)
            more = list(sizes_left)
            more.remove(len(table))
            search([p for p in rest if p not in taken], more, [*tables, table], spent + add)

    search(list(players), list(sizes), [], 0)
    return Grouping(best, best_cost[0], steps[0] < budget)
