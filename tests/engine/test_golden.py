"""Pinned behaviour: the deal algorithm (shared/rng.py), golden playthroughs and the
perft table of known positions (data files in tests/engine/data/, written by
`tests/engine/make_data.py`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared import CARDS, NOBLES, GameState, Outcome, new_game, parse_move
from shared.cards import LEVEL_CARDS
from shared.rng import SplitMix64
from shared.settings import GameSettings

from .helpers import check_invariants
from .make_data import facts, perft

DATA = Path(__file__).parent / "data"
GAMES: list[dict[str, Any]] = json.loads((DATA / "golden_games.json").read_text())
POSITIONS: list[dict[str, Any]] = json.loads((DATA / "perft.json").read_text())

# -- the deal (R5, R6) ---------------------------------------------------------------


def test_splitmix64_gives_the_reference_outputs() -> None:
    """The published SplitMix64 test vectors (Vigna's splitmix64.c)."""
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    rng = SplitMix64(1234567)
    assert [rng.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_splitmix64_below_and_shuffle_are_pinned() -> None:
    rng = SplitMix64(42)
    assert [rng.below(10) for _ in range(10)] == [3, 1, 8, 4, 0, 2, 5, 8, 5, 4]
    items = list(range(10))
    SplitMix64(7).shuffle(items)
    assert items == [8, 1, 5, 9, 0, 4, 3, 2, 6, 7]
    with pytest.raises(ValueError):
        SplitMix64(1).below(0)


def documented_deal(players: int, seed: int) -> tuple[list[list[int]], list[int], int]:
    """The deal exactly as shared/rng.py's docstring describes it, written out again."""
    mask = (1 << 64) - 1
    state = seed & mask

    def next64() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    def below(n: int) -> int:
        while (x := next64()) >= (1 << 64) // n * n:
            pass
        return x % n

    def shuffle(items: list[int]) -> list[int]:
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    decks = [shuffle(list(level)) for level in LEVEL_CARDS]
    nobles = shuffle(list(range(10)))
    return decks, nobles[: players + 1], below(players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r5_r6_new_game_deals_as_documented(players: int) -> None:
    for seed in [*range(50), 2**32, 2**63 + 5, 2**64 - 1]:
        decks, nobles, first = documented_deal(players, seed)
        state = new_game(GameSettings(players), seed)
        # the first four cards of each shuffled level go face up; the rest is the deck
        assert state.board == tuple(tuple(d[:4]) for d in decks)
        assert state.decks == tuple(tuple(d[4:]) for d in decks)
        assert state.nobles == tuple(nobles)
        assert state.starting_player == first


@pytest.mark.parametrize(
    ("players", "seed", "board", "deck_tops", "nobles", "first"),
    [
        (
            2, 0,
            [["1-09", "1-33", "1-05", "1-36"], ["2-18", "2-03", "2-20", "2-07"],
             ["3-10", "3-20", "3-18", "3-14"]],
            ["1-12", "2-12", "3-07"], ["N2", "N9", "N8"], 1,
        ),
        (
            3, 42,
            [["1-26", "1-17", "1-36", "1-12"], ["2-23", "2-01", "2-08", "2-04"],
             ["3-11", "3-16", "3-12", "3-04"]],
            ["1-19", "2-29", "3-09"], ["N4", "N2", "N8", "N7"], 1,
        ),
        (
            4, 2**64 - 1,
            [["1-22", "1-32", "1-35", "1-25"], ["2-27", "2-20", "2-10", "2-09"],
             ["3-03", "3-13", "3-20", "3-05"]],
            ["1-02", "2-21", "3-01"], ["N5", "N2", "N3", "N1", "N4"], 0,
        ),
    ],
)  # fmt: skip
def test_r5_r6_the_deal_of_a_seed_never_changes(
    players: int, seed: int, board: list[list[str]], deck_tops: list[str], nobles: list[str],
    first: int,
) -> None:  # fmt: skip
    state = new_game(GameSettings(players), seed)
    assert [[CARDS[i].id for i in row] for row in state.board] == board
    assert [CARDS[d[0]].id for d in state.decks] == deck_tops
    assert [NOBLES[n].id for n in state.nobles] == nobles
    assert state.starting_player == state.current_player == first


# -- golden playthroughs ------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=[g["name"] for g in GAMES])
def test_golden_playthrough(game: dict[str, Any]) -> None:
    state = new_game(GameSettings(game["players"]), game["seed"])
    checkpoints = game["checkpoints"]
    assert facts(state) == checkpoints["0"]
    for ply, text in enumerate(game["moves"], start=1):
        assert not state.is_over
        state = state.apply(parse_move(text))
        check_invariants(state)
        if str(ply) in checkpoints:
            assert facts(state) == checkpoints[str(ply)], f"after move {ply}: {text}"
    assert state.is_over
    assert state.outcome() == Outcome(
        scores=tuple(game["outcome"]["scores"]), ranks=tuple(game["outcome"]["ranks"])
    )


def test_golden_playthroughs_cover_the_awkward_moments() -> None:
    """The recorded games go through returns, nobles, blind reserves and final rounds."""
    moments = [c for g in GAMES for c in g["checkpoints"].values()]
    assert any(c["phase"] == "return" for c in moments)
    assert any(c["player_nobles"] != [[]] * len(c["player_nobles"]) for c in moments)
    assert any("blind" in r for c in moments for rs in c["reserved"] for r in rs)
    assert any(c["final_round"] and not c["over"] for c in moments)


# -- perft ----------------------------------------------------------------------------


def position(entry: dict[str, Any]) -> GameState:
    state = new_game(GameSettings(entry["players"]), entry["seed"])
    for text in entry["moves"]:
        state = state.apply(parse_move(text))
    return state


@pytest.mark.parametrize("entry", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_perft_known_positions(entry: dict[str, Any]) -> None:
    state = position(entry)
    counts = [perft(state, depth) for depth in range(1, len(entry["perft"]) + 1)]
    assert counts == entry["perft"]
