"""Every way between screens (docs/design.md, "Where a player is"), walked by two and
three players at once over real SSH with PTYs at 80x24, each step checked on every
player's screen (pyte), not only in the host. Each test names the rows of the table it
walks. Players act by keys only; the tap on the host tells a test the legal moves."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import asyncssh
from gamekit import KEYS, Game, Record, game_server, play_turn, quick_game, status
from hostkit import FakeClock
from sshkit import Player

from shared.protocol import LobbyList, Notice, TableStatus, TableUpdate, Where

SMALL = (80, 24)
ESC = "\x1b"


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def enter(
    game: Game, name: str, size: tuple[int, int] = SMALL, key: asyncssh.SSHKey | None = None
) -> Player:
    """A player with a key (a new one unless given) logs in at `size`; the lobby shows."""
    player = await Player.login(game.port, name, key or new_key(), size=size)
    await player.wait_for("Splendor lobby")
    return player


def at_a_game(text: str) -> bool:
    """The screen is a game's table (its top line counts the turns)."""
    return re.search(r"turn \d+ ·", status(text)) is not None


def where(game: Game, name: str) -> Where:
    """Where the host last told `name`'s newest session it is."""
    told = [m for m in game.tap.latest(name).messages if isinstance(m, Where)]
    return told[-1]


async def create_open_table(player: Player) -> str:
    """c, then Enter on the dialog's defaults: a waiting table for two, seat 2 open."""
    player.press("c")
    await player.wait_for("Create a table")
    player.press(KEYS["enter"])
    text = await player.wait_for(
        lambda t: re.search(r"Your table (\w+) \(waiting\)", t) is not None
    )
    found = re.search(r"Your table (\w+) \(waiting\)", text)
    assert found is not None
    return found.group(1)


async def join_table(player: Player, table: str) -> None:
    """Select `table` in the lobby list (it is the first) and press j."""
    await player.wait_for(table)
    player.press("j")
    await player.wait_for(f"Your table {table}")


async def two_player_game(game: Game, ann: Player, bob: Player) -> str:
    """The first player creates a table, the second joins it by keys, the first starts
    it: both see the table."""
    table = await create_open_table(ann)
    await join_table(bob, table)
    await ann.wait_for(lambda t: re.search(r"\(you\)\s+2\. (?!open)\w", t) is not None)
    assert "s starts the game" in ann.text()
    ann.press("s")
    for p in (ann, bob):
        await p.wait_for(at_a_game)
    return table


def first_to_move(game: Game, names: tuple[str, ...]) -> str:
    """Which of `names` has the first move of the game just started."""
    for name in names:
        ups = game.tap.latest(name).tables()
        if ups and ups[-1].view.my_turn:
            return name
    raise AssertionError("nobody is to move")


async def a_turn(player: Player, record: Record) -> None:
    """The player whose turn it is plays a legal move by keys."""
    await play_turn(player, record)


def lobby_of(game: Game, name: str) -> LobbyList:
    return [m for m in game.tap.latest(name).messages if isinstance(m, LobbyList)][-1]


# -- the lobby and a table ----------------------------------------------------------------


async def test_create_join_start_and_both_see_the_game(tmp_path: Path, bot_executor: Any) -> None:
    """Rows: connect → lobby; c → your waiting table (lobby screen); j → a seat there; s
    (the host) → the game, for both."""
    async with game_server(tmp_path, bot_executor) as game:
        ann, bob = await enter(game, "ann"), await enter(game, "bob")
        table = await two_player_game(game, ann, bob)
        assert where(game, "ann") == Where("table", table, 0)
        assert where(game, "bob") == Where("table", table, 1)
        for p in (ann, bob):
            assert "Splendor lobby" not in p.text()
        await ann.close()
        await bob.close()


