"""The cinch ("guaranteed win") computed from one player's knowledge (rules/bourre.md §6).

All functions work on card bitmasks (see ``app.engine.cards``). ``live`` is always the mask
of trumps that are live *for the player concerned*: trumps not in their hand, not played to
a trick and not known by them to be out of play. Because it is built only from what the
player knows, nothing computed here (and no refusal built on it) can reveal a hidden card.
"""

from __future__ import annotations

CINCH_TRICKS = 3
"""Sure tricks (with tricks already won) that make a cinch; three even in the 4-card game."""


def live_trumps(trump_mask: int, hand: int, played: int, known_out: int) -> int:
    """Trumps live for a player (§6).

    ``known_out`` holds what this player knows to be out of play: a turned card belonging to
    nobody, a turned card the dealer discarded face up, and the player's own discards that
    have not been reshuffled into a new stock since. Folded hands are unseen, so their
    trumps stay live; a turned card the dealer keeps is live for everyone but the dealer.
    The list of §6 is taken as exhaustive: a turned card kept by a dealer who then passed
    went face down with the folded hand (and may be reshuffled), so it counts as live.
    """
    return trump_mask & ~hand & ~played & ~known_out


def sure_tricks(trumps: int, live: int) -> int:
    """``max(0, max_j (j - m_j))`` over the player's trumps t1 > t2 > … (§6).

    ``m_j`` is the number of live trumps higher than t_j: each can beat at most one of the
    player's top j trumps, so at least ``j - m_j`` of them must win a trick.
    """
    best = 0
    j = 0
    while trumps:
        top = trumps.bit_length() - 1
        trumps ^= 1 << top
        j += 1
        sure = j - (live >> (top + 1)).bit_count()
        if sure > best:
            best = sure
    return best


def holds_cinch(won: int, trumps: int, live: int) -> bool:
    """A cinch: tricks already won plus sure tricks reach three (§6)."""
    if won >= CINCH_TRICKS:
        return True
    if won + trumps.bit_count() < CINCH_TRICKS:
        return False  # cheap exit: sure tricks never exceed the trumps held
    return won + sure_tricks(trumps, live) >= CINCH_TRICKS


def highest_trump_equivalents(trumps: int, live: int) -> int:
    """The highest trump held and every trump held equivalent to it (§6).

    A trump is equivalent to the highest when no live trump ranks between them, e.g. the
    king from A-K, or the jack from K-J when the queen has been played.
    """
    if not trumps:
        return 0
    top = trumps.bit_length() - 1
    result = 1 << top
    below = top - 1
    suit_floor = (top // 13) * 13
    while below >= suit_floor:
        bit = 1 << below
        if trumps & bit:
            result |= bit
        elif live & bit:
            break
        below -= 1
    return result
