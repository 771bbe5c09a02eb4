"""The game state and the rules R3–R18: `legal_moves`, `apply`, `outcome`.

The deal (R2, R5, R6: `new_game`) lives in `shared.deal`; the codec stores a state
field by field as `GameState` declares them (`shared.wire`).

A `GameState` is immutable to its users: `apply` returns a new state. It holds
plain tuples of ints (card and noble *indexes*) so that move generation and
application stay cheap; ids appear only at the edges (views, notation, codec).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from operator import add, sub
from typing import Any, TypeVar, dataclass_transform

from . import wire
from .cards import CARDS, NOBLES
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
from .records import Outcome, TurnSummary
from .view import PlayerInfo, PlayerView, ReservedCard, last_turn
from .wire import stored

_T = TypeVar("_T")

# Per card: its nonzero (colour, tokens) pairs, for cheap affordability checks (R10).
_COST_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((c, n) for c, n in enumerate(card.cost) if n) for card in CARDS
)
_CARD_COLOUR = tuple(card.colour for card in CARDS)
_CARD_PRESTIGE = tuple(card.prestige for card in CARDS)
_CARD_LEVEL = tuple(card.level for card in CARDS)
_NOBLE_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((c, n) for c, n in enumerate(noble.requires) if n) for noble in NOBLES
)
_FEWEST_BONUSES_FOR_A_NOBLE = min(sum(noble.requires) for noble in NOBLES)  # 8 (R4)


@dataclass_transform(kw_only_default=True, field_specifiers=(field, stored))
def _declared(cls: type[_T]) -> type[_T]:
    """GameState's dataclass options; tells type checkers that `stored` declares a field."""
    return dataclass(kw_only=True, slots=True, repr=False, unsafe_hash=True)(cls)


