"""Text from outside made safe (shared/text.py): each kind of hostile text in the corpus
(tests/hostile.py) shows as expected, what languages and emoji need stays, lengths are
bounded; Hypothesis (derandomized) checks the guarantees on any text; and the protocol
reads names and notices through it."""

from __future__ import annotations

import unicodedata

import pytest
from hostile import HOSTILE, KEPT, shown
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client.editing import edited, pasted
from shared import protocol
from shared.chat import MAX_SAID, clean
from shared.messages import MAX_NAME
from shared.protocol import (
    ChatLine,
    ChatLines,
    LobbyList,
    Notice,
    SeatSummary,
    TableStatus,
    TableSummary,
    decode_client,
    decode_host,
)
from shared.text import ELLIPSIS, JOINERS, MAX_MARKS, is_safe, safe_text

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_each_kind_of_hostile_text_shows_as_plain_text(kind: str) -> None:
    said, seen = HOSTILE[kind]
    assert safe_text(said, 200) == seen
    assert is_safe(seen, 200) and not is_safe(said, 200)


@pytest.mark.parametrize("kind", sorted(KEPT))
def test_what_a_language_or_an_emoji_needs_stays(kind: str) -> None:
    text = KEPT[kind]
    assert safe_text(text, 200) == shown(text)  # decomposed letters come out precomposed


def test_zwnj_stays_inside_persian_words_and_nowhere_else() -> None:
    word = "نمی\u200cخواهم"
    assert safe_text(word, 50) == word
    assert safe_text(f"\u200c{word}\u200c \u200c", 50) == word
    assert safe_text("نمی\u200c\u200c\u200cخواهم", 50) == word  # a run keeps one
    assert safe_text("ad\u200cmin", 50) == "admin"  # inside an ASCII word it could hide


def test_decomposed_czech_and_hungarian_become_precomposed() -> None:
    nfd = unicodedata.normalize("NFD", "kůň őű")
    assert len(nfd) == 10
    assert safe_text(nfd, 50) == "kůň őű" and len(safe_text(nfd, 50)) == 6


def test_a_long_text_is_cut_with_an_ellipsis_that_counts() -> None:
    assert safe_text("x" * 300, 200) == "x" * 199 + ELLIPSIS
    assert safe_text("x" * 200, 200) == "x" * 200
    assert safe_text("abcdef", 1) == ELLIPSIS
    assert safe_text("word " * 10, 11) == "word word" + ELLIPSIS  # no space before it


def test_a_cut_never_splits_a_letter_a_joined_emoji_or_a_flag() -> None:
    accented = "a" + "\u0489" * 5
    assert safe_text(accented * 3, 14) == accented * 2 + ELLIPSIS
    family = "👨\u200d👩\u200d👧"
    assert safe_text("ab" + family + "cd", 6) == "ab" + ELLIPSIS
    assert safe_text("🇨🇿🇭🇺🇸🇰", 4) == "🇨🇿" + ELLIPSIS
    assert safe_text("a👍🏽b", 3) == "a" + ELLIPSIS


def test_a_huge_text_costs_what_its_start_does() -> None:
    huge = "ok " + "y" * 5_000_000
    assert safe_text(huge, 100) == safe_text(huge[:1000], 100) == "ok " + "y" * 96 + ELLIPSIS
    unterminated = "ok \x1b]0;" + "PWNED" * 200_000
    assert safe_text(unterminated, 100) == "ok"


def test_several_lines_keep_their_breaks_and_indentation() -> None:
    text = "Traceback:\r\n  File \x1b[31m'x'\x1b[0m\n\tline\u2028end\rover \u202eit"
    assert safe_text(text, 200, lines=True) == "Traceback:\n  File 'x'\n line\nend\nover it"
    assert safe_text("a\n\u0301b\n\u200dc", 20, lines=True) == "a\nb\nc"


def test_chat_clean_is_the_same_function() -> None:
    for said, _ in HOSTILE.values():
        assert clean(said) == safe_text(said, MAX_SAID)


def test_the_editing_line_takes_a_typed_or_pasted_zwnj() -> None:
    assert edited(("نمی", 3), "zwnj", "\u200c", 200) == ("نمی\u200c", 4)
    assert edited(("a", 1), "ctrl+x", "\x18", 200) == ("a", 1)
    assert pasted(("", 0), "نمی\u200cخواهم\x1b\n", 200) == ("نمی\u200cخواهم", 9)


# -- the guarantees, on any text -------------------------------------------------------

props = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=1500,
    suppress_health_check=[HealthCheck.too_slow],
)
SPECIAL = [
    *"\x1b[]0;\x07\x9b\x9c\x90\x9d\x9f\\P_ \t\n\r\x08\x00\x7f\x85",
    *JOINERS, *BIDI, "\u2028", "\u2029", "\u200b", "\u00ad", "\U000e0041",
    "\u0301", "\u0302", "\u0316", "\u0489", "\ufe0f", "\ufe0e",
    "🇨", "🇿", "👩", "💻", "\U0001f3fd", "ب", "ی", "a", "é", "ᄀ", "ᅡ", "ᆨ", "…",
    "\ud800", "\udfff", "\ue000", "\U0010eeee", "\ufdd0", "\uffff", "\u0378",
]  # fmt: skip
# Pieces joined, not `st.text`: given a mix of alphabets, it would merge them and draw
# the special characters only rarely.
CORPUS = sorted({said for said, _ in HOSTILE.values()} | set(KEPT.values()))
pieces = st.one_of(st.sampled_from(SPECIAL), st.sampled_from(CORPUS), st.characters())
texts = st.lists(pieces, max_size=40).map("".join)


def joinable(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LM" or unicodedata.category(ch) in ("So", "Sk")


@props
@given(texts, st.integers(1, 60), st.booleans())
def test_safe_text_keeps_its_promises(text: str, limit: int, lines: bool) -> None:
    out = safe_text(text, limit, lines=lines)
    assert len(out) <= limit
    assert safe_text(out, limit, lines=lines) == out  # idempotent
    assert unicodedata.normalize("NFC", out) == out
    marks = 0
    for i, ch in enumerate(out):
        kind = unicodedata.category(ch)
        assert kind not in ("Cs", "Co", "Cn") and ch not in BIDI
        assert kind != "Cc" or (lines and ch == "\n"), f"control {ch!r} in {out!r}"
        assert kind != "Cf" or ch in JOINERS, f"format {ch!r} in {out!r}"
        if ch in JOINERS:  # only inside a word, and not an ASCII one
            before, after = out[i - 1] if i else "", out[i + 1 : i + 2]
            assert before and after and joinable(before) and joinable(after)
            assert not (before + after).isascii()
        if kind[0] == "M":  # a mark has a base, and a base a few marks at most
            marks += 1
            base = out[i - marks] if i >= marks else ""
            assert marks <= MAX_MARKS and base and base not in " \n" and base not in JOINERS
        else:
            marks = 0
    if not lines:
        assert "\n" not in out and out == out.strip(" ") and "  " not in out


@props
@given(texts)
def test_what_is_left_is_in_the_order_it_was_written(text: str) -> None:
    """ASCII letters and digits are never reordered (escapes may swallow some, NFC may
    compose some): those shown are a subsequence of those written."""
    out = safe_text(text, 200)
    written = iter(ch for ch in text if ch.isascii() and ch.isalnum())
    assert all(any(ch == w for w in written) for ch in out if ch.isascii() and ch.isalnum())


# -- where text enters: the protocol ---------------------------------------------------


def test_names_and_notices_are_read_safe_from_the_wire() -> None:
    evil = "\x1b]0;PWNED\x07ann\u202e\x9b2J"
    seat = SeatSummary(evil)
    table = TableSummary("t1", evil, TableStatus.WAITING, (seat, SeatSummary("\u202e")))
    lobby = decode_host(protocol.encode(LobbyList((table,), (evil,), (), ())))
    assert isinstance(lobby, LobbyList)
    [read] = lobby.tables
    assert read.host == "ann" and read.seats[0].name == "ann" and read.seats[1].name == "?"
    assert lobby.online == ("ann",)
    notice = decode_host(protocol.encode(Notice(f"no table {evil}", "error")))
    assert notice == Notice("no table ann", "error")
    chat = ChatLines("", (ChatLine(1, evil, "hi", 0, False),))
    heard = decode_host(protocol.encode(chat))
    assert isinstance(heard, ChatLines) and heard.lines[0].name == "ann"


def test_a_notice_the_host_sends_is_safe_and_bounded() -> None:
    sent = decode_host(protocol.notice("`take \x1b[2J\u202eW` is not a move " + "x" * 3000))
    assert isinstance(sent, Notice) and sent.text.startswith("`take W` is not a move xx")
    assert len(sent.text) == 2000 and sent.text.endswith(ELLIPSIS)


def test_a_name_a_client_asks_about_is_read_safe() -> None:
    asked = decode_client(protocol.encode(protocol.AskProfile("bob\x1b[2J\u202e")))
    assert asked == protocol.AskProfile("bob")
    assert len(safe_text("n" * 100, MAX_NAME)) == MAX_NAME
