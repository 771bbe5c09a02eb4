"""What a club keeps beyond its games: the leaderboard, players' profiles, bans, renames;
written once for both backends, as a part each store holds, over two primitives the store
gives it (`rows`: a read; `statements`: writes in one transaction), with `?`
placeholders."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from shared.players import bot_label

from .base import PastGame, Profile
from .queries import (
    BY_PLAYERS,
    CHANGES_OF,
    HISTORY,
    LEADERBOARD,
    RECENT,
    STANDING,
    Standing,
)
from .ratings import display
from .records import ChatRecord, StoreError, chat_query, chat_record

Statement = tuple[str, Sequence[Any]]


Rows = Callable[..., Awaitable[list[tuple[Any, ...]]]]  # (sql, *args): one read's rows
Statements = Callable[[Sequence[Statement]], Awaitable[list[int]]]  # rows each changed


Chosen = tuple[str, str | None]  # a language, and how its right-to-left text shows


class ClubQueries:
    """The leaderboard, profiles, bans and renames over a store's `rows` and `statements`
    (`Store.club`; the store's methods of these names call them)."""

    def __init__(self, rows: Rows, statements: Statements) -> None:
        self._rows = rows
        self._statements = statements

    async def chat(
        self, game: str | None, limit: int = 50, everywhere: bool = False
    ) -> list[ChatRecord]:
        sql, args = chat_query(game, limit, everywhere)
        return [chat_record(r) for r in reversed(await self._rows(sql, *args))]

    async def rematch_for(self, game: str) -> str | None:
        rows = await self._rows("SELECT id FROM games WHERE rematch_of = ?", game)
        return str(rows[0][0]) if rows else None

    async def rating_changes(self, game: str) -> dict[str, tuple[int, int]]:
        return {p: (shown, change) for p, shown, change in await self._rows(CHANGES_OF, game)}

    async def leaderboard(self, limit: int, offset: int = 0) -> list[Standing]:
        rows = await self._rows(LEADERBOARD, limit, offset)
        return [
            Standing(offset + i + 1, p, display(mu, sigma), games, wins, updated, bool(program))
            for i, (p, mu, sigma, games, wins, updated, program) in enumerate(rows)
        ]

    async def standing(self, player: str) -> Standing | None:
        rows = await self._rows(STANDING, player)
        if not rows:
            return None
        p, mu, sigma, games, wins, updated, rank = rows[0]
        program = await self.is_program(p)
        return Standing(int(rank), p, display(mu, sigma), games, wins, updated, program)

    async def profile(self, player: str, recent: int = 10) -> Profile:
        standing = await self.standing(player)
        history = [tuple(r) for r in await self._rows(HISTORY, player, 200)]
        by_players = [
            (int(n), int(g), int(w or 0)) for n, g, w in await self._rows(BY_PLAYERS, player)
        ]
        past: dict[str, PastGame] = {}  # a bot level at two seats: its best-ranked one
        for game, players, status, finished, outcome, seat, rated, seats in await self._rows(
            RECENT, player, recent * 4
        ):
            result = json.loads(outcome) if outcome else {}
            ranks = tuple(result.get("ranks", ()))
            known = past.get(game)
            if known is not None and not (ranks and ranks[int(seat)] < ranks[known.seat]):
                continue
            names = tuple(_seat_name(s) for s in json.loads(seats))
            past[game] = PastGame(
                game,
                int(players),
                str(status),
                float(finished or 0.0),
                int(seat),
                names,
                tuple(result.get("scores", ())),
                ranks,
                bool(rated),
            )
        return Profile(standing, history, by_players, list(past.values())[:recent])

    async def ban(self, name: str, reason: str = "") -> None:
        await self._statements(
            [
                ("DELETE FROM bans WHERE name = ?", (name.lower(),)),
                (
                    "INSERT INTO bans (name, at, reason) VALUES (?, ?, ?)",
                    (name.lower(), time.time(), reason),
                ),
            ]
        )

    async def unban(self, name: str) -> bool:
        [removed] = await self._statements([("DELETE FROM bans WHERE name = ?", (name.lower(),))])
        return removed > 0

    async def banned(self, name: str, key: str | None = None) -> str | None:
        rows = await self._rows(
            "SELECT reason FROM bans WHERE name = ? UNION ALL SELECT b.reason FROM bans b"
            " JOIN names n ON lower(n.name) = b.name WHERE n.key = ?",
            name.lower(),
            key or "",
        )
        return None if not rows else str(rows[0][0])

    async def language(self, name: str) -> Chosen | None:
        """The language the player of `name` chose (`shared.i18n`) and, for a right-to-left
        one, how their terminal shows it; None when they chose none."""
        sql = "SELECT language, reading FROM names WHERE name = ?"
        rows = await self._rows(sql, name.lower())
        if not rows or rows[0][0] is None:
            return None
        language, reading = rows[0]
        return str(language), None if reading is None else str(reading)

    async def set_language(self, name: str, language: str, reading: str | None = None) -> None:
        """Keep `language` (and `reading`) with the name, and so with its key; a name no
        key owns keeps nothing (a guest's choice lasts its session)."""
        sql = "UPDATE names SET language = ?, reading = ? WHERE name = ?"
        await self._statements([(sql, (language, reading, name.lower()))])

    async def mark_program(self, name: str, program: bool = True) -> bool:
        """Mark `name` as a program's (or not); False if it already was (or was not)."""
        name = name.lower()
        if not program:
            [removed] = await self._statements([("DELETE FROM programs WHERE name = ?", (name,))])
            return removed > 0
        if await self.is_program(name):
            return False
        insert = "INSERT INTO programs (name, at) VALUES (?, ?)"
        await self._statements([(insert, (name, time.time()))])
        return True

    async def is_program(self, name: str) -> bool:
        return bool(await self._rows("SELECT 1 FROM programs WHERE name = ?", name.lower()))

    async def rename(self, old: str, new: str) -> None:
        old, new = old.lower(), new.lower()
        if not await self._rows("SELECT 1 FROM names WHERE name = ?", old):
            raise StoreError(f"no player is called {old!r}")
        if await self._rows("SELECT 1 FROM names WHERE name = ?", new):
            raise StoreError(f"{new!r} is someone's name already")
        statements: list[Statement] = [
            ("UPDATE names SET name = ? WHERE name = ?", (new, old)),
            ("UPDATE ratings SET player = ? WHERE player = ?", (new, old)),
            ("UPDATE rating_history SET player = ? WHERE player = ?", (new, old)),
            ("UPDATE game_players SET player = ? WHERE player = ?", (new, old)),
            ("UPDATE games SET host = ? WHERE host = ?", (new, old)),
            ("UPDATE programs SET name = ? WHERE name = ?", (new, old)),
        ]
        theirs = (  # their games and the tables waiting (a seat not yet in game_players)
            "SELECT id, seats FROM games WHERE status = 'waiting'"
            " OR id IN (SELECT game FROM game_players WHERE player = ?)"
        )
        for game, seats in await self._rows(theirs, old):
            parsed = json.loads(seats)
            mine = [s for s in parsed if str(s.get("name")).lower() == old and not s.get("guest")]
            if mine:
                for s in mine:
                    s["name"] = new
                statements.append(
                    ("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(parsed), game))
                )
        await self._statements(statements)


def _seat_name(seat: dict[str, Any]) -> str:
    if seat.get("bot"):
        return bot_label(str(seat["bot"]))
    return str(seat.get("name") or "open")
