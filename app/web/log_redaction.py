"""Reset links stay out of the logs.

A password-reset link is a bearer secret in a URL path (`/reset/<token>`), and the access
log (app/monitoring/request_log.py) writes every path it serves: until the link is used or
expires, anyone reading the log could use it. The token is blanked; the rest of the line
(address, method, status) is kept.
"""

from __future__ import annotations

import re

from app.services.password_resets import LINK_PATH

_TOKEN_IN_PATH = re.compile(re.escape(LINK_PATH) + r"[^\s?#\"']+")
_BLANKED = f"{LINK_PATH}[token withheld]"


def blank_tokens(text: str) -> str:
    return _TOKEN_IN_PATH.sub(_BLANKED, text)
