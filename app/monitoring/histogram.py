"""A histogram cheap enough to observe every action.

prometheus-client's own histogram takes a lock per bucket and per sum on each observation;
the tables' figures are observed on the event loop's thread, so plain integers do: an
observation is a binary search over the bounds and two additions. The collector
(app/monitoring/collector.py) reads them at scrape time. The counts only grow (a reset of the
admins' latency figures does not touch them), as Prometheus expects of a histogram.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence


class Histogram:
    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = tuple(sorted(bounds))
        # One count per bucket, the last for values above every bound (Prometheus's +Inf).
        self.counts = [0] * (len(self.bounds) + 1)
        self.total = 0.0

    def observe(self, value: float) -> None:
        # The first bound at least `value`: Prometheus buckets are "less than or equal".
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    @property
    def count(self) -> int:
        return sum(self.counts)

    def buckets(self, per_unit: float = 1.0) -> list[tuple[str, float]]:
        """Cumulative counts by upper bound, as prometheus-client's HistogramMetricFamily
        takes them; the bounds divided by `per_unit` (1000: milliseconds observed, seconds
        exposed)."""
        cumulative = 0
        buckets: list[tuple[str, float]] = []
        for bound, count in zip(self.bounds, self.counts, strict=False):
            cumulative += count
            buckets.append((repr(bound / per_unit), cumulative))
        buckets.append(("+Inf", cumulative + self.counts[-1]))
        return buckets


# Milliseconds: from a quick action on a quiet machine to a stalled process.
LATENCY_MS_BOUNDS = (1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000)
# Actions stored by one commit (app/services/action_writer.py, at most 250).
BATCH_BOUNDS = (1, 2, 3, 5, 10, 20, 50, 100, 250)
