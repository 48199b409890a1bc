"""Main pot and side pots (rules/bouillotte.md §5, §8 "Pots").

Pots are layered at each all-in stake of a player still in, and at the highest stake of a
player still in. Every player's stake, folded ones too, fills the layers up to it; dead money
(a carried pot) goes to the main pot; a layer's contenders are the players still in whose
stake reaches it. The top layer may have one contender: chips nobody could match, returned
to the player who put them in.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat


def layer_pots(
    stakes: Sequence[int],
    live: Sequence[int],
    all_in: Sequence[int],
    dead: int,
) -> list[tuple[int, tuple[int, ...]]]:
    """``[(amount, contenders), ...]``, main pot first.

    ``stakes`` is indexed by seat (0 for a seat not dealt in); ``live`` are the seats still
    in, in the order (contenders keep that order); ``all_in`` the live seats with no chips
    left. Folded stakes above the highest live stake cannot occur in a legal hand; if they
    did they would go to the top layer, so no chip is ever lost.
    """
    top = 0
    for seat in live:
        if stakes[seat] > top:
            top = stakes[seat]
    levels = sorted({stakes[seat] for seat in all_in if stakes[seat] < top})
    levels.append(top)
    pots: list[tuple[int, tuple[int, ...]]] = []
    filled = 0  # chips in the layers so far; dead money belongs to the main pot
    for level in levels:
        # Each stake fills every layer up to it: the chips at or below ``level``.
        upto = dead + sum(map(min, stakes, repeat(level)))
        pots.append((upto - filled, tuple([s for s in live if stakes[s] >= level])))
        filled = upto
    excess = dead + sum(stakes) - filled
    if excess:
        amount, contenders = pots[-1]
        pots[-1] = (amount + excess, contenders)
    return pots
