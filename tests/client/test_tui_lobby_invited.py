"""The lobby of a player waiting at a table of their own and invited to another: their
table stays theirs (s, i and l act on it), the invitation is said below it, and j or l
on the invited table accepts or declines that one (`Join`, `Leave(table)`)."""

from __future__ import annotations

from clientkit import FakeConnection, screen_text, wait_for

from client.app import SplendorApp
from shared.protocol import (
    Join,
    Leave,
    LobbyList,
    SeatSummary,
    Start,
    TableStatus,
    TableSummary,
    Welcome,
    encode,
)

HELD = (SeatSummary("Bob"), SeatSummary("Ann", invited=True))
HERS = TableSummary("t9", "Bob", TableStatus.WAITING, HELD)
MINE = TableSummary("t17", "Ann", TableStatus.WAITING, (SeatSummary("Ann"), SeatSummary(None)))


def keys(app: SplendorApp) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


async def test_at_her_own_table_and_invited_ann_keeps_hers_and_answers_the_invitation() -> None:
    """Rows: the invitation first in the list; Ann's lobby shows t17 as hers and the
    invitation line; on t9 (selected) the keys accept, l sends Leave("t9"), j Join("t9");
    on t17 l sends Leave() and s Start()."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(LobbyList((HERS, MINE), ("Ann", "Bob"), ("t9", "t17"))))
        await wait_for(pilot, lambda: "Your table t17 (waiting)" in screen_text(app))
        text = screen_text(app)
        assert "Bob invites you to table t9: select it, j accepts, l declines" in text
        assert "s starts the game · l leaves" in text
        assert "j Accept" in keys(app) and "s Start" not in keys(app)  # t9 is selected
        assert "l Decline" in keys(app) and "l Leave" not in keys(app)
        await pilot.press("l")
        assert conn.sent[-1] == Leave("t9")  # that invitation, not her own table
        await pilot.press("j")
        assert conn.sent[-1] == Join("t9")
        await pilot.press("down")  # to t17, her own
        await wait_for(pilot, lambda: "s Start" in keys(app))
        assert "l Leave" in keys(app)  # her own table: l leaves it
        await pilot.press("l")
        assert conn.sent[-1] == Leave()
        await pilot.press("s")
        assert conn.sent[-1] == Start()
        conn.deliver(encode(LobbyList((HERS,), ("Ann", "Bob"), ("t9",))))  # she left t17
        await wait_for(pilot, lambda: "Bob invites you: j accepts · l declines" in screen_text(app))
        await pilot.press("l")
        assert conn.sent[-1] == Leave("t9")  # the invitation shown, declined
