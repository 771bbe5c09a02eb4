"""A Swiss round: players at tables by standing, meeting nobody twice while that can be
avoided, with a fair bye when tables of 2 leave one player over.

The standing orders everyone (docs/tournaments.md, "Standings"; the first round: the
seed). Tables are filled down the standing (1-2-3-4, 5-6-7-8: tables of 3 and 4 too),
changed only where that avoids a repeat meeting (`grouping.group` finds the fewest
repeats, and among those the grouping closest to the standing). The bye goes to a
player with the fewest byes so far (nobody has a second before everyone has had one),
the lowest standing among them whose bye lets the others meet no one twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .grouping import group, table_sizes
from .model import Game, Round
from .standings import met, standings


def swiss_round(
    entrants: Sequence[str],
    games: Iterable[Game],
    byes: Iterable[str],
    per_table: int,
    playing: Sequence[str] | None = None,
) -> Round:
    """The next round for `playing` (default: every entrant; a withdrawn player is left
    out) after `games` and `byes` (one name per bye given); `entrants` in seed order."""
    games, byes = list(games), list(byes)
    active = set(entrants if playing is None else playing)
    order = [s.name for s in standings(entrants, games, byes) if s.name in active]
    meetings = met(games)

    def cost(a: str, b: str) -> int:
        return meetings.get(frozenset((a, b)), 0)

    sizes = table_sizes(len(order), per_table)
    if not sizes or sizes[-1] != 1:
        return Round(tuple(group(order, sizes, cost).tables))
    sizes = sizes[:-1]
    had = {p: byes.count(p) for p in order}
    fewest = min(had.values())
    candidates = [p for p in reversed(order) if had[p] == fewest]
    best: tuple[int, list[tuple[str, ...]], str] | None = None
    for bye in candidates:
        rest = [p for p in order if p != bye]
        found = group(rest, sizes, cost, budget=50_000)
        if best is None or found.cost < best[0]:
            best = (found.cost, found.tables, bye)
        if found.cost == 0:
            break
    assert best is not None
    return Round(tuple(best[1]), (best[2],))
