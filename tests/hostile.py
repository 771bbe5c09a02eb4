"""Hostile text: what another player, a record file or a command line may try to send to
someone's terminal, each with what a screen shows of it (`shared.text.safe_text`); and
text that a language or an emoji needs, which must come through (in NFC).

Every escape sequence here carries a marker, PWNED or 1337, in what it would hide or
in its parameters: a byte stream a terminal received holds a marker only if a sequence
got through whole (`leaks`). Used by tests/engine/test_text.py, tests/client/
test_hostile_text.py and tests/server/test_ssh_hostile.py.
"""

from __future__ import annotations

import unicodedata

HOSTILE: dict[str, tuple[str, str]] = {
    # Escape sequences, 7-bit: their parameters and strings go with them.
    "OSC 0 title, BEL, then CSI clear": ("\x1b]0;PWNED\x07\x1b[2Jann", "ann"),
    "OSC 2 title, ST": ("\x1b]2;PWNED\x1b\\ann", "ann"),
    "OSC 8 hyperlink": ("\x1b]8;;http://PWNED\x1b\\link\x1b]8;;\x1b\\", "link"),
    "OSC 52 clipboard": ("\x1b]52;c;UFdORUQ=PWNED\x07ok", "ok"),
    "OSC without an end": ("ok\x1b]0;PWNED to the end", "ok"),
    "CSI colour": ("\x1b[41;1337mred\x1b[0m", "red"),
    "CSI cursor and erase": ("a\x1b[1337;1337H\x1b[2Kb", "ab"),
    "CSI private mode": ("x\x1b[?1337hy", "xy"),
    "CSI report request": ("x\x1b[1337ny", "xy"),
    "CSI window title stack": ("x\x1b[22;1337ty", "xy"),
    "CSI without a final byte": ("x\x1b[1337;", "x"),
    "DCS sixel": ("\x1bPq#1337;2;0;0;0PWNED\x1b\\after", "after"),
    "DCS status request": ("\x1bP$qPWNED\x1b\\x", "x"),
    "SOS string": ("a\x1bXPWNED\x1b\\b", "ab"),
    "PM string": ("a\x1b^PWNED\x1b\\b", "ab"),
    "APC kitty graphics": ("a\x1b_Gf=1337;PWNED\x1b\\b", "ab"),
    "RIS full reset": ("a\x1bcb", "ab"),
    "charset designation": ("a\x1b(0b", "ab"),
    "DECALN screen fill": ("a\x1b#8b", "ab"),
    "ESC at the end": ("end\x1b", "end"),
    # Escape sequences, 8-bit (C1 code points, UTF-8 encoded as \xc2\x9b and so on).
    "8-bit CSI clear": ("x\x9b2Jy", "xy"),
    "8-bit CSI colour": ("x\x9b41;1337my", "xy"),
    "8-bit OSC title": ("x\x9d0;PWNED\x9cy", "xy"),
    "8-bit DCS": ("a\x90qPWNED\x9cb", "ab"),
    "8-bit SOS PM APC": ("a\x98PWNED\x9cb\x9ePWNED\x9cc\x9fPWNED\x9cd", "abcd"),
    # Other controls: C0, DEL, C1.
    "NUL": ("a\x00b", "ab"),
    "BEL": ("ding\x07dong", "dingdong"),
    "backspace overwrite": ("admin\x08\x08\x08\x08\x08guest", "adminguest"),
    "carriage return overwrite": ("ann: hi\rbob: bye", "ann: hi bob: bye"),
    "line feed": ("one\ntwo", "one two"),
    "CR LF": ("one\r\ntwo", "one two"),
    "tab": ("a\tb", "a b"),
    "VT and FF": ("a\x0bb\x0cc", "abc"),
    "DEL": ("a\x7fb", "ab"),
    "C1 NEL, IND, RI": ("a\x85b\x84c\x8dd", "abcd"),
    # Bidirectional controls, and the rest of the invisible formats.
    "RLO file name": ("\u202etxt.exe", "txt.exe"),
    "RLO inside a name": ("ann\u202enimda", "annnimda"),
    "LRO": ("a\u202db", "ab"),
    "RLE LRE PDF": ("a\u202bb\u202ac\u202c", "abc"),
    "isolates LRI RLI FSI PDI": ("\u2066a\u2067b\u2068c\u2069", "abc"),
    "directional marks LRM RLM ALM": ("a\u200eb\u200fc\u061cd", "abcd"),
    "zero-width space, BOM, word joiner, soft hyphen": ("a\u200bb\ufeffc\u2060d\u00ade", "abcde"),
    "joiner inside an ASCII word": ("ad\u200dmin", "admin"),
    "joiners at a word's ends": ("\u200cمی\u200d و", "می و"),
    "tag characters": ("a\U000e0041\U000e0050b", "ab"),
    "line and paragraph separators": ("a\u2028b\u2029c", "a b c"),
    # Code points that are not text.
    "private use (kitty's image placeholder)": ("a\ue000b\U0010eeeec", "abc"),
    "noncharacters": ("a\ufdd0b\uffffc\U0001fffed", "abcd"),
    "lone surrogate": ("a\ud800b", "ab"),
    # Floods and layout.
    "combining flood (zalgo)": (
        "a" + "\u0316\u0317" * 30 + "b",
        "a\u0316\u0317\u0316\u0317\u0316b",
    ),
    "marks with no base": ("\u0301\u0302x", "x"),
    "a mark after a space": ("a \u0301b", "a b"),
    "runs of spaces": ("  a    b  ", "a b"),
    "other spaces": ("a\u3000b\u00a0c\u2003d", "a b c d"),
}

KEPT: dict[str, str] = {
    "Persian, ZWNJ inside words": "من نمی\u200cخواهم، کتاب\u200cها",
    "Czech": "Příliš žluťoučký kůň úpěl ďábelské ódy",
    "Czech, decomposed": unicodedata.normalize("NFD", "Příliš žluťoučký kůň úpěl ďábelské ódy"),
    "Hungarian": "Árvíztűrő tükörfúrógép, őű ŐŰ",
    "Hungarian, decomposed": unicodedata.normalize("NFD", "Árvíztűrő tükörfúrógép, őű"),
    "Vietnamese": "Tiếng Việt có dấu",
    "Hebrew with points": "שָׁלוֹם",
    "Arabic": "مرحبا بالعالم",
    "Devanagari, ZWJ after a virama": "क्\u200dष",
    "Japanese": "日本語のテキスト",
    "emoji family (ZWJ)": "👨\u200d👩\u200d👧\u200d👦",
    "emoji with a skin tone (ZWJ)": "👩🏽\u200d💻",
    "rainbow flag (VS16, ZWJ)": "🏳️\u200d🌈",
    "country flags": "🇨🇿🇭🇺",
    "keycap": "1️⃣",
    "text presentation selector": "☺︎",
    "markup is text": "[b]not bold[/b] [@click=app.quit]x[/]",
}

# What must never reach a terminal: the markers, C1 controls and the invisible formats.
FORBIDDEN: tuple[bytes, ...] = (
    b"PWNED",
    b"1337",
    *(chr(c).encode() for c in range(0x80, 0xA0)),
    *(ch.encode() for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
    *(ch.encode() for ch in "\u200e\u200f\u061c\u200b\u2060\ufeff\u2028\u2029"),
)


def leaks(raw: bytes) -> list[bytes]:
    """What of `FORBIDDEN` is in `raw`, the bytes a terminal received."""
    return [x for x in FORBIDDEN if x in raw]


def shown(text: str) -> str:
    """What a screen shows of text that must come through: its NFC form."""
    return unicodedata.normalize("NFC", text)
