"""The Bouillotte rules engine (rules/bouillotte.md)."""

from app.engine.bouillotte.config import PRESETS, BouillotteRules, preset
from app.engine.bouillotte.session import BouillotteSession
from app.engine.bouillotte.state import BouillotteHand, HandResult
from app.engine.options import ConfigError

__all__ = [
    "PRESETS",
    "BouillotteHand",
    "BouillotteRules",
    "BouillotteSession",
    "ConfigError",
    "HandResult",
    "preset",
]
