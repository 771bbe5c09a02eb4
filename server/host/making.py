"""Making tables: a new waiting table stored before anyone sees it, this process's copy
of a stored one, and the deal's seed. A part of `server.host.lobby.Lobby`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from shared.clock import TimeControl
from shared.i18n import L_
from shared.protocol import TableStatus

from ..store import DEFAULT_SETTINGS, WAITING, GameRecord, Settings, Store
from .bots import BotPool
from .company import check_cap
from .hostsettings import HostSettings
from .identity import Identity, new_table_id
from .table import BUSY, Seat, Table, TableError


class TableMaker:
    """Makes and adds the lobby's `tables`; `changed` hears of every change of a table,
    `rematch` of a table made as a rematch."""

    def __init__(
        self,
        store: Store,
        bots: BotPool,
        settings: HostSettings,
        tables: dict[str, Table],
        changed: Callable[[Table, bool], None],
        rematch: Callable[[Table], None],
    ) -> None:
        self.store = store
        self.bots = bots
        self.settings = settings
        self.tables = tables
        self._changed = changed
        self._rematch = rematch
        self.seed_asked: dict[str, int] = {}  # table id -> the seed its creator asked for

    async def create(
        self,
        identity: Identity,
        bots: Sequence[str | None],
        rated: bool,
        clock: TimeControl,
        patience: float = DEFAULT_SETTINGS.patience,
        target: int = DEFAULT_SETTINGS.target,
        invited: Sequence[Identity | None] = (),
    ) -> Table:
        """A waiting table with `identity`'s player at seat 0, stored before anyone sees
        it, with its clock, patience and target (R15: its game's settings are made from
        the seats and it). `invited[i]`: seat i+1 is held for that player (`InviteDesk`). A
        host without ratings (offline play) makes every table casual."""
        check_cap(self.tables, self.settings, identity, clock.correspondence)
        settings = Settings(str(clock), patience, target=target)
        rated = rated and self.settings.ratings
        seats = [Seat(identity=identity).record()] + [Seat(bot=b).record() for b in bots]
        for i, who in enumerate(invited[: len(bots)], 1):
            if who is not None:
                seats[i] = replace(Seat(identity=who).record(), invited=True)
        for _ in range(20):
            table_id = new_table_id()
            if table_id not in self.tables and await self.store.create_table(
                table_id, seats, identity.name, rated, settings
            ):
                break
        else:
            raise TableError(BUSY)
        record = GameRecord(
            table_id, None, tuple(seats), identity.name, WAITING, time.time(),
            rated=rated, settings=settings,
        )  # fmt: skip
        return self.add(record)

    def add(self, record: GameRecord) -> Table:
        """This process's copy of a stored table: the one it has already, if it has one
        (the news of a table made here can come back before its maker has added it)."""
        table = self.tables.get(record.id)
        if table is None:
            pause, now = self.settings.bot_pause, self.settings.now
            table = Table(record, self.store, self.bots, self._changed, pause, now)
            self.tables[table.id] = table
            if record.settings.rematch_of is not None:
                self._rematch(table)
        return table

    def open_table(self, table_id: str) -> Table:
        """A table not finished, by its id; else a refusal."""
        table = self.tables.get(table_id)
        if table is None or table.status is TableStatus.FINISHED:
            raise TableError(L_("there is no table {table_id!r}", table_id=table_id))
        return table

    def seed(self, asked: int | None = None) -> int:
        """The deal's seed: the one the player asked for where the host allows it."""
        if asked is not None and self.settings.client_seeds:
            return asked
        return self.settings.seeds()

    def forget(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self.seed_asked.pop(table_id, None)
