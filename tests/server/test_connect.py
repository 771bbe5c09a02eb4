"""`splendor connect` over a real server: the app run here (headless, Textual's pilot) on
the `splendor` subsystem plays a whole game against a terminal player at the same table,
comes back to its table by itself when the connection drops, and a client of another
protocol version is told so in one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
from gamekit import game_server, login, moment, play_turn, status
from hostkit import pick
from textual.pilot import Pilot

from client.app import SplendorApp
from client.remote import Refused, RemoteConnection
from client.screens.lobby import LobbyScreen
from client.screens.table import TableScreen
from server.commands.connect import play_remote, ssh_options, trust_new_host
from shared.protocol import PROTOCOL_VERSION, TableStatus
from shared.view import PlayerView

SIZE = (110, 36)


def options(port: int, name: str, key: asyncssh.SSHKey) -> dict[str, Any]:
    return {
        "host": "127.0.0.1",
        "port": port,
        "username": name,
        "client_keys": [key],
        "known_hosts": None,
        "agent_path": None,
    }


async def until(pilot: Pilot[None], condition: Any, steps: int = 1000) -> None:
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never reached the expected state")


def view_of(app: SplendorApp) -> PlayerView | None:
    main = app.main_screen
    return main.view if isinstance(main, TableScreen) else None


def shows(app: SplendorApp, when: tuple[int, str, bool]) -> Callable[[], bool]:
    """The app's table is at that moment of the game."""
    return lambda: (v := view_of(app)) is not None and moment(v) == when


async def ann_plays(pilot: Pilot[None], app: SplendorApp, view: PlayerView) -> None:
    """One decision of the app's player, by keys: the move line, or the return dialog."""
    move = str(pick(view))
    if view.phase == "return":
        letters = "".join("o" if c == "*" else c.lower() for c in move.split()[1:])
        await pilot.press(*letters, "enter")
    else:
        await pilot.press("colon", *move, "enter")
    before = moment(view)
    await until(pilot, lambda: (v := view_of(app)) is not None and moment(v) != before)


async def test_connect_plays_a_whole_game_against_a_terminal_player_and_reconnects(
    tmp_path, bot_executor
):
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    bob_key = asyncssh.generate_private_key("ssh-ed25519")
    async with game_server(tmp_path, bot_executor) as game:
        remote = RemoteConnection(options(game.port, "ann", ann_key))
        welcome = await remote.open()
        assert (welcome.name, welcome.protocol) == ("ann", PROTOCOL_VERSION)
        app = SplendorApp(remote)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.main_screen, LobbyScreen))
            await pilot.press("c")
            await until(pilot, lambda: len(app.screen_stack) > 2)  # the create dialog
            await pilot.press("enter")
            await until(pilot, lambda: app.where.table is not None)
            table_id = app.where.table
            bob = await login(game.port, "bob", bob_key)
            await bob.wait_for(lambda t: "waiting" in t and "ann" in t)
            bob.press("j")
            await until(
                pilot,
                lambda: (
                    (t := app.lobby_data.table(table_id)) is not None
                    and sum(s.name is not None for s in t.seats) == 2
                ),
            )
            await pilot.press("s")
            await until(pilot, lambda: view_of(app) is not None)
            await bob.wait_for(lambda t: "turn 1 ·" in status(t))
            record = game.tap.latest("bob")
            dropped = False
            for _ in range(400):
                view = view_of(app)
                assert view is not None
                if view.is_over:
                    break
                if view.turn >= 6 and not dropped:  # the network fails: back by itself
                    dropped = True
                    remote.drop()
                    await until(pilot, lambda: remote._chan is None)
                    await until(pilot, lambda: remote._chan is not None)
                    await until(pilot, shows(app, moment(view)))
                    assert isinstance(app.main_screen, TableScreen)
                    assert app.main_screen.table_id == table_id
                    continue
                if view.current_player == 0:
                    await ann_plays(pilot, app, view)
                else:
                    after = await play_turn(bob, record)
                    await until(pilot, shows(app, moment(after)))
            final = view_of(app)
            assert final is not None and final.is_over and dropped
            stored = await game.host.store.load_game(table_id)
            assert stored is not None and stored.status == "finished"
            assert TableStatus.FINISHED.value == stored.status
            await bob.wait_for("game over")
            app.exit()
        remote.close()
        await bob.close()


async def test_a_client_of_another_version_is_told_in_one_line(tmp_path, bot_executor, capsys):
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with game_server(tmp_path, bot_executor) as game:
        old = RemoteConnection(options(game.port, "ann", key), versions=(PROTOCOL_VERSION - 1,))
        try:
            await old.open()
            raise AssertionError("an old client was let in")
        except Refused as e:
            said = str(e)
        assert said == (
            f"this server speaks protocol version {PROTOCOL_VERSION}, your client "
            f"{PROTOCOL_VERSION - 1}: update the client to play"
        )
        # the command's own path: a refused login is one line on stderr, status 1
        other = asyncssh.generate_private_key("ssh-ed25519")
        status_ = await play_remote(options(game.port, "ann", other))
        assert status_ == 1
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "belongs to another player's SSH key" in err


async def test_a_new_host_key_is_asked_about_once_then_known(tmp_path, bot_executor):
    key = asyncssh.generate_private_key("ssh-ed25519")
    known = tmp_path / "known_hosts"
    async with game_server(tmp_path, bot_executor) as game:
        opts = ssh_options("ann@127.0.0.1", game.port, None, str(known))
        assert opts == {
            "host": "127.0.0.1",
            "port": game.port,
            "username": "ann",
            "known_hosts": str(known),
        }
        assert await trust_new_host(opts, ask=lambda _q: "no") is False
        assert not known.exists()
        assert await trust_new_host(opts, ask=lambda _q: "yes") is True
        assert Path(known).read_text().startswith(f"[127.0.0.1]:{game.port} ssh-ed25519 ")
        remote = RemoteConnection({**opts, "client_keys": [key], "agent_path": None})
        assert (await remote.open()).name == "ann"
        remote.close()
