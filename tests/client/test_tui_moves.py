"""Every kind of move made with keys, and refusals that say why (issue 4, item 4)."""

from __future__ import annotations

import threading

from clientkit import (
    MakeOffline,
    fewer_than_three,
    find_position,
    go_to,
    load,
    my_turn,
    prompt,
    screen_text,
    sensible,
    square_of,
    table,
    take_into_returns,
    wait_for,
)
from textual import events

from client.faces import MINE_ROW
from server.host.bots import fallback_choose_move_bytes
from shared.moves import Buy, Take
from shared.protocol import notice
from shared.state import GameState

SIZE = (100, 30)


def first_turn(state: GameState) -> bool:
    return state.turn <= 2


async def test_take_three_with_t_and_gem_letters(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, first_turn))
        await pilot.press("t", "w", "u", "g")
        assert "Take W U G" in prompt(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == "take W U G"
        await wait_for(pilot, lambda: my_turn(app))
        assert "Ann took W U G" in table(app).log_lines
        assert "Ann took W U G" in screen_text(app)


async def test_take_three_with_capital_letters_and_backspace(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, first_turn))
        await pilot.press("R", "K", "U", "backspace", "W", "enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == "take W R K"


async def test_r8_take_two_the_same(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, first_turn))
        await pilot.press("t", "r", "r", "enter")  # lowercase r picks red while taking
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == "take R R"


