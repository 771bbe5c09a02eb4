"""A cluster of real `splendor-server` processes on one PostgreSQL database, players over
SSH with PTYs (screens read with pyte): two workers on one port; a process SIGKILLed
mid-game while its player comes back through another; the process running a game's
bots SIGKILLed while the bots play on from another; how the supervisor logs its workers'
ends (a clean stop, a death)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from gamekit import WAIT, Player, login, quick_game, status, turn_shown
from processkit import ServerProcess, process_tree, running, three_colours, type_move


@pytest.fixture
async def processes(tmp_path: Path, postgres: Any) -> AsyncIterator[Any]:
    """`start(name, *options)`: a server process on a new port, on this test's database;
    every one is stopped at the end."""
    url = postgres.create_database()
    started: list[ServerProcess] = []

    async def start(name: str, *options: str) -> tuple[ServerProcess, int]:
        server = ServerProcess(tmp_path / "data", "--database", url, *options, name=name)
        started.append(server)
        return server, await asyncio.to_thread(server.start)

    yield start
    for server in started:
        await asyncio.to_thread(server.stop)


AWAY_WAIT = 20.0  # seconds: a process not heard from for 8 s is removed with its sessions


def key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def my_move(player: Player) -> int:
    """Wait for this player's turn, take three gems by keys; the turn it was."""
    screen = await player.wait_for(lambda t: "your turn" in status(t))
    turn = turn_shown(screen)
    await type_move(player, three_colours(screen))
    await player.wait_for(lambda t: turn_shown(t) > turn)
    return turn


async def to_move(players: tuple[Player, ...], after: int) -> Player:
    """The one whose screen says it is their turn, at a turn after `after` (the others'
    screens may still show the turn before: the move reaches their process later)."""
    for _ in range(int(WAIT / 0.05)):
        for player in players:
            screen = player.text()
            if "your turn" in status(screen) and turn_shown(screen) > after:
                return player
        await asyncio.sleep(0.05)
    raise AssertionError("nobody's turn:\n" + "\n\n".join(p.text() for p in players))


async def test_two_workers_share_one_port_and_their_players_one_table(processes: Any) -> None:
    """`--workers 2`: the kernel spreads connections over both workers; two players that
    landed on different ones sit at one table and play."""
    supervisor, port = await processes("cluster", "--workers", "2")
    # Log in until each worker holds a player, closing the ones that landed where a player
    # already is: at most three connections are open at once, well under the per-address
    # caps (per process), however the kernel spreads them. 40 tries all on one worker
    # would be a chance of 2**-39.
    first_on: dict[int, tuple[str, Player]] = {}
    for i in range(40):
        name = f"p{i}"
        player = await login(port, name, key())
        await player.wait_for(f"you are {name}")
        log = supervisor.log.read_text()
        found = re.search(rf"worker (\d) splendor\.ssh: connect {name} ", log)
        assert found, log
        worker = int(found.group(1))
        if worker in first_on:
            await player.close()
        else:
            first_on[worker] = name, player
        if len(first_on) == 2:
            break
    assert set(first_on) == {1, 2}, supervisor.log.read_text()  # both workers took some
    (_, ann), (guest, bob) = first_on[1], first_on[2]
    ann.press("c")
    await ann.wait_for("Create a table")
    ann.press("\r")  # two open seats
    screen = await ann.wait_for("Your table")
    table = re.search(r"Your table (\w+)", screen).group(1)  # type: ignore[union-attr]
    await bob.wait_for(table)
    bob.press("j")
    await ann.wait_for(f"2. {guest}")
    ann.press("s")
    played = 0
    for _ in range(2):  # a move each, whoever starts
        played = await my_move(await to_move((ann, bob), played))
    await ann.close()
    await bob.close()
    assert supervisor.kill(signal.SIGTERM) == 0


async def test_a_process_killed_mid_game_its_player_comes_back_through_another(
    processes: Any,
) -> None:
    one, port_one = await processes("one")
    two, port_two = await processes("two")
    ann_key = key()
    ann = await login(port_one, "ann", ann_key)
    await quick_game(ann, "easy")
    await my_move(ann)
    screen = await ann.wait_for(lambda t: "your turn" in status(t))
    turn = turn_shown(screen)

    assert await asyncio.to_thread(one.kill) == -signal.SIGKILL
    await ann.closed()
    again = await login(port_two, "ann", ann_key)  # through the other process
    screen = await again.wait_for(lambda t: f"turn {turn} · your turn" in status(t))
    await my_move(again)  # and the game goes on there, bot and all
    await again.wait_for(lambda t: "your turn" in status(t) and turn_shown(t) > turn + 1)
    await again.close()


