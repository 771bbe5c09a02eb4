"""Persian over real SSH at 80x24, read through pyte (a terminal that does no bidi, like
xterm or tmux): the reading question, then the lobby laid out by the app in visual mode
(its explicit-mode escape sent, and reset when the player leaves), a Persian chat line
shown laid out to the Persian reader and as written to another (client/rtl.py)."""

from __future__ import annotations

from typing import Any

from gamekit import game_server
from sshkit import Player

from client.bidi import visual
from client.rtl import EXPLICIT, IMPLICIT, TextLayout
from client.screens.reading import sample
from server.commands.cli import make_app
from server.host.identity import Identity

# "I bought card 1-07 with three gems and a gold" (the seeds' words: گوهر, طلا, کارت)
SAID = "کارت 1-07 را با سه گوهر و یک طلا خریدم"


def persian_for_ann(connection: Any, identity: Identity) -> Any:
    """The server's app; ann's reads Persian (until the language choice lands, the flag
    is set here as the language would set it)."""
    app = make_app(connection, identity)
    if identity.name.endswith("ann"):
        app.layout = TextLayout.of("fa_IR.UTF-8")
    return app


def paste(text: str) -> bytes:
    return b"t\x1b[200~" + text.encode() + b"\x1b[201~\r"


async def test_persian_in_visual_mode_over_ssh(tmp_path, bot_executor) -> None:  # type: ignore[no-untyped-def]
    async with game_server(tmp_path, bot_executor, app_factory=persian_for_ann) as game:
        ann = await Player.login(game.port, "ann", size=(80, 24))
        await ann.wait_for(visual(sample("1")))  # line 1: laid out by the app
        # Line 2 as written (pyte does no bidi; it drops what follows a ZWNJ: the bytes tell).
        text = await ann.wait_for(sample("2").split("\u200c")[0])
        assert "Which line reads right?" in text and "Konsole" in text
        raw = bytes(ann.term.raw)
        assert sample("2").encode() in raw
        assert IMPLICIT.encode() in raw  # the terminal's own layout while asking
        ann.press("1")
        await ann.wait_for("Splendor lobby")
        raw = bytes(ann.term.raw)
        assert raw.rfind(EXPLICIT.encode()) > raw.rfind(IMPLICIT.encode())  # lines as drawn

        bob = await Player.login(game.port, "bob", size=(80, 24))
        await bob.wait_for("Splendor lobby")
        bob.press(paste(SAID))
        shown = await ann.wait_for(visual(SAID))  # joined, right to left, 1-07 as typed
        row = next(line for line in shown.splitlines() if visual(SAID) in line)
        assert row.rstrip(" ▏").endswith(visual(SAID) + " :guest-bob")  # from the right
        assert SAID not in shown
        await bob.wait_for(f"guest-bob: {SAID}")  # bob chose nothing: sent as written

        ann.press("q")
        await ann.closed()
        raw = bytes(ann.term.raw)
        assert raw.rfind(IMPLICIT.encode()) > raw.rfind(EXPLICIT.encode())  # reset on leaving
        await bob.close()


async def test_persian_in_logical_mode_over_ssh(tmp_path, bot_executor) -> None:  # type: ignore[no-untyped-def]
    async with game_server(tmp_path, bot_executor, app_factory=persian_for_ann) as game:
        ann = await Player.login(game.port, "ann", size=(80, 24))
        await ann.wait_for(visual(sample("1")))
        ann.press("2")
        await ann.wait_for("Splendor lobby")
        ann.press(paste(SAID))
        await ann.wait_for(f"guest-ann: {SAID}")  # as written: the terminal lays it out
        assert EXPLICIT.encode() not in bytes(ann.term.raw)
        await ann.close()


def kept_visual(connection: Any, identity: Identity) -> Any:
    app = make_app(connection, identity)
    app.layout = TextLayout.of("fa", "visual")  # the answer kept with the language
    return app


async def test_a_kept_answer_is_not_asked_again(tmp_path, bot_executor) -> None:  # type: ignore[no-untyped-def]
    async with game_server(tmp_path, bot_executor, app_factory=kept_visual) as game:
        ann = await Player.login(game.port, "ann", size=(80, 24))
        text = await ann.wait_for("Splendor lobby")
        assert "Which line" not in text
        raw = bytes(ann.term.raw)
        assert raw.index(EXPLICIT.encode()) < raw.index(b"Splendor")  # before the first frame
        assert IMPLICIT.encode() not in raw  # never asked
        await ann.close()
