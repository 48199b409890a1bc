"""The fake clock wakes sleepers only when a test moves time."""

from __future__ import annotations

import asyncio

from app.tables.clock import FakeClock, SystemClock


async def test_fake_clock_wakes_sleepers_in_deadline_order() -> None:
    clock = FakeClock(start=100.0)
    woke: list[str] = []

    async def sleeper(name: str, deadline: float) -> None:
        await clock.sleep_until(deadline)
        woke.append(name)

    tasks = [
        asyncio.create_task(sleeper("late", 130.0)),
        asyncio.create_task(sleeper("soon", 110.0)),
    ]
    await asyncio.sleep(0)
    await clock.advance(5)
    assert woke == []
    await clock.advance(10)
    assert woke == ["soon"]
    await clock.advance(20)
    assert woke == ["soon", "late"]
    assert clock.now() == 135.0
    await asyncio.gather(*tasks)


async def test_past_deadlines_return_at_once() -> None:
    clock = FakeClock(start=5.0)
    await asyncio.wait_for(clock.sleep_until(1.0), timeout=1)
    system = SystemClock()
    await asyncio.wait_for(system.sleep_until(system.now() - 1), timeout=1)
