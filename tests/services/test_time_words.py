"""Times in words for a person: in the zone their browser names, or in UTC, always named;
a name that is no zone (or a path) is never looked up and leaves the time in UTC; a time
left reads the same everywhere."""

from __future__ import annotations

from datetime import datetime, timedelta

from app.services.time_words import reader_zone, time_left_words, time_words

AT = datetime(2026, 12, 2, 20, 4, 7)  # naive, as SQLite hands it back: UTC


def test_a_time_in_the_readers_zone_is_named() -> None:
    assert time_words(AT) == "2 Dec 2026, 20:04 UTC"
    assert time_words(AT, reader_zone("Europe/Paris")) == "2 Dec 2026, 21:04 (Europe/Paris)"
    assert time_words(AT, reader_zone("Pacific/Auckland")) == "3 Dec 2026, 09:04 (Pacific/Auckland)"
    assert reader_zone("America/Port-au-Prince") is not None
    assert reader_zone("Etc/GMT+5") is not None


def test_a_name_that_is_no_zone_leaves_the_time_in_utc() -> None:
    for bogus in (
        None,
        "",
        "Mars/Olympus_Mons",
        "europe/paris",
        "../../etc/passwd",
        "/etc/passwd",
        "zone.tab",
        "Europe/",
        "Europe",
        "Europe/Paris\n",
        "x" * 500,
    ):
        assert reader_zone(bogus) is None, bogus


def test_time_left_rounds_up_in_a_unit_that_stays_precise() -> None:
    def left(**delta: float) -> str:
        return time_left_words(AT + timedelta(**delta), AT)

    assert left(seconds=1) == "1 minute"
    assert left(seconds=-5) == "1 minute"  # ending as it is said
    assert left(minutes=90) == "90 minutes"
    assert left(minutes=119) == "119 minutes"
    assert left(minutes=119, seconds=30) == "2 hours"
    assert left(minutes=121) == "3 hours"
    assert left(hours=47) == "47 hours"
    assert left(hours=47, minutes=1) == "2 days"
    assert left(days=30) == "30 days"
