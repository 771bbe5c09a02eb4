"""The deal's random source: SplitMix64, our own, so a seed deals the same game everywhere.

`random.shuffle` is not promised to stay the same across Python versions; this
is. Algorithm (pinned by a golden test):

- the generator state starts at ``seed mod 2**64``; each draw adds
  ``0x9E3779B97F4A7C15`` and mixes the sum with SplitMix64's finaliser;
- ``below(n)`` draws uniformly from ``0..n-1`` by rejection (no modulo bias);
- ``shuffle`` is Fisher–Yates from the last position down.

`new_game` draws in this order: level 1, 2 and 3 decks, the nobles, the
starting player (R5, R6).
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class SplitMix64:
    """A tiny, fully specified 64-bit generator."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1``."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates, in place: `below` written out, since deals are a hot path of
        search bots and benchmarks (the same draws, pinned by a golden test)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < len(_LIMITS) else ((1 << 64) // n) * n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state


_LIMITS = tuple(((1 << 64) // n) * n if n else 0 for n in range(64))  # below(n)'s rejection bound
