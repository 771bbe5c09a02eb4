"""Hostile text over real SSH, read off another player's terminal byte by byte: the
corpus of tests/hostile.py said in the lobby's chat by a client of the host (escape
sequences and all, under a name no login could have), and pasted by a player over SSH
(Textual's own parser turns an ESC inside a paste into keys, so the paste carries the
rest: C1 controls, bidirectional controls, zero-width formats). None of it reaches the
terminal; the text around it reads as `shared.text.safe_text` says, and what languages
need (a ZWNJ inside Persian words, Czech and Hungarian accents) comes through. Also: a
ban's reason on the refused player's terminal, and a log line quoting a player."""

from __future__ import annotations

import logging
import sys

import asyncssh
import pytest
from gamekit import game_server
from hostile import HOSTILE, KEPT, leaks
from hostkit import HostConnection
from sshkit import Player

from server.commands.cli import SafeFormatter
from server.host.identity import Identity
from shared.chat import MAX_CHAT
from shared.protocol import Say
from shared.text import safe_text

SIZE = (200, 30)  # wide: a whole chat line shows
ROOM = 150  # characters of a chat line, once clean, that a chunk of the corpus fills
EVIL_NAME = "mal\u202elory\x1b[41;1337m"  # shown as "mallory"


def chunks(corpus: list[str]) -> list[str]:
    """`corpus` in lines of chat, each `ROOM` characters at most once clean."""
    out, line = [], ""
    for said in corpus:
        longer = f"{line} {said}" if line else said
        if line and len(safe_text(f"#0 {longer}", MAX_CHAT)) > ROOM:
            out.append(line)
            longer = said
        line = longer
    return [f"#{i} {text}" for i, text in enumerate([*out, line])]


def paste(text: str) -> bytes:
    return b"t\x1b[200~" + text.encode() + b"\x1b[201~\r"


def clean_bytes(player: Player) -> None:
    raw = bytes(player.term.raw)
    assert not leaks(raw), leaks(raw)
    assert b"\x1b]0;PWNED" not in raw and b"\xc2\x9b" not in raw
    assert "\u202e".encode() not in raw


async def test_hostile_chat_reaches_another_terminal_as_plain_text(tmp_path, bot_executor):
    async with game_server(tmp_path, bot_executor) as game:
        ann = await Player.login(game.port, "ann", size=SIZE)
        zed = await Player.login(game.port, "zed", size=SIZE)
        for player in (ann, zed):
            await player.wait_for("No chat yet")
        mallory = HostConnection(game.host, Identity(EVIL_NAME, False, "SHA256:mallory-key"))
        everything = [said for said, _ in HOSTILE.values() if "\ud800" not in said]
        lines = chunks(everything)
        assert 2 <= len(lines) <= 4  # within the chat's burst
        for line in lines:
            mallory.cmd(Say(line))
            await ann.wait_for(f"mallory: {safe_text(line, MAX_CHAT)}")
        typable = [said for said in everything if "\x1b" not in said]
        for line in chunks(typable)[:2]:
            zed.press(paste(line))
            await ann.wait_for(f"guest-zed: {safe_text(line, MAX_CHAT)}")
        languages = " ".join(KEPT[k] for k in ("Czech, decomposed", "Hungarian"))
        zed.press(paste(f"{languages} {KEPT['Persian, ZWNJ inside words']}"))
        await ann.wait_for("guest-zed: Příliš žluťoučký kůň úpěl ďábelské ódy Árvíztűrő")
        assert "نمی\u200cخواهم".encode() in bytes(ann.term.raw)  # the ZWNJ reached it
        for player in (ann, zed):
            clean_bytes(player)
        mallory.close()
        await zed.close()
        await ann.close()


async def test_a_ban_reason_reaches_the_refused_player_as_plain_text(server):
    await server.store.ban("mal", "\x1b]0;PWNED\x07spam\u202emoc.\x9b2J")
    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await Player.login(server.port, "mal")  # a guest of the banned name
    said = str(refused.value)
    assert "is banned here (spammoc.)" in said and not leaks(said.encode())


def test_a_log_line_quoting_a_player_or_a_file_is_safe() -> None:
    said = "`take \x1b]0;PWNED\x07W`: not a move\u202e"  # (the traceback quotes the raise)
    try:
        raise ValueError(said)
    except ValueError:
        error = sys.exc_info()
    args = ("ann\x1b[2J\u202e", "\x9b1337m")
    record = logging.LogRecord("splendor", logging.WARNING, __file__, 1, "%s: %s", args, error)
    out = SafeFormatter("%(levelname)s %(message)s").format(record)
    assert out.startswith("WARNING ann: \nTraceback")
    assert "ValueError: `take W`: not a move" in out and "\n  File " in out  # lines kept
    assert not leaks(out.encode()) and "\x1b" not in out
