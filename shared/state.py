"""The game state and the rules R3–R18: `legal_moves` and `apply`.

What a position holds, and its scores and ranks (`outcome`), are `shared.position`'s;
a seat's view of it `shared.hidden`'s; the deal (R2, R5, R6: `new_game`) `shared.deal`'s.
The codec stores a state field by field as `Position` declares them (`shared.wire`).

A `GameState` is immutable to its users: `apply` returns a new state, a copy that the
steps of the move (`shared.steps`: a reserve, a buy, a noble's visit) then change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field, fields
from typing import Any

from . import steps, tables
from .constants import (
    ACTION,
    GEMS_BY_PLAYERS,
    GOLD_TOKENS,
    MAX_RESERVED,
    RETURN_PHASE,
    TOKEN_LIMIT,
    WINNING_PRESTIGE,
    Five,
    Six,
)
from .errors import IllegalMoveError
from .explain import why_not_now
from .hidden import view_of
from .i18n import L_
from .moves import (
    BUYS,
    PASS_MOVE,
    RESERVE_DECKS,
    RESERVES,
    Buy,
    Move,
    Pass,
    Reserve,
    ReserveDeck,
    Return,
    Take,
    returns_for,
    takes_for,
)
from .position import OnTable, Position, declared
from .records import Outcome, TurnSummary
from .steps import buy, replace_at, reserve, summary_of, take_from_board, visit_noble
from .view import PlayerView

_TOP_BIT = tables.TOP_BIT
_SHORT0, _SHORT1, _SHORT2, _SHORT3, _SHORT4 = tables.SHORT
_SLACK = tables.SLACK
_FEWEST_FOR_NOBLE = tables.FEWEST_BONUSES_FOR_A_NOBLE  # R14
_BUY_AT_BIT = {i.bit_length(): BUYS[n] for n, i in enumerate(_TOP_BIT)}
# Bound here, not imported: CPython 3.11 compiles `x.get(...)` of an imported name `x` as an
# attribute load and a call, which makes a bound method each time (no LOAD_METHOD); 4% of
# a take's `apply_unchecked`.
_PLAIN = steps.PLAIN


@declared
class GameState(Position):
    """A whole game position and its rules. Build one with `shared.deal.new_game`; move on
    with `apply`. Its fields are `Position`'s (`shared.position`), declared there alone,
    and the legal moves' cache."""

    # legal_moves(), worked out once; not part of the position
    _legal: tuple[Move, ...] | None = field(default=None, init=False, compare=False)

    def legal_moves(self) -> tuple[Move, ...]:
        """The current player's legal moves in a stable order; empty only when over.

        Takes (R7, R8), reserves of face-up cards in table order and of the decks (R9),
        buys of face-up cards in table order, then of own reserves (R10); a pass if
        nothing else (R12). Worked out once per state; affordability comes from
        `shared.tables`."""
        legal = self._legal
        if legal is not None:
            return legal
        if self.is_over:
            self._legal = ()
            return ()
        p = self.current_player
        tokens = self.tokens[p]
        if self.phase == RETURN_PHASE:  # R13
            legal = self._legal = returns_for(tokens, TOKEN_LIMIT)
            return legal
        bank = self.bank
        moves = _TAKES.get(bank)
        if moves is None:
            moves = _TAKES[bank] = takes_for(bank[:5])  # R7, R8
        face_up, reserves, on_table = self._table or self._on_the_table()
        own = self.reserved[p]
        if len(own) < MAX_RESERVED:  # R9
            moves = moves + reserves
        bonus = self.bonuses[p]
        try:  # R10: the top bit of a card's lane is set when gold can't cover its shortfall
            short = (
                _SHORT0[bonus[0] + tokens[0]]
                + _SHORT1[bonus[1] + tokens[1]]
                + _SHORT2[bonus[2] + tokens[2]]
                + _SHORT3[bonus[3] + tokens[3]]
                + _SHORT4[bonus[4] + tokens[4]]
                + _SLACK[tokens[5]]
            )
        except IndexError:  # powers past the tables: no state of a real game
            short = tables.unaffordable(bonus, tokens)
        can = on_table & ~short
        if can:
            if can & (can - 1):  # two or more: in table order
                moves = moves + tuple([BUYS[i] for i in face_up if can & _TOP_BIT[i]])
            else:
                moves = moves + (_BUY_AT_BIT[can.bit_length()],)
        for i, _ in own:
            if not short & _TOP_BIT[i]:
                moves = moves + (BUYS[i],)
        legal = self._legal = moves or (PASS_MOVE,)  # R12
        return legal

    def view(self, seat: int | None, *, reveal: bool = False) -> PlayerView:
        """What `seat` may know (None: a spectator): `shared.hidden.view_of`, the one
        function that decides hidden information (docs/design.md). Decks are sizes; another
        seat's blind reserve is its level alone (R9), unless `reveal` (the replay of a game
        that is over, whose record names every card); legal moves only for the seat whose
        decision it is."""
        mine = seat is not None and seat == self.current_player and not self.is_over
        return view_of(self, seat, reveal=reveal, legal=self.legal_moves() if mine else ())

    def _on_the_table(self) -> OnTable:
        face_up = tuple(i for row in self.board for i in row if i >= 0)  # R11: -1 is empty
        reserves: tuple[Move, ...] = tuple(RESERVES[i] for i in face_up)
        reserves += tuple(RESERVE_DECKS[level] for level, deck in enumerate(self.decks) if deck)
        table = self._table = (face_up, reserves, sum(_TOP_BIT[i] for i in face_up))
        return table

    # -- moving ----------------------------------------------------------

    def apply(self, move: Move) -> GameState:
        """The state after `move`; `IllegalMoveError` (with the reason) if it is not legal now."""
        legal = self._legal or self.legal_moves()
        for m in legal:  # moves are interned (shared.moves): by identity first, it's cheap
            if m is move:
                return self.apply_unchecked(move)
        if move not in legal:
            why = why_not_now(self.view(self.current_player), move)
            # Seats count from 1. The message is a `Text`: each player reads it in theirs.
            where = L_("turn {turn}, seat {seat}", turn=self.turn, seat=self.current_player + 1)
            raise IllegalMoveError(L_("`{move}`: {why} ({where})", move=move, why=why, where=where))
        return self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> GameState:
        """`apply` without the legality check, for search code that took `move` from
        `legal_moves()`. A test proves both agree."""
        s = _copy(self)
        p = self.current_player
        kind = type(move)
        # On the type of the move, not `match`: class patterns cost 2-3% of random
        # self-play plies/s here (bench/engine.py, 2-4 players, against this form).
        # Tuples are rebuilt item by item or through a list: twice as fast as map() or slices.
        if kind is Return:  # R13: the end of the turn, put off by the action
            c = move.counts  # type: ignore[attr-defined]
            t = self.tokens[p]
            s.tokens = replace_at(
                self.tokens,
                p,
                (t[0] - c[0], t[1] - c[1], t[2] - c[2], t[3] - c[3], t[4] - c[4], t[5] - c[5]),
            )
            b = self.bank
            s.bank = (b[0] + c[0], b[1] + c[1], b[2] + c[2], b[3] + c[3], b[4] + c[4], b[5] + c[5])
            last = self.last_turns[p]
            assert last is not None
            s.last_turns = replace_at(
                self.last_turns, p, summary_of(last[0], move, last[2], last[3])
            )
        else:
            if kind is Take:  # R7, R8
                c = move.counts  # type: ignore[attr-defined]
                t = self.tokens[p]
                mine = (
                    t[0] + c[0],
                    t[1] + c[1],
                    t[2] + c[2],
                    t[3] + c[3],
                    t[4] + c[4],
                    t[5] + c[5],
                )
                s.tokens = replace_at(self.tokens, p, mine)
                b = self.bank
                s.bank = (
                    b[0] - c[0],
                    b[1] - c[1],
                    b[2] - c[2],
                    b[3] - c[3],
                    b[4] - c[4],
                    b[5] - c[5],
                )
                s.passes = 0
                summary = _PLAIN.get(id(move)) or TurnSummary(move)
            elif kind is Buy:  # R10
                mine = buy(s, p, move.index)  # type: ignore[attr-defined]
                s.passes = 0
                summary = _PLAIN.get(id(move)) or TurnSummary(move)
            elif kind is Reserve:  # R9
                index = move.index  # type: ignore[attr-defined]
                take_from_board(s, index)
                mine, summary = reserve(s, p, move, index, blind=False)
            elif kind is ReserveDeck:  # R9: blind, from the top of the deck
                level = move.level - 1  # type: ignore[attr-defined]
                deck = self.decks[level]
                s.decks = replace_at(self.decks, level, deck[1:])
                if len(deck) == 1:  # the deck's reserve move goes
                    s._table = None
                mine, summary = reserve(s, p, move, deck[0], blind=True)
            else:
                if kind is Pass:  # R12
                    s.passes = self.passes + 1
                mine = self.tokens[p]
                summary = _PLAIN.get(id(move)) or TurnSummary(move)
            s.last_turns = replace_at(self.last_turns, p, summary)
            if mine[0] + mine[1] + mine[2] + mine[3] + mine[4] + mine[5] > TOKEN_LIMIT:
                s.phase = RETURN_PHASE  # R13: the same player decides what to return
                return s
        # The end of the turn: R14 nobles, R15 final round, R18 all passed, the next player.
        s.phase = ACTION
        bonus = s.bonuses[p]
        if s.nobles and bonus[0] + bonus[1] + bonus[2] + bonus[3] + bonus[4] >= _FEWEST_FOR_NOBLE:
            visit_noble(s, p, bonus)
        if s.card_prestige[p] + 3 * len(s.player_nobles[p]) >= s.target:  # R15
            s.final_round = True
        n = self.num_players
        if s.passes >= n:  # R18
            s.is_over = True
        elif s.final_round and p == (self.starting_player - 1) % n:  # R15
            s.is_over = True
        else:
            s.current_player = p + 1 if p + 1 < n else 0
            s.turn = self.turn + 1
        return s


