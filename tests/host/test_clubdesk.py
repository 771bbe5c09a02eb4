"""The club desk (server/host/clubdesk.py) as a session asks it: the leaderboard, a profile, a
finished game's record; never the record of a game in progress (its seed tells the
decks); a guest's own profile is its session's games. Both backends."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from hostkit import HostConnection, identity, play_to_end, play_turn

from server.host.clubdesk import chat_comments
from server.host.gamehost import GameHost
from server.store import ChatRecord
from shared.gamerecord import parse_record, record_of, replay_record, write_record
from shared.protocol import (
    LEADERBOARD_PAGE,
    AskLeaderboard,
    AskProfile,
    AskRecord,
    GameRecordText,
    Leaderboard,
    Notice,
    PlayerProfile,
    Quick,
)


async def test_the_leaderboard_and_a_profile_after_a_rated_game(host: GameHost) -> None:
    ann = HostConnection(host, identity("Ann"))
    ann.cmd(Quick(2, "easy", rated=True))
    final = await play_to_end(ann)
    game = ann.last_table.table
    assert final.outcome is not None
    ann.cmd(AskLeaderboard())
    board = await ann.next_of(Leaderboard)
    assert {r.player for r in board.rows} == {"ann", "bot:easy"}  # names are case-blind
    assert [r.rank for r in board.rows] == [1, 2] and board.offset == 0
    assert board.me is not None and board.me.player == "ann" and board.me.games == 1
    winner = final.outcome.ranks[0] == 1
    assert (board.rows[0].player == "ann") == winner and board.me.wins == int(winner)

    ann.cmd(AskLeaderboard(LEADERBOARD_PAGE))  # a page past the end: no rows, still "me"
    page = await ann.next_of(Leaderboard)
    assert page.rows == () and page.offset == LEADERBOARD_PAGE and page.me == board.me

    ann.cmd(AskProfile("bot:easy"))
    bot = await ann.next_of(PlayerProfile)
    assert bot.standing is not None and bot.standing.games == 1
    assert bot.history == (1000, bot.standing.rating)  # where it began, and after the game
    ann.cmd(AskProfile("ANN"))
    mine = await ann.next_of(PlayerProfile)
    assert mine.player == "ann" and mine.standing == board.me
    assert mine.by_players == ((2, 1, int(winner)),)
    [line] = mine.recent
    assert line.game == game and line.rated and line.status == "finished"
    assert line.scores == final.outcome.scores and line.ranks == final.outcome.ranks
    assert line.names[line.seat] == "Ann"

    ann.cmd(AskProfile("nobody"))
    assert "no player is called 'nobody'" in (await ann.next_of(Notice)).text
    await host.store.claim_name("newbie", "SHA256:newbie-key")  # a player with no game yet
    ann.cmd(AskProfile("newbie"))
    newbie = await ann.next_of(PlayerProfile)
    assert newbie.standing is None and newbie.history == () and newbie.recent == ()


async def test_a_finished_games_record_replays_to_its_end(host: GameHost) -> None:
    ann = HostConnection(host, identity("ann"))
    ann.cmd(Quick(3, "easy"))
    final = await play_to_end(ann)
    game = ann.last_table.table
    ann.cmd(AskRecord(game))
    answer = await ann.next_of(GameRecordText)
    record = parse_record(answer.text)
    assert answer.game == game and record.tags["Game"] == game
    assert record.tags["Seat1"] == "ann" and record.tags["Rated"] == "no"
    assert replay_record(record).view(0) == final  # the same final table, with no server


async def test_no_record_of_a_game_in_progress_or_of_none(host: GameHost) -> None:
    ann = HostConnection(host, identity("ann"))
    ann.cmd(Quick(2, "easy"))
    await play_turn(ann)
    ann.cmd(AskRecord(ann.last_table.table))
    refused = await ann.next_of(Notice)
    assert "in progress: its record comes when it ends (w watches it)" in refused.text
    ann.cmd(AskRecord("nosuch"))
    assert "there is no game 'nosuch'" in (await ann.next_of(Notice)).text
    assert not any(isinstance(m, GameRecordText) for m in ann.messages)


async def test_a_guest_sees_the_session_games_and_no_rating(host: GameHost) -> None:
    guest = HostConnection(host, identity("guest-zed", guest=True))
    for _ in range(2):
        guest.cmd(Quick(2, "easy", rated=True))  # a guest is never rated
        await play_to_end(guest)
    games = [m.table for m in guest.messages if hasattr(m, "table") and hasattr(m, "view")]
    guest.cmd(AskProfile("guest-zed"))
    profile = await guest.next_of(PlayerProfile)
    assert profile.standing is None and profile.history == ()
    assert [g.game for g in profile.recent] == list(dict.fromkeys(reversed(games)))
    guest.cmd(AskLeaderboard())
    board = await guest.next_of(Leaderboard)
    assert board.me is None and all(r.player != "guest-zed" for r in board.rows)


async def test_a_bot_level_at_two_seats_lists_a_game_once(host: GameHost) -> None:
    """Two medium bots are one rated player: the game is theirs once, at the better seat."""
    ann = HostConnection(host, identity("ann"))
    ann.cmd(Quick(3, "medium", rated=True))
    final = await play_to_end(ann)
    assert final.outcome is not None
    ann.cmd(AskProfile("bot:medium"))
    profile = await ann.next_of(PlayerProfile)
    [line] = profile.recent
    best = min(final.outcome.ranks[1:])
    assert line.ranks[line.seat] == best and line.seat in (1, 2)
    assert profile.standing is not None and profile.standing.games == 1
    shown = ann.last_table.ratings  # the level's change shows once, at its rated seat
    assert shown[0] is not None and [c is not None for c in shown[1:]].count(True) == 1
    assert shown[line.seat] is not None


def test_a_games_chat_is_its_records_comments_braces_and_all() -> None:
    """Each line its own comment after the move it followed, as it was said."""
    line = partial(ChatRecord, game="g", turn=1, at=0.0)
    chat = [
        line(id=3, seq=0, name="ann", text="hi {all}"),
        line(id=5, seq=2, name="cy", text="gg} \\o/"),
        line(id=4, seq=2, name="bob", text="a \\ b"),
    ]
    comments = chat_comments(chat, 3)
    assert comments == {0: ("ann: hi {all}",), 1: ("bob: a \\ b", "cy: gg} \\o/")}
    record = replace(record_of(2, 1, ["take W U G", "take W R K", "take W U G"]), comments=comments)
    assert parse_record(write_record(record)) == record
