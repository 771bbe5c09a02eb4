"""Chat (issue 12): the lobby's and a table's, names the server gives, cleaning, limits,
spectators, bans, removal by an admin, and chat kept with the game's record."""

from __future__ import annotations

import asyncio
import contextlib
import io

from hostkit import HostConnection, identity, play_to_end, table_of

from server.commands import admin
from server.host.chat import BURST, LOBBY_LINES
from server.host.gamehost import GameHost
from shared.codec import dumps
from shared.gamerecord import parse_record
from shared.protocol import AskRecord, ChatLines, GameRecordText, Notice, Say, Watch
from shared.social import LOBBY


def said(conn: HostConnection, where: str = LOBBY) -> list[tuple[str, str]]:
    """What `conn` was shown of a place's chat, as (name, text), whole lists replacing."""
    lines: list[tuple[str, str]] = []
    for m in conn.messages:
        if isinstance(m, ChatLines) and m.where == where:
            got = [(x.name, x.text) for x in m.lines]
            lines = got if m.whole else lines + got
    return lines


async def heard(conn: HostConnection, text: str, where: str = LOBBY) -> ChatLines:
    return await conn.next_of(
        ChatLines, lambda m: m.where == where and any(x.text == text for x in m.lines)
    )


async def test_the_lobby_hears_a_line_with_the_servers_name_for_its_sender(
    host: GameHost,
) -> None:
    ann, bob = HostConnection(host, identity("ann")), HostConnection(host, identity("bob"))
    ann.send(dumps({"t": "say", "text": "hello all", "name": "admin"}))  # a name: ignored
    line = (await heard(bob, "hello all")).lines[0]
    assert line.name == "ann" and line.id > 0
    guest = HostConnection(host, identity("eve", guest=True))
    guest.cmd(Say("\x1b]0;I am admin\x07hi \u202eall"))
    assert (await heard(ann, "hi all")).lines[0].name == "eve"
    late = HostConnection(host, identity("cy"))  # arriving: the latest lines
    whole = await late.next_of(ChatLines)
    assert whole.whole and [x.text for x in whole.lines] == ["hello all", "hi all"]


async def test_length_rate_and_emptiness_are_limited(host: GameHost) -> None:
    ann = HostConnection(host, identity("ann"))
    ann.cmd(Say("x" * 201))
    assert "200 characters at most" in (await ann.next_of(Notice)).text
    ann.cmd(Say("\x1b[2J\x07 \u200b"))
    assert "nothing to say" in (await ann.next_of(Notice)).text
    for i in range(BURST):
        ann.cmd(Say(f"line {i}"))
    ann.cmd(Say("one too many"))
    assert "slow down" in (await ann.next_of(Notice)).text
    ann.cursor = 0  # the lines may have come before the refusal
    await heard(ann, f"line {BURST - 1}")
    assert "one too many" not in [t for _, t in said(ann)]


async def test_the_lobby_keeps_its_latest_lines(host: GameHost) -> None:
    talkers = [HostConnection(host, identity(f"p{i}")) for i in range(LOBBY_LINES // 4 + 1)]
    for i in range(LOBBY_LINES + 4):
        talkers[i % len(talkers)].cmd(Say(f"n{i}"))
        await heard(talkers[0], f"n{i}")  # one after the other
    late = HostConnection(host, identity("late"))
    whole = await late.next_of(ChatLines)
    assert [x.text for x in whole.lines] == [f"n{i}" for i in range(4, LOBBY_LINES + 4)]


async def test_players_who_sat_before_the_start_hear_each_other(host: GameHost) -> None:
    (ann, bob), table_id = await table_of(host, ("ann", "bob"))
    ann.cmd(Say("good luck"))
    line = (await heard(bob, "good luck", table_id)).lines[0]
    assert line.name == "ann" and line.turn == 1 and not line.spectator


async def test_spectators_talk_among_themselves_until_the_game_ends(host: GameHost) -> None:
    (ann, bob), table_id = await table_of(host, ("ann", "bob"))
    cy = HostConnection(host, identity("cy"))
    cy.cmd(Watch(table_id))
    ann.cmd(Say("good luck"))
    cy.cmd(Say("ann will win"))
    await heard(cy, "ann will win", table_id)
    await heard(bob, "good luck", table_id)
    assert ("cy", "ann will win") not in said(bob, table_id)
    line = next(x for m in cy.messages if isinstance(m, ChatLines) for x in m.lines)
    assert line.turn >= 1
    bob.cmd(Say("thanks"))
    await heard(ann, "thanks", table_id)
    assert said(ann, table_id) == [("ann", "good luck"), ("bob", "thanks")]

    await asyncio.gather(play_to_end(ann), play_to_end(bob))
    bob.cursor = 0  # playing on skipped what came meanwhile
    everyone = await bob.next_of(ChatLines, lambda m: m.whole and len(m.lines) == 3)
    assert ("cy", "ann will win") in [(x.name, x.text) for x in everyone.lines]

    ann.cmd(AskRecord(table_id))
    record = parse_record((await ann.next_of(GameRecordText)).text)
    comments = " ".join(c for said in record.comments.values() for c in said)
    assert "ann: good luck" in comments and "cy: ann will win" in comments


async def test_a_banned_name_cannot_chat(host: GameHost) -> None:
    mal = HostConnection(host, identity("mallory"))
    await host.store.ban("mallory", "spam")
    mal.cmd(Say("buy cheap gems"))
    assert "banned" in (await mal.next_of(Notice)).text


async def test_an_admin_removes_a_line_from_every_screen(host: GameHost) -> None:
    ann, bob = HostConnection(host, identity("ann")), HostConnection(host, identity("bob"))
    ann.cmd(Say("something rude"))
    ann.cmd(Say("sorry"))
    line = next(x for x in (await heard(bob, "something rude")).lines)
    await heard(bob, "sorry")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # the command line runs its own event loop: a thread
        code = await asyncio.to_thread(
            admin.main, ["chat-remove", str(line.id), "--database", host.database]
        )
    assert code == 0 and "removed line" in out.getvalue()
    after = await bob.next_of(ChatLines, lambda m: m.whole)
    assert [x.text for x in after.lines] == ["sorry"]
    listed = io.StringIO()
    with contextlib.redirect_stdout(listed):
        await asyncio.to_thread(admin.main, ["chat", "--database", host.database])
    assert "sorry" in listed.getvalue() and "something rude" not in listed.getvalue()


async def test_the_admin_reads_stored_lines_as_plain_text(host: GameHost) -> None:
    """A database copied from elsewhere may hold lines no server of ours cleaned."""
    await host.store.add_chat(None, 0, 0, "mal\u202elory", "\x1b]0;PWNED\x07hi\x9b2J", False)
    listed = io.StringIO()
    with contextlib.redirect_stdout(listed):
        await asyncio.to_thread(admin.main, ["chat", "--database", host.database])
    assert "mallory: hi" in listed.getvalue()
    assert not any(ch in listed.getvalue() for ch in "\x1b\x07\x9b\u202e")
