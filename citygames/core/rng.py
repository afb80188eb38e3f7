"""A small seeded pseudo-random generator with a stable, version-independent sequence.

Python's ``random`` module may change its algorithms between versions; game records must replay
identically forever, so every engine draws its chance from this generator instead. The
algorithm is SplitMix64 (Steele, Lea & Flood 2014): a 64-bit counter passed through a mixing
function. It is fast, has a one-integer state (cheap to clone and pickle) and is fully specified
here.
"""

from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """Seeded SplitMix64 generator.

    Args:
        seed: any int (negative and huge values are reduced modulo 2**64).

    The whole state is ``self.state`` (an int); ``clone()`` copies it.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = int(seed) & _MASK

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform int in ``[0, n)``; raises ``ValueError`` if ``n <= 0``. Unbiased (rejection)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """Uniform float in ``[0, 1)`` with 53 bits of precision."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def spawn(self) -> "Rng":
        """A new independent generator seeded from this one (advances this one)."""
        return Rng(self.next64())

    def clone(self) -> "Rng":
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"
