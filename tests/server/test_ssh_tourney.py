"""A whole Swiss over SSH (issue 36): 9 entrants, 4 rounds at tables of 3, two humans who
enter from the lobby by keys (one at 80x24) and seven bot entrants. Each round starts
by itself when the last game of the one before ends; the humans are taken to their
table, called with the bell, and play every game by keys to the end; the standings and
the export are right at the end."""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import asyncssh
from gamekit import Record, game_server, play_to_end
from sshkit import Player

from server.host.tourneytext import export
from server.store.tournaments import DONE, TournamentSettings
from shared.protocol import Notice, TableUpdate
from shared.tournament import SWISS

ROUND_WAIT = 120.0  # seconds a round may take at most (two humans play by keys)


async def enter_by_keys(player: Player, tid: str, back: bool = True) -> None:
    """From the lobby: o (the tournaments), e (enter the selected one: its page opens),
    and `back`: Esc twice (the list, the lobby). The last entrant starts the tournament
    and is taken to a table from the page."""
    await player.wait_for("Splendor lobby")
    player.press("o")
    await player.wait_for(tid)
    player.press("e")
    await player.wait_for("✓ you are in it")
    if not back:
        return
    player.press("\x1b")
    await player.wait_for("Tournaments —")
    player.press("\x1b")
    await player.wait_for("Splendor lobby")


async def play_rounds(player: Player, record: Record, rounds: int) -> list[str]:
    """Each round: wait to be taken to a new table, play its game to the end."""
    played: list[str] = []
    for _ in range(rounds):
        msg = await record.wait(
            lambda m: isinstance(m, TableUpdate) and m.table not in played and not m.view.is_over,
            timeout=ROUND_WAIT,
        )
        assert isinstance(msg, TableUpdate)
        played.append(msg.table)
        await play_to_end(player, record, limit=400)
    return played


async def test_a_swiss_of_four_rounds_with_nine_entrants_over_ssh(
    tmp_path: Path, bot_executor: ProcessPoolExecutor
) -> None:
    async with game_server(tmp_path, bot_executor) as game:
        desk = game.host.tourneys
        assert desk is not None
        desk.tick = 0.2
        store = game.host.store
        s = TournamentSettings(rounds=4, seats=3, bots=True, start_players=9, target=8)
        t = await store.tournaments.new("Club night", SWISS, s, "admin")
        for level in ("easy", "medium") * 3 + ("easy",):
            await desk.enter(t.id, None, level)
        ann = await Player.login(game.port, "ann", asyncssh.generate_private_key("ssh-ed25519"))
        bob = await Player.login(
            game.port, "bob", asyncssh.generate_private_key("ssh-ed25519"), size=(110, 36)
        )
        try:
            await enter_by_keys(ann, t.id)
            await enter_by_keys(bob, t.id, back=False)
            tables = await asyncio.gather(
                play_rounds(ann, game.tap.latest("ann"), 4),
                play_rounds(bob, game.tap.latest("bob"), 4),
            )
            for _ in range(int(ROUND_WAIT / 0.1)):
                done = await store.tournaments.load(t.id)
                assert done is not None
                if done.status == DONE:
                    break
                await asyncio.sleep(0.1)
            assert done.status == DONE and len(done.rounds) == 4
            for name, played in zip(("ann", "bob"), tables, strict=True):
                mine = [g for r in done.rounds for g, names in r.tables if name in names]
                assert played == mine  # taken to each of their tables, in order
                calls = [m for m in game.tap.latest(name).messages
                         if isinstance(m, Notice) and m.level == "call"]  # fmt: skip
                assert len(calls) == 4 and "Round 4 of Club night" in calls[-1].text
            text = await export(store, t.id)
            lines = text.split("## Standings\n")[1].splitlines()[1:]
            assert len(lines) == 9 and all(line.split()[-2] == "4" for line in lines)
            assert text.count(" over ") == 4 * 3
        finally:
            await ann.close()
            await bob.close()
