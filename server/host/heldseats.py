"""Seats of a waiting table held for invited players: the host invites a player to an open
seat, or to one held for someone else (whose invitation that calls off); the host's leaving
calls every invitation off (`Seating.stand`, in the same change). One part of
`server.host.table.Table`, over its `Seating`: the invitee accepts by sitting
(`Seating.sit` clears `invited`) and declines by standing."""

from __future__ import annotations

from dataclasses import replace

from shared.i18n import L_
from shared.protocol import TableStatus

from ..store import SeatRecord
from .identity import Identity
from .seat import Seat, TableError
from .seating import Seating


class HeldSeats:
    """The invitations of one table, stored as seats with `invited` set."""

    def __init__(self, seating: Seating) -> None:
        self._seating = seating

    def invited(self) -> list[Identity]:
        """The players whose seat is held and who have not accepted yet."""
        return [s.identity for s in self._seating.seats if s.identity and s.stored.invited]

    async def invite(
        self, identity: Identity, seat: int | None = None
    ) -> tuple[int, Identity | None]:
        """Hold `seat` (None: the first open one) for `identity`. Gives the seat and the
        player it was held for before (their invitation is called off), if any."""
        seating = self._seating
        async with seating.lock:
            done: list[tuple[int, Identity | None]] = []

            def edit() -> tuple[list[SeatRecord], str]:
                if seating.status is not TableStatus.WAITING:
                    raise TableError(L_("table {id} has already started", id=seating.id))
                if seating.seat_of(identity) is not None:
                    raise TableError(
                        L_(
                            "{name} already has a seat at table {id}",
                            name=identity.name,
                            id=seating.id,
                        )
                    )
                seats = seating.seats
                at = (
                    seat
                    if seat is not None
                    else next((i for i, s in enumerate(seats) if s.empty), None)
                )
                if at is None:
                    raise TableError(L_("table {id} has no open seat", id=seating.id))
                if not 0 <= at < len(seats) or not (seats[at].empty or seats[at].stored.invited):
                    raise TableError(
                        L_("seat {seat} at table {id} is not open", seat=at + 1, id=seating.id)
                    )
                records = seating.records()
                records[at] = replace(Seat(identity=identity).record(), invited=True)
                done[:] = [(at, seats[at].identity)]
                return records, seating.host

            await seating.edit(edit)
            return done[0]
