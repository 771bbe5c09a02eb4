"""The position heuristic every level shares: what a player's position is worth.

`player_score` estimates a player's standing in prestige points: points held,
plus what their bonuses, tokens and nobles in reach are likely to bring. The
heart of it is *potential*: for each card the player could aim at (face up or
reserved by them), how many turns of taking gems it is away (R7, R8, R10,
bank supply included), and what it would bring (prestige, a bonus, progress
toward a noble), discounted per turn of waiting. Taking gems toward a good
card raises potential; buying turns potential into points and bonuses.

`evaluate` compares a player with the best of the others, and knows about the
end of the game (R15, R17).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..moves import RETURNS, Move, Return, Take
from ..state import ACTION, GameState
from ..tables import COLOUR, COST_PAIRS, LANE, NOBLE_PAIRS, PRESTIGE, SHIFT, shortfalls

RETURN_BY_COUNTS: dict[tuple[int, ...], Move] = {m.counts: m for ms in RETURNS[1:] for m in ms}

_NO_TOKENS = (0, 0, 0, 0, 0, 0)
WIN = 100.0  # a finished game's value: far above any estimate


@dataclass(frozen=True, slots=True)
class Weights:
    """The heuristic's knobs, in prestige points."""

    bonus: float = 1.2  # one permanent bonus early in the game
    late_bonus: float = 1.0  # share of a bonus's worth lost as the leader nears the target
    gem: float = 0.2  # a gem that a card in reach still needs
    spare_gem: float = 0.1  # a gem no card in reach needs
    gold: float = 0.45
    discount: float = 0.6  # a card one more turn away is worth this much less
    second: float = 0.4  # weight of the second-best card in reach
    third: float = 0.2  # and of the third
    scarce: float = 1.0  # extra turns per gem the bank lacks (waiting for it to come back)
    reserved: float = 0.6  # a reserve slot taken (R9 allows 3): free, medium reserved in
    # half its opening turns, and won 42% of 1,000 games against this (docs/bots.md)
    noble: tuple[float, ...] = (3.0, 1.4, 0.9, 0.55, 0.33, 0.2, 0.12, 0.07, 0.04, 0.02)


DEFAULT = Weights()  # the medium level's
# The hard level's, for the leaves of its search. The bonus weights were tuned by one-ply
# matches against the medium level's (coordinate descent, 600 two-player games a step,
# when a reserve slot was free for both); then gems no target needs were made worth
# nothing and gold cheaper (shorter games, as strong: docs/bots.md).
SEARCH = Weights(bonus=1.8, late_bonus=1.33, spare_gem=0.0, gold=0.3)


