"""The club's desk: what a session may ask about beyond its own table (the leaderboard, a
player's profile, a finished game's record), answered from the store. A guest's own
profile is its session's games: guests are never rated or kept."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import replace

from shared import protocol
from shared.gamerecord import RecordError, record_of, write_record
from shared.i18n import L_
from shared.messages import MAX_RECORD
from shared.players import bot_label, bot_level
from shared.protocol import (
    LEADERBOARD_PAGE,
    PROFILE_HISTORY,
    AskLeaderboard,
    AskProfile,
    AskRecord,
    GameLine,
    GameRecordText,
    Leaderboard,
    PlayerProfile,
    Ranked,
)

from ..store import FINISHED, ChatRecord, GameRecord, Store, StoreError
from ..store.queries import Standing
from .identity import Identity
from .link import HostLink
from .seat import TableError
from .table import Table
from .tourneypages import tourney_places

HISTORY = PROFILE_HISTORY - 1  # rated games a profile's chart shows (and where it began)
RECENT = 10  # games a profile lists
GUEST_GAMES = 20  # a guest's games this session, kept
GUESTS = 1000  # guests whose games are kept (the least recent go first)
RECORD_CHAT = 2000  # chat lines a game's record keeps, at most


def chat_comments(chat: Sequence[ChatRecord], moves: int) -> dict[int, tuple[str, ...]]:
    """A game's chat as a record's comments: each line a comment after the move it
    followed (``{ann: good game}``; lines said before the first move go with it), in the
    order they were said."""
    comments: dict[int, list[str]] = {}
    for r in sorted(chat, key=lambda r: r.id):
        if moves:
            comments.setdefault(min(moves, max(1, r.seq)) - 1, []).append(f"{r.name}: {r.text}")
    return {i: tuple(lines) for i, lines in comments.items()}


def record_text(game: GameRecord, site: str = "", chat: Sequence[ChatRecord] = ()) -> str:
    """A stored, ended game's record (docs/records.md): tags from its row, its moves, and
    its chat as comments."""
    assert game.seed is not None
    tags = {
        "Event": "Rated game" if game.rated else "Casual game",
        "Date": time.strftime("%Y.%m.%d", time.gmtime(game.created)),
        "Game": game.id,
        "Rated": "yes" if game.rated else "no",
    }
    if site:
        tags["Site"] = site
    for i, seat in enumerate(game.seats):
        tags[f"Seat{i + 1}"] = bot_label(seat.bot) if seat.bot else str(seat.name)
    if game.status != FINISHED:
        tags["Termination"] = game.status
    if game.settings.clock != "none":
        tags["TimeControl"] = game.settings.clock
    if not game.game_settings.standard:  # R15 at another target: the record must say so
        tags["Target"] = str(game.settings.target)
    try:
        record = record_of(len(game.seats), game.seed, game.moves, **tags)
        return write_record(replace(record, comments=chat_comments(chat, len(game.moves))))
    except RecordError as e:  # a game past a record's limits (docs/records.md)
        raise StoreError(L_("game {id} has no record: {error}", id=game.id, error=e)) from None


async def ended_record(store: Store, game_id: str, site: str = "") -> str:
    """An ended game's record; `StoreError` for a game in progress (its record holds the
    seed, which tells the decks) or one that never was."""
    game = await store.load_game(game_id)
    if game is None or game.seed is None:
        raise StoreError(L_("there is no game {game_id!r}", game_id=game_id))
    if game.status == "playing":
        raise StoreError(
            L_(
                "game {game_id} is in progress: its record comes when it ends (w watches it)",
                game_id=game_id,
            )
        )
    return record_text(game, site, await store.chat(game_id, RECORD_CHAT))


def _ranked(s: Standing) -> Ranked:
    return Ranked(s.rank, s.player, s.shown, s.games, s.wins, s.last, s.program)


class ClubDesk:
    """Answers `AskLeaderboard`, `AskProfile` and `AskRecord` for the lobby."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # A guest's games, while they are one of the GUESTS latest to finish a game.
        self._guest_games: OrderedDict[Identity, deque[GameLine]] = OrderedDict()
        self._ended: deque[str] = deque(maxlen=1000)  # games already noted

    async def answer(self, link: HostLink, msg: AskLeaderboard | AskProfile | AskRecord) -> None:
        try:
            match msg:
                case AskLeaderboard(offset):
                    reply: protocol.HostMessage = await self._leaderboard(link, offset)
                case AskProfile(player):
                    reply = await self._profile(link, player)
                case AskRecord(game):
                    text = await ended_record(self.store, game)
                    if len(text) > MAX_RECORD:  # what a message may carry
                        raise StoreError(
                            L_(
                                "the record of game {game} is too long to send here ({size:,} "
                                "characters); splendor-server export prints it",
                                game=game,
                                size=len(text),
                            )
                        )
                    reply = GameRecordText(game, text)
        except StoreError as e:
            raise TableError(*e.args) from None  # its `Text`, for the player to read
        link.deliver(protocol.encode(reply))

    async def _leaderboard(self, link: HostLink, offset: int) -> Leaderboard:
        rows = tuple(_ranked(s) for s in await self.store.leaderboard(LEADERBOARD_PAGE, offset))
        me = None
        if not link.identity.guest:
            standing = await self.store.standing(link.identity.name.lower())
            me = None if standing is None else _ranked(standing)
        return Leaderboard(rows, offset, me)

    async def _profile(self, link: HostLink, player: str) -> PlayerProfile:
        if link.identity.guest and player == link.identity.name:
            games = tuple(self._guest_games.get(link.identity, ()))
            return PlayerProfile(player, None, recent=games)
        found = await self.store.profile(player.lower(), RECENT)
        if found.standing is None and not found.recent and bot_level(player) is None:
            if await self.store.name_owner(player) is None:
                raise TableError(L_("no player is called {player!r}", player=player))
        rows = list(reversed(found.history[:HISTORY]))  # oldest first
        start = [rows[0][3] - rows[0][4]] if rows else []  # before the first of them
        history = tuple(start + [shown for _, _, _, shown, _ in rows])
        recent = tuple(
            GameLine(
                g.game, g.players, g.status, g.finished, g.seat, g.names, g.scores, g.ranks, g.rated
            )  # fmt: skip
            for g in found.recent
        )
        standing = None if found.standing is None else _ranked(found.standing)
        places = await tourney_places(self.store, player)
        english = tuple(p.english() for p in places)
        return PlayerProfile(
            player.lower(), standing, history, tuple(found.by_players), recent, english, places
        )

    def ended(self, table: Table) -> None:
        """A game ended: its guests keep it for their session's profile (once a game)."""
        if table.id in self._ended:
            return
        self._ended.append(table.id)
        outcome = None if table.state is None else table.state.outcome()
        names = tuple(table.name(i) for i in range(len(table.seats)))
        for seat, s in enumerate(table.seats):
            if s.identity is None or not s.identity.guest:
                continue
            line = GameLine(
                table.id,
                len(table.seats),
                "finished" if outcome is not None else "abandoned",
                time.time(),
                seat,
                names,
                () if outcome is None else outcome.scores,
                () if outcome is None else outcome.ranks,
                table.rated,
            )
            games = self._guest_games.pop(s.identity, None) or deque(maxlen=GUEST_GAMES)
            self._guest_games[s.identity] = games  # now the latest
            while len(self._guest_games) > GUESTS:
                self._guest_games.popitem(last=False)
            games.appendleft(line)
