"""A solo race planner: the quickest line to the game's target for one seat, the others frozen.

The hard level's search judges a move by where a few plies of play lead, scored
by the heuristic; it sees far enough to buy well but not to plan a race: its
self-play games lasted 28 rounds where strong players finish in about 27.
This planner looks further along one question only: if nobody else moved, what
would this seat play to reach the game's target (R15: 15 prestige in the rules)
soonest? A beam search over the seat's own moves, six turns deep, keeps the most
promising plans (`plan_value`) and ends early on a plan that wins. Its first move
is what the hard level's root leans to (`hard.SearchConfig.race_prior`); the search
still decides.

What it simplifies, to be fast (30 to 40 ms a move, docs/bots.md): nobody else
moves, so the bank only changes by this seat's takes and payments; bought or reserved
cards are not replaced (the decks are unknown); a take that goes past 10 tokens gives
back the most held colour not just taken, and a reserve at 10 tokens takes no gold
(R13); it reserves only face-up level 2 and 3 cards (R9). It plans on the seat's view:
an opponent's blind reserves play no part, and its own are cards it knows.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..constants import ACTION, MAX_RESERVED, TOKEN_LIMIT
from ..moves import BUYS, RESERVES, Move, Take, takes_for
from ..state import GameState
from ..tables import (
    COLOUR,
    LANE,
    LEVEL,
    NOBLE_PAIRS,
    PRESTIGE,
    SHIFT,
    payment,
    shortfalls,
    visiting_noble,
)

NOBLE_POINTS = 3  # R14


@dataclass(frozen=True, slots=True)
class RaceConfig:
    """The planner's knobs: beam width and depth, and `plan_value`'s weights."""

    width: int = 60  # plans kept per turn of look-ahead
    depth: int = 6  # turns looked ahead
    bonus: float = 0.4  # a bonus, early; worth nothing at the target
    card_bonus: float = 1.0  # a card in reach: its prestige plus this
    card_discount: float = 0.6  # its worth per 3 gems still short
    noble_discount: float = 0.5  # a noble's 3 points per bonus still missing
    gem: float = 0.1
    gold: float = 0.2


RACE = RaceConfig()
_RANKED = (1.0, 0.4, 0.2)  # weights of the best, second and third card in reach


@dataclass(frozen=True, slots=True)
class Plan:
    """A seat's position as the planner sees it: nobody else moves."""

    tokens: tuple[int, ...]  # six, gold last
    bonuses: tuple[int, ...]
    points: int
    bank: tuple[int, ...]
    board: tuple[int, ...]  # face-up card indices, -1 for a slot emptied in the plan
    reserved: tuple[int, ...]
    nobles: tuple[int, ...]  # still on the table, in table order (R14)
    target: int  # the prestige the race is to (R15: the game's)


def start(state: GameState) -> Plan:
    """The position of the seat to move, as a plan's first step."""
    me = state.current_player
    return Plan(
        tokens=state.tokens[me],
        bonuses=state.bonuses[me],
        points=state.prestige(me),
        bank=state.bank,
        board=tuple(i for row in state.board for i in row if i >= 0),
        reserved=tuple(i for i, _ in state.reserved[me]),
        nobles=state.nobles,
        target=state.target,
    )


def _buy(p: Plan, idx: int, from_board: bool) -> Plan | None:
    """R10: pay with gems after bonuses, gold for the rest; None if gold cannot cover it."""
    pay = payment(idx, p.bonuses, p.tokens)
    if pay[5] > p.tokens[5]:
        return None
    tok = tuple(t - n for t, n in zip(p.tokens, pay, strict=True))
    bank = tuple(b + n for b, n in zip(p.bank, pay, strict=True))
    bon = list(p.bonuses)
    bon[COLOUR[idx]] += 1
    board, reserved = p.board, p.reserved
    if from_board:
        board = tuple(-1 if x == idx else x for x in board)
    else:
        reserved = tuple(x for x in reserved if x != idx)
    points = p.points + PRESTIGE[idx]
    return Plan(tok, tuple(bon), points, bank, board, reserved, p.nobles, p.target)


def _take(p: Plan, colours: tuple[int, ...]) -> Plan | None:
    """R7/R8, then R13 by a fixed rule: give back the most held colour not just taken.
    None if the take would change nothing."""
    tok = list(p.tokens)
    bank = list(p.bank)
    for c in colours:
        tok[c] += 1
        bank[c] -= 1
    for _ in range(sum(tok) - TOKEN_LIMIT):
        others = [c for c in range(5) if tok[c] and c not in colours] or [
            c for c in range(5) if tok[c]
        ]
        c = max(others, key=lambda c: tok[c])
        tok[c] -= 1
        bank[c] += 1
    if tuple(tok) == p.tokens:
        return None
    return Plan(
        tuple(tok), p.bonuses, p.points, tuple(bank), p.board, p.reserved, p.nobles, p.target
    )


