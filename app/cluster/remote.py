"""The two ends of a table served by another process.

On the process a socket reached (its origin), `RemoteTable` stands for a table another
process owns: it has the actor's `call`, and sends each command to the owner. On the
owner, `RemoteConnection` stands for that socket: the actor sends it frames as to any
connection, and they go to the origin, which hands them to the socket.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from app.tables.commands import Command, Connection
from app.tables.latency import BroadcastTracker

if TYPE_CHECKING:
    from app.cluster.node import ClusterNode


class RemoteConnection(Connection):
    """A socket of another process, as the owning table's actor sees it."""

    def __init__(self, node: ClusterNode, origin: str, ref: str, user_id: int, username: str):
        super().__init__(user_id=user_id, username=username)
        self.node = node
        self.origin = origin
        self.ref = ref

    def send(self, frame: bytes, tracker: BroadcastTracker | None = None) -> bool:
        if self.closed:
            return False
        self.node.forward_frame(self.origin, self.ref, frame)
        if tracker is not None:
            # Handed over to the other process: counted as sent once the caller counted it.
            asyncio.get_running_loop().call_soon(tracker.sent)
        return True

    def end(self, code: int) -> None:
        was_open = not self.closed
        super().end(code)
        if was_open:
            self.node.forward_end(self.origin, self.ref, code)


class RemoteTable:
    """A table owned by process `owner`, called from this one."""

    def __init__(self, node: ClusterNode, table_id: int, owner: str) -> None:
        self.node = node
        self.table_id = table_id
        self.owner = owner

    async def call(self, command: Command) -> Any:
        return await self.node.call_remote(self, command)
