"""Engine speed of two source trees side by side: random self-play, alternating.

    .venv/bin/python bench/engine_ab.py OTHER_TREE [--seconds 2] [--rounds 5]

Each round measures `bench/engine.py`'s `random_plies` (unchecked and through the
checked `apply`, at 2, 3 and 4 players) in each tree, in a fresh process per figure,
the trees taking turns to go first: so both meet the same load on a shared machine.
Each tree runs its own bench (its own `new_game`), so OTHER_TREE may be any commit of
the project (`git worktree add --detach /tmp/base main`). It prints the best of the
rounds for each tree, this tree's speed as a ratio of the other's, and the median of
the rounds' ratios (each round's two figures measured one after the other: a machine
whose load changes during the run moves both alike).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PROBE = (
    "import sys; sys.path[:0] = [{tree!r}, {bench!r}]; import engine; "
    "print(engine.random_plies({players}, {seconds}, checked={checked}))"
)


def measure(tree: Path, players: int, seconds: float, checked: bool) -> float:
    """Plies per second of random self-play in `tree`, in a process of its own."""
    code = PROBE.format(
        tree=str(tree), bench=str(tree / "bench"), players=players, seconds=seconds,
        checked=checked,
    )  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other source tree (a checkout)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the best is shown")
    args = parser.parse_args()
    trees = {"other": args.other.resolve(), "this": HERE}
    kinds = [(n, checked) for checked in (False, True) for n in (2, 3, 4)]
    best: dict[tuple[str, int, bool], float] = {}
    ratios: dict[tuple[int, bool], list[float]] = {kind: [] for kind in kinds}
    for r in range(args.rounds):
        order = ["other", "this"] if r % 2 == 0 else ["this", "other"]
        for n, checked in kinds:
            rates = {}
            for name in order:
                rates[name] = measure(trees[name], n, args.seconds, checked)
                key = (name, n, checked)
                best[key] = max(best.get(key, 0.0), rates[name])
            ratios[(n, checked)].append(rates["this"] / rates["other"])
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"other: {trees['other']}\nthis:  {trees['this']}")
    print(
        f"{'plies/s, best of the rounds':30} {'other':>10} {'this':>10} {'ratio':>7} {'median':>7}"
    )
    for n, checked in kinds:
        what = f"{'checked apply' if checked else 'random self-play'}, {n} players"
        a, b = best[("other", n, checked)], best[("this", n, checked)]
        paired = statistics.median(ratios[(n, checked)])
        print(f"{what:30} {a:10,.0f} {b:10,.0f} {b / a:7.3f} {paired:7.3f}")


if __name__ == "__main__":
    main()
