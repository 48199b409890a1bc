"""Values typed into the admin pages' forms, read the one way every page reads them."""

from __future__ import annotations

import re

from app.errors import InvalidInput
from app.i18n import _

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def whole_number(value: str, field: str) -> int:
    """A number typed in a form, in the digits 0-9 (int() would also read other scripts').
    `field` is the field's label as the reader sees it (already translated)."""
    if not _WHOLE_NUMBER.fullmatch(value.strip()):
        raise InvalidInput("invalid_input", _("%(field)s must be a whole number.", field=field))
    return int(value)
