"""The serving socket, bound before the server announces anything.

`salon serve` binds its address itself and hands the socket to Uvicorn: a port another
program holds is then one sentence before start-up (no "Salon serving on …", no tables
loaded, no joining the other processes), and nothing can take the port between the check
and the serving.
"""

from __future__ import annotations

import errno
import socket

from app.commands.preflight import SetupProblem

# Uvicorn's default: connections the kernel queues before the server accepts them.
BACKLOG = 2048
_WHAT_TO_DO = "choose another with --port or SALON_PORT"


def _problem(host: str, port: int, error: OSError) -> SetupProblem:
    where = f"{host}:{port}"
    if error.errno == errno.EADDRINUSE:
        return SetupProblem(
            f"Port {port} on {host} is already in use by another program: stop it, or "
            f"{_WHAT_TO_DO}."
        )
    if error.errno == errno.EACCES:
        return SetupProblem(
            f"This user may not listen on {where} (ports below 1024 need privileges): "
            f"{_WHAT_TO_DO}, and put a reverse proxy in front."
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return SetupProblem(
            f"{host} is not an address of this machine: set --host or SALON_HOST to one of "
            "its addresses (127.0.0.1, or 0.0.0.0 for all)."
        )
    reason = error.strerror or str(error)
    return SetupProblem(f"Cannot listen on {where} ({reason}): check SALON_HOST and SALON_PORT.")


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on `host`:`port` (Uvicorn serves on it), or a SetupProblem."""
    if not 1 <= port <= 65535:  # SALON_PORT is bounded by its setting; --port is checked here
        raise SetupProblem(f"--port {port} is not a port: it accepts 1 to 65535.")
    try:
        family, kind, protocol, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror:
        raise SetupProblem(
            f"The host {host!r} to listen on is not an address this machine can resolve: set "
            "--host or SALON_HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all)."
        ) from None
    sock = socket.socket(family, kind, protocol)
    # As Uvicorn does: a restarted server may bind while the old connections linger.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError as error:
        sock.close()
        raise _problem(host, port, error) from None
    sock.set_inheritable(True)
    return sock
