"""SQL that both backends run as it is (written with `?` placeholders; `pg` numbers them
for PostgreSQL), what a copy copies, and the ratings' bookkeeping, worked out the same
way whichever database keeps it."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .ratings import NEW, Rated, Rating, rate
from .records import GAME_COLUMNS

# Every table a copy (`splendor-server copy-db`) copies, with its columns, in an order
# that respects the references between them. Snapshots are a cache: left out.
COPIED: dict[str, tuple[str, ...]] = {
    "names": ("name", "key", "claimed", "language", "reading"),
    "games": GAME_COLUMNS,
    "moves": ("game", "seq", "notation", "at"),
    "game_players": ("game", "seat", "player"),
    "ratings": ("player", "mu", "sigma", "games", "wins", "updated"),
    "rating_history": ("player", "game", "at", "rank", "mu", "sigma", "shown", "change"),
    "bans": ("name", "at", "reason"),
    "programs": ("name", "at"),
    "chat": ("id", "game", "seq", "turn", "at", "name", "text", "spectator", "removed"),
    "tournaments": (
        "id",
        "name",
        "format",
        "settings",
        "status",
        "creator",
        "created",
        "version",
        "entrants",
        "rounds",
    ),  # fmt: skip
    "tournament_games": ("game", "tournament", "round"),
}


def pg(sql: str) -> str:
    """`sql` with PostgreSQL's numbered placeholders ($1, $2, …) for `?`."""
    count = iter(range(1, 10_000))
    return re.sub(r"\?", lambda m: f"${next(count)}", sql)


def insert_missing(table: str, sqlite: bool) -> str:
    """An insert of one row of `table` that keeps a row already there."""
    columns = COPIED[table]
    marks = ", ".join("?" for _ in columns)
    if sqlite:
        return f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) VALUES ({marks})"
    return pg(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING")


# -- ratings -------------------------------------------------------------------------

RATINGS_OF = "SELECT player, mu, sigma, games, wins FROM ratings WHERE player IN ({})"
UPSERT_RATING = (
    "INSERT INTO ratings (player, mu, sigma, games, wins, updated) VALUES (?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " games = excluded.games, wins = excluded.wins, updated = excluded.updated"
)
ADD_HISTORY = (
    "INSERT INTO rating_history (player, game, at, rank, mu, sigma, shown, change)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
CHANGES_OF = "SELECT player, shown, change FROM rating_history WHERE game = ?"


def marks(n: int) -> str:
    return ", ".join("?" for _ in range(n))


def rating_rows(
    game: str, rated: Sequence[Rated], current: dict[str, tuple[float, float, int, int]]
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The `ratings` rows to write and the `rating_history` rows to add for a finished
    game rating `rated` (by rank), from the players' `current` rows (mu, sigma, games,
    wins; a newcomer has none)."""
    before = [Rating(*current[r.player][:2]) if r.player in current else NEW for r in rated]
    after = rate(before, [r.rank for r in rated])
    now = time.time()
    ratings, history = [], []
    for r, old, new in zip(rated, before, after, strict=True):
        games, wins = current.get(r.player, (0.0, 0.0, 0, 0))[2:]
        won = int(r.rank == 1)
        ratings.append((r.player, new.mu, new.sigma, games + 1, wins + won, now))
        change = new.shown - old.shown
        history.append((r.player, game, now, r.rank, new.mu, new.sigma, new.shown, change))
    return ratings, history


# -- the leaderboard and profiles ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """A player on the leaderboard: its rank among everyone rated, and its numbers."""

    rank: int
    player: str
    shown: int
    games: int
    wins: int
    last: float  # when it last finished a rated game
    program: bool = False  # its name is a program's (`splendor-server bot-account`)


# Ranked by the shown rating, then by games played; `?`: how many rows, from where.
LEADERBOARD = (
    "SELECT player, mu, sigma, games, wins, updated,"
    " EXISTS (SELECT 1 FROM programs p WHERE p.name = ratings.player) FROM ratings"
    " ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ? OFFSET ?"
)
STANDING = (  # the rank is the row's place in LEADERBOARD's order
    "SELECT r.player, r.mu, r.sigma, r.games, r.wins, r.updated,"
    " (SELECT count(*) FROM ratings o WHERE o.mu - 3 * o.sigma > r.mu - 3 * r.sigma"
    " OR (o.mu - 3 * o.sigma = r.mu - 3 * r.sigma AND (o.games > r.games"
    " OR (o.games = r.games AND o.player < r.player)))) + 1"
    " FROM ratings r WHERE r.player = ?"
)
HISTORY = (
    "SELECT game, at, rank, shown, change FROM rating_history WHERE player = ?"
    " ORDER BY at DESC LIMIT ?"
)
BY_PLAYERS = (
    "SELECT g.players, count(*), sum(CASE WHEN h.rank = 1 THEN 1 ELSE 0 END)"
    " FROM rating_history h JOIN games g ON g.id = h.game WHERE h.player = ?"
    " GROUP BY g.players ORDER BY g.players"
)
RECENT = (
    "SELECT g.id, g.players, g.status, g.finished, g.outcome, gp.seat, g.rated, g.seats"
    " FROM game_players gp JOIN games g ON g.id = gp.game"
    " WHERE gp.player = ? AND g.status IN ('finished', 'abandoned')"
    " ORDER BY g.finished DESC LIMIT ?"
)
