"""Snapshots of the table in each of its states (issue 13), at 80x24 with 2, 3 and 4
players and at 120x40 with 4, of the screen a terminal too small for it gets, and of a
table online with its chat beside the moves (issue 32) at 80x24, 120x40 and 160x50.

The app is fed host messages directly (`FakeConnection`): a position from a seeded
playout with the host's fallback bot, the move log so far, and for a finished game
the seed; then keys. Nothing waits on a host or a bot, so every snapshot is exact.
Read a changed snapshot's .txt before accepting it (SNAPSHOT_UPDATE=1 rewrites them).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from clientkit import (
    FakeConnection,
    Position,
    check_snapshot,
    find_position,
    play_to_end,
    screen_text,
    sensible,
    wait_for,
)

from client.app import SplendorApp
from client.screens.help import HelpScreen
from client.screens.table import TableScreen
from shared.deal import turns
from shared.moves import Buy, Take
from shared.protocol import (
    ChatLine,
    ChatLines,
    LoggedTurn,
    SeatSummary,
    TableUpdate,
    Welcome,
    encode,
)
from shared.settings import GameSettings
from shared.state import GameState

LEVELS = ("easy", "medium", "hard")


def mid_game(state: GameState) -> bool:
    """Seat 0 to play a move, with a reserve and tokens, someone else with a reserve."""
    return (
        state.phase == "action"
        and 4 * 4 <= state.turn <= 4 * 12
        and len(state.reserved[0]) >= 1
        and sum(state.tokens[0]) >= 4
        and any(len(state.reserved[s]) for s in range(1, state.num_players))
    )


def returning(state: GameState) -> bool:
    return state.phase == "return" and state.turn >= 8


def position(players: int, state: str) -> Position:
    if state == "over":
        return play_to_end(players, 3)
    if state == "return":
        return find_position(players, returning)
    return find_position(players, mid_game, policy=sensible)


def seats(players: int) -> tuple[SeatSummary, ...]:
    return (SeatSummary("Ann"), *(SeatSummary(None, bot=LEVELS[i % 3]) for i in range(players - 1)))


def picks(state: GameState) -> list[str]:
    takes = [m for m in state.legal_moves() if isinstance(m, Take)]
    take = max(takes, key=lambda m: len(set(m.colours)))  # type: ignore[attr-defined]
    return ["t", *["wugrk"[c] for c in take.colours[:2]]]  # type: ignore[attr-defined]


def confirm(state: GameState) -> list[str]:
    """b on a card seat 0 can buy (the cursor starts on the first), else r on a card."""
    return ["b"] if any(isinstance(m, Buy) for m in state.legal_moves()) else ["r"]


def giving(state: GameState) -> list[str]:
    most = max(range(5), key=lambda c: state.tokens[0][c])
    return ["wugrk"[most]]


def looking(state: GameState) -> list[str]:
    """Tab to the players, then down to the first one holding a visible reserve."""
    order = [(state.starting_player + i) % state.num_players for i in range(state.num_players)]
    at = next(i for i, s in enumerate(order) if s != 0 and state.reserved[s])
    return ["tab", *["down"] * at]


STATES: dict[str, Callable[[GameState], list[str]]] = {
    "choose": lambda s: [],
    "pick": picks,
    "confirm": confirm,
    "return": giving,
    "look": looking,
    "moves": lambda s: ["tab", "tab", "up", "up"],
    "watch": lambda s: [],
    "over": lambda s: [],
    "help": lambda s: ["question_mark"],
}
CASES = [(state, (80, 24), n) for state in STATES for n in (2, 3, 4)]
CASES += [(state, (120, 40), 4) for state in STATES]


@pytest.mark.parametrize(
    ("state", "size", "players"), CASES, ids=[f"{s}-{w}x{h}-{n}p" for s, (w, h), n in CASES]
)
async def test_snapshot(state: str, size: tuple[int, int], players: int) -> None:
    pos = position(players, state)
    seat = None if state == "watch" else 0
    log = tuple(LoggedTurn(s, t) for s, t in turns(GameSettings(players), pos.seed, pos.moves))
    conn = FakeConnection()
    app = SplendorApp(conn, local=seat is not None)
    async with app.run_test(size=size) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        seed = pos.seed if pos.state.is_over else None
        update = TableUpdate("t1", seats(players), seat, pos.state.view(seat), log, seed=seed)
        conn.deliver(encode(update))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press(*STATES[state](pos.state))
        if state == "help":
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        check_snapshot(app, f"{state}_{size[0]}x{size[1]}_{players}p")


async def test_snapshot_too_small() -> None:
    """Below 80x22 the table says how big the terminal must be, and the keys that work."""
    pos = position(3, "choose")
    conn = FakeConnection()
    app = SplendorApp(conn, local=True)
    async with app.run_test(size=(60, 20)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(TableUpdate("t1", seats(3), 0, pos.state.view(0))))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert "at least 80×22" in screen_text(app)
        check_snapshot(app, "too_small_60x20")


CHAT = (
    ("Ann", "good luck all", False),
    ("Cy", "nice reserve on 3-17, whoever took it", True),
    ("Ann", "thanks! the bots are quick tonight", False),
    ("Dee", "[b]markup[/b] shows as typed", True),
    ("Ann", "my turn: taking blue, I think, or the 1-25", False),
)
CHAT_CASES = [((80, 24), 2), ((120, 40), 4), ((160, 50), 3)]


@pytest.mark.parametrize(
    ("size", "players"), CHAT_CASES, ids=[f"{w}x{h}-{n}p" for (w, h), n in CHAT_CASES]
)
async def test_snapshot_chat(size: tuple[int, int], players: int) -> None:
    """Online, the table's chat has its own column beside the moves: its newest lines,
    wrapped, a spectator's marked; the moves keep their place and their count."""
    pos = position(players, "choose")
    log = tuple(LoggedTurn(s, t) for s, t in turns(GameSettings(players), pos.seed, pos.moves))
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=size) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(TableUpdate("t1", seats(players), 0, pos.state.view(0), log)))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        turn = pos.state.turn
        lines = tuple(ChatLine(i, n, t, turn, w) for i, (n, t, w) in enumerate(CHAT, 1))
        conn.deliver(encode(ChatLines("t1", lines, whole=True)))
        await wait_for(pilot, lambda: "the 1-25" in screen_text(app))
        assert f" Moves  {len(log)} · " in screen_text(app)
        check_snapshot(app, f"chat_{size[0]}x{size[1]}_{players}p")