def _reserve(p: Plan, idx: int) -> Plan:
    """R9: the card to hand, and a gold if there is one and room under 10 tokens."""
    tok, bank = p.tokens, p.bank
    if bank[5] and sum(tok) < TOKEN_LIMIT:
        tok = (*tok[:5], tok[5] + 1)
        bank = (*bank[:5], bank[5] - 1)
    board = tuple(-1 if x == idx else x for x in p.board)
    return Plan(tok, p.bonuses, p.points, bank, board, (*p.reserved, idx), p.nobles, p.target)


def _end_of_turn(p: Plan) -> Plan:
    """R14, after any action: the first noble on the table whose demand the bonuses meet
    visits (one a turn, so a second one met by the same buy comes a turn later)."""
    noble = visiting_noble(p.bonuses, p.nobles)
    if noble is None:
        return p
    nobles = tuple(x for x in p.nobles if x != noble)
    points = p.points + NOBLE_POINTS
    return Plan(p.tokens, p.bonuses, points, p.bank, p.board, p.reserved, nobles, p.target)


def steps(p: Plan) -> list[tuple[Move, Plan]]:
    """The seat's moves from `p` in the planner's simplified rules (the engine's interned
    moves), with where they lead at the end of the turn."""
    return [(move, _end_of_turn(after)) for move, after in _actions(p)]


def _actions(p: Plan) -> list[tuple[Move, Plan]]:
    out: list[tuple[Move, Plan]] = []
    for idx in p.board:
        if idx >= 0 and (after := _buy(p, idx, True)) is not None:
            out.append((BUYS[idx], after))
    for idx in p.reserved:
        if (after := _buy(p, idx, False)) is not None:
            out.append((BUYS[idx], after))
    for take in takes_for(p.bank[:5]):  # R7, R8
        assert isinstance(take, Take)
        if (after := _take(p, take.colours)) is not None:
            out.append((take, after))
    if len(p.reserved) < MAX_RESERVED:
        for idx in p.board:
            if idx >= 0 and LEVEL[idx] > 1:
                out.append((RESERVES[idx], _reserve(p, idx)))
    return out


def plan_value(p: Plan, cfg: RaceConfig = RACE) -> float:
    """How far along the race `p` is, in prestige: points, bonuses (less as the target nears), the
    three best cards in reach by how short it is of them, and the nobles by how close."""
    tok = p.tokens
    gold = tok[5]
    lanes = shortfalls(p.bonuses, tok)
    worths = []
    for idx in (*p.board, *p.reserved):
        if idx >= 0:
            short = max(0, (lanes >> SHIFT[idx] & LANE) - gold)
            worths.append((PRESTIGE[idx] + cfg.card_bonus) * math.pow(cfg.card_discount, short / 3))
    worths.sort(reverse=True)
    cards = sum(w * r for w, r in zip(worths, _RANKED, strict=False))
    nobles = 0.0
    for n in p.nobles:
        missing = sum(max(0, k - p.bonuses[c]) for c, k in NOBLE_PAIRS[n])
        nobles += NOBLE_POINTS * cfg.noble_discount**missing
    return (
        p.points
        + cfg.bonus * sum(p.bonuses) * max(0.0, 1 - p.points / p.target)
        + cards
        + nobles
        + cfg.gem * sum(tok[:5])
        + cfg.gold * gold
    )


def first_step(
    p: Plan,
    cfg: RaceConfig = RACE,
    deadline: float = math.inf,
    clock: Callable[[], float] = time.perf_counter,
) -> Move | None:
    """The first step of the best plan found: the first that reaches the target in fewest turns,
    else the first of the best valued after `cfg.depth` turns, or after as many as were
    looked at by `deadline` (as `clock` counts). None if there is no step."""
    beam: list[tuple[Move | None, Plan]] = [(None, p)]
    for _ in range(cfg.depth):
        if beam[0][0] is not None and clock() > deadline:
            break
        seen: dict[tuple[object, ...], tuple[Move, Plan]] = {}
        for first, plan in beam:
            for step, after in steps(plan):
                lead = first or step
                if after.points >= after.target:  # R15
                    return lead
                key = (after.tokens, after.bonuses, after.board, after.reserved, after.nobles)
                if key not in seen:
                    seen[key] = (lead, after)
        if not seen:
            break
        ranked = sorted(seen.values(), key=lambda fp: -plan_value(fp[1], cfg))
        beam = list(ranked[: cfg.width])
    return beam[0][0]


def race_move(
    state: GameState,
    moves: tuple[Move, ...],
    cfg: RaceConfig = RACE,
    deadline: float = math.inf,
    clock: Callable[[], float] = time.perf_counter,
) -> Move | None:
    """The move among `moves` that starts the quickest solo race from `state` (an action
    turn), or None if the plan starts with none of them (a search may leave out the move
    the plan starts with: `hard.root_moves`). `first_step` says what `deadline` does."""
    if state.phase != ACTION:
        return None
    step = first_step(start(state), cfg, deadline, clock)
    return next((m for m in moves if m == step), None)
