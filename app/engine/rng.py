"""Seeds and deterministic, unbiased shuffles ("provably fair" dealing).

Every shuffle of a hand is derived from the hand's seed, so the seed alone reproduces the
hand. The exact procedure is specified in ``docs/fair-shuffle.md``; in short:

* the byte stream of shuffle ``k`` is ``SHA-256(DOMAIN ‖ k ‖ seed ‖ counter)`` for
  ``counter = 0, 1, 2, …`` (``k`` and ``counter`` as 4-byte big-endian integers), read as
  big-endian 32-bit words;
* ``uniform(n)`` takes words until one is below ``2**32 - (2**32 mod n)`` (rejection
  sampling, so no modulo bias) and returns it modulo ``n``;
* the shuffle is Fisher-Yates from the last position down: for ``i = len-1 … 1``,
  swap ``i`` with ``uniform(i + 1)``, applied to the cards in canonical order
  (card numbers ascending, see ``app.engine.cards.full_deck``).

Shuffle 0 is the deck; shuffle ``k`` (k ≥ 1) is the k-th reshuffle of out-of-play cards.
``secrets`` is the operating system's cryptographic generator; it is not I/O.

A live hand's seed is not drawn by the server alone: the server draws a *server seed* and
publishes its commitment first, the seated players' browsers then send 32-byte
*contributions*, and the hand's seed is :func:`mixed_seed` of both, i.e.
``SHA-256(DOMAIN_MIX ‖ server_seed ‖ for each contributing seat, ascending: seat ‖ value)``.
The server cannot pick the deck (its seed is fixed before it sees the contributions) and no
player can (nobody else knows the server seed until the hand is over).
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

SEED_BYTES = 32
DOMAIN = b"salon.shuffle/v1"
# Separates the mix from every other SHA-256 use of the same bytes (the shuffle streams).
DOMAIN_MIX = b"salon.mix/v1"
CONTRIBUTION_BYTES = 32
# A seat is written as one byte in the mix.
MAX_SEAT = 255
_WORD_SPACE = 1 << 32
_UNPACK_WORDS = struct.Struct(">8I").unpack

T = TypeVar("T")


class SeedError(ValueError):
    """A seed that is not a non-empty hex string of whole bytes."""


def new_seed() -> bytes:
    """A fresh 256-bit seed from the operating system's cryptographic generator."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: hex SHA-256 of the seed bytes."""
    return hashlib.sha256(seed).hexdigest()


def mixed_seed(server_seed: bytes, contributions: Mapping[int, bytes]) -> bytes:
    """The hand's seed: the server seed mixed with the players' contributions.

    ``SHA-256(DOMAIN_MIX ‖ server_seed ‖ seat ‖ value ‖ seat ‖ value …)`` with the
    contributing seats in ascending order, each seat as one byte and each value as its
    32 bytes (docs/fair-shuffle.md, "Mixing"). Every part has a fixed length, so the
    concatenation is unambiguous; with no contributions it is ``SHA-256(DOMAIN_MIX ‖
    server_seed)``, so every live seed goes through the same function.
    """
    if len(server_seed) != SEED_BYTES:
        raise SeedError(f"a server seed is {SEED_BYTES} bytes")
    digest = hashlib.sha256(DOMAIN_MIX + server_seed)
    for seat in sorted(contributions):
        value = contributions[seat]
        if not 0 <= seat <= MAX_SEAT:
            raise SeedError(f"a contributing seat is 0 to {MAX_SEAT}")
        if len(value) != CONTRIBUTION_BYTES:
            raise SeedError(f"a contribution is {CONTRIBUTION_BYTES} bytes")
        digest.update(bytes([seat]) + value)
    return digest.digest()


def contributions_from_hex(data: Mapping[str, str]) -> dict[int, bytes]:
    """Contributions as stored and published (seat number as text → hex) to bytes."""
    return {int(seat): seed_from_hex(value) for seat, value in data.items()}


def contributions_to_hex(data: Mapping[int, bytes]) -> dict[str, str]:
    """Contributions in their stored and published form, seats ascending."""
    return {str(seat): data[seat].hex() for seat in sorted(data)}


def seed_from_hex(text: str) -> bytes:
    """Decode a seed written as hex (the table log's ``seed``); refuses odd or empty text."""
    if not text or len(text) % 2:
        raise SeedError("a seed is a non-empty hex string of whole bytes")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise SeedError("a seed is a non-empty hex string of whole bytes") from None


def seed_to_hex(seed: bytes) -> str:
    return seed.hex()


class ShuffleStream:
    """The deterministic word stream of shuffle ``index`` of a seed."""

    __slots__ = ("_base", "_counter", "_pos", "_words")

    def __init__(self, seed: bytes, index: int) -> None:
        if not 0 <= index < _WORD_SPACE:
            raise ValueError("shuffle index out of range")
        self._base = hashlib.sha256(DOMAIN + index.to_bytes(4, "big") + seed)
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def next_word(self) -> int:
        if self._pos == len(self._words):
            block = self._base.copy()
            block.update(self._counter.to_bytes(4, "big"))
            self._counter += 1
            self._words = _UNPACK_WORDS(block.digest())
            self._pos = 0
        word = self._words[self._pos]
        self._pos += 1
        return word

    def uniform(self, bound: int) -> int:
        """An unbiased integer in ``[0, bound)`` by rejection sampling."""
        limit = _WORD_SPACE - (_WORD_SPACE % bound)
        while True:
            word = self.next_word()
            if word < limit:
                return word % bound


def shuffled(items: Sequence[T], seed: bytes, index: int) -> list[T]:
    """Fisher-Yates shuffle of ``items`` (in the given order) driven by shuffle ``index``.

    The same stream and rejection rule as :class:`ShuffleStream`, written for speed since
    every hand deals from it: the blocks needed without rejection are hashed up front, and
    each (rare) rejected word brings one more block so the stream never runs short.
    """
    out = list(items)
    if not 0 <= index < _WORD_SPACE:
        raise ValueError("shuffle index out of range")
    base = hashlib.sha256(DOMAIN + index.to_bytes(4, "big") + seed)
    blocks = (len(out) + 6) // 8  # enough words for len - 1 draws
    words = list(_words(base, 0, blocks))
    counter = blocks
    pos = 0
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = _WORD_SPACE - (_WORD_SPACE % bound)
        word = words[pos]
        pos += 1
        while word >= limit:
            words.extend(_words(base, counter, 1))
            counter += 1
            word = words[pos]
            pos += 1
        j = word % bound
        out[i], out[j] = out[j], out[i]
    return out


def _words(base: Any, first: int, count: int) -> list[int]:
    """The 32-bit words of blocks ``first`` .. ``first + count - 1`` of a stream."""
    out: list[int] = []
    for counter in range(first, first + count):
        block = base.copy()
        block.update(counter.to_bytes(4, "big"))
        out.extend(_UNPACK_WORDS(block.digest()))
    return out


def shuffled_deck(seed: bytes, deck_size: int = 52) -> list[int]:
    """Shuffle 0: the deck, top first, as card numbers."""
    return shuffled(range(deck_size), seed, 0)


def reshuffled(cards: Iterable[int], seed: bytes, index: int) -> list[int]:
    """Shuffle ``index`` ≥ 1: out-of-play cards, taken in canonical order, then shuffled."""
    if index < 1:
        raise ValueError("reshuffles are numbered from 1")
    return shuffled(sorted(cards), seed, index)
