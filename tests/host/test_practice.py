"""Practice tools of offline play (undo, hints) and the seed at the end of a game.

Undo and hints are host features that only `server.commands.play.offline_host` turns on: a
server refuses them with a notice. The seed deals the decks, so it reaches a player
only once the game is over.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostkit import (
    HostConnection,
    StartHost,
    await_turn,
    identity,
    pick,
    play_move,
    play_to_end,
    play_turn,
    quick_settings,
)

from server.host.gamehost import GameHost
from shared.deal import replay, turns
from shared.protocol import (
    Advice,
    Hint,
    LoggedTurn,
    Notice,
    Quick,
    TableUpdate,
    Undo,
    Welcome,
)


@pytest.fixture
async def practice(tmp_path: Path, start_host: StartHost) -> GameHost:
    """A host that allows undo and hints, as offline play's does."""
    return await start_host(tmp_path / "practice", quick_settings(undo=True, hints=True))


async def seated(host: GameHost, players: int = 2) -> HostConnection:
    ann = HostConnection(host, identity("ann"))
    assert isinstance(await ann.next(), Welcome)
    ann.cmd(Quick(players, "easy"))
    await await_turn(ann)
    return ann


async def test_undo_takes_back_my_last_move_and_the_bots_after_it(practice: GameHost) -> None:
    ann = await seated(practice, 3)
    first = ann.view
    table_id = ann.last_table.table
    await play_move(ann, pick(first))
    after = (await await_turn(ann)).view  # the bots have played: my decision again
    assert after.turn > first.turn
    stored_before = await practice.store.moves(table_id)
    ann.cmd(Undo())
    back = await ann.next_of(TableUpdate, lambda m: m.view.turn == first.turn)
    assert back.view == first  # the same decision as before my move
    stored = await practice.store.moves(table_id)
    assert stored == stored_before[: len(stored)] and len(stored) < len(stored_before)
    record = await practice.store.load_game(table_id)
    assert record is not None
    settings = record.game_settings
    assert replay(settings, record.seed, record.moves).view(0) == back.view  # the store agrees
    assert back.log == tuple(LoggedTurn(*t) for t in turns(settings, record.seed, record.moves))
    await play_move(ann, pick(back.view))  # and the game goes on from there
    assert len(await practice.store.moves(table_id)) > len(stored)


async def test_undo_goes_back_one_decision_at_a_time(practice: GameHost) -> None:
    ann = await seated(practice)
    table_id = ann.last_table.table
    for _ in range(2):
        await play_turn(ann)
    await await_turn(ann)
    played = await practice.store.moves(table_id)
    ann.cmd(Undo())
    await ann.next_of(TableUpdate, lambda m: m.log is not None)
    once = await practice.store.moves(table_id)
    ann.cmd(Undo())
    await ann.next_of(TableUpdate, lambda m: m.log is not None)
    twice = await practice.store.moves(table_id)
    assert len(twice) < len(once) < len(played)
    ann.cmd(Undo())
    ann.cmd(Undo())  # nothing left to take back: a notice says so
    notice = await ann.next_of(Notice)
    assert "nothing to take back" in notice.text


async def test_a_hint_is_a_legal_move_and_a_reason(practice: GameHost) -> None:
    ann = await seated(practice)
    view = ann.view
    ann.cmd(Hint())
    advice = await ann.next_of(Advice)
    assert advice.move in view.legal_moves and advice.reason
    assert advice.said is not None and advice.said.english() == advice.reason  # issue 34
    assert advice.said.render("cs") != advice.reason  # a Czech reader reads it in Czech


async def test_a_server_refuses_undo_and_hints(host: GameHost) -> None:
    ann = await seated(host)
    table_id = ann.last_table.table
    await play_move(ann, pick(ann.view))
    moves = await host.store.moves(table_id)
    ann.cmd(Undo())
    assert "only in offline games" in (await ann.next_of(Notice)).text
    ann.cmd(Hint())
    assert "only for offline games" in (await ann.next_of(Notice)).text
    assert (await host.store.moves(table_id))[: len(moves)] == moves  # nothing was taken back


async def test_the_seed_reaches_players_only_once_the_game_is_over(host: GameHost) -> None:
    ann = await seated(host)
    final = await play_to_end(ann)
    record = await host.store.load_game(ann.last_table.table)
    assert record is not None
    updates = [m for m in ann.messages if isinstance(m, TableUpdate)]
    assert all(m.seed is None for m in updates if not m.view.is_over)
    assert updates[-1].view == final and updates[-1].seed == record.seed
