"""The reader's language over real SSH (issue 34): the SSH client's LC_ALL/LC_MESSAGES/
LANG, else the server's `default_language`; the lobby's `L` changes it and keeps it with
the player's key, so that it beats the environment at the next connection (a guest's
lasts the session). The catalogs here are the test's own (`catalogkit`): the project's
wait for their translators."""

from __future__ import annotations

import asyncssh
import pytest
from catalogkit import catalogs_of
from gamekit import SIZE, game_server
from sshkit import Player, connect

from server.commands import play
from shared import i18n

CATALOGS = {
    "fa": {"Tables": "میزها", "Online": "برخط"},
    "cs": {"Tables": "Stoly", "Online": "Připojení"},
    "hu": {"Tables": "Asztalok", "Online": "Bent vannak"},
}


@pytest.fixture
def catalogs(monkeypatch, tmp_path):  # type: ignore[no-untyped-def]
    with catalogs_of(monkeypatch, tmp_path / "locale", CATALOGS):
        yield


async def enter(port: int, name: str, key=None, **env: str) -> Player:  # type: ignore[no-untyped-def]
    return await Player.open(await connect(port, name, key), size=SIZE, env=env)


async def read_as_written(player: Player) -> None:
    """Persian the first time: the question of which line reads right (client/rtl.py);
    "2", the terminal lays lines out, so pyte shows the text as written."""
    await player.wait_for("Which line reads right?")
    player.press("2")


async def test_lang_from_the_ssh_client_picks_the_lobbys_language(
    tmp_path, bot_executor, catalogs
) -> None:
    async with game_server(tmp_path, bot_executor) as game:
        fa = await enter(game.port, "ann", LANG="fa_IR.UTF-8")
        cs = await enter(game.port, "bob", LANG="cs_CZ.UTF-8")
        en = await enter(game.port, "cat", LC_ALL="en_US.UTF-8", LANG="cs_CZ.UTF-8")
        await read_as_written(fa)
        await fa.wait_for("میزها")
        await cs.wait_for(lambda t: "Stoly" in t and "Připojení" in t)
        screen = await en.wait_for("Online")
        assert "Stoly" not in screen and "Tables" in screen  # LC_ALL decides
        for p in (fa, cs, en):
            await p.close()


async def test_with_no_language_sent_the_servers_default_decides(
    tmp_path, bot_executor, catalogs
) -> None:
    async with game_server(tmp_path, bot_executor, default_language="hu") as game:
        player = await enter(game.port, "ann")
        await player.wait_for("Asztalok")
        await player.close()


async def test_a_language_chosen_in_the_lobby_is_kept_with_the_key(
    tmp_path, bot_executor, catalogs
) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with game_server(tmp_path, bot_executor) as game:
        ann = await enter(game.port, "ann", key, LANG="fa_IR.UTF-8")
        await read_as_written(ann)
        await ann.wait_for("میزها")
        ann.press("L")
        await ann.wait_for("فارسی")  # the choices in their own names, the current first
        ann.press("\x1b[C")  # → Čeština
        await ann.wait_for("Čeština")
        ann.press("\r")
        await ann.wait_for("Stoly")
        assert await game.host.store.language("ann") == ("cs", None)
        await ann.close()
        again = await enter(game.port, "ann", key, LANG="fa_IR.UTF-8")
        screen = await again.wait_for("Stoly")  # the saved choice beats the environment
        assert "میزها" not in screen
        await again.close()


async def test_a_guests_choice_lasts_the_session(tmp_path, bot_executor, catalogs) -> None:
    async with game_server(tmp_path, bot_executor) as game:
        guest = await enter(game.port, "dan", LANG="hu_HU.UTF-8")
        await guest.wait_for("Asztalok")
        guest.press("L")
        await guest.wait_for("Magyar")
        guest.press("\x1b[D")  # ← Čeština
        guest.press("\r")
        await guest.wait_for("Stoly")
        await guest.close()
        again = await enter(game.port, "dan", LANG="hu_HU.UTF-8")
        await again.wait_for("Asztalok")
        await again.close()


async def test_the_hosts_refusal_reaches_each_player_in_their_language(
    tmp_path, bot_executor, monkeypatch
) -> None:
    """The host refuses a chat line said too fast (a `Text`, key and fields on the wire);
    the player reads it in their own language, with its fields filled."""
    slow = "slow down: one chat line every {every:g} s (wait {wait} s)"
    catalogs = {"cs": {slow: "zpomal: jeden řádek za {every:g} s (počkej {wait} s)"}}
    with catalogs_of(monkeypatch, tmp_path / "locale", catalogs):
        async with game_server(tmp_path, bot_executor) as game:
            cs = await enter(game.port, "ann", LANG="cs_CZ.UTF-8")
            await cs.wait_for("Online")
            for i in range(8):
                cs.press(f"thi {i}\r")  # t opens the chat line, Enter says it
            screen = await cs.wait_for("zpomal")
            assert "počkej" in screen and "slow down" not in screen
            await cs.close()


async def test_the_way_persian_shows_is_kept_with_the_language(
    tmp_path, bot_executor, catalogs
) -> None:
    """The answer to "which line reads right" is kept with the language and the key: the
    next session in Persian is not asked again, even from a client sending another LANG."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with game_server(tmp_path, bot_executor) as game:
        ann = await enter(game.port, "ann", key, LANG="fa_IR.UTF-8")
        await read_as_written(ann)
        await ann.wait_for("میزها")
        assert await game.host.store.language("ann") == ("fa", "logical")
        await ann.close()
        again = await enter(game.port, "ann", key, LANG="hu_HU.UTF-8")
        screen = await again.wait_for("میزها")
        assert "Which line reads right?" not in screen
        again.press("L")
        await again.wait_for("فارسی")
        again.press("\x1b[C\r")  # → Čeština: a left-to-right language
        await again.wait_for("Stoly")
        assert await game.host.store.language("ann") == ("cs", None)
        await again.close()


def test_splendor_play_lang_sets_the_players_language(monkeypatch) -> None:
    seen: list[str] = []

    async def fake_play(setup, name, delay) -> None:  # type: ignore[no-untyped-def]
        seen.append(i18n.current_language())

    monkeypatch.setattr(play, "play", fake_play)
    monkeypatch.setenv("LANG", "fa_IR.UTF-8")
    token = i18n.use_reader(i18n.Reader())
    try:
        assert play.main(["play", "--lang", "cs", "--players", "2"]) == 0
        assert play.main(["play", "--players", "2"]) == 0  # the environment's
    finally:
        i18n._reader.reset(token)
    assert seen == ["cs", "fa"]
    with pytest.raises(SystemExit):
        play.parse_args(["play", "--lang", "de"])