async def test_the_bots_play_on_when_the_process_running_them_dies(processes: Any) -> None:
    """Ann on one process, Bob on another, a bot at their table: the process that runs
    the bot is SIGKILLed, its player comes back through the other, and that process takes
    the game's bots on: a whole round (the bot's turn with it) is played there."""
    one, port_one = await processes("one")
    two, port_two = await processes("two")
    keys = {"ann": key(), "bob": key()}
    ann = await login(port_one, "ann", keys["ann"])
    bob = await login(port_two, "bob", keys["bob"])
    await ann.wait_for("Splendor lobby")
    ann.press("c")
    await ann.wait_for("Create a table")
    ann.press("\x1b[C")  # 3 seats
    await ann.wait_for(lambda t: re.search(r"Seats\s+◀\s+3\s+▶", t) is not None)
    for keys_pressed in ("\x1b[B", "\x1b[B", "\x1b[C"):  # seat 3: an easy bot
        ann.press(keys_pressed)
        await asyncio.sleep(0.2)
    await ann.wait_for(lambda t: re.search(r"Seat 3\s+◀\s+easy\s+▶", t) is not None)
    ann.press("\r")
    screen = await ann.wait_for("Your table")
    table = re.search(r"Your table (\w+)", screen).group(1)  # type: ignore[union-attr]
    await bob.wait_for(table)
    bob.press("j")
    await ann.wait_for("2. bob")
    ann.press("s")
    players = {"ann": ann, "bob": bob}
    runs = None
    for _ in range(200):  # play until the bots' process says it moved them
        runs = next((s for s in (one, two) if f"game {table}: its bots" in s.log.read_text()), None)
        if runs is not None:
            break
        for player in players.values():
            if "your turn" in status(player.text()):
                await my_move(player)
        await asyncio.sleep(0.05)
    assert runs is not None
    dead, survivor, port = ("ann", two, port_two) if runs is one else ("bob", one, port_one)
    turn = turn_shown(players["ann" if dead == "bob" else "bob"].text())
    assert await asyncio.to_thread(runs.kill) == -signal.SIGKILL
    await players[dead].closed()
    alive = players["ann" if dead == "bob" else "bob"]
    await alive.wait_for(f"{dead} (away)", AWAY_WAIT)  # no ghost: the dead process's player
    players[dead] = await login(port, dead, keys[dead])  # back, through the other process
    for _ in range(200):  # a whole round from here: both players' turns and the bot's
        screens = {n: p.text() for n, p in players.items()}
        if min(turn_shown(t) for t in screens.values()) >= turn + 3:
            break
        for name, text in screens.items():
            if "your turn" in status(text):
                await my_move(players[name])
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the game stopped at turn {turn}:\n{players['ann'].text()}")
    assert f"game {table}: its bots play from this process" in survivor.log.read_text()
    for player in players.values():
        await player.close()


async def test_killing_the_supervisor_ends_its_workers_and_their_bots(processes: Any) -> None:
    """SIGKILL of `--workers 2`'s supervisor: its workers (and their bot processes) end
    with it, within seconds; nothing is left running."""
    supervisor, port = await processes("cluster", "--workers", "2")
    player = await login(port, "ann", key())
    await quick_game(player, "easy")
    await my_move(player)  # the bots' processes are up by now
    assert supervisor.proc is not None
    tree = process_tree(supervisor.proc.pid)
    assert sum("--worker-of" in command for command in tree.values()) == 2, tree
    assert await asyncio.to_thread(supervisor.kill) == -signal.SIGKILL
    deadline = asyncio.get_running_loop().time() + 10
    while any(map(running, tree)) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.1)
    assert [tree[p] for p in tree if running(p)] == []
    await player.closed()


def workers_of(supervisor: ServerProcess) -> dict[int, tuple[int, str]]:
    """The supervisor's workers by index, as `process_tree` names them."""
    assert supervisor.proc is not None
    found = {}
    for process, command in process_tree(supervisor.proc.pid).items():
        index = re.search(r"--worker (\d+) ", command + " ")
        if index and running(process):
            found[int(index.group(1))] = process
    return found


async def reaped(process: tuple[int, str]) -> None:
    """Wait until `process` has ended and its parent has seen it (no zombie left)."""
    pid, start = process
    for _ in range(int(WAIT / 0.01)):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return
        if fields[19] != start:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"process {pid} was not reaped")


def log_lines(server: ServerProcess, level: str) -> list[str]:
    return [line for line in server.log.read_text().splitlines() if f" {level} " in line]


async def test_workers_stopping_on_sigterm_are_logged_as_info_not_as_deaths(
    processes: Any,
) -> None:
    """SIGTERM to the whole group (Ctrl+C, systemd's stop) may end a worker before the
    supervisor hears its own: here worker 2 is stopped first, and the supervisor once it
    has seen that worker end. Each clean exit is one INFO line; no ERROR, and the
    supervisor exits 0."""
    supervisor, _ = await processes("cluster", "--workers", "2")
    workers = workers_of(supervisor)
    assert set(workers) == {1, 2}
    os.kill(workers[2][0], signal.SIGTERM)
    await reaped(workers[2])
    assert await asyncio.to_thread(supervisor.kill, signal.SIGTERM) == 0
    assert log_lines(supervisor, "ERROR") == []
    stopped = [line for line in log_lines(supervisor, "INFO") if "splendor: worker" in line]
    assert [line.split("splendor: ")[1] for line in stopped] == [
        "worker 1 stopped",
        "worker 2 stopped",
    ]


async def test_a_worker_killed_is_logged_as_an_error_with_its_signal_and_started_again(
    processes: Any,
) -> None:
    supervisor, port = await processes("cluster", "--workers", "2")
    workers = workers_of(supervisor)
    os.kill(workers[1][0], signal.SIGKILL)
    for _ in range(int(WAIT / 0.05)):  # started again: a new worker 1
        again = workers_of(supervisor).get(1)
        if again is not None and again != workers[1]:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(supervisor.log.read_text())
    assert [line.split("splendor: ")[1] for line in log_lines(supervisor, "ERROR")] == [
        "worker 1 died (killed by SIGKILL); starting it again"
    ]
    player = await login(port, "ann", key())  # the port still answers
    await player.wait_for("you are ann")
    await player.close()
    assert await asyncio.to_thread(supervisor.kill, signal.SIGTERM) == 0
