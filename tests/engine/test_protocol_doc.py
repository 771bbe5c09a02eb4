"""docs/protocol.md cannot drift from the one declaration of each message: its tables of
messages and limits are made from `shared.messages` (and `shared.club_messages`,
`shared.social`), the view's keys from the codec, and every whole example in it decodes
to what it says. To write the tables again after a change:
`python tests/engine/test_protocol_doc.py`."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from enum import Enum
from pathlib import Path
from typing import Any, get_args

import msgpack

from shared import codec, protocol
from shared.clock import ClockView, TimeControl
from shared.club_messages import (
    LEADERBOARD_PAGE,
    PROFILE_GAMES,
    PROFILE_HISTORY,
    GameLine,
    Ranked,
)
from shared.deal import new_game
from shared.messages import (
    MAX_ID,
    MAX_NAME,
    MAX_RATING,
    MAX_RECORD,
    MAX_SEED,
    MAX_TEXT,
    MAX_VERSIONS,
    SUBSYSTEM,
    ClientMessage,
    HostMessage,
    LoggedTurn,
    RatingChange,
    RematchOffer,
    SeatSummary,
    TableSummary,
)
from shared.settings import GameSettings
from shared.social import Absent, ChatLine

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
BEGIN = "<!-- the tables below are made by tests/engine/test_protocol_doc.py: do not edit -->"
END = "<!-- end of the made tables -->"
PARTS = (SeatSummary, TableSummary, RematchOffer, LoggedTurn, RatingChange, Ranked, GameLine)
PARTS += (ChatLine, Absent, ClockView)
LIMITS = {
    "MAX_ID": (MAX_ID, "characters in a table or game id"),
    "MAX_NAME": (MAX_NAME, "characters in a player's name"),
    "MAX_TEXT": (MAX_TEXT, "characters in a notice, an advice's reason, a `bye`"),
    "MAX_RECORD": (MAX_RECORD, "characters in a game record"),
    "MAX_SEED": (MAX_SEED, "seeds are 0 to this, less one"),
    "MAX_VERSIONS": (MAX_VERSIONS, "versions a `hello` may offer"),
    "MAX_RATING": (MAX_RATING, "ratings as shown are below this"),
    "LEADERBOARD_PAGE": (LEADERBOARD_PAGE, "rows in a leaderboard page"),
    "PROFILE_HISTORY": (PROFILE_HISTORY, "ratings in a profile's course"),
    "PROFILE_GAMES": (PROFILE_GAMES, "games a profile lists"),
    "MAX_BYTES": (codec.MAX_BYTES, "bytes in any one object the host sends"),
}


def _default(f: dataclasses.Field[Any]) -> str:
    if f.default is dataclasses.MISSING:
        return "required"
    value = f.default
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, TimeControl):
        value = str(value)
    return "`" + json.dumps(list(value) if isinstance(value, tuple) else value) + "`"


def _about(cls: type) -> str:
    doc = " ".join((cls.__doc__ or "").split())
    return "" if doc.startswith(cls.__name__ + "(") else doc


def _table(cls: type, heading: str) -> list[str]:
    out = [heading, ""]
    if about := _about(cls):
        out += [about, ""]
    fields = dataclasses.fields(cls)
    if not fields:
        return out + ["No fields.", ""]
    out += ["| field | type | default |", "| --- | --- | --- |"]
    for f in fields:
        quiet = " (left out while so)" if f.name in protocol._QUIET else ""
        out.append(f"| `{f.name}` | `{f.type}` | {_default(f)}{quiet} |")
    return out + [""]


def made_tables() -> str:
    """The document's made part: every message of each side, the parts, the limits."""
    out = [BEGIN, ""]
    for side, union in (("Client to host", ClientMessage), ("Host to client", HostMessage)):
        out += [f"### {side}", ""]
        for cls in get_args(union):
            out += _table(cls, f'#### `"{cls.TAG}"`: {cls.__name__}')
    out += ["### Parts of messages", ""]
    for cls in PARTS:
        out += _table(cls, f"#### {cls.__name__}")
    out += ["### Limits", "", "| name | value | what |", "| --- | --- | --- |"]
    out += [f"| `{name}` | {value} | {what} |" for name, (value, what) in LIMITS.items()]
    return "\n".join(out + ["", END])


def _made_part(text: str) -> str:
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end]


def test_the_documents_tables_are_the_declaration() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert _made_part(text) == made_tables(), (
        "docs/protocol.md's tables differ from shared/messages.py: run "
        "`python tests/engine/test_protocol_doc.py` and read the difference"
    )


def test_the_documents_view_keys_are_the_codecs() -> None:
    """The view's table (written by hand) names every key the codec writes, no other."""
    view = new_game(GameSettings(2, target=21), seed=1).view(0)  # 15 is left out
    keys = set(msgpack.unpackb(codec.dumps(view))[2])
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## The view") : text.index("## Messages")]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    player_keys = {"seat", "tokens", "bonuses", "prestige", "bought", "nobles", "reserved"}
    assert documented == keys | player_keys | {"last"}


def test_every_whole_example_decodes_to_its_message() -> None:
    """Each example object given whole (a ```hex block) decodes on its side, and the map
    shown after it is what it holds."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^(client|host) (\w[\w-]*):\n```hex\n(.*?)```", text, re.M | re.S)
    assert len(blocks) >= 6
    for side, tag, hexed in blocks:
        data = bytes.fromhex(hexed)
        msg = protocol.decode_client(data) if side == "client" else protocol.decode_host(data)
        assert msg.TAG == tag
    assert SUBSYSTEM in text


if __name__ == "__main__":
    current = DOC.read_text(encoding="utf-8")
    DOC.write_text(current.replace(_made_part(current), made_tables()), encoding="utf-8")
    sys.exit(0)
