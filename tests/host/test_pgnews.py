"""What one process tells the others over NOTIFY (`server.store.pgnews`) reads back as the
event it was written for, whatever a chat line or a move's clocks hold."""

from __future__ import annotations

from server.store import ChatPosted, ChatRemoved, MovePlayed, PresenceChanged, TableChanged
from server.store.pgnews import (
    PRESENCE,
    chat_news,
    heard,
    move_news,
    removal_news,
    table_news,
)
from server.store.records import ChatRecord, Timing


def test_a_move_reads_back_with_its_clocks_or_without_any() -> None:
    timed = Timing(1234.5, (60.25, 0.1))
    assert heard(move_news("g1", 3, 4, timed, "take W U G")) == MovePlayed(
        "g1", 3, 4, "take W U G", timed
    )
    assert heard(move_news("g1", 0, 1, Timing(), "pass")) == MovePlayed("g1", 0, 1, "pass", None)
    banks_only = Timing(None, (30.0,))
    assert heard(move_news("g", 1, 2, banks_only, "pass")) == MovePlayed(
        "g", 1, 2, "pass", banks_only
    )


def test_a_chat_line_reads_back_whole_though_its_text_holds_the_separator() -> None:
    said = ChatRecord(7, "g1", 5, 2, 1700000000.123456, "ann", "a | b || c", spectator=True)
    assert heard(chat_news(said)) == ChatPosted(said)
    lobby = ChatRecord(8, None, 0, 0, 1700000001.0, "bob", "")
    assert heard(chat_news(lobby)) == ChatPosted(lobby)


def test_tables_removals_and_presence_read_back() -> None:
    assert heard(table_news("t1")) == TableChanged("t1", None)
    assert heard(table_news("t1", 12)) == TableChanged("t1", 12)
    assert heard(removal_news(9, "g1")) == ChatRemoved(9, "g1")
    assert heard(removal_news(9, None)) == ChatRemoved(9, None)
    assert heard(PRESENCE) == PresenceChanged()
    assert heard("?|from a newer build") is None
