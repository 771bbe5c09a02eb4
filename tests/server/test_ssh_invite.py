"""Invitations over real SSH at 80x24 (docs/design.md, "Where a player is"): ann invites
bob when she creates a table, bob's lobby shows it and he accepts with j, ann starts,
and each plays a move; bob declines with l and ann's seats show the seat open again;
ann's i names someone who cannot be invited and she reads why; bob, waiting at a table
of his own, declines with l on ann's table and then accepts with j there. Players act by keys
and the test reads their screens; the tap tells it what the host sent."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from gamekit import KEYS, Game, game_server
from sshkit import Player
from test_scenarios import a_turn, at_a_game, create_open_table, enter, first_to_move, where

from shared.protocol import LobbyList, Notice


async def create_inviting(player: Player, name: str) -> str:
    """c; seat 2 set to "a player" (← from "open"), the name typed below it, Enter: the
    waiting table's id."""
    player.press("c")
    await player.wait_for("Create a table")
    player.press(KEYS["down"])  # from the seat count to seat 2
    player.press(KEYS["left"])  # "open" → "a player", the last choice
    await player.wait_for("the player's name")
    player.press(KEYS["down"])  # to the name's line: keys typed before it has the focus
    await player.wait_for("Type the player's name")  # would go to the seat's choice
    player.press(name)
    player.press(KEYS["enter"])
    text = await player.wait_for(
        lambda t: re.search(r"Your table (\w+) \(waiting\)", t) is not None
    )
    found = re.search(r"Your table (\w+) \(waiting\)", text)
    assert found is not None
    return found.group(1)


def told(game: Game, name: str, level: str = "error") -> list[str]:
    """The notices of `level` ("call": with the bell) `name`'s newest session was sent
    (a toast at 80 columns wraps them: the screen is checked for their start)."""
    messages = game.tap.latest(name).messages
    return [m.text for m in messages if isinstance(m, Notice) and m.level == level]


async def test_an_invitation_at_creation_accepted_with_j_then_a_move_each(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: c with a seat "a player" → ann's waiting table, the seat held for bob; bob is
    told with the bell and his lobby says so; j → bob at the table; s → the game; a move
    each."""
    async with game_server(tmp_path, bot_executor) as game:
        ann, bob = await enter(game, "ann"), await enter(game, "bob")
        table = await create_inviting(ann, "bob")
        await ann.wait_for("waiting for bob to accept the invitation")
        await bob.wait_for("ann invites you: j accepts · l declines")
        await bob.wait_for(f"Table {table} (waiting)")  # not "Your table": not his yet
        assert told(game, "bob", "call") == [
            f"ann invites you to table {table}: j accepts · l declines"
        ]
        ann.press("s")  # refused: bob has not accepted
        await ann.wait_for("the game starts once")
        refused = "the game starts once every invited player accepts (waiting: bob)"
        assert told(game, "ann")[-1] == refused
        bob.press("j")
        await bob.wait_for("waiting for ann to start")
        assert where(game, "bob").table == table
        await ann.wait_for(lambda t: "waiting for bob" not in t and "s starts the game" in t)
        ann.press("s")
        for p in (ann, bob):
            await p.wait_for(at_a_game)
        first = first_to_move(game, ("ann", "bob"))
        players = {"ann": ann, "bob": bob}
        await a_turn(players[first], game.tap.latest(first))
        second = "bob" if first == "ann" else "ann"
        await a_turn(players[second], game.tap.latest(second))
        await ann.close()
        await bob.close()


async def test_an_invitation_declined_with_l_opens_the_seat_again(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: bob, invited, presses l → the seat is open again on ann's screen, and she
    reads that he declined; bob's lobby is back to no table."""
    async with game_server(tmp_path, bot_executor) as game:
        ann, bob = await enter(game, "ann"), await enter(game, "bob")
        table = await create_inviting(ann, "bob")
        await bob.wait_for("ann invites you: j accepts")
        bob.press("l")
        await bob.wait_for("You are not at a table")
        await ann.wait_for("bob declined the")
        assert told(game, "ann", "info")[-1] == f"bob declined the invitation to table {table}"
        await ann.wait_for(lambda t: re.search(r"\(you\)\s+2\. open", t) is not None)
        await ann.close()
        await bob.close()


async def test_i_at_ones_table_refuses_a_name_with_why_and_invites_a_player(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: i at the table ann hosts: a name nobody owns is refused with the reason; bob's
    is held for him, and he hears of it."""
    async with game_server(tmp_path, bot_executor) as game:
        ann, bob = await enter(game, "ann"), await enter(game, "bob")
        ann.press("c")
        await ann.wait_for("Create a table")
        ann.press(KEYS["enter"])  # seat 2 open
        await ann.wait_for("s starts the game")
        ann.press("i")
        await ann.wait_for("Invite a player")
        ann.press("nobody" + KEYS["enter"])
        await ann.wait_for("there is no player")
        assert told(game, "ann")[-1] == "there is no player named nobody here"
        ann.press("i")
        await ann.wait_for("Invite a player")
        ann.press("bob" + KEYS["enter"])
        await ann.wait_for("waiting for bob to accept the invitation")
        await bob.wait_for("ann invites you: j accepts")
        await ann.close()
        await bob.close()


async def invite(player: Player, name: str) -> None:
    """i at the table `player` hosts, `name` typed, Enter."""
    player.press("i")
    await player.wait_for("Invite a player")
    player.press(name + KEYS["enter"])
    await player.wait_for(f"waiting for {name} to accept the invitation")


def select(game: Game, player: Player, name: str, table: str) -> None:
    """Up to the list's first row, then down to `table` (the order of `name`'s lobby)."""
    lobbies = [m for m in game.tap.latest(name).messages if isinstance(m, LobbyList)]
    ids = [t.id for t in lobbies[-1].tables]
    player.press(KEYS["up"] * len(ids) + KEYS["down"] * ids.index(table))


async def test_invited_while_at_his_own_table_l_declines_and_j_accepts_on_that_table(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: ann's table, then bob's, then ann invites bob → bob's lobby keeps his table
    as his and says the invitation; l on ann's table declines it (ann reads so), his table
    stays his; invited again, j on ann's table takes him there (his own is given up)."""
    async with game_server(tmp_path, bot_executor) as game:
        ann, bob = await enter(game, "ann"), await enter(game, "bob")
        hers = await create_open_table(ann)
        his = await create_open_table(bob)
        await invite(ann, "bob")
        line = f"ann invites you to table {hers}: select it, j accepts, l declines"
        await bob.wait_for(lambda t: line in t and f"Your table {his} (waiting)" in t)
        assert "s starts the game" in bob.text()
        select(game, bob, "bob", hers)
        bob.press("l")
        await ann.wait_for("bob declined the")
        assert told(game, "ann", "info")[-1] == f"bob declined the invitation to table {hers}"
        await bob.wait_for(lambda t: "invites you" not in t and f"Your table {his}" in t)
        assert where(game, "bob").table == his
        await invite(ann, "bob")
        await bob.wait_for(line)
        select(game, bob, "bob", hers)
        bob.press("j")
        await bob.wait_for(f"Your table {hers} (waiting)")
        await bob.wait_for("waiting for ann to start")
        assert where(game, "bob").table == hers
        await game.tap.latest("bob").wait(
            lambda m: (
                isinstance(m, LobbyList)
                and m.mine == (hers,)
                and all(t.id != his for t in m.tables)
            )
        )  # his own table, given up (nobody else sat there: it closed)
        await ann.wait_for(lambda t: "waiting for bob" not in t and "s starts the game" in t)
        await ann.close()
        await bob.close()
