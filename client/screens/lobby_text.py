"""What the lobby shows, as text: the table list's columns and rows, its title, and the
line about the player's own table and the games waiting for their move. `LobbyScreen`
draws these; keeping them apart keeps the words in one place for the translators."""

from __future__ import annotations

from shared.constants import WINNING_PRESTIGE
from shared.i18n import N_, _, ngettext
from shared.players import bot_shown
from shared.protocol import LobbyList, SeatSummary, TableStatus, TableSummary
from shared.settings import target_text

from ..widgets.listing import Row

COLUMNS = (  # 0: the rest
    (N_("Table"), 7),
    (N_("Host"), 7),
    (N_("Status"), 9),
    (N_("Game"), 9),  # rated or casual, and a target other than the rules' 15 (R15)
    (N_("Seats"), 0),
    (N_("Clock"), 5),
    (N_("Turn"), 5),
)
STATUS_WORDS = (N_("waiting"), N_("playing"), N_("finished"))  # a table's, as the list says


def title(me: str, guest: str, humans: bool) -> str:
    """The lobby's first line: who you are, and whether tables with a program are hidden."""
    only = _(" · humans only ([b]h[/b]: all)") if humans else ""
    return (
        _("[b #ffd23f]◆ Splendor[/] lobby — you are [b]{me}[/]{guest}", me=me, guest=guest) + only
    )


def table_rows(lobby: LobbyList, humans: bool) -> list[Row]:
    """The table list's rows (`humans`: without the tables where a program plays, but for
    one's own)."""
    rows: list[Row] = []
    for t in lobby.tables:
        if humans and any(s.program for s in t.seats) and t.id not in lobby.mine:
            continue  # a program plays there (a table of one's own always shows)
        status = _(t.status.value)  # waiting, playing (marked in `STATUS_WORDS`)
        seats = seats_cell(t.seats)
        playing = t.status is TableStatus.PLAYING
        turn = str(t.turn or "") if playing else ""
        if playing and t.id in lobby.mine:
            status = _("your move") if t.id in lobby.to_move else _("your game")
        kind = game_cell(t)
        clock = str(t.clock) if t.clock.timed else _("none")
        rows.append((t.id, (t.id, t.host, status, kind, seats, clock, turn)))
    return rows


def game_cell(table: TableSummary) -> str:
    """Rated or casual, and the target when it is not the rules' 15: "casual 21" (R15)."""
    kind = _("rated") if table.rated else _("casual")
    return kind if table.target == WINNING_PRESTIGE else f"{kind} {table.target}"


def seats_cell(seats: tuple[SeatSummary, ...]) -> tuple[str, ...]:
    """A table's seats for the lobby's list, longest first (the list draws the first that
    fits): "ann, bob (away), easy bot, open", then "ann, bob (away), easy, 1 open", then
    "ann +2, 1 open" (the first player, how many more seats are taken, the open ones).
    Players come first, then bots, then open seats: a name says who plays there."""
    seats = tuple(sorted(seats, key=lambda s: 0 if s.name else 1 if s.bot else 2))
    short = [seat_label(s) if s.name else (s.bot or "") for s in seats if s.name or s.bot]
    free = len(seats) - len(short)
    opens = [_("{free} open", free=free)] if free else []
    least = [f"{short[0]} +{len(short) - 1}" if len(short) > 1 else short[0]] if short else []
    full = ", ".join(seat_label(s) for s in seats)
    return (full, ", ".join(short + opens), ", ".join(least + opens))


def seat_label(seat: SeatSummary) -> str:
    """A seat in a table summary: the player's name, "easy bot", or "open"."""
    if seat.name:
        mark = "⚙ " if seat.program else ""  # a program plays it: the bots' mark
        return mark + seat.name + ("" if seat.connected else _(" (away)"))
    if seat.bot:
        return bot_shown(seat.bot)
    return _("open")


def playing_at(lobby: LobbyList) -> tuple[str, ...]:
    """The games in play where the player has a seat (kept while they look elsewhere)."""
    return tuple(t.id for t in lobby.mine_in(TableStatus.PLAYING))


def held_for(table: TableSummary, me: str) -> bool:
    """Whether `table` holds a seat for `me` not accepted yet (an invitation, a rematch)."""
    return any(s.invited and s.name == me for s in table.seats)


