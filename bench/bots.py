"""Bot tournaments: one bot against the others at 2, 3 and 4 players, seats rotated.

    .venv/bin/python bench/bots.py medium easy -n 200 -p 2 3 4
    .venv/bin/python bench/bots.py hard medium -n 200 -p 2
    .venv/bin/python bench/bots.py hard medium -n 150 -p 3 4 --progress 10
    .venv/bin/python bench/bots.py hard hard -n 40 --budget 1000

In each game one seat plays `a` and every other seat `b`. Every deal is played
once with `a` in each seat (so `n` should be a multiple of the player count),
which cancels most of the luck of the deal and of the seat; a mirror match
(`a` and `b` the same bot) plays a new deal every game. Prints `a`'s win rate
with a 95% confidence interval (Wilson; a shared win counts its share) against
par (1/players), the mean game length in rounds, and the thinking time per move:
CPU time of this process (what a loaded machine doesn't inflate) and wall clock.

A budget is an iteration count (``3000``) or seconds (``1s``: a deadline on the
level's own iterations); only `hard` searches, and by default it runs its own
fixed count (`shared.bots.hard.ITERATIONS`, printed). Every move goes through
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
from shared.bots.hard import ITERATIONS  # noqa: E402
from shared.deal import new_game  # noqa: E402
from shared.moves import parse_move  # noqa: E402
from shared.settings import GameSettings  # noqa: E402

MAX_ROUNDS = 200  # a game still running then is stopped and counted as stalled


@dataclass
class GameResult:
    share: float  # a's share of the win (R17 ties split)
    rounds: int
    stalled: bool
    moves: tuple[int, int]  # moves each side chose
    wall: tuple[float, float]  # seconds of thinking, per side
    cpu: tuple[float, float]


Task = tuple[int, int, tuple[str, str], tuple[Budget, Budget], int]


def parse_budget(text: str | None) -> Budget:
    if text is None:
        return Budget()
    if text.endswith("s"):
        return Budget(seconds=float(text[:-1]))
    return Budget(iterations=int(text))


def deal_and_seat(index: int, players: int, mirror: bool, base_seed: int) -> tuple[int, int]:
    """Game `index`'s seed and the seat `a` plays: each deal once with `a` in each seat."""
    if mirror:
        return base_seed + index, index % players
    return base_seed + index // players, index % players


def play_game(task: Task) -> GameResult:
    """One game: `a` in one seat, `b` in the others."""
    index, players, levels, budgets, base_seed = task
    mirror = levels[0] == levels[1] and budgets[0] == budgets[1]
    seed, a_seat = deal_and_seat(index, players, mirror, base_seed)
    state = new_game(GameSettings(players), seed)
    rng = random.Random(seed * 1000 + a_seat)
    moves, wall, cpu = [0, 0], [0.0, 0.0], [0.0, 0.0]
    while not state.is_over and state.round <= MAX_ROUNDS:
        seat = state.current_player
        side = 0 if seat == a_seat else 1
        request = encode_request(state.view(seat), levels[side], rng.getrandbits(63), budgets[side])
        t0, c0 = time.perf_counter(), time.process_time()
        text = choose_move_bytes(request)
        wall[side] += time.perf_counter() - t0
        cpu[side] += time.process_time() - c0
        moves[side] += 1
        state = state.apply(parse_move(text))
    outcome = state.outcome()
    if outcome is None:
        share = 1 / players
    else:
        share = 1 / len(outcome.winners) if a_seat in outcome.winners else 0.0
    return GameResult(
        share=share,
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


def describe_budget(level: str, budget: Budget, players: int) -> str:
    if level != "hard":
        return "no search"
    iterations = budget.iterations or ITERATIONS[players]
    cap = f", deadline {budget.seconds:g} s" if budget.seconds is not None else ""
    return f"{iterations:,} iterations{cap}"


def report(
    args: argparse.Namespace, players: int, results: list[GameResult], elapsed: float
) -> None:
    n = len(results)
    budgets = (
        parse_budget(args.budget_a or args.budget),
        parse_budget(args.budget_b or args.budget),
    )
    wins = sum(r.share for r in results)
    lo, hi = wilson(wins, n)
    others = "one" if players == 2 else str(players - 1)
    print(
        f"{players} players, {n} games: {args.a} ({describe_budget(args.a, budgets[0], players)}) "
        f"against {others} {args.b} ({describe_budget(args.b, budgets[1], players)}), "
        f"seeds from {args.seed}, {elapsed:.0f} s"
    )
    print(f"  {args.a} wins {wins / n:6.1%}  95% CI {lo:6.1%} - {hi:6.1%}  (par {1 / players:.0%})")
    finished = [r for r in results if not r.stalled]
    if finished:
        rounds = [r.rounds for r in finished]
        mean = sum(rounds) / len(rounds)
        sd = math.sqrt(sum((x - mean) ** 2 for x in rounds) / max(1, len(rounds) - 1))
        print(f"  mean length {mean:.1f} rounds (sd {sd:.1f}) over {len(finished)} finished games")
    for side, name in ((0, f"{args.a} (a)"), (1, f"{args.b} (b)")):
        moves = sum(r.moves[side] for r in results)
        wall = sum(r.wall[side] for r in results) / max(1, moves)
        cpu = sum(r.cpu[side] for r in results) / max(1, moves)
        print(
            f"  {name:12s} thinks {cpu * 1000:7.1f} ms CPU, {wall * 1000:7.1f} ms wall a move "
            f"({moves:,} moves)"
        )
    stalled = n - len(finished)
    if stalled:
        print(f"  {stalled} games stalled past {MAX_ROUNDS} rounds (counted as par)")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", choices=LEVELS)
    parser.add_argument("b", choices=LEVELS)
    parser.add_argument("-n", "--games", type=int, default=120, help="games per player count")
    parser.add_argument("-p", "--players", type=int, nargs="+", default=[2], choices=(2, 3, 4))
    parser.add_argument("--budget", help="budget for both sides: iterations, or seconds as 1s")
    parser.add_argument("--budget-a", help="budget for side a (overrides --budget)")
    parser.add_argument("--budget-b", help="budget for side b (overrides --budget)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--progress", type=int, default=0, help="print a line every N games")
    args = parser.parse_args()
    budgets = (
        parse_budget(args.budget_a or args.budget),
        parse_budget(args.budget_b or args.budget),
    )
    levels = (args.a, args.b)
    for players in args.players:
        tasks = [(i, players, levels, budgets, args.seed) for i in range(args.games)]
        start = time.perf_counter()
        results: list[GameResult] = []
        pool = Pool(args.jobs) if args.jobs > 1 else None
        try:
            games = pool.imap(play_game, tasks) if pool else map(play_game, tasks)
            for result in games:
                results.append(result)
                if args.progress and len(results) % args.progress == 0:
                    share = sum(r.share for r in results) / len(results)
                    print(f"  ... {len(results)} games, {args.a} {share:.1%}", flush=True)
        finally:
            if pool:
                pool.close()
                pool.join()
        report(args, players, results, time.perf_counter() - start)


if __name__ == "__main__":
    main()
