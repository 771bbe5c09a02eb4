"""Single elimination, seeded by rating: the first at each table goes on.

Each round seats the players left at as few tables as the size allows
(`grouping.table_sizes`), the seeds dealt out like cards in a snake (seeds 1, 2, 3, 4
at four tables, then 8, 7, 6, 5), so the best meet as late as they can. Tables of 2
with an odd number left: the best seed has the bye. At a table, the player ranked first
goes on; a shared first place (R17) goes to the better seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .grouping import table_sizes
from .model import Game, Round


def knockout_round(seeded: Sequence[str], per_table: int) -> Round:
    """The next round for the players still in, best seed first."""
    players = list(seeded)
    if len(players) < 2:
        return Round(())
    sizes = table_sizes(len(players), per_table)
    byes: tuple[str, ...] = ()
    if sizes[-1] == 1:
        byes, players, sizes = (players[0],), players[1:], sizes[:-1]
    count = len(sizes)
    tables: list[list[str]] = [[] for _ in range(count)]
    for j, p in enumerate(players):
        row, col = divmod(j, count)
        tables[col if row % 2 == 0 else count - 1 - col].append(p)
    return Round(tuple(tuple(t) for t in tables), byes)


def goes_on(game: Game, seeded: Sequence[str]) -> str:
    """Who goes on from a played table: the first, or the better seed of those sharing
    first place."""
    seed = {p: i for i, p in enumerate(seeded)}
    best = min(game.ranks)
    firsts = [p for p, r in zip(game.players, game.ranks, strict=True) if r == best]
    return min(firsts, key=lambda p: seed.get(p, len(seed)))