async def test_r7_take_fewer_than_three_when_few_colours_are_left(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        pos = find_position(2, fewer_than_three)
        await load(pilot, kit, pos)
        left = [c for c in range(5) if pos.state.bank[c]]
        await pilot.press("t", *["wugrk"[c] for c in left], "enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == str(Take(tuple(left)))


async def test_r9_reserve_a_face_up_card_with_the_cursor(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        pos = find_position(2, first_turn)
        await load(pilot, kit, pos)
        screen = table(app)
        target = pos.state.view(0).board[1][2]
        await go_to(pilot, screen, square_of(screen, "card", target))
        await pilot.press("r")
        assert "Reserve" in prompt(app) and "1 gold" in prompt(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == f"reserve {target}"
        await wait_for(pilot, lambda: my_turn(app))
        assert f"Ann reserved {target} and took 1 gold" in table(app).log_lines


async def test_r9_reserve_blind_from_a_deck_pressing_r_twice(offline: MakeOffline) -> None:
    """The question is asked whole at 80 columns (the key line says Enter and Esc)."""
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(2, first_turn))
        screen = table(app)
        await go_to(pilot, screen, square_of(screen, "deck", 3))
        await pilot.press("r")
        asked = screen_text(app).splitlines()[-2].strip()
        assert asked == "Reserve the top card of the level 3 deck and take 1 gold?"
        await pilot.press("r")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == "reserve deck 3"
        await wait_for(pilot, lambda: my_turn(app))
        mine = kit.state.view(0).players[0].reserved  # type: ignore[union-attr]
        assert mine[0].blind and mine[0].card is not None
        assert screen.view is not None and screen.view.me is not None
        assert screen.view.me.reserved[0].card == mine[0].card  # own blind card shown in full


def can_buy_from_board(state: GameState) -> bool:
    board = {c for row in state.board for c in row}
    return any(isinstance(m, Buy) and m.index in board for m in state.legal_moves())


async def test_r10_buy_a_face_up_card(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, can_buy_from_board, policy=sensible))
        screen = table(app)
        view = screen.view
        assert view is not None
        cid = next(m.card for m in view.legal_moves if isinstance(m, Buy))
        await go_to(pilot, screen, square_of(screen, "card", cid))
        assert "✓ buy" in screen_text(app)  # affordable cards say so
        await pilot.press("b")
        assert f"Buy {cid} paying" in prompt(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == f"buy {cid}"


def can_buy_reserved(state: GameState) -> bool:
    mine = {i for i, _ in state.reserved[0]}
    return any(isinstance(m, Buy) and m.index in mine for m in state.legal_moves())


async def test_r10_buy_a_reserved_card_pressing_b_twice(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        pos = find_position(2, can_buy_reserved, policy=sensible)
        state = pos.state
        await load(pilot, kit, pos)
        screen = table(app)
        mine = [r.card for r in state.view(0).players[0].reserved]
        cid = next(c for c in mine if c is not None and Buy(c) in state.legal_moves())
        square = square_of(screen, "card", cid)
        assert square[0] == MINE_ROW
        await go_to(pilot, screen, square)
        await pilot.press("b", "b")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == f"buy {cid}"


async def test_r13_return_tokens_with_the_table_in_view(offline: MakeOffline) -> None:
    """The R13 choice happens on the table (issue 13: no dialog over the board, the bank
    and your needs): the bank shows what goes back, the cards what you would need."""
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        screen = await take_into_returns(pilot, kit)
        after = kit.state
        assert after is not None and after.phase == "return"
        held = after.tokens[0]
        excess = sum(held) - 10
        order = sorted(range(6), key=lambda c: -held[c])
        picks = []
        for c in order:
            picks += [c] * held[c]
        picks = picks[:excess]
        assert "(R13)" in screen_text(app) and "Bank" in screen_text(app)
        await pilot.press("enter")  # too few chosen: refused, still choosing
        assert screen.mode == "return"
        assert "exactly" in screen_text(app)
        first = picks[0]
        await pilot.press("wugrk*"[first] if first < 5 else "asterisk")
        assert f"{screen.view.bank[first]}-1" in screen_text(app)  # type: ignore[union-attr]
        await pilot.press(*["wugrk*"[c] if c < 5 else "asterisk" for c in picks[1:]], "enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 2)
        assert kit.moves[1] == "return " + " ".join("WUGRK*"[c] for c in sorted(picks))
        assert screen.mode != "return"


async def test_colon_types_a_move_in_notation(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, first_turn))
        await pilot.press("colon", *"take gur", "enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == "take U G R"


async def test_the_move_line_edits_and_keeps_every_key_it_is_typed(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, first_turn))
        await pilot.press("colon", *"tke gu", *["left"] * 5, "a", "end", "r")
        assert prompt(app) == "take gur"
        assert " take gur " in screen_text(app)  # drawn on the prompt line
        await pilot.press("escape")
        assert kit.moves == [] and "take gur" not in screen_text(app)
        await pilot.press("colon", "q", "question_mark")  # letters, not Quit and Help
        assert prompt(app) == "q?" and isinstance(app.screen, type(table(app)))
        await pilot.press("ctrl+u", *"take gux", "backspace", "r", "enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == "take U G R"


async def test_a_pasted_move_lands_on_the_move_line(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, first_turn))
        table(app).post_message(events.Paste("take w u\ng\n"))  # bracketed paste, any spacing
        await wait_for(pilot, lambda: prompt(app) == "take w u g")
        assert kit.moves == []  # a paste is typed, not played: Enter plays it
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(kit.moves) >= 1)
        assert kit.moves[0] == "take W U G"


async def test_illegal_attempts_say_why(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        pos = find_position(2, lambda s: s.turn > 8 and 0 < s.bank[0] < 4 and s.bank[1] > 0)
        await load(pilot, kit, pos)
        screen = table(app)
        view = screen.view
        assert view is not None
        await pilot.press("t", "w", "w")
        assert "taking two needs 4 (R8)" in prompt(app)
        await pilot.press("escape")
        expensive = next(
            c for c in view.board[2] if c is not None and Buy(c) not in view.legal_moves
        )
        await go_to(pilot, screen, square_of(screen, "card", expensive))
        await pilot.press("b")
        assert "(R10)" in prompt(app) and expensive in prompt(app)
        await pilot.press("colon", *"take W W W", "enter")
        assert "is not a move" in prompt(app)
        await pilot.press("asterisk")
        assert "gold is never taken" in prompt(app)
        kit.link.deliver(notice("illegal move: something the host refused"))
        await pilot.pause()
        await wait_for(pilot, lambda: "the host refused" in prompt(app))
        assert kit.moves == []  # nothing illegal was ever sent


async def test_keys_on_another_players_turn_say_whose_turn_it_is(offline: MakeOffline) -> None:
    release = threading.Event()

    def slow(data: bytes) -> str:
        release.wait(10)
        return fallback_choose_move_bytes(data)

    kit = await offline(runner=slow)
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        pos = find_position(2, first_turn)
        await load(pilot, kit, pos.apply(Take((0, 1, 2))))
        await pilot.press("t")
        assert "Easy bot 2's turn" in prompt(app)
        release.set()
        await wait_for(pilot, lambda: my_turn(app))
