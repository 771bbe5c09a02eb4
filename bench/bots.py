"""Bot tournament: N seeded games between two levels, seats rotated.

    .venv/bin/python bench/bots.py medium easy -n 200
    .venv/bin/python bench/bots.py hard medium -n 40 --budget-a 1s --jobs 2
    .venv/bin/python bench/bots.py hard hard -n 20 --budget 3000

Prints each level's win rate with a 95% confidence interval (Wilson; a shared
win counts half), the average game length in rounds, and the average thinking
time per move (wall clock, and CPU time of the bot's process, which is what
a loaded machine doesn't inflate). A budget is an iteration count (``3000``)
or seconds (``1s``, ``0.5s``); only `hard` uses it. Every move goes through
`choose_move_bytes`, the entry point a server's process pool runs.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.bots import LEVELS, Budget, choose_move_bytes, encode_request  # noqa: E402
from shared.deal import new_game  # noqa: E402
from shared.moves import parse_move  # noqa: E402

MAX_ROUNDS = 200  # a game still running then is stopped and counted as stalled


@dataclass
class GameResult:
    seats: tuple[int, ...]  # which side (0 = a, 1 = b) plays each seat
    share: tuple[float, float]  # each side's share of the win (R17 ties split)
    rounds: int
    stalled: bool
    moves: tuple[int, int]  # moves each side chose
    wall: tuple[float, float]  # seconds of thinking, per side
    cpu: tuple[float, float]


def parse_budget(text: str | None) -> Budget:
    if text is None:
        return Budget()
    if text.endswith("s"):
        return Budget(seconds=float(text[:-1]))
    return Budget(iterations=int(text))


def play_game(args: tuple[int, int, tuple[str, str], tuple[Budget, Budget], int]) -> GameResult:
    """One game; seats alternate between the sides, rotated by the game number."""
    index, num_players, levels, budgets, base_seed = args
    seats = tuple((seat + index) % 2 for seat in range(num_players))
    if num_players % 2 == 1 and index % 2 == 1:  # odd tables: b gets the extra seat half the time
        seats = tuple(1 - s for s in seats)
    mirror = levels[0] == levels[1] and budgets[0] == budgets[1]
    # Two-player games come in pairs on one deal with the seats swapped, unless both
    # sides are the same bot (the pair would be one game twice).
    seed = base_seed + index // 2 if num_players == 2 and not mirror else base_seed + index
    state = new_game(num_players, seed)
    rng = random.Random(seed)
    moves = [0, 0]
    wall = [0.0, 0.0]
    cpu = [0.0, 0.0]
    while not state.is_over and state.round <= MAX_ROUNDS:
        seat = state.current_player
        side = seats[seat]
        request = encode_request(state.view(seat), levels[side], rng.getrandbits(63), budgets[side])
        t0, c0 = time.perf_counter(), time.process_time()
        text = choose_move_bytes(request)
        wall[side] += time.perf_counter() - t0
        cpu[side] += time.process_time() - c0
        moves[side] += 1
        state = state.apply(parse_move(text))
    share = [0.0, 0.0]
    outcome = state.outcome()
    if outcome is not None:
        for seat in outcome.winners:
            share[seats[seat]] += 1 / len(outcome.winners)
    else:
        share = [0.5, 0.5]
    return GameResult(
        seats=seats,
        share=(share[0], share[1]),
        rounds=state.round,
        stalled=outcome is None,
        moves=(moves[0], moves[1]),
        wall=(wall[0], wall[1]),
        cpu=(cpu[0], cpu[1]),
    )


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a proportion (Wilson score)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", choices=LEVELS)
    parser.add_argument("b", choices=LEVELS)
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("-p", "--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--budget", help="budget for both sides: iterations, or seconds as 1s")
    parser.add_argument("--budget-a", help="budget for side a (overrides --budget)")
    parser.add_argument("--budget-b", help="budget for side b (overrides --budget)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args()
    budgets = (
        parse_budget(args.budget_a or args.budget),
        parse_budget(args.budget_b or args.budget),
    )
    levels = (args.a, args.b)
    tasks = [(i, args.players, levels, budgets, args.seed) for i in range(args.games)]
    start = time.perf_counter()
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(play_game, tasks, chunksize=1)
    else:
        results = [play_game(t) for t in tasks]
    elapsed = time.perf_counter() - start
    n = len(results)
    names = (f"{args.a} (a)", f"{args.b} (b)")
    print(
        f"{n} games, {args.players} players, {args.a} vs {args.b}, "
        f"budgets a={budgets[0]} b={budgets[1]}, seeds from {args.seed}, {elapsed:.0f}s"
    )
    for side in (0, 1):
        wins = sum(r.share[side] for r in results)
        lo, hi = wilson(wins, n)
        moves = sum(r.moves[side] for r in results)
        wall = sum(r.wall[side] for r in results) / max(1, moves)
        cpu = sum(r.cpu[side] for r in results) / max(1, moves)
        print(
            f"  {names[side]:14s} wins {wins / n:6.1%}  95% CI {lo:6.1%} - {hi:6.1%}   "
            f"thinking {wall * 1000:7.1f} ms/move wall, {cpu * 1000:7.1f} ms CPU"
        )
    finished = [r for r in results if not r.stalled]
    if finished:
        rounds = sum(r.rounds for r in finished) / len(finished)
        print(f"  average length {rounds:.1f} rounds over {len(finished)} finished games")
    stalled = n - len(finished)
    if stalled:
        print(f"  {stalled} games stalled past {MAX_ROUNDS} rounds (counted as shared)")


if __name__ == "__main__":
    main()
