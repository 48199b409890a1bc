"""Values typed into the admin pages' forms, read the one way every page reads them."""

from __future__ import annotations

import re

from app.errors import InvalidInput

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def whole_number(value: str, field: str) -> int:
    """A number typed in a form, in the digits 0-9 (int() would also read other scripts')."""
    if not _WHOLE_NUMBER.fullmatch(value.strip()):
        raise InvalidInput("invalid_input", f"{field} must be a whole number.")
    return int(value)