def seated_at(lobby: LobbyList, me: str) -> TableSummary | None:
    """The waiting table `me` sits at: the one `s`, `i` and `l` act on (not an invitation,
    even an older one: a player waiting at their own table may be invited elsewhere)."""
    return next((t for t in lobby.mine_in(TableStatus.WAITING) if not held_for(t, me)), None)


def invited_to(lobby: LobbyList, me: str) -> tuple[TableSummary, ...]:
    """The waiting tables holding a seat for `me`: invitations and rematches offered."""
    return tuple(t for t in lobby.mine_in(TableStatus.WAITING) if held_for(t, me))


def shown_table(lobby: LobbyList, me: str) -> TableSummary | None:
    """The table the lobby shows as `me`'s: the one they sit at, else an invitation."""
    return seated_at(lobby, me) or next(iter(invited_to(lobby, me)), None)


def invitation_line(table: TableSummary) -> str:
    """The status line on an invitation to `table` while the player waits at another table."""
    if table.rematch:
        return _(
            "[b #ffd23f]A rematch at table {id}[/]: select it, [b]j[/b] accepts, [b]l[/b] declines",
            id=table.id,
        )
    return _(
        "[b #ffd23f]{host} invites you to table {id}[/]: select it, [b]j[/b] accepts, "
        "[b]l[/b] declines",
        host=table.host,
        id=table.id,
    )


def my_table(
    me: str,
    table: TableSummary | None,
    to_move: tuple[str, ...] = (),
    playing: tuple[str, ...] = (),
    invitation: TableSummary | None = None,
) -> str:
    """The lines below the lists: the table `me` waits at (its seats, who starts it, a
    rematch offered), else the games `me` plays in (`playing`: back to one with Enter) or
    how to find a table, then the tables where it is `me`'s move. `invitation`: another
    table's invitation while `me` waits at `table`, said on the last line (the list marks
    the games of `to_move` then)."""
    moves = ""
    if invitation is not None and table is not None:
        moves = "\n" + invitation_line(invitation)
    elif to_move:
        moves = "\n" + (
            ngettext(
                "[b #5fdc7f]Your move at {n} table[/]: {tables} · [b]m[/b] goes to each",
                "[b #5fdc7f]Your move at {n} tables[/]: {tables} · [b]m[/b] goes to each",
                len(to_move),
                tables=", ".join(to_move),
            )
        )
    if table is None and playing:
        return (
            ngettext(
                "[#8a8f98]You play at table {tables}: [b]⏎[/b] on it goes back. [b]c[/b] "
                "creates another table, [b]g[/b] plays at once against bots.[/]",
                "[#8a8f98]You play at tables {tables}: [b]⏎[/b] on one goes back. [b]c[/b] "
                "creates another table, [b]g[/b] plays at once against bots.[/]",
                len(playing),
                tables=", ".join(playing),
            )
            + moves
        )
    if table is None:
        return (
            _(
                "[#8a8f98]You are not at a table. [b]c[/b] creates one, [b]j[/b] joins the "
                "selected one, [b]g[/b] plays at once against bots.[/]"
            )
            + moves
        )
    seats = "   ".join(
        f"{i + 1}. {seat_label(s)}{_(' (you)') if s.name == me else ''}"
        for i, s in enumerate(table.seats)
    )
    host = table.host
    action = (
        _("[b]s[/b] starts the game") if host == me else _("waiting for {host} to start", host=host)
    )
    longer = target_text(table.target)  # a game to 21, say (R15)
    waiting = _("waiting, {longer}", longer=longer) if longer else _("waiting")
    invited = [s.name for s in table.seats if s.invited and s.name]
    names = ", ".join(invited)
    if me in invited and table.rematch:
        action = _("a rematch: [b]j[/b] accepts")
    elif me in invited:
        action = _("{host} invites you: [b]j[/b] accepts", host=host)
    elif invited and table.rematch:
        action = _("a rematch: waiting for {names} to accept", names=names)
    elif invited:
        action = _("waiting for {names} to accept the invitation", names=names)
    fields = {"id": table.id, "waiting": waiting, "seats": seats, "action": action}
    if me in invited:  # not theirs yet: l declines the seat held for them
        return _(
            "[b]Table {id}[/b] ({waiting})  {seats}\n{action} · [b]l[/b] declines{moves}",
            moves=moves,
            **fields,
        )
    return _(
        "[b]Your table {id}[/b] ({waiting})  {seats}\n{action} · [b]l[/b] leaves{moves}",
        moves=moves,
        **fields,
    )
