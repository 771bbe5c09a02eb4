"""Helpers for the client tests: positions found by seeded playouts, an app on the
server's own game host run offline (as `splendor play` runs it), waiting for the host,
pressing keys to reach a board square, screen text."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from client.app import SplendorApp
from client.connection import Connection
from client.faces import BANK_ROW, MINE_ROW, level_row
from client.screens.setup import GameSetup
from client.screens.table import TableScreen
from server.commands.play import offline_host, offline_identity
from server.front.bridge import connect_app
from server.host.bots import BotRunner, fallback_choose_move_bytes, fallback_move
from server.host.hostsettings import HostSettings
from server.host.identity import Identity
from server.host.link import HostLink
from server.host.table import Table
from server.store import PLAYING, SeatRecord
from shared.deal import new_game
from shared.moves import Move, Take, parse_move
from shared.protocol import (
    ClientMessage,
    Join,
    TableUpdate,
    Welcome,
    Where,
    decode_client,
    decode_host,
    encode,
)
from shared.settings import GameSettings
from shared.state import GameState

HUMAN = 0


class FakeConnection(Connection):
    """Records what the app sends; the test delivers host messages. Like a host, it says
    where the session is (`Where`) after the welcome and before the first update of a
    table the session was not at; a test delivers `Where` itself for other moves."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[ClientMessage] = []
        self.closed = False
        self.where = Where()
        self.auto_where = True  # False: a table update goes as it is (a late one)

    def deliver(self, data: bytes) -> None:
        try:
            msg = decode_host(data)
        except ValueError:  # not a message: the app is to refuse it
            super().deliver(data)
            return
        if isinstance(msg, Where):
            self.where = msg
        elif isinstance(msg, TableUpdate) and self.auto_where and self.where.table != msg.table:
            self.where = Where("table", msg.table, msg.seat)
            super().deliver(encode(self.where))
        super().deliver(data)
        if isinstance(msg, Welcome):
            super().deliver(encode(self.where))

    def send(self, data: bytes) -> None:
        self.sent.append(decode_client(data))

    def close(self) -> None:
        self.closed = True


@dataclass(frozen=True)
class Position:
    """A game reached by seeded play: what the host stores (seed and moves) and the state."""

    seed: int
    moves: tuple[str, ...]
    state: GameState

    def apply(self, move: Move) -> Position:
        return Position(self.seed, (*self.moves, str(move)), self.state.apply(move))


def take_heavy(state: GameState, rng: random.Random) -> Move:
    """A seeded random policy that mostly takes gems (drains the bank, fills hands)."""
    legal = state.legal_moves()
    takes = [m for m in legal if isinstance(m, Take)]
    if takes and rng.random() < 0.8:
        return rng.choice(takes)
    return rng.choice(legal)


def sensible(state: GameState, rng: random.Random) -> Move:
    """The host's fallback bot, for games that get somewhere."""
    return fallback_move(state.view(state.current_player), rng.randrange(1 << 30))


def find_position(
    players: int,
    wanted: Callable[[GameState], bool],
    policy: Callable[[GameState, random.Random], Move] = take_heavy,
    tries: int = 400,
    max_moves: int = 300,
) -> Position:
    """The first position of seeded playouts where it is seat 0's decision and `wanted`
    holds."""
    for seed in range(tries):
        rng = random.Random(seed)
        pos = Position(seed, (), new_game(GameSettings(players), seed))
        for _ in range(max_moves):
            if pos.state.is_over:
                break
            if pos.state.current_player == HUMAN and wanted(pos.state):
                return pos
            pos = pos.apply(policy(pos.state, rng))
    raise AssertionError("no playout reached the wanted position")


def play_to_end(players: int, seed: int) -> Position:
    rng = random.Random(seed)
    pos = Position(seed, (), new_game(GameSettings(players), seed))
    while not pos.state.is_over:
        pos = pos.apply(sensible(pos.state, rng))
    return pos


def before_the_end(players: int, seed: int) -> tuple[Position, Move]:
    """The position before the last move of a seeded game, which seat 0 makes (an
    AssertionError names a seed where it does not), and that move."""
    rng = random.Random(seed)
    pos = before = Position(seed, (), new_game(GameSettings(players), seed))
    move: Move | None = None
    while not pos.state.is_over:
        before, move = pos, sensible(pos.state, rng)
        pos = pos.apply(move)
    assert move is not None and before.state.current_player == HUMAN, f"seed {seed}"
    return before, move


