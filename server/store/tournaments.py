"""Club tournaments as stored (schema 6): one row each, its entrants and rounds as JSON,
changed only from the version a change names (two processes never overwrite each
other), and which games are its tables. A part each store holds (`Store.tournaments`),
written once for both backends over their `rows` and `statements`, like `ClubQueries`.

A round is stored (with its tables' ids) before any of its tables is made, so a process
that dies between the two leaves a round that the next one completes, never a second
pairing (docs/tournaments.md, "Reliability").
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any

from .club import Rows, Statements
from .records import StoreError

OPEN, RUNNING, DONE, CANCELLED = "open", "running", "finished", "cancelled"
STATUSES = (OPEN, RUNNING, DONE, CANCELLED)


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament is created with: `rounds` (a Swiss's; the other formats make
    their own), players a table (`seats`, 2 to 4: R2), its tables' clock (`shared.clock`
    notation), patience (seconds), rating and target (R15); when it starts (`start_at`, a
    time, and/or `start_players`, a number of entrants; neither: when an admin says),
    the most entrants, and whether bot levels may enter."""

    rounds: int = 4
    seats: int = 2
    clock: str = "none"
    patience: float = 600.0
    rated: bool = False
    target: int = 15
    start_at: float | None = None
    start_players: int | None = None
    max_players: int = 64
    bots: bool = False

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TournamentSettings:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass(frozen=True)
class Entrant:
    """A player entered: a name with its key, or a bot level (`bot`; its name is the
    level and a number, `easy-2`); its rating at entry (the seed); `out`: withdrawn (not
    paired from the next round on) or knocked out."""

    name: str
    key: str | None = None
    bot: str | None = None
    rating: int = 0
    out: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "key": self.key, "bot": self.bot, "rating": self.rating,
                "out": self.out}  # fmt: skip

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Entrant:
        return cls(str(d["name"]), d.get("key"), d.get("bot"), int(d.get("rating", 0)),
                   bool(d.get("out")))  # fmt: skip


@dataclass(frozen=True)
class StoredRound:
    """A round as stored: its tables (a game id and its players, in seat order) and byes."""

    tables: tuple[tuple[str, tuple[str, ...]], ...]
    byes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"tables": [[g, *names] for g, names in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> StoredRound:
        tables = tuple((str(t[0]), tuple(str(n) for n in t[1:])) for t in d.get("tables", ()))
        return cls(tables, tuple(str(b) for b in d.get("byes", ())))


@dataclass(frozen=True)
class TournamentRecord:
    """A stored tournament; `version` counts its changes (see the module docstring)."""

    id: str
    name: str
    format: str
    settings: TournamentSettings
    status: str = OPEN
    creator: str = ""
    created: float = 0.0
    version: int = 0
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[StoredRound, ...] = field(default=())

    @property
    def ids(self) -> frozenset[str]:
        """Every game of its rounds."""
        return frozenset(g for r in self.rounds for g, _ in r.tables)

    def entrant(self, name: str) -> Entrant | None:
        return next((e for e in self.entrants if e.name.lower() == name.lower()), None)

    def with_entrants(self, entrants: tuple[Entrant, ...]) -> TournamentRecord:
        return replace(self, entrants=entrants)


COLUMNS = "id, name, format, settings, status, creator, created, version, entrants, rounds"
INSERT = f"INSERT INTO tournaments ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)"
UPDATE = (
    "UPDATE tournaments SET status = ?, settings = ?, entrants = ?, rounds = ?,"
    " version = version + 1 WHERE id = ? AND version = ?"
)
ADD_GAME = (
    "INSERT INTO tournament_games (game, tournament, round) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
)


def _record(row: tuple[Any, ...]) -> TournamentRecord:
    tid, name, fmt, settings, status, creator, created, version, entrants, rounds = row
    return TournamentRecord(
        str(tid), str(name), str(fmt), TournamentSettings.from_json(json.loads(settings)),
        str(status), str(creator), float(created), int(version),
        tuple(Entrant.from_json(e) for e in json.loads(entrants)),
        tuple(StoredRound.from_json(r) for r in json.loads(rounds)),
    )  # fmt: skip


class TournamentQueries:
    """Tournaments over a store's `rows` and `statements` (`?` placeholders)."""

    def __init__(self, rows: Rows, statements: Statements) -> None:
        self._rows = rows
        self._statements = statements

    async def create(self, t: TournamentRecord) -> bool:
        """Store a new tournament at version 0; False if its id is taken."""
        if await self.load(t.id) is not None:
            return False
        args = (
            t.id, t.name, t.format, json.dumps(t.settings.to_json()), t.status, t.creator,
            t.created or time.time(), json.dumps([e.to_json() for e in t.entrants]),
            json.dumps([r.to_json() for r in t.rounds]),
        )  # fmt: skip
        try:
            await self._statements([(INSERT, args)])
        except Exception as e:  # the key taken between the look and the insert
            if await self.load(t.id) is not None:
                return False
            raise StoreError(f"tournament {t.id} could not be stored: {e}") from e
        return True

    async def new(
        self, name: str, format: str, settings: TournamentSettings, creator: str
    ) -> TournamentRecord:
        """A new open tournament under a fresh id (6 hex digits), stored."""
        for _ in range(20):
            t = TournamentRecord(secrets.token_hex(3), name, format, settings, OPEN, creator,
                                 time.time())  # fmt: skip
            if await self.create(t):
                return t
        raise StoreError("no free tournament id was found; try again")

    async def update(self, t: TournamentRecord) -> bool:
        """Store `t`'s status, settings, entrants and rounds if the stored one is still at
        `t.version` (it is then at version + 1); False if it was not."""
        entrants = json.dumps([e.to_json() for e in t.entrants])
        rounds = json.dumps([r.to_json() for r in t.rounds])
        args = (t.status, json.dumps(t.settings.to_json()), entrants, rounds, t.id, t.version)
        return (await self._statements([(UPDATE, args)]))[0] == 1

    async def add_games(self, tid: str, round_no: int, games: list[str]) -> None:
        """Record a round's tables as the tournament's (again: nothing changes)."""
        await self._statements([(ADD_GAME, (g, tid, round_no)) for g in games])

    async def load(self, tid: str) -> TournamentRecord | None:
        rows = await self._rows(f"SELECT {COLUMNS} FROM tournaments WHERE id = ?", tid)
        return _record(rows[0]) if rows else None

    async def all(self, statuses: tuple[str, ...] = STATUSES) -> list[TournamentRecord]:
        """Tournaments of these statuses, newest first."""
        marks = ", ".join("?" for _ in statuses)
        sql = f"SELECT {COLUMNS} FROM tournaments WHERE status IN ({marks}) ORDER BY created DESC"
        return [_record(r) for r in await self._rows(sql, *statuses)]

    async def of_game(self, game: str) -> tuple[str, int] | None:
        """The tournament a game is a table of, and its round, if any."""
        rows = await self._rows(
            "SELECT tournament, round FROM tournament_games WHERE game = ?", game
        )
        return (str(rows[0][0]), int(rows[0][1])) if rows else None
