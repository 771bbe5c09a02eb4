"""Invitations to a table: a seat held for a named player, at the table's creation (`Create`'s
`invite`) or by its host at the waiting table (`Invite`). A part of `server.host.lobby.Lobby`.

The name must be a player's (a key owns it), not the inviter's, not a guest's (a guest has
no lasting name) and not someone seated there already. The invitee is told at once on
every process they are on (a notice with the bell) and again when they log in; they accept
with `Join` of the table and decline with `Leave` from the lobby, which opens the seat
again and tells the table. The host calls an invitation off by leaving, or by inviting
someone else to that seat; the invitee is told. A rematch's invitations
(`server.host.company`) are shown by the rematch offer, not told here.

A player holds at most `max_tables_per_player` invitations not answered, so that nobody
piles them up (nor rings their bell without end); a held seat does not count in their cap
on tables until accepted (`company.check_cap`). Every process tells a refusal and a calling
off from the table's news alone (`changed`): it remembers which seats each table held and
who hosted it; a seat held before and open now, under the same host, was refused (the
host's leaving changes the host or closes the table, in the same change).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from shared import protocol
from shared.i18n import L_, Text
from shared.protocol import TableStatus

from ..store import Store
from .identity import GUEST_PREFIX, Identity, check_name
from .link import HostLink
from .places import Places
from .seat import TableError, same_player
from .table import Table


class InviteDesk:
    """Checks the names invited, tells the invitees, and takes their refusals; `stand`
    takes a player from a waiting table, `call_off` calls a rematch off (the lobby's)."""

    def __init__(
        self,
        store: Store,
        tables: dict[str, Table],
        places: Places,
        stand: Callable[[Table, Identity], Awaitable[None]],
        call_off: Callable[[Table, Identity], Awaitable[None]],
        most: Callable[[], int],
    ) -> None:
        self.store = store
        self.tables = tables
        self.places = places
        self._stand = stand
        self._call_off = call_off
        self._most = most  # how many invitations a player may hold unanswered
        self._told: dict[str, set[HostLink]] = {}  # table id → sessions told of it here
        # table id → its host and the players its seats were held for, as last seen
        self._held: dict[str, tuple[str, dict[int, Identity]]] = {}

    # -- names ---------------------------------------------------------------------

    async def player(self, inviter: Identity, name: str) -> Identity:
        """The player `name` names, as a seat holds them; else a refusal saying why."""
        if name.casefold().startswith(GUEST_PREFIX):
            raise TableError(
                L_("{name} is a guest: only a player with a name of their own can be invited",
                   name=name)
            )  # fmt: skip
        try:
            name = check_name(name)
        except ValueError:
            raise TableError(L_("there is no player named {name} here", name=name)) from None
        if name == inviter.name.casefold():
            raise TableError(L_("you cannot invite yourself"))
        key = await self.store.name_owner(name)
        if key is None:
            raise TableError(L_("there is no player named {name} here", name=name))
        who = Identity(name, False, key, await self.store.is_program(name))
        pending = [t for t in self.tables.values() if t.status is TableStatus.WAITING]
        if sum(_held(t, who) for t in pending) >= self._most():
            raise TableError(
                L_("{name} has as many invitations waiting as a player may hold ({count}); "
                   "invite them again once they have answered one", name=name,
                   count=self._most())
            )  # fmt: skip
        return who

    async def players(
        self, inviter: Identity, names: Sequence[str | None]
    ) -> list[Identity | None]:
        """`Create`'s invitations, one name or None a seat (seat 0 is the creator's)."""
        out: list[Identity | None] = []
        for name in names:
            who = None if name is None else await self.player(inviter, name)
            if who is not None and any(o and same_player(o, who) for o in out):
                raise TableError(L_("{name} is invited to two seats", name=who.name))
            out.append(who)
        return out

    # -- at a waiting table --------------------------------------------------------

    async def invite(
        self, link: HostLink, table: Table | None, name: str, seat: int | None
    ) -> None:
        """`Invite` from `link`, at `table` (None: the lobby)."""
        if table is None or table.status is not TableStatus.WAITING:
            raise TableError(L_("you are not at a table waiting to start"))
        if not table.hosted_by(link.identity):
            raise TableError(
                L_("only {host}, who hosts table {id}, can invite players to it",
                   host=table.host, id=table.id)
            )  # fmt: skip
        if table.settings.rematch_of is not None:
            raise TableError(L_("a rematch is for the players of the game before it"))
        who = await self.player(link.identity, name)
        await table.held.invite(who, seat)
        self.changed(table)

    def invitation(self, identity: Identity, table: str | None = None) -> Table | None:
        """A waiting table (a rematch too) where this player's seat is held for them
        (`table`: that one, the one a player waiting at a table of their own declines)."""
        for held in self.tables.values():
            if table is not None and held.id != table:
                continue
            if held.status is TableStatus.WAITING and _held(held, identity):
                return held
        return None

    async def decline(self, table: Table, identity: Identity) -> None:
        """The invitee says no: a rematch is called off; else their seat is open again
        and the players at the table are told, on every process (`changed`)."""
        if table.settings.rematch_of is not None:
            await self._call_off(table, identity)
            return
        await self._stand(table, identity)

    # -- telling the invitees ------------------------------------------------------

    def arrived(self, link: HostLink) -> None:
        """A new session: told of every invitation its player has."""
        for table in list(self.tables.values()):
            if table.status is TableStatus.WAITING and table.settings.rematch_of is None:
                if _held(table, link.identity):
                    self._tell(link, table)

    def left(self, link: HostLink) -> None:
        """A session dropped: it is told nothing more."""
        for told in self._told.values():
            told.discard(link)

    def note(self, table: Table) -> None:
        """A table new to this process: the seats it holds are remembered, so that its
        next change tells a refusal from a calling off."""
        if table.id not in self._held and _open(table):
            self._held[table.id] = (table.host, _holds(table))

    def changed(self, table: Table) -> None:
        """`table`'s seats or status changed (here or on another process): sessions of a
        player invited to it now are told; the players at it hear who declined; those
        whose invitation is gone, unless they accepted or declined it, hear that it was
        called off."""
        told = self._told.get(table.id)
        waiting = _open(table)
        host, before = self._held.pop(table.id, (table.host, {}))
        if waiting:
            self._held[table.id] = (table.host, _holds(table))
        declined = [
            who
            for at, who in before.items()
            if waiting and host == table.host and table.seats[at].empty
            and table.seat_of(who) is None
        ]  # fmt: skip
        for who in declined:
            text = L_("{name} declined the invitation to table {table}", name=who.name,
                      table=table.id)  # fmt: skip
            for link in self.places:
                if _sits(table, link.identity):
                    link.deliver(protocol.notice(text, "info"))
        if not waiting and told is None:
            return
        for link in self.places:
            held = waiting and _held(table, link.identity)
            if held and (told is None or link not in told):
                self._tell(link, table)
            elif not held and told is not None and link in told:
                told.discard(link)
                mine = any(same_player(link.identity, who) for who in declined)
                if table.seat_of(link.identity) is None and not mine:
                    said = L_("the invitation to table {table} was called off", table=table.id)
                    link.deliver(protocol.notice(said, "info"))
        if not waiting or not self._told.get(table.id):
            self._told.pop(table.id, None)

    def _tell(self, link: HostLink, table: Table) -> None:
        self._told.setdefault(table.id, set()).add(link)
        text: Text = L_(
            "{host} invites you to table {table}: j accepts · l declines",
            host=table.host,
            table=table.id,
        )
        link.deliver(protocol.notice(text, "call"))  # "call": with the bell


def _held(table: Table, identity: Identity) -> bool:
    """Whether `table` holds a seat for `identity`'s player, not accepted yet."""
    seat = table.seat_of(identity)
    return seat is not None and table.seats[seat].stored.invited


def _sits(table: Table, identity: Identity) -> bool:
    """Whether `identity`'s player sits at `table` (not only invited to it)."""
    seat = table.seat_of(identity)
    return seat is not None and not table.seats[seat].stored.invited


def _open(table: Table) -> bool:
    """A waiting table whose invitations are told here (a rematch's are not)."""
    return table.status is TableStatus.WAITING and table.settings.rematch_of is None


def _holds(table: Table) -> dict[int, Identity]:
    """The players `table`'s seats are held for, by seat."""
    return {
        i: s.identity
        for i, s in enumerate(table.seats)
        if s.identity is not None and s.stored.invited
    }
