"""Engine speed of two source trees side by side, in one process: random self-play.

    .venv/bin/python bench/engine_ab.py OTHER_TREE [--seconds 0.5] [--rounds 16]

Each tree's `shared` package is loaded under a name of its own (both in this one
interpreter, so both meet the same machine, memory and hash seed), and the loop of
`bench/engine.py`'s `random_plies` (unchecked, and through the checked `apply`, at 2, 3
and 4 players) runs on each in turn, the trees taking turns to go first. OTHER_TREE may
be any checkout of the project (`git worktree add --detach /tmp/base main`); a tree
whose `new_game` takes a player count (before `shared.settings`) is dealt that way. It
prints the best of the rounds for each tree, this tree's speed as a ratio of the other's,
and the median of the rounds' ratios (each round's two figures one after the other).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def load(name: str, tree: Path) -> ModuleType:
    """`tree`'s `shared` package as the module `name` (its imports are relative)."""
    spec = importlib.util.spec_from_file_location(
        name, tree / "shared" / "__init__.py", submodule_search_locations=[str(tree / "shared")]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def dealer(shared: Any, players: int) -> Any:
    """A function from a seed to a new game of `players` in this tree's own API."""
    settings = getattr(shared, "GameSettings", None)
    if settings is None:
        return lambda seed: shared.new_game(players, seed)
    chosen = settings(players)
    return lambda seed: shared.new_game(chosen, seed)


def random_plies(shared: Any, players: int, seconds: float, checked: bool) -> float:
    """Plies per second of random self-play (`bench/engine.py`'s loop) in one tree."""
    rng = random.Random(1)
    choice = rng.choice
    state_type = shared.GameState
    apply = state_type.apply if checked else state_type.apply_unchecked
    deal = dealer(shared, players)
    plies = game = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = deal(game)
        game += 1
        while not state.is_over:
            state = apply(state, choice(state.legal_moves()))
            plies += 1
    return plies / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other source tree (a checkout)")
    parser.add_argument("--seconds", type=float, default=0.5, help="time per figure")
    parser.add_argument("--rounds", type=int, default=16, help="rounds; the best is shown")
    args = parser.parse_args()
    trees = {"other": args.other.resolve(), "this": HERE}
    engines = {name: load(f"shared_{name}", tree) for name, tree in trees.items()}
    print(f"other: {trees['other']}\nthis:  {trees['this']}")
    head = f"{'plies/s, best of the rounds':30} {'other':>10} {'this':>10}"
    print(f"{head} {'ratio':>7} {'median':>7}")
    for checked in (False, True):
        for n in (2, 3, 4):
            best = {"other": 0.0, "this": 0.0}
            ratios = []
            for r in range(args.rounds):
                rates = {}
                for name in ("other", "this") if r % 2 == 0 else ("this", "other"):
                    rates[name] = random_plies(engines[name], n, args.seconds, checked)
                    best[name] = max(best[name], rates[name])
                ratios.append(rates["this"] / rates["other"])
            what = f"{'checked apply' if checked else 'random self-play'}, {n} players"
            a, b = best["other"], best["this"]
            print(f"{what:30} {a:10,.0f} {b:10,.0f} {b / a:7.3f} {statistics.median(ratios):7.3f}")


if __name__ == "__main__":
    main()
