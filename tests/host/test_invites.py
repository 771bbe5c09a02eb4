"""Invitations to a table (issue 35): a seat held for a named player at the table's
creation or by its host's `Invite`; the invitee told at once and at login, accepting
with `Join`, declining with `Leave`; the start held until every invitee accepts; the
host calling an invitation off; every name refused with its reason; the caps (a held seat
counts once accepted, and a player holds few invitations); and a refusal told on every
process of a cluster."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from hostkit import FakeClock, HostConnection, StartHost, identity, play_turn, quick_settings

from server.host.gamehost import GameHost
from shared.protocol import Create, Join, Leave, LobbyList, Notice, Start, TableStatus, TableUpdate
from shared.social import Invite


async def players(host: GameHost, *names: str) -> list[HostConnection]:
    """Players with a name of their own (its key claimed it), each connected once."""
    for name in names:
        assert await host.store.claim_name(name, f"SHA256:{name}-key")
    return [HostConnection(host, identity(name)) for name in names]


async def waiting_table(ann: HostConnection, *invite: str | None, but: str = "") -> str:
    """ann creates a table with a seat for each of `invite` (a name: held for them); `but`:
    a table ann is invited to (listed among hers too)."""
    seats = 1 + len(invite)
    ann.cmd(Create(seats, (None,) * seats, invite=(None, *invite)))
    listed = await ann.next_of(LobbyList, lambda m: made(m, but) is not None)
    table = made(listed, but)
    assert table is not None
    return table


def made(lobby: LobbyList, but: str) -> str | None:
    """A waiting table of this player's other than `but`."""
    waiting = [t.id for t in lobby.tables if t.status is TableStatus.WAITING]
    return next((t for t in waiting if t in lobby.mine and t != but), None)


def invited(lobby: LobbyList, table: str) -> list[str | None]:
    """The names a table's seats are held for, None for the others."""
    summary = lobby.table(table)
    assert summary is not None
    return [s.name if s.invited else None for s in summary.seats]


async def test_an_invitation_at_creation_is_told_accepted_and_the_game_starts(
    host: GameHost,
) -> None:
    ann, bob = await players(host, "ann", "bob")
    table = await waiting_table(ann, "bob")
    told = await bob.next_of(Notice, lambda n: n.level == "call")
    assert told.text == f"ann invites you to table {table}: j accepts · l declines"
    lobby = await bob.next_of(LobbyList, lambda m: table in m.mine)
    assert invited(lobby, table) == [None, "bob"]
    ann.cmd(Start())
    refused = await ann.next_of(Notice)
    assert refused.text == "the game starts once every invited player accepts (waiting: bob)"
    bob.cmd(Join(table))
    await ann.next_of(LobbyList, lambda m: invited(m, table) == [None, None])
    ann.cmd(Start())
    for conn in (ann, bob):
        await conn.next_of(TableUpdate, lambda m: m.table == table)
    first, second = (ann, bob) if ann.view.my_turn else (bob, ann)
    await play_turn(first)
    await play_turn(second)
    record = await host.store.load_game(table)
    assert record is not None and len(record.moves) >= 2


async def test_a_declined_invitation_opens_the_seat_and_tells_the_host(host: GameHost) -> None:
    ann, bob = await players(host, "ann", "bob")
    table = await waiting_table(ann, None)
    ann.cmd(Invite("Bob"))  # names compare without case
    await bob.next_of(Notice, lambda n: n.level == "call")
    await ann.next_of(LobbyList, lambda m: invited(m, table) == [None, "bob"])
    bob.cmd(Leave())
    said = await ann.next_of(Notice)
    assert said.text == f"bob declined the invitation to table {table}" and said.level == "info"
    lobby = await ann.next_of(LobbyList, lambda m: invited(m, table) == [None, None])
    summary = lobby.table(table)
    assert summary is not None and summary.seats[1].open
    await bob.next_of(LobbyList, lambda m: table not in m.mine)


async def test_an_invitation_waits_for_the_invitees_login(host: GameHost) -> None:
    (ann,) = await players(host, "ann")
    assert await host.store.claim_name("bob", "SHA256:bob-key")
    table = await waiting_table(ann, "bob", None)
    bob = HostConnection(host, identity("bob"))
    told = await bob.next_of(Notice, lambda n: n.level == "call")
    assert told.text == f"ann invites you to table {table}: j accepts · l declines"


async def test_the_host_calls_invitations_off_by_inviting_another_or_by_leaving(
    host: GameHost,
) -> None:
    ann, bob, cy = await players(host, "ann", "bob", "cy")
    table = await waiting_table(ann, "bob")
    await bob.next_of(Notice, lambda n: n.level == "call")
    ann.cmd(Invite("cy", 1))  # the seat held for bob goes to cy
    await cy.next_of(Notice, lambda n: n.level == "call")
    off = await bob.next_of(Notice)
    assert off.text == f"the invitation to table {table} was called off"
    ann.cmd(Leave())
    off = await cy.next_of(Notice, lambda n: n.level == "info")
    assert off.text == f"the invitation to table {table} was called off"
    await cy.next_of(LobbyList, lambda m: m.table(table) is None)  # the table closed


