"""Reset links stay out of the logs.

A password-reset link is a bearer secret in a URL path (`/reset/<token>`), and an access
log writes every path it serves: until the link is used or expires, anyone reading the log
could use it. This filter blanks the token in every record of the loggers it is put on,
whatever formats them; the rest of the line (address, method, status) is kept.
"""

from __future__ import annotations

import logging
import re

from app.services.password_resets import LINK_PATH

_TOKEN_IN_PATH = re.compile(re.escape(LINK_PATH) + r"[^\s?#\"']+")
_BLANKED = f"{LINK_PATH}[token withheld]"
# Uvicorn's access log: one record per request, the path among its arguments.
ACCESS_LOGGERS = ("uvicorn.access",)


def blank_tokens(text: str) -> str:
    return _TOKEN_IN_PATH.sub(_BLANKED, text)


class ResetTokenFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = blank_tokens(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                blank_tokens(arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


def keep_tokens_out_of_logs(names: tuple[str, ...] = ACCESS_LOGGERS) -> None:
    """Put the filter on these loggers, once (an app made again adds no second one)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ResetTokenFilter) for f in logger.filters):
            logger.addFilter(ResetTokenFilter())
