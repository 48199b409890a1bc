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

from app.engine.bouillotte.bench import bench_bouillotte
from app.engine.bourre import BourreRules, BourreSession

START_STACK = 1000
LOW_STACK = 200
LARGE_POT = 64


def _bench_bourre(players: int, hands: int, rng: random.Random) -> tuple[int, int, float, float]:
    rules = BourreRules()
    session = BourreSession(rules, [START_STACK] * players)
    resets = 0
    actions = 0
    draw = rng.random
    started = time.perf_counter()
    cpu_started = time.process_time()
    for _ in range(hands):
        hand = session.start_hand(seed=rng.randbytes(32))
        while seats := hand.to_act():
            seat = seats[int(draw() * len(seats))]
            legal = hand.legal_actions(seat)
            hand.apply(legal[int(draw() * len(legal))])
            actions += 1
        session.close_hand()
        if session.pot > LARGE_POT or min(session.stacks) < LOW_STACK:
            session = BourreSession(rules, [START_STACK] * players, button=session.button)
            resets += 1
    return actions, resets, time.perf_counter() - started, time.process_time() - cpu_started


def run_engine_bench(game: str, players: int, hands: int, seed: int | None = None) -> int:
    if game not in ("bourre", "bouillotte"):
        print(f"bench engine: unknown game {game!r}", file=sys.stderr)
        return 2
    if not 2 <= players <= 8 or hands < 1:
        print("bench engine: players must be 2 to 8 and hands at least 1", file=sys.stderr)
        return 2
    if game == "bouillotte" and not 3 <= players <= 5:
        print("bench engine: bouillotte needs 3 to 5 players", file=sys.stderr)
        return 2
    rng = random.Random(seed)
    if game == "bouillotte":
        actions, resets, seconds, cpu_seconds = bench_bouillotte(
            players, hands, rng, clock=time.perf_counter, cpu_clock=time.process_time
        )
    else:
        actions, resets, seconds, cpu_seconds = _bench_bourre(players, hands, rng)
    hands_per_s = hands / seconds if seconds else float("inf")
    us_per_action = seconds / actions * 1e6 if actions else 0.0
    label = "Bouillotte" if game == "bouillotte" else "Bourré"
    reset_word = "rebuys" if game == "bouillotte" else "table resets"
    print(f"{label}, {players} players, default rules, random legal play on one core")
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
