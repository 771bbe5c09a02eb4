"""The table's second pass (issue 13): what each player panel shows, noble progress, any
card by id, the move log, the first player and rounds, the key line of each mode, help
per mode, undo and hints offline, and terminals too small for the table."""

from __future__ import annotations

import random
import re

from clientkit import (
    FakeConnection,
    MakeOffline,
    find_position,
    go_to,
    load,
    my_turn,
    prompt,
    screen_text,
    sensible,
    table,
    wait_for,
)

from client.app import SplendorApp
from client.faces import NOBLE_ROW, level_row, order
from client.layout import geometry
from client.screens.help import HelpScreen
from client.screens.table import TableScreen
from client.widgets.keybar import KeyBar
from server.host.bots import run_bot
from shared.cards import CARDS
from shared.deal import new_game
from shared.moves import Reserve, Take
from shared.protocol import SeatSummary, TableUpdate, Welcome, encode
from shared.settings import GameSettings
from shared.state import GameState


def mid_game(state: GameState) -> bool:
    return (
        state.phase == "action"
        and state.turn >= 16
        and len(state.reserved[0]) >= 1
        and any(r for s in range(1, state.num_players) for r in state.reserved[s])
    )


def side(app: SplendorApp) -> list[str]:
    """The players' column, line by line."""
    width = geometry(*app.size).width + 1
    return [line[width:] for line in screen_text(app).splitlines()]


def keys(app: SplendorApp) -> str:
    return table(app).query_one(KeyBar).plain


async def test_four_panels_show_everything_at_80x24(offline: MakeOffline) -> None:
    """Six token counts and their total, bonuses, reserves, points and each bot's level,
    for every player, at the smallest common terminal."""
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        pos = find_position(4, mid_game, policy=sensible)
        await load(pilot, kit, pos)
        column = side(app)
        tokens = [line for line in column if re.match(r"\W?gem( +\d+){7}", line)]
        assert len(tokens) == 4 and "…" not in "".join(column)
        for seat in range(4):
            counts = [str(n) for n in pos.state.tokens[seat]] + [str(sum(pos.state.tokens[seat]))]
            assert any(line.split()[-7:] == counts for line in tokens), seat
        for name in ("Ann (you)", "Easy"):
            assert any(name in line for line in column)
        assert sum("★" in line for line in column) == 4
        assert sum(line.lstrip("▌█ ").startswith("res") for line in column) == 4
        for s in range(1, 4):  # each visible reserve of each opponent is named
            for idx, blind in pos.state.reserved[s]:
                assert blind or CARDS[idx].id in "".join(column)


async def test_nobles_show_what_everyone_still_lacks(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        pos = find_position(3, mid_game, policy=sensible)
        await load(pilot, kit, pos)
        assert "you " in screen_text(app).splitlines()[2]  # under each noble: your lack
        screen = table(app)
        await go_to(pilot, screen, (NOBLE_ROW, 0))
        text = prompt(app)
        assert text.startswith(screen.view.nobles[0]) and "to go: " in text  # type: ignore[union-attr]
        for s in range(1, 3):
            assert screen.names[s] in text  # each opponent's progress too


async def test_the_cursor_reaches_opponents_reserves_and_the_move_log(
    offline: MakeOffline,
) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        pos = find_position(2, mid_game, policy=sensible)
        await load(pilot, kit, pos)
        screen = table(app)
        view = screen.view
        assert view is not None
        await pilot.press("tab")  # to the players, in playing order
        assert screen.look.area == "players"
        other = order(view).index(1)
        await pilot.press(*["down"] * ((other - screen.look.pcursor[0]) % 2))
        card = view.players[1].reserved[0].card
        assert card is not None
        assert f"{card}, reserved by Easy bot 2, who" in prompt(app)
        hand = [ln for ln in screen_text(app).splitlines() if ln.startswith("Hand")][0]
        assert card in hand  # its face beside your hand, with your need under it
        await pilot.press("tab")  # to the moves: the latest first, then back in time
        assert screen.look.area == "moves" and "of" in screen_text(app)
        latest = prompt(app)
        await pilot.press("up", "up")
        assert prompt(app) != latest and prompt(app) in "\n".join(screen.log_lines) + prompt(app)
        await pilot.press("home")
        assert screen.look.log_at == 0 and screen.log_lines[0] in prompt(app)  # the whole game
        await pilot.press("escape")  # back to the board
        assert screen.look.area == "board"


def just_reserved_for_gold(state: GameState) -> bool:
    """The player before seat 0 has just reserved a face-up card and taken a gold (R9)."""
    last = state.last_turns[(state.current_player - 1) % state.num_players]
    return last is not None and isinstance(last.action, Reserve) and last.took_gold


async def test_a_turn_on_the_move_list_keeps_its_card_whole_at_80_columns(
    offline: MakeOffline,
) -> None:
    """The prompt names a turn of the move list and its card (here one reserved by the
    other player, and what they still need for it); at 80 columns that does not fit, so
    only what the player needs for it is said (the card's face shows beside the hand),
    never a line cut off."""
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(2, just_reserved_for_gold))
        await pilot.press("tab", "tab")  # the moves: the latest first
        assert table(app).look.area == "moves"
        line = screen_text(app).splitlines()[-2]
        assert " reserved " in line and " · you " in line and "…" not in line
        assert "who needs" not in line
        await pilot.resize_terminal(140, 40)  # room for the card's whole line
        await wait_for(pilot, lambda: tuple(app.size) == (140, 40))
        await pilot.pause()
        line = screen_text(app).splitlines()[-2]
        assert " reserved " in line and ", who needs " in line and " · you " in line


