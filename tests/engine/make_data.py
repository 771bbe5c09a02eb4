"""Write the engine's pinned data files in tests/engine/data/ from the engine as it is.

    .venv/bin/python -m tests.engine.make_data

The tests compare the engine against these files; they never write them. Run
this only for an intended change of rules or card data, and read the diff of
the data files as you would read a change of the rules: every difference is a
game that now plays differently.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared import CARDS, NOBLES, GameState, new_game
from shared.settings import GameSettings
from shared.state import RETURN_PHASE

DATA = Path(__file__).parent / "data"

# Golden playthroughs: (name, players, seed, seed of the random.Random choosing moves).
GAMES = [
    ("two players, seed 1", 2, 1, 101),
    ("two players, seed 2024", 2, 2024, 7),
    ("three players, seed 42", 3, 42, 3),
    ("four players, seed 99", 4, 99, 11),
    ("four players, a long seed", 4, 2**64 - 1, 5),
]


def facts(state: GameState) -> dict[str, Any]:
    """What a checkpoint records about a state, in ids and letters."""
    ids = [c.id for c in CARDS]
    return {
        "turn": state.turn,
        "current": state.current_player,
        "phase": state.phase,
        "final_round": state.final_round,
        "over": state.is_over,
        "bank": list(state.bank),
        "board": [[ids[i] if i >= 0 else None for i in row] for row in state.board],
        "deck_sizes": [len(d) for d in state.decks],
        "nobles": [NOBLES[n].id for n in state.nobles],
        "tokens": [list(t) for t in state.tokens],
        "bonuses": [list(b) for b in state.bonuses],
        "prestige": [state.prestige(s) for s in range(state.num_players)],
        "reserved": [
            [ids[i] + (" blind" if blind else "") for i, blind in r] for r in state.reserved
        ],
        "player_nobles": [[NOBLES[n].id for n in ns] for ns in state.player_nobles],
        "legal_moves": len(state.legal_moves()),
    }


def _notable(before: GameState, after: GameState) -> bool:
    """A move worth a checkpoint: a return, a noble, a blind reserve, an emptied slot,
    the final round, the end."""

    def nobles(s: GameState) -> int:
        return sum(map(len, s.player_nobles))

    def blind(s: GameState) -> int:
        return sum(b for r in s.reserved for _, b in r)

    def empty_slots(s: GameState) -> int:
        return sum(row.count(-1) for row in s.board)

    return (
        RETURN_PHASE in (before.phase, after.phase)
        or nobles(after) > nobles(before)
        or blind(after) > blind(before)
        or empty_slots(after) > empty_slots(before)
        or after.final_round != before.final_round
        or after.is_over
    )


def golden_game(name: str, players: int, seed: int, chooser: int) -> dict[str, Any]:
    rng = random.Random(chooser)
    state = new_game(GameSettings(players), seed)
    moves: list[str] = []
    checkpoints = {"0": facts(state)}
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        after = state.apply(move)
        moves.append(str(move))
        if _notable(state, after) or len(moves) % 25 == 0:
            checkpoints[str(len(moves))] = facts(after)
        state = after
    outcome = state.outcome()
    assert outcome is not None
    return {
        "name": name,
        "players": players,
        "seed": seed,
        "moves": moves,
        "checkpoints": checkpoints,
        "outcome": {"scores": list(outcome.scores), "ranks": list(outcome.ranks)},
    }


def perft(state: GameState, depth: int) -> int:
    """Leaf nodes of the legal-move tree `depth` plies deep (a finished game is a leaf)."""
    if depth == 0 or state.is_over:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply(m), depth - 1) for m in moves)


def find_position(
    players: int, seed: int, chooser: int, wanted: Callable[[GameState], bool]
) -> list[str]:
    """The moves of the first random game (from `seed`, `chooser`, `chooser + 1`, ...)
    that reaches a position `wanted` accepts."""
    for attempt in range(1000):
        rng = random.Random(chooser + attempt)
        state = new_game(GameSettings(players), seed)
        moves: list[str] = []
        while not state.is_over:
            if wanted(state):
                return moves
            move = rng.choice(state.legal_moves())
            moves.append(str(move))
            state = state.apply(move)
    raise LookupError("no such position found")


def _colours_left(state: GameState) -> int:
    return sum(1 for n in state.bank[:5] if n)


# (name, players, seed, what the position shows, depth)
POSITIONS: list[tuple[str, int, int, Callable[[GameState], bool], int]] = [
    ("start, 2 players", 2, 1, lambda s: True, 4),
    ("start, 3 players", 3, 42, lambda s: True, 3),
    ("start, 4 players", 4, 7, lambda s: True, 3),
    ("middle game", 2, 5, lambda s: s.turn >= 20, 3),
    (
        "R13 return of 3 tokens",
        3,
        8,
        lambda s: s.phase == RETURN_PHASE and sum(s.tokens[s.current_player]) == 13,
        3,
    ),
    (
        "R13 return of 1 token",
        2,
        9,
        lambda s: s.phase == RETURN_PHASE and sum(s.tokens[s.current_player]) == 11,
        3,
    ),
    ("R7 two colours left", 2, 3, lambda s: s.phase == "action" and _colours_left(s) == 2, 3),
    ("R7 one colour left", 2, 4, lambda s: s.phase == "action" and _colours_left(s) == 1, 3),
    ("R9 three reserved", 3, 6, lambda s: len(s.reserved[s.current_player]) == 3, 3),
    ("R11 an empty slot", 4, 10, lambda s: any(-1 in row for row in s.board), 3),
    ("R12 only a pass", 2, 12, lambda s: str(s.legal_moves()[0]) == "pass", 3),
    ("R15 final round", 3, 13, lambda s: s.final_round and not s.is_over, 3),
    ("R14 a noble visited", 2, 14, lambda s: any(s.player_nobles), 3),
]


def perft_table() -> list[dict[str, Any]]:
    table = []
    for name, players, seed, wanted, depth in POSITIONS:
        moves = find_position(players, seed, 1, wanted)
        state = new_game(GameSettings(players), seed)
        for text in moves:
            state = state.apply(next(m for m in state.legal_moves() if str(m) == text))
        table.append(
            {
                "name": name,
                "players": players,
                "seed": seed,
                "moves": moves,
                "perft": [perft(state, d) for d in range(1, depth + 1)],
            }
        )
    return table


def cards_text() -> str:
    lines = ["# id colour prestige cost, then nobles: id demand (tests/engine/test_cards.py)"]
    lines += [f"{c.id} {'WUGRK'[c.colour]} {c.prestige} {c.cost_text()}" for c in CARDS]
    lines += [f"{n.id} {n.requires_text()}" for n in NOBLES]
    return "\n".join(lines) + "\n"


def games_text(games: list[dict[str, Any]]) -> str:
    """JSON with one line per move list, checkpoint and outcome: short, and diffs well."""
    parts = []
    for game in games:
        head = ", ".join(
            f"{json.dumps(k)}: {json.dumps(game[k])}" for k in ("name", "players", "seed")
        )
        checkpoints = ",\n".join(
            f"   {json.dumps(ply)}: {json.dumps(facts)}"
            for ply, facts in game["checkpoints"].items()
        )
        parts.append(
            f" {{{head},\n"
            f'  "moves": {json.dumps(game["moves"])},\n'
            f'  "checkpoints": {{\n{checkpoints}\n  }},\n'
            f'  "outcome": {json.dumps(game["outcome"])}}}'
        )
    return "[\n" + ",\n".join(parts) + "\n]\n"


def main() -> None:
    DATA.mkdir(exist_ok=True)
    (DATA / "cards.txt").write_text(cards_text())
    games = [golden_game(*g) for g in GAMES]
    (DATA / "golden_games.json").write_text(games_text(games))
    (DATA / "perft.json").write_text(json.dumps(perft_table(), indent=1) + "\n")


if __name__ == "__main__":
    main()
