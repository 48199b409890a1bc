"""The figures /metrics shows, read from the running parts at scrape time.

Nothing here runs per action: the tables keep plain counts and histograms
(app/monitoring/histogram.py) where they already keep their figures, and this collector
turns them into Prometheus metric families when Prometheus asks. Every figure is this
process's: with several processes, Prometheus scrapes each one and sums.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from app.engine.registry import GAME_NAMES
from app.monitoring.histogram import Histogram
from app.monitoring.loop_lag import LoopLag

if TYPE_CHECKING:
    from app.tables.manager import TableManager
    from app.ws.logins import LoginSockets

MS_PER_SECOND = 1000.0  # the histograms observe milliseconds; Prometheus's unit is the second


class SalonCollector(Collector):
    def __init__(self, tables: TableManager, logins: LoginSockets, loop_lag: LoopLag) -> None:
        self.tables = tables
        self.logins = logins
        self.loop_lag = loop_lag

    def collect(self) -> Iterator[Metric]:
        yield self._live_tables()
        yield GaugeMetricFamily(
            "salon_open_sockets",
            "Table sockets open on this process.",
            value=self.logins.sockets_here(),
        )
        yield GaugeMetricFamily(
            "salon_members_online",
            "Members with at least one table socket open on this process.",
            value=self.logins.members_here(),
        )
        writer = self.tables.writer
        yield CounterMetricFamily(
            "salon_actions",
            "Actions accepted and stored by this process's tables (players' and turn timers').",
            value=writer.batch_sizes.total,  # the sum of the actions per commit
        )
        yield _histogram(
            "salon_action_latency_seconds",
            "From an action received on a socket to its broadcast handed to the last seated "
            "player's socket.",
            self.tables.latency.histogram,
            per_unit=MS_PER_SECOND,
        )
        yield _histogram(
            "salon_commit_batch_size",
            "Actions stored by one database commit (group commit).",
            writer.batch_sizes,
        )
        yield _histogram(
            "salon_event_loop_lag_seconds",
            "How late the event loop woke a task that asked to wake up (twice a second).",
            self.loop_lag.histogram,
            per_unit=MS_PER_SECOND,
        )
        yield self._gc_pauses()
        refused = CounterMetricFamily(
            "salon_refused_writes",
            "Writes this process's tables could not make: fenced (another process owns the "
            "table now) or storage (the database could not be reached or could not write: "
            "the write that found it away, then each command refused while it is).",
            labels=["reason"],
        )
        refused.add_metric(["fenced"], self.tables.refused.fenced)
        refused.add_metric(["storage"], self.tables.refused.storage)
        yield refused
        yield from self._cluster()

    def _live_tables(self) -> Metric:
        games = Counter(
            actor.table.game
            for table_id, actor in list(self.tables.actors.items())
            if actor.table is not None and self.tables.running_here(table_id) is not None
        )
        family = GaugeMetricFamily(
            "salon_live_tables", "Tables served by this process, by game.", labels=["game"]
        )
        for game in sorted(set(GAME_NAMES) | set(games)):
            family.add_metric([game], games[game])
        return family

    def _gc_pauses(self) -> Metric:
        family = HistogramMetricFamily(
            "salon_gc_pause_seconds",
            "Pauses of Python's cyclic garbage collector (every table waits), by generation.",
            labels=["generation"],
        )
        for generation, histogram in self.tables.gc_pauses.histograms.items():
            family.add_metric(
                [str(generation)],
                histogram.buckets(MS_PER_SECOND),
                sum_value=histogram.total / MS_PER_SECOND,
            )
        return family

    def _cluster(self) -> Iterator[Metric]:
        """Only when several processes serve the club (REDIS_URL)."""
        node = self.tables.cluster
        if node is None:
            return
        yield GaugeMetricFamily(
            "salon_redis_up",
            "1 while this process hears the club's other processes over Redis, 0 while not.",
            value=1 if node.redis_state == "up" else 0,
        )
        taken = CounterMetricFamily(
            "salon_lease_takeovers",
            "Tables this process took: from a process found dead (dead_owner), or with nobody "
            "holding their lease (unowned: at start-up, after a lease lapsed).",
            labels=["reason"],
        )
        taken.add_metric(["dead_owner"], node.lease_figures.taken_from_dead)
        taken.add_metric(["unowned"], node.lease_figures.taken_unowned)
        yield taken
        yield CounterMetricFamily(
            "salon_leases_lost",
            "Tables this process stopped serving because another process held their lease.",
            value=node.lease_figures.lost,
        )


def _histogram(
    name: str, documentation: str, histogram: Histogram, per_unit: float = 1.0
) -> Metric:
    return HistogramMetricFamily(
        name,
        documentation,
        buckets=histogram.buckets(per_unit),
        sum_value=histogram.total / per_unit,
    )