async def test_a_noble_at_80_columns_says_what_you_lack_and_wide_what_everyone_does(
    offline: MakeOffline,
) -> None:
    """R14: the prompt on a noble lists what each player lacks for it, in playing order;
    at four players that is too long for 80 columns, so it says what you lack (each
    player's panel says theirs), never a line cut off."""
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(4, lambda s: s.turn <= 4))
        await go_to(pilot, table(app), (NOBLE_ROW, 0))
        line = screen_text(app).splitlines()[-2]
        assert " asks " in line and "(3★, R14) · you " in line and "…" not in line
        assert "to go:" not in line
        await pilot.resize_terminal(140, 40)
        await wait_for(pilot, lambda: tuple(app.size) == (140, 40))
        await pilot.pause()
        line = screen_text(app).splitlines()[-2]
        assert "to go: " in line and line.count("Easy bot") == 3


async def test_a_card_id_typed_on_the_move_line_shows_the_card(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(100, 30)) as pilot:
        await load(pilot, kit, find_position(2, lambda s: s.turn <= 2))
        await pilot.press("colon", *"3-17", "enter")
        assert prompt(app).startswith("3-17: blue (U) bonus, 5★, costs 3U 7G — you need")
        hand = [ln for ln in screen_text(app).splitlines() if ln.startswith("Hand")][0]
        assert "3-17" in hand
        await pilot.press("right")  # the cursor moves: back to the board
        assert "3-17" not in prompt(app)
        assert kit.moves == []


async def test_the_first_player_starts_every_round_at_the_top(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(100, 30)) as pilot:
        pos = find_position(3, lambda s: s.turn >= 5 and s.starting_player != 0)
        await load(pilot, kit, pos)
        view = table(app).view
        assert view is not None
        first = table(app).names[view.starting_player]
        panels = [ln for ln in side(app) if "★" in ln]
        assert first in panels[0] and "1st" in panels[0] and "1st" not in "".join(panels[1:])
        names = [table(app).names[s] for s in order(view)]
        at = [next(i for i, ln in enumerate(side(app)) if n in ln) for n in names]
        assert at == sorted(at)  # in playing order, from the first


def test_a_round_starts_when_the_first_player_plays() -> None:
    """The round number moves on exactly when the player who started is to play again."""
    state = new_game(GameSettings(3), 2)
    assert state.starting_player != 0
    rounds = []
    rng = random.Random(2)
    while state.turn < 20:
        view = state.view(0)
        rounds.append((view.round, view.current_player == view.starting_player, view.phase))
        state = state.apply(rng.choice(state.legal_moves()))
    for (r0, _, _), (r1, first, phase) in zip(rounds, rounds[1:], strict=False):
        assert r1 == r0 or (r1 == r0 + 1 and first and phase == "action")


async def test_the_key_line_and_help_follow_the_mode(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(2, lambda s: s.turn <= 2 and s.bank[0] > 0))
        assert "b Buy" in keys(app) and "u Undo" in keys(app) and "i Hint" in keys(app)
        await pilot.press("t", "w")  # picking: r is red here, so no Reserve on the line
        assert "Pick" in keys(app) and "Reserve" not in keys(app) and "⏎ Take" in keys(app)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "Picking gems" in screen_text(app) and "Put back" not in screen_text(app)
        lines = screen_text(app).splitlines()
        assert len(lines) == 24  # the page fits
        await pilot.press("escape", "escape")
        assert "b Buy" in keys(app)
        await go_to(pilot, table(app), (level_row(1), 1))
        await pilot.press("r")
        assert keys(app).startswith("⏎ Yes") and "Reserve" in prompt(app)
        await pilot.press("escape", "q")
        assert keys(app).startswith("y Yes, leave")
        await pilot.press("n")
        assert "b Buy" in keys(app)


