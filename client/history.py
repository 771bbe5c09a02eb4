"""The move log's entries, kept from the host's table updates (pure, no Textual).

The first update for a table (and one after moves were taken back) brings the whole
log; later ones add the turns that ended since the previous view (`ended_turns`).
What happened since the viewer's own last turn is "fresh" (a spectator: what the
latest update brought). News of the table (a time-out, a bot standing in) shows among
the turns, after the turns that had ended when it came; the table's chat is not here
but in a column beside the moves (`client.widgets.movelog.MoveLog`), so it never
pushes them out.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.i18n import _
from shared.protocol import LoggedTurn
from shared.view import LastTurn, PlayerView

from .describe import ended_turns, turn_cards, turn_text
from .widgets.movelog import LogEntry

LOG_LIMIT = 1000  # entries kept: a whole game


class History:
    """The log of one table, seen from `seat` (None: a spectator)."""

    def __init__(self) -> None:
        self.turns: list[LogEntry] = []  # one a turn
        self.fresh_from = 0  # turns from here on are fresh
        self.news: list[tuple[int, int, LogEntry]] = []  # (turn, order, what happened)
        self.entries: list[LogEntry] = []  # turns and news, in order
        self.fresh = 0  # the newest entries that stand out

    def tell(self, turn: int, text: str) -> None:
        """News about the table (a notice), shown after the turns ended before `turn`."""
        self.news.append((turn, len(self.news), LogEntry(text, kind="news")))
        self._merge()

    def _merge(self) -> None:
        """The entries: each turn, with the news told after the turns before it; the fresh
        count in those terms."""
        extra = sorted(self.news, key=lambda x: (x[0], x[1]))
        out: list[LogEntry] = []
        fresh_at, k = len(self.turns), 0
        start = self._first_turn()
        for i, entry in enumerate(self.turns):
            while k < len(extra) and extra[k][0] <= start + i:
                out.append(extra[k][2])
                k += 1
            if i == self.fresh_from:
                fresh_at = len(out)
            out.append(entry)
        if self.fresh_from >= len(self.turns):
            fresh_at = len(out)
        out += [x[2] for x in extra[k:]]
        self.entries = out
        self.fresh = len(out) - fresh_at if self.fresh_from < len(self.turns) else 0

    def _first_turn(self) -> int:
        """The game's turn number of the first turn kept (older ones are cut off)."""
        return 1 + self._cut

    _cut = 0  # turns cut off the front of a very long log

    def replace(
        self, log: Sequence[LoggedTurn], seat: int | None, names: Sequence[str], n: int
    ) -> None:
        """The whole log, as the host sent it."""
        self.turns, self._cut = [], 0
        for t in log:
            self._add(t.seat, t.turn, seat, names)
        if seat is None or not any(e.seat == seat for e in self.turns):
            self.fresh_from = len(self.turns) - min(len(self.turns), n)
        self._merge()

    def follow(
        self,
        previous: PlayerView | None,
        view: PlayerView,
        seat: int | None,
        names: Sequence[str],
    ) -> None:
        """Add the turns that ended between `previous` and `view`."""
        ended = ended_turns(previous, view)
        if ended and seat is None:  # a spectator: what this update brought
            self.fresh_from = len(self.turns)
        for s in ended:
            last = view.players[s].last_turn
            assert last is not None
            self._add(s, last, seat, names)
        if len(self.turns) > LOG_LIMIT:
            cut = len(self.turns) - LOG_LIMIT
            del self.turns[:cut]
            self._cut += cut
            self.fresh_from = max(0, self.fresh_from - cut)
        self._merge()

    def _add(self, s: int, last: LastTurn, seat: int | None, names: Sequence[str]) -> None:
        name = names[s] if s < len(names) else _("Seat {seat}", seat=s + 1)
        self.turns.append(LogEntry(turn_text(name, last), turn_cards(last), s))
        if s == seat:  # what happened since the viewer's own move stands out
            self.fresh_from = len(self.turns)