async def test_every_name_that_cannot_be_invited_is_refused_with_why(host: GameHost) -> None:
    ann, bob, cy = await players(host, "ann", "bob", "cy")
    guest = HostConnection(host, identity("guest-7f3a", guest=True))
    cases = [
        ("nobody", "there is no player named nobody here"),
        ("not a name!", "there is no player named not a name! here"),
        ("ann", "you cannot invite yourself"),
        (
            "guest-7f3a",
            "guest-7f3a is a guest: only a player with a name of their own can be invited",
        ),
    ]
    ann.cmd(Invite("bob"))
    assert (await ann.next_of(Notice)).text == "you are not at a table waiting to start"
    table = await waiting_table(ann, None, None)
    for name, why in cases:
        ann.cmd(Invite(name))
        assert (await ann.next_of(Notice)).text == why
    bob.cmd(Join(table))
    await ann.next_of(LobbyList, lambda m: "bob" in [s.name for s in m.table(table).seats])  # type: ignore[union-attr]
    ann.cmd(Invite("bob"))
    assert (await ann.next_of(Notice)).text == f"bob already has a seat at table {table}"
    bob.cmd(Invite("cy"))
    only = f"only ann, who hosts table {table}, can invite players to it"
    assert (await bob.next_of(Notice)).text == only
    ann.cmd(Invite("cy", 1))
    assert (await ann.next_of(Notice)).text == f"seat 2 at table {table} is not open"
    ann.cmd(Invite("cy"))
    await cy.next_of(Notice, lambda n: n.level == "call")
    ann.cmd(Invite("dan"))
    assert (await ann.next_of(Notice)).text == "there is no player named dan here"
    assert await host.store.claim_name("dan", "SHA256:dan-key")
    ann.cmd(Invite("dan"))
    assert (await ann.next_of(Notice)).text == f"table {table} has no open seat"
    guest.cmd(Create(3, (None, None, None), invite=(None, "bob", "BOB")))
    assert (await guest.next_of(Notice)).text == "bob is invited to two seats"


def cap(host: GameHost, tables: int) -> None:
    """At most `tables` live tables a player (and as many invitations waiting)."""
    host.lobby.settings = replace(host.lobby.settings, max_tables_per_player=tables)


async def test_a_pending_invitation_does_not_use_up_the_invitees_cap(host: GameHost) -> None:
    cap(host, 1)
    ann, bob = await players(host, "ann", "bob")
    table = await waiting_table(ann, "bob")
    await bob.next_of(Notice, lambda n: n.level == "call")
    mine = await waiting_table(bob, None, but=table)  # the seat held for bob does not count
    assert host.lobby.tables[mine].seat_of(identity("bob")) == 0


async def test_accepting_an_invitation_at_the_cap_is_refused(host: GameHost) -> None:
    cap(host, 1)
    ann, bob = await players(host, "ann", "bob")
    table = await waiting_table(ann, "bob")
    await bob.next_of(Notice, lambda n: n.level == "call")
    mine = await waiting_table(bob, None, but=table)
    bob.cmd(Join(table))
    refused = await bob.next_of(Notice)
    assert refused.text == f"you already have a seat at 1 tables ({mine}); leave one first"
    assert host.lobby.tables[table].held.invited() == [identity("bob")]
    bob.cmd(Leave())  # from his own table: it closes
    await bob.next_of(LobbyList, lambda m: m.table(mine) is None)
    bob.cmd(Join(table))
    await ann.next_of(LobbyList, lambda m: invited(m, table) == [None, None])


async def test_a_player_holds_as_many_invitations_waiting_as_tables_and_no_more(
    host: GameHost,
) -> None:
    cap(host, 2)
    ann, bob, cy, dan = await players(host, "ann", "bob", "cy", "dan")
    await waiting_table(ann, "bob")
    await waiting_table(cy, "bob")
    full = "bob has as many invitations waiting as a player may hold (2); "
    full += "invite them again once they have answered one"
    dan.cmd(Create(2, (None, None), invite=(None, "bob")))
    assert (await dan.next_of(Notice)).text == full
    table = await waiting_table(dan, None)
    dan.cmd(Invite("bob"))
    assert (await dan.next_of(Notice)).text == full
    bob.skip()
    bob.cmd(Leave())  # bob declines one (the lobby's first): dan may invite him now
    await bob.next_of(LobbyList, lambda m: len(m.mine) == 1)
    dan.cmd(Invite("bob"))
    await dan.next_of(LobbyList, lambda m: invited(m, table) == [None, "bob"])


async def test_a_refusal_on_another_process_is_told_there_as_a_refusal(
    tmp_path: Path, start_host: StartHost, postgres: Any, clock: FakeClock
) -> None:
    """ann (on a) invites bob, who is on a and on b; bob declines on b: ann hears that he
    declined, and bob's session on a is not told the invitation was called off. Then the
    host's leaving on a is a calling off on b."""
    url = postgres.create_database()
    a = await start_host(tmp_path / "a", quick_settings(now=clock), database=url)
    b = await start_host(tmp_path / "b", quick_settings(now=clock), database=url)
    (ann,) = await players(a, "ann")
    assert await a.store.claim_name("bob", "SHA256:bob-key")
    bob_a, bob_b = HostConnection(a, identity("bob")), HostConnection(b, identity("bob"))
    table = await waiting_table(ann, "bob")
    for bob in (bob_a, bob_b):
        await bob.next_of(Notice, lambda n: n.level == "call")
    bob_b.cmd(Leave())
    said = await ann.next_of(Notice)
    assert said.text == f"bob declined the invitation to table {table}" and said.level == "info"
    await bob_a.next_of(LobbyList, lambda m: table not in m.mine)
    await bob_b.next_of(LobbyList, lambda m: table not in m.mine)
    for bob in (bob_a, bob_b):
        assert not [m for m in bob.messages if isinstance(m, Notice) and m.level == "info"]
    ann.cmd(Invite("bob"))
    for bob in (bob_a, bob_b):
        await bob.next_of(Notice, lambda n: n.level == "call")
    ann.cmd(Leave())
    for bob in (bob_a, bob_b):
        off = await bob.next_of(Notice)
        assert off.text == f"the invitation to table {table} was called off"
