"""Reading a /metrics answer with prometheus-client's own parser."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(body: str) -> Samples:
    """Every sample of the scrape, by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


def total(samples: Samples, name: str) -> float:
    """The sum of a metric over all its labels."""
    return sum(v for (sample, _), v in samples.items() if sample == name)


def names(samples: Samples) -> set[str]:
    return {name for name, _ in samples}
