"""The codes the admin pages show (a member's role and status, a table's status, a chip
request's answer) in the reader's language. The codes stay in the data, the forms and the
exports; only what a person reads is translated. Built when asked, in the request's
language."""

from __future__ import annotations

from app.i18n import pgettext


def code_words() -> dict[str, dict[str, str]]:
    """By kind of code, each code's words (a code missing here reads as itself)."""
    return {
        "role": {
            "owner": pgettext("role", "owner"),
            "admin": pgettext("role", "admin"),
            "member": pgettext("role", "member"),
        },
        "member_status": {
            "pending": pgettext("member status", "pending"),
            "active": pgettext("member status", "active"),
            "banned": pgettext("member status", "banned"),
        },
        "table_status": {
            "open": pgettext("table status", "open"),
            "paused": pgettext("table status", "paused"),
            "closed": pgettext("table status", "closed"),
        },
        "request_status": {
            "pending": pgettext("chip request", "pending"),
            "approved": pgettext("chip request", "approved"),
            "declined": pgettext("chip request", "declined"),
        },
    }


def said(kind: str, code: object) -> str:
    """`code` (a role, a status…) in words."""
    return code_words()[kind].get(str(code), str(code))
