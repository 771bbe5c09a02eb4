"""Helpers for the client tests: positions found by seeded playouts, an app on a local
host, waiting for the host, pressing keys to reach a board square, screen text."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from rich.console import Console
from textual.pilot import Pilot

from client.app import SplendorApp
from client.faces import BANK_ROW, LEVEL_ROWS, MINE_ROW
from client.local import LocalHost, fallback_move
from client.screens.returns import ReturnTokens
from client.screens.table import TableScreen
from shared.deal import new_game
from shared.moves import TAKE, Move
from shared.state import GameState

HUMAN = 0


def take_heavy(state: GameState, rng: random.Random) -> Move:
    """A seeded random policy that mostly takes gems (drains the bank, fills hands)."""
    legal = state.legal_moves()
    takes = [m for m in legal if m.kind == TAKE]
    if takes and rng.random() < 0.8:
        return rng.choice(takes)
    return rng.choice(legal)


def sensible(state: GameState, rng: random.Random) -> Move:
    """The local host's fallback bot, for games that get somewhere."""
    return fallback_move(state.view(state.current_player), "easy", rng.randrange(1 << 30))


def find_position(
    players: int,
    wanted: Callable[[GameState], bool],
    policy: Callable[[GameState, random.Random], Move] = take_heavy,
    tries: int = 400,
    max_moves: int = 300,
) -> GameState:
    """The first state of seeded playouts where it is seat 0's decision and `wanted` holds."""
    for seed in range(tries):
        rng = random.Random(seed)
        state = new_game(players, seed)
        for _ in range(max_moves):
            if state.is_over:
                break
            if state.current_player == HUMAN and wanted(state):
                return state
            state = state.apply(policy(state, rng))
    raise AssertionError("no playout reached the wanted position")


def play_to_end(players: int, seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_game(players, seed)
    while not state.is_over:
        state = state.apply(sensible(state, rng))
    return state


def make_app(name: str = "Ann") -> tuple[SplendorApp, LocalHost]:
    """An app on a local host whose bots move without delay, using the fallback bot
    (so positions do not depend on `shared.bots`)."""
    host = LocalHost(name, bot_delay=0, chooser=fallback_move)
    return SplendorApp(host.connect(), local=True), host


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


def my_turn(app: SplendorApp) -> bool:
    main = app.main_screen
    return (
        isinstance(main, TableScreen)
        and main.view is not None
        and main.view.my_turn
        and not main.waiting
        and app.screen is main
    )


async def load(pilot: Pilot[None], app: SplendorApp, host: LocalHost, state: GameState) -> None:
    """Seat the human at `state` (bots: easy) and wait for the table screen."""
    host.load(state, (None, *["easy"] * (state.num_players - 1)))
    await wait_for(
        pilot, lambda: isinstance(app.main_screen, TableScreen) and table(app).view is not None
    )
    await pilot.pause()


def square_of(screen: TableScreen, what: str, value: object) -> tuple[int, int]:
    """The cursor square of a card id, a deck level, a bank colour or a reserved card."""
    view = screen.view
    assert view is not None
    if what == "deck":
        return LEVEL_ROWS.index(int(value)), 0  # type: ignore[call-overload]
    if what == "gem":
        return BANK_ROW, int(value)  # type: ignore[call-overload]
    for r, level in enumerate(LEVEL_ROWS):
        for c, cid in enumerate(view.board[level - 1]):
            if cid == value:
                return r, c + 1
    me = view.me
    assert me is not None
    for i, res in enumerate(me.reserved):
        if res.card == value:
            return MINE_ROW, i
    raise AssertionError(f"{value} is not on the table")


async def go_to(pilot: Pilot[None], screen: TableScreen, square: tuple[int, int]) -> None:
    """Move the cursor to `square` with arrow keys and hjkl."""
    r, c = screen.cursor
    row, col = square
    while r != row:
        await pilot.press("down" if row > r else "up")
        r = screen.cursor[0]
    c = screen.cursor[1]
    while c != col:
        await pilot.press("l" if col > c else "h")
        c = screen.cursor[1]
    assert screen.cursor == square


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
        m.kind == TAKE and len(m.colours) < 3 and len(set(m.colours)) == len(m.colours)  # type: ignore[attr-defined]
        for m in state.legal_moves()
    )


SNAPSHOTS = __import__("pathlib").Path(__file__).parent / "__snapshots__"


def will_return(state: GameState) -> bool:
    """Seat 0 to act with 9 or more tokens and a take of 3: its next take goes over 10 (R13)."""
    return (
        state.phase == "action"
        and sum(state.tokens[0]) >= 9
        and any(m.kind == TAKE and len(set(m.colours)) == 3 for m in state.legal_moves())  # type: ignore[attr-defined]
    )


async def take_into_returns(pilot: Pilot[None], app: SplendorApp, host: LocalHost) -> ReturnTokens:
    """Seat the human where a take of three goes over 10 tokens, take it by keys, and
    return the R13 dialog that opens."""
    state = find_position(2, will_return)
    await load(pilot, app, host, state)
    take = next(m for m in state.legal_moves() if m.kind == TAKE and len(set(m.colours)) == 3)  # type: ignore[attr-defined]
    await pilot.press("t", *["wugrk"[c] for c in take.colours], "enter")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, ReturnTokens))
    dialog = app.screen
    assert isinstance(dialog, ReturnTokens)
    return dialog


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
