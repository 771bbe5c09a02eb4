"""Determinization: full game states consistent with what one seat can see.

A view hides two things (docs/design.md): the contents and order of the three decks,
and opponents' blind reserves (known only by level). Everything else is in the
view and is copied exactly. The hidden cards of a level are exactly that
level's cards seen nowhere in the view; a `Determinizer` deals them at random,
blind reserves first, the rest as the deck in a random order.

The view has no count of passes in a row (R18); it is derived from the
players' last turns, which is exact: the turns just before the current one
were played by the seats just before it, in order.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from ..cards import CARD_BY_ID, LEVEL_CARDS, NOBLE_BY_ID
from ..moves import Pass
from ..state import ACTION, Five, GameState, Six, TurnSummary
from ..view import PlayerView


class InconsistentViewError(ValueError):
    """A view whose hidden-card counts do not add up (it cannot come from a real game)."""


def passes_in_a_row(view: PlayerView) -> int:
    """R18's counter, from the players' last turns: how many of the latest turns were passes."""
    if view.phase != ACTION:
        return 0  # R13: the return phase follows a take or a reserve, which resets it
    n = view.num_players
    seat = view.current_player if view.is_over else (view.current_player - 1) % n
    count = 0
    while count < n:
        last = view.players[seat].last_turn
        if last is None or not isinstance(last.action, Pass):
            break
        count += 1
        seat = (seat - 1) % n
    return count


class Determinizer:
    """Samples `GameState`s consistent with one view; build once, `sample` many times."""

    __slots__ = ("_hidden_pools", "_blind_slots", "_reserved", "_fixed")

    def __init__(self, view: PlayerView) -> None:
        seen: set[int] = set()
        for row in view.board:
            seen.update(CARD_BY_ID[c].index for c in row if c is not None)
        blind_slots: list[tuple[int, int, int]] = []  # (seat, position, level) to fill
        for p in view.players:
            seen.update(CARD_BY_ID[c].index for c in p.bought)
            for pos, r in enumerate(p.reserved):
                if r.card is None:
                    blind_slots.append((p.seat, pos, r.level))
                else:
                    seen.add(CARD_BY_ID[r.card].index)
        pools: list[list[int]] = []
        for level in (1, 2, 3):
            pool = [i for i in LEVEL_CARDS[level - 1] if i not in seen]  # stable order
            wanted = view.deck_sizes[level - 1] + sum(1 for s in blind_slots if s[2] == level)
            if len(pool) != wanted:
                raise InconsistentViewError(
                    f"level {level}: {len(pool)} unseen cards but the view hides {wanted}"
                )
            pools.append(pool)
        self._hidden_pools = tuple(tuple(p) for p in pools)
        self._blind_slots = tuple(blind_slots)
        template = _what_the_view_fixes(view)
        self._reserved = template.reserved  # card -1 where a blind one is unseen
        # Every other field, as keywords for GameState(): 3x quicker than dataclasses.replace.
        self._fixed: dict[str, Any] = {
            f.name: getattr(template, f.name)
            for f in fields(GameState)
            if f.init and f.name not in ("reserved", "decks")
        }

    def sample(self, rng: random.Random) -> GameState:
        """One state consistent with the view; the hidden cards dealt uniformly at random."""
        return self._sample(rng, with_decks=True)

    def sample_without_decks(self, rng: random.Random) -> GameState:
        """Like `sample`, but with empty decks: a card bought or reserved leaves its slot
        empty (R11) instead of revealing a random card. For one-ply evaluation, where a
        random refill would only add noise; not a position of the real game."""
        return self._sample(rng, with_decks=False)

    def _sample(self, rng: random.Random, with_decks: bool) -> GameState:
        pools = [list(p) for p in self._hidden_pools]
        for pool in pools:
            rng.shuffle(pool)
        reserved = [list(r) for r in self._reserved]
        for seat, pos, level in self._blind_slots:
            reserved[seat][pos] = (pools[level - 1].pop(), True)
        decks = tuple(tuple(p) for p in pools) if with_decks else ((), (), ())
        # A test checks that the result's view for the seat equals the view it came from.
        return GameState(**self._fixed, reserved=tuple(tuple(r) for r in reserved), decks=decks)


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """One full state consistent with `view` (see `Determinizer`)."""
    return Determinizer(view).sample(rng)


def _six(t: tuple[int, ...]) -> Six:
    return (t[0], t[1], t[2], t[3], t[4], t[5])


def _five(t: tuple[int, ...]) -> Five:
    return (t[0], t[1], t[2], t[3], t[4])


def _what_the_view_fixes(view: PlayerView) -> GameState:
    """The state as far as the view tells it, in engine form: exact but for the hidden
    cards, where the decks are empty and an unseen blind reserve is card -1."""
    players = view.players
    return GameState(
        num_players=view.num_players,
        seed=0,  # the deal's seed is hidden; the engine never reads it after the deal
        target=view.target,  # R15: the game's, which the search plays to
        bank=_six(view.bank),
        tokens=tuple(_six(p.tokens) for p in players),
        bonuses=tuple(_five(p.bonuses) for p in players),
        card_prestige=tuple(sum(CARD_BY_ID[c].prestige for c in p.bought) for p in players),
        bought=tuple(tuple(CARD_BY_ID[c].index for c in p.bought) for p in players),
        reserved=tuple(
            tuple((-1 if r.card is None else CARD_BY_ID[r.card].index, r.blind) for r in p.reserved)
            for p in players
        ),
        player_nobles=tuple(tuple(NOBLE_BY_ID[x].index for x in p.nobles) for p in players),
        board=tuple(
            tuple(-1 if c is None else CARD_BY_ID[c].index for c in row) for row in view.board
        ),
        decks=((), (), ()),
        nobles=tuple(NOBLE_BY_ID[x].index for x in view.nobles),
        current_player=view.current_player,
        starting_player=view.starting_player,
        phase=view.phase,
        turn=view.turn,
        final_round=view.final_round,
        passes=passes_in_a_row(view),
        is_over=view.is_over,
        last_turns=tuple(
            None
            if p.last_turn is None
            else TurnSummary(
                p.last_turn.action,
                p.last_turn.returned,
                None if p.last_turn.noble is None else NOBLE_BY_ID[p.last_turn.noble].index,
                p.last_turn.took_gold,
            )
            for p in players
        ),
    )
