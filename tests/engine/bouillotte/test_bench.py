"""The random-play bench: its shape, determinism and argument checks."""

import random

import pytest

from app.engine.bouillotte.bench import bench_bouillotte


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.5
        return self.now


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bench_plays_whole_hands(players: int) -> None:
    actions, rebuys, seconds, cpu = bench_bouillotte(
        players, 40, random.Random(1), clock=_Clock(), cpu_clock=_Clock()
    )
    assert actions > 40 and rebuys >= 0
    assert seconds == 0.5 and cpu == 0.5


def test_bench_is_deterministic_for_a_seed() -> None:
    first = bench_bouillotte(4, 30, random.Random(5), clock=_Clock(), cpu_clock=_Clock())
    second = bench_bouillotte(4, 30, random.Random(5), clock=_Clock(), cpu_clock=_Clock())
    assert first == second


def test_bench_refuses_a_bad_table() -> None:
    with pytest.raises(ValueError):
        bench_bouillotte(2, 10, random.Random(), clock=_Clock(), cpu_clock=_Clock())
    with pytest.raises(ValueError):
        bench_bouillotte(6, 10, random.Random(), clock=_Clock(), cpu_clock=_Clock())
