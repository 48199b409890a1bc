"""Text hygiene for anything a person types."""

from __future__ import annotations

import re

# C0 controls and DEL: never meaningful in a name, a reason or a code, and NUL is refused
# outright by Postgres.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def has_control_chars(text: str) -> bool:
    return _CONTROL.search(text) is not None