def player_score(state: GameState, q: int, w: Weights = DEFAULT) -> float:
    """Player q's standing, in prestige points: held, plus likely to come."""
    bonus = state.bonuses[q]
    tok = state.tokens[q]
    gold = tok[5]
    points = state.card_prestige[q] + 3 * len(state.player_nobles[q])
    n = state.num_players
    current = state.current_player
    to_move = q == current and state.phase == ACTION
    final = state.final_round
    if final:  # R15: only the rest of this round counts
        last = (state.starting_player - 1) % n
        if q == current:
            plays_again = to_move
        else:
            plays_again = (q - current) % n <= (last - current) % n
        if not plays_again:
            return points - 0.01 * len(state.bought[q])  # R17 tie-break
    # Nobles in reach (R14), and what one more bonus of each colour brings toward them.
    noble_total = 0.0
    colour_gain = [0.0, 0.0, 0.0, 0.0, 0.0]
    curve = w.noble
    far = len(curve)  # this many bonuses missing or more: worth nothing
    for noble in state.nobles:
        pairs = NOBLE_PAIRS[noble]
        missing = 0
        for c, k in pairs:
            if k > bonus[c]:
                missing += k - bonus[c]
        value = curve[missing] if missing < far else 0.0
        noble_total += value
        if missing:
            gain = (curve[missing - 1] if missing <= far else 0.0) - value
            for c, k in pairs:
                if k > bonus[c]:
                    colour_gain[c] += gain
    lead = 0
    for p in range(n):
        has = state.card_prestige[p] + 3 * len(state.player_nobles[p])
        if has > lead:
            lead = has
    target = state.target  # R15: the game's (15 in the rules)
    bonus_worth = w.bonus * (1.0 - w.late_bonus * min(lead, target) / target)
    gem = w.gem
    bank = state.bank
    # Cards in reach (face up, own reserves: R10), by what buying them would gain
    # (prestige, bonus, noble progress, less the gems they eat), discounted by the
    # turns of taking still needed. Turns are fractional: every useful gem counts.
    b1 = b2 = b3 = 0.0
    i1 = i2 = -1
    shift = 0.0 if to_move else 1.0
    disc = w.discount
    prices = shortfalls(bonus, _NO_TOKENS)  # each card's cost after bonuses, in lanes
    shorts = shortfalls(bonus, tok)  # and after bonuses and gems
    low_bank = min(bank[0], bank[1], bank[2], bank[3], bank[4])
    power = (
        bonus[0] + tok[0],
        bonus[1] + tok[1],
        bonus[2] + tok[2],
        bonus[3] + tok[3],
        bonus[4] + tok[4],
    )
    board = state.board
    targets = [*board[0], *board[1], *board[2]]  # -1: an empty slot
    targets.extend(i for i, _ in state.reserved[q])
    for idx in targets:
        if idx < 0:
            continue
        at = SHIFT[idx]
        value = PRESTIGE[idx] + bonus_worth + colour_gain[COLOUR[idx]] - gem * (prices >> at & LANE)
        if value <= 0:
            continue
        short = (shorts >> at & LANE) - gold
        if short <= 0:
            turns = 0.0
        else:
            if final:
                continue  # no turn left to gather for it
            pairs = COST_PAIRS[idx]
            top = 0  # the most lacking in one colour (R8: two a turn at best)
            for c, k in pairs:
                d = k - power[c]
                if d > top:
                    top = d
            turns = short / 3
            two = (top - gold) / 2
            if two > turns:
                turns = two
            if top > low_bank:  # some colour may lack more than the bank holds
                scarce = 0
                for c, k in pairs:
                    d = k - power[c] - bank[c]
                    if d > 0:
                        scarce += d
                if scarce > gold:
                    turns += w.scarce * (scarce - gold)
        value *= disc ** (turns + shift)
        if value > b1:
            b1, b2, b3, i1, i2 = value, b1, b2, idx, i1
        elif value > b2:
            b2, b3, i2 = value, b2, idx
        elif value > b3:
            b3 = value
    if final:
        return points + b1 - 0.01 * len(state.bought[q])
    # Gems count fully up to what the two best targets still ask for.
    want = [0, 0, 0, 0, 0]
    for idx in (i1, i2):
        if idx >= 0:
            for c, k in COST_PAIRS[idx]:
                d = k - bonus[c]
                if d > want[c]:
                    want[c] = d
    useful = 0
    for c in range(5):
        useful += tok[c] if tok[c] < want[c] else want[c]
    spare = tok[0] + tok[1] + tok[2] + tok[3] + tok[4] - useful
    tokens = gem * useful + w.spare_gem * spare + w.gold * gold
    engine = bonus_worth * (bonus[0] + bonus[1] + bonus[2] + bonus[3] + bonus[4])
    potential = b1 + w.second * b2 + w.third * b3
    held = w.reserved * len(state.reserved[q])
    return points + noble_total + engine + tokens + potential - held


def outcome_value(state: GameState, me: int) -> float:
    """A finished game from `me`'s side: WIN for a sole win, shared for a tie, -WIN for a loss."""
    outcome = state.outcome()
    assert outcome is not None
    if outcome.ranks[me] != 1:
        return -WIN
    winners = len(outcome.winners)
    return WIN if winners == 1 else WIN / winners


def evaluate(state: GameState, me: int, w: Weights = DEFAULT) -> float:
    """`me`'s advantage over the strongest other player, in estimated points."""
    if state.is_over:
        return outcome_value(state, me)
    mine = player_score(state, me, w)
    others = max(player_score(state, q, w) for q in range(state.num_players) if q != me)
    return mine - others


def undo_counts(state: GameState) -> tuple[int, ...] | None:
    """The return that would give back exactly the gems just taken (R13), if the turn's
    action was a take: a turn that changes nothing, and lets bots loop forever."""
    last = state.last_turns[state.current_player]
    if last is None or not isinstance(last.action, Take):
        return None
    return last.action.counts


def is_pointless(state: GameState, move: Move) -> bool:
    """A return that undoes the turn's take (see `undo_counts`)."""
    return isinstance(move, Return) and move.counts == undo_counts(state)


def greedy_return(state: GameState, keep: list[int]) -> Move:
    """R13: give back the tokens least wanted: beyond `keep` (per colour) first, gold last.
    Never the pointless return that undoes the take, when another return exists."""
    p = state.current_player
    tok = list(state.tokens[p])
    excess = sum(tok) - 10
    avoid = undo_counts(state)
    counts = [0, 0, 0, 0, 0, 0]
    for i in range(excess):
        # the gem held most in surplus over what is wanted; gold only when nothing else
        order = sorted(
            (c for c in range(6) if tok[c] > 0),
            key=lambda c: (c != 5, tok[c] - keep[c] if c < 5 else -99, tok[c], -c),
            reverse=True,
        )
        choice = order[0]
        if i == excess - 1 and avoid is not None and len(order) > 1:
            counts[choice] += 1
            if tuple(counts) == avoid:
                choice = order[1]
            counts[order[0]] -= 1
        tok[choice] -= 1
        counts[choice] += 1
    return RETURN_BY_COUNTS[tuple(counts)]
