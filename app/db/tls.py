"""TLS to PostgreSQL as DATABASE_URL asks for it, in libpq's words or in asyncpg's.

Hosted PostgreSQL providers hand out URLs in libpq's form (`?sslmode=require`, perhaps with
`sslrootcert=`); asyncpg takes one `ssl` connect argument instead (a mode, a boolean or an
`ssl.SSLContext`). Left in the URL, these keys would reach asyncpg as the server's run-time
parameters (which the server refuses: "parameter "ssl" cannot be changed now"), so they are
taken out of it here and turned into that one argument:

- `sslmode=disable` (or `ssl=false`): no TLS.
- `allow`, `prefer`: TLS if the server offers it, unverified (asyncpg's own fallback); with
  a client certificate, TLS is required.
- `require`: TLS, the certificate unverified — unless `sslrootcert` is given: then, as in
  libpq, the certificate must be signed by that authority.
- `verify-ca`: TLS with a certificate signed by `sslrootcert` (a file; `system`, or no
  `sslrootcert`, means the machine's trusted authorities).
- `verify-full` (or `ssl=true`, as asyncpg reads it): `verify-ca`, and the certificate must
  name the host of the URL.
- `sslcert` and `sslkey`: a client certificate, for servers that ask for one.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
# asyncpg's `ssl=` also takes a boolean.
_BOOLEANS = {"true": "verify-full", "1": "verify-full", "false": "disable", "0": "disable"}
TLS_KEYS = ("sslmode", "ssl", "sslrootcert", "sslcert", "sslkey")

# What the `ssl` connect argument of asyncpg is: no TLS, a mode it resolves, or a context.
SslArgument = bool | str | ssl.SSLContext


@dataclass(frozen=True)
class TlsRequest:
    """What a URL's query says of TLS (`mode` None: it says nothing)."""

    mode: str | None = None
    root_cert: str | None = None
    cert: str | None = None
    key: str | None = None


def _single(pairs: list[tuple[str, str]], key: str) -> str | None:
    values = [value for name, value in pairs if name == key]
    if len(values) > 1:
        raise ValueError(f"DATABASE_URL gives {key}= more than once: keep one")
    return values[0] if values else None


def split_tls(url: str) -> tuple[str, TlsRequest]:
    """`url` without its TLS keys, and what they asked for."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    sslmode = _single(query, "sslmode")
    asyncpg_ssl = _single(query, "ssl")
    if sslmode is not None and asyncpg_ssl is not None:
        raise ValueError("DATABASE_URL gives both sslmode= and ssl=: keep one (sslmode=)")
    mode = sslmode if sslmode is not None else asyncpg_ssl
    if mode is not None:
        mode = _BOOLEANS.get(mode.lower(), mode.lower())
        if mode not in MODES:
            key = "sslmode" if sslmode is not None else "ssl"
            raise ValueError(
                f"DATABASE_URL's {key}={mode} is not a TLS mode: give one of {', '.join(MODES)}"
            )
    request = TlsRequest(
        mode=mode,
        root_cert=_single(query, "sslrootcert"),
        cert=_single(query, "sslcert"),
        key=_single(query, "sslkey"),
    )
    if request.mode is None and (request.root_cert or request.cert or request.key):
        request = TlsRequest("prefer", request.root_cert, request.cert, request.key)
    kept = [(name, value) for name, value in query if name not in TLS_KEYS]
    return parts._replace(query=urlencode(kept)).geturl(), request


def _readable(key: str, name: str) -> str:
    path = Path(name).expanduser()
    if not path.is_file():
        raise ValueError(f"DATABASE_URL's {key}={name} is not a file: give the path of one")
    return str(path)


def _context(request: TlsRequest, mode: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    verify = mode in ("verify-ca", "verify-full") or bool(request.root_cert)
    context.check_hostname = mode == "verify-full"
    if verify:
        if request.root_cert in (None, "system"):
            context.load_default_certs(ssl.Purpose.SERVER_AUTH)
        else:
            authority = _readable("sslrootcert", str(request.root_cert))
            try:
                context.load_verify_locations(cafile=authority)
            except ssl.SSLError:
                raise ValueError(
                    f"DATABASE_URL's sslrootcert={request.root_cert} holds no certificate "
                    "(PEM) Salon can read"
                ) from None
        context.verify_mode = ssl.CERT_REQUIRED
    else:
        context.verify_mode = ssl.CERT_NONE
    if request.cert or request.key:
        if not (request.cert and request.key):
            raise ValueError("DATABASE_URL gives sslcert= without sslkey= (or the reverse)")
        try:
            context.load_cert_chain(
                _readable("sslcert", request.cert), _readable("sslkey", request.key)
            )
        except ssl.SSLError:
            raise ValueError(
                f"DATABASE_URL's sslcert={request.cert} and sslkey={request.key} are not a "
                "certificate and its key (PEM) Salon can read"
            ) from None
    return context


def ssl_argument(request: TlsRequest) -> SslArgument | None:
    """asyncpg's `ssl` connect argument for `request` (None: the URL said nothing).
    Raises ValueError with a sentence naming DATABASE_URL when a file it names is unusable."""
    mode = request.mode
    if mode is None:
        return None
    if mode == "disable":
        return False
    if mode in ("allow", "prefer") and not (request.cert or request.key):
        return mode  # asyncpg tries TLS and falls back, as libpq does
    return _context(request, "require" if mode in ("allow", "prefer") else mode)
