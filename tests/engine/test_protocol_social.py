"""The protocol's clocks, chat, votes and rematches (issue 12): a host's chat line must be
clean, a clock view must fit its table, and what is not used costs no bytes. (Their
round trips, malformed fields and fuzzing are with every other message's, in
test_protocol.py.)"""

from __future__ import annotations

import msgpack
import pytest

from shared import protocol
from shared.codec import dumps
from shared.protocol import (
    LobbyList,
    SeatSummary,
    TableStatus,
    TableSummary,
    TableUpdate,
    decode_host,
    encode,
)

from .test_protocol import CLOCK, SEATS, STATE


def test_what_clocks_and_company_do_not_use_costs_no_bytes() -> None:
    plain = TableSummary("t1", "ann", TableStatus.WAITING, (SeatSummary("ann"), SeatSummary()))
    assert b"clock" not in encode(LobbyList((plain,))) and b"standin" not in encode(
        LobbyList((plain,))
    )
    assert b"absent" not in encode(TableUpdate("t2", SEATS, 1, STATE.view(1)))


@pytest.mark.parametrize(
    "text", ["\x1b[31mred", "a\x07", "\u202eevil", "two\nlines", " padded", "zero\u200bwidth"]
)
def test_a_host_chat_line_that_is_not_clean_is_refused(text: str) -> None:
    line = {"id": 1, "name": "ann", "text": text}
    with pytest.raises(protocol.ProtocolError, match="plain text"):
        decode_host(dumps({"t": "chat", "where": "", "lines": (line,)}))


def test_a_clock_view_must_fit_the_table() -> None:
    bad = encode(TableUpdate("t2", SEATS, 1, STATE.view(1), clock=CLOCK))
    version, tag, payload = msgpack.unpackb(bad)
    payload["clock"]["left"] = [1.0, 2.0]
    with pytest.raises(protocol.ProtocolError, match="3 seats' time"):
        decode_host(msgpack.packb([version, tag, payload]))
    payload["clock"] = {"control": "none", "left": [1.0, 2.0, 3.0]}
    with pytest.raises(protocol.ProtocolError, match="a time control with a clock"):
        decode_host(msgpack.packb([version, tag, payload]))