def _copier() -> Callable[[GameState], GameState]:
    """The copy `apply` starts from, written out field by field from the declaration,
    as `dataclasses` writes `__init__`: as fast as a hand-written copy, which matters
    since search bots copy millions of states. The legal-move cache starts empty; the
    board's (`_table`) is carried."""
    names = [f.name for f in fields(GameState) if f.name != "_legal"]
    source = "\n".join(
        ["def _copy(self):", "    s = new(GameState)"]
        + [f"    s.{name} = self.{name}" for name in names]
        + ["    s._legal = None", "    return s"]
    )
    namespace: dict[str, Any] = {"new": object.__new__, "GameState": GameState}
    exec(source, namespace)
    copy: Callable[[GameState], GameState] = namespace["_copy"]
    return copy


_copy = _copier()


# The take moves for each bank (R7, R8), worked out once: at most 8**5 * 6 banks.
_TAKES: dict[Six, tuple[Move, ...]] = {}


__all__ = [
    "ACTION",
    "GEMS_BY_PLAYERS",
    "GOLD_TOKENS",
    "MAX_RESERVED",
    "RETURN_PHASE",
    "TOKEN_LIMIT",
    "WINNING_PRESTIGE",
    "Five",
    "GameState",
    "Outcome",
    "Six",
    "TurnSummary",
]
