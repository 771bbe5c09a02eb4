"""A round robin: a schedule in which everyone meets everyone, as evenly as tables allow.

Tables of 2: the circle method (Berger's tables): n - 1 rounds for an even number, n
with one bye each for an odd one; everyone meets everyone exactly once. Tables of 3 or
4 cannot always be made so exactly (it is the social golfer problem): each round is
grouped to meet as few already met as it can (`grouping.group`), and rounds are added
until every pair has met. Everyone plays every round then (tables of 3 and 4 leave no
one over: `grouping.table_sizes`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .grouping import group, table_sizes
from .model import Game, Round
from .standings import met


def round_robin(entrants: Sequence[str], per_table: int) -> list[Round]:
    """Every round of a round robin of `entrants` at tables of `per_table`."""
    players = list(entrants)
    if len(players) < 2:
        return []
    if per_table == 2:
        return _circle(players)
    rounds: list[Round] = []
    games: list[Game] = []
    pairs = len(players) * (len(players) - 1) // 2
    sizes = table_sizes(len(players), per_table)
    for _ in range(3 * len(players)):  # bounded: each round meets at least one new pair
        meetings = met(games)
        if len(meetings) == pairs:
            break

        def cost(a: str, b: str, meetings: dict[frozenset[str], int] = meetings) -> int:
            return meetings.get(frozenset((a, b)), 0)

        n = len(rounds) % len(players)
        tables = group(players[n:] + players[:n], sizes, cost, budget=20_000).tables
        rounds.append(Round(tuple(tables)))
        games.extend(Game(t) for t in tables)
    return rounds


def _circle(players: list[str]) -> list[Round]:
    ring: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        tables: list[tuple[str, ...]] = []
        byes: list[str] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)  # type: ignore[arg-type]
            else:
                tables.append((a, b) if r % 2 == 0 or i else (b, a))
        rounds.append(Round(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds
