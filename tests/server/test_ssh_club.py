"""The club over real SSH, read off the screen (pyte): a rated game's result with the
rating change, its replay, the leaderboard and a profile; a guest's own games."""

from __future__ import annotations

import re

import asyncssh
from gamekit import KEYS, game_server, login, play_to_end, quick_game

HOME, END = "\x1b[H", "\x1b[F"


def prompt_line(text: str) -> str:
    """The replay's prompt line ("After turn k of n: ...", "The deal (0 of n turns)...")."""
    lines = text.splitlines()
    return next(ln for ln in lines if ln.lstrip().startswith(("After turn", "The deal")))


async def test_a_rated_game_its_replay_the_leaderboard_and_a_profile(tmp_path, bot_executor):
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with game_server(tmp_path, bot_executor) as game:
        ann = await login(game.port, "ann", key)
        await ann.wait_for("you are ann")
        await quick_game(ann, "easy")  # the quick game dialog: rated, for a keyed player
        record = game.tap.latest("ann")
        final = await play_to_end(ann, record)
        table_id = str(record.tables()[-1].table)
        assert final.is_over and final.outcome is not None

        # R17 ranks, and the ratings after the game: ann's and the easy bot's (+ or -).
        over = await ann.wait_for("Ratings:")
        change = re.search(r"Ratings: ann (\d+) \(([+−])(\d+)\) · Easy bot 2 (\d+) \(([+−])", over)
        assert change is not None, over
        winner = final.outcome.ranks[0] == 1
        assert change.group(2) == ("+" if winner else "−")

        # v replays the game: the last turn first, Home the deal, → a turn on.
        ann.press("v")
        shown = await ann.wait_for(f"(replay of game {table_id}")
        at = re.search(r"After turn (\d+) of (\d+)", prompt_line(shown))
        assert at is not None and at.group(1) == at.group(2), prompt_line(shown)
        turns = int(at.group(2))
        ann.press(HOME)
        await ann.wait_for(lambda t: f"The deal (0 of {turns} turns)" in prompt_line(t))
        ann.press(KEYS["right"])
        await ann.wait_for(lambda t: f"After turn 1 of {turns}:" in prompt_line(t))
        ann.press("\x1b")
        await ann.wait_for(lambda t: "(replay of" not in t and "Ratings:" in t)

        # Back to the lobby; r: the leaderboard, ann's row and the easy bot's, marked.
        ann.press(KEYS["enter"])
        await ann.wait_for("Splendor lobby")
        ann.press("r")
        board = await ann.wait_for(lambda t: "⚙ easy bot" in t and "ann (you)" in t)
        assert re.search(r"ann \(you\)\s+\d+\s+1\s+[01]\s", board), board

        # Enter: the selected row's profile (ann's own: the selection starts there).
        ann.press(KEYS["enter"])
        profile = await ann.wait_for(lambda t: "Recent games" in t and table_id in t)
        assert "Rating over 1 game:" in profile
        assert "Rated games by player count: 2p 1 (" in profile
        assert table_id in profile and "rated" in profile

        # Enter on a game of the profile replays it, too.
        ann.press(KEYS["enter"])
        await ann.wait_for(f"(replay of game {table_id}")
        for closed in ("(replay of", "Recent games", "Leaderboard"):
            ann.press("\x1b")
            await ann.wait_for(lambda t, closed=closed: closed not in t)
        await ann.wait_for("Splendor lobby")

        # v in the lobby: a game by id; one that does not exist says so.
        ann.press("v")
        await ann.wait_for("Replay a game")
        ann.press("nosuch\r")
        await ann.wait_for("there is no game 'nosuch'")
        ann.press("v")
        await ann.wait_for("Replay a game")
        ann.press(f"{table_id}\r")
        await ann.wait_for(f"(replay of game {table_id}")


async def test_a_guest_sees_their_session_games_and_is_not_rated(tmp_path, bot_executor):
    async with game_server(tmp_path, bot_executor) as game:
        guest = await login(game.port, "zed")
        await guest.wait_for("you are guest-zed (guest)")
        await quick_game(guest, "easy")  # a guest's dialog says casual
        record = game.tap.latest("guest-zed")
        await play_to_end(guest, record)
        screen = await guest.wait_for("Game over")
        assert "Ratings:" not in screen
        guest.press(KEYS["enter"])
        await guest.wait_for("Splendor lobby")
        guest.press("p")
        await guest.wait_for("A player's profile")
        guest.press(KEYS["enter"])  # the first pick: yourself
        game_id = str(record.tables()[-1].table)
        profile = await guest.wait_for(lambda t: "Recent games" in t and game_id in t)
        assert "You play as a guest: not rated" in profile
        guest.press("\x1b")
        await guest.wait_for("Splendor lobby")
        guest.press("r")
        board = await guest.wait_for("Leaderboard")
        assert "Guests are not rated" in board
