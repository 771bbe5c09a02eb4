"""Chat text made safe (shared/chat.py): every control character, escape sequence and
bidirectional override goes, each kind tested on its own; and the clocks' notation."""

from __future__ import annotations

import pytest

from shared.chat import clean, is_clean
from shared.clock import CASUAL, DAY, format_left, next_change, parse_time_control

NASTY = {
    "CSI colour": ("\x1b[31mred\x1b[0m", "red"),
    "CSI cursor moves": ("a\x1b[2J\x1b[Hb\x1b[10;20Hc", "abc"),
    "CSI without a final byte": ("x\x1b[12;", "x"),
    "8-bit CSI": ("x\x9b31my", "xy"),
    "OSC title (BEL)": ("\x1b]0;pwned\x07hi", "hi"),
    "OSC 8 hyperlink (ST)": ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),
    "OSC 52 clipboard": ("\x1b]52;c;cm0gLXJmIH4=\x07ok", "ok"),
    "DCS string": ("\x1bPq#0;2;0;0;0\x1b\\after", "after"),
    "APC string": ("\x1b_kitty\x1b\\after", "after"),
    "lone ESC and a letter": ("a\x1bcb", "ab"),
    "ESC at the end": ("end\x1b", "end"),
    "NUL": ("a\x00b", "ab"),
    "BEL": ("ding\x07dong", "dingdong"),
    "backspace overwrite": ("admin\x08\x08\x08\x08\x08guest", "adminguest"),
    "DEL": ("a\x7fb", "ab"),
    "C1 NEL": ("a\x85b", "ab"),
    "carriage return": ("ann: hi\rbob: bye", "ann: hi bob: bye"),
    "line feed": ("one\ntwo", "one two"),
    "tab": ("a\tb", "a b"),
    "right-to-left override": ("\u202etxt.exe", "txt.exe"),
    "left-to-right override": ("a\u202db", "ab"),
    "right-to-left embedding": ("a\u202bb\u202c", "ab"),
    "isolates": ("\u2066a\u2067b\u2068c\u2069", "abc"),
    "marks": ("a\u200eb\u200fc\u061cd", "abcd"),
    "zero-width space and joiner": ("a\u200bb\u200dc\ufeffd", "abcd"),
    "line and paragraph separators": ("a\u2028b\u2029c", "a b c"),
    "private use": ("a\ue000b", "ab"),
    "many spaces": ("  a    b  ", "a b"),
}


@pytest.mark.parametrize("kind", sorted(NASTY))
def test_each_kind_of_trick_is_stripped(kind: str) -> None:
    said, shown = NASTY[kind]
    assert clean(said) == shown
    assert is_clean(shown) and not is_clean(said)


def test_plain_text_and_other_scripts_stay() -> None:
    for text in ("good game!", "[b]not bold[/b]", "مرحبا", "שלום", "日本語 ok", "café ♛ 2-14"):
        assert clean(text) == text


def test_time_controls_read_and_write_their_notation() -> None:
    assert parse_time_control("none") == CASUAL and str(CASUAL) == "none"
    five = parse_time_control("5+10")
    assert (five.bank, five.increment, str(five)) == (300.0, 10.0, "5+10")
    assert five.describe() == "5 min + 10 s a move"
    three = parse_time_control("3d")
    assert three.per_move == 3 * DAY and str(three) == "3d" and three.correspondence
    assert str(parse_time_control("0.5+0")) == "0.5+0"
    for bad in ("5", "0+5", "181+0", "5+61", "0d", "15d", "3 days", "+"):
        with pytest.raises(ValueError):
            parse_time_control(bad)


def test_a_clock_shows_its_time_and_when_it_next_changes() -> None:
    assert [format_left(s) for s in (0, -3, 0.2, 59.01, 272, 3723)] == [
        "0:00", "0:00", "0:01", "1:00", "4:32", "1:02:03",
    ]  # fmt: skip
    assert format_left(13 * 3600 + 5 * 60) == "13h 05m"
    assert format_left(2 * DAY + 13 * 3600) == "2d 13h"
    assert next_change(272.25) == pytest.approx(0.25)
    assert next_change(272.0) == pytest.approx(1.0)
    assert next_change(13 * 3600 + 5 * 60 + 30) == pytest.approx(31.0)
