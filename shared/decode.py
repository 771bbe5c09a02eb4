"""Checking decoded data: from plain msgpack values back to states, views and moves.

`shared.codec` unpacks the bytes; this module turns what it unpacked into engine
values, checking every type, range and id on the way, so that anything but a
valid encoding ends as `CodecError` with a message saying what is wrong.
"""

from __future__ import annotations

from typing import Any

from .cards import CARDS
from .state import (
    GEMS_BY_PLAYERS,
    GOLD_TOKENS,
    RETURN_PHASE,
    TOKEN_LIMIT,
    WINNING_PRESTIGE,
    GameState,
    Outcome,
)
from .view import LastTurn, PlayerInfo, PlayerView, ReservedCard
from .wire import (
    PLAYER_COUNT,
    TARGET,
    absent_values,
    as_bool,
    as_dict,
    as_int,
    as_ints,
    as_phase,
    as_seq,
    card_id,
    malformed,
    move_from,
    noble_id,
    stored_fields,
    turn_parts,
)

_STATE_FIELDS = stored_fields(GameState)
_STATE_ABSENT = absent_values(GameState)  # fields added later: what older data means


def turn_from(x: object) -> LastTurn:
    """A turn from `shared.codec.turn_payload`'s list."""
    return LastTurn(*turn_parts(x))


def outcome_from(x: object) -> Outcome:
    scores, ranks = as_seq(x, "outcome", 2)
    return Outcome(scores=as_ints(scores, "scores"), ranks=as_ints(ranks, "ranks"))


def state_from(d: dict[str, Any]) -> GameState:
    """A state from its stored fields (`GameState`'s declaration): each checked by its
    shape, the player count first since the others' checks depend on it; then the whole
    is checked for consistency. A field added since the data was stored reads as it did
    then (`shared.wire.stored`'s `absent`: a game stored before targets is a game to 15)."""
    n = PLAYER_COUNT.decode(d["num_players"], "num_players", 0)
    d = {**_STATE_ABSENT, **d}
    s = GameState(**{name: shape.decode(d[name], name, n) for name, shape in _STATE_FIELDS})
    _check_consistent(s)
    return s


def _check_consistent(s: GameState) -> None:
    """Refuse a state that no game can reach in ways that would break the engine later."""
    places = [i for row in s.board for i in row if i >= 0]
    places += [i for d in s.decks for i in d]
    places += [i for r in s.reserved for i, _ in r]
    places += [i for b in s.bought for i in b]
    if sorted(places) != list(range(len(CARDS))):
        raise malformed("every card must be in exactly one place")
    nobles = list(s.nobles) + [i for n in s.player_nobles for i in n]
    if len(set(nobles)) != len(nobles):
        raise malformed("a noble is in two places")
    gems = GEMS_BY_PLAYERS[s.num_players]
    for c in range(6):
        total = s.bank[c] + sum(t[c] for t in s.tokens)
        if total != (GOLD_TOKENS if c == 5 else gems):
            raise malformed("tokens are not conserved")
    if any(len(r) > 3 for r in s.reserved):
        raise malformed("more than 3 reserved cards")
    held = sum(s.tokens[s.current_player])
    if s.phase == RETURN_PHASE and not TOKEN_LIMIT < held <= TOKEN_LIMIT + 3:
        raise malformed("a return phase needs 11 to 13 tokens")


def view_from(d: dict[str, Any]) -> PlayerView:
    n = as_int(d["players_n"], "players", 2, 4)
    seat = d["seat"]
    if seat is not None:
        as_int(seat, "seat", 0, n - 1)
    players = []
    for p in as_seq(d["players"], "players", n):
        p = as_dict(p, "player")
        last = p["last"]
        players.append(
            PlayerInfo(
                seat=as_int(p["seat"], "seat", 0, n - 1),
                tokens=as_ints(p["tokens"], "tokens", 6),
                bonuses=as_ints(p["bonuses"], "bonuses", 5),
                prestige=as_int(p["prestige"], "prestige", 0, 1000),
                bought=tuple(card_id(c) for c in as_seq(p["bought"], "bought")),
                nobles=tuple(noble_id(x) for x in as_seq(p["nobles"], "nobles")),
                reserved=tuple(
                    ReservedCard(
                        level=as_int(as_seq(r, "reserved", 3)[0], "level", 1, 3),
                        card=None if r[1] is None else card_id(r[1]),
                        blind=as_bool(r[2], "blind"),
                    )
                    for r in as_seq(p["reserved"], "reserved")
                ),
                last_turn=None if last is None else turn_from(last),
            )
        )
    return PlayerView(
        seat=seat,
        num_players=n,
        bank=as_ints(d["bank"], "bank", 6),
        board=tuple(
            tuple(None if c is None else card_id(c) for c in as_seq(row, "board row", 4))
            for row in as_seq(d["board"], "board", 3)
        ),
        deck_sizes=as_ints(d["decks"], "decks", 3),
        nobles=tuple(noble_id(x) for x in as_seq(d["nobles"], "nobles")),
        players=tuple(players),
        current_player=as_int(d["current"], "current", 0, n - 1),
        starting_player=as_int(d["start"], "start", 0, n - 1),
        phase=as_phase(d["phase"]),
        turn=as_int(d["turn"], "turn", 1),
        final_round=as_bool(d["final_round"], "final_round"),
        is_over=as_bool(d["over"], "over"),
        outcome=None if d["outcome"] is None else outcome_from(d["outcome"]),
        legal_moves=tuple(move_from(m) for m in as_seq(d["legal"], "legal moves")),
        target=TARGET.decode(d.get("target", WINNING_PRESTIGE), "target", n),
    )