@_declared
class GameState:
    """A whole game position. Build one with `shared.deal.new_game`; move on with `apply`.

    The fields are declared here and nowhere else: each with its type and the shape
    it is stored in (`shared.wire`). The constructor, `==`, the copy `apply` makes, the
    codec's encoding and decoding, and the bots' determinization follow this list.
    """

    num_players: int = stored(wire.PLAYER_COUNT)
    seed: int = stored(wire.SEED)
    bank: Six = stored(wire.TOKENS)
    tokens: tuple[Six, ...] = stored(wire.per_seat(wire.TOKENS))
    bonuses: tuple[Five, ...] = stored(wire.per_seat(wire.BONUSES))
    card_prestige: tuple[int, ...] = stored(wire.per_seat(wire.PRESTIGE))
    bought: tuple[tuple[int, ...], ...] = stored(wire.per_seat(wire.CARD_LIST))
    # (card index, blind) per seat (R9)
    reserved: tuple[tuple[tuple[int, bool], ...], ...] = stored(wire.per_seat(wire.RESERVED))
    player_nobles: tuple[tuple[int, ...], ...] = stored(wire.per_seat(wire.NOBLE_LIST))
    # 3 levels x 4 slots, -1 for an empty slot (R11)
    board: tuple[tuple[int, ...], ...] = stored(wire.BOARD)
    decks: tuple[tuple[int, ...], ...] = stored(wire.DECKS)  # top of the deck first
    nobles: tuple[int, ...] = stored(wire.NOBLE_LIST)  # on the table, in table order (R14)
    current_player: int = stored(wire.SEAT)
    starting_player: int = stored(wire.SEAT)
    phase: str = stored(wire.PHASE)  # ACTION, or RETURN_PHASE (R13)
    turn: int = stored(wire.TURN)  # 1 for the first turn; +1 each time a turn ends
    final_round: bool = stored(wire.FLAG)  # R15
    passes: int = stored(wire.PASSES)  # passes in a row (R18)
    is_over: bool = stored(wire.FLAG)
    last_turns: tuple[TurnSummary | None, ...] = stored(wire.per_seat(wire.LAST_TURN))
    # legal_moves(), worked out once; not part of the position
    _legal: tuple[Move, ...] | None = field(default=None, init=False, compare=False)

    # -- reading ---------------------------------------------------------

    def prestige(self, seat: int) -> int:
        """R16: cards' prestige plus 3 per noble."""
        return self.card_prestige[seat] + 3 * len(self.player_nobles[seat])

    @property
    def round(self) -> int:
        """The round number, 1-based: a round is one turn of every player."""
        return (self.turn - 1) // self.num_players + 1

    def legal_moves(self) -> tuple[Move, ...]:
        """The current player's legal moves in a stable order; empty only when over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> tuple[Move, ...]:
        if self.is_over:
            return ()
        p = self.current_player
        tokens = self.tokens[p]
        if self.phase == RETURN_PHASE:  # R13
            return returns_for(tokens, TOKEN_LIMIT)
        moves = list(takes_for(self.bank[:5]))  # R7, R8
        face_up = [idx for row in self.board for idx in row if idx >= 0]  # R11: -1 is empty
        own = self.reserved[p]
        if len(own) < MAX_RESERVED:  # R9
            moves += [RESERVES[idx] for idx in face_up]
            moves += [RESERVE_DECKS[level] for level, deck in enumerate(self.decks) if deck]
        bonus = self.bonuses[p]
        power = [bonus[0] + tokens[0], bonus[1] + tokens[1], bonus[2] + tokens[2],
                 bonus[3] + tokens[3], bonus[4] + tokens[4]]  # fmt: skip
        gold = tokens[5]
        for idx in face_up + [idx for idx, _ in own]:  # R10: gold covers the shortfall
            short = 0
            for c, n in _COST_PAIRS[idx]:
                if n > power[c]:
                    short += n - power[c]
                    if short > gold:
                        break
            else:
                moves.append(BUYS[idx])
        if not moves:  # R12
            return (PASS_MOVE,)
        return tuple(moves)

    def standing(self) -> Outcome:
        """Scores (R16) and ranks (R17) as the game stands now, over or not (an abandoned
        game is rated by them)."""
        scores = tuple(self.prestige(s) for s in range(self.num_players))
        keys = [(-scores[s], len(self.bought[s])) for s in range(self.num_players)]
        ranks = tuple(1 + sum(1 for k in keys if k < keys[s]) for s in range(self.num_players))
        return Outcome(scores=scores, ranks=ranks)

    def outcome(self) -> Outcome | None:
        """None until the game is over; then scores (R16) and ranks (R17)."""
        return self.standing() if self.is_over else None

    def view(self, seat: int | None, *, reveal: bool = False) -> PlayerView:
        """What `seat` may know (None: a spectator): the one function that decides hidden
        information (docs/design.md). Decks are sizes; another seat's blind reserve is its
        level alone (R9), unless `reveal` (the replay of a game that is over, whose record
        names every card); legal moves only for the seat whose decision it is."""
        if seat is not None and not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        players = []
        for s in range(self.num_players):
            reserved = tuple(
                ReservedCard(
                    level=CARDS[idx].level,
                    card=None if blind and s != seat and not reveal else CARDS[idx].id,
                    blind=blind,
                )
                for idx, blind in self.reserved[s]
            )
            players.append(
                PlayerInfo(
                    seat=s,
                    tokens=self.tokens[s],
                    bonuses=self.bonuses[s],
                    prestige=self.prestige(s),
                    bought=tuple(CARDS[i].id for i in self.bought[s]),
                    nobles=tuple(NOBLES[i].id for i in self.player_nobles[s]),
                    reserved=reserved,
                    last_turn=last_turn(self.last_turns[s]),
                )
            )
        mine = seat is not None and seat == self.current_player and not self.is_over
        return PlayerView(
            seat=seat,
            num_players=self.num_players,
            bank=self.bank,
            board=tuple(tuple(None if i < 0 else CARDS[i].id for i in row) for row in self.board),
            deck_sizes=tuple(len(d) for d in self.decks),
            nobles=tuple(NOBLES[i].id for i in self.nobles),
            players=tuple(players),
            current_player=self.current_player,
            starting_player=self.starting_player,
            phase=self.phase,
            turn=self.turn,
            final_round=self.final_round,
            is_over=self.is_over,
            outcome=self.outcome(),
            legal_moves=self.legal_moves() if mine else (),
        )

    # -- moving ----------------------------------------------------------

    def apply(self, move: Move) -> GameState:
        """The state after `move`; `IllegalMoveError` (with the reason) if it is not legal now."""
        if move not in self.legal_moves():
            why = why_not_now(self.view(self.current_player), move)
            where = f"turn {self.turn}, seat {self.current_player}"
            raise IllegalMoveError(f"`{move}`: {why} ({where})")
        return self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> GameState:
        """`apply` without the legality check, for search code that took `move` from
        `legal_moves()`. A test proves both agree."""
        s = _copy(self)
        p = s.current_player
        took_gold = False
        # On the type of the move, not `match`: class patterns cost 2-3% of random
        # self-play plies/s here (bench/engine.py, 2-4 players, against this form).
        if type(move) is Take:  # R7, R8
            s._give(p, move.counts, 1)
            s.passes = 0
        elif type(move) is Buy:  # R10
            s._buy(p, move.index)
            s.passes = 0
        elif type(move) is Reserve:  # R9
            s._take_from_board(move.index)
            took_gold = s._reserve(p, move.index, blind=False)
        elif type(move) is ReserveDeck:  # R9: blind, from the top of the deck
            level = move.level - 1
            deck = s.decks[level]
            s.decks = _replace_at(s.decks, level, deck[1:])
            took_gold = s._reserve(p, deck[0], blind=True)
        elif type(move) is Return:  # R13: the end of the turn, put off by the action
            s._give(p, move.counts, -1)
            last = s.last_turns[p]
            assert last is not None
            s._set_last(p, last._replace(returned=move))
            s._end_turn()
            return s
        elif type(move) is Pass:  # R12
            s.passes += 1
        s._set_last(p, TurnSummary(move, None, None, took_gold))
        if sum(s.tokens[p]) > TOKEN_LIMIT:  # R13: the same player decides what to return
            s.phase = RETURN_PHASE
        else:
            s._end_turn()
        return s

    # -- internals (only on a fresh copy) ---------------------------------

    def _set_last(self, p: int, summary: TurnSummary) -> None:
        self.last_turns = _replace_at(self.last_turns, p, summary)

    def _give(self, p: int, counts: Six, sign: int) -> None:
        """Move tokens from the bank to player p (sign 1) or back (sign -1)."""
        to_player, to_bank = (add, sub) if sign > 0 else (sub, add)
        self.tokens = _replace_at(self.tokens, p, tuple(map(to_player, self.tokens[p], counts)))
        self.bank = tuple(map(to_bank, self.bank, counts))

    def _reserve(self, p: int, idx: int, blind: bool) -> bool:
        """R9: card `idx` joins p's reserves, with a gold if any is left; True if one was."""
        self.reserved = _replace_at(self.reserved, p, (*self.reserved[p], (idx, blind)))
        self.passes = 0
        if self.bank[5] > 0:
            self._give(p, (0, 0, 0, 0, 0, 1), 1)
            return True
        return False

    def _take_from_board(self, idx: int) -> None:
        """Remove a face-up card and refill its slot from the deck (R11)."""
        level = _CARD_LEVEL[idx] - 1
        row = self.board[level]
        slot = row.index(idx)
        deck = self.decks[level]
        if deck:
            new = deck[0]
            self.decks = _replace_at(self.decks, level, deck[1:])
        else:
            new = -1
        self.board = _replace_at(self.board, level, _replace_at(row, slot, new))

    def _buy(self, p: int, idx: int) -> None:
        """R10: fixed payment, gold only for the shortfall; R11 refill."""
        t = self.tokens[p]
        bonus = self.bonuses[p]
        pay = [0, 0, 0, 0, 0, 0]
        for c, n in _COST_PAIRS[idx]:
            need = n - bonus[c]
            if need > 0:
                if need > t[c]:
                    pay[c] = t[c]
                    pay[5] += need - t[c]
                else:
                    pay[c] = need
        self._give(p, tuple(pay), -1)  # type: ignore[arg-type]
        own = self.reserved[p]
        for i, (r, _) in enumerate(own):
            if r == idx:
                self.reserved = _replace_at(self.reserved, p, own[:i] + own[i + 1 :])
                break
        else:
            self._take_from_board(idx)
        colour = _CARD_COLOUR[idx]
        self.bonuses = _replace_at(self.bonuses, p, _replace_at(bonus, colour, bonus[colour] + 1))
        self.card_prestige = _replace_at(
            self.card_prestige, p, self.card_prestige[p] + _CARD_PRESTIGE[idx]
        )
        self.bought = _replace_at(self.bought, p, (*self.bought[p], idx))

    def _visit_noble(self, p: int) -> None:
        """R14: the first noble on the table whose demand p's bonuses meet visits p."""
        bonus = self.bonuses[p]
        if sum(bonus) < _FEWEST_BONUSES_FOR_A_NOBLE:
            return
        for i, noble in enumerate(self.nobles):  # table order
            if all(bonus[c] >= n for c, n in _NOBLE_PAIRS[noble]):
                self.nobles = self.nobles[:i] + self.nobles[i + 1 :]
                self.player_nobles = _replace_at(
                    self.player_nobles, p, (*self.player_nobles[p], noble)
                )
                last = self.last_turns[p]
                assert last is not None
                self._set_last(p, last._replace(noble=noble))
                return

    def _end_turn(self) -> None:
        """R14 nobles, R15 final round, R18 all passed; then the next player."""
        p = self.current_player
        self.phase = ACTION
        self._visit_noble(p)
        if self.prestige(p) >= WINNING_PRESTIGE:  # R15
            self.final_round = True
        n = self.num_players
        if self.passes >= n:  # R18
            self.is_over = True
        elif self.final_round and p == (self.starting_player - 1) % n:  # R15
            self.is_over = True
        else:
            self.current_player = (p + 1) % n
            self.turn += 1

    def __repr__(self) -> str:
        return (
            f"<GameState players={self.num_players} seed={self.seed} turn={self.turn} "
            f"seat={self.current_player} phase={self.phase}{' over' if self.is_over else ''}>"
        )


def _copier() -> Callable[[GameState], GameState]:
    """The copy `apply` starts from, written out field by field from the declaration,
    as `dataclasses` writes `__init__`: as fast as a hand-written copy, which matters
    since search bots copy millions of states. The legal-move cache starts empty."""
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


def _replace_at(tup: tuple, i: int, value: object) -> tuple:  # type: ignore[type-arg]
    return tup[:i] + (value,) + tup[i + 1 :]


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
