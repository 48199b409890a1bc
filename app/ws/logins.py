"""Which table sockets are open under which login, so that a login that ends closes them.

A socket is opened with a session cookie and then lives on its own: nothing in a frame
shows that its login has ended since. So every way a login ends asks this registry to
check that member's sockets again, at once: a logout or a password change (the session
rows are gone), a ban (the member is no longer active); and each socket's own watch ends
it when its session expires. A socket whose login no longer resolves is ended: it is told
why (`session_ended`), closed, and the table treats its member as disconnected.

The registry also holds each member to `MAX_SOCKETS_PER_MEMBER` open sockets.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.db.session import Database
from app.errors import RateLimited
from app.i18n import _
from app.services import auth
from app.tables.commands import Connection

if TYPE_CHECKING:
    from app.cluster.node import ClusterNode

MAX_SOCKETS_PER_MEMBER = 8
# Close code of a socket whose login has ended (4000-4999: the application's own).
CLOSE_SESSION_ENDED = 4001


class TooManyConnections(RateLimited):
    def __init__(self) -> None:
        super().__init__(retry_after=5)
        self.code = "too_many_connections"
        self.message = _(
            "You already have %(num)d tables open: close one first.", num=MAX_SOCKETS_PER_MEMBER
        )


@dataclass(eq=False, frozen=True, slots=True)
class OpenSocket:
    user_id: int
    # The session cookie the socket was opened with (kept in memory only).
    token: str
    connection: Connection


class LoginSockets:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._by_member: defaultdict[int, set[OpenSocket]] = defaultdict(set)
        # Several processes serving the club: they count each member's sockets together
        # and hear of each other's rechecks (app/cluster).
        self.cluster: ClusterNode | None = None

    async def add(self, socket: OpenSocket) -> None:
        if len(self._by_member[socket.user_id]) >= MAX_SOCKETS_PER_MEMBER:
            raise TooManyConnections()
        if self.cluster is not None:
            await self.cluster.sockets.open(socket.user_id, MAX_SOCKETS_PER_MEMBER)
        self._by_member[socket.user_id].add(socket)

    def discard(self, socket: OpenSocket) -> None:
        sockets = self._by_member.get(socket.user_id)
        if sockets is not None and socket in sockets:
            sockets.discard(socket)
            if not sockets:
                del self._by_member[socket.user_id]
            if self.cluster is not None:
                self.cluster.sockets.closed(socket.user_id)

    def count(self, user_id: int) -> int:
        return len(self._by_member.get(user_id, ()))

    def members_here(self) -> int:
        """Members with at least one table socket open on this process."""
        return len(self._by_member)

    def sockets_here(self) -> int:
        """Table sockets open on this process."""
        return sum(len(sockets) for sockets in self._by_member.values())

    async def members_online(self) -> int:
        """Members with at least one table socket open now (in any process)."""
        if self.cluster is not None:
            return await self.cluster.sockets.members_online()
        return len(self._by_member)

    async def recheck(self, user_id: int) -> int:
        """End every socket of this member whose login no longer holds, in every process;
        how many ended in this one."""
        if self.cluster is not None:
            self.cluster.recheck_everywhere(user_id)
        return await self.recheck_here(user_id)

    async def recheck_here(self, user_id: int) -> int:
        """End every socket of this member in this process whose login no longer holds."""
        sockets = list(self._by_member.get(user_id, ()))
        if not sockets:
            return 0
        async with self.db.transaction() as session:
            ended = [s for s in sockets if await auth.resolve(session, s.token) is None]
        for socket in ended:
            socket.connection.end(CLOSE_SESSION_ENDED)
        return len(ended)