class Offline:
    """An app on the server's own game host in this process, joined as `splendor play`
    joins it. Bots answer at once, in a thread, with `server.host.bots.fallback_move` unless
    another `runner` is given (so positions do not depend on `shared.bots`)."""

    _ids = itertools.count(1)

    def __init__(
        self,
        data_dir: Path,
        name: str = "Ann",
        runner: BotRunner = fallback_choose_move_bytes,
        setup: GameSetup | None = None,
    ) -> None:
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="test-bots")
        pace = HostSettings(bot_pause=0.0, lobby_tick=0.05)
        self.host = offline_host(data_dir, pace, bot_executor=self.executor, bot_runner=runner)
        self.identity = offline_identity(name)
        self.setup = setup
        self.base = 0  # moves of the table that were played before the test's keys
        self.table_id: str | None = None  # the latest table the app was sent
        self._last: Table | None = None

    def connect(self, identity: Identity, deliver: Callable[[bytes], None]) -> HostLink:
        """`host.connect`, noting which table the app was sent last."""

        def tapped(data: bytes) -> None:
            msg = decode_host(data)
            if isinstance(msg, TableUpdate):
                self.table_id = msg.table
            deliver(data)

        return self.host.connect(identity, tapped)

    async def start(self) -> SplendorApp:
        await self.host.start()
        self.app, _, self.link = connect_app(
            self, self.identity, lambda c: SplendorApp(c, local=True, setup=self.setup)
        )
        return self.app

    async def stop(self) -> None:
        await self.host.stop()
        self.executor.shutdown(wait=False, cancel_futures=True)

    @property
    def table(self) -> Table | None:
        """The table the player is at (None in the lobby or after leaving)."""
        return self.host.lobby.places.of(self.link).table

    @property
    def moves(self) -> list[str]:
        """The moves played at the latest table the app was sent, from those the test
        played with keys on (the ones before were the position it was put at)."""
        table = self.host.lobby.tables.get(self.table_id or "")
        if table is not None:
            self._last = table
        return [] if self._last is None else self._last.moves[self.base :]

    @property
    def state(self) -> GameState | None:
        return None if self.table is None else self.table.state

    async def seat_at(self, pos: Position, level: str = "easy") -> str:
        """Store `pos` as a game in progress of this player (seat 0) against bots of
        `level`, bring it back as the host does after a restart, and rejoin it."""
        table_id = f"pos{next(self._ids)}"
        store, me = self.host.store, self.identity
        seats = [SeatRecord(name=me.name, key=me.key)]
        seats += [SeatRecord(bot=level)] * (pos.state.num_players - 1)
        assert await store.create_table(table_id, seats, me.name)
        assert await store.update_table(table_id, 0, seats, me.name, PLAYING, pos.seed)
        state = new_game(GameSettings(pos.state.num_players), pos.seed)
        for seq, text in enumerate(pos.moves):
            state = state.apply(parse_move(text))
            await store.append_move(table_id, seq, text, state.turn)
        record = await store.load_game(table_id)
        assert record is not None and await self.host.resume(record)
        self.base = len(pos.moves)
        self.app.send(Join(table_id))
        return table_id


def frame_display(colours: str, sent: Callable[[str], None]) -> Callable[..., None]:
    """A stand-in for `App._display` that also gives `sent` every frame the app draws, as
    the server writes it (server.front.frames) for a terminal of `colours` ("truecolor",
    "256"...), each line end a terminal's "\\r\\n"; the headless app writes none itself."""
    from textual._compositor import CompositorUpdate
    from textual.app import App

    import server.front.tui_driver  # noqa: F401  (the server's frames)

    console = Console(color_system=colours, force_terminal=True, legacy_windows=False)
    display = App._display

    def shown(app: App[Any], screen: Any, update: Any) -> None:
        if isinstance(update, CompositorUpdate):
            sent(update.render_segments(console).replace("\n", "\r\n"))
        display(app, screen, update)

    return shown


async def wait_for(pilot: Pilot[None], condition: Callable[[], bool], steps: int = 400) -> None:
    """Let the app (and the host's bot tasks) run until `condition` holds."""
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never reached the expected state")


def table(app: SplendorApp) -> TableScreen:
    main = app.main_screen
    assert isinstance(main, TableScreen), f"no table screen: {app.screen_stack}"
    return main


async def finish(pilot: Pilot[None], kit: Offline, players: int, seed: int) -> None:
    """Seat the player one move before the end of a seeded game and make that move by
    keys (the move line): the game ends, as a player sees it end."""
    pos, move = before_the_end(players, seed)
    await load(pilot, kit, pos)
    await wait_for(pilot, lambda: my_turn(kit.app))
    await pilot.press("colon", *str(move), "enter")


def my_turn(app: SplendorApp) -> bool:
    main = app.main_screen
    return (
        isinstance(main, TableScreen)
        and main.view is not None
        and main.view.my_turn
        and not main.choice.waiting
        and app.screen is main
    )


async def load(pilot: Pilot[None], kit: Offline, pos: Position) -> None:
    """Seat the player at `pos` (bots: easy) and wait for its table on the screen."""
    table_id = await kit.seat_at(pos)
    app = kit.app
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.main_screen, TableScreen)
            and app.main_screen.table_id == table_id
            and table(app).view is not None
        ),
    )
    await pilot.pause()