async def test_m_and_esc_go_to_the_lobby_keeping_the_seat_and_j_comes_back(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: m at a game with no other game waiting → the lobby, seat kept (never a
    frozen table), which says where they play; the turn comes while there → the lobby
    says so; j → back at the seat, the turn shown; Esc at a game → the lobby, seat kept."""
    async with game_server(tmp_path, bot_executor) as game:
        ann, bob = await enter(game, "ann"), await enter(game, "bob")
        table = await two_player_game(game, ann, bob)
        first = first_to_move(game, ("ann", "bob"))
        mover, other = (ann, bob) if first == "ann" else (bob, ann)
        other_name = "bob" if first == "ann" else "ann"
        other.press("m")  # not their move, and no other game waits for them
        await other.wait_for("Splendor lobby")
        await other.wait_for(lambda t: table in t and "your game" in t)
        await other.wait_for(f"You play at table {table}: ⏎ on it goes back")  # not "not at"
        assert where(game, other_name) == Where()
        await mover.wait_for(lambda t: "your turn" in status(t))
        assert "(away)" not in lobby_of(game, other_name).tables[0].seats.__repr__()
        await a_turn(mover, game.tap.latest(first))
        await other.wait_for(lambda t: table in t and "your move" in t)
        other.press("j")  # the selected table is theirs: back to the seat
        await other.wait_for(lambda t: "your turn" in status(t))
        assert where(game, other_name).table == table
        await a_turn(other, game.tap.latest(other_name))
        await mover.wait_for(lambda t: "your turn" in status(t))
        mover.press(ESC)  # nothing open at the table: the lobby, the seat kept
        await mover.wait_for("Splendor lobby")
        await mover.wait_for(lambda t: "your move" in t)
        assert game.host.lobby.tables[table].status is TableStatus.PLAYING
        mover.press(KEYS["enter"])  # Enter on their game: back at it
        await mover.wait_for(lambda t: "your turn" in status(t))
        await ann.close()
        await bob.close()


async def test_a_third_player_watches_and_esc_takes_them_back(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: w on a game → watching it; Esc → the lobby; the players see nothing change."""
    async with game_server(tmp_path, bot_executor) as game:
        ann, bob, cat = [await enter(game, n) for n in ("ann", "bob", "cat")]
        table = await two_player_game(game, ann, bob)
        await cat.wait_for(table)
        cat.press("w")
        await cat.wait_for("watching")
        assert where(game, "cat") == Where("table", table, None)
        cat.press(ESC)
        await cat.wait_for("Splendor lobby")
        assert where(game, "cat") == Where()
        for p in (ann, bob):
            assert "Splendor lobby" not in p.text()
        for p in (ann, bob, cat):
            await p.close()


async def test_leaving_a_waiting_table_gives_up_the_seat(tmp_path: Path, bot_executor: Any) -> None:
    """Rows: l at a waiting table → the lobby, seat given up; the host sees the seat open."""
    async with game_server(tmp_path, bot_executor) as game:
        ann, bob = await enter(game, "ann"), await enter(game, "bob")
        table = await create_open_table(ann)
        await join_table(bob, table)
        await ann.wait_for(lambda t: "bob" in t)
        bob.press("l")
        await bob.wait_for(lambda t: "You are not at a table" in t)
        await ann.wait_for(lambda t: "bob" not in t.split("Your table")[-1].split("\n")[0])
        assert where(game, "bob") == Where()
        assert where(game, "ann") == Where("lobby", table, 0)
        await ann.close()
        await bob.close()


# -- a reconnect and a restart --------------------------------------------------------------


async def test_a_dropped_player_comes_back_to_the_game(tmp_path: Path, bot_executor: Any) -> None:
    """Rows: the connection drops → the seat held, the other sees the player away; a new
    session of that player → straight back at the table."""
    async with game_server(tmp_path, bot_executor) as game:
        key = new_key()
        ann = await enter(game, "ann", key=key)
        bob = await enter(game, "bob")
        table = await two_player_game(game, ann, bob)
        await ann.close()
        await bob.wait_for(lambda t: "away" in t)
        ann = await Player.login(game.port, "ann", key, size=SMALL)
        await ann.wait_for(at_a_game)
        assert where(game, "ann") == Where("table", table, 0)
        await ann.close()
        await bob.close()


async def test_after_a_restart_players_are_back_at_their_game(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: the server restarts → each player is told and the game is kept; on coming
    back, each lands at the table again, at the same turn."""
    keys = {n: new_key() for n in ("ann", "bob")}
    async with game_server(tmp_path, bot_executor) as game:
        ann = await Player.login(game.port, "ann", keys["ann"], size=SMALL)
        bob = await Player.login(game.port, "bob", keys["bob"], size=SMALL)
        table = await two_player_game(game, ann, bob)
        first = first_to_move(game, ("ann", "bob"))
        await a_turn(ann if first == "ann" else bob, game.tap.latest(first))
        turn = game.host.lobby.tables[table].state.turn  # type: ignore[union-attr]
    for p in (ann, bob):
        await p.closed()
    async with game_server(tmp_path, bot_executor) as game:
        for name in ("ann", "bob"):
            p = await Player.login(game.port, name, keys[name], size=SMALL)
            await p.wait_for(lambda t: f"turn {turn} ·" in status(t))
            assert where(game, name).table == table
            await p.close()


# -- the end of a game: rematches and abandonment ------------------------------------------------


async def play_out(game: Game, players: dict[str, Player]) -> None:
    """Both humans play legal moves by keys until the game is over on both screens."""
    records = {n: game.tap.latest(n) for n in players}
    for _ in range(400):
        if all(r.tables() and r.tables()[-1].view.is_over for r in records.values()):
            break
        mover = next(
            (n for n, r in records.items() if r.tables() and r.tables()[-1].view.my_turn), None
        )
        if mover is None:
            await records[next(iter(records))].wait(
                lambda m: isinstance(m, TableUpdate) and (m.view.my_turn or m.view.is_over)
            )
            continue
        await play_turn(players[mover], records[mover])
    for p in players.values():
        await p.wait_for("Game over")


async def test_a_whole_game_then_a_rematch_accepted_from_the_lobby(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: a game between two people played to the end; r at the game-over screen offers
    a rematch (the offerer stays, told whom it waits for); the other leaves the game-over
    screen for the lobby, where the offer shows (j accepts); j → both at the new table,
    which plays a turn."""
    async with game_server(tmp_path, bot_executor) as game:
        bob, cat = await enter(game, "bob", (110, 36)), await enter(game, "cat", (110, 36))
        old = await two_player_game(game, bob, cat)
        await play_out(game, {"bob": bob, "cat": cat})
        cat.press(ESC)  # the game-over screen: to the lobby
        await cat.wait_for("Splendor lobby")
        bob.press("r")
        await bob.wait_for(lambda t: "waiting for cat" in t)
        await cat.wait_for(lambda t: "a rematch" in t and "j accepts" in t)
        assert where(game, "bob").table == old  # still on the game-over screen
        cat.press("j")
        for p in (bob, cat):
            await p.wait_for(lambda t: re.search(r"turn 1 ·", status(t)) is not None, 15)
        new = where(game, "cat").table
        assert new is not None and new != old and where(game, "bob").table == new
        first = first_to_move(game, ("bob", "cat"))
        await a_turn(bob if first == "bob" else cat, game.tap.latest(first))
        other = cat if first == "bob" else bob
        await other.wait_for(lambda t: "your turn" in status(t))
        await bob.close()
        await cat.close()


async def test_a_rematch_declined_from_the_lobby(tmp_path: Path, bot_executor: Any) -> None:
    """Rows: a rematch offered; the invited player leaves it from the lobby (l) → it is
    called off: the table closes, the offerer is told, and nobody is left stuck."""
    async with game_server(tmp_path, bot_executor) as game:
        bob, cat = await enter(game, "bob", (110, 36)), await enter(game, "cat", (110, 36))
        await two_player_game(game, bob, cat)
        await play_out(game, {"bob": bob, "cat": cat})
        bob.press("r")
        await bob.wait_for(lambda t: "waiting for cat" in t)
        cat.press(ESC)
        await cat.wait_for(lambda t: "a rematch" in t and "j accepts" in t)
        cat.press("l")
        await cat.wait_for(lambda t: "You are not at a table" in t)
        await bob.wait_for(lambda t: "cat declined the rematch" in t)
        assert not [t for t in game.host.lobby.tables.values() if t.status is TableStatus.WAITING]
        bob.press(ESC)
        await bob.wait_for(lambda t: "You are not at a table" in t)
        await bob.close()
        await cat.close()


async def test_every_human_out_of_time_abandons_the_game_once(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: a timed game where every human's clock runs out → abandoned: each player is
    taken to the lobby and told so once, the last one not that a bot plays on for them;
    the first never played a turn of their own, so the rated game changes no rating."""
    clock = FakeClock()
    async with game_server(tmp_path, bot_executor, now=clock) as game:
        ann, bob = await enter(game, "ann"), await enter(game, "bob")
        ann.press("c")
        await ann.wait_for("Create a table")
        ann.press(KEYS["down"] * 2 + KEYS["right"])  # Clock: the first time control
        await ann.wait_for(lambda t: "none" not in t.split("Clock")[-1].split("\n")[0])
        ann.press(KEYS["enter"])
        text = await ann.wait_for(lambda t: "Your table" in t)
        table = re.search(r"Your table (\w+)", text).group(1)  # type: ignore[union-attr]
        await join_table(bob, table)
        ann.press("s")
        for p in (ann, bob):
            await p.wait_for(at_a_game)
        control = game.host.lobby.tables[table].control
        assert control.timed
        first = first_to_move(game, ("ann", "bob"))
        order = [(ann, "ann"), (bob, "bob")] if first == "ann" else [(bob, "bob"), (ann, "ann")]
        (p1, n1), (p2, n2) = order
        await p1.wait_for(lambda t: "your turn" in status(t))
        clock.advance(control.bank + 60)  # the first player's time runs out at turn 1
        await game.host.lobby.play.check_clocks()
        await a_turn(p2, game.tap.latest(n2))  # the second plays turn 2 themselves
        await p2.wait_for(lambda t: "turn 4 · your turn" in status(t))  # a bot played 3
        clock.advance(control.bank + 60)
        await game.host.lobby.play.check_clocks()  # now nobody plays: abandoned at turn 4
        for p, name in ((ann, "ann"), (bob, "bob")):
            await p.wait_for("Splendor lobby")
            await p.wait_for(lambda t: "abandoned" in t)
            notices = [
                m.text
                for m in game.tap.latest(name).messages
                if getattr(m, "text", "").endswith("was abandoned")
            ]
            assert len(notices) == 1
            assert where(game, name) == Where()
        last = [m.text for m in game.tap.latest(n2).messages if isinstance(m, Notice)]
        assert "abandoned" in last[-1] and "plays your seat" not in last[-2]
        record = await game.host.store.load_game(table, moves=False)
        assert record is not None and record.rated  # a rated table...
        assert await game.host.store.rating_changes(table) == {}  # ...but nobody played
        await ann.close()
        await bob.close()


# -- more rows: m between games, a rematch accepted at the table, a quick game, a cluster ----


async def test_m_goes_from_one_game_where_it_is_your_move_to_the_next(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: g → a game against a bot at once; m at a game with another game waiting for
    this player's move → that game; m in the lobby with no game waiting → stays, says so."""
    async with game_server(tmp_path, bot_executor) as game:
        ann = await enter(game, "ann", (110, 36))
        tables = []
        for _ in range(2):
            await quick_game(ann, "easy")
            tables.append(where(game, "ann").table)
            if len(tables) < 2:
                ann.press(ESC)
                await ann.wait_for("Splendor lobby")
        for table in tables:  # each waits for ann's move once the bot has moved
            await game.tap.latest("ann").wait(
                lambda m, t=table: isinstance(m, TableUpdate) and m.table == t and m.view.my_turn
            )
        await ann.wait_for(lambda t: "your turn" in status(t))
        ann.press("m")
        await ann.wait_for(
            lambda t: "your turn" in status(t) and where(game, "ann").table == tables[0]
        )
        assert where(game, "ann") == Where("table", tables[0], 0)
        await a_turn(ann, game.tap.latest("ann"))
        await ann.close()


async def test_a_rematch_offered_and_accepted_at_the_game_over_screen(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: r at the game-over screen offers; the other, still there, sees "r accepts";
    r → both at the new game, seats turned."""
    async with game_server(tmp_path, bot_executor) as game:
        bob, cat = await enter(game, "bob", (110, 36)), await enter(game, "cat", (110, 36))
        old = await two_player_game(game, bob, cat)
        await play_out(game, {"bob": bob, "cat": cat})
        bob.press("r")
        await cat.wait_for(lambda t: "r accepts" in t)
        cat.press("r")
        for p in (bob, cat):
            await p.wait_for(lambda t: re.search(r"turn 1 ·", status(t)) is not None, 15)
        new = where(game, "bob").table
        assert new not in (None, old)
        assert where(game, "bob") == Where("table", new, 1)  # bob had seat 1: now 2
        assert where(game, "cat") == Where("table", new, 0)
        await bob.close()
        await cat.close()


async def test_a_player_of_a_dead_process_comes_back_through_another(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    """Rows: a cluster's process goes away → its player connects to another process and
    lands at the game, at the same turn; the other player, on that process, plays on."""
    url = postgres.create_database()
    key = new_key()
    async with game_server(tmp_path / "b", bot_executor, database=url) as b:
        async with game_server(tmp_path / "a", bot_executor, database=url) as a:
            ann = await Player.login(a.port, "ann", key, size=SMALL)
            await ann.wait_for("Splendor lobby")
            bob = await enter(b, "bob")
            table = await create_open_table(ann)
            await bob.wait_for(table)
            bob.press("j")
            await ann.wait_for(lambda t: "2. bob" in t and "s starts the game" in t)
            ann.press("s")
            for p in (ann, bob):
                await p.wait_for(at_a_game)
        await ann.closed()
        ann = await Player.login(b.port, "ann", key, size=SMALL)
        await ann.wait_for(at_a_game)
        assert where(b, "ann") == Where("table", table, 0)
        first = first_to_move(b, ("ann", "bob"))
        await a_turn(ann if first == "ann" else bob, b.tap.latest(first))
        await (bob if first == "ann" else ann).wait_for(lambda t: "your turn" in status(t))
        await ann.close()
        await bob.close()


async def test_a_second_session_finds_its_waiting_table_and_m_in_the_lobby_stays(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: connecting with a seat at a waiting table → the lobby at that table; m in the
    lobby with no game waiting → stays there, and says so."""
    async with game_server(tmp_path, bot_executor) as game:
        key = new_key()
        ann = await enter(game, "ann", key=key)
        table = await create_open_table(ann)
        again = await Player.login(game.port, "ann", key, size=SMALL)
        await again.wait_for(f"Your table {table} (waiting)")
        assert where(game, "ann") == Where("lobby", table, 0)
        again.press("m")
        await again.wait_for("No game waits for your move")
        assert "Splendor lobby" in again.text()
        await again.close()
        await ann.close()


async def test_q_y_at_a_game_closes_the_app_and_keeps_the_seat(
    tmp_path: Path, bot_executor: Any
) -> None:
    """Rows: q then y at a game → the app closes, the terminal is the player's again; the
    other player sees them away; connecting again → the game."""
    async with game_server(tmp_path, bot_executor) as game:
        key = new_key()
        ann = await enter(game, "ann", key=key)
        bob = await enter(game, "bob")
        table = await two_player_game(game, ann, bob)
        ann.press("q")
        await ann.wait_for(lambda t: "y" in t.split("\n")[-1] and "leave" in t.lower())
        ann.press("y")
        await ann.closed()
        await bob.wait_for(lambda t: "ann (away)" in t)
        assert game.host.lobby.tables[table].status is TableStatus.PLAYING
        ann = await Player.login(game.port, "ann", key, size=SMALL)
        await ann.wait_for(at_a_game)
        assert where(game, "ann") == Where("table", table, 0)
        await ann.close()
        await bob.close()
