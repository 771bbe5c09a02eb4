"""The real game over real SSH: GameHost + SplendorApp behind the transport, a tap on
what the host sends each session (so a test knows the legal moves), and players
that act only by keystrokes and check only the screen."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostkit import make_host, pick, quick_settings
from sshkit import WAIT, Player, host_key

from server.commands.cli import make_app
from server.front.bridge import AppFactory
from server.front.config import Config
from server.front.ssh import SSHService
from server.host.gamehost import GameHost
from server.host.identity import Identity
from shared import protocol
from shared.moves import Move
from shared.protocol import HostMessage, Notice, TableUpdate
from shared.view import PlayerView

SIZE = (110, 36)  # the table's wide layout
KEYS = {"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D", "enter": "\r"}
Message = HostMessage


@dataclass
class Record:
    """Every host message one session was sent, decoded."""

    messages: list[Message] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    cursor: int = 0  # `wait` looks at messages from here on

    def tables(self) -> list[TableUpdate]:
        return [m for m in self.messages if isinstance(m, TableUpdate)]

    async def wait(self, pred: Callable[[Message], bool], timeout: float = WAIT) -> Message:
        """The latest message from the cursor on that satisfies `pred` (waiting for one if
        none has come); the cursor moves to it."""
        deadline = time.monotonic() + timeout
        while True:
            for i in range(len(self.messages) - 1, self.cursor - 1, -1):
                if pred(self.messages[i]):
                    self.cursor = i
                    return self.messages[i]
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the host never sent the expected message")
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), left)
            except TimeoutError:
                pass


class TappedHost:
    """The real host, with a copy of everything it sends each session."""

    def __init__(self, host: GameHost) -> None:
        self.host = host
        self.records: dict[str, list[Record]] = {}

    def connect(self, identity: Identity, deliver: Callable[[bytes], None]) -> Any:
        record = Record()
        self.records.setdefault(identity.name, []).append(record)

        def tapped(data: bytes) -> None:
            record.messages.append(protocol.decode_host(data))
            record.arrived.set()
            deliver(data)

        return self.host.connect(identity, tapped)

    def latest(self, name: str) -> Record:
        return self.records[name][-1]


@dataclass
class Game:
    service: SSHService
    host: GameHost
    tap: TappedHost
    data_dir: Path

    @property
    def port(self) -> int:
        return self.service.port


@asynccontextmanager
async def game_server(  # type: ignore[no-untyped-def]
    tmp: Path,
    executor: Executor,
    database: str | None = None,
    now: Callable[[], float] = time.time,
    app_factory: AppFactory = make_app,
    **settings: Any,
):
    """A game server on 127.0.0.1 (any port) with its own host; `database`: its store
    (SQLite in `tmp` by default); `now`: the time its clocks count (a test's, or the real
    one); `app_factory`: each session's app. Servers given one PostgreSQL database form a
    cluster, each as one of its processes would be (one host key, one database, hosts of
    their own)."""
    data_dir = tmp / "data"
    config = Config(
        host="127.0.0.1", port=0, data_dir=str(data_dir), keepalive_interval=0.0, **settings
    )
    host = make_host(
        data_dir, executor, quick_settings(now=now), synchronous="NORMAL", database=database
    )
    await host.start()
    tap = TappedHost(host)
    service = SSHService(config, tap, host.store, app_factory, host_key())
    await service.start()
    try:
        yield Game(service, host, tap, data_dir)
    finally:
        service.stop_listening()
        await host.stop()
        await service.stop("the test is over")


def moment(view: PlayerView) -> tuple[int, str, bool]:
    """Where a game is: a move changes it (the last one only ends the game, R15)."""
    return view.turn, view.phase, view.is_over


def decision(m: Message) -> bool:
    return isinstance(m, TableUpdate) and (m.view.is_over or bool(m.view.legal_moves))


def status(text: str) -> str:
    """The table's top line."""
    return text.split("\n", 1)[0]


def turn_shown(text: str) -> int:
    """The turn number on the table's top line (-1 when none shows)."""
    found = re.search(r"turn (\d+) ·", status(text))
    return int(found.group(1)) if found else -1


async def quick_game(player: Player, level: str = "easy") -> None:
    """From the lobby: a quick 2-player game against one bot of `level`, by keys."""
    await player.wait_for("Splendor lobby")
    player.press("g")
    await player.wait_for("Quick game against bots")
    player.press(KEYS["down"])
    steps = {"easy": 1, "medium": 0, "hard": -1}[level]
    player.press((KEYS["left"] if steps > 0 else KEYS["right"]) * abs(steps))
    await player.wait_for(lambda t: re.search(rf"Bots\s+◀\s+{level}\s+▶", t) is not None)
    player.press(KEYS["enter"])
    # at the table; a bot that starts may have moved already (a loaded machine draws later)
    await player.wait_for(lambda t: re.search(r"turn \d+ ·", status(t)) is not None)


async def type_move(player: Player, view: PlayerView, move: Move | str) -> None:
    """Play `move` with keys: the return dialog's letters in phase R13, else the
    command line (":", the notation, Enter)."""
    text = str(move)
    if view.phase == "return":
        await player.wait_for("(R13)")
        letters = text.split()[1:]
        player.press("".join("o" if c == "*" else c.lower() for c in letters))
        player.press(KEYS["enter"])
        return
    player.press(":")
    await player.wait_for("a move: take W U G")
    player.press(text + "\r")


async def play_turn(player: Player, record: Record, move: Move | str | None = None) -> PlayerView:
    """Wait for this seat's decision, check the screen says so, play `move` (or `pick`),
    and wait until the host and the screen show it played. The view after."""
    msg = await record.wait(decision)
    view: PlayerView = msg.view
    if view.is_over:
        return view
    await player.wait_for(lambda t: f"turn {view.turn} · your turn" in status(t))
    before = moment(view)
    await type_move(player, view, move if move is not None else pick(view))
    after = await record.wait(
        lambda m: isinstance(m, Notice) or (isinstance(m, TableUpdate) and moment(m.view) != before)
    )
    assert isinstance(after, TableUpdate), after
    new: PlayerView = after.view
    try:
        await player.wait_for(lambda t: turn_shown(t) >= new.turn)  # bots may have moved on
    except AssertionError as e:  # say what the host sent this session, for the diagnosis
        sent = [
            f"{m.table}:{m.view.turn}{'*' if m.view.legal_moves else ''}"
            if isinstance(m, TableUpdate)
            else type(m).__name__
            for m in record.messages[-12:]
        ]
        raise AssertionError(f"the screen stayed behind turn {new.turn}; sent: {sent}") from e
    return new


async def play_to_end(player: Player, record: Record, limit: int = 200) -> PlayerView:
    for _ in range(limit):
        view = await play_turn(player, record)
        if view.is_over:
            # The game-over screen comes with the ratings and, in a tournament, the next
            # round's pairing: more work on a loaded machine than one move's screen.
            await player.wait_for("Game over", timeout=3 * WAIT)
            return view
    raise AssertionError(f"the game did not end in {limit} decisions")


async def login(port: int, name: str, key: Any = None) -> Player:
    return await Player.login(port, name, key, size=SIZE)