def square_of(screen: TableScreen, what: str, value: object) -> tuple[int, int]:
    """The cursor square of a card id, a deck level, a bank colour or a reserved card."""
    view = screen.view
    assert view is not None
    if what == "deck":
        return level_row(int(value)), 0  # type: ignore[call-overload]
    if what == "gem":
        return BANK_ROW, int(value)  # type: ignore[call-overload]
    for level in (3, 2, 1):
        for c, cid in enumerate(view.board[level - 1]):
            if cid == value:
                return level_row(level), c + 1
    me = view.me
    assert me is not None
    for i, res in enumerate(me.reserved):
        if res.card == value:
            return MINE_ROW, i
    raise AssertionError(f"{value} is not on the table")


async def go_to(pilot: Pilot[None], screen: TableScreen, square: tuple[int, int]) -> None:
    """Move the cursor to `square` with arrow keys and hjkl."""
    r, c = screen.look.cursor
    row, col = square
    while r != row:
        await pilot.press("down" if row > r else "up")
        r = screen.look.cursor[0]
    c = screen.look.cursor[1]
    while c != col:
        await pilot.press("l" if col > c else "h")
        c = screen.look.cursor[1]
    assert screen.look.cursor == square


def help_text(app: SplendorApp) -> str:
    """Every page of the open help screen as plain text, whole (as scrolling shows it)."""
    console = Console(width=app.size.width, file=io.StringIO(), record=True)
    for page in app.screen.query(".help-page"):
        assert isinstance(page, Static)
        console.print(page.content)
    return console.export_text()


def screen_text(app: SplendorApp) -> str:
    """The screen as plain text, as a player would read it."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True,
        color_system="truecolor", record=True, legacy_windows=False,
    )  # fmt: skip
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def prompt(app: SplendorApp) -> str:
    from client.widgets.panels import PromptLine

    return table(app).query_one(PromptLine).plain


def fewer_than_three(state: GameState) -> bool:
    """R7: fewer than 3 colours left, so a legal take of fewer than 3 different gems."""
    return any(
        isinstance(m, Take) and len(m.colours) < 3 and len(set(m.colours)) == len(m.colours)
        for m in state.legal_moves()
    )


SNAPSHOTS = __import__("pathlib").Path(__file__).parent / "__snapshots__"


def will_return(state: GameState) -> bool:
    """Seat 0 to act with 9 or more tokens and a take of 3: its next take goes over 10 (R13)."""
    return (
        state.phase == "action"
        and sum(state.tokens[0]) >= 9
        and any(isinstance(m, Take) and len(set(m.colours)) == 3 for m in state.legal_moves())
    )


def returning(app: SplendorApp) -> bool:
    """The table asks the player to give tokens back (R13)."""
    main = app.main_screen
    return (
        isinstance(main, TableScreen)
        and main.view is not None
        and main.view.my_turn
        and main.view.phase == "return"
        and not main.choice.waiting
    )


async def take_into_returns(pilot: Pilot[None], kit: Offline) -> TableScreen:
    """Seat the player where a take of three goes over 10 tokens, take it by keys, and
    return the table once it asks which tokens to give back (R13)."""
    pos = find_position(2, will_return)
    await load(pilot, kit, pos)
    app = kit.app
    take = next(
        m for m in pos.state.legal_moves() if isinstance(m, Take) and len(set(m.colours)) == 3
    )
    await pilot.press("t", *["wugrk"[c] for c in take.colours], "enter")
    await wait_for(pilot, lambda: returning(app))
    return table(app)


def check_snapshot(app: SplendorApp, name: str) -> None:
    """Compare the screen with the stored snapshot: the text first (a readable diff), then
    the SVG (colours and styles). SNAPSHOT_UPDATE=1 rewrites the stored files."""
    import os
    import re

    text = screen_text(app)
    svg = re.sub(r"\bterminal-\d+-", "terminal-", app.export_screenshot(title="Splendor"))
    SNAPSHOTS.mkdir(exist_ok=True)
    text_file, svg_file = SNAPSHOTS / f"{name}.txt", SNAPSHOTS / f"{name}.svg"
    if os.environ.get("SNAPSHOT_UPDATE") or not svg_file.exists():
        text_file.write_text(text, encoding="utf-8")
        svg_file.write_text(svg, encoding="utf-8")
        if not os.environ.get("SNAPSHOT_UPDATE"):
            raise AssertionError(f"new snapshot {svg_file.name} written: check it and run again")
        return
    assert text == text_file.read_text(encoding="utf-8"), f"{name}: the screen's text changed"
    assert svg == svg_file.read_text(encoding="utf-8"), f"{name}: the screen's styles changed"


MakeOffline = Callable[..., Awaitable[Offline]]  # the `offline` fixture: options -> a started kit
