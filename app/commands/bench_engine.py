"""``salon bench engine``: how fast the rules engine plays whole hands on one core.

Random legal players (every choice taken from ``legal_actions``, so legal-move generation
and the cinch checks are measured) play a multi-hand session with the default rules. In
Bourré, when a stack runs low or the carried pot grows large, the table is reset so play
continues; in Bouillotte a seat that loses its cave buys a new one between hands.
The last line printed is JSON: game, players, hands, actions, seconds (wall clock),
cpu_seconds (this process only), hands_per_s and us_per_action (both from the wall clock).
"""

from __future__ import annotations

import json
import random
import sys
import time

from app.engine.registry import GAMES


def run_engine_bench(game: str, players: int, hands: int, seed: int | None = None) -> int:
    if game not in GAMES:
        print(f"bench engine: unknown game {game!r}", file=sys.stderr)
        return 2
    if not 2 <= players <= 8 or hands < 1:
        print("bench engine: players must be 2 to 8 and hands at least 1", file=sys.stderr)
        return 2
    played = GAMES[game]
    if not played.min_seats <= players <= played.max_seats:
        seats = f"{played.min_seats} to {played.max_seats}"
        print(f"bench engine: {game} needs {seats} players", file=sys.stderr)
        return 2
    actions, resets, seconds, cpu_seconds = played.bench(
        players, hands, random.Random(seed), clock=time.perf_counter, cpu_clock=time.process_time
    )
    hands_per_s = hands / seconds if seconds else float("inf")
    us_per_action = seconds / actions * 1e6 if actions else 0.0
    reset_word = played.bench_resets
    print(f"{played.title}, {players} players, default rules, random legal play on one core")
    print(f"{hands} hands, {actions} actions in {seconds:.3f} s ({resets} {reset_word})")
    print(f"{hands_per_s:,.0f} hands/s, {us_per_action:.2f} µs per action")
    summary = {
        "game": game,
        "players": players,
        "hands": hands,
        "actions": actions,
        "seconds": round(seconds, 6),
        "cpu_seconds": round(cpu_seconds, 6),
        "hands_per_s": round(hands_per_s, 1),
        "us_per_action": round(us_per_action, 3),
    }
    print(json.dumps(summary))
    return 0
