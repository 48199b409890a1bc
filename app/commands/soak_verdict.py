"""What ``salon bench soak`` concludes from what it saw: pure, so the verdict is tested alone.

- **Memory flat.** Each server process's resident memory is sampled. One process is
  judged over the run; several are judged *together*, on the samples where every one of
  them was up: a process killed and started again comes back small, and the others grow
  by the tables they took over from it, so no single process's curve says anything of a
  leak, while the sum does once every process has been killed and started again a few
  times (a kill every five minutes: four per third of an hour). The curve is judged once
  it has `MIN_SAMPLES` samples: its first third is the warm-up (tables loaded, caches and
  the interpreter's arenas filled, the latency recorder's window filling up, and with
  several processes each one's high-water mark of tables reached), and the median of its
  last third may exceed the median of its middle third by at most `GROWTH_PERCENT` of it
  or `GROWTH_MB` a process, whichever is larger. Medians, not the last sample: the
  collector and the allocator make the curve saw-toothed, and one peak is no leak; a leak
  proportional to the play shows as a steady rise between the thirds. The megabytes cover
  short runs (a few megabytes of noise is a large share of a few minutes' growth); the
  percentage, a club's hour. A curve too short to judge: the run proves nothing, and fails.
- **With kills, windows of a whole kill cycle.** Killed in turn, the processes come back
  to the same ages (and so to the same sizes: a fresh process is small, one that has taken
  over tables twice is not) once every cycle of ``processes x kill-every`` minutes. Thirds
  of the hour cut that cycle anywhere, so the sum's medians differed by where its phases
  fell (at one hour, 32 MB between thirds, with no process growing at equal age). The
  middle and last windows are then the run's last two whole cycles, which hold every phase
  once each; the first cycle, before every process has been started again, is the warm-up.
  A run of fewer than three cycles falls back to thirds (the suite's short runs).
- **No error frames but refusals.** `REFUSALS` are the codes a well-behaved client may be
  answered with under load and while processes are killed; any other code fails the run.
- **Audits clean, nothing lost, no table stuck, no incident, hands played.** As measured
  by the run.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# Error codes a client acting correctly can still be answered with, and why each is no fault:
REFUSALS = frozenset(
    {
        # The table moved on (a bot acted, a hand ended, the timer acted) between the
        # snapshot the member chose from and the action's arrival.
        "stale_version",
        "not_your_turn",
        "no_hand",
        # Asked between hands, answered once a hand had started (a top-up, a seat).
        "hand_in_progress",
        # The table is being read back from the database after its process was killed, or
        # is moving to another process (or has: the old owner's fence refuses): "try again
        # shortly", or "reconnecting", and the page does.
        "storage_unavailable",
        "table_unavailable",
        "table_moved",
        # The limits on messages and on sockets per member (a socket of a killed process
        # may still count a moment): refusals by design.
        "rate_limited",
        "too_many_connections",
    }
)

MIN_SAMPLES = 6
GROWTH_PERCENT = 5.0
GROWTH_MB = 8.0


@dataclass(frozen=True, slots=True)
class Life:
    """The memory of the server: one process's, or (`process` None) the sum of `processes`
    processes' while all were up."""

    process: int | None
    samples: tuple[tuple[float, float], ...]  # (seconds into the run, RSS in MB)
    processes: int = 1
    # Seconds after which the processes are back at the same ages (processes killed in
    # turn: processes x the time between kills); None: no kills.
    cycle: float | None = None


@dataclass(frozen=True, slots=True)
class Growth:
    process: int | None
    started: float  # seconds into the run
    middle_mb: float
    last_mb: float
    allowed_mb: float

    @property
    def grown_mb(self) -> float:
        return round(self.last_mb - self.middle_mb, 1)

    @property
    def flat(self) -> bool:
        return self.grown_mb <= self.allowed_mb


def who(process: int | None) -> str:
    return "the processes together" if process is None else f"process {process}"


def growth(life: Life) -> Growth | None:
    """How much `life` grew from its middle third to its last (None: too short to say)."""
    rss = [mb for _, mb in life.samples]
    if len(rss) < MIN_SAMPLES:
        return None
    middle_window, last_window = windows(life)
    middle = statistics.median(middle_window)
    last = statistics.median(last_window)
    allowed = max(middle * GROWTH_PERCENT / 100, GROWTH_MB * life.processes)
    return Growth(
        life.process, life.samples[0][0], round(middle, 1), round(last, 1), round(allowed, 1)
    )


def windows(life: Life) -> tuple[list[float], list[float]]:
    """The samples of the middle and the last window (the module's docstring says which)."""
    rss = [mb for _, mb in life.samples]
    end = life.samples[-1][0]
    if life.cycle and end - life.samples[0][0] >= 3 * life.cycle:
        middle = [mb for at, mb in life.samples if end - 2 * life.cycle < at <= end - life.cycle]
        last = [mb for at, mb in life.samples if at > end - life.cycle]
        if middle and last:
            return middle, last
    third = len(rss) // 3
    return rss[third : 2 * third], rss[2 * third :]


@dataclass(frozen=True, slots=True)
class Verdict:
    failures: list[str] = field(default_factory=list)
    growths: list[Growth] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def unexpected_errors(errors: Mapping[str, int]) -> dict[str, int]:
    """The error frames (by code) that are not refusals."""
    return {code: n for code, n in sorted(errors.items()) if code not in REFUSALS and n}


def judge(
    lives: Sequence[Life],
    errors: Mapping[str, int],
    audits: Sequence[Sequence[str]],
    lost: Sequence[str],
    stuck: Sequence[str],
    incidents: Sequence[str],
    hands: int,
    kills_expected: int,
    kills_done: int,
) -> Verdict:
    """The soak's verdict. `audits`: each audit's problems (none: clean); `lost`: the
    acknowledged actions not stored exactly once, said; `stuck`: the tables that stopped
    dealing, said; `incidents`: anything else that went wrong (a request failed, a member
    could not play on, a process died that was not killed), said."""
    failures: list[str] = []
    growths = [g for g in (growth(life) for life in lives) if g is not None]
    if not growths:
        failures.append(
            f"memory not judged: fewer than {MIN_SAMPLES} samples "
            "(a longer run, or a shorter --sample-seconds)"
        )
    for g in growths:
        if not g.flat:
            failures.append(
                f"memory grew: {who(g.process)} went from {g.middle_mb} MB to {g.last_mb} MB "
                f"(+{g.grown_mb} MB, over {g.allowed_mb} MB)"
            )
    other = unexpected_errors(errors)
    if other:
        failures.append(
            "error frames that are not refusals: "
            + ", ".join(f"{code} x{n}" for code, n in other.items())
        )
    if not audits:
        failures.append("no audit ran")
    unclean = [problems for problems in audits if problems]
    if unclean:
        failures.append(
            f"{len(unclean)} of {len(audits)} audit(s) found problems, e.g.: {unclean[0][0]}"
        )
    if lost:
        failures.append(f"{len(lost)} acknowledged action(s) not stored once, e.g.: {lost[0]}")
    if stuck:
        failures.append(f"{len(stuck)} table(s) stopped dealing, e.g.: {stuck[0]}")
    if incidents:
        failures.append(f"{len(incidents)} incident(s), e.g.: {incidents[0]}")
    if hands <= 0:
        failures.append("no hand was played")
    if kills_done < kills_expected:
        failures.append(f"{kills_done} process(es) killed, {kills_expected} expected")
    return Verdict(failures, growths)
