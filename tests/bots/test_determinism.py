"""Bots are deterministic for a given view, seed and iteration budget (issue 3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.bots import Budget, choose_move, choose_move_bytes, encode_request

from .positions import random_positions

ROOT = Path(__file__).resolve().parents[2]
LEVEL_BUDGETS = [("easy", None), ("medium", None), ("hard", Budget(iterations=80))]


@pytest.fixture(scope="module")
def views() -> list:
    states = [s for n in (2, 3, 4) for s in random_positions(n, 8, seed=70 + n, returns=2)]
    return [s.view(s.current_player) for s in states]


@pytest.mark.parametrize(("level", "budget"), LEVEL_BUDGETS)
def test_same_view_seed_and_budget_same_move(views, level: str, budget: Budget | None) -> None:
    for view in views:
        first = choose_move(view, level, 1234, budget)
        assert choose_move(view, level, 1234, budget) is first  # moves are interned
        assert choose_move_bytes(encode_request(view, level, 1234, budget)) == str(first)


def test_the_seed_matters(views) -> None:
    # easy plays with chance: over many views some seed pair must disagree
    assert any(
        choose_move(v, "easy", 1) != choose_move(v, "easy", 2)
        for v in views
        if len(v.legal_moves) > 3
    )


def test_hard_with_a_time_cap_still_moves_legally(views) -> None:
    for view in views[:3]:
        assert choose_move(view, "hard", 5, Budget(seconds=0.05)) in view.legal_moves
        assert choose_move(view, "hard", 5, Budget(iterations=10_000, seconds=0.05)) in (
            view.legal_moves
        )


_CHILD = """
import sys
from shared import codec
from shared.bots import choose_move_bytes
requests = codec.loads(sys.stdin.buffer.read())["requests"]
print("\\n".join(choose_move_bytes(r) for r in requests))
"""


def test_same_moves_in_other_processes_whatever_their_hash_seed(views) -> None:
    """What a server's process pool relies on: nothing depends on string hashing."""
    from shared import codec

    requests = tuple(encode_request(v, lvl, 99, b) for v in views[::4] for lvl, b in LEVEL_BUDGETS)
    here = [choose_move_bytes(r) for r in requests]
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", _CHILD],
            input=codec.dumps({"requests": requests}),
            capture_output=True,
            env=env,
            cwd=ROOT,
            check=True,
        )
        assert out.stdout.decode().splitlines() == here