async def test_a_terminal_too_small_says_how_big_to_make_it(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(4, lambda s: s.turn <= 4))
        for size in ((79, 24), (80, 21), (20, 8)):
            await pilot.resize_terminal(*size)
            await wait_for(pilot, lambda s=size: tuple(app.size) == s)
            await pilot.pause()
            text = screen_text(app)
            assert "80×22" in text.replace("\n", " ") or size == (20, 8)
            assert "Bank" not in text and table(app).mode == "small"
        await pilot.resize_terminal(80, 22)
        await wait_for(pilot, lambda: tuple(app.size) == (80, 22))
        await pilot.pause()
        assert "Bank" in screen_text(app) and "b Buy" in keys(app)


async def test_undo_takes_back_your_last_move_offline(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        pos = find_position(2, lambda s: s.turn <= 2)
        await load(pilot, kit, pos)
        view = table(app).view
        assert view is not None
        take = next(m for m in view.legal_moves if isinstance(m, Take))
        await pilot.press("t", *["wugrk"[c] for c in take.colours], "enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 2 and my_turn(app))  # the bot too
        before = len(table(app).log_lines) - 2  # the log, less my turn and the bot's
        await pilot.press("u")
        await wait_for(pilot, lambda: kit.moves == [] and my_turn(app))
        assert table(app).view == view  # the same decision as before
        assert "taken back" in prompt(app)
        assert len(table(app).log_lines) == before


async def test_a_hint_shows_the_medium_bots_move_and_why(offline: MakeOffline) -> None:
    kit = await offline(runner=run_bot)
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(2, lambda s: s.turn >= 6, policy=sensible))
        await pilot.press("i")
        await wait_for(pilot, lambda: table(app).state.advice is not None)
        move, reason = table(app).state.advice  # type: ignore[misc]
        assert move in table(app).view.legal_moves  # type: ignore[union-attr]
        assert f"Hint: {move}" in prompt(app)
        assert "Hint (medium bot)" in screen_text(app)  # above the moves, whole
        assert kit.moves == []  # a hint plays nothing


async def test_online_undo_and_hints_are_refused_before_asking() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        state = new_game(GameSettings(2), 1)
        seats = (SeatSummary("Ann"), SeatSummary(None, bot="easy"))
        conn.deliver(encode(TableUpdate("t1", seats, 0, state.view(0))))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert "Undo" not in keys(app) and "Hint" not in keys(app)
        await pilot.press("u")
        assert "only in offline games" in prompt(app)
        await pilot.press("i")
        assert "only for offline games" in prompt(app)
        assert conn.sent == []


async def test_q_online_at_80_columns_asks_in_one_whole_line() -> None:
    """Leaving an online game keeps the seat; at 80 columns the question says so in short
    rather than being cut off before its answers."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        seats = (SeatSummary("Ann"), SeatSummary(None, bot="easy"))
        conn.deliver(encode(TableUpdate("t1", seats, 0, new_game(GameSettings(2), 1).view(0))))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("q")
        line = screen_text(app).splitlines()[-2]
        assert "Leave this game and quit? Your seat is kept.  y: yes · n: no" in line
        await pilot.resize_terminal(120, 40)
        await wait_for(pilot, lambda: tuple(app.size) == (120, 40))
        await pilot.pause()
        assert "connect again to play on.  y: yes · n: no" in screen_text(app)
        await pilot.press("n")
        assert "Leave this game" not in screen_text(app) and "q Quit" in keys(app)


async def test_q_on_a_terminal_too_small_quits_at_once(offline: MakeOffline) -> None:
    """Issue 32: the too-small screen says "q quits", and the first q does."""
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(2, lambda s: s.turn <= 2))
        await pilot.resize_terminal(60, 20)
        await wait_for(pilot, lambda: table(app).mode == "small")
        # the mode changes first, the screen on its next refresh (a busy machine: later)
        await wait_for(pilot, lambda: "q quits" in screen_text(app).replace("\n", " "))
        assert "q Quit" in keys(app)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None)


async def test_the_key_line_follows_the_mode_online_and_while_looking() -> None:
    """Issue 32: online the table's key line has m (the next game) and Esc (the lobby)
    at 80 columns, the spare keys giving way, not help or quit; looking at the players
    or the moves has a key line of its own."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        state = new_game(GameSettings(2), 1)  # seat 1 starts: Ann's
        seats = (SeatSummary(None, bot="easy"), SeatSummary("Ann"))
        conn.deliver(encode(TableUpdate("t1", seats, 1, state.view(1))))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        line = keys(app)
        assert line.startswith("b Buy") and "c Chat  m Next game  esc Lobby" in line
        assert line.endswith("? Help  q Quit") and "Tab Look" not in line  # Tab gave way
        await pilot.press("tab")
        assert "Players, reserves" in keys(app) and "esc Board" in keys(app)
        await pilot.press("tab")
        assert "PgUp PgDn" in keys(app) and "Buy" not in keys(app)
        await pilot.press("escape")
        assert "m Next game" in keys(app) and not conn.sent  # back on the board, not away
