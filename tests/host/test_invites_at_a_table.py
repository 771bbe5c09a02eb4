"""Invitations to a player who waits at a table of their own: `Leave(table)` declines
that invitation and keeps their table; `Leave` of a table they hold no invitation to is
refused with why; `Join` of the invited table accepts it, and their own is given up."""

from __future__ import annotations

from hostkit import HostConnection
from test_invites import invited, players, waiting_table

from server.host.gamehost import GameHost
from shared.protocol import Join, Leave, LobbyList, Notice, TableStatus
from shared.social import Invite


async def bob_at_his_table_invited(
    host: GameHost,
) -> tuple[HostConnection, HostConnection, str, str]:
    """ann's table (older), bob's own, then ann invites bob: both ids."""
    ann, bob = await players(host, "ann", "bob")
    hers = await waiting_table(ann, None)
    his = await waiting_table(bob, None)
    ann.cmd(Invite("bob"))
    await bob.next_of(Notice, lambda n: n.level == "call")
    await bob.next_of(LobbyList, lambda m: invited(m, hers) == [None, "bob"])
    return ann, bob, hers, his


async def test_leave_of_the_invited_table_declines_it_and_keeps_his_own(host: GameHost) -> None:
    ann, bob, hers, his = await bob_at_his_table_invited(host)
    bob.cmd(Leave(hers))
    said = await ann.next_of(Notice)
    assert said.text == f"bob declined the invitation to table {hers}"
    lobby = await bob.next_of(LobbyList, lambda m: hers not in m.mine)
    own = lobby.table(his)
    assert lobby.mine == (his,) and own is not None and own.status is TableStatus.WAITING
    assert own.seats[0].name == "bob" and not own.seats[0].invited
    bob.cmd(Leave(hers))  # no invitation there any more
    refused = await bob.next_of(Notice)
    assert refused.text == f"you have no invitation to table {hers}"


async def test_join_of_the_invited_table_accepts_it_and_gives_his_own_up(host: GameHost) -> None:
    _ann, bob, hers, his = await bob_at_his_table_invited(host)
    bob.cmd(Join(hers))
    lobby = await bob.next_of(LobbyList, lambda m: m.mine == (hers,) and m.table(his) is None)
    assert invited(lobby, hers) == [None, None]
