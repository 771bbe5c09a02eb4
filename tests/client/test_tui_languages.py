"""The app with every message translated (issue 34): a pseudo-translation of the whole
template (each letter accented, fields and markup kept) stands in for a language until
its translators have written it, so every screen is drawn through the catalog, with
Czech's three plural forms, and nothing breaks."""

from __future__ import annotations

import random
from pathlib import Path

from catalogkit import catalogs_of, pseudo_catalog
from clientkit import MakeOffline, screen_text, table, wait_for
from textual import events

from client.app import SplendorApp
from client.screens.help import HelpScreen
from client.screens.setup import GameSetup
from server.commands.catalog import TEMPLATE
from server.host.bots import run_bot
from shared.deal import replay
from shared.i18n import Reader, use_reader
from shared.settings import GameSettings


def over(app: SplendorApp) -> bool:
    view = table(app).view
    return view is not None and view.is_over


async def test_random_keys_in_a_translated_app_never_break_it(
    offline: MakeOffline, monkeypatch, tmp_path: Path
) -> None:
    rng = random.Random(7)
    keys = [
        *"bBrRtTwWuUgGkKpP*:;jhl ",
        "up", "down", "left", "right", "enter", "escape", "backspace",
        "question_mark", "tab",
    ]  # fmt: skip
    with catalogs_of(monkeypatch, tmp_path / "locale", {"cs": pseudo_catalog(TEMPLATE)}):
        use_reader(Reader("cs"))
        kit = await offline(runner=run_bot, setup=GameSetup(3, ("easy", "easy"), seed=4))
        app = kit.app
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot, lambda: app.main_screen is not None and table(app).view is not None
            )
            assert "Hélp" in screen_text(app) or "Qúít" in screen_text(app)  # the key line
            for step in range(250):
                if over(app):
                    break
                if step % 83 == 0:
                    await pilot.resize_terminal(rng.choice((80, 120)), rng.choice((24, 40)))
                if step % 61 == 0 and app.main_screen is app.screen:
                    table(app).post_message(events.Paste("take W U G"))
                if isinstance(app.screen, HelpScreen):
                    for _page in range(4):
                        await pilot.press("tab")  # every page of help, translated
                    await pilot.press("escape")
                    continue
                if table(app).quitting:
                    await pilot.press("n")
                    continue
                await pilot.press(rng.choice(keys))
                assert app.is_running, f"the app stopped at step {step}"
            await pilot.pause()
            assert screen_text(app).strip()
        assert len(kit.moves) >= 2
        replay(GameSettings(3), 4, kit.moves)  # every move the keys sent was legal
