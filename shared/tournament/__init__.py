"""Club tournaments as pure code: who sits with whom each round, and the standings.

No I/O: the host (`server.host.tournaments`) stores a tournament and runs its rounds;
this package only decides them. Splendor is for 2 to 4 players (R2), so a round is a
set of tables of 2, 3 or 4, not pairs (docs/tournaments.md).
"""

from __future__ import annotations

from .grouping import group, table_sizes
from .knockout import goes_on, knockout_round
from .model import FORMATS, KNOCKOUT, ROUND_ROBIN, SWISS, Game, Round
from .roundrobin import round_robin
from .standings import Standing, points, standings
from .swiss import swiss_round

__all__ = [
    "FORMATS",
    "KNOCKOUT",
    "ROUND_ROBIN",
    "SWISS",
    "Game",
    "Round",
    "Standing",
    "goes_on",
    "group",
    "knockout_round",
    "points",
    "round_robin",
    "standings",
    "swiss_round",
    "table_sizes",
]
