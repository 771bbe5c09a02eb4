"""Building positions for the rules tests, and the invariants every position keeps.

Positions start from a real deal (`new_game`) and are changed through a few
helpers that keep tokens and cards conserved: tokens move from the bank to a
player, cards move from wherever they are (board, deck) to a player. So a built
position is one a game could reach, give or take the order of events. Only
`edit` (set any field) and `empty_deck` break conservation, for positions where
it is not the point.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from shared import CARDS, LETTERS, GameState, IllegalMoveError, Move, card, new_game, parse_move
from shared.settings import GameSettings
from shared.state import GEMS_BY_PLAYERS, GOLD_TOKENS, TOKEN_LIMIT, TurnSummary
from shared.steps import replace_at

Six = tuple[int, int, int, int, int, int]


def counts(letters: str) -> Six:
    """Token counts from letters: ``counts("W W *")`` is 2 white and 1 gold."""
    c = [0] * 6
    for ch in letters.replace(" ", "").upper():
        c[LETTERS.index(ch)] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])


def idx(card_id: str) -> int:
    """The index of a card given by its id."""
    return card(card_id).index


def edit(state: GameState, **fields: Any) -> GameState:
    """A copy of `state` with some fields replaced (names as declared in `GameState`)."""
    declared = {f.name for f in dataclasses.fields(GameState) if f.init}
    for name in fields:
        if name not in declared:
            raise AttributeError(f"GameState has no field {name}")
    return dataclasses.replace(state, **fields)


def give_tokens(state: GameState, seat: int, letters: str) -> GameState:
    """Move tokens from the bank to `seat`."""
    c = counts(letters)
    bank = tuple(b - n for b, n in zip(state.bank, c, strict=True))
    if min(bank) < 0:
        raise ValueError(f"the bank cannot give {letters}")
    mine = tuple(t + n for t, n in zip(state.tokens[seat], c, strict=True))
    return edit(state, bank=bank, tokens=replace_at(state.tokens, seat, mine))


def empty_bank(state: GameState, letters: str) -> GameState:
    """Move every token of the given colours from the bank to the seats after the
    current one (as if others had taken them), so that the bank has none left."""
    s = state
    others = [(state.current_player + k) % state.num_players for k in range(1, state.num_players)]
    for ch in letters.replace(" ", "").upper():
        c = LETTERS.index(ch)
        for i in range(s.bank[c]):
            s = give_tokens(s, others[i % len(others)], ch)
    return s


def _remove_card(state: GameState, i: int) -> GameState:
    """Take card `i` out of the board (refilling its slot, R11) or out of its deck."""
    level = CARDS[i].level - 1
    row, deck = state.board[level], state.decks[level]
    if i in row:
        new = deck[0] if deck else -1
        return edit(
            state,
            board=replace_at(state.board, level, replace_at(row, row.index(i), new)),
            decks=replace_at(state.decks, level, deck[1:]),
        )
    if i in deck:
        return edit(state, decks=replace_at(state.decks, level, tuple(d for d in deck if d != i)))
    raise ValueError(f"{CARDS[i].id} is neither on the board nor in a deck")


def give_cards(state: GameState, seat: int, card_ids: Iterable[str]) -> GameState:
    """`seat` owns these cards, as if bought (bonuses and prestige follow)."""
    s = state
    for cid in card_ids:
        i = idx(cid)
        s = _remove_card(s, i)
        c = CARDS[i]
        bonus = s.bonuses[seat]
        s = edit(
            s,
            bought=replace_at(s.bought, seat, (*s.bought[seat], i)),
            bonuses=replace_at(s.bonuses, seat, replace_at(bonus, c.colour, bonus[c.colour] + 1)),
            card_prestige=replace_at(s.card_prestige, seat, s.card_prestige[seat] + c.prestige),
        )
    return s


def bonus_cards(colour: str, n: int, state: GameState) -> list[str]:
    """Ids of `n` level-1 zero-prestige cards of `colour` still in play (not owned)."""
    owned = {i for b in state.bought for i in b} | {i for r in state.reserved for i, _ in r}
    found = [
        c.id
        for c in CARDS
        if c.level == 1
        and c.prestige == 0
        and c.colour == LETTERS.index(colour)
        and c.index not in owned
    ]
    if len(found) < n:
        raise ValueError(f"only {len(found)} free level-1 {colour} cards")
    return found[:n]


def give_reserved(state: GameState, seat: int, card_id: str, blind: bool) -> GameState:
    """`seat` holds this card reserved (blind or face up); no gold comes with it."""
    i = idx(card_id)
    s = _remove_card(state, i)
    return edit(s, reserved=replace_at(s.reserved, seat, (*s.reserved[seat], (i, blind))))


def empty_deck(state: GameState, level: int) -> GameState:
    """Level `level`'s deck is empty: its cards go out of the game (as if bought by no one).

    Only for positions where conservation is not checked."""
    return edit(state, decks=replace_at(state.decks, level - 1, ()))


def play(state: GameState, *moves: str) -> GameState:
    """Play notation moves with the checked `apply`."""
    for text in moves:
        state = state.apply(parse_move(text))
    return state


def illegal(state: GameState, move: str) -> str:
    """The message of the `IllegalMoveError` that playing `move` raises."""
    try:
        state.apply(parse_move(move))
    except IllegalMoveError as err:
        return str(err)
    raise AssertionError(f"`{move}` was legal")


def last_turn(state: GameState, seat: int) -> TurnSummary:
    """What `seat` did on its last turn (it must have played one)."""
    summary = state.last_turns[seat]
    assert summary is not None
    return summary


def notations(moves: Iterable[Move]) -> list[str]:
    return [str(m) for m in moves]


def start(num_players: int = 2, seed: int = 1, seat: int = 0) -> GameState:
    """A fresh deal with `seat` to play first (the starting player too)."""
    return edit(
        new_game(GameSettings(num_players), seed), current_player=seat, starting_player=seat
    )


# -- invariants ---------------------------------------------------------------


def all_cards(state: GameState) -> list[int]:
    """Every card index in the game, wherever it is."""
    found = [i for row in state.board for i in row if i >= 0]
    found += [i for d in state.decks for i in d]
    found += [i for r in state.reserved for i, _ in r]
    found += [i for b in state.bought for i in b]
    return found


def check_invariants(state: GameState) -> None:
    """Tokens conserved (R2), cards conserved (R3, R5), bonuses and prestige
    consistent with cards bought, nobody above 10 tokens between turns (R13)."""
    n = state.num_players
    gems = GEMS_BY_PLAYERS[n]
    totals = [state.bank[c] + sum(t[c] for t in state.tokens) for c in range(6)]
    assert totals == [gems] * 5 + [GOLD_TOKENS], f"tokens not conserved: {totals}"
    assert min(state.bank) >= 0 and all(min(t) >= 0 for t in state.tokens)
    cards = all_cards(state)
    assert sorted(cards) == list(range(90)), "cards not conserved"
    for seat in range(n):
        assert len(state.reserved[seat]) <= 3  # R9
        bonuses = [0] * 5
        for i in state.bought[seat]:
            bonuses[CARDS[i].colour] += 1
        assert tuple(bonuses) == state.bonuses[seat]
        assert state.card_prestige[seat] == sum(CARDS[i].prestige for i in state.bought[seat])
        if state.phase == "action" or seat != state.current_player:
            assert sum(state.tokens[seat]) <= TOKEN_LIMIT, f"seat {seat} above 10 tokens"
    nobles = list(state.nobles) + [x for ns in state.player_nobles for x in ns]
    assert len(nobles) == n + 1 and len(set(nobles)) == n + 1
