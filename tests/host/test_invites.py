"""Invitations to a table (issue 35): a seat held for a named player at the table's
creation or by its host's `Invite`; the invitee told at once and at login, accepting
with `Join`, declining with `Leave`; the start held until every invitee accepts; the
host calling an invitation off; and every name refused with its reason."""

from __future__ import annotations

from hostkit import HostConnection, identity, play_turn

from server.host.gamehost import GameHost
from shared.protocol import Create, Join, Leave, LobbyList, Notice, Start, TableUpdate
from shared.social import Invite


async def players(host: GameHost, *names: str) -> list[HostConnection]:
    """Players with a name of their own (its key claimed it), each connected once."""
    for name in names:
        assert await host.store.claim_name(name, f"SHA256:{name}-key")
    return [HostConnection(host, identity(name)) for name in names]


async def waiting_table(ann: HostConnection, *invite: str | None) -> str:
    """ann creates a table with a seat for each of `invite` (a name: held for them)."""
    seats = 1 + len(invite)
    ann.cmd(Create(seats, (None,) * seats, invite=(None, *invite)))
    listed = await ann.next_of(LobbyList, lambda m: m.waiting_at() is not None)
    table = listed.waiting_at()
    assert table is not None
    return table.id


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
