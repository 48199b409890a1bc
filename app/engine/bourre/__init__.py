"""The Bourré rules engine (rules/bourre.md).

Typical use by a table runtime::

    rules = BourreRules.from_dict(stored_rules)          # or PRESETS["indiana_four_card"]
    session = BourreSession(rules, stacks, button=0)
    seed = new_seed()                                     # app.engine.rng; publish commitment(seed)
    hand = session.start_hand(seed=seed, sitting_out=away)
    events = hand.start_events                            # antes, private deals, turned card
    while not hand.is_over:
        ...                                               # hand.to_act(), hand.view(seat)
        events = hand.apply(Action(seat, "card", card="AS"))  # EngineError if refused
    result = session.close_hand()                         # stacks, carried pot, exemptions
    entry = app.engine.log.hand_entry(hand)               # the hand-history record

Events with ``to`` set go to that seat only; all others are public.
"""

from app.engine.bourre.config import PRESETS, BourreRules, preset
from app.engine.bourre.session import BourreSession
from app.engine.bourre.state import BourreHand, HandResult
from app.engine.options import ConfigError

__all__ = [
    "PRESETS",
    "BourreHand",
    "BourreRules",
    "BourreSession",
    "ConfigError",
    "HandResult",
    "preset",
]
