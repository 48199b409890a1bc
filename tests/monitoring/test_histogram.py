"""The tables' histograms count as Prometheus reads them: cumulative, "less than or equal"."""

from __future__ import annotations

from app.monitoring.histogram import Histogram


def test_a_value_on_a_bound_counts_in_that_bucket_and_the_buckets_add_up() -> None:
    histogram = Histogram([1, 2.5, 10])
    for value in (0.2, 1, 2.5, 3, 10, 10.5, 400):
        histogram.observe(value)
    assert histogram.buckets() == [("1.0", 2), ("2.5", 3), ("10.0", 5), ("+Inf", 7)]
    assert histogram.count == 7
    assert histogram.total == 427.2


def test_milliseconds_are_shown_as_seconds() -> None:
    histogram = Histogram([2.5, 1000])
    histogram.observe(2)
    assert histogram.buckets(per_unit=1000) == [("0.0025", 1), ("1.0", 1), ("+Inf", 1)]
