"""Engine speed: plies per second of random self-play, and greedy games per second.

    .venv/bin/python bench/engine.py [--seconds 3]

Random self-play is the loop a search bot runs: list the legal moves, pick one
with a seeded `random.Random`, apply it unchecked. The same loop through the
checked `apply` is what the server and replays pay per move. Greedy games play a simple
deterministic policy (`greedy_move`) to the end. Times are CPU time of this
one process (one core), so other work on the machine disturbs them less; each
figure is the best of a few timed rounds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.cards import CARDS  # noqa: E402
from shared.deal import new_game  # noqa: E402
from shared.moves import Buy, Move, Reserve, ReserveDeck, Return, Take  # noqa: E402
from shared.settings import GameSettings  # noqa: E402
from shared.state import GameState  # noqa: E402

MAX_PLIES = 1000  # a cap so that a stuck greedy game still ends


def random_plies(num_players: int, seconds: float, checked: bool = False, seed: int = 1) -> float:
    """Plies per second of random self-play, over whole games started from successive seeds;
    through the checked `apply` when `checked`, else `apply_unchecked`."""
    rng = random.Random(seed)
    choice = rng.choice
    apply = GameState.apply if checked else GameState.apply_unchecked
    plies = 0
    game_seed = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = new_game(GameSettings(num_players), game_seed)
        game_seed += 1
        while not state.is_over:
            state = apply(state, choice(state.legal_moves()))
            plies += 1
    return plies / (time.process_time() - start)


def _shortfall(state: GameState, idx: int) -> int:
    p = state.current_player
    tokens, bonus = state.tokens[p], state.bonuses[p]
    return sum(max(0, n - bonus[c] - tokens[c]) for c, n in enumerate(CARDS[idx].cost))


def greedy_move(state: GameState) -> Move:
    """Buy the most prestigious affordable card; else take the gems that bring the
    nearest card closer; else reserve; else the first legal move. Returns give
    back what the nearest card needs least."""
    moves = state.legal_moves()
    buys = [m for m in moves if isinstance(m, Buy)]
    if buys:
        return max(buys, key=lambda m: (CARDS[m.index].prestige, -m.index))
    p = state.current_player
    targets = [i for row in state.board for i in row if i >= 0]
    targets += [i for i, _ in state.reserved[p]]
    need = [0] * 6
    if targets:
        target = min(targets, key=lambda i: (_shortfall(state, i), -CARDS[i].prestige, i))
        tokens, bonus = state.tokens[p], state.bonuses[p]
        for c, n in enumerate(CARDS[target].cost):
            need[c] = max(0, n - bonus[c] - tokens[c])
    returns = [m for m in moves if isinstance(m, Return)]
    if returns:
        return min(returns, key=lambda m: sum(need[c] for c in m.tokens))
    takes = [m for m in moves if isinstance(m, Take)]
    if takes:
        return max(takes, key=lambda m: sum(min(need[c], k) for c, k in enumerate(m.counts)))
    reserves = [m for m in moves if isinstance(m, Reserve | ReserveDeck)]
    return reserves[0] if reserves else moves[0]


def greedy_games(num_players: int, seconds: float) -> tuple[float, float, int]:
    """Greedy full games per second, their mean length in plies, and how many hit the cap."""
    games = plies = capped = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = new_game(GameSettings(num_players), games)
        n = 0
        while not state.is_over and n < MAX_PLIES:
            state = state.apply_unchecked(greedy_move(state))
            n += 1
        capped += not state.is_over
        games += 1
        plies += n
    return games / (time.process_time() - start), plies / games, capped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per timed round")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds; the best is shown")
    args = parser.parse_args()
    for n in (2, 3, 4):
        best = max(random_plies(n, args.seconds) for _ in range(args.rounds))
        print(f"random self-play, {n} players: {best:9,.0f} plies/s")
    for n in (2, 3, 4):
        best = max(random_plies(n, args.seconds, checked=True) for _ in range(args.rounds))
        print(f"checked apply,    {n} players: {best:9,.0f} plies/s")
    for n in (2, 3, 4):
        runs = [greedy_games(n, args.seconds) for _ in range(args.rounds)]
        rate, length, capped = max(runs)
        print(
            f"greedy games,     {n} players: {rate:9,.1f} games/s "
            f"({length:.0f} plies a game, {capped} stopped at {MAX_PLIES})"
        )


if __name__ == "__main__":
    main()
