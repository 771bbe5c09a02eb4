"""Game records: how long `splendor replay FILE` takes to read, parse and replay a record,
legal or hostile, from 10 KB to 10 MB, and whether the time grows in step with the size
(docs/records.md, "Limits"). Prints seconds and seconds per 100 KB for each case and
size; the per-100 KB figure staying flat across sizes is the linear curve.

    .venv/bin/python bench/records.py                  # 10K 100K 1M 10M, best of 3
    .venv/bin/python bench/records.py --sizes 10K 1M --repeat 1 --memory

Each file is written to a temporary directory and read as `splendor replay` reads it
(`client.screens.replay.load_replay`: `record_bytes` reads at most `LIMITS.size` + 1
bytes, then `parse_record`, then `Replay.of`, which plays every move with the engine). `--memory`
adds the peak of Python's allocations during the parse (tracemalloc, one run).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from client.replay import Replay  # noqa: E402
from client.screens.replay import load_replay, record_bytes  # noqa: E402
from shared.deal import new_game  # noqa: E402
from shared.gamerecord import LIMITS, RecordError, parse_record, record_of, write_record  # noqa: E402
from shared.moves import ReserveDeck, Return, Take  # noqa: E402
from shared.settings import GameSettings  # noqa: E402

KB = 1000
TAGS = '[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n'
CHAT = "ann: good move, I did not see that one coming — très bien 好 {?} \\o/ "


def long_game(moves: int) -> list[str]:
    """A legal 2-player game that never ends: each seat reserves from the decks while it
    can, then takes gems and gives them back (R13), so it lasts as long as asked."""
    rng, state, played = random.Random(1), new_game(GameSettings(2), 1), []
    while len(played) < moves:
        legal = state.legal_moves()
        pick = (
            [m for m in legal if isinstance(m, ReserveDeck)]
            or [m for m in legal if isinstance(m, Return) and "*" not in str(m)]
            or [m for m in legal if isinstance(m, Take | Return)]
            or legal
        )
        move = rng.choice(pick)
        played.append(str(move))
        state = state.apply(move)
    assert not state.is_over
    return played


def legal(size: int, moves: list[str], chat: bool) -> bytes:
    """A legal record of about `size` bytes: the game's first moves, a chat line after
    each if `chat`; past the move limit when it takes more moves than a record holds."""
    per_move = 105 if chat else 14
    n = max(1, size // per_move)
    if n > LIMITS.moves:  # write it as the writer would, past the limit
        turn, words = 0, []
        for text in (moves * (n // len(moves) + 1))[:n]:
            if not text.startswith("return "):
                turn += 1
                words.append(f"{turn}.")
            words.append(text)
        return (TAGS + " ".join(words) + "\n*\n").encode()
    comments = {i: (CHAT,) for i in range(n)} if chat else {}
    record = record_of(2, 1, moves[:n])
    return write_record(record.__class__(record.tags, record.moves, comments)).encode()


def hostile_cases(moves: list[str]) -> dict[str, Callable[[int], bytes]]:
    """Files made to cost a reader time or memory, each about `size` bytes."""
    return {
        "legal, moves only": lambda size: legal(size, moves, chat=False),
        "legal, a chat line a move": lambda size: legal(size, moves, chat=True),
        "blank lines, then a bad move": lambda size: (
            TAGS + "\n" * size + "1. take W W W\n"
        ).encode(),
        "an unclosed comment": lambda size: (TAGS + "1. pass {" + "x" * size).encode(),
        "escaped braces, unclosed": lambda size: (
            TAGS + "1. pass {" + "\\}" * (size // 2)
        ).encode(),
        "one long tag value": lambda size: ('[Event "' + "x" * size + '"]\n' + TAGS).encode(),
        "empty comments after a move": lambda size: (
            TAGS + "1. take W U G " + "{} " * (size // 3)
        ).encode(),
        "turn after turn of pass": lambda size: (
            TAGS + " ".join(f"{t}. pass" for t in range(1, size // 10)) + "\n"
        ).encode(),
        "a word as long as the file": lambda size: (TAGS + "1. take " + "W" * size).encode(),
        "bytes not UTF-8 at the end": lambda size: (TAGS + " " * size).encode() + b"\xff",
    }


def run(path: Path) -> tuple[float, float, str]:
    """Seconds to read and parse, seconds to replay, and how it ended."""
    start = time.perf_counter()
    try:
        record = parse_record(record_bytes(path))
    except RecordError as e:
        return time.perf_counter() - start, 0.0, f"refused: {str(e)[:60]}"
    parsed = time.perf_counter()
    try:
        replay = Replay.of(record)
    except RecordError as e:
        return parsed - start, time.perf_counter() - parsed, f"refused: {str(e)[:60]}"
    return parsed - start, time.perf_counter() - parsed, f"{replay.turns} turns"


def peak(path: Path) -> float:
    """MB of Python allocations at the peak of reading and parsing the file."""
    tracemalloc.start()
    try:
        parse_record(record_bytes(path))
    except RecordError:
        pass
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top / 1e6


def size_of(text: str) -> int:
    units = {"K": KB, "M": KB * KB}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].isalpha() else int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["10K", "100K", "1M", "10M"])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    parser.add_argument("--memory", action="store_true", help="also the parse's peak memory")
    args = parser.parse_args()
    sizes = [size_of(s) for s in args.sizes]
    moves = long_game(LIMITS.moves)
    print(f"limits: {LIMITS}")
    head = f"{'case':30} {'size':>9} {'parse s':>8} {'replay s':>9} {'s/100KB':>8}"
    print(head + ("  peak MB" if args.memory else "") + "  outcome")
    with tempfile.TemporaryDirectory(prefix="bench-records-") as tmp:
        path = Path(tmp) / "record.txt"
        for name, make in hostile_cases(moves).items():
            for size in sizes:
                data = make(size)
                path.write_bytes(data)
                runs = [run(path) for _ in range(max(1, args.repeat))]
                parse_s, replay_s, outcome = min(runs, key=lambda r: r[0] + r[1])
                per = (parse_s + replay_s) / (len(data) / (100 * KB))
                line = f"{name:30} {len(data):>9,} {parse_s:>8.3f} {replay_s:>9.3f} {per:>8.4f}"
                if args.memory:
                    line += f"  {peak(path):>7.1f}"
                print(f"{line}  {outcome}", flush=True)
        over = LIMITS.size * 5 // 4  # a file past the size limit: read no further than it
        path.write_bytes(b" " * over)
        start = time.perf_counter()
        try:
            load_replay(path)
        except RecordError as e:
            print(f"{'past the size limit':30} {over:>9,} {time.perf_counter() - start:>8.3f}  {e}")


if __name__ == "__main__":
    main()
