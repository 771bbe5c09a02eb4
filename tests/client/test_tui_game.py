"""A whole game against bots, to the end, with key presses only (issue 4, item 7)."""

from __future__ import annotations

import random

from clientkit import MakeOffline, go_to, returning, screen_text, square_of, table, wait_for
from textual import events

from client.app import SplendorApp
from client.model import shortfall
from client.screens.help import HelpScreen
from client.screens.setup import GameSetup
from client.screens.table import TableScreen
from server.host.bots import run_bot
from shared.cards import card
from shared.deal import replay
from shared.moves import Buy, Reserve, ReserveDeck, Return, Take
from shared.settings import GameSettings
from shared.view import PlayerView

KEYS = "wugrk"


def over(app: SplendorApp) -> bool:
    main = app.main_screen
    return isinstance(main, TableScreen) and main.view is not None and main.view.is_over


def plan(view: PlayerView) -> tuple[str, object]:
    """What a plain player would do: buy the best card, else take what the nearest card needs."""
    legal = view.legal_moves
    buys = [m for m in legal if isinstance(m, Buy)]
    if buys:
        best = max(buys, key=lambda m: (card(m.card).prestige, -sum(card(m.card).cost)))
        return "buy", best.card
    me = view.me
    assert me is not None
    cards = [c for row in view.board for c in row if c is not None]
    cards += [r.card for r in me.reserved if r.card is not None]
    target = min(cards, key=lambda c: (sum(shortfall(c, me)), c))
    short = shortfall(target, me)
    takes = [m for m in legal if isinstance(m, Take)]
    if takes and me.token_count <= 8:
        return "take", max(
            takes, key=lambda m: (len(m.colours), sum(short[c] > 0 for c in m.colours))
        )
    reserves = [m for m in legal if isinstance(m, ReserveDeck | Reserve)]
    if reserves:
        return "reserve", reserves[0]
    if takes:
        return "take", takes[0]
    return "pass", None


async def test_a_whole_game_against_easy_bots_by_keys_only(offline: MakeOffline) -> None:
    kit = await offline(runner=run_bot, setup=GameSetup(3, ("easy", "easy"), seed=11))
    app = kit.app
    turns = 0
    async with app.run_test(size=(100, 30)) as pilot:

        def ready() -> bool:
            if over(app) or returning(app):
                return True
            main = app.main_screen
            return (
                main is not None
                and main is app.screen
                and getattr(main, "view", None) is not None
                and table(app).view.my_turn  # type: ignore[union-attr]
                and not table(app).choice.waiting
            )

        while not over(app):
            await wait_for(pilot, ready, steps=2000)
            if over(app):
                break
            if returning(app):
                move = table(app).view.legal_moves[0]  # type: ignore[union-attr]
                assert isinstance(move, Return)
                before = len(kit.moves)
                await pilot.press(
                    *["wugrk*"[c] if c < 5 else "asterisk" for c in move.tokens], "enter"
                )
                await wait_for(pilot, lambda before=before: len(kit.moves) > before)
                continue
            screen = table(app)
            view = screen.view
            assert view is not None
            turns += 1
            assert turns < 200, "the game does not end"
            kind, what = plan(view)
            before = len(kit.moves)
            if kind == "buy":
                await go_to(pilot, screen, square_of(screen, "card", what))
                await pilot.press("b", "enter")
            elif kind == "take":
                assert isinstance(what, Take)
                await pilot.press("t", *[KEYS[c] for c in what.colours], "enter")
            elif kind == "reserve":
                if isinstance(what, ReserveDeck):
                    await go_to(pilot, screen, square_of(screen, "deck", what.level))
                else:
                    assert isinstance(what, Reserve)
                    await go_to(pilot, screen, square_of(screen, "card", what.card))
                await pilot.press("r", "enter")
            else:
                await pilot.press("p", "enter")
            await wait_for(pilot, lambda before=before: len(kit.moves) > before)
        state = kit.state
        assert state is not None and state.is_over
        outcome = state.outcome()
        assert outcome is not None
        text = screen_text(app)
        assert "Game over" in text
        for seat in range(3):
            assert str(outcome.scores[seat]) in text
        assert any(m.startswith("buy") for m in kit.moves[0::1])
        # The whole game went through the app's keys: every human move is in the log.
        assert turns >= 10


async def test_random_keys_never_break_the_table(offline: MakeOffline) -> None:
    """Seeded random keys (moves, cursor, the move line, dialogs, resizes, pastes) for a
    while: the app keeps running, every screen renders, and only legal moves are sent."""
    rng = random.Random(5)
    keys = [
        *"bBrRtTwWuUgGkKpP*:;jhl ",
        "up", "down", "left", "right", "enter", "escape", "backspace", "delete",
        "home", "end", "ctrl+u", "ctrl+k", "question_mark", "tab",
    ]  # fmt: skip
    kit = await offline(runner=run_bot, setup=GameSetup(2, ("easy",), seed=3))
    app = kit.app
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.main_screen is not None and table(app).view is not None)
        for step in range(300):
            if over(app):
                break
            if step % 97 == 0:
                await pilot.resize_terminal(rng.choice((80, 100, 120)), rng.choice((24, 30, 40)))
            if step % 61 == 0 and app.main_screen is app.screen:
                table(app).post_message(events.Paste(rng.choice(("take W U G", "buy 1-0", "x\ny"))))
            if isinstance(app.screen, HelpScreen):
                await pilot.press("escape")
                continue
            if table(app).quitting:
                await pilot.press("n")
                continue
            await pilot.press(rng.choice(keys))
            assert app.is_running, f"the app stopped at step {step}"
        await pilot.pause()
        assert screen_text(app).strip()  # something a player can read
    assert len(kit.moves) >= 2  # the keys got a move through, and the bot answered
    # every move the keys sent was legal, in order (raises if not)
    replay(GameSettings(2), 3, kit.moves)
