"""Why a move, in one line: for the hint key and for logs (`shared.bots.explain`).

`describe` says what a move does for the player deciding, from a deal consistent
with that player's view (`Determinizer.sample_without_decks`: nothing hidden is
read): "buys 2-14: 3 points, and N4 is one card away", "takes W U G toward 2-07
(2 points): then 1 gem short", "reserves 3-04 (4 points) with a gold, which seat 2
could buy". Each level adds how it chose (`Decision.why`).
"""

from __future__ import annotations

from ..cards import CARDS, COLOUR_NAMES, NOBLES
from ..moves import Buy, Move, Pass, Reserve, ReserveDeck, Return, Take
from ..state import GameState
from ..tables import PRESTIGE, shortfall_of
from ..view import PlayerView
from .policy import ranked_targets

_COUNT = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def points(n: int) -> str:
    return f"{n} point{'s' * (n != 1)}"


def why_forced(view: PlayerView, move: Move) -> str:
    """The line for a move that was the only one worth playing."""
    if isinstance(move, Pass):
        return "passes: no other move is possible (R12)"
    if len(view.legal_moves) == 1:
        return f"{move}: the only legal move"
    return f"{move}: the only move that changes anything (the others undo or stall)"


def describe(state: GameState, move: Move) -> str:
    """What `move` does for the player to move in `state` (a deal without decks)."""
    p = state.current_player
    if isinstance(move, Pass):
        return "passes: no other move is possible (R12)"
    if isinstance(move, ReserveDeck):
        gold = " with a gold" if state.bank[5] else " (no gold left)"
        return f"reserves the top of deck {move.level} blind{gold} (R9)"
    after = state.apply_unchecked(move)
    if isinstance(move, Buy):
        return _buy(state, after, move)
    if isinstance(move, Reserve):
        return _reserve(state, move)
    target = _target(after, p)
    if isinstance(move, Return):
        keeps = f": keeps what {CARDS[target].id} needs" if target >= 0 else ""
        return f"gives back {str(move)[len('return ') :]} to hold 10 (R13){keeps}"
    assert isinstance(move, Take)
    text = f"takes {str(move)[len('take ') :]}"
    if target < 0:
        return text
    short = shortfall_of(target, after.bonuses[p], after.tokens[p])
    then = "then it can buy it" if short == 0 else f"then {_gems(short)} short"
    return f"{text} toward {CARDS[target].id} ({points(PRESTIGE[target])}): {then}"


def _gems(n: int) -> str:
    return f"{n} gem{'s' * (n != 1)}"


def _target(state: GameState, p: int) -> int:
    """The card p is most likely gathering for (`policy.ranked_targets`), or -1."""
    ranked = ranked_targets(state, p)
    return ranked[0][2] if ranked else -1


def _buy(before: GameState, after: GameState, move: Buy) -> str:
    p = before.current_player
    card = CARDS[move.index]
    parts = [f"buys {card.id}: {points(card.prestige) if card.prestige else 'no points'}"]
    parts.append(f"a {COLOUR_NAMES[card.colour]} bonus")
    new_nobles = after.player_nobles[p][len(before.player_nobles[p]) :]
    if new_nobles:
        parts.append(f"and {NOBLES[new_nobles[0]].id} visits (3 points, R14)")
    else:
        near = _nearest_noble(after, p, card.colour)
        if near:
            parts.append(f"and {near}")
    text = parts[0] + ", " + ", ".join(parts[1:])
    if after.is_over:
        outcome = after.outcome()
        if outcome is not None and p in outcome.winners:
            return text + "; it wins the game"
    if after.final_round and not before.final_round:
        return text + f"; {after.prestige(p)} points start the final round (R15)"
    return text


def _nearest_noble(state: GameState, p: int, colour: int) -> str:
    """How close the nobles that `colour` helps toward are, for p (R14): the closest one."""
    bonus = state.bonuses[p]
    best: tuple[int, str] | None = None
    for n in state.nobles:
        need = NOBLES[n].requires
        if need[colour] == 0:
            continue
        missing = sum(max(0, need[c] - bonus[c]) for c in range(5))
        if best is None or missing < best[0]:
            best = (missing, NOBLES[n].id)
    if best is None or best[0] > 3:
        return ""
    missing, noble = best
    return f"{noble} is {_COUNT[missing]} card{'s' * (missing != 1)} away"


def _reserve(state: GameState, move: Reserve) -> str:
    p = state.current_player
    gold = " with a gold" if state.bank[5] else " (no gold left)"
    text = f"reserves {move.card} ({points(PRESTIGE[move.index])}){gold}"
    rivals = [
        q
        for q in range(state.num_players)
        if q != p and shortfall_of(move.index, state.bonuses[q], state.tokens[q]) == 0
    ]
    if rivals:  # seats numbered from 1, as the table names them ("Medium bot 2")
        return text + f", which seat {rivals[0] + 1} could buy"
    return text
