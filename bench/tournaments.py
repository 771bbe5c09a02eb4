"""Tournament pairing speed: CPU seconds to pair a whole Swiss of 4 rounds (seeded random
results), to make a round robin's schedule, and the repeat meetings a Swiss made.

    .venv/bin/python bench/tournaments.py [--sizes 9,17,33] [--seeds 5]

For each size and players a table: the worst and mean time over the seeds of pairing
all four rounds of a Swiss (`shared.tournament.swiss_round`), the repeats it made
(meetings of two players already met: 0 unless unavoidable), and the time and rounds
of a round robin's schedule. CPU time of this process.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.tournament import Game, round_robin, swiss_round  # noqa: E402
from shared.tournament.standings import met  # noqa: E402


def swiss(n: int, k: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    players = [f"p{i:02d}" for i in range(n)]
    games: list[Game] = []
    byes: list[str] = []
    spent, repeats = 0.0, 0
    for _ in range(4):
        began = time.process_time()
        r = swiss_round(players, games, byes, k)
        spent += time.process_time() - began
        seen = met(games)
        repeats += sum(seen.get(frozenset((a, b)), 0) for t in r.tables for a in t for b in t
                       if a < b)  # fmt: skip
        for t in r.tables:
            ranks = [rng.randint(1, len(t)) for _ in t]
            games.append(Game(t, tuple(ranks), tuple(rng.randrange(25) for _ in t)))
        byes += r.byes
    return spent, repeats


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="9,17,33")
    p.add_argument("--seeds", type=int, default=5)
    a = p.parse_args()
    print(f"{'players':>7} {'a table':>7} {'swiss worst s':>13} {'mean s':>7} {'repeats':>7}"
          f" {'round robin s':>13} {'rounds':>6}")  # fmt: skip
    for n in (int(x) for x in a.sizes.split(",")):
        for k in (2, 3, 4):
            runs = [swiss(n, k, seed) for seed in range(a.seeds)]
            times = [t for t, _ in runs]
            began = time.process_time()
            schedule = round_robin([f"p{i:02d}" for i in range(n)], k)
            rr = time.process_time() - began
            print(f"{n:>7} {k:>7} {max(times):>13.3f} {sum(times) / len(times):>7.3f}"
                  f" {sum(r for _, r in runs):>7} {rr:>13.3f} {len(schedule):>6}")  # fmt: skip


if __name__ == "__main__":
    main()
