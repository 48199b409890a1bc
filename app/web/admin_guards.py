"""The guard every admin page and form router takes (its routes are walked by a test),
and the caller it lets through, for the handlers behind it."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from app.api.deps import Caller, OptionalCaller, csrf_protect
from app.errors import Forbidden, LoginFirst
from app.i18n import _


async def admin_page_gate(caller: OptionalCaller) -> Caller:
    """Router-wide guard of every admin page and form, after the CSRF check: someone not
    logged in is sent to log in (a page) or refused (a form), a member is refused."""
    if caller is None:
        raise LoginFirst()
    if not caller.is_admin:
        raise Forbidden("admin_only", _("Only the club's admins can do this."))
    return caller


# Every router under /admin takes these, in this order.
ADMIN_PAGE_GUARDS = [Depends(csrf_protect), Depends(admin_page_gate)]

# The admin a handler behind those routers acts as: the guard's own answer (FastAPI runs a
# dependency once a request), so the check is written and made once.
PageAdmin = Annotated[Caller, Depends(admin_page_gate)]
